#!/bin/sh
# gsfw-mpi solve checks its flags with gsfw solve's code (ctest "mpi_args"): for each bad
# command line, both tools exit with the same status and print the same message, each
# under its own name ("gsfw solve: ", "gsfw-mpi solve: ", also in the --help hint; rank 0
# alone speaks: the message appears once).
#   usage: mpi_args_test.sh GSFW GSFW_MPI MPI_TEST_TOOL [MPIEXEC]
# Exit 77 (skipped) when mpirun cannot start a process here.
# shellcheck disable=SC2086  # $B is a list of flags, split on purpose
set -u
test_name=mpi_args_test
. "$(dirname "$0")/mpi/mpirun_setup.sh"

"$TOOL" gen 7 20 1 A.npy y.npy A.mtx || exit 1
"$TOOL" gen 5 20 1 A5.npy y5.npy A5.mtx || exit 1

checked=0
# check EXPECTED_STATUS ARGS...: gsfw solve ARGS and gsfw-mpi solve ARGS (2 ranks)
check() {
    want=$1
    shift
    "$GSFW" solve "$@" >ref.out 2>ref.err
    ref_rc=$?
    $RUN -np 2 "$GSFW_MPI" solve "$@" >mpi.out 2>mpi.err
    mpi_rc=$?
    if [ "$mpi_rc" -ne "$want" ] && ! grep -q "^gsfw-mpi" mpi.err; then
        # not gsfw-mpi's own answer (it names itself in every message): mpirun failed to
        # launch or to connect the ranks, which a loaded machine can make it do; once more
        echo "note: $*: mpirun exited $mpi_rc without a gsfw-mpi message; run again:"
        sed 's/^/  mpirun: /' mpi.err | head -n 20
        $RUN -np 2 "$GSFW_MPI" solve "$@" >mpi.out 2>mpi.err
        mpi_rc=$?
    fi
    sed -n "s/^gsfw solve: //p; s/^Try 'gsfw solve --help'/Try --help/p" ref.err >ref.msg
    # without the ranks' agreement that follows a failure ("... failed on ranks 0-1 of 2")
    sed -n "/ failed on ranks* [0-9, -]* of [0-9]*\( (above)\)*\(: .*\)*$/d; / ranks* failed; every rank stops\$/d
            s/^gsfw-mpi solve: //p; s/^Try 'gsfw-mpi solve --help'/Try --help/p" mpi.err >mpi.msg
    checked=$((checked + 1))
    if [ "$ref_rc" -ne "$want" ] || [ "$mpi_rc" -ne "$want" ]; then
        fail "$*: status $ref_rc (gsfw), $mpi_rc (gsfw-mpi), expected $want"
        sed 's/^/  gsfw-mpi stderr: /' mpi.err | head -n 20
    elif [ ! -s ref.msg ] || ! cmp -s ref.msg mpi.msg; then
        fail "$*: the messages differ:"
        sed 's/^/  gsfw:     /' ref.msg
        sed 's/^/  gsfw-mpi: /' mpi.msg
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
# the outputs are checked before the run: two naming one file, two on standard output
check 2 $B --method fw --out same.npy --best-out same.npy
check 2 $B --method fw --out - --trace -
check 1 $B --method fw --x-true y5.npy

# --out - is standard output (gsfw solve --help), the summary line then goes to stderr
rm -f -- -
$RUN -np 2 "$GSFW_MPI" solve $B --method fw --out - >dash.npy 2>dash.err
rc=$?
checked=$((checked + 1))
if [ $rc -ne 0 ] || [ -e - ] || ! head -c 6 dash.npy | grep -q NUMPY ||
    ! grep -q "^method=fw " dash.err; then
    fail "--out -: status $rc; x must go to stdout (not a file '-'), the summary to stderr"
    sed 's/^/  gsfw-mpi stderr: /' dash.err | head -n 20
else
    echo "ok: --out - writes x on standard output, the summary on stderr"
fi

if [ $fails -ne 0 ]; then
    echo "mpi_args_test: $fails of $checked command lines failed"
    exit 1
fi
echo "mpi_args_test: all $checked command lines agree"
