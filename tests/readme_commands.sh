#!/bin/sh
# Run the README's commands as written, so that README and program cannot drift apart.
#
#   usage: tests/readme_commands.sh SOURCE_DIR BUILD_DIR   (ctest passes both)
#
# Every fenced ```sh block of README.md is run with `sh -e` in a scratch directory that
# holds a copy of data/, with `build/` standing for BUILD_DIR. Lines that build or test
# the project (make, cmake, ctest: what ctest is running inside) are left out, except
# `make examples`, which is run as what it does: BUILD_DIR/example_data examples/data.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-readme-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cp -R "$src/data" "$work/data"

awk '/^```sh[ \t]*$/ { inside = 1; next } /^```/ { inside = 0; next } inside' "$src/README.md" |
  awk -v build="$build" '
    # a command continued over several lines is judged by its first line
    { line = $0; first = !continued; continued = line ~ /\\$/ }
    first { skip = 0 }
    first && line ~ /^make examples([ \t]|$)/ { print "\"" build "/example_data\" examples/data"; skip = 1; next }
    first && line ~ /^\(?(make|cmake|ctest|cd build)([ \t]|$)/ { skip = 1 }
    skip { next }
    { while (match(line, /(^|[ =(])build\//)) {
          pre = substr(line, 1, RSTART - 1) substr(line, RSTART, RLENGTH - 6)
          line = pre build "/" substr(line, RSTART + RLENGTH) }
      print line }' > "$work/readme.sh"

cd "$work"
if ! sh -e "$work/readme.sh" > "$work/log" 2>&1; then
    echo "readme_commands: a README command failed; the commands run:"
    cat "$work/readme.sh"
    echo "--- their output:"
    cat "$work/log"
    exit 1
fi
# the tour's products exist: solve's trace and iterate, recover's pictures
for f in trace.csv x.npy out/mnist7/panel.png out/mnist7/convergence.png; do
    [ -s "$f" ] || { echo "readme_commands: '$f' was not written"; cat "$work/log"; exit 1; }
done
echo "readme_commands: $(grep -c . "$work/readme.sh") lines of README.md ran"
