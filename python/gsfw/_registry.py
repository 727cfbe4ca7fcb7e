"""The library's registry as the package reads it: its rows by kind, the defaults, and the
lists of names the docstrings show. The docstrings name no method, model, step rule,
loss or sensing kind by hand: a line `{registry:KIND}` in a docstring becomes the
registry's rows of KIND at import (fill_doc), so help() lists what the library knows."""
import re
import textwrap

from . import _gsfw

_ENTRIES = {}
WIDTH = 88


def entries(kind):
    """The library's rows of kind ('methods', 'models', 'steps', 'losses', 'sensing',
    'bases'): dicts with name, summary, reads, needs, default."""
    if kind not in _ENTRIES:
        _ENTRIES[kind] = _gsfw.registry(kind)
    return _ENTRIES[kind]


def registry_entry(kind, name):
    """The row of kind called name (None: the kind's default); None when unknown (the
    library then refuses the name with its own message)."""
    for entry in entries(kind):
        if (entry["name"] == name) if name is not None else entry["default"]:
            return entry
    return None


def reads(kind, name, parameter):
    """Whether the entry of kind called name reads the parameter (per the registry)."""
    entry = registry_entry(kind, name)
    return entry is not None and parameter in entry["reads"].split()


def fixed(kind, name, parameter):
    """The value the entry of kind called name fixes for the parameter ("s=1" among its
    reads, as the l1 model's), as an int; None when it fixes none or is unknown."""
    entry = registry_entry(kind, name)
    prefix = parameter + "="
    for word in entry["reads"].split() if entry is not None else ():
        if word.startswith(prefix):
            return int(word[len(prefix):])
    return None


def default_model(graph=False, tree=False):
    """The model the library takes when none is named, given what the call provides (the
    library's own rule)."""
    return _gsfw.default_model(bool(graph), bool(tree))


def default_models_text():
    """The default model per what a call provides, in words ('head with a graph, tree with
    a tree, else topk' for the library's current rows)."""
    return "%s with a graph, %s with a tree, else %s" % (
        default_model(graph=True), default_model(tree=True), default_model())


def _row(entry):
    notes = []
    if entry["needs"]:
        notes.append("needs a %s" % entry["needs"])
    if entry["default"]:
        notes.append("the default with one" if entry["needs"] else "the default")
    return "%s: %s%s" % (entry["name"], entry["summary"],
                         " [%s]" % "; ".join(notes) if notes else "")


def table(kind, indent, needs=None):
    """The rows of kind (those that need `needs` if given), one per name (wrapped,
    continuation lines indented by 4 more)."""
    lines = []
    for entry in entries(kind):
        if needs is not None and needs not in entry["needs"].split():
            continue
        lines.extend(textwrap.wrap(_row(entry), WIDTH, initial_indent=indent,
                                   subsequent_indent=indent + "    ", break_on_hyphens=False))
    return "\n".join(lines)


_TOKEN = re.compile(r"^([ \t]*)\{registry:([a-z]+)(?::([a-z]+))?\}[ \t]*$", re.M)


def fill_doc(doc):
    """doc with each line `{registry:KIND}` replaced by the table of KIND (its indent
    kept), `{registry:KIND:NEED}` by the rows of KIND that need NEED, and
    `{default-models}` by default_models_text(). None (python -OO) stays None."""
    if doc is None:
        return None
    doc = _TOKEN.sub(lambda m: table(m.group(2), m.group(1), m.group(3)), doc)
    return doc.replace("{default-models}", default_models_text())
