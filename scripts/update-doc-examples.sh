#!/bin/sh
# Regenerate (or, with --check, verify) the example outputs shown in README.md and docs/*.md.
#
#   usage: scripts/update-doc-examples.sh [--check] [BUILD_DIR]    (default build)
#
# An example is a ```console block: each line "$ COMMAND" is followed by what COMMAND
# prints on stdout. The commands run in a scratch directory holding data/ and the
# examples of `make examples` (examples/data/), with build/ standing for BUILD_DIR.
# Without --check the documents are rewritten with the fresh output. With --check (what
# the doc_examples test runs) nothing is written; the script fails when an output differs
# from the documented one: other lines or other keys, another text value, another
# integer, or a number off by more than 1e-3 relative (1e-12 absolute: summation order
# differs between BLAS kernels, and iterations amplify it). Values of keys ending in _s
# are timings and are not compared, nor PSNRs above 200 dB (errors at machine precision).
set -eu
# one BLAS thread, as under ctest: the summation order, and so the last digits, depend on it
export OPENBLAS_NUM_THREADS=1
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-doc-examples-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
ln -s "$root/data" "$work/data"
"$build/example_data" "$work/examples/data" >/dev/null

status=0
for doc in "$root/README.md" "$root"/docs/*.md; do
    grep -q '^```console' "$doc" || continue
    new="$work/new.md"
    if ! awk -v work="$work" -v build="$build" -v check="$check" -v doc="${doc#"$root"/}" '
        function run(cmd,    line, n) {
            n = 0
            gsub(/(^|[ ])build\//, " " build "/", cmd)
            cmd = "cd \"" work "\" && " cmd " 2>/dev/null"
            while ((cmd | getline line) > 0) got[++n] = line
            close(cmd)
            return n
        }
        function isnum(v) { return v ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
        function same_value(key, a, b,    d, m) {
            if (key ~ /_s$/) return 1
            # a PSNR above 200 dB is an error at machine precision: its digits are rounding
            if (key == "psnr" && isnum(a) && isnum(b) && a + 0 > 200 && b + 0 > 200) return 1
            if (a == b) return 1
            if (!isnum(a) || !isnum(b)) return 0
            if (a ~ /^[-+]?[0-9]+$/ && b ~ /^[-+]?[0-9]+$/) return 0
            d = a - b; if (d < 0) d = -d
            m = a < 0 ? -a : a
            return d <= 1e-3 * m || d <= 1e-12
        }
        function same_line(a, b,    na, nb, ta, tb, i, ka, kb) {
            if (a == b) return 1
            na = split(a, ta, " "); nb = split(b, tb, " ")
            if (na != nb) return 0
            for (i = 1; i <= na; i++) {
                if (index(ta[i], "=") == 0 || index(tb[i], "=") == 0) {
                    if (ta[i] != tb[i]) return 0
                    continue
                }
                ka = substr(ta[i], 1, index(ta[i], "=") - 1)
                kb = substr(tb[i], 1, index(tb[i], "=") - 1)
                if (ka != kb) return 0
                if (!same_value(ka, substr(ta[i], length(ka) + 2), substr(tb[i], length(kb) + 2)))
                    return 0
            }
            return 1
        }
        function finish(    i) {
            if (!pending) return
            if (check) {
                if (nold != ngot) { bad = 1; printf "%s: \"$ %s\" printed %d lines, the document shows %d\n", doc, cmdline, ngot, nold > "/dev/stderr" }
                for (i = 1; i <= nold && i <= ngot; i++)
                    if (!same_line(old[i], got[i])) {
                        bad = 1
                        printf "%s: \"$ %s\" line %d differs:\n  documented: %s\n  printed:    %s\n", doc, cmdline, i, old[i], got[i] > "/dev/stderr"
                    }
            }
            for (i = 1; i <= ngot; i++) print got[i]
            pending = 0
        }
        /^```console/ { inside = 1; print; next }
        inside && /^```/ { finish(); inside = 0; print; next }
        inside && /^\$ / { finish(); print; cmdline = substr($0, 3); delete got; delete old; ngot = run(cmdline); nold = 0; pending = 1; next }
        inside && pending { old[++nold] = $0; next }
        { print }
        END { finish(); exit bad }' "$doc" > "$new"; then
        status=1
        continue
    fi
    if [ "$check" -eq 0 ] && ! cmp -s "$new" "$doc"; then
        cp "$new" "$doc"
        echo "updated ${doc#"$root"/}"
    fi
done
if [ "$check" -eq 1 ] && [ "$status" -eq 0 ]; then echo "doc examples: every documented output matches"; fi
exit "$status"
