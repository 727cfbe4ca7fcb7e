# Time to accuracy of the Frank-Wolfe variants x step rules (experiments/variants.sh): one
# panel per image set; lines = median rel_err of the raw iterate against the median solve
# time, colour = method, dash = step rule; points = the polished answer (median rel_err at
# the median solve + polish time).
# usage: gnuplot -e "dir='results/variants'; sets='angio mnist5 mnist2'; methods='fw ...'; steps='...'; iters=50" experiments/variants_tta.gp
if (!exists("dir")) dir = 'results/variants'
if (!exists("sets")) sets = 'angio mnist5 mnist2'
if (!exists("methods")) methods = 'fw accfw afw pfw bpcg'
if (!exists("steps")) steps = 'agnostic short adaptive line'
if (!exists("iters")) iters = 50
set datafile separator ','
set grid
set logscale xy
set format y '10^{%T}'
set xlabel 'solve time (s, median over runs)'
set ylabel 'rel. error ||x - x^*|| / ||x^*||'
nm = words(methods); ns = words(steps); nsets = words(sets)
curve(s, i, j) = dir.'/curves/'.s.'_'.word(methods, i).'_'.word(steps, j).'.csv'
pos(x) = x > 0 ? x : 1/0
title_of(s) = s eq 'angio' ? 'angio, ratio 2.5' : s eq 'mnist5' ? 'MNIST 0-9, ratio 5' : s eq 'mnist2' ? 'MNIST 0-9, ratio 2.0' : s
sel(s, i, j, v) = (strcol(1) eq s && strcol(2) eq word(methods, i) && strcol(3) eq word(steps, j)) ? v : 1/0
set terminal pngcairo size 560 * nsets + 220, 560 enhanced font ',10'
set output dir.'/tta.png'
set multiplot layout 1, nsets title sprintf('Raw iterates (lines, %d iterations) and polished answers (points): median rel. error against median time', iters)
do for [k = 1:nsets] {
    s = word(sets, k)
    set title title_of(s)
    if (k == nsets) { set key outside right top font ',9' } else { unset key }
    plot for [i = 1:nm] for [j = 1:ns] curve(s, i, j) skip 1 using (pos($2)):(pos($3)) \
            with lines lw 2 lc i dt j title word(methods, i).' '.word(steps, j), \
         for [i = 1:nm] for [j = 1:ns] dir.'/table.csv' skip 1 \
            using (sel(s, i, j, pos($16 + $19))):(sel(s, i, j, pos($10))) \
            with points pt 4 + 2 * (j - 1) ps 1.3 lc i notitle
}
unset multiplot
