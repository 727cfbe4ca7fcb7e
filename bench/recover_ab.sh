#!/bin/sh
# Two builds of gsfw side by side on the vessel maps from partial DCT at ratio 3 with
# recover's defaults: for each seed the two builds run one after the other, and each run
# prints its solve time, iterations per level, projections (oracle calls), PCSF runs and
# rel_err; a last line per build sums the times, projections and runs.
#
#   bench/recover_ab.sh OLD_BUILD NEW_BUILD [SIDE] [SEEDS] [RECOVER ARGS...]
#   (defaults: 1024, "0 1 2"; e.g. bench/recover_ab.sh ../main/build build 256 "0 1"
#    --pursuit on --levels 2)
#
# Wall-clock timings: run it on an otherwise idle machine.
set -eu
[ $# -ge 2 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
old=$1 new=$2 side=${3:-1024} seeds=${4:-0 1 2}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
for b in "$old" "$new"; do
    [ -x "$b/gsfw" ] || { echo "$0: $b/gsfw is missing" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-4s %-4s %9s %-10s %6s %6s %s\n' side seed run time_s level_iters proj pcsf \
    rel_err
for s in $seeds; do
    for b in old new; do
        if [ $b = old ]; then exe=$old/gsfw; else exe=$new/gsfw; fi
        line=$("$exe" recover --image "$root/data/vessels_$side.png" --sensing dct --ratio 3 \
            --seed "$s" "$@" --out-dir "$tmp/o" --no-plot | tail -n 1)
        rm -rf "$tmp/o"
        t=$(echo "$line" | field time_s) p=$(echo "$line" | field oracle_calls)
        c=$(echo "$line" | field pcsf_calls)
        printf '%-5s %-4s %-4s %9.2f %-10s %6s %6s %s\n' "$side" "$s" $b "$t" \
            "$(echo "$line" | field level_iters)" "$p" "$c" "$(echo "$line" | field rel_err)"
        echo "$t $p $c" >>"$tmp/$b"
    done
done
for b in old new; do
    awk -v b=$b '{t += $1; p += $2; c += $3}
        END {printf "%s: %.2f s, %d PCSF runs for %d projections (%.2f per projection)\n",
             b, t, c, p, c / p}' "$tmp/$b"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
