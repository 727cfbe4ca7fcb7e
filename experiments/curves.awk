# Per-iteration statistics over trials.
# Input: CSV rows "trial,iter,time_s,f,est_err" (trace_rows in exp_common.sh).
# Output: CSV with a header; one row per iteration t:
#   iter, trials, time_mean (cumulative solve time), then for f and for est_err:
#   mean, sd (sample, n-1), q10, median, q90 (linear interpolation between order statistics).
# usage: awk -F, -f curves.awk raw.csv > curves.csv
function quant(a, n, p,    h, lo) {
    if (n == 1) return a[1]
    h = (n - 1) * p + 1
    lo = int(h)
    if (lo >= n) return a[n]
    return a[lo] + (h - lo) * (a[lo + 1] - a[lo])
}
function stats(key, n,    i, j, x, s, ss, m, sd) {
    for (i = 1; i <= n; i++) srt[i] = val[key, i]
    for (i = 2; i <= n; i++) {          # insertion sort: n is the trial count
        x = srt[i]
        for (j = i - 1; j >= 1 && srt[j] > x; j--) srt[j + 1] = srt[j]
        srt[j + 1] = x
    }
    s = 0
    for (i = 1; i <= n; i++) s += srt[i]
    m = s / n
    ss = 0
    for (i = 1; i <= n; i++) ss += (srt[i] - m) ^ 2
    sd = n > 1 ? sqrt(ss / (n - 1)) : 0
    return sprintf("%.10g,%.10g,%.10g,%.10g,%.10g", m, sd, quant(srt, n, 0.1), quant(srt, n, 0.5), quant(srt, n, 0.9))
}
{
    t = $2 + 0
    if (t > tmax) tmax = t
    k = ++cnt[t]
    val["f" t, k] = $4 + 0
    val["e" t, k] = $5 + 0
    tsum[t] += $3
}
END {
    print "iter,trials,time_mean,f_mean,f_sd,f_q10,f_med,f_q90,e_mean,e_sd,e_q10,e_med,e_q90"
    for (t = 0; t <= tmax; t++) {
        if (!(t in cnt)) continue
        n = cnt[t]
        printf "%d,%d,%.6g,%s,%s\n", t, n, tsum[t] / n, stats("f" t, n), stats("e" t, n)
    }
}
