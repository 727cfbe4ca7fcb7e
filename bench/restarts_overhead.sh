#!/bin/sh
# The default path with and without the restarts, side by side: two builds (OLD without
# them, NEW with them) run the same recover commands alternately, REPS times each, and
# the medians of their solve + polish time (gsfw's time_s + polish_s) and of their
# process CPU time are compared.
#
#   usage: sh bench/restarts_overhead.sh OLD_BUILD NEW_BUILD [REPS]
#
# Workloads: angio at ratio 2.5 with 50 iterations (the paper's), angio at ratio 2.5 and
# MNIST 7 at ratio 5 with recover's default stop (where NEW turns the restarts on; the
# first polish is exact there, so no round runs). Prints one markdown table with the load
# average at the start and at the end.
set -eu
old=$1/gsfw
new=$2/gsfw
reps=${3:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
export OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
one() { # binary label args... -> appends "label wall cpu restarts" to $tmp/times
    bin=$1 label=$2
    shift 2
    line=$(/usr/bin/time -f "%U %S" -o "$tmp/cpu" "$bin" recover --out-dir "$tmp/out" --no-plot "$@")
    printf '%s\n' "$line" | awk -v label="$label" -v cpu="$(awk '{ print $1 + $2 }' "$tmp/cpu")" '
        { for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v } }
        END { print label, f["time_s"] + f["polish_s"], cpu, ("restarts" in f) ? f["restarts"] : "-", f["rel_err"] }' >>"$tmp/times"
}
i=0
while [ "$i" -lt "$reps" ]; do
    for b in old new; do
        eval "bin=\$$b"
        one "$bin" "$b:angio-50" --image "$root/data/angio.npy" --ratio 2.5 --iters 50
        one "$bin" "$b:angio-default" --image "$root/data/angio.npy" --ratio 2.5
        one "$bin" "$b:mnist7-default" --image "$root/data/mnist_7.npy" --ratio 5
    done
    i=$((i + 1))
done
echo "| workload | median solve+polish s (old) | (new) | new/old | median CPU s (old) | (new) | new/old | restarts run (new) | rel_err (new) |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in angio-50 angio-default mnist7-default; do
    awk -v w="$w" '
        function med(list,   a, m, i, j, t) {
            m = split(list, a, " ")
            for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        { split($1, p, ":"); if (p[2] != w) next
          if (p[1] == "old") { wo = wo " " $2; co = co " " $3 } else { wn = wn " " $2; cn = cn " " $3; r = $4; e = $5 } }
        END { printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %s | %.2g |\n", w, med(wo), med(wn), med(wn) / med(wo), med(co), med(cn), med(cn) / med(co), r, e }' "$tmp/times"
done
echo
echo "load average: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $reps alternating runs of each build"
