#!/bin/sh
# Install the Debian packages gsfw needs. Does nothing when everything is already
# present; uses sudo when not root.
#
#   scripts/install-deps.sh [demo|full]
#     demo: what `make demo` needs: the compiler, CMake and the libraries of libgsfw and
#           the gsfw tool (OpenBLAS, LAPACKE, FFTW, GSL, libpng), gnuplot for the pictures
#     full (default): also cmocka, Python, MPI and the tools of the tests, benchmarks and
#           experiments (`make test`)
set -eu

DEMO_PACKAGES="build-essential cmake pkg-config libopenblas-dev liblapacke-dev libpng-dev libfftw3-dev libgsl-dev gnuplot-nox"
TEST_PACKAGES="libcmocka-dev python3-dev python3-numpy python3-setuptools python3-wheel python3-pip python3-pytest python3-venv python3-networkx python3-scipy python3-sklearn python3-skimage time libopenmpi-dev openmpi-bin"
case ${1:-full} in
    demo) PACKAGES=$DEMO_PACKAGES ;;
    full) PACKAGES="$DEMO_PACKAGES $TEST_PACKAGES" ;;
    *) echo "usage: install-deps.sh [demo|full]" >&2; exit 2 ;;
esac

# Without apt (another distribution, macOS, a container without dpkg) say what is needed
# and go on: the build then stops with CMake's message if a library is really missing.
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: no apt-get here, nothing installed. gsfw needs a C11 compiler, CMake"
    echo "  >= 3.16, OpenBLAS (with cblas.h), LAPACKE, libpng; cmocka for the tests and gnuplot"
    echo "  for the plots. Debian names: $PACKAGES"
    exit 0
fi

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
if [ -n "$SUDO" ] && ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: missing$missing; not root and no sudo: install them, then run make again"
    exit 0
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
