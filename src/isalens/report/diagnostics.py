"""Diagnostics for people: one line per distinct message, with how many places say it and the first lines."""

from __future__ import annotations

from collections.abc import Iterable

from isalens.errors import Diagnostic

__all__ = ["diagnostic_lines"]

#: line numbers a grouped diagnostic names before "..."
FIRST_LINES = 5


def diagnostic_lines(diagnostics: Iterable[Diagnostic], *, verbose: bool = False) -> list[str]:
    """Each diagnostic's line (``verbose``), else one line per distinct (severity, code, file, message) in
    first-seen order: a message repeated at several lines says how many and names the first ones, so 32
    identical warnings for one undefined callee are one line."""
    diagnostics = list(diagnostics)
    if verbose:
        return [d.format() for d in diagnostics]
    groups: dict[tuple[str, str, str | None, str], list[Diagnostic]] = {}
    for d in diagnostics:
        groups.setdefault((d.severity.value, d.code, d.file, d.message), []).append(d)
    out: list[str] = []
    for same in groups.values():
        first = same[0]
        lines = sorted({d.line for d in same if d.line is not None})
        if len(same) == 1 or len(lines) <= 1:
            out.extend(dict.fromkeys(d.format() for d in same))  # the same line twice is said once
            continue
        shown = ", ".join(str(n) for n in lines[:FIRST_LINES]) + (", ..." if len(lines) > FIRST_LINES else "")
        # the first place as file:line, so an editor still jumps to it
        where = f"{first.file or '<input>'}:{lines[0]}"
        out.append(f"{where}: {first.severity.value}: {first.message} (at {len(lines)} lines: {shown}; "
                   "--verbose lists each)")
    return out
