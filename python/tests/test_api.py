"""The general API: argument kinds, the relative tolerance, progress lines, complete
messages, and an import that does not load scikit-learn or SciPy."""
import os
import subprocess
import sys

import numpy as np
import pytest

import gsfw

rng = np.random.default_rng(0)
A = rng.standard_normal((40, 60))
X_TRUE = np.zeros(60)
X_TRUE[[4, 17, 33]] = [1.0, -2.0, 1.5]
Y = A @ X_TRUE


@pytest.mark.parametrize("kwargs,match", [
    (dict(s=4.5), "s must be an integer, got float 4.5"),
    (dict(s="4"), "s must be an integer, got str '4'"),
    (dict(s=True), "s must be an integer, got bool True"),
    (dict(s=3, max_iter=10.0), "max_iter must be an integer"),
    (dict(s=3, C="1"), "C must be a number, got str '1'"),
    (dict(s=3, polish="yes"), "polish must be True or False"),
    (dict(s=3, method=1), "method must be a name"),
    (dict(s=3, verbose="loud"), "verbose must be a number"),
])
def test_solve_refuses_the_wrong_kind(kwargs, match):
    with pytest.raises(TypeError, match=match):
        gsfw.solve(A, Y, **kwargs)


def test_numpy_scalars_are_numbers():
    a = gsfw.solve(A, Y, s=np.int64(3), C=np.float32(4.0), max_iter=np.int32(20))
    b = gsfw.solve(A, Y, s=3, C=4.0, max_iter=20)
    assert np.array_equal(a.x, b.x)


def test_other_functions_check_kinds():
    with pytest.raises(TypeError, match="root must be an integer, got str '0'"):
        gsfw.pcst_fast([[0, 1]], [1.0, 1.0], [1.0], "0", 1, "gw", 0)
    with pytest.raises(TypeError, match="s must be an integer"):
        gsfw.dmo(np.ones(5), "topk", 2.0)
    with pytest.raises(TypeError, match="s must be an integer"):
        gsfw.GraphSparseRegression(s=2.5).fit(A, Y)


def test_relative_tolerance_stops_on_the_certified_bound():
    res = gsfw.solve(A, Y, s=3, C=4.0, method="fw", step="line", max_iter=100000,
                     tol_rel=1e-3, polish=False)
    bound = res.trace["gap_bound"]
    assert res.status == "converged" and res.iterations < 100000
    # the run stops at the first iterate whose bound is below 1e-3 times the first bound
    assert bound[-1] <= 1e-3 * bound[0] and np.all(bound[:-1] > 1e-3 * bound[0])
    # the bound is certified: f(x_t) - f* <= gap_bound (f* = 0 here, y = A x_true)
    assert np.all(res.trace["f"] <= bound * (1 + 1e-12))
    absolute = gsfw.solve(A, Y, s=3, C=4.0, method="fw", step="line", max_iter=100000,
                          tol=1e-3 * bound[0], polish=False)
    assert absolute.iterations == res.iterations


def test_verbose_prints_progress(capsys):
    gsfw.solve(A, Y, s=3, C=4.0, max_iter=5, verbose=1e-12, callback=lambda it, x: False)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("gsfw solve: method accfw, model topk, s=3, max_iter=5")
    progress = [ln for ln in lines if ln.startswith("gsfw solve: iter ")]
    assert [int(ln.split()[3]) for ln in progress] == list(range(6))
    assert "max_iter after 5 iterations" in lines[-1]
    gsfw.solve(A, Y, s=3, C=4.0, max_iter=5)
    assert capsys.readouterr().out == ""
    # the header names the model the library resolves (the registry's default for what
    # the call provides), not "default"
    tree = gsfw.Tree(np.r_[-1, np.arange(59) // 2])
    for kwargs, model in ((dict(graph=gsfw.Graph.grid(6, 10)), "head"), (dict(tree=tree), "tree"),
                          (dict(model="interval"), "interval")):
        res = gsfw.solve(A, Y, s=3, C=4.0, max_iter=1, verbose=True, **kwargs)
        header = capsys.readouterr().out.splitlines()[0]
        assert header.startswith("gsfw solve: method accfw, model %s, s=3" % model), header
        assert res.status == "max_iter"


def test_verbose_header_follows_the_checks(capsys):
    # the header names the method and model of a checked call: a call the library refuses
    # (here a graph and a tree with no model, whose default model would be either one's)
    # prints nothing, rather than a header naming a model the call does not run
    tree = gsfw.Tree(np.r_[-1, np.arange(59) // 2])
    for kwargs in (dict(graph=gsfw.Graph.grid(6, 10), tree=tree), dict(s=0),
                   dict(model="head"), dict(x0=np.ones(60))):
        kwargs = dict(dict(s=3, C=4.0, max_iter=1, verbose=True), **kwargs)
        with pytest.raises(ValueError):
            gsfw.solve(A, Y, **kwargs)
        assert capsys.readouterr().out == "", kwargs
    # numpy integers print as numbers
    gsfw.solve(A, Y, s=np.int64(3), C=4.0, max_iter=np.int32(1), verbose=True)
    assert capsys.readouterr().out.startswith(
        "gsfw solve: method accfw, model topk, s=3, max_iter=1\n")


def test_x0_refusal_is_a_complete_sentence():
    x0 = np.zeros(60)
    x0[:5] = 0.1
    with pytest.raises(ValueError) as err:
        gsfw.solve(A, Y, s=3, x0=x0)
    message = str(err.value)
    assert message.endswith("x0 is not in the feasible set (a polished result always is)")
    assert "gsfw_result" not in message


def test_import_loads_neither_sklearn_nor_scipy():
    code = ("import sys, gsfw; print(sorted(m for m in ('sklearn', 'scipy') if m in sys.modules));"
            "gsfw.GraphSparseRegression; print('sklearn' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout.split("\n")
    assert out[0] == "[]" and out[1] == "True"


def test_every_public_name_has_a_docstring_of_its_own():
    for name in gsfw.__all__:
        obj = getattr(gsfw, name)
        if name.startswith("__"):
            continue
        doc = obj.__doc__ or ""
        assert len(doc) > 40, name
        assert "docs/" not in doc and ".md" not in doc, name  # not installed with the package
        for attr in dir(obj) if isinstance(obj, type) else ():
            member = getattr(obj, attr)
            if not attr.startswith("_") and callable(member) and member.__doc__:
                assert "docs/" not in member.__doc__, "%s.%s" % (name, attr)


def test_type_stubs_match_the_package():
    """gsfw/__init__.pyi (with py.typed) declares every public name, with the parameters
    the runtime functions and methods take."""
    import ast
    import inspect
    stub_path = os.path.join(os.path.dirname(gsfw.__file__), "__init__.pyi")
    assert os.path.exists(os.path.join(os.path.dirname(gsfw.__file__), "py.typed"))
    with open(stub_path) as f:
        tree = ast.parse(f.read())

    def params(node):
        a = node.args
        names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        names += (["*" + a.vararg.arg] if a.vararg else []) + \
                 (["**" + a.kwarg.arg] if a.kwarg else [])
        return [n for n in names if n not in ("self", "cls")]

    def runtime_params(fn):
        out = []
        for p in inspect.signature(fn).parameters.values():
            prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
            out.append(prefix + p.name)
        return out

    declared = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            declared[node.name] = node
            assert params(node) == runtime_params(getattr(gsfw, node.name)), node.name
        elif isinstance(node, ast.ClassDef):
            declared[node.name] = node
            if node.name.startswith("_"):
                continue
            cls = getattr(gsfw, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not any(
                        isinstance(d, ast.Name) and d.id == "property"
                        for d in item.decorator_list):
                    member = getattr(cls, item.name)
                    try:
                        sig = [p for p in runtime_params(member) if p not in ("self", "cls")]
                    except ValueError:  # a C method without a signature
                        continue
                    if sig == ["*args", "**kwargs"]:  # a C type's constructor
                        continue
                    assert params(item) == sig, "%s.%s" % (node.name, item.name)
    missing = [n for n in gsfw.__all__ if n not in declared and n != "__version__"]
    assert not missing, missing


def test_estimators_and_solve_refuse_an_out_of_range_s_alike():
    # the kind is checked in Python (TypeError), the range by the library (ValueError),
    # whichever entry point receives it
    msg = "s must be between 1 and 2147483647, got 2147483648"
    with pytest.raises(ValueError, match=msg):
        gsfw.solve(A, Y, s=2 ** 31)
    with pytest.raises(ValueError, match=msg):
        gsfw.GraphSparseRegression(s=2 ** 31).fit(A, Y)
