#!/bin/sh
# The command-line corpus: every line of tests/corpus/cases.txt run with one build, its
# observable behaviour written to one record, and records compared.
#
#   corpus.sh run BUILD OUT        run every case with BUILD's gsfw (and gsfw-mpi); the
#                                  record goes to OUT/record.txt, each case's files stay
#                                  in OUT/cases/NAME
#   corpus.sh compare REC1 REC2    exit 1 and print the differing cases when they differ
#   corpus.sh builds BUILD1 BUILD2 run both builds, compare (byte-identical behaviour)
#   corpus.sh check BUILD          run and compare with tests/corpus/expected.txt (ctest)
#   corpus.sh record BUILD         rewrite tests/corpus/expected.txt from BUILD
#
# A case's record holds its exit status, its standard output and error (literal when
# short text, else a SHA-256) and every file it leaves in its directory, by name, with
# the SHA-256 of its bytes. Timings are masked: a key=value field whose key ends in _s,
# and the columns of a CSV whose header names end in _s (time_s); convergence.png, a
# plot against time, is recorded as present only. Inputs come from inputs.sh.
#
# The floating-point results depend on the BLAS kernel, on FFTW's SIMD codelets and on
# the compiler (Clang fuses x * y + z into FMAs where GCC in ISO C mode does not): the
# cases run with OPENBLAS_CORETYPE=Prescott and one thread, and the record starts with
# the platform (CPU SIMD flags, the numeric libraries' files and versions, the build's C
# compiler and CMAKE_C_FLAGS; not the build type, whose -O levels round alike). `check`
# compares with the stored expectations only on the platform they were recorded on, and
# exits 77 (skipped) elsewhere; `builds` works anywhere.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

# key=value fields named *_s, and *_s columns of CSV blocks, become '*'
mask() {
    awk -F, '
        function csv_header(   i, n) { n = 0; split("", col)
            for (i = 1; i <= NF; i++) if ($i ~ /_s$/) { col[i] = 1; n++ }
            return n }
        { line = $0 }
        NF > 1 && line ~ /^[A-Za-z_][A-Za-z_0-9,]*$/ { ncols = csv_header() ? NF : 0; print; next }
        ncols && NF == ncols { out = ""
            for (i = 1; i <= NF; i++) out = out (i > 1 ? "," : "") (i in col ? "*" : $i)
            print out; next }
        { ncols = 0
          while (match(line, /(^|[ \t])[A-Za-z_0-9]*_s=[^ \t]*/)) {
              pre = substr(line, 1, RSTART - 1); tok = substr(line, RSTART, RLENGTH)
              line = substr(line, RSTART + RLENGTH)
              sub(/=.*/, "=*", tok); done = done pre tok }
          print done line; done = "" }'
}

# a captured stream: literal (masked) when it is short text, else its hash
stream() { # LABEL FILE
    if [ ! -s "$2" ]; then echo "$1 empty"; return; fi
    if [ "$(tr -d '\n\t\040-\176' <"$2" | wc -c)" -eq 0 ] && [ "$(wc -l <"$2")" -le 40 ]; then
        echo "$1:"
        mask <"$2" | sed 's/^/  | /'
        [ -z "$(tail -c 1 "$2")" ] || echo "  (no newline at end)"
    else
        echo "$1 $(wc -l <"$2" | tr -d ' ') lines, sha256 $(masked_hash "$2")"
    fi
}

masked_hash() {
    if [ "$(tr -d '\n\t\040-\176' <"$1" | wc -c)" -eq 0 ]; then mask <"$1"; else cat "$1"; fi |
        sha256sum | cut -c1-64
}

platform() {
    echo "platform arch $(uname -m)"
    echo "platform simd $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' |
        grep -xE 'sse2|sse3|ssse3|sse4_1|sse4_2|avx|avx2|fma|avx512f|avx512dq|avx512vl' | tr '\n' ' ')"
    ldd "$1/gsfw" 2>/dev/null | awk '/=> \// { print $3 }' | grep -E 'blas|lapack|fftw|gsl|libm\.|libc\.' |
        while read -r lib; do
            real=$(readlink -f "$lib")
            pkg=$(dpkg-query -S "$real" 2>/dev/null | head -n 1 | cut -d: -f1)
            ver=$( [ -n "$pkg" ] && dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null)
            echo "platform lib $real ${pkg:-?} ${ver:-?}"
        done | sort
    # the C compiler as CMake identified it, and the flags given to every build type
    cc=$(ls -t "$1"/CMakeFiles/*/CMakeCCompiler.cmake 2>/dev/null | head -n 1) # the newest
    [ -z "$cc" ] || echo "platform cc" \
        "$(sed -n 's/^set(CMAKE_C_COMPILER_\(ID\|VERSION\) "\(.*\)")$/\2/p' "$cc" | paste -s -d ' ' -)"
    [ ! -f "$1/CMakeCache.txt" ] ||
        echo "platform cflags [$(sed -n 's/^CMAKE_C_FLAGS:[A-Z]*=//p' "$1/CMakeCache.txt")]"
}

run() { # BUILD OUT
    build=$(cd "$1" && pwd) || exit 2
    mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
    rm -rf "$out/in" "$out/cases" && mkdir -p "$out/in" "$out/cases"
    (cd "$out/in" && sh "$here/inputs.sh" "$src" "$build") || { echo "corpus: inputs failed"; exit 2; }
    export OPENBLAS_CORETYPE=Prescott OPENBLAS_NUM_THREADS=1 LC_ALL=C
    export OMPI_MCA_rmaps_base_oversubscribe=1
    # sanitized builds: Open MPI keeps allocations until exit (tests/mpi/lsan.supp)
    export LSAN_OPTIONS="suppressions=$src/tests/mpi/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    PATH=$build:$PATH
    mpi=no
    if [ -x "$build/gsfw-mpi" ] && command -v mpirun >/dev/null 2>&1 &&
        timeout 60 mpirun --allow-run-as-root --oversubscribe -np 1 true >/dev/null 2>&1; then
        mpi=yes
    fi
    # every program of a case runs under a time limit
    gsfw() { timeout 120 gsfw "$@"; }
    mpirun() {
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0" \
            timeout 120 mpirun --allow-run-as-root --oversubscribe "$@"
    }
    {
        platform "$build"
        echo "== inputs"
        (cd "$out/in" && sha256sum * | awk '{ print "file " $2 " sha256 " $1 }')
        grep -v '^[[:space:]]*\(#\|$\)' "$here/cases.txt" | while IFS= read -r line; do
            name=${line%%:*}
            cmd=${line#*:}
            cmd=${cmd# }
            echo "== $name"
            printf '$ %s\n' "$cmd"
            case $cmd in *mpirun*) if [ $mpi = no ]; then echo "skipped (no mpirun)"; continue; fi ;; esac
            dir=$out/cases/$name
            mkdir "$dir" && ln -s ../../in "$dir/in"
            (cd "$dir" && eval "$cmd") <&- >"$dir.out" 2>"$dir.err"
            echo "status $?"
            case $cmd in *mpirun*) # mpirun's own banners name its job ids
                awk '/^-----+$/ { banner = !banner; next } !banner' "$dir.err" >"$dir.err.tmp" &&
                    mv "$dir.err.tmp" "$dir.err" ;;
            esac
            stream stdout "$dir.out"
            stream stderr "$dir.err"
            (cd "$dir" && find . -path ./in -prune -o \( -type f -o -type l \) -print | sort) |
                while IFS= read -r f; do
                    case $f in
                        */convergence.png) echo "file $f present" ;;
                        *) echo "file $f sha256 $( [ -L "$dir/$f" ] && echo "link" ||
                               masked_hash "$dir/$f")" ;;
                    esac
                done
        done
    } >"$out/record.txt"
    echo "corpus: $(grep -c '^== ' "$out/record.txt") cases run with $build" \
        "($(grep -c '^skipped' "$out/record.txt") skipped); record: $out/record.txt"
}

compare() { # REC1 REC2: exit 1 on a difference in a case that neither side skipped
    awk '
        function flush() { if (name != "") rec[cur, name] = body; name = ""; body = "" }
        FNR == 1 { flush(); cur = FILENAME }
        /^== / { flush(); name = substr($0, 4)
                 if (!(name in seen)) { seen[name] = 1; order[++n] = name }; next }
        name != "" { body = body $0 "\n" }
        END { flush()
            for (i = 1; i <= n; i++) { k = order[i]
                a = rec[ARGV[1], k]; b = rec[ARGV[2], k]
                if (a ~ /(^|\n)skipped/ || b ~ /(^|\n)skipped/) { skipped++; continue }
                if (a == b) continue
                differ++
                printf "--- case %s: %s\n%s", k, ARGV[1], a == "" ? "(missing)\n" : a
                printf "+++ case %s: %s\n%s", k, ARGV[2], b == "" ? "(missing)\n" : b }
            printf "corpus: %d cases, %d differ, %d skipped on one side\n", n, differ, skipped
            exit differ > 0 }' "$1" "$2"
}

cmd=${1:-}
case $cmd in
    run) [ $# -eq 3 ] || exit 2; run "$2" "$3" ;;
    compare) [ $# -eq 3 ] || exit 2; compare "$2" "$3" ;;
    builds)
        [ $# -eq 3 ] || exit 2
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-corpus-XXXXXX")
        run "$2" "$tmp/1" && run "$3" "$tmp/2" || exit 2
        compare "$tmp/1/record.txt" "$tmp/2/record.txt"; rc=$?
        [ $rc -eq 0 ] && rm -rf "$tmp" || echo "corpus: the runs are kept in $tmp"
        exit $rc ;;
    check|record)
        [ $# -eq 2 ] || exit 2
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-corpus-XXXXXX")
        run "$2" "$tmp" || exit 2
        if [ $cmd = record ]; then
            cp "$tmp/record.txt" "$here/expected.txt"; rm -rf "$tmp"
            echo "corpus: wrote $here/expected.txt"; exit 0
        fi
        grep '^platform' "$here/expected.txt" >"$tmp/expected.platform"
        grep '^platform' "$tmp/record.txt" >"$tmp/platform"
        if ! cmp -s "$tmp/expected.platform" "$tmp/platform"; then
            echo "corpus: skipped: tests/corpus/expected.txt was recorded on another platform:"
            diff "$tmp/expected.platform" "$tmp/platform" | sed 's/^/  /'
            echo "(compare two builds with 'corpus.sh builds', or re-record with 'corpus.sh record')"
            rm -rf "$tmp"; exit 77
        fi
        compare "$here/expected.txt" "$tmp/record.txt"; rc=$?
        [ $rc -eq 0 ] && rm -rf "$tmp" || echo "corpus: the run is kept in $tmp"
        exit $rc ;;
    *) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
