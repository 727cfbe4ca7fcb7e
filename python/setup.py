"""Build the gsfw Python package: one C extension, gsfw._gsfw (python/src), linked against
the library as a C user links it: the static, position-independent libgsfw.a of the
repository's CMake build, with the link line its gsfw.pc file gives for a static link
(`pkg-config --static --libs`). Nothing of src/ is compiled here.

Where libgsfw.a comes from:
  GSFW_BUILD_DIR=DIR   an existing CMake build tree of this checkout (`make test` passes
                       its own, so the tests use the very objects the C tests use);
  otherwise            setup.py configures CMake (Release) in its build directory and
                       builds the one target gsfw_static there.

Needs cmake, pkg-config, a C compiler and the Debian -dev packages of
scripts/install-deps.sh; no network.

    pip install ./python            (or: make python)
    pip wheel ./python
"""
import os
import re
import shlex
import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def version():
    with open(os.path.join(ROOT, "include", "gsfw", "core.h")) as f:
        found = re.search(r'#define GSFW_VERSION "([^"]+)"', f.read())
    if not found:
        raise SystemExit("setup.py: GSFW_VERSION not found in include/gsfw/core.h")
    return found.group(1)


def run(cmd, what):
    try:
        return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True).stdout
    except FileNotFoundError as exc:
        raise SystemExit("setup.py: %s needs %s (scripts/install-deps.sh installs it)"
                         % (what, cmd[0])) from exc
    except subprocess.CalledProcessError as exc:
        raise SystemExit("setup.py: %s failed:\n$ %s\n%s" % (what, shlex.join(cmd),
                                                             exc.stdout)) from exc


def cmake_static_library(build_dir):
    """Configure (once) and build libgsfw.a in build_dir; returns build_dir."""
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
             "-DGSFW_MPI=OFF"], "configuring the library with CMake")
    run(["cmake", "--build", build_dir, "--target", "gsfw_static", "-j",
         str(min(os.cpu_count() or 1, 2))], "building libgsfw.a")
    return build_dir


def static_link_flags(build_dir):
    """The libraries libgsfw.a needs, from the gsfw.pc the CMake configure step staged."""
    stage = os.path.join(build_dir, "gsfw.pc.stage")
    if not os.path.exists(stage):
        raise SystemExit("setup.py: %s is missing; is %s a CMake build tree of gsfw?"
                         % (stage, build_dir))
    with open(stage) as f:
        text = f.read().replace("@GSFW_PC_PREFIX@", build_dir)
    # libgsfw.a itself is linked by path (a -lgsfw could find a libgsfw.so elsewhere):
    # only the private part of the link line is wanted
    text = re.sub(r"^Libs:.*$", "Libs:", text, flags=re.M)
    pc = os.path.join(build_dir, "python-gsfw.pc")  # pkg-config reads a path ending in .pc
    with open(pc, "w") as f:
        f.write(text)
    return shlex.split(run(["pkg-config", "--static", "--libs", pc],
                           "reading the link line of gsfw.pc"))


class BuildWithLibrary(build_ext):
    """build_ext that links the CMake-built libgsfw.a."""

    def build_extensions(self):
        build_dir = os.environ.get("GSFW_BUILD_DIR")
        if build_dir:
            build_dir = os.path.abspath(build_dir)
            archive = os.path.join(build_dir, "libgsfw.a")
            if not os.path.exists(archive):
                raise SystemExit("setup.py: GSFW_BUILD_DIR=%s has no libgsfw.a (cmake --build "
                                 "%s --target gsfw_static)" % (build_dir, build_dir))
        else:
            build_dir = cmake_static_library(os.path.join(os.path.abspath(self.build_temp),
                                                          "libgsfw"))
        # the module exports PyInit__gsfw only, not the library's gsfw_* symbols
        flags = static_link_flags(build_dir) + ["-Wl,--exclude-libs,ALL"]
        archive = os.path.join(build_dir, "libgsfw.a")
        for ext in self.extensions:
            ext.extra_objects = [archive]
            ext.extra_link_args = flags
            # build_ext rebuilds only what is older than its sources and depends: a
            # rebuilt library or a changed header must relink the module too
            ext.depends = ext.depends + [archive]
        super().build_extensions()


extension = Extension(
    "gsfw._gsfw",
    sources=sorted(os.path.join("src", f) for f in os.listdir(os.path.join(HERE, "src"))
                   if f.endswith(".c")),
    depends=sorted(os.path.join(d, f) for d in (os.path.join(ROOT, "include", "gsfw"),
                                                os.path.join(HERE, "src"))
                   for f in os.listdir(d) if f.endswith(".h"))
    + [os.path.join(ROOT, "include", "gsfw.h")],
    include_dirs=[os.path.join(ROOT, "include"), numpy.get_include()],
    extra_compile_args=["-std=c11", "-fvisibility=hidden"],
)

setup(
    version=version(),
    packages=["gsfw"],
    package_data={"gsfw": ["py.typed", "*.pyi"]},
    ext_modules=[extension],
    cmdclass={"build_ext": BuildWithLibrary},
)
