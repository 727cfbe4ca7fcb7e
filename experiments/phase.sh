#!/bin/sh
# Phase transitions of gsfw recover: success rate (rel_err <= 0.05) against the sampling
# ratio n / s, per image set and variant, with the information limits and the l1
# (Donoho-Tanner) transitions drawn (docs/experiments-phase.md).
#
#   usage: sh experiments/phase.sh [BUILD_DIR] [OUT_DIR]          (make phase, make phase-full)
#
#   MODE=quick|full  quick (default): few trials and ratios, minutes; full: 20 trials a
#                    point, hours (docs/experiments.md gives the times)
#   SETS="..."       among mnist0 fashion angio vessels (default: all)
#   VARIANTS="..."   among default (gsfw recover as it is: polish, restarts),
#                    norestart (--restarts 0), graph-cosamp (the best baseline)
#   TRIALS=N         trials per point for every set; RATIOS_<set>="..." the ratios of a set
#
# Trial t of a point uses --seed t (t = 0..N-1); for fashion, trial t is the held-out
# Fashion-MNIST test image t (experiments/fashion_images.py; needs the Debian package
# dataset-fashion-mnist) with --seed t. The vessel map (65 536 pixels) is measured with
# the DCT (--sensing dct): a Gaussian matrix would take gigabytes.
#
# OUT_DIR (default results/phase) receives runs.csv (one row per run, appended as runs
# finish: an interrupted sweep resumes where it stopped), table.md, bounds.csv and
# phase_<set>.png. BLAS runs single-threaded; CPU seconds come from /usr/bin/time.
set -eu
build=${1:-build}
out=${2:-results/phase}
. "$(dirname "$0")/exp_common.sh"
need_gsfw
timer=/usr/bin/time
[ -x "$timer" ] || die "$timer not found (Debian package 'time')"
export OPENBLAS_NUM_THREADS=1

mode=${MODE:-quick}
case $mode in
quick)
    def_trials=5
    r_mnist0="1.5 2.0 2.5 3.0"; r_fashion="1.5 2.0 2.5"; r_angio="2.0 2.5"; r_vessels="2.0 3.0"
    t_angio=2; t_vessels=1
    def_variants="default norestart" ;;
full)
    def_trials=20
    r_mnist0="1.25 1.5 1.75 2.0 2.25 2.5 3.0 3.5"; r_fashion="1.5 1.75 2.0 2.25 2.5"
    r_angio="1.5 2.0 2.5 3.0"; r_vessels="1.5 2.0 2.5 3.0"
    t_angio=$def_trials; t_vessels=$def_trials
    def_variants="default norestart graph-cosamp" ;;
*) die "MODE must be quick or full, got '$mode'" ;;
esac
sets=${SETS:-mnist0 fashion angio vessels}
variants=${VARIANTS:-$def_variants}

mkdir -p "$out"
tmp="$out/scratch.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM
runs="$out/runs.csv"
cols="set,variant,ratio,seed,n,s,d,g,rel_err,ok,status,iters,restarts,time_s,polish_s,setup_s,cpu_s"
[ -s "$runs" ] || echo "$cols" >"$runs"

variant_flags() {
    case $1 in
    default) echo "" ;;
    norestart) echo "--restarts 0" ;;
    graph-cosamp) echo "--method graph-cosamp" ;;
    *) die "unknown variant '$1'" ;;
    esac
}

set_image() { # set trial -> image path
    case $1 in
    mnist0) echo "$root/data/mnist_0.npy" ;;
    angio) echo "$root/data/angio.npy" ;;
    vessels) echo "$root/data/vessels_256.png" ;;
    fashion) printf '%s/fashion_test/fashion_%02d.npy\n' "$out" "$2" ;;
    *) die "unknown set '$1'" ;;
    esac
}

# one run, appended to runs.csv unless it is there already
run_one() { # set variant ratio seed
    if grep -q "^$1,$2,$3,$4," "$runs"; then return 0; fi
    extra=""
    [ "$1" = vessels ] && extra="--sensing dct"
    # shellcheck disable=SC2046
    line=$($timer -f "%U %S" -o "$tmp/cpu" "$gsfw" recover --image "$(set_image "$1" "$4")" \
        --ratio "$3" --seed "$4" --out-dir "$tmp/run" --no-plot $extra $(variant_flags "$2")) ||
        die "gsfw recover failed: $1 $2 ratio $3 seed $4"
    cpu=$(awk '{ print $1 + $2 }' "$tmp/cpu")
    printf '%s\n' "$line" | awk -v pre="$1,$2,$3,$4" -v cpu="$cpu" '
        { for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v } }
        END {
            r = ("restarts" in f) ? f["restarts"] : 0
            e = f["rel_err"]
            ok = (e ~ /^[0-9.eE+-]+$/) && e + 0 <= 0.05 # nan and inf fail
            printf "%s,%s,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s\n", pre, f["n"], f["s"], f["d"], f["g"],
                e, ok, f["status"], f["iters"], r, f["time_s"],
                f["polish_s"], f["setup_s"], cpu
        }' >>"$runs"
}

if echo " $sets " | grep -q " fashion "; then
    [ -s "$out/fashion_test/index.csv" ] ||
        /usr/bin/python3 "$exp_dir/fashion_images.py" "$out/fashion_test" --count 20 ||
        die "no Fashion-MNIST images (apt-get install dataset-fashion-mnist), or leave fashion out of SETS"
fi

start=$(date +%s)
for set in $sets; do
    eval "ratios=\${RATIOS_$set:-\$r_$set}"
    trials=${TRIALS:-$(eval "echo \${t_$set:-$def_trials}")}
    for variant in $variants; do
        for ratio in $ratios; do
            t=0
            while [ "$t" -lt "$trials" ]; do
                run_one "$set" "$variant" "$ratio" "$t"
                t=$((t + 1))
            done
            echo "phase: $set $variant ratio $ratio: $trials trials ($(($(date +%s) - start)) s)" >&2
        done
    done
done

# bounds of each set, at its median s and d (one image per set, but fashion)
echo "set,s,d,info_generic,info_every,l1,l1_nonneg" >"$out/bounds.csv"
for set in $sets; do
    sd=$(awk -F, -v set="$set" '$1 == set { print $6, $7 }' "$runs" | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
    [ -n "$sd" ] || continue
    # shellcheck disable=SC2086
    /usr/bin/python3 "$exp_dir/phase_bounds.py" $sd |
        awk -v set="$set" '{ for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v } }
            END { print set "," f["s"] "," f["d"] "," f["info_generic"] "," f["info_every"] "," f["l1"] "," f["l1_nonneg"] }' >>"$out/bounds.csv"
done

# the table: per set, variant and ratio, successes, median rel_err, CPU and solve time
awk -F, 'NR > 1 { key = $1 "," $2 "," $3; n[key]++; ok[key] += $10; e[key] = e[key] " " $9
                  c[key] = c[key] " " $17; w[key] = w[key] " " ($14 + $15); r[key] += $13 }
    function med(list,   a, m, i, j, t) {
        m = split(list, a, " ")
        for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        print "| set | variant | ratio | ok | trials | success | median rel_err | median CPU s | median solve+polish s | mean restarts |"
        print "|---|---|---|---|---|---|---|---|---|---|"
        for (k in n) {
            split(k, p, ",")
            printf "| %s | %s | %s | %d | %d | %.2f | %.3g | %.3f | %.3f | %.1f |\n", p[1], p[2], p[3], ok[k], n[k],
                ok[k] / n[k], med(e[k]), med(c[k]), med(w[k]), r[k] / n[k]
        }
    }' "$runs" | { IFS= read -r h1; IFS= read -r h2; echo "$h1"; echo "$h2"; sort -t'|' -k2,2 -k3,3 -k4,4n; } >"$out/table.md"

# one plot per set: success against ratio, a line per variant, the limits as verticals
for set in $sets; do
    awk -F, -v set="$set" 'NR > 1 && $1 == set { key = $2 " " $3; n[key]++; ok[key] += $10 }
        END { for (k in n) { split(k, p, " "); print p[1], p[2], ok[k] / n[k], n[k] } }' "$runs" |
        sort -k1,1 -k2,2n >"$tmp/points"
    [ -s "$tmp/points" ] || continue
    vs=$(awk '{ print $1 }' "$tmp/points" | uniq | tr '\n' ' ')
    for v in $vs; do awk -v v="$v" '$1 == v { print $2, $3 }' "$tmp/points" >"$tmp/pts_$v"; done
    b=$(awk -F, -v set="$set" '$1 == set { print $4, $5, $6, $7, $2, $3 }' "$out/bounds.csv")
    ntr=$(awk '{ print $4 }' "$tmp/points" | sort -n | tail -n 1)
    gnuplot -e "tmp='$tmp'; vs='$vs'; b='$b'; set_name='$set'; ntr=$ntr; out='$out/phase_$set.png'" \
        "$exp_dir/phase.gp" || die "gnuplot failed for $set"
done
echo "phase: $runs, $out/table.md, $out/phase_*.png ($(($(date +%s) - start)) s)" >&2
