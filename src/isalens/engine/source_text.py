"""The text of the programmer's source lines, for the reports: the engine reads the files (I/O stays out of the
report layer), each at most once per report and at most 64 MiB, through :mod:`isalens.reading` (no devices)."""

from __future__ import annotations

from pathlib import Path

from isalens.analysis.source_lines import SourceLine
from isalens.errors import IsalensError
from isalens.reading import read_file

__all__ = ["source_texts"]


def source_texts(rows: tuple[SourceLine, ...], source_dir: Path | None) -> dict[tuple[str, int], str]:
    """The text of each source line in ``rows`` whose file is found inside ``source_dir`` (the input's own
    directory tree): at the path the compiler recorded when that lies inside it, else by its name directly in
    it. Nothing outside is read: the file names come from the input, which anyone may have made (``.file 0
    "/etc" "passwd"`` must not print that file). Files not found are left out (the JSON ``text`` is null)."""
    out: dict[tuple[str, int], str] = {}
    if source_dir is None:
        return out
    root = source_dir.resolve()
    cache: dict[str, list[str] | None] = {}
    for row in rows:
        if row.file not in cache:
            cache[row.file] = _source_file_lines(row.file, root)
        lines = cache[row.file]
        if lines is not None and 0 < row.line <= len(lines):
            out[(row.file, row.line)] = lines[row.line - 1].rstrip()
    return out


def _source_file_lines(name: str, root: Path) -> list[str] | None:
    for path in (root / name, root / Path(name).name):  # an absolute name replaces root in the first
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
