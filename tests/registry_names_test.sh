#!/bin/sh
# The front ends spell no library name: every method, model, step rule, loss, sensing
# kind and basis is listed by the library (`gsfw help KIND`), and the command line,
# gsfw-mpi and the Python extension print what it lists. This test takes the names from
# the built tool and fails when one appears in a string literal of cli/, mpi/ or
# python/src/ (comments and PyArg format strings aside): as a whole literal ("head", the
# form of a comparison or a default), or as a word of a message or usage text. A few
# names are also plain words or flags of the front ends (a "line" of a file, the --tree
# flag, an image's pixels); those count only as whole literals, the `gsfw tail` command
# keeps its name in the two files that define it, and Python's tree= keyword and the
# "needs" of its registry() rows (a graph or a tree) their word.
#
# The Python package (python/gsfw/*.py) is scanned by tests/registry_names_python.py with
# Python's tokenizer: its code literals by the same rule, with a few allowed defaults (the
# classifier's loss and its refit's model, the head()/tail() helpers and their names in
# __all__, the tree= keyword); its docstrings may name a library name in passing but list
# none by hand (two or more quoted names of one kind): they show lists with a
# `{registry:KIND}` line that python/gsfw/_registry.py fills from the library at import.
#
# usage: registry_names_test.sh GSFW_BIN SOURCE_DIR
set -eu
gsfw=$1 src=$2
kinds=$(for kind in methods models steps losses sensing bases; do
            "$gsfw" help "$kind" | awk -v kind="$kind" 'NF { print kind, $1 }'
        done)
names=$(echo "$kinds" | awk '{ print $2 }' | sort -u)
[ -n "$names" ] || { echo "FAIL: $gsfw help lists no names" >&2; exit 1; }
words_ok="tail line tree pixel"
literal_ok="cli/main.c:tail cli/cmd_tail.c:tail"
literal_ok="$literal_ok python/src/solve.c:tree python/src/dmo.c:tree python/src/spec.c:tree"
files=$(ls "$src"/cli/*.c "$src"/cli/*.h "$src"/mpi/*.c "$src"/mpi/*.h "$src"/python/src/*.c \
            "$src"/python/src/*.h 2>/dev/null)
status=0
for f in $files; do
    # the string literals of the file, one per line, with comments and #include lines gone
    literals=$(sed -e 's://.*$::' "$f" | awk '
        BEGIN { RS = "\0" }
        { gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, ""); print }' |
        grep -v '^[[:space:]]*#[[:space:]]*include' |
        grep -o '"\([^"\\]\|\\.\)*"' | grep -v '^"[A-Za-z|$!&#]*:[A-Za-z_0-9]*"$' || true)
    [ -n "$literals" ] || continue
    for name in $names; do
        rel=${f#"$src"/}
        case " $literal_ok " in *" $rel:$name "*) continue ;; esac
        if printf '%s\n' "$literals" | grep -qxF "\"$name\""; then
            echo "$f: the literal \"$name\" spells a library name" >&2
            status=1
            continue
        fi
        case " $words_ok " in *" $name "*) continue ;; esac
        hit=$(printf '%s\n' "$literals" |
              grep -E "(^\"|[^A-Za-z0-9_-])$(printf '%s' "$name" | sed 's/[.]/\\./g')([^A-Za-z0-9_-]|\"$)" |
              head -n 1 || true)
        if [ -n "$hit" ]; then
            echo "$f: $hit spells the library name '$name'" >&2
            status=1
        fi
    done
done
python=${PYTHON:-python3}
where="cli/, mpi/ or python/src/"
if command -v "$python" >/dev/null 2>&1; then
    py_ok="python/gsfw/_estimator.py:logistic python/gsfw/_estimator.py:topk"
    py_ok="$py_ok python/gsfw/_oracles.py:head python/gsfw/_oracles.py:tail"
    py_ok="$py_ok python/gsfw/__init__.py:head python/gsfw/__init__.py:tail"
    py_ok="$py_ok python/gsfw/_estimator.py:tree"
    echo "$kinds" | "$python" "$(dirname "$0")/registry_names_python.py" "$src" "$py_ok" \
        "$words_ok" || status=1
    where="cli/, mpi/, python/src/ or python/gsfw/"
else
    echo "registry names: no $python, python/gsfw/ not scanned" >&2
fi
[ "$status" = 0 ] && echo "registry names: $(echo "$names" | wc -l) names, none spelled in $where"
exit $status
