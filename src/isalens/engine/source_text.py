"""The text of the programmer's source lines, for the reports: the engine reads the files (I/O stays out of the
report layer), each at most once per report and at most 64 MiB, through :mod:`isalens.reading` (no devices)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath

from isalens.analysis.source_lines import SourceLine
from isalens.errors import InputError, IsalensError
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.reading import read_file

__all__ = ["check_source_dirs", "missing_text_diagnostics", "source_texts"]


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


def missing_text_diagnostics(rows: tuple[SourceLine, ...], texts: dict[tuple[str, int], str],
                             roots: Sequence[Path], file: str | None,
                             input_lines: Sequence[int]) -> list[Diagnostic]:
    """One warning per source file whose lines are shown without text: the file is not found inside ``roots``,
    or the debug information names lines past its end. ``input_lines`` holds each instruction's input
    line, so the warning points at the first instruction the file's lines hold. Without ``roots`` no text was
    asked for, and nothing is said."""
    if not roots:
        return []
    found: set[str] = {name for name, _ in texts}
    first: dict[str, SourceLine] = {}
    past_end: dict[str, list[int]] = {}
    for row in rows:
        if (row.file, row.line) in texts or row.line <= 0:  # line 0: code with no line (compiler-made)
            continue
        first.setdefault(row.file, row)
        if row.file in found:
            past_end.setdefault(row.file, []).append(row.line)
    out: list[Diagnostic] = []
    where = " or ".join(str(r) for r in roots)
    for name, row in first.items():
        if name in past_end:
            lines = sorted(past_end[name])
            message = (f"source file {name} has no line {lines[0]}"
                       + (f" (nor {len(lines) - 1} more)" if len(lines) > 1 else "")
                       + " named by the debug information: those lines are shown without text")
        else:
            message = (f"source file {name} is not found under {where}: its lines are shown without text "
                       "(--source-dir DIR says where to look)")
        out.append(Diagnostic(Severity.WARNING, "source-text", message, file,
                          input_lines[row.first_index] if row.first_index < len(input_lines) else None))
    return out
