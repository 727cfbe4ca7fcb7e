# Fig. 2: h(x_t) and ||grad f(x_t)||_inf against t for DMO-FW-I with delta-approximate DMOs.
# usage: gnuplot -e "dir='results/fig2'" experiments/fig2.gp
if (!exists("dir")) dir = 'results/fig2'
set terminal pngcairo size 1200,460 enhanced font ',11'
set output dir.'/fig2.png'
set datafile separator ','
set multiplot layout 1,2
set logscale xy
set format y '10^{%T}'
set key bottom left
set grid
set xlabel 'iteration t + 1'
labels = "1 0.8 0.5 0.3 0.1"
set title 'h(x_t) = f(x_t) - f^* (DMO-FW-I, s = 5, C = 1)'
set ylabel 'h(x_t)'
plot for [i=0:4] dir.'/fig2.csv' index i using ($2+1):($3>0?$3:1/0) with lines lw 2 title '{/Symbol d} = '.word(labels, i+1)
set title '||{/Symbol \321}f(x_t)||_{/Symbol \245}'
set ylabel '||{/Symbol \321}f(x_t)||_{/Symbol \245}'
plot for [i=0:4] dir.'/fig2.csv' index i using ($2+1):6 with lines lw 2 title '{/Symbol d} = '.word(labels, i+1)
unset multiplot
