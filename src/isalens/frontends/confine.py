"""Confine clang's ``#include`` to the source's directory, the ``-I`` directories and clang's own search path.

clang has no option that refuses an absolute ``#include "/dev/stdin"`` or a ``"../../etc/passwd"``; what it
has is a virtual file system overlay (``-ivfsoverlay``). An overlay with ``'fallthrough': false`` makes the
compiler see only the directories and files it lists (``directory-remap`` entries map each onto itself), so
anything else is "file not found" at the ``#include`` line. The overlay lists the source's directory tree,
each ``-I`` directory, the directories clang searches for ``<...>`` headers (asked once per compiler and
language with ``clang -E -v``), and the bitcode libraries the compile links.

Not confined: symbolic links inside those directories are followed by the real file system (a link to
``/dev/zero`` next to the source is opened), and a FIFO inside them blocks in ``open``; the time and memory
limits of :mod:`isalens.frontends.run_tool` end such a run.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from isalens.errors import IsalensError
from isalens.frontends.run_tool import ToolError, run_tool
from isalens.lines import lines_of

__all__ = ["confined_includes", "include_dirs_of", "search_directories"]

_SEARCH_START = "search starts here:"
_SEARCH_END = "End of search list."


def include_dirs_of(flags: Sequence[str]) -> list[str]:
    """The directories of ``-I<dir>`` (and ``-I <dir>``) flags."""
    dirs: list[str] = []
    it = iter(flags)
    for flag in it:
        if flag == "-I":
            dirs.append(next(it, ""))
        elif flag.startswith("-I"):
            dirs.append(flag[2:])
    return [d for d in dirs if d]


def search_directories(tool: str, language_flags: Sequence[str], *, file: str | Path | None = None) -> tuple[str, ...]:
    """The directories ``tool`` searches for headers with these flags (the list ``clang -E -v`` prints); asked
    once per process. A failure to ask is reported against ``file``, the source being compiled."""
    try:
        return _search_directories(tool, tuple(language_flags))
    except ToolError as exc:
        raise ToolError(exc.message, file=None if file is None else str(file), code=exc.code,
                        details=exc.details) from None


@functools.lru_cache(maxsize=16)
def _search_directories(tool: str, language_flags: tuple[str, ...]) -> tuple[str, ...]:
    proc = run_tool([tool, *language_flags, "-E", "-v", "-o", os.devnull, "-"], file=None)
    if proc.returncode != 0:
        first = next((line.strip() for line in lines_of(proc.stderr) if line.strip()), "no message")
        raise ToolError(f"{Path(tool).name} could not list its header search path: {first}", file=None,
                        code="compiler", details=proc.stderr)
    dirs: list[str] = []
    inside = False
    for line in lines_of(proc.stderr):
        if _SEARCH_START in line:
            inside = True
        elif line.startswith(_SEARCH_END):
            inside = False
        elif inside and line.startswith(" "):
            dirs.append(line.strip().removesuffix(" (framework directory)"))
    return tuple(dirs)


def _related(a: str, b: str) -> bool:
    """Whether one of two normalised absolute paths is the other or lies under it."""
    return os.path.commonpath([a, b]) in (a, b)


def _overlay(dirs: Iterable[str], files: Iterable[str], source: Path) -> str:
    roots: list[dict[str, object]] = []
    seen: set[str] = set()
    for kind, paths in (("directory-remap", dirs), ("file", files)):
        for raw in paths:
            path = os.path.normpath(os.path.abspath(raw))
            try:
                path.encode("utf-8")
            except UnicodeEncodeError:
                raise IsalensError(f"the path {path!r} is not UTF-8: clang's include confinement cannot name it",
                                   file=str(source), code="usage") from None
            if path not in seen:
                seen.add(path)
                roots.append({"type": kind, "name": path, "external-contents": path})
    # clang 19 looks the working directory up for its built-in "#include <opencl-c-base.h>" and crashes
    # (SIGSEGV in HeaderSearch::LookupFile) when the overlay has no such directory: an empty one it is.
    cwd = os.path.normpath(os.getcwd())
    if not any(_related(cwd, path) for path in seen):
        roots.append({"type": "directory", "name": cwd, "contents": []})
    # JSON is YAML: LLVM's overlay reader takes this text as it is
    return json.dumps({"version": 0, "fallthrough": False, "case-sensitive": True, "roots": roots}, indent=1)


@contextmanager
def confined_includes(source: Path, flags: Sequence[str], *, search: Sequence[str] = (),
                      files: Sequence[str | Path] = (), dirs: Sequence[str | Path] = ()) -> Iterator[list[str]]:
    """The clang flags (``-ivfsoverlay <file>``) that let one compile of ``source`` see only its directory, the
    ``-I`` directories in ``flags``, ``search`` (clang's header search path), ``dirs`` and ``files``."""
    visible = [str(source.parent), *include_dirs_of(flags), *search, *(str(d) for d in dirs)]
    text = _overlay(visible, [str(f) for f in files], source)
    with tempfile.TemporaryDirectory(prefix="isalens-vfs-") as tmp:
        overlay = Path(tmp) / "includes.yaml"
        overlay.write_text(text, encoding="utf-8")
        yield ["-ivfsoverlay", str(overlay)]
