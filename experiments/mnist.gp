# Fig. 3 (digit 7) and Figs. 8/9 (all digits): mean f(x_t) and mean ||x_t - x*|| against
# t + 1 on log axes, with bands from the 10% to the 90% quantile over trials.
# usage: gnuplot -e "dir='results/mnist'; labels='fw accfw accfw-spec accfw-L1'; digits='0 1 ... 9'; T=20" experiments/mnist.gp
if (!exists("dir")) dir = 'results/mnist'
if (!exists("labels")) labels = 'fw accfw accfw-spec accfw-L1'
if (!exists("digits")) digits = '0 1 2 3 4 5 6 7 8 9'
if (!exists("T")) T = 20
set datafile separator ','
set logscale xy
set format y '10^{%T}'
set format x '10^{%T}'
set grid
set autoscale xfix
set style fill transparent solid 0.15 noborder
n = words(labels)
file(d, i) = dir.'/curves/mnist'.d.'_'.word(labels, i).'.csv'
title(i) = word(labels, i) eq 'fw' ? 'DMO-FW' : (word(labels, i) eq 'accfw' ? 'DMO-AccFW, L = atom curvature (default)' : (word(labels, i) eq 'accfw-spec' ? 'DMO-AccFW, L = ||A||_2^2' : (word(labels, i) eq 'accfw-L1' ? 'DMO-AccFW, L = 1 (reference)' : word(labels, i))))
pos(x) = x > 0 ? x : 1/0

# ---- Fig. 3: digit 7 (if it was run)
has7 = strstrt(' '.digits.' ', ' 7 ') > 0
if (has7) {
    set terminal pngcairo size 1300,500 enhanced font ',11'
    set output dir.'/fig3.png'
    set multiplot layout 1,2 title sprintf('MNIST digit 7, ratio 5: mean over %d trials, band = 10%%-90%% quantiles', T)
    set xlabel 'iteration t + 1'
    set key bottom left
    set title 'h(x_t) = f(x_t) = ½||Ax_t - y||^2'
    set ylabel 'h(x_t) (log scale)'
    plot for [i=1:n] file(7, i) skip 1 using ($1+1):(pos($6)):(pos($8)) with filledcurves lc i notitle, \
         for [i=1:n] file(7, i) skip 1 using ($1+1):(pos($4)) with lines lw 2 lc i title title(i)
    set title '||x_t - x^*||_2'
    set ylabel '||x_t - x^*||_2 (x^* has unit norm)'
    plot for [i=1:n] file(7, i) skip 1 using ($1+1):(pos($11)):(pos($13)) with filledcurves lc i notitle, \
         for [i=1:n] file(7, i) skip 1 using ($1+1):(pos($9)) with lines lw 2 lc i title title(i)
    unset multiplot
}

# ---- Figs. 8 and 9: one panel per digit
nd = words(digits)
rows = nd > 5 ? 2 : 1
cols = nd > 5 ? int((nd + 1) / 2) : nd
do for [which=8:9] {
    set terminal pngcairo size 320*cols+40,300*rows+90 enhanced font ',9'
    set output dir.sprintf('/fig%d.png', which)
    set multiplot layout rows,cols title (which == 8 ? \
        sprintf('MNIST, ratio 5: mean h(x_t) = f(x_t) against t + 1 (%d trials, band = 10%%-90%% quantiles)', T) : \
        sprintf('MNIST, ratio 5: mean ||x_t - x^*|| against t + 1 (%d trials, band = 10%%-90%% quantiles)', T))
    set xlabel 'iteration t + 1'
    set ylabel (which == 8 ? 'h(x_t)' : '||x_t - x^*||_2')
    do for [k=1:nd] {
        d = word(digits, k)
        set title 'digit '.d
        if (k == 1) { set key bottom left font ',8' } else { unset key }
        if (which == 8) {
            plot for [i=1:n] file(d, i) skip 1 using ($1+1):(pos($6)):(pos($8)) with filledcurves lc i notitle, \
                 for [i=1:n] file(d, i) skip 1 using ($1+1):(pos($4)) with lines lw 1.5 lc i title title(i)
        } else {
            plot for [i=1:n] file(d, i) skip 1 using ($1+1):(pos($11)):(pos($13)) with filledcurves lc i notitle, \
                 for [i=1:n] file(d, i) skip 1 using ($1+1):(pos($9)) with lines lw 1.5 lc i title title(i)
        }
    }
    unset multiplot
}
