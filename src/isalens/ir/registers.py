"""Registers and register sets.

Liveness runs on Python ints used as bitsets: one bit per *unit*. A VGPR or AGPR has two units (its
low and high 16-bit halves), an SGPR one unit, and each special register (VCC_LO, EXEC_HI, SCC, M0 ...)
one unit. All files share one numbering so a single int holds a whole live set; the masks below cut it
back into files.
"""

from __future__ import annotations

from enum import StrEnum

from isalens._core.lines import iter_bits as iter_bits  # one definition, re-exported for the IR's users
from isalens.records import dataclass


class RegFile(StrEnum):
    """A register file. Specials are tracked but never counted as SGPR pressure."""

    VGPR = "v"
    AGPR = "a"
    SGPR = "s"
    SPECIAL = "special"


MAX_VGPRS = 256
MAX_AGPRS = 256
MAX_SGPRS = 128

VGPR_BASE = 0
AGPR_BASE = VGPR_BASE + 2 * MAX_VGPRS
SGPR_BASE = AGPR_BASE + 2 * MAX_AGPRS
SPECIAL_BASE = SGPR_BASE + MAX_SGPRS

#: Special registers tracked by liveness, one 32-bit unit each, in unit order.
SPECIAL_NAMES: tuple[str, ...] = (
    "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "scc", "m0",
    "flat_scratch_lo", "flat_scratch_hi", "xnack_mask_lo", "xnack_mask_hi",
    *(f"ttmp{i}" for i in range(16)),
)
SPECIAL_UNIT: dict[str, int] = {name: SPECIAL_BASE + i for i, name in enumerate(SPECIAL_NAMES)}


def _ones(count: int, shift: int) -> int:
    return ((1 << count) - 1) << shift


VGPR_MASK = _ones(2 * MAX_VGPRS, VGPR_BASE)
AGPR_MASK = _ones(2 * MAX_AGPRS, AGPR_BASE)
SGPR_MASK = _ones(MAX_SGPRS, SGPR_BASE)
SPECIAL_MASK = _ones(len(SPECIAL_NAMES), SPECIAL_BASE)
#: Every low-half unit of the VGPR and AGPR files (bit 2k of each file).
_LOW_HALVES = int("01" * (MAX_VGPRS + MAX_AGPRS), 2) << VGPR_BASE

HALF_LO = 1
HALF_HI = 2
HALF_BOTH = 3


@dataclass(frozen=True, slots=True, order=True)
class Reg:
    """A contiguous run of registers of one file, e.g. ``v[4:7]`` or ``s5``.

    ``halves`` (VGPR/AGPR only) selects which 16-bit halves of each register are meant:
    ``HALF_LO``, ``HALF_HI`` or ``HALF_BOTH``. Specials use ``index`` into :data:`SPECIAL_NAMES`.
    """

    file: RegFile
    index: int
    count: int = 1
    halves: int = HALF_BOTH

    @property
    def last(self) -> int:
        return self.index + self.count - 1

    def mask(self) -> int:
        """The units this register run covers, as a bitset."""
        if self.file is RegFile.SGPR:
            return _ones(self.count, SGPR_BASE + self.index)
        if self.file is RegFile.SPECIAL:
            return _ones(self.count, SPECIAL_BASE + self.index)
        base = VGPR_BASE if self.file is RegFile.VGPR else AGPR_BASE
        full = _ones(2 * self.count, base + 2 * self.index)
        if self.halves == HALF_BOTH:
            return full
        pattern = _LOW_HALVES if self.halves == HALF_LO else _LOW_HALVES << 1
        return full & pattern

    def with_halves(self, halves: int) -> Reg:
        return Reg(self.file, self.index, self.count, halves)

    def subrange(self, offset: int, count: int) -> Reg:
        return Reg(self.file, self.index + offset, count, self.halves)

    def __str__(self) -> str:
        return format_reg(self)


def format_reg(reg: Reg) -> str:
    """Assembler spelling of a register run (``v5``, ``v[4:7]``, ``v5.h``, ``vcc_lo``)."""
    if reg.file is RegFile.SPECIAL:
        names = SPECIAL_NAMES[reg.index : reg.index + reg.count]
        return names[0] if len(names) == 1 else "+".join(names)
    prefix = reg.file.value
    text = f"{prefix}{reg.index}" if reg.count == 1 else f"{prefix}[{reg.index}:{reg.last}]"
    if reg.halves == HALF_LO:
        return text + ".l"
    if reg.halves == HALF_HI:
        return text + ".h"
    return text


def unit_name(unit: int) -> str:
    """Human name of one liveness unit (``v5.l``, ``a3.h``, ``s7``, ``vcc_lo``)."""
    if unit < AGPR_BASE:
        return f"v{(unit - VGPR_BASE) >> 1}{'.h' if unit & 1 else '.l'}"
    if unit < SGPR_BASE:
        return f"a{(unit - AGPR_BASE) >> 1}{'.h' if unit & 1 else '.l'}"
    if unit < SPECIAL_BASE:
        return f"s{unit - SGPR_BASE}"
    return SPECIAL_NAMES[unit - SPECIAL_BASE]


def count_registers(mask: int, file: RegFile) -> int:
    """How many whole registers of ``file`` have any live unit in ``mask``."""
    if file is RegFile.SGPR:
        return (mask & SGPR_MASK).bit_count()
    if file is RegFile.SPECIAL:
        return (mask & SPECIAL_MASK).bit_count()
    part = mask & (VGPR_MASK if file is RegFile.VGPR else AGPR_MASK)
    return ((part | (part >> 1)) & _LOW_HALVES & (VGPR_MASK | AGPR_MASK)).bit_count()


def count_halves(mask: int, file: RegFile) -> int:
    """How many 16-bit halves of ``file`` are live in ``mask`` (VGPR/AGPR)."""
    return (mask & (VGPR_MASK if file is RegFile.VGPR else AGPR_MASK)).bit_count()


def half_only_registers(mask: int, file: RegFile) -> int:
    """Registers of ``file`` with exactly one live half: the other half is wasted."""
    part = mask & (VGPR_MASK if file is RegFile.VGPR else AGPR_MASK)
    return ((part ^ (part >> 1)) & _LOW_HALVES & (VGPR_MASK | AGPR_MASK)).bit_count()


def file_mask(file: RegFile) -> int:
    return {
        RegFile.VGPR: VGPR_MASK,
        RegFile.AGPR: AGPR_MASK,
        RegFile.SGPR: SGPR_MASK,
        RegFile.SPECIAL: SPECIAL_MASK,
    }[file]


def registers_in(mask: int, file: RegFile) -> list[int]:
    """Register indices of ``file`` with any live unit in ``mask``, ascending."""
    if file is RegFile.SGPR:
        return [u - SGPR_BASE for u in iter_bits(mask & SGPR_MASK)]
    if file is RegFile.SPECIAL:
        return [u - SPECIAL_BASE for u in iter_bits(mask & SPECIAL_MASK)]
    base = VGPR_BASE if file is RegFile.VGPR else AGPR_BASE
    part = mask & file_mask(file)
    regs = sorted({(u - base) >> 1 for u in iter_bits(part)})
    return regs


def highest_register(mask: int, file: RegFile) -> int:
    """Index of the highest register of ``file`` touched by ``mask``, or -1."""
    part = mask & file_mask(file)
    if not part:
        return -1
    top = part.bit_length() - 1
    if file is RegFile.SGPR:
        return top - SGPR_BASE
    if file is RegFile.SPECIAL:
        return top - SPECIAL_BASE
    base = VGPR_BASE if file is RegFile.VGPR else AGPR_BASE
    return (top - base) >> 1


def special(name: str) -> Reg:
    """The special register called ``name`` (one unit), e.g. ``special("scc")``."""
    return Reg(RegFile.SPECIAL, SPECIAL_UNIT[name] - SPECIAL_BASE)


def special_pair(name: str) -> Reg:
    """A 64-bit special (``vcc``, ``exec``, ``flat_scratch``, ``xnack_mask``) as two units."""
    return Reg(RegFile.SPECIAL, SPECIAL_UNIT[name + "_lo"] - SPECIAL_BASE, 2)
