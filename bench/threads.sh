#!/bin/sh
# What a second thread buys a megapixel recovery (gsfw recover --threads): the vessel maps
# from partial DCT at ratio 3 with recover's defaults, --threads 1 and 2 alternated run by
# run, the medians of the solve time and of its gradient part (the DCT products), and a
# check that both thread counts give the same recovered.npy bytes.
#
#   bench/threads.sh [BUILD_DIR] [ROUNDS] [SIDES]     (defaults: build, 3, "512 1024")
#
# Wall-clock timings: run it on an otherwise idle machine with at least two cores.
set -eu
build=${1:-build}
rounds=${2:-3}
sides=${3:-512 1024}
root=$(cd "$(dirname "$0")/.." && pwd)
gsfw=$build/gsfw
[ -x "$gsfw" ] || { echo "$0: $gsfw is missing (make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-8s %10s %12s %12s %10s\n' side threads time_s gradient_s oracle_s rel_err
for side in $sides; do
    for r in $(seq "$rounds"); do
        for t in 1 2; do
            out=$("$gsfw" recover --image "$root/data/vessels_$side.png" --sensing dct \
                --ratio 3 --threads "$t" --out-dir "$tmp/o$t" --no-plot)
            for f in time_s gradient_s oracle_s rel_err; do
                echo "$out" | field $f >>"$tmp/$side.$t.$f"
            done
        done
        cmp -s "$tmp/o1/recovered.npy" "$tmp/o2/recovered.npy" ||
            { echo "$0: side $side: threads 1 and 2 recovered different bytes" >&2; exit 1; }
    done
    for t in 1 2; do
        printf '%-6s %-8s %10.3f %12.3f %12.3f %10.2e\n' "$side" "$t" \
            "$(median <"$tmp/$side.$t.time_s")" "$(median <"$tmp/$side.$t.gradient_s")" \
            "$(median <"$tmp/$side.$t.oracle_s")" "$(median <"$tmp/$side.$t.rel_err")"
    done
done
echo "identical recovered.npy for threads 1 and 2 in every round"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
