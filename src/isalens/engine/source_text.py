"""The text of the programmer's source lines, for the reports: the engine reads the files (I/O stays out of the
report layer), each at most once per report and at most 64 MiB, through :mod:`isalens.reading` (no devices)."""

from __future__ import annotations

from pathlib import Path

from isalens.analysis.source_lines import SourceLine
from isalens.errors import IsalensError
from isalens.reading import read_file

__all__ = ["source_texts"]


def source_texts(rows: tuple[SourceLine, ...], input_file: str | None) -> dict[tuple[str, int], str]:
    """The text of each source line in ``rows`` whose file is found: as named, else beside the input (a
    compiler names the file where it compiled it); files not found are left out (the JSON ``text`` is null)."""
    out: dict[tuple[str, int], str] = {}
    cache: dict[str, list[str] | None] = {}
    base = Path(input_file).parent if input_file and not input_file.startswith("<") else None
    for row in rows:
        if row.file not in cache:
            cache[row.file] = _source_file_lines(row.file, base)
        lines = cache[row.file]
        if lines is not None and 0 < row.line <= len(lines):
            out[(row.file, row.line)] = lines[row.line - 1].rstrip()
    return out


def _source_file_lines(name: str, base: Path | None) -> list[str] | None:
    candidates = [Path(name)] + ([base / Path(name).name] if base is not None else [])
    for path in candidates:
        try:
            return read_file(path, cap=64 << 20, what="source file").decode("utf-8", "replace").splitlines()
        except IsalensError:
            continue
    return None
