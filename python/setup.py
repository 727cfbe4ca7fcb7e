"""Build the gsfw Python package: one C extension, gsfw._gsfw, compiled from python/src
and the library's own sources (../src, found by globbing, so a new library file needs no
edit here), linked against OpenBLAS and LAPACKE: no installed libgsfw needed.

    pip install --no-build-isolation ./python        (or: make python)
"""
import glob
import os
import re

import numpy
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def library_sources():
    sources = sorted(glob.glob(os.path.join(ROOT, "src", "**", "*.c"), recursive=True))
    # src/mpi/ belongs to gsfw-mpi only (it needs MPI), as in CMakeLists.txt
    mpi_dir = os.path.join(ROOT, "src", "mpi") + os.sep
    sources = [s for s in sources if not s.startswith(mpi_dir)]
    if not sources:
        raise SystemExit("setup.py: no C sources under %s/src; build from a gsfw checkout" % ROOT)
    return sources


def version():
    headers = [os.path.join(ROOT, "include", "gsfw.h")] + sorted(
        glob.glob(os.path.join(ROOT, "include", "gsfw", "*.h")))
    for path in headers:
        with open(path) as f:
            found = re.search(r'#define GSFW_VERSION "([^"]+)"', f.read())
        if found:
            return found.group(1)
    raise SystemExit("setup.py: GSFW_VERSION not found in include/")


def optional_libraries():
    """Libraries the library links beyond the base set, read from CMakeLists.txt's link
    line so that a new dependency there (FFTW, GSL) reaches the extension too."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        cmake = f.read()
    libs = []
    for name in ("fftw3_threads", "fftw3", "gsl", "gslcblas"):
        if re.search(r"NAMES\s+%s\b" % name, cmake):
            libs.append(name)
    if "Threads::Threads" in cmake:
        libs.append("pthread")
    return libs


extension = Extension(
    "gsfw._gsfw",
    sources=sorted(glob.glob(os.path.join(HERE, "src", "*.c"))) + library_sources(),
    include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src"),
                  "/usr/include/x86_64-linux-gnu", numpy.get_include()],
    define_macros=[("_POSIX_C_SOURCE", "200809L")],
    libraries=optional_libraries() + ["lapacke", "openblas", "m"],
    # the flags of the CMake Release build (-O3, no -fwrapv), after Python's own -O2 -fwrapv
    extra_compile_args=["-std=c11", "-O3", "-fno-wrapv", "-fvisibility=hidden"],
)

setup(
    name="gsfw",
    version=version(),
    description="Graph-structured Frank-Wolfe: sparse recovery over graph supports",
    packages=["gsfw"],
    package_dir={"gsfw": "gsfw"},
    ext_modules=[extension],
    python_requires=">=3.9",
    install_requires=["numpy"],
)
