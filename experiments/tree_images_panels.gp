# The recovered images next to the truth (experiments/tree_images.sh): one row per image,
# truth then one column per method, all on the grey scale [0, max of the truth].
# usage: gnuplot -e "dir='...'; images='camera ...'; labels='accfw ...'; ratio='3'" experiments/tree_images_panels.gp
ni = words(images)
n = words(labels)
set terminal pngcairo size 300*(n+1),310*ni+40 enhanced font ',11'
set output dir.'/tree_panels.png'
set palette gray
unset colorbox
unset xtics; unset ytics; unset border
set yrange [*:*] reverse
set size ratio -1
set multiplot layout ni,n+1 title 'Recovered at r = '.ratio.' (n = r S): truth, then each method'
do for [j=1:ni] {
    t = dir.'/panels/'.word(images, j).'-truth.txt'
    stats t matrix using 3 nooutput
    vmax = STATS_max
    set cbrange [0:vmax]
    set title word(images, j).': truth'
    plot t matrix using 1:2:($3>vmax?vmax:($3<0?0:$3)) with image notitle
    do for [i=1:n] {
        set title word(labels, i)
        plot dir.'/panels/'.word(images, j).'-'.word(labels, i).'.txt' matrix using 1:2:($3>vmax?vmax:($3<0?0:$3)) with image notitle
    }
}
unset multiplot
