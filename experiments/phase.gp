# One phase-transition plot of experiments/phase.sh: success fraction against the ratio
# n / s, a line per variant, and vertical lines where the limits are.
# Variables: tmp (pts_<variant> files: ratio fraction), vs (variant names), b ("info_generic
# info_every l1 l1_nonneg s d"), set_name, ntr (trials per point), out (PNG).
set terminal pngcairo size 900, 540 enhanced font ',11'
set output out
set grid
set key bottom right box opaque
set xlabel 'sampling ratio n / s'
set ylabel 'fraction of trials with rel. err. <= 0.05'
set yrange [-0.03:1.03]
set xrange [0.8:*]
gen = real(word(b, 1)); every = real(word(b, 2)); l1 = real(word(b, 3)); l1p = real(word(b, 4))
set title sprintf('%s (s = %s, d = %s): phase transition, %d trials per point', set_name, word(b, 5), word(b, 6), ntr)
set arrow 1 from gen, graph 0 to gen, graph 1 nohead dt 2 lw 2 lc rgb '#555555'
set label 1 sprintf('s+1: %.2f', gen) at gen, graph 0.95 left offset 0.4, 0 tc rgb '#555555'
set arrow 2 from every, graph 0 to every, graph 1 nohead dt 3 lw 2 lc rgb '#555555'
set label 2 '2s: every vector' at every, graph 0.88 left offset 0.4, 0 tc rgb '#555555'
set arrow 3 from l1, graph 0 to l1, graph 1 nohead dt 4 lw 2 lc rgb '#aa3333'
set label 3 sprintf('l1: %.2f', l1) at l1, graph 0.80 left offset 0.4, 0 tc rgb '#aa3333'
set arrow 4 from l1p, graph 0 to l1p, graph 1 nohead dt 5 lw 2 lc rgb '#dd8800'
set label 4 sprintf('l1, x >= 0: %.2f', l1p) at l1p, graph 0.72 left offset 0.4, 0 tc rgb '#dd8800'
set xrange [0.8:(l1 > 3.2 ? l1 + 0.3 : 3.6)]
n = words(vs)
plot for [i = 1:n] tmp.'/pts_'.word(vs, i) using 1:2 with linespoints lw 2 pt 7 ps 1.2 lc i title word(vs, i)
