"""The compiled core (src/isalens/_core/_compiled.pyx), built by ``pip install`` through setuptools.

Everything else about the package is in pyproject.toml. The extension is optional: without Cython or a C
compiler the build goes on without it and isalens runs its pure-Python reference core (``isalens --version``
says which core runs).
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the extension cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (setuptools raises several kinds)
            _skipped(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler failed on this extension
            _skipped(exc)


def _skipped(exc: Exception) -> None:
    print(f"isalens: compiled core not built ({exc}); the pure-Python core will run", file=sys.stderr)


def _extensions() -> list[Extension]:
    source = "src/isalens/_core/_compiled.pyx"
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("isalens: Cython not installed; the pure-Python core will run", file=sys.stderr)
        return []
    return list(cythonize([Extension("isalens._core._compiled", [source])],
                          compiler_directives={"language_level": 3}, quiet=True))


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
