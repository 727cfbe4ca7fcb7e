#!/bin/sh
# gsfw's PCSF against pcst_fast on the instances of bench_pcsf (grids: unit costs, prizes
# 4*U[0,1) from splitmix64 seed 20220101; with GRAPH=network, preferential-attachment
# networks with costs 0.5 + U[0,1); unrooted, one cluster, strong pruning), timed
# alternately in one sitting: for each size, ROUNDS rounds of one gsfw solve and one pcst_fast solve,
# each in its own process under /usr/bin/time -v. Reports the solve times (the programs'
# own timers: workspace or object construction + run), the peak RSS of each process and
# the ratios of the medians, with the load average before and after.
#
#   bench/pcsf_vs_ref.sh [SIZES] [ROUNDS]       (default: "1000 2000" 5)
#   GRAPH=network bench/pcsf_vs_ref.sh "1000000" 3     (SIZES are then node counts)
#
# Environment: BUILD (default build; needs $BUILD/bench_pcsf), PCST_TIME_GRID (the
# reference timer built from scripts/reference/pcst_time_grid.cc, see
# scripts/reference/README.md; default REF/pcst_time_grid, REF=scripts/reference/REF),
# PCST_TIME_FILE (for GRAPH=network: the timer of scripts/reference/pcst_time_file.cc,
# default REF/pcst_time_file), GRAPH (grid or network; default grid).
set -eu
SIZES=${1:-"1000 2000"}
ROUNDS=${2:-5}
BUILD=${BUILD:-build}
GRAPH=${GRAPH:-grid}
case $GRAPH in
    grid) REF=${PCST_TIME_GRID:-$(dirname "$0")/../scripts/reference/REF/pcst_time_grid} ;;
    network) REF=${PCST_TIME_FILE:-$(dirname "$0")/../scripts/reference/REF/pcst_time_file} ;;
    *) echo "pcsf_vs_ref: GRAPH must be grid or network, not '$GRAPH'" >&2; exit 2 ;;
esac
GSFW="$BUILD/bench_pcsf"
for exe in "$GSFW" "$REF" /usr/bin/time; do
    if [ ! -x "$exe" ]; then
        echo "pcsf_vs_ref: $exe is missing (make; scripts/reference/README.md)" >&2
        exit 2
    fi
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
rss_mb() { awk '/Maximum resident set size/ {printf "%.0f\n", $NF / 1024}' "$1"; }

echo "# $GRAPH, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# size  round  gsfw_s  gsfw_rss_mb  pcst_fast_s  pcst_fast_rss_mb"
for h in $SIZES; do
    : >"$TMP/g.$h"
    : >"$TMP/r.$h"
    : >"$TMP/gm.$h"
    : >"$TMP/rm.$h"
    refarg=$h
    if [ "$GRAPH" = network ]; then
        # the reference reads the instance bench_pcsf generates
        refarg=$TMP/instance
        "$GSFW" --graph network --write-instance "$h" "$refarg"
    fi
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        /usr/bin/time -v "$GSFW" --graph "$GRAPH" --sizes "$h" --reps 1 >"$TMP/out" 2>"$TMP/time"
        g=$(awk '$1 ~ /^([0-9]+x[0-9]+|net[0-9]+)$/ {print $5}' "$TMP/out")
        gm=$(rss_mb "$TMP/time")
        /usr/bin/time -v "$REF" "$refarg" >"$TMP/out" 2>"$TMP/time"
        f=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' "$TMP/out")
        fm=$(rss_mb "$TMP/time")
        echo "$h  $r  $g  $gm  $f  $fm"
        echo "$g" >>"$TMP/g.$h"
        echo "$f" >>"$TMP/r.$h"
        echo "$gm" >>"$TMP/gm.$h"
        echo "$fm" >>"$TMP/rm.$h"
        r=$((r + 1))
    done
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# size  gsfw_median_s  pcst_fast_median_s  speedup  gsfw_rss_mb  pcst_fast_rss_mb  rss_ratio"
prev=""
for h in $SIZES; do
    g=$(median <"$TMP/g.$h")
    f=$(median <"$TMP/r.$h")
    gm=$(median <"$TMP/gm.$h")
    fm=$(median <"$TMP/rm.$h")
    awk -v h="$h" -v g="$g" -v f="$f" -v gm="$gm" -v fm="$fm" \
        'BEGIN {printf "%s  %.3f  %.3f  %.1fx  %s  %s  %.2f\n", h, g, f, f / g, gm, fm, gm / fm}'
    if [ -n "$prev" ]; then
        awk -v a="$prev" -v b="$g" -v pa="$prevf" -v pb="$f" -v ha="$prevh" -v hb="$h" \
            'BEGIN {printf "# growth %s -> %s: gsfw %.2fx, pcst_fast %.2fx\n", ha, hb, b / a, pb / pa}'
    fi
    prev=$g
    prevf=$f
    prevh=$h
done
