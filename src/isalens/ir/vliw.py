"""Programs for the VLIW5/VLIW4 GPUs (R600, R700, Evergreen, Cayman): clauses, instruction groups, slots.

A program is the control-flow (CF) list of one shader or kernel. ALU clauses hold instruction groups,
each issuing in one clock on a thread processor with up to five ALU slots (x, y, z, w and the
transcendental t; Cayman has no t) plus up to two 64-bit literal slots. Fetch clauses hold texture and
vertex fetches. The readers in :mod:`isalens.isa.r600` resolve everything the analysis needs (slot,
unit class, MAD or not, registers, fetched bytes) so that :mod:`isalens.analysis.vliw` never sees text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from isalens.ir.diagnostics import Diagnostic

#: the ALU slots in issue order; Cayman (VLIW4) uses the first four
SLOTS = ("x", "y", "z", "w", "t")


class Unit(StrEnum):
    """Which slots an operation may occupy on its generation."""

    ANY = "any"              # x, y, z, w or t
    TRANS = "trans"          # t only (VLIW5)
    VECTOR = "vector"        # x, y, z or w only
    REDUCTION = "reduction"  # one operation spread over x, y, z and w (DOT4, CUBE, MAX4; Cayman MULLO_INT)


class ClauseKind(StrEnum):
    """An ALU clause, a fetch (TEX/VTX) clause, or a plain control-flow instruction."""

    ALU = "alu"
    FETCH = "fetch"
    CF = "cf"


class Flow(StrEnum):
    """What a control-flow instruction does to the instruction stream (loops and branches)."""

    NONE = "none"
    LOOP_START = "loop_start"
    LOOP_END = "loop_end"
    BREAK = "break"
    CONTINUE = "continue"
    JUMP = "jump"
    ELSE = "else"
    POP = "pop"
    PUSH = "push"
    CALL = "call"
    RETURN = "return"
    EXPORT = "export"
    END = "end"


@dataclass(frozen=True, slots=True)
class AluOp:
    """One operation in one slot of an instruction group."""

    line: int
    slot: str
    opcode: str                 # as printed
    name: str                   # ISA name (``RECIP_IEEE`` for CAL's ``RCP_e``); the printed one if unknown
    unit: Unit
    known: bool
    mad: bool                   # a fused or unfused multiply-add (2 flops)
    masked: bool                # the result is not written (``____`` or ``(MASKED)``)
    operands: tuple[str, ...]
    gprs: tuple[int, ...]       # general-purpose registers (CAL ``R<n>``, LLVM ``T<n>``) read or written
    temps: tuple[int, ...]      # clause temporaries (CAL ``T0``..``T3``)
    slot_guessed: bool = False  # derived from the destination channel (LLVM), not printed


@dataclass(frozen=True, slots=True)
class AluGroup:
    """An instruction group: the operations issued together in one clock, and their literal slots."""

    line: int
    number: int | None          # the printed group number (CAL), shared with fetches
    ops: tuple[AluOp, ...]
    literal_slots: int          # 64-bit slots holding literal constants (two dwords each)

    @property
    def slots(self) -> int:
        """ALU slots the group occupies in the clause: operations plus literal slots."""
        return len(self.ops) + self.literal_slots


@dataclass(frozen=True, slots=True)
class FetchOp:
    """A texture or vertex fetch instruction."""

    line: int
    number: int | None
    opcode: str
    known: bool
    bytes: int                  # bytes fetched per thread (0 for state-setting fetches like SET_GRADIENTS_H)
    gprs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Clause:
    """One control-flow instruction; ALU and fetch clauses carry their body."""

    line: int
    index: int                  # CF address (CAL's printed number, LLVM's position)
    opcode: str                 # ``ALU_PUSH_BEFORE``, ``TEX``, ``LOOP_DX10``, ``JUMP`` ...
    kind: ClauseKind
    flow: Flow = Flow.NONE
    addr: int | None = None     # ``ADDR(a)`` / ``@a``
    count: int | None = None    # as printed: CAL ``CNT(n)``, LLVM ``ALU n`` / ``TEX n``
    declared: int | None = None  # what ``count`` claims: ALU slots (incl. literals) or fetch instructions
    groups: tuple[AluGroup, ...] = ()
    fetches: tuple[FetchOp, ...] = ()
    gprs: tuple[int, ...] = ()  # registers named by the CF instruction itself (exports, stores)


@dataclass(frozen=True, slots=True)
class VliwProgram:
    """The CF list of one shader or kernel."""

    name: str
    line: int
    clauses: tuple[Clause, ...]
    declared_gprs: int | None = None  # what the compiler says it allocated (LLVM ``SQ_PGM_RESOURCES``)


@dataclass(frozen=True, slots=True)
class VliwModule:
    """A parsed VLIW dump: its programs, the generation whose slot rules applied, and diagnostics."""

    file: str
    dialect: str                # ``cal`` or ``llvm``
    generation: str             # ``r600``, ``r700``, ``evergreen`` or ``cayman``
    generation_source: str      # ``given``, ``inferred`` or ``default``
    width: int                  # ALU slots per group: 5, or 4 on Cayman
    programs: tuple[VliwProgram, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    chip: str | None = None     # when the target named one (``rv730``): its register file may differ
