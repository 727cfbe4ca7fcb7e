"""The Python half of tests/registry_names_test.sh: python/gsfw/*.py spells no library name.

usage: python3 registry_names_python.py SOURCE_DIR ALLOWED WORDS_OK < "kind name" lines

Code literals (strings that are not docstrings) follow the rule of the C front ends: a
literal that is a name, or a message with a name as a word (WORDS_OK names only as whole
literals), fails unless ALLOWED holds "python/gsfw/FILE.py:name". Docstrings may name a
library name in passing, but two or more quoted names of one kind in one docstring
('topk', 'head', ...) are a hand-written list, which goes stale when a row is added: a
docstring shows such a list with a `{registry:KIND}` line that python/gsfw/_registry.py
fills from the library at import.
"""
import ast
import glob
import io
import os
import re
import sys
import tokenize


def docstrings(tree):
    """{line: text} of the module's, classes' and functions' docstrings."""
    docs = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                docs[body[0].lineno] = body[0].value.value
    return docs


def main():
    src, allowed, words_ok = sys.argv[1], set(sys.argv[2].split()), set(sys.argv[3].split())
    kinds = {}
    for line in sys.stdin:
        if line.strip():
            kind, name = line.split()
            kinds.setdefault(name, set()).add(kind)
    bad = 0
    files = sorted(glob.glob(os.path.join(src, "python", "gsfw", "*.py")))
    if not files:
        print("FAIL: no python/gsfw/*.py under %s" % src, file=sys.stderr)
        return 1
    for path in files:
        rel = os.path.relpath(path, src)
        text = open(path, encoding="utf-8").read()
        docs = docstrings(ast.parse(text))
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.STRING or tok.start[0] in docs:
                continue
            try:
                value = ast.literal_eval(tok.string)
            except ValueError:  # an f-string: its text as written
                value = tok.string
            if not isinstance(value, str):
                continue
            for name in kinds:
                if "%s:%s" % (rel, name) in allowed:
                    continue
                if value == name:
                    print("%s:%d: the literal %r spells a library name"
                          % (rel, tok.start[0], value), file=sys.stderr)
                    bad = 1
                elif name not in words_ok and re.search(
                        r"(^|[^A-Za-z0-9_-])%s([^A-Za-z0-9_-]|$)" % re.escape(name), value):
                    print("%s:%d: %r spells the library name '%s'"
                          % (rel, tok.start[0], value, name), file=sys.stderr)
                    bad = 1
        for line, doc in sorted(docs.items()):
            quoted = set(re.findall(r"['\"`]([A-Za-z0-9_-]+)['\"`]", doc)) & set(kinds)
            for kind in sorted(set().union(*(kinds[n] for n in quoted))):
                listed = sorted(n for n in quoted if kind in kinds[n])
                if len(listed) >= 2:
                    print("%s:%d: a docstring lists %s by hand (%s): use a {registry:%s} line"
                          % (rel, line, kind, ", ".join(listed), kind), file=sys.stderr)
                    bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
