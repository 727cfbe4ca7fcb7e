# Group statistics of a runs CSV (with a header row).
# usage: awk -F, -v keys=digit,variant -v cols=time_s,f [-v thr=rel_err:0.05] -f groupstats.awk runs.csv
# Output CSV: the key columns, trials, then COL_mean, COL_sd (sample, n-1), COL_med for each
# column, and with thr=COL:X also frac_ok, the fraction of rows with COL <= X.
# Groups appear in order of first occurrence. "sum" in cols means setup_s + time_s.
NR == 1 {
    for (i = 1; i <= NF; i++) idx[$i] = i
    nk = split(keys, K, ",")
    nc = split(cols, Cn, ",")
    for (i = 1; i <= nk; i++) if (!(K[i] in idx)) { print "no column " K[i] > "/dev/stderr"; exit 1 }
    for (j = 1; j <= nc; j++) if (Cn[j] != "sum" && !(Cn[j] in idx)) { print "no column " Cn[j] > "/dev/stderr"; exit 1 }
    if (thr != "") { split(thr, T, ":"); if (!(T[1] in idx)) { print "no column " T[1] > "/dev/stderr"; exit 1 } }
    hdr = keys ",trials"
    for (j = 1; j <= nc; j++) hdr = hdr "," Cn[j] "_mean," Cn[j] "_sd," Cn[j] "_med"
    if (thr != "") hdr = hdr ",frac_ok"
    print hdr
    next
}
{
    g = $(idx[K[1]])
    for (i = 2; i <= nk; i++) g = g "," $(idx[K[i]])
    if (!(g in n)) order[++ng] = g
    m = ++n[g]
    for (j = 1; j <= nc; j++) {
        x = Cn[j] == "sum" ? $(idx["setup_s"]) + $(idx["time_s"]) : $(idx[Cn[j]]) + 0
        v[g, j, m] = x
    }
    if (thr != "" && $(idx[T[1]]) + 0 <= T[2] + 0) ok[g]++
}
END {
    for (q = 1; q <= ng; q++) {
        g = order[q]; m = n[g]
        row = g "," m
        for (j = 1; j <= nc; j++) {
            s = 0
            for (i = 1; i <= m; i++) { a[i] = v[g, j, i]; s += a[i] }
            mean = s / m; ss = 0
            for (i = 1; i <= m; i++) ss += (a[i] - mean) ^ 2
            for (i = 2; i <= m; i++) { x = a[i]; for (k = i - 1; k >= 1 && a[k] > x; k--) a[k + 1] = a[k]; a[k + 1] = x }
            med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
            row = row sprintf(",%.6g,%.6g,%.6g", mean, m > 1 ? sqrt(ss / (m - 1)) : 0, med)
        }
        if (thr != "") row = row sprintf(",%.4g", ok[g] / m)
        print row
    }
}
