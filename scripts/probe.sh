#!/bin/sh
# The robustness probe, re-runnable by anyone: the command-line cases below (headers that
# declare huge sizes, ids out of range, a byte order mark, a 1-pixel image), gsfw-mpi
# started with different arguments or on a truncated file, the Python package's bad data
# (scripts/probe_python.py), then the whole reliability suite (tests/reliability.sh:
# memory refusal, signals, interrupted moves, concurrent runs). One table row a case;
# exit status 1 when any row is BAD.
#
#   usage: scripts/probe.sh [BUILD_DIR]      (after `make test`: the Python rows use
#          BUILD_DIR/python/lib, which ctest's python test builds)
set -u
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
G=$build/gsfw
[ -x "$G" ] || { echo "probe: $G is missing; build first (make)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-probe-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
bad=0
echo "| case | expected | outcome |"
echo "|---|---|---|"
row() { # NAME EXPECTED STATUS(0 = as expected)
    if [ "$3" = 0 ]; then echo "| $1 | $2 | ok |"; else echo "| $1 | $2 | BAD |"; bad=$((bad + 1)); fi
}
expect() { # NAME EXPECTED_STATUS PATTERN COMMAND...: status and a line of stderr matching
    name=$1 want=$2 pat=$3; shift 3
    timeout -s KILL 120 "$@" >out 2>err; rc=$?
    [ $rc = "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" err; }
    row "$name" "status $want${pat:+, '$pat'}" $?
}
py_vec() { # FILE VALUES...: a float64 .npy (no numpy needed); SHAPE="(1, 1)" overrides
    python3 -c 'import os, struct, sys
vals = [float(v) for v in sys.argv[2:]]
shape = os.environ.get("SHAPE") or "(%d,)" % len(vals)
h = "{\x27descr\x27: \x27<f8\x27, \x27fortran_order\x27: False, \x27shape\x27: %s, }" % shape
h += " " * (63 - (10 + len(h)) % 64) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode()
                              + struct.pack("<%dd" % len(vals), *vals))' "$@"; }

# --- command line
py_vec y30.npy $(seq 30)
printf '%%%%MatrixMarket matrix coordinate real general\n30 2000000000 1\n1 1 1.0\n' >huge.mtx
expect "mtx header 30 x 2e9, --max-memory 1G" 1 "needs about" \
    "$G" solve --A huge.mtx --y y30.npy --model topk --s 3 --C 3 --method fw --iters 5 --max-memory 1G
py_vec y29.npy $(seq 29)
expect "mtx header rows against --y" 1 "has 29 entries but A ('huge.mtx') has 30 rows" \
    "$G" solve --A huge.mtx --y y29.npy --model topk --s 3 --C 3 --method fw --iters 5
py_vec z2.npy 1 2
expect "quadtree:32768x32768 for 2 entries" 1 "has 1073741824 nodes but the vector has 2" \
    "$G" dmo --z z2.npy --model tree --s 1 --tree quadtree:32768x32768
py_vec parents.npy -1 4294967296
expect "CLI tree parent 2^32" 1 "entry 1 is 4294967296, out of range" \
    "$G" dmo --z z2.npy --model tree --s 1 --tree parents.npy
printf '\357\273\277%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n2 2 1.0\n' >bom.mtx
py_vec y2.npy 1 0
expect "mtx with a byte order mark is read" 0 "" \
    "$G" solve --A bom.mtx --y y2.npy --model topk --s 1 --C 3 --method fw --iters 5
SHAPE="(1, 1)" py_vec one.npy 1
timeout 60 "$G" recover --image one.npy --sensing dct --ratio 2.5 --out-dir o --no-plot >out 2>err
[ $? = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "number of rows n must be" err
row "1 x 1 image, --sensing dct: the error alone" "status 1, one line" $?

# --- gsfw-mpi
if [ -x "$build/gsfw-mpi" ] && command -v mpirun >/dev/null; then
    RUN="timeout 60 mpirun --allow-run-as-root --oversubscribe"
    py_vec y3.npy 1 2 3
    printf '%%%%MatrixMarket matrix coordinate real general\n3 4 3\n1 1 1.0\n2 2 1.0\n3 3 1.0\n' >A3.mtx
    M="$build/gsfw-mpi solve --A A3.mtx --y y3.npy --model topk --s 1 --C 3 --method fw"
    $RUN -np 1 $M --iters 25 : -np 1 $M --iters 30 >out 2>err; rc=$?
    [ $rc = 2 ] && grep -q "rank 1 differs from rank 0" err
    row "gsfw-mpi ranks with different arguments" "status 2, no hang" $?
    head -c 60 A3.mtx >cut.mtx
    $RUN -np 3 $build/gsfw-mpi solve --A cut.mtx --y y3.npy --model topk --s 1 --C 3 \
        --method fw --iters 5 >out 2>err; rc=$?
    [ $rc = 1 ] && [ "$(grep -c "cut.mtx" err)" = 1 ] && grep -q "failed on ranks 0-2 of 3" err
    row "gsfw-mpi bad file: one line naming the ranks" "status 1, one line" $?
else
    echo "| gsfw-mpi cases | mpirun and build/gsfw-mpi | skipped |"
fi

# --- Python
if [ -d "$build/python/lib/gsfw" ]; then
    # Debian's interpreter, which has numpy (as python/run_tests.sh)
    PYTHONPATH=$build/python/lib /usr/bin/python3 "$root/scripts/probe_python.py" >py.txt 2>&1
    st=$?
    sed -n '3,$p' py.txt | grep '^|' | sed 's/ | \(ValueError\|TypeError\) | \(ok\|BAD\) | .*/ | \1 | \2 |/'
    bad=$((bad + $(grep -c '| BAD |' py.txt)))
    [ $st -le 1 ] || { echo "probe: the Python probe did not run:"; cat py.txt; bad=$((bad + 1)); }
else
    echo "| Python cases | $build/python/lib (ctest -R python builds it) | skipped |"
fi

# --- the reliability suite
hook=$build/libgsfw_move_hook.so
if [ -e "$hook" ]; then
    OPENBLAS_NUM_THREADS=1 sh "$root/tests/reliability.sh" "$G" "$hook" "$root" >rel.txt 2>&1
    st=$?
    row "tests/reliability.sh: $(tail -n 1 rel.txt | sed 's/^reliability: //')" "0 failed" $st
fi
echo "probe: $bad bad"
[ $bad = 0 ]
