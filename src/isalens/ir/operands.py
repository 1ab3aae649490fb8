"""Operands as written in the assembly text, before semantics assigns them roles."""

from __future__ import annotations

from isalens.ir.registers import Reg
from isalens.records import dataclass


@dataclass(frozen=True, slots=True)
class RegOperand:
    """One or more register runs (``v5``, ``-|v[4:5]|``, or an NSA list ``[v4, v9, v2]``)."""

    regs: tuple[Reg, ...]
    text: str
    neg: bool = False
    abs: bool = False
    #: units of all ``regs`` (precomputed: liveness needs it for every operand)
    mask: int = 0

    @staticmethod
    def of(regs: tuple[Reg, ...], text: str, neg: bool = False, abs: bool = False) -> RegOperand:
        mask = 0
        for reg in regs:
            mask |= reg.mask()
        return RegOperand(regs, text, neg, abs, mask)


@dataclass(frozen=True, slots=True)
class ImmOperand:
    """An integer or float constant; ``literal`` when it needs a 32-bit literal dword."""

    text: str
    value: int | float | None
    literal: bool


@dataclass(frozen=True, slots=True)
class LabelOperand:
    """A branch target: a label name, or a byte address resolved from an objdump offset."""

    text: str
    name: str | None = None
    address: int | None = None


@dataclass(frozen=True, slots=True)
class OtherOperand:
    """Anything else (``off``, ``hwreg(...)``, ``lgkmcnt(0)``, ``sendmsg(...)``, ``attr0.x``)."""

    text: str


Operand = RegOperand | ImmOperand | LabelOperand | OtherOperand
