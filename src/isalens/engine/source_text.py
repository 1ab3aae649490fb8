"""The text of the programmer's source lines, for the reports: the engine reads the files (I/O stays out of the
report layer), each at most once per report and at most 64 MiB, through :mod:`isalens.reading` (no devices)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath

from isalens.analysis.source_lines import SourceLine
from isalens.errors import InputError, IsalensError
from isalens.reading import read_file

__all__ = ["check_source_dirs", "source_texts"]


def check_source_dirs(dirs: Sequence[str | Path]) -> tuple[Path, ...]:
    """``--source-dir`` directories, each resolved (symlinks too); one that is no directory is an input error."""
    out: list[Path] = []
    for d in dirs:
        path = Path(d)
        if not path.is_dir():
            raise InputError(f"--source-dir {d}: not a directory")
        out.append(path.resolve())
    return tuple(out)


def source_texts(rows: tuple[SourceLine, ...], roots: Sequence[Path]) -> dict[tuple[str, int], str]:
    """The text of each source line in ``rows`` whose file is found inside one of ``roots`` (the input's own
    directory tree, then each ``--source-dir``, in that order). Nothing outside them is read: the file names
    come from the input, which anyone may have made (``.file 0 "/etc" "passwd"`` must not print that file).
    Files not found are left out (the JSON ``text`` is null)."""
    out: dict[tuple[str, int], str] = {}
    resolved = [r.resolve() for r in roots]
    if not resolved:
        return out
    cache: dict[str, list[str] | None] = {}
    for row in rows:
        if row.file not in cache:
            cache[row.file] = _source_file_lines(row.file, resolved)
        lines = cache[row.file]
        if lines is not None and 0 < row.line <= len(lines):
            out[(row.file, row.line)] = lines[row.line - 1].rstrip()
    return out


def _candidates(name: str, root: Path) -> Iterator[Path]:
    """Where ``name`` may be under ``root``: at the recorded path itself (an absolute name replaces root), then
    each tail of it below root, longest first (``/build/x/src/k.cl`` -> ``root/x/src/k.cl``, ``root/src/k.cl``,
    ``root/k.cl``), as a debugger's source search path does: the build directory need not exist here."""
    yield root / name
    parts = PurePath(name).parts
    start = 1 if PurePath(name).anchor else 0
    for i in range(start, len(parts)):
        if ".." not in parts[i:]:
            yield root.joinpath(*parts[i:])


def _source_file_lines(name: str, roots: Sequence[Path]) -> list[str] | None:
    for root in roots:
        for path in _candidates(name, root):
            try:
                inside = path.resolve().is_relative_to(root)  # symlinks resolved: a link may not lead out
            except (OSError, ValueError, RuntimeError):
                continue
            if not inside:
                continue
            try:
                return read_file(path, cap=64 << 20, what="source file").decode("utf-8", "replace").splitlines()
            except IsalensError:
                continue
    return None
