"""The package's PEP 517 build backend: setuptools.build_meta, run with the build
dependencies of the interpreter that runs pip (Debian's python3-setuptools,
python3-wheel and python3-numpy), so that `pip wheel ./python` and `pip install ./python`
work offline. pip builds in an isolated environment and would otherwise try to download
setuptools, wheel and numpy into it, which fails without network access.
"""
import site
import sys

for _path in site.getsitepackages():
    if _path not in sys.path:
        sys.path.append(_path)

from setuptools import build_meta as _setuptools  # noqa: E402

build_wheel = _setuptools.build_wheel
build_sdist = _setuptools.build_sdist
prepare_metadata_for_build_wheel = _setuptools.prepare_metadata_for_build_wheel


def get_requires_for_build_wheel(config_settings=None):
    """Nothing to download: the build uses the interpreter's own packages."""
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []
