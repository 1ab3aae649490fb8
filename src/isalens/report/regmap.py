"""The per-line register map of live-register views: ``:`` live, ``^`` written, ``v`` read, ``x`` both.

A map line is built from the masks' binary digits with big-integer arithmetic rather than a Python loop
over registers: a listing of a 100k-instruction kernel with 250 live VGPRs has 25 million cells.
"""

from __future__ import annotations

from functools import cache

from isalens.ir.registers import AGPR_BASE, SGPR_BASE, SPECIAL_BASE, VGPR_BASE, RegFile, file_mask

__all__ = ["register_map"]

#: file -> (its units' mask, its first unit, two units per register)
_LAYOUT = {f: (file_mask(f), base, f in (RegFile.VGPR, RegFile.AGPR))
           for f, base in ((RegFile.VGPR, VGPR_BASE), (RegFile.AGPR, AGPR_BASE), (RegFile.SGPR, SGPR_BASE),
                           (RegFile.SPECIAL, SPECIAL_BASE))}
#: entries a memo holds at most (each an int of ``width`` bytes: ~20 MB at 256 registers)
_MEMO_LIMIT = 65536
#: cell code (1 occupied + 2 written + 4 read) -> character
_CELLS = bytes.maketrans(bytes(range(8)), b" :^^vvxx")


def _digits(mask: int, file: RegFile, width: int) -> int:
    """One byte per register 0..width-1 (register 0 first), 1 where ``mask`` has any unit of it, as an int."""
    units, base, halves = _LAYOUT[file]
    part = (mask & units) >> base
    if not part:
        return _zeros(width)
    # VGPRs and AGPRs have two units (16-bit halves) per register: fold them, keep every other digit
    bits = format(part | part >> 1, "b")[::-1][::2] if halves else format(part, "b")[::-1]
    return int.from_bytes(bits[:width].ljust(width, "0").encode("ascii"), "big")


@cache
def _zeros(width: int) -> int:
    return int.from_bytes(b"0" * width, "big")


def register_map(occupied: int, defs: int, uses: int, file: RegFile, width: int,
                 memo: dict[tuple[int, int] | int, int] | None = None) -> str:
    """One character per register ``0..width-1`` of ``file``; ``memo`` (one per file and width) keeps the
    write/read part per (defs, uses) pair, which repeats with the instruction texts, and the occupied part
    per set of the file's live units, which repeats even more (348 distinct VGPR sets in the 101,385 lines
    of the dense benchmark kernel)."""
    if width <= 0:
        return ""
    # each byte is an ASCII '0'/'1'; the weighted sum minus 7 x '0' leaves the cell code 0..7 in every byte
    key = (defs, uses)
    marks = memo.get(key) if memo is not None else None
    if marks is None:
        marks = 2 * _digits(defs, file, width) + 4 * _digits(uses, file, width) - 7 * _zeros(width)
        if memo is not None:
            memo[key] = marks
    live = occupied & _LAYOUT[file][0]
    cells = memo.get(live) if memo is not None else None
    if cells is None:
        cells = _digits(live, file, width)
        if memo is not None:
            if len(memo) >= _MEMO_LIMIT:  # a kernel whose every line has its own live set: stay bounded
                memo.clear()
            memo[live] = cells
    return (cells + marks).to_bytes(width, "big").translate(_CELLS).decode("ascii")
