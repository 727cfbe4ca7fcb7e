#!/bin/sh
# The numeric tests (ctest label "numeric", tests/numeric_tests.cmake) under the OpenBLAS
# kernels users' machines get, selected with OPENBLAS_CORETYPE: Prescott (the generic
# kernel OpenBLAS falls back to on a CPU it does not know), Sandybridge (AVX without FMA:
# its products round unlike both neighbours), Haswell (AVX2) and SkylakeX (AVX-512). The
# kernel OpenBLAS picks here by default is skipped: the whole suite has just run under it. The MPI comparison (label numeric_mpi, the slowest) runs under
# Prescott only.
#
#   usage: tests/kernels.sh BUILD_DIR [JOBS]      (`make test` runs it; `make test-kernels`)
#
# A kernel this CPU cannot execute (no AVX-512 for SkylakeX, ...) is skipped with a note,
# as is everything when OpenBLAS cannot switch kernels at run time (not a DYNAMIC_ARCH
# build, or another BLAS behind libblas). Exit status 1 when a test fails.
set -u
build=$(cd "$1" && pwd) || exit 2
jobs=${2:-2}
kernels="Prescott Sandybridge Haswell SkylakeX"

# the kernel OpenBLAS reports for a run of the gsfw tool (empty: no run-time choice)
core_of() {
    env OPENBLAS_VERBOSE=2 ${1:+OPENBLAS_CORETYPE=$1} "$build/gsfw" --version 2>&1 |
        sed -n 's/^Core: //p' | head -n 1
}

flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
needs() { # KERNEL: the CPU flags its code uses
    case $1 in
    Prescott) echo "pni" ;; # SSE3
    Sandybridge) echo "avx" ;;
    Haswell) echo "avx2 fma" ;;
    SkylakeX) echo "avx512f avx512cd avx512bw avx512dq avx512vl" ;;
    esac
}
missing() { # KERNEL: the flags this CPU lacks
    for f in $(needs "$1"); do
        case $flags in *" $f "*) ;; *) printf '%s ' "$f" ;; esac
    done
}

default=$(core_of "")
if [ -z "$default" ]; then
    echo "kernels: skipped, this OpenBLAS cannot switch kernels at run time" \
        "(OPENBLAS_VERBOSE=2 names none)"
    exit 0
fi
echo "kernels: OpenBLAS picks $default on this CPU; the suite above ran under it"

fails=0
ran=""
for k in $kernels; do
    if [ "$k" = "$default" ]; then
        ran="$ran $k"
        continue
    fi
    lack=$(missing "$k")
    if [ -n "$lack" ]; then
        echo "kernels: $k skipped, this CPU lacks ${lack% }"
        continue
    fi
    got=$(core_of "$k")
    if [ "$got" != "$k" ]; then
        echo "kernels: $k skipped, OPENBLAS_CORETYPE=$k gives '$got'"
        continue
    fi
    labels=numeric
    [ "$k" = Prescott ] && labels="numeric|numeric_mpi"
    log="$build/kernels-$k.log"
    start=$(date +%s)
    (cd "$build" && OPENBLAS_CORETYPE=$k ctest -L "^($labels)\$" -j "$jobs" \
        --output-on-failure >"$log" 2>&1)
    rc=$?
    took=$(($(date +%s) - start))
    summary=$(grep -E "tests passed|No tests were found" "$log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        echo "kernels: $k: $summary (label $labels, ${took}s)"
        ran="$ran $k"
    else
        echo "kernels: $k: FAILED (label $labels; log $log)"
        sed -n '/The following tests FAILED/,$p' "$log"
        grep -E "^(ERROR|\[  ERROR|FAILED|E  )" "$log" | head -n 20
        fails=$((fails + 1))
    fi
done
echo "kernels: numeric tests passed under:$ran"
[ $fails -eq 0 ]
