"""The examples of docs/python.md and examples/python/ run as written."""
import os
import re
import subprocess
import sys

import pytest


def test_docs_python_blocks(root):
    pytest.importorskip("networkx")
    pytest.importorskip("scipy")
    pytest.importorskip("sklearn")
    with open(os.path.join(root, "docs", "python.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) >= 6
    namespace = {}
    for code in blocks:
        exec(compile(code, "docs/python.md", "exec"), namespace)


@pytest.mark.parametrize("name", ["pcst_fast_migration.py", "angio.py"])
def test_examples_run(root, tmp_path, name):
    args = [sys.executable, os.path.join(root, "examples", "python", name)]
    if name == "angio.py":
        args.append(str(tmp_path / "angio.png"))
    proc = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    if name == "angio.py":
        rel = float(re.search(r" rel_err=(\S+)", proc.stdout).group(1))
        assert rel < 1e-6, proc.stdout
