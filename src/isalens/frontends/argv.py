"""File arguments for external tools, safe whatever the file is called.

A file named ``-load=./evil.so`` (``str(Path("./-load=x"))`` drops the ``./``) would otherwise reach
llc, clang or glslang as an option. Every path we hand to a tool goes through :func:`file_arg`, which
makes it absolute, so it starts with ``/`` and can never be read as an option; tools that understand
``--`` (the end of options) get it before their inputs as well (:data:`END_OF_OPTIONS`).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["END_OF_OPTIONS", "file_arg"]

#: clang's driver and every LLVM ``cl::opt`` tool (llc, llvm-mc, llvm-objdump) take the rest of argv as inputs
#: after ``--``; glslang has no such marker, so for it the absolute path alone does the work.
END_OF_OPTIONS = "--"


def file_arg(path: str | os.PathLike[str]) -> str:
    """``path`` as an absolute path string (``/…``): never mistaken for an option by any tool."""
    return os.path.abspath(Path(path))
