# Phase transition of experiments/variants.sh: success fraction (rel_err <= thr of the
# returned answer) against the sampling ratio, MNIST digit 0.
# usage: gnuplot -e "dir='results/variants'; labels='accfw-raw ...'; T=20; thr=0.05" experiments/variants_phase.gp
if (!exists("dir")) dir = 'results/variants'
if (!exists("labels")) labels = 'accfw-raw accfw+polish bpcg+polish graph-cosamp'
if (!exists("T")) T = 20
if (!exists("thr")) thr = 0.05
set datafile separator ','
set grid
set key top left box opaque
set xlabel 'sampling ratio n / s'
set ylabel sprintf('fraction of trials with rel. err. <= %g', thr)
set yrange [-0.03:1.03]
n = words(labels)
file(i) = dir.'/by_label/'.word(labels, i).'.csv'
# by_label/<label>.csv columns (phase.csv split by label): 1 label, 2 ratio, 3 trials, 4-6 rel_err, 7-9 time_s, 10 frac_ok
set terminal pngcairo size 900, 520 enhanced font ',11'
set output dir.'/phase.png'
set title sprintf('MNIST digit 0: phase transition with polish (%d trials per point)', T)
plot for [i = 1:n] file(i) skip 1 using 2:10 with linespoints lw 2 pt 7 lc i title word(labels, i)
