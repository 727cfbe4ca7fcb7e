# Bottom row of Fig. 4 / Fig. 10: the trial-0 recoveries of each method and the truth x*
# (unit l2 norm), all on the grey scale [0, max x*] (values outside are clamped).
# usage: gnuplot -e "dir='...'; labels='accfw fw ...'; errs='0.6 0.5 ...'" experiments/angio_images.gp
if (!exists("dir")) dir = 'results/angio'
n = words(labels)
cols = (n + 1) > 9 ? 5 : 3
rows = int((n + 1 + cols - 1) / cols)
set terminal pngcairo size 360*cols,380*rows+40 enhanced font ',12'
set output dir.'/fig4_images.png'
stats dir.'/images/truth.txt' matrix using 3 nooutput
vmax = STATS_max
set palette gray
set cbrange [0:vmax]
unset colorbox
unset xtics; unset ytics; unset border
set yrange [*:*] reverse
set size ratio -1
set multiplot layout rows,cols title 'Angio, ratio 2.5, trial 0 (seed 0): recovered x_T (returned iterate)'
set title 'truth x^*'
plot dir.'/images/truth.txt' matrix using 1:2:($3>vmax?vmax:($3<0?0:$3)) with image notitle
do for [i=1:n] {
    set title word(labels, i).'  (rel. err '.word(errs, i).')'
    plot dir.'/images/'.word(labels, i).'.txt' matrix using 1:2:($3>vmax?vmax:($3<0?0:$3)) with image notitle
}
unset multiplot
