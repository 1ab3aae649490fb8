"""Pieces both VLIW readers share: operand splitting, register scans, literal slots, diagnostics."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.isa.amdgcn.syntax import split_top_level

CHANNELS = "xyzw"


def show(line: str) -> str:
    """A line quoted for a message: stripped, at most 80 characters, control characters escaped."""
    text = line.strip()
    return repr(text if len(text) <= 80 else text[:77] + "...")


def split_operands(text: str) -> list[str]:
    """Comma-separated operands, keeping commas inside parentheses or brackets (CAL literals)."""
    return [p for p in split_top_level(text) if p]


def first_token(text: str) -> str:
    """``text`` up to the first blank outside parentheses: an operand without the flags printed after it."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch.isspace() and depth == 0:
            return text[:i]
    return text


#: GPR operand fields are 7 bits (R600-Cayman ISA documents, ALU_WORD0 SRC*_SEL / ALU_WORD1 DST_GPR): R0..R127
MAX_GPR = 127


def register_indices(pattern: re.Pattern[str], texts: list[str] | tuple[str, ...], diags: Diagnostics,
                     line: int) -> tuple[int, ...]:
    """Sorted distinct register numbers ``pattern`` (one group of digits) finds in ``texts``; a number beyond
    R127 is a ``vliw-register`` warning and left out (it would otherwise set the GPR count)."""
    found: set[int] = set()
    for text in texts:
        for m in pattern.finditer(text):
            digits = m.group(1)
            if len(digits) > 3 or int(digits) > MAX_GPR:
                shown = digits if len(digits) <= 12 else digits[:12] + "..."
                diags.warning("vliw-register", line, f"register number {shown} is beyond the {MAX_GPR + 1} "
                                                     "addressable GPRs; not counted")
                continue
            found.add(int(digits))
    return tuple(sorted(found))


def literal_slots(channels: list[int], distinct_values: int) -> int:
    """64-bit literal slots a group needs.

    Each slot holds two 32-bit literals, so ``.x``/``.y`` live in the first and ``.z``/``.w`` in the
    second (domain.md §2); literals printed without a channel are counted by distinct value.
    """
    by_channel = max(channels) // 2 + 1 if channels else 0
    by_value = (distinct_values + 1) // 2
    return max(by_channel, by_value)


@dataclass
class Diagnostics:
    """Collects diagnostics for one file."""

    file: str
    items: list[Diagnostic] = field(default_factory=list)

    def add(self, severity: Severity, code: str, line: int | None, message: str) -> None:
        self.items.append(Diagnostic(severity, code, message, self.file, line))

    def warning(self, code: str, line: int | None, message: str) -> None:
        self.add(Severity.WARNING, code, line, message)

    def error(self, code: str, line: int | None, message: str) -> None:
        self.add(Severity.ERROR, code, line, message)

    def note(self, code: str, line: int | None, message: str) -> None:
        self.add(Severity.NOTE, code, line, message)
