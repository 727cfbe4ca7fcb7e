# Fig. 4 / Fig. 10: mean f(x_t) and mean ||x_t - x*|| against t over the trials, with
# q10-q90 bands (the per-iteration 10% and 90% quantiles over trials).
# usage: gnuplot -e "dir='results/angio'; labels='accfw fw ...'" experiments/angio.gp
if (!exists("dir")) dir = 'results/angio'
set terminal pngcairo size 1300,500 enhanced font ',11'
set output dir.'/fig4.png'
set datafile separator ','
set multiplot layout 1,2 title 'Angio, ratio 2.5 (n = 1555, d = 10000, s = 622): mean over trials, band = 10%-90% quantiles'
set logscale y
set format y '10^{%T}'
set grid
set xlabel 'iteration t'
unset key
set style fill transparent solid 0.12 noborder
# ten distinct colours (gnuplot's default cycle has eight)
colours = '#9400d3 #009e73 #56b4e9 #e69f00 #f0e442 #0072b2 #e51e10 #000000 #8c564b #ff69b4'
do for [k=1:10] { set linetype k lc rgb word(colours, k) lw 1 dt solid pt k }
set linetype cycle 10
n = words(labels)
f(i) = dir.'/curves/'.word(labels, i).'.csv'
set title 'f(x_t) = ½||Ax_t - y||^2'
set ylabel 'f(x_t) (log scale)'
plot for [i=1:n] f(i) skip 1 using 1:($6>0?$6:1/0):($8>0?$8:1/0) with filledcurves lc i notitle, \
     for [i=1:n] f(i) skip 1 using 1:4 with lines lw 2 lc i title word(labels, i)
set key outside right top
set title '||x_t - x^*||_2 (= relative error)'
set ylabel '||x_t - x^*||_2 (x^* has unit norm)'
plot for [i=1:n] f(i) skip 1 using 1:11:13 with filledcurves lc i notitle, \
     for [i=1:n] f(i) skip 1 using 1:9 with lines lw 2 lc i title word(labels, i)
unset multiplot
