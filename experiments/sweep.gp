# Fig. 11 (extended) and the phase transition: rel_err and the success fraction against the
# sampling ratio, one line per method.
# usage: gnuplot -e "dir='results/sweep'; methods='accfw fw ...'; T=20; thr=0.05; img='mnist_0'" experiments/sweep.gp
if (!exists("dir")) dir = 'results/sweep'
if (!exists("methods")) methods = 'accfw fw graph-iht graph-cosamp cosamp gen-mp iht'
if (!exists("T")) T = 20
if (!exists("thr")) thr = 0.05
if (!exists("img")) img = 'mnist_0'
set datafile separator ','
set grid
set key outside right top
set xlabel 'sampling ratio n / s'
n = words(methods)
file(i) = dir.'/by_method/'.word(methods, i).'.csv'
pos(x) = x > 0 ? x : 1/0

# columns: 1 ratio, 2 label, 3 trials, 4 rel_err_mean, 5 rel_err_sd, 6 rel_err_med, ...
set terminal pngcairo size 1300,500 enhanced font ',11'
set output dir.'/fig11.png'
set multiplot layout 1,2 title sprintf('%s: relative error of the returned iterate against the sampling ratio (%d trials)', img, T)
set logscale y
set format y '10^{%T}'
set title 'mean ||x - x^*|| / ||x^*||'
set ylabel 'relative error (log scale)'
unset key
plot for [i=1:n] file(i) skip 1 using 1:(pos($4)) with linespoints lw 2 pt 7 lc i title word(methods, i)
set title 'median ||x - x^*|| / ||x^*||'
set key outside right top
plot for [i=1:n] file(i) skip 1 using 1:(pos($6)) with linespoints lw 2 pt 7 lc i title word(methods, i)
unset multiplot

set terminal pngcairo size 900,520 enhanced font ',11'
set output dir.'/phase.png'
unset logscale y
set format y '%g'
set yrange [-0.03:1.03]
set ylabel sprintf('fraction of trials with rel. err. <= %g', thr)
set title sprintf('%s: phase transition (%d trials per point)', img, T)
plot for [i=1:n] file(i) skip 1 using 1:16 with linespoints lw 2 pt 7 lc i title word(methods, i)
