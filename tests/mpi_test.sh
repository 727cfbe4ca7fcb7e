#!/bin/sh
# gsfw-mpi against the single-process gsfw (ctest "mpi"):
#   usage: mpi_test.sh GSFW GSFW_MPI MPI_TEST_TOOL [MPIEXEC]
# 1. same iterates: fw, accfw and cosamp with K = 1..4 ranks on n = 7 rows (blocks of
#    1-2 rows) and n = 3 rows (K = 4: rank 0 holds no rows), A read from .npy (C and
#    Fortran order) or .mtx; --out and the f column of --trace agree with `gsfw solve`:
#    bit for bit with K = 1 (the same products and sums on the same kernel: ranks inherit
#    this environment, OPENBLAS_CORETYPE included), to 1e-10 relative with K > 1 (each
#    sum over rows adds the ranks' partial sums: a few ulps of the terms' magnitudes per
#    sum; fw and accfw are smooth in the sums while the top-2 choice is stable, and
#    cosamp's CGLS amplifies them by the restricted condition number squared, at most
#    ~1e4 on these 7 x 4 supports: 1e-12 at worst); recover with implicit-gaussian and
#    dct rows against gsfw recover: top-k over 2-3 ranks to 1e-10, the head model on one
#    rank bit for bit (the head projection is discontinuous in its input: a PCSF event
#    order or a size-window decision can turn on the last bits of the gradient, so the
#    paths of two summation orders agree only until the first such flip);
# 2. a truncated A.npy: every rank exits with a message, status != 0, no hang;
# 3. --time-limit: all ranks stop at the same iterate (status=time_limit, the trace has
#    iters + 1 rows, every rank exits 0 after the final agreement).
# Exit 77 (skipped) when mpirun cannot start a process here.
set -u
test_name=mpi_test
. "$(dirname "$0")/mpi/mpirun_setup.sh"

"$TOOL" gen 7 20 1 A7.npy y7.npy A7.mtx || exit 1
"$TOOL" gen 7 20 1 F7.npy y7f.npy F7.mtx fortran || exit 1
"$TOOL" gen 3 20 2 A3.npy y3.npy A3.mtx || exit 1

# 1. iterates
for n in 7 3; do
    for method in fw accfw cosamp; do
        common="--y y$n.npy --model topk --s 2 --C 5 --method $method --iters 25"
        # the reference reads the .mtx: the same objective (CGLS for cosamp's restricted
        # least squares) as the distributed runs; a dense .npy would use a direct solver
        if ! "$GSFW" solve --A A$n.mtx $common --out ref.npy --trace ref.csv >ref.log 2>&1; then
            fail "gsfw solve $method n=$n"; cat ref.log; continue
        fi
        for K in 1 2 3 4; do
            case $K in 1|3) A=A$n.mtx ;; 2) A=A$n.npy ;; 4) A=A$n.npy; [ $n = 7 ] && A=F7.npy ;; esac
            if ! $RUN -np $K "$GSFW_MPI" solve --A $A $common --out x.npy --trace t.csv \
                >run.log 2>&1; then
                fail "gsfw-mpi solve $method n=$n K=$K ($A)"; cat run.log; continue
            fi
            tol=1e-10
            [ $K = 1 ] && tol=0
            "$TOOL" cmp-npy x.npy ref.npy $tol >cmp.log 2>&1 || { fail "x: $method n=$n K=$K ($A)"; cat cmp.log; }
            "$TOOL" cmp-trace t.csv ref.csv $tol >cmp.log 2>&1 || { fail "trace: $method n=$n K=$K ($A)"; cat cmp.log; }
            echo "ok: $method n=$n K=$K --A $A: $(cat cmp.log)"
        done
    done
done

# recover: each rank generates its rows; the same A and y as gsfw recover --sensing
IMG=$here/../data/mnist_0.png
for case in "implicit-gaussian topk 3 1e-10" "implicit-gaussian head 1 0" "dct topk 2 1e-10"; do
    set -- $case
    args="--image $IMG --ratio 3 --sensing $1 --model $2 --iters 40 --polish off --noise 0.01 --seed 3"
    rm -rf rd
    if ! "$GSFW" recover $args --out-dir rd --no-plot >ref.log 2>&1; then
        fail "gsfw recover $case"; cat ref.log; continue
    fi
    if ! $RUN -np $3 "$GSFW_MPI" recover $args --out x.npy --trace t.csv >run.log 2>&1; then
        fail "gsfw-mpi recover $case"; cat run.log; continue
    fi
    "$TOOL" cmp-npy x.npy rd/recovered.npy $4 >cmp.log 2>&1 || { fail "recover x: $case"; cat cmp.log; }
    "$TOOL" cmp-trace t.csv rd/trace.csv $4 >cmp.log 2>&1 || { fail "recover trace: $case"; cat cmp.log; }
    echo "ok: recover --sensing $1 --model $2 K=$3: $(cat cmp.log)"
done

# 2. a truncated file
head -c 900 A7.npy >At.npy
start=$(date +%s)
$RUN -np 4 "$GSFW_MPI" solve --A At.npy --y y7.npy --model topk --s 2 --C 5 --method fw \
    --iters 5 >trunc.out 2>trunc.err
rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then fail "truncated A.npy: status $rc (124 = hang)"; fi
# one line from rank 0 naming the ranks, not one copy of the message per rank
if [ "$(grep -c "is truncated" trunc.err)" -ne 1 ]; then
    fail "truncated A.npy: not exactly one line with the message"; cat trunc.err
fi
grep -q "reading --A failed on ranks 0-3 of 4: --A: 'At.npy' is truncated" trunc.err ||
    fail "truncated A.npy: rank 0's line does not name the ranks"
grep -q "4 of 4 ranks failed" trunc.err || fail "truncated A.npy: no summary from rank 0"
[ -s trunc.out ] && fail "truncated A.npy: something printed on stdout"
echo "ok: truncated A.npy: status $rc after ${took}s, one line naming ranks 0-3"

# 2b. ranks started with different arguments: refused at once, not a deadlock
$RUN -np 1 "$GSFW_MPI" solve --A A7.npy --y y7.npy --model topk --s 2 --C 5 --method fw \
    --iters 25 : -np 1 "$GSFW_MPI" solve --A A7.npy --y y7.npy --model topk --s 2 --C 5 \
    --method fw --iters 30 >mixed.out 2>mixed.err
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then fail "different arguments: status $rc (124 = hang)"; fi
grep -q "started with different arguments: rank 1 differs from rank 0" mixed.err ||
    { fail "different arguments: no message naming rank 1"; cat mixed.err; }
echo "ok: different arguments: status $rc, refused"

# 2c. two outputs naming one file: a usage error before any work, as in gsfw solve
$RUN -np 2 "$GSFW_MPI" recover --image "$IMG" --ratio 3 --iters 5 --out same.npy \
    --trace same.npy >same.out 2>same.err
rc=$?
if [ $rc -ne 2 ] || [ -e same.npy ] ||
    ! grep -q "^gsfw-mpi recover: --out and --trace name the same file 'same.npy'" same.err; then
    fail "recover --out and --trace on one file: status $rc, expected 2 and a message"
    head -n 5 same.err
else
    echo "ok: recover --out and --trace on one file: refused before the run"
fi

# 2d. bench-reduce runs through its sizes (up to 1e6 doubles; UBSan builds check its
# arithmetic)
if $RUN -np 1 "$GSFW_MPI" bench-reduce --reps 1 >bench.out 2>bench.err &&
    [ "$(grep -c '^ *[0-9][0-9]* ' bench.out)" -eq 5 ]; then
    echo "ok: bench-reduce: five sizes"
else
    fail "bench-reduce --reps 1"; cat bench.out; head -n 5 bench.err
fi

# 3. the time limit
"$TOOL" gen 40 300 3 B.npy yB.npy B.mtx || exit 1
if $RUN -np 3 "$GSFW_MPI" solve --A B.npy --y yB.npy --model topk --s 3 --C 5 --method fw \
    --iters 100000000 --time-limit 0.3 --trace tl.csv >tl.out 2>tl.err; then
    iters=$(sed -n 's/.* iters=\([0-9]*\) .*/\1/p' tl.out)
    rows=$(($(wc -l <tl.csv) - 1))
    grep -q "status=time_limit" tl.out || fail "time limit: status is not time_limit"
    [ "$rows" -eq $((iters + 1)) ] || fail "time limit: $rows trace rows for iters=$iters"
    [ "$(wc -l <tl.out)" -eq 1 ] || fail "time limit: more than rank 0's line on stdout"
    echo "ok: time limit: every rank stopped after iterate $iters ($rows trace rows)"
else
    fail "time limit run failed"; cat tl.err
fi

if [ $fails -ne 0 ]; then
    echo "mpi_test: $fails failures"
    exit 1
fi
echo "mpi_test: all passed"
