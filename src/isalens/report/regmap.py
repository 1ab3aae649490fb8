"""The per-line register map of live-register views: ``:`` live, ``^`` written, ``v`` read, ``x`` both."""

from __future__ import annotations

from isalens.ir.registers import RegFile, registers_in


def register_map(occupied: int, defs: int, uses: int, file: RegFile, width: int) -> str:
    """One character per register ``0..width-1`` of ``file``."""
    cells = [" "] * width
    for r in registers_in(occupied, file):
        if r < width:
            cells[r] = ":"
    written = set(registers_in(defs, file))
    read = set(registers_in(uses, file))
    for r in written | read:
        if r < width:
            cells[r] = "x" if (r in written and r in read) else ("^" if r in written else "v")
    return "".join(cells)
