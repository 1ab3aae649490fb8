"""Source lines in ISA text: LLVM assembly's ``.file``/``.loc`` directives and ``llvm-objdump -l`` annotations.

Both are read by input line: the assembler gives each instruction the most recent ``.loc`` before it in the
text (MC attaches a pending ``.loc`` to the next instruction it emits; later instructions share that line
table row), and ``objdump -l`` prints ``; FILE:LINE`` before the first instruction of each new line. So the
location of an instruction is that of the nearest directive (or annotation) above it.

Forms (LLVM 19): ``.file 0 "dir" "name" md5 0x...`` (DWARF 5: file 0 is the compilation unit's own), ``.file 1
"name"``, ``.loc FILE LINE [COLUMN] [prologue_end] [is_stmt 0] [discriminator N] ...``; a ``.loc`` naming a
file no ``.file`` declared is dropped with a warning.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from dataclasses import dataclass

from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.program import Kernel
from isalens.ir.source import SourceLoc, SourceMap, carry_forward

__all__ = ["LineDirectives", "attach", "problems_as_diagnostics", "read_llvm_lines", "read_objdump_lines"]

_STRING = r'"((?:[^"\\]|\\.)*)"'
_FILE_RE = re.compile(rf"^\s*\.file\s+(\d+)\s+{_STRING}(?:\s+{_STRING})?")
_LOC_RE = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)(?:\s+(\d+))?")
#: llvm-objdump -l: "; /path/to/file.cl:42" (a function line "; name():" is not a location)
_OBJDUMP_RE = re.compile(r"^; (.+):(\d+)(?::(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class LineDirectives:
    """Locations by input line: ``lines[i]`` is the input line where ``locs[i]`` starts to apply."""

    lines: tuple[int, ...]
    locs: tuple[SourceLoc, ...]
    files: tuple[str, ...]
    origin: str
    problems: tuple[tuple[int, str], ...] = ()

    def at(self, line: int) -> SourceLoc | None:
        i = bisect.bisect_right(self.lines, line) - 1
        return self.locs[i] if i >= 0 else None


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def read_llvm_lines(text: str) -> LineDirectives | None:
    """The ``.file``/``.loc`` directives of LLVM assembly, or None when it has none."""
    if ".loc" not in text:
        return None
    files: dict[int, str] = {}
    lines: list[int] = []
    locs: list[SourceLoc] = []
    problems: list[tuple[int, str]] = []
    comp_dir = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.lstrip()
        if not stripped.startswith((".file", ".loc")):
            continue
        match = _FILE_RE.match(stripped)
        if match:
            first, second = _unescape(match.group(2)), match.group(3)
            path = posixpath.join(first, _unescape(second)) if second is not None else first
            if match.group(1) == "0" and second is not None:
                comp_dir = first  # DWARF 5: file 0 names the compilation directory
            elif path and not posixpath.isabs(path) and comp_dir:
                path = posixpath.join(comp_dir, path)  # a directory relative to the compilation directory
            files[int(match.group(1))] = posixpath.normpath(path) if path else path
            continue
        match = _LOC_RE.match(stripped)
        if not match:
            continue
        index = int(match.group(1))
        name = files.get(index)
        if name is None:
            problems.append((number, f".loc names file {index}, which no .file declared: its lines are dropped"))
            continue
        lines.append(number)
        locs.append(SourceLoc(name, int(match.group(2)), int(match.group(3) or 0)))
    if not lines and not problems:
        return None
    return LineDirectives(tuple(lines), tuple(locs), tuple(files[k] for k in sorted(files)), ".loc",
                          tuple(problems))


def read_objdump_lines(text: str) -> LineDirectives | None:
    """The ``; FILE:LINE`` annotations of ``llvm-objdump -d -l`` (or ``-S``) output, or None."""
    if "\n; " not in text:
        return None
    lines: list[int] = []
    locs: list[SourceLoc] = []
    files: dict[str, None] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.startswith("; ") or raw.endswith("():"):
            continue
        match = _OBJDUMP_RE.match(raw)
        if match and ("/" in match.group(1) or "." in match.group(1)):
            lines.append(number)
            locs.append(SourceLoc(match.group(1), int(match.group(2)), int(match.group(3) or 0)))
            files.setdefault(match.group(1))
    if not lines:
        return None
    return LineDirectives(tuple(lines), tuple(locs), tuple(files), "objdump -l")


def attach(kernel: Kernel, directives: LineDirectives) -> Kernel:
    """``kernel`` with its source map: each instruction takes the location in force at its input line."""
    import dataclasses

    found = carry_forward([directives.at(ins.line) for ins in kernel.instructions])
    kind = "lines" if any(loc is not None for loc in found) else "none"
    return dataclasses.replace(kernel, source=SourceMap(tuple(found), kind, directives.origin, directives.files))


def problems_as_diagnostics(directives: LineDirectives, file: str | None) -> list[Diagnostic]:
    return [Diagnostic(Severity.WARNING, "debug-info", message, file, line) for line, message in directives.problems]
