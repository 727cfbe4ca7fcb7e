#!/bin/sh
# Install the Debian packages gsfw needs to build, test and plot.
# Does nothing when everything is already present; uses sudo when not root.
set -eu

PACKAGES="build-essential cmake pkg-config libopenblas-dev liblapacke-dev libpng-dev libcmocka-dev libfftw3-dev gnuplot-nox libgsl-dev time python3-skimage"

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
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
