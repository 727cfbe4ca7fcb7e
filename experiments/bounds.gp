# Fig. 5: H, P and P_hat against delta, one panel per (h0, a); the reference script's
# variants thin and dotted.
# usage: gnuplot -e "dir='results/bounds'; t=10000" experiments/bounds.gp
if (!exists("dir")) dir = 'results/bounds'
if (!exists("t")) t = 10000
set terminal pngcairo size 1500,470 enhanced font ',11'
set output dir.'/fig5.png'
set datafile separator ','
set logscale y
set format y '10^{%T}'
set grid
set xlabel 'oracle quality {/Symbol d}'
set ylabel 'bound on h(x_{t+1}) = f(x_{t+1}) - f^* (log scale)'
set xrange [0:1]
set multiplot layout 1,3 title sprintf('Bounds on h(x_{t+1}) of DMO-FW-I at t = %d (A_t = a)', t)
h0s = '5 50 5'; as = '5 5 50'
pos(x) = x > 0 ? x : 1/0
do for [p=1:3] {
    h = word(h0s, p) + 0; a = word(as, p) + 0
    set title sprintf('h_0 = %d, a = %d', h, a)
    if (p == 1) { set key bottom left font ',9' } else { unset key }
    sel(x) = ($1 == h && $2 == a) ? x : 1/0
    plot dir.'/bounds.csv' skip 1 using 3:(sel(pos($4))) with lines lw 3 lc rgb '#000000' title 'H (tight)', \
         '' skip 1 using 3:(sel(pos($6))) with lines lw 2 dt 2 lc rgb '#1f77b4' title 'P', \
         '' skip 1 using 3:(sel(pos($8))) with lines lw 2 lc rgb '#d62728' title 'P̂ = min(P, S) for {/Symbol d} > 1/2', \
         '' skip 1 using 3:(sel(pos($5))) with lines lw 1 dt 3 lc rgb '#7f7f7f' title 'ref. script: H w/o a/(t+2)^2', \
         '' skip 1 using 3:(sel(pos($9))) with lines lw 1 dt 3 lc rgb '#2ca02c' title 'ref. script: "P"'
}
unset multiplot
