# Sourced by the gsfw-mpi shell tests (tests/mpi_test.sh, tests/mpi_args_test.sh), whose
# arguments are GSFW GSFW_MPI MPI_TEST_TOOL [MPIEXEC] and which set test_name first. Sets
# GSFW, GSFW_MPI, TOOL, here (tests/), RUN (mpirun with a 60 s timeout), the sanitizer
# options for Open MPI, fails and fail(); moves to a fresh temporary directory (removed
# on exit). Exits 77 (skipped) when mpirun cannot start a process here.
GSFW=$1
GSFW_MPI=$2
TOOL=$3
MPIEXEC=${4:-mpirun}
[ -n "$MPIEXEC" ] || MPIEXEC=mpirun
RUN="timeout 60 $MPIEXEC --allow-run-as-root --oversubscribe"
# under ASan/LSan: Open MPI keeps allocations until exit, which are not leaks of gsfw's
here=$(cd "$(dirname "$0")" && pwd)
export LSAN_OPTIONS="suppressions=$here/mpi/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export OMPI_MCA_rmaps_base_oversubscribe=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

if ! $RUN -np 1 true >start.log 2>&1; then
    echo "$test_name: skipped: mpirun cannot start a process here:"
    head -n 5 start.log
    exit 77
fi

fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
