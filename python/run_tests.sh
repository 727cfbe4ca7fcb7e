#!/bin/sh
# Build the Python extension out of tree against a CMake build's libgsfw.a and run the
# pytest suite (ctest test "python").
#   usage: python/run_tests.sh SOURCE_DIR OUT_DIR [GSFW_BIN [PYTEST_ARGS...]]
# GSFW_BIN (default SOURCE_DIR/build/gsfw) is the command-line tool; its directory is the
# CMake build tree whose libgsfw.a the extension links (setup.py, GSFW_BUILD_DIR).
# PYTEST_ARGS (files, --ignore=FILE, ...; default: all of python/tests) go to pytest.
# Exit status 77 (ctest: skipped) when Debian's python3-numpy or python3-pytest is missing.
set -eu
src=$1
out=$2
bin=${3:-$src/build/gsfw}
shift $(($# < 3 ? $# : 3))
[ $# -gt 0 ] || set -- "$src/python/tests"
py=/usr/bin/python3
for mod in numpy pytest setuptools; do
    if ! $py -c "import $mod" 2>/dev/null; then
        echo "python tests skipped: $py cannot import $mod (run scripts/install-deps.sh)"
        exit 77
    fi
done
cd "$src/python"
GSFW_BUILD_DIR=$(dirname "$bin") $py setup.py -q build_ext -j 2 --build-temp "$out/build" \
    build --build-base "$out/build" --build-lib "$out/lib" 2>&1 |
    grep -v "byte-compiling is disabled" || true
test -d "$out/lib/gsfw" || { echo "python: the extension did not build"; exit 1; }
cd "$out"  # not python/: its gsfw/ has no extension module
export GSFW_BIN="$bin" PYTHONPATH="$out/lib" OPENBLAS_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1
exec $py -m pytest -q -p no:cacheprovider "$@"
