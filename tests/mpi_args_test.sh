#!/bin/sh
# gsfw-mpi solve checks its flags with gsfw solve's code (ctest "mpi_args"): for each bad
# command line, both tools exit with the same status and print the same "gsfw solve: "
# message (rank 0 alone speaks: the message appears once).
#   usage: mpi_args_test.sh GSFW GSFW_MPI MPI_TEST_TOOL [MPIEXEC]
# Exit 77 (skipped) when mpirun cannot start a process here.
set -u
GSFW=$1
GSFW_MPI=$2
TOOL=$3
MPIEXEC=${4:-mpirun}
[ -n "$MPIEXEC" ] || MPIEXEC=mpirun
RUN="timeout 60 $MPIEXEC --allow-run-as-root --oversubscribe"
here=$(cd "$(dirname "$0")" && pwd)
export LSAN_OPTIONS="suppressions=$here/mpi/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export OMPI_MCA_rmaps_base_oversubscribe=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

if ! $RUN -np 1 true >start.log 2>&1; then
    echo "mpi_args_test: skipped: mpirun cannot start a process here:"
    head -n 5 start.log
    exit 77
fi

"$TOOL" gen 7 20 1 A.npy y.npy A.mtx || exit 1
"$TOOL" gen 5 20 1 A5.npy y5.npy A5.mtx || exit 1

fails=0
checked=0
# check EXPECTED_STATUS ARGS...: gsfw solve ARGS and gsfw-mpi solve ARGS (2 ranks)
check() {
    want=$1
    shift
    "$GSFW" solve "$@" >ref.out 2>ref.err
    ref_rc=$?
    $RUN -np 2 "$GSFW_MPI" solve "$@" >mpi.out 2>mpi.err
    mpi_rc=$?
    grep '^gsfw solve: ' ref.err >ref.msg
    grep '^gsfw solve: ' mpi.err >mpi.msg
    checked=$((checked + 1))
    if [ "$ref_rc" -ne "$want" ] || [ "$mpi_rc" -ne "$want" ]; then
        echo "FAIL: $*: status $ref_rc (gsfw), $mpi_rc (gsfw-mpi), expected $want"
        fails=$((fails + 1))
    elif [ ! -s ref.msg ] || ! cmp -s ref.msg mpi.msg; then
        echo "FAIL: $*: the messages differ:"
        sed 's/^/  gsfw:     /' ref.msg
        sed 's/^/  gsfw-mpi: /' mpi.msg
        fails=$((fails + 1))
    else
        echo "ok: $* -> $want: $(cat ref.msg)"
    fi
}

B="--A A.npy --y y.npy --model topk --s 3 --C 5 --iters 10"
check 2 --A A.npy --y y.npy --model topk --s 3 --C 5 --method fw
check 2 $B --method newton
check 2 --A A.npy --y y.npy --model topk --s 3 --C -1 --iters 10 --method fw
check 2 $B --method fw --step bogus
check 2 $B --method fw --tol -1
check 2 $B --method fw --tol-rel 2
check 2 $B --method fw --polish maybe
check 2 $B --method iht --step line
check 2 $B --method fw --option III
check 2 $B --method fw --L zz
check 2 $B --method iht --L atom
check 2 $B --method fw --time-limit 0
check 2 $B --method fw --loss hinge
check 2 $B --method fw --huber-delta 2
check 2 $B --method fw --intercept
check 2 --A A.npy --y y.npy --model nomodel --s 3 --C 5 --iters 10 --method fw
check 1 $B --method fw --x0 y5.npy
check 1 $B --method fw --x-true y5.npy

if [ $fails -ne 0 ]; then
    echo "mpi_args_test: $fails of $checked command lines failed"
    exit 1
fi
echo "mpi_args_test: all $checked command lines agree"
