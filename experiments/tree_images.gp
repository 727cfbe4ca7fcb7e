# The tree experiment's curves (experiments/tree_images.sh): tree_1d.png, the 1-D
# success rate and median error against r = n / K; tree_2d.png, PSNR and solve time
# against r = n / S for each image.
# usage: gnuplot -e "dir='...'; images='camera ...'; labels='accfw ...'" experiments/tree_images.gp
set datafile separator ','
set grid
set key bottom right
colours = '#e51e10 #0072b2 #009e73 #e69f00 #9400d3'
do for [k=1:5] { set linetype k lc rgb word(colours, k) lw 2 dt solid pt k ps 1.2 }
set linetype cycle 5
m1 = 'accfw tree-cosamp tree-iht cosamp iht'

set terminal pngcairo size 1200,450 enhanced font ',11'
set output dir.'/tree_1d.png'
set multiplot layout 1,2 title '1-D: 40-tree-sparse piecewise-cubic signals, N = 1024, D4, Gaussian A'
set xlabel 'r = n / K'
set title 'fraction recovered (rel. error < 10^{-2})'
set yrange [-0.02:1.02]
plot for [i=1:words(m1)] dir.'/curves/1d-'.word(m1, i).'.csv' using 1:5 with linespoints lc i title word(m1, i)
set title 'median relative error'
set logscale y
set format y '10^{%T}'
set yrange [*:*]
set key bottom left
plot for [i=1:words(m1)] dir.'/curves/1d-'.word(m1, i).'.csv' using 1:($4 > 1e-16 ? $4 : 1e-16) with linespoints lc i title word(m1, i)
unset multiplot
unset logscale y
set format y '%g'

ni = words(images)
n = words(labels)
set terminal pngcairo size 600*ni,800 enhanced font ',11'
set output dir.'/tree_2d.png'
set multiplot layout 2,ni title '2-D: 256 x 256 images, Haar, hadamard-signs sensing, n = r S'
set xlabel 'r = n / S'
set key bottom right
do for [j=1:ni] {
    set title word(images, j).': PSNR (dB)'
    plot for [i=1:n] dir.'/curves/2d-'.word(images, j).'-'.word(labels, i).'.csv' using 1:2 with linespoints lc i title word(labels, i)
}
set logscale y
set key top left
do for [j=1:ni] {
    set title word(images, j).': solve time (s)'
    plot for [i=1:n] dir.'/curves/2d-'.word(images, j).'-'.word(labels, i).'.csv' using 1:3 with linespoints lc i title word(labels, i)
}
unset multiplot
