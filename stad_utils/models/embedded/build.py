"""Install the ``embedded`` extra with a llama.cpp build chosen for this machine's architecture.

    python -m stad_utils.models.embedded.build          # `make install` runs this too

``pip install 'stad-utils[embedded]'`` builds llama-cpp-python from source with llama.cpp's
default flags, which on x86-64 are CPU-native (``GGML_NATIVE``): on a VM that advertises AMX or
AVX-512 without letting a process use them, that build dies on its first completion. This
command builds it with the flags `cmake_args` chooses instead:

* x86-64: `PORTABLE_X86_64_FLAGS`, for any CPU with AVX2 (every x86-64 laptop and server since 2015);
* any other architecture, arm64/aarch64 included (Apple silicon, Graviton): llama.cpp's default
  build, which there targets the CPU family (and Metal on a Mac), not the build machine's quirks.

The wheel is built once into `wheel_folder`, named after its version and flags (pip's own
wheel cache is not keyed on ``CMAKE_ARGS``, so a cached native wheel would otherwise be reused),
and force-installed from there; then the rest of the extra (as ``pyproject.toml`` declares it) is
installed, and `stad_utils.models.embedded.check` runs one real completion.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

LLAMA_CPP_VERSION = "0.3.36"
"""The llama-cpp-python release this project is tested with (the ``embedded`` extra asks for at least it)."""

PORTABLE_X86_64_FLAGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
"""CMake arguments for a build that runs on any x86-64 CPU with AVX2, whatever the build machine advertises."""

X86_64_NAMES = frozenset({"x86_64", "amd64", "x64"})
"""What `platform.machine` calls x86-64 (Linux and macOS: x86_64; Windows: AMD64)."""

EXTRA = "embedded"


def cmake_args(machine: str | None = None) -> str:
    """The ``CMAKE_ARGS`` llama.cpp is built with on ``machine`` (default: this one's architecture).

    Examples
    --------
    >>> cmake_args("x86_64") == cmake_args("AMD64") == PORTABLE_X86_64_FLAGS
    True
    >>> cmake_args("arm64"), cmake_args("aarch64")
    ('', '')
    """
    machine = platform.machine() if machine is None else machine
    return PORTABLE_X86_64_FLAGS if machine.lower() in X86_64_NAMES else ""


def wheel_folder(version: str, flags: str, cache: Path | None = None) -> Path:
    """Where the wheel of ``version`` built with ``flags`` is kept: one folder per version and flags.

    The wheel serves every Python (llama-cpp-python loads its library with ctypes: a ``py3-none`` wheel).

    Examples
    --------
    >>> a = wheel_folder("0.3.36", PORTABLE_X86_64_FLAGS, Path("/c"))
    >>> a.parent, a.name.startswith("llama-cpp-python-0.3.36-")
    (PosixPath('/c'), True)
    >>> a != wheel_folder("0.3.36", "", Path("/c")) != wheel_folder("0.3.37", "", Path("/c"))
    True
    """
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "stad-workbench"
    key = hashlib.sha1(flags.encode()).hexdigest()[:8]
    return cache / f"llama-cpp-python-{version}-{key}"


def extra_requirements(extra: str = EXTRA) -> list[Requirement]:
    """The requirements ``pyproject.toml`` lists for ``extra``, read from the installed package's metadata."""
    requirements = [Requirement(text) for text in importlib.metadata.requires("stad-utils") or []]
    return [r for r in requirements if r.marker is not None and r.marker.evaluate({"extra": extra})]


def pip(*arguments: str, cmake_args: str | None = None) -> None:
    """Run this Python's pip; ``cmake_args``, if given, is the ``CMAKE_ARGS`` a source build compiles with."""
    extra_environment = {} if cmake_args is None else {"CMAKE_ARGS": cmake_args}
    subprocess.run([sys.executable, "-m", "pip", *arguments], check=True, env={**os.environ, **extra_environment})


def build_wheel(folder: Path, version: str, flags: str) -> None:
    """Build the llama-cpp-python wheel into ``folder`` unless a finished build is there already."""
    finished = folder / ".built"
    if finished.exists():
        print(f"llama-cpp-python {version}: using the wheel built before in {folder}")
        return
    shutil.rmtree(folder, ignore_errors=True)  # an interrupted build leaves no usable wheel
    print(f"building llama-cpp-python {version} with CMAKE_ARGS={flags!r} (5-10 min on 2 cores) ...", flush=True)
    pip("wheel", "--quiet", "--no-cache-dir", "--no-deps", "--no-binary", "llama-cpp-python", "-w", str(folder),
        f"llama-cpp-python=={version}", cmake_args=flags)
    finished.touch()


def install(folder: Path, version: str) -> None:
    """Force-install the built wheel, then the rest of the extra (the wheel satisfies its llama-cpp-python)."""
    pip("install", "--quiet", "--force-reinstall", "--no-deps", "--no-index", "--find-links", str(folder),
        f"llama-cpp-python=={version}")
    others = [r for r in extra_requirements() if canonicalize_name(r.name) != "llama-cpp-python"]
    pip("install", "--quiet", f"llama-cpp-python[server]=={version}", *(f"{r.name}{r.specifier}" for r in others))


def main(argv: list[str] | None = None) -> int:
    """The command line: build and install the llama.cpp wheel for this machine, then check it; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.models.embedded.build",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--llama-cpp-version", default=LLAMA_CPP_VERSION,
                        help="the llama-cpp-python release to build (default: %(default)s, the one tested)")
    version = parser.parse_args(argv).llama_cpp_version
    flags = cmake_args()
    folder = wheel_folder(version, flags)
    build_wheel(folder, version, flags)
    install(folder, version)
    from .check import main as check

    return check()


if __name__ == "__main__":
    sys.exit(main())
