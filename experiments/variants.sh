#!/bin/sh
# The Frank-Wolfe variants and step rules on the paper's images (docs/experiments-variants.md).
#
# 1. Time to accuracy: every method (fw accfw afw pfw bpcg) x step rule (agnostic short
#    adaptive line), `gsfw recover --iters ITERS --polish on`, on three image sets:
#      angio    data/angio.npy at ratio 2.5, ANGIO_TRIALS seeds (default 20)
#      mnist5   the ten digits data/mnist_0..9.npy at ratio 5, MNIST_TRIALS seeds each (5)
#      mnist2   the same at ratio 2.0
#    The trace of each run gives the raw iterate's rel_err (est_err: ||x*|| = 1) against
#    the solve time; the summary gives the polished answer's rel_err and polish_s.
# 2. Phase transition on MNIST digit 0 (success = rel_err <= THRESHOLD of the returned
#    answer against the ratio): accfw raw (the paper's), accfw + polish (recover's
#    default), bpcg + polish, and the best baseline of `make sweep`, graph-cosamp; each
#    with gsfw recover's default iterations (and, with polish, its 1e-3 bound-drop stop).
#
#   usage: experiments/variants.sh [BUILD_DIR] [OUT_DIR]
#   env:   TRIALS (sets ANGIO_TRIALS and PHASE_TRIALS, and caps MNIST_TRIALS: quick runs),
#          ANGIO_TRIALS (20), MNIST_TRIALS (5), PHASE_TRIALS (20), ITERS (50),
#          METHODS, STEPS, SETS ("angio mnist5 mnist2"), PHASE_RATIOS ("1.5 2.0 ... 4.0"),
#          THRESHOLD (0.05), PARTS ("tta phase": which parts to run),
#          FROM ("DIR1 DIR2 ...": run nothing; merge the runs.csv, raw.csv and
#          phase_runs.csv of earlier runs' output directories, e.g. parts run in parallel,
#          and redo the tables and figures from them)
#
# Writes OUT_DIR (default results/variants): runs.csv (one row per run), raw.csv (trace
# rows), curves/<set>_<method>_<step>.csv (median time and median raw rel_err per
# iteration), table.csv / table.md (per set and variant: medians of the final raw rel_err,
# the polished rel_err, support F1, solve and polish time, oracle calls), tta.png,
# phase_runs.csv, phase.csv (and by_label/<label>.csv), phase.md, phase.png.
set -eu
build=${1:-build}
. "$(dirname "$0")/exp_common.sh"
out=${2:-results/variants}
if [ -n "${TRIALS:-}" ]; then
    ANGIO_TRIALS=${ANGIO_TRIALS:-$TRIALS}
    PHASE_TRIALS=${PHASE_TRIALS:-$TRIALS}
    [ "${MNIST_TRIALS:-5}" -gt "$TRIALS" ] && MNIST_TRIALS=$TRIALS
fi
angio_trials=${ANGIO_TRIALS:-20}
mnist_trials=${MNIST_TRIALS:-5}
phase_trials=${PHASE_TRIALS:-20}
iters=${ITERS:-50}
methods=${METHODS:-fw accfw afw pfw bpcg}
steps=${STEPS:-agnostic short adaptive line}
sets=${SETS:-angio mnist5 mnist2}
phase_ratios=${PHASE_RATIOS:-1.5 2.0 2.5 3.0 3.5 4.0}
thr=${THRESHOLD:-0.05}
parts=${PARTS:-tta phase}
need_gsfw
# one BLAS thread: the runs are timed, and a loaded machine makes BLAS threads wait on
# each other (set OPENBLAS_NUM_THREADS to override)
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
begin_output "$out"
start=$(date +%s)
load() { uptime | sed 's/.*load average: *//'; }
echo "variants: start $(date -u '+%H:%M:%S UTC'), load average $(load)" >&2

# vrun LABELS CSV TRACE_ID [gsfw recover flags]: one run; appends the summary (the fields
# of $vcols) to CSV and, when TRACE_ID is not empty, the trace to $tmp/raw.csv.
vcols="method,iters,time_s,polish_s,rel_err,raw_rel_err,support_f1,raw_support_f1,recall,nnz,oracle_calls,status"
vrun() {
    _labels=$1 _csv=$2 _tid=$3
    shift 3
    rm -rf "$tmp/scratch"
    _line=$("$gsfw" recover --out-dir "$tmp/scratch" --no-plot "$@" </dev/null) ||
        die "gsfw recover failed: $*"
    printf '%s\n' "$_line" | awk -v labels="$_labels" -v cols="$vcols" '
        { for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); val[k] = v } }
        END {
            nc = split(cols, c, ","); row = labels
            for (i = 1; i <= nc; i++) row = row "," (c[i] in val ? val[c[i]] : "nan")
            print row
        }' >>"$_csv"
    [ -z "$_tid" ] || awk -F, -v id="$_tid" 'NR > 1 { print id "," $1 "," $2 "," $5 }' \
        "$tmp/scratch/trace.csv" >>"$tmp/raw.csv"
}

# ---- 1. time to accuracy
# merge FILE: FILE (with its header once) from every FROM directory holding it, into $tmp
merge() {
    _first=1
    for _d in $FROM; do
        [ -f "$_d/$1" ] || continue
        if [ "$_first" = 1 ]; then cat "$_d/$1"; _first=0; else tail -n +2 "$_d/$1"; fi
    done >"$tmp/$1"
    [ "$_first" = 0 ] || rm -f "$tmp/$1"
}
if [ -n "${FROM:-}" ]; then
    merge runs.csv
    merge raw.csv
    merge phase_runs.csv
    parts=
    [ -f "$tmp/runs.csv" ] && parts="tta"
    [ -f "$tmp/phase_runs.csv" ] && parts="$parts phase"
    sets=$(awk -F, 'NR > 1 && !($1 in s) { s[$1] = 1; printf "%s ", $1 }' "$tmp/runs.csv" 2>/dev/null || true)
    # the trial counts of the merged runs (for the tables' headers): distinct seeds
    seeds_of() { awk -F, -v pat="$2" 'NR > 1 && $1 ~ pat && !($4 in s) { s[$4] = 1; n++ } END { print n + 0 }' "$1" 2>/dev/null || echo 0; }
    angio_trials=$(seeds_of "$tmp/runs.csv" '^angio$')
    mnist_trials=$(seeds_of "$tmp/runs.csv" '^mnist')
    phase_trials=$(seeds_of "$tmp/phase_runs.csv" '.')
fi

case " $parts " in *" tta "*)
[ -n "${FROM:-}" ] || {
echo "set,image,ratio,seed,step,$vcols" >"$tmp/runs.csv"
echo "set,method,step,trial,iter,time_s,rel_err" >"$tmp/raw.csv"
for set in $sets; do
    case $set in
        angio) images="angio"; ratio=2.5; trials=$angio_trials ;;
        mnist5) images="mnist_0 mnist_1 mnist_2 mnist_3 mnist_4 mnist_5 mnist_6 mnist_7 mnist_8 mnist_9"; ratio=5; trials=$mnist_trials ;;
        mnist2) images="mnist_0 mnist_1 mnist_2 mnist_3 mnist_4 mnist_5 mnist_6 mnist_7 mnist_8 mnist_9"; ratio=2.0; trials=$mnist_trials ;;
        *) die "unknown set '$set' (angio, mnist5, mnist2)" ;;
    esac
    for img in $images; do
        t=0
        while [ "$t" -lt "$trials" ]; do
            for m in $methods; do
                for st in $steps; do
                    vrun "$set,$img,$ratio,$t,$st" "$tmp/runs.csv" "$set,$m,$st,$img.$t" \
                        --image "$root/data/$img.npy" --ratio "$ratio" --seed "$t" \
                        --method "$m" --step "$st" --iters "$iters" --polish on
                done
            done
            t=$((t + 1))
        done
    done
    echo "variants: $set done ($(($(date +%s) - start)) s, load $(load))" >&2
done
}

# median time and median raw rel_err per set, method, step and iteration
mkdir -p "$tmp/curves"
sort -t, -k1,1 -k2,2 -k3,3 -k5,5n "$tmp/raw.csv" | awk -F, -v dir="$tmp/curves" '
    function med(a, m,   i, k, x) {
        for (i = 2; i <= m; i++) { x = a[i]; for (k = i - 1; k >= 1 && a[k] > x; k--) a[k + 1] = a[k]; a[k + 1] = x }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    function flush(   f) {
        if (m == 0) return
        f = dir "/" key ".csv"
        if (!(f in started)) { print "iter,time_s_med,rel_err_med,trials" > f; started[f] = 1 }
        print it "," med(T, m) "," med(E, m) "," m > f
        m = 0
    }
    $1 == "set" { next }
    { k = $1 "_" $2 "_" $3
      if (k != key || $5 != it) { flush(); key = k; it = $5 }
      m++; T[m] = $6; E[m] = $7 }
    END { flush() }'

awk -F, -v keys=set,method,step \
    -v cols=raw_rel_err,rel_err,support_f1,time_s,polish_s,oracle_calls -v thr="rel_err:$thr" \
    -f "$exp_dir/groupstats.awk" "$tmp/runs.csv" >"$tmp/table.csv"
{
    echo "# Frank-Wolfe variants x step rules: $iters iterations, then polish"
    echo
    echo "Generated by \`experiments/variants.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'); model head;"
    echo "angio: ratio 2.5, $angio_trials seeds; mnist5 / mnist2: the ten digits at ratio 5 / 2.0,"
    echo "$mnist_trials seeds each. Medians over the runs: rel_err of the raw best iterate and of the"
    echo "polished answer, support F1 of the polished answer, solve time (s), polish time (s),"
    echo "oracle calls; ok = fraction of runs with polished rel_err <= $thr."
    echo
    echo "| set | method | step | raw rel_err | polished rel_err | F1 | time_s | polish_s | oracle calls | ok |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "| %s | %s | %s | %.3g | %.3g | %.3f | %.3f | %.4f | %d | %.2f |\n", $1, $2, $3,
            $(c["raw_rel_err_med"]), $(c["rel_err_med"]), $(c["support_f1_med"]),
            $(c["time_s_med"]), $(c["polish_s_med"]), $(c["oracle_calls_med"]), $(c["frac_ok"]) }' \
        "$tmp/table.csv"
} >"$tmp/table.md"
gnuplot -e "dir='$tmp'; sets='$sets'; methods='$methods'; steps='$steps'; iters=$iters" \
    "$exp_dir/variants_tta.gp"
;; esac

# ---- 2. phase transition
case " $parts " in *" phase "*)
labels="accfw-raw accfw+polish bpcg+polish graph-cosamp"
[ -n "${FROM:-}" ] || {
echo "label,image,ratio,seed,step,$vcols" >"$tmp/phase_runs.csv"
for r in $phase_ratios; do
    t=0
    while [ "$t" -lt "$phase_trials" ]; do
        for lb in $labels; do
            case $lb in
                accfw-raw) flags="--method accfw --polish off" ;;
                accfw+polish) flags="--method accfw --polish on" ;;
                bpcg+polish) flags="--method bpcg --polish on" ;;
                graph-cosamp) flags="--method graph-cosamp" ;;
            esac
            # shellcheck disable=SC2086  # $flags is a flag list
            vrun "$lb,mnist_0,$r,$t,auto" "$tmp/phase_runs.csv" "" \
                --image "$root/data/mnist_0.npy" --ratio "$r" --seed "$t" $flags
        done
        t=$((t + 1))
    done
    echo "variants: phase ratio $r done ($(($(date +%s) - start)) s, load $(load))" >&2
done
}
awk -F, -v keys=label,ratio -v cols=rel_err,time_s -v thr="rel_err:$thr" \
    -f "$exp_dir/groupstats.awk" "$tmp/phase_runs.csv" >"$tmp/phase.csv"
{
    echo "# Phase transition, MNIST digit 0: fraction of $phase_trials trials with rel_err <= $thr"
    echo
    echo "Generated by \`experiments/variants.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'). Cell: success"
    echo "fraction (median rel_err of the returned answer)."
    echo
    printf '| ratio |'; for lb in $labels; do printf ' %s |' "$lb"; done; echo
    printf '|---|'; for lb in $labels; do printf -- '---|'; done; echo
    awk -F, -v L="$labels" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { if (!($2 in seen)) { seen[$2] = 1; R[++nr] = $2 }
          cell[$2, $1] = sprintf("%.2f (%.2g)", $(c["frac_ok"]), $(c["rel_err_med"])) }
        END { nl = split(L, l, " ")
              for (i = 1; i <= nr; i++) { row = "| " R[i] " |"
                  for (j = 1; j <= nl; j++) row = row " " cell[R[i], l[j]] " |"
                  print row } }' "$tmp/phase.csv"
} >"$tmp/phase.md"
mkdir -p "$tmp/by_label"
for lb in $labels; do
    awk -F, -v l="$lb" 'NR == 1 || $1 == l' "$tmp/phase.csv" >"$tmp/by_label/$lb.csv"
done
gnuplot -e "dir='$tmp'; labels='$labels'; T=$phase_trials; thr=$thr" "$exp_dir/variants_phase.gp"
;; esac

rm -rf "$tmp/scratch"
finish_output
echo "variants: wrote $out ($(($(date +%s) - start)) s, load $(load))" >&2
