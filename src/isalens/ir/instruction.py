"""A decoded instruction: text, operands, encoding, and the registers it defines and uses."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from isalens.ir.operands import Operand
from isalens.records import dataclass


@dataclass(frozen=True, slots=True)
class InstructionFacts:
    """What the ISA tables say about one instruction, computed once by the reader (per distinct text).

    Every analysis and every command reads these; none recomputes them (``compare``, ``analyze`` and the
    statistics therefore agree by construction).
    """

    #: stable class key from ``isa/amdgcn/data/classes.toml`` (``valu.fma.f32``, ``ds.read2st64``, ``smem.load``)
    klass: str = "unknown"
    #: bytes of machine code
    size: int = 0
    #: the size came from the instruction's encoding words (else from the encoding rules)
    exact: bool = False
    #: per operand: "literal", "inline", "sgpr" or None (not a constant source)
    constants: tuple[str | None, ...] = ()
    #: literal values as written, for "which weights became literals"
    literals: tuple[str, ...] = ()
    #: (group, text) of every modifier used: groups "sdwa", "dpp", "op_sel", "output", "source", "encoding"
    modifiers: tuple[tuple[str, str], ...] = ()


class BranchKind(StrEnum):
    """How an instruction changes control flow."""

    NONE = "none"
    JUMP = "jump"            # unconditional: s_branch
    COND = "cond"            # conditional: s_cbranch_*
    END = "end"              # program end: s_endpgm
    RETURN = "return"        # s_setpc_b64 in a function
    INDIRECT = "indirect"    # target unknown (computed jump)
    CALL = "call"            # s_swappc_b64 / s_call_b64: returns to the next instruction


class Instruction(NamedTuple):
    """One machine instruction (a VOPD pair is one instruction holding two operations).

    Immutable; a named tuple rather than a frozen dataclass because a kernel has up to a million of them
    and a tuple is built in one step (``_replace`` derives a changed copy).

    ``defs``/``uses`` are unit bitsets (see :mod:`isalens.ir.registers`): registers the instruction
    writes and reads, implicit ones included. ``undef_before`` holds units the compiler marked as
    undefined just before this instruction (LLVM's ``; implicit-def:`` comments): nothing flows
    through them upwards; ``undef_after`` the same for a marker after the last instruction of a block.
    """

    index: int  # type: ignore[assignment]  # shadows tuple.index(), which instructions never use
    line: int
    text: str
    mnemonic: str
    operands: tuple[Operand, ...]
    modifiers: tuple[str, ...]
    defs: int
    uses: int
    branch: BranchKind = BranchKind.NONE
    target: str | None = None
    address: int | None = None
    encoding: tuple[int, ...] = ()
    undef_before: int = 0
    undef_after: int = 0
    guessed: bool = False
    ops: tuple[str, ...] = ()
    #: every register named in the operands, read or not (what the compiler counts as used)
    referenced: int = 0
    #: class key, size and constant kinds from the ISA tables
    facts: InstructionFacts = InstructionFacts()

    def modifier(self, name: str) -> str | None:
        """Value of ``name:value`` among the modifiers, ``""`` for a bare flag, else None."""
        for mod in self.modifiers:
            if mod == name:
                return ""
            if mod.startswith(name + ":"):
                return mod[len(name) + 1 :]
        return None
