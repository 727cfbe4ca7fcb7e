# Evaluator of the paper's Fig. 5: bounds on h(x_{t+1}) of DMO-FW-I from the recurrence
#   h(x_{k+1}) <= (1 - 2 delta/(k+2)) h(x_k) + a/(k+2)^2   (A_k = a constant),
# Lemma A.4 / appendix of Zhou & Sun (ICML 2022):
#   H(t,d)   = prod_{i=0}^{t} (1 - 2d/(i+2)) h0 + sum_{j=0}^{t-1} a/(j+2)^2 prod_{k=j+1}^{t} (1 - 2d/(k+2))
#              + a/(t+2)^2                      (the recurrence run with equality: H = h_{t+1})
#   P(t,d)   = (1-d) (3/(t+3))^{2d} h0 + (ln(t+2) + 1) a / (t+3)^{2d}   for d <= 1/2,
#              (1-d) (3/(t+3))^{2d} h0 + (ln(t+2) + 1) a / (t+3)        for d > 1/2
#   S(t,d)   = (3 (1-d) h0 + a) / ((2d - 1)(t+2))                        for d > 1/2
#   Phat     = P for d <= 1/2, min(P, S) for d > 1/2
# and, as a labelled comparison, the reference script's variants (experiments.md §5.5):
#   H_code   = H without the final a/(t+2)^2 term
#   P_code   = (1-d) (3/(t+3))^{2d} h0 + (t+3)^{-2d} sum_{j=0}^{t} (j+3)^{2d}/(j+2)^2 a
#              (the intermediate bound before the logarithmic estimate)
# usage: awk -v t=10000 -v panels="5:5 50:5 5:50" -f bounds.awk > bounds.csv
BEGIN {
    if (t == "") t = 10000
    if (panels == "") panels = "5:5 50:5 5:50"
    np = split(panels, PN, " ")
    print "h0,a,delta,H,H_code,P,S,Phat,P_code"
    for (p = 1; p <= np; p++) {
        split(PN[p], ha, ":"); h0 = ha[1] + 0; a = ha[2] + 0
        for (q = 1; q <= 99; q++) {
            d = q / 100
            h = h0
            sum = 0
            for (k = 0; k <= t; k++) {
                last = a / ((k + 2) * (k + 2))
                h = (1 - 2 * d / (k + 2)) * h + last
                sum += exp(2 * d * log(k + 3)) / ((k + 2) * (k + 2))
            }
            H = h
            Hc = h - last
            lead = (1 - d) * exp(2 * d * log(3 / (t + 3))) * h0
            lg = log(t + 2) + 1
            P = lead + lg * a / (d <= 0.5 ? exp(2 * d * log(t + 3)) : t + 3)
            if (d > 0.5) { S = (3 * (1 - d) * h0 + a) / ((2 * d - 1) * (t + 2)); Ph = P < S ? P : S }
            else { S = ""; Ph = P }
            Pc = lead + exp(-2 * d * log(t + 3)) * sum * a
            printf "%g,%g,%.2f,%.10g,%.10g,%.10g,%s,%.10g,%.10g\n", h0, a, d, H, Hc, P, (S == "" ? "" : sprintf("%.10g", S)), Ph, Pc
        }
    }
}
