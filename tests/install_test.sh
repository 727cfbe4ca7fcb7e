#!/bin/sh
# Installs gsfw into a temporary prefix and uses it as a user would: pkg-config finds it,
# the public headers compile on their own, examples/quickstart.c builds with the compile
# line its comment documents (against libgsfw.so, then libgsfw.a) and runs, libgsfw.so
# has a SONAME and exports only gsfw_* symbols, the library neither needs libpng nor
# carries the command-line tools' PNG and group-move functions, and every object of
# libgsfw.a links with the libraries gsfw.pc lists for static linking.
#
# usage: install_test.sh CMAKE BUILD_DIR SOURCE_DIR SANITIZED   (run by ctest -R install)
# Exit status 77 means skipped.
set -eu
cmake=$1 build=$2 src=$3 sanitized=${4:-0}

if [ "$sanitized" = 1 ]; then
    echo "SKIP: sanitizer build; libgsfw needs the sanitizer runtime that a plain cc line" \
         "does not link (the release build runs this test)"
    exit 77
fi
if ! command -v pkg-config >/dev/null 2>&1; then
    echo "SKIP: pkg-config is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix work=$tmp/work
mkdir "$work"

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install $build --prefix $prefix"; }
echo "installed under $prefix:"
(cd "$prefix" && find . -type f -o -type l) | sed 's|^\./|  |' | sort

# --- pkg-config file
pc=$(find "$prefix" -name gsfw.pc)
[ -n "$pc" ] || fail "no gsfw.pc installed"
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
pkg-config --exists gsfw || fail "pkg-config cannot use $pc: $(pkg-config --print-errors --exists gsfw 2>&1)"
libdir=$(pkg-config --variable=libdir gsfw)
includedir=$(pkg-config --variable=includedir gsfw)
for dir in "$libdir" "$includedir"; do
    case $dir in "$prefix"/*) ;; *) fail "gsfw.pc points to $dir, outside the prefix $prefix" ;; esac
done
tool_version=$("$prefix/bin/gsfw" --version) || fail "the installed gsfw tool does not run"
[ "$tool_version" = "gsfw $(pkg-config --modversion gsfw)" ] ||
    fail "gsfw.pc has version $(pkg-config --modversion gsfw) but the tool says '$tool_version'"

# --- headers: every public header is installed and compiles on its own
for h in "$src"/include/gsfw.h "$src"/include/gsfw/*.h; do
    rel=${h#"$src"/include/}
    [ -f "$includedir/$rel" ] || fail "$rel is not installed in $includedir"
    # shellcheck disable=SC2046
    printf '#include <%s>\n' "$rel" |
        cc -std=c11 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags gsfw) -x c - ||
        fail "the installed $rel does not compile on its own"
done

# --- libgsfw.so: SONAME and its link, only gsfw_* exported
so=$libdir/libgsfw.so
[ -e "$so" ] || fail "no $so"
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
[ -n "$soname" ] || fail "$so has no SONAME"
[ -e "$libdir/$soname" ] || fail "$so has SONAME $soname but $libdir/$soname is missing"
nm -D --defined-only "$so" | awk '$3 !~ /^gsfw_/' >"$tmp/offenders"
if [ -s "$tmp/offenders" ]; then
    echo "symbols exported by $so without the gsfw_ prefix:" >&2
    cat "$tmp/offenders" >&2
    fail "$(wc -l <"$tmp/offenders") exported symbols lack the gsfw_ prefix"
fi
# the exported functions are exactly those the public headers declare GSFW_API
cat "$src"/include/gsfw.h "$src"/include/gsfw/*.h | tr '\n' ' ' | grep -o 'GSFW_API [^;]*;' |
    grep -o 'gsfw_[a-z0-9_]* *(' | tr -d ' (' | sort -u >"$tmp/declared"
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort -u >"$tmp/exported"
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
    echo "declared GSFW_API in include/ (<) against exported by $so (>):" >&2
    diff "$tmp/declared" "$tmp/exported" >&2
    fail "the exported functions differ from the public headers' declarations"
fi
echo "libgsfw.so: SONAME $soname, $(wc -l <"$tmp/exported") exported functions, all gsfw_*," \
    "= the $(wc -l <"$tmp/declared") declared in include/"

# --- what only the command-line tools need stays out of the library: PNG images (so no
# libpng) and the move of several outputs at once (cli/png_io.c, cli/move_group.c)
moved='^(png_|gsfw_png_|cli_)'
readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' >"$tmp/needed"
[ -s "$tmp/needed" ] || fail "readelf lists no NEEDED libraries of $so"
if grep -i 'libpng' "$tmp/needed" >&2; then fail "$so needs libpng"; fi
nm -D --defined-only "$so" | awk '{ print $NF }' | grep -E "$moved" >"$tmp/moved" || true
[ ! -s "$tmp/moved" ] || fail "$so exports command-line-only functions: $(tr '\n' ' ' <"$tmp/moved")"
nm "$libdir/libgsfw.a" | awk 'NF >= 2 { print $NF }' | grep -E "$moved" >"$tmp/moved" || true
[ ! -s "$tmp/moved" ] ||
    fail "libgsfw.a defines or calls command-line-only or libpng functions: $(sort -u "$tmp/moved" | tr '\n' ' ')"
if pkg-config --static --libs gsfw | grep -i 'png'; then fail "gsfw.pc lists libpng"; fi
if grep -n 'gsfw_png_\|cli_' "$includedir"/gsfw.h \
    "$includedir"/gsfw/*.h >&2; then
    fail "the installed headers declare command-line-only functions"
fi
echo "libgsfw: needs $(tr '\n' ' ' <"$tmp/needed")(no libpng); no PNG or group-move functions"

# --- quickstart, built with the line documented in its comment, against libgsfw.so
line=$(sed -n 's/^ \* *\(cc quickstart\.c .*\)$/\1/p' "$src/examples/quickstart.c")
[ -n "$line" ] || fail "examples/quickstart.c documents no 'cc quickstart.c ...' line"
cp "$src/examples/quickstart.c" "$work/"
echo "shared: $line"
(cd "$work" && eval "$line") || fail "the documented line does not build quickstart.c: $line"
readelf -d "$work/quickstart" | grep -q "(NEEDED).*\[$soname\]" ||
    fail "quickstart is not linked against $soname"
LD_LIBRARY_PATH=$libdir "$work/quickstart" || fail "quickstart (shared) failed"

# --- every other example that documents its compile line builds and runs with it
for ex in "$src"/examples/*.c; do
    name=$(basename "$ex" .c)
    [ "$name" = quickstart ] && continue
    exline=$(sed -n "s/^ \* *\(cc $name\.c .*\)\$/\1/p" "$ex")
    [ -n "$exline" ] || fail "examples/$name.c documents no 'cc $name.c ...' line"
    cp "$ex" "$work/"
    echo "shared: $exline"
    (cd "$work" && eval "$exline") || fail "the documented line does not build $name.c: $exline"
    (cd "$work" && LD_LIBRARY_PATH=$libdir "./$name" >/dev/null) || fail "$name (shared) failed"
done

# --- static: libgsfw.a alone, as an installation without the shared library has it
rm -f "$libdir"/libgsfw.so*
echo "static: cc quickstart.c \$(pkg-config --static --cflags --libs gsfw) -lm -o quickstart_static"
# shellcheck disable=SC2046
(cd "$work" && cc quickstart.c $(pkg-config --static --cflags --libs gsfw) -lm -o quickstart_static) ||
    fail "quickstart does not build against libgsfw.a"
if readelf -d "$work/quickstart_static" | grep -q "(NEEDED).*libgsfw"; then
    fail "quickstart_static still needs a shared libgsfw"
fi
"$work/quickstart_static" || fail "quickstart (static) failed"

# The quickstart pulls only some objects from libgsfw.a; linking all of them checks that
# gsfw.pc's Requires.private and Libs.private cover every library libgsfw.a uses.
# shellcheck disable=SC2046
(cd "$work" && cc quickstart.c $(pkg-config --cflags gsfw) \
    -Wl,--whole-archive "$libdir/libgsfw.a" -Wl,--no-whole-archive \
    $(pkg-config --static --libs gsfw) -lm -o quickstart_whole) ||
    fail "libgsfw.a uses a library gsfw.pc does not list for static linking" \
         "(add it to GSFW_PC_REQUIRES_PRIVATE or GSFW_PC_LIBS_PRIVATE in CMakeLists.txt)"
"$work/quickstart_whole" >/dev/null || fail "quickstart (whole archive) failed"
echo "install test passed"
