"""Reader for AMD CAL / GPU ShaderAnalyzer disassembly (R600, R700, Evergreen, Cayman).

The format: numbered control-flow lines at column 0 (``01 ALU_PUSH_BEFORE: ADDR(64) CNT(101)``,
``05 TEX: ADDR(658) CNT(6) VALID_PIX``, ``02 JUMP  POP_CNT(1) ADDR(36)``, ``38 EXP_DONE: PIX0, R0``,
``END_OF_PROGRAM``); inside ALU clauses numbered instruction groups whose operations name their slot
(``     1  x: MULADD  T1.x, C34.x, R6.x, -1.0f``, then ``y:`` ... ``t:`` lines); inside fetch clauses
numbered fetches (``     52  SAMPLE_G R4.__x_, R7.xyxx, t0, s0``). ``R<n>`` are GPRs, ``T0``..``T3``
clause temporaries, ``PV<n>``/``PS<n>`` the previous group's results, ``C<n>``/``KC0[n]`` constants,
``(0x3F800000, 1.0f).x`` a literal, ``____`` a masked write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from isalens.ir.vliw import AluGroup, AluOp, Clause, ClauseKind, FetchOp, Flow, Unit, VliwProgram
from isalens.isa.r600.common import (
    CHANNELS,
    Diagnostics,
    first_token,
    literal_slots,
    register_indices,
    split_operands,
)
from isalens.isa.r600.rules import Tables

_CF = re.compile(r"^(\d+)\s+([A-Z][A-Z0-9_]*)(:?)\s*(.*?)\s*$")
_END = re.compile(r"^\s*END_OF_PROGRAM\b")
_GROUP = re.compile(r"^\s+(\d+)\s+([xyzwt]):\s+(\S.*?)\s*$")
_SLOT = re.compile(r"^\s+([xyzwt]):\s+(\S.*?)\s*$")
_FETCH = re.compile(r"^\s+(\d+)\s+([A-Za-z][A-Za-z0-9_]*)\b\s*(.*?)\s*$")
_OP = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*(.*)$")
_ADDR = re.compile(r"(?<![A-Z_])ADDR\((\d+)\)")
_CNT = re.compile(r"(?<![A-Z_])CNT\((\d+)\)")
_LITERAL = re.compile(r"\((0x[0-9A-Fa-f]+)\s*,[^)]*\)(?:\.([xyzw]))?")
_GPR = re.compile(r"(?<![A-Za-z0-9_])R(\d+)(?![0-9])")
_TEMP = re.compile(r"(?<![A-Za-z0-9_])T(\d+)(?![0-9])")
_NUM_GPRS = re.compile(r"NUM_GPRS\s*=\s*(\d+)")
_SLOT_LINE = re.compile(r"^\s*(?:\d+\s+)?([xyzwt]):\s+([A-Za-z][A-Za-z0-9_]*)", re.MULTILINE)
_CF_NAMES = re.compile(r"^\d+\s+([A-Z][A-Z0-9_]*)", re.MULTILINE)


def sniff(text: str) -> bool:
    """Whether ``text`` looks like a CAL dump (a numbered ALU/TEX clause with ADDR and CNT)."""
    return re.search(r"^\d+\s+(ALU|TEX|VTX)\w*:?\s+ADDR\(\d+\)\s+CNT\(\d+\)", text, re.MULTILINE) is not None


def infer_generation(text: str, tables: Tables) -> tuple[str, str]:
    """``(generation, source)`` for a dump that does not say: Cayman if trans-only work sits in x..w and no
    group uses t, Evergreen if an Evergreen-only operation or a RAT store appears, else R700."""
    slots = [(m.group(1), tables.alu_name(m.group(2))[0]) for m in _SLOT_LINE.finditer(text)]
    uses_t = any(slot == "t" for slot, _ in slots)
    trans_elsewhere = any(slot != "t" and tables.unit("evergreen", name) is Unit.TRANS for slot, name in slots)
    if slots and not uses_t and trans_elsewhere:
        return "cayman", "inferred"
    names = {name for _, name in slots}
    if names & tables.evergreen_markers or any(m.group(1).startswith("MEM_RAT")
                                                for m in _CF_NAMES.finditer(text)):
        return "evergreen", "inferred"
    return "r700", "default"


@dataclass
class _ClauseBuilder:
    line: int
    index: int
    opcode: str
    kind: ClauseKind
    flow: Flow
    addr: int | None
    count: int | None
    gprs: tuple[int, ...]
    groups: list[AluGroup] = field(default_factory=list)
    fetches: list[FetchOp] = field(default_factory=list)

    def build(self) -> Clause:
        return Clause(line=self.line, index=self.index, opcode=self.opcode, kind=self.kind, flow=self.flow,
                      addr=self.addr, count=self.count, declared=self.count, groups=tuple(self.groups),
                      fetches=tuple(self.fetches), gprs=self.gprs)


@dataclass
class _GroupBuilder:
    line: int
    number: int
    ops: list[AluOp] = field(default_factory=list)
    literal_channels: list[int] = field(default_factory=list)
    literal_values: set[str] = field(default_factory=set)

    def build(self) -> AluGroup:
        unchanneled = len(self.literal_values) if not self.literal_channels else 0
        return AluGroup(line=self.line, number=self.number, ops=tuple(self.ops),
                        literal_slots=literal_slots(self.literal_channels, unchanneled))


class CalReader:
    """Reads one CAL dump; one program per run of CF numbers starting at 00."""

    def __init__(self, tables: Tables, generation: str, diags: Diagnostics) -> None:
        self.tables = tables
        self.generation = generation
        self.diags = diags
        self.programs: list[VliwProgram] = []
        self.clauses: list[_ClauseBuilder] = []
        self.clause: _ClauseBuilder | None = None
        self.group: _GroupBuilder | None = None
        self.declared_gprs: int | None = None
        self.start_line = 1

    def read(self, text: str, name: str) -> list[VliwProgram]:
        for lineno, raw in enumerate(text.splitlines(), start=1):
            line = raw.rstrip()
            stripped = line.strip()
            if not stripped or stripped.startswith(";"):
                continue
            if m := _NUM_GPRS.search(line):
                self.declared_gprs = int(m.group(1))
                continue
            self._line(line, lineno, name)
        self._finish_program(name)
        return self.programs

    def _line(self, line: str, lineno: int, name: str) -> None:
        if m := _CF.match(line):
            index = int(m.group(1))
            if index == 0 and self.clauses:
                self._finish_program(name)
            self._start_cf(index, m.group(2), m.group(4), lineno)
            return
        if _END.match(line):
            index = self.clauses[-1].index + 1 if self.clauses else 0
            self._start_cf(index, "END_OF_PROGRAM", "", lineno)
            return
        clause = self.clause
        if clause is not None and clause.kind is ClauseKind.ALU:
            if m := _GROUP.match(line):
                self._close_group()
                self.group = _GroupBuilder(lineno, int(m.group(1)))
                self._op(m.group(2), m.group(3), lineno)
                return
            if (m := _SLOT.match(line)) and self.group is not None:
                self._op(m.group(1), m.group(2), lineno)
                return
            self.diags.warning("vliw-unparsed-line", lineno, f"cannot read this line of ALU clause "
                                                             f"{clause.index:02d}: {line.strip()!r}")
            return
        if clause is not None and clause.kind is ClauseKind.FETCH:
            if m := _FETCH.match(line):
                self._fetch(int(m.group(1)), m.group(2), m.group(3), lineno)
            # other indented lines continue the previous fetch (VFETCH prints its format on a second line)
            return
        # headers, statistics and IL listings around the disassembly are not instructions

    def _start_cf(self, index: int, opcode: str, rest: str, lineno: int) -> None:
        self._close_clause()
        info = self.tables.cf(opcode)
        if not info.known:
            self.diags.warning("vliw-unknown-cf", lineno, f"unknown control-flow instruction {opcode}; "
                                                          "treated as plain control flow")
        kind = ClauseKind(info.kind)
        addr = int(a.group(1)) if (a := _ADDR.search(rest)) else None
        count = int(c.group(1)) if (c := _CNT.search(rest)) else None
        if kind is not ClauseKind.CF and count is None:
            self.diags.error("vliw-syntax", lineno, f"{opcode} clause without CNT(n)")
        gprs = register_indices(_GPR, [rest]) if kind is ClauseKind.CF else ()
        builder = _ClauseBuilder(lineno, index, opcode, kind, info.flow, addr, count, gprs)
        self.clauses.append(builder)
        self.clause = builder

    def _op(self, slot: str, text: str, lineno: int) -> None:
        assert self.group is not None
        m = _OP.match(text)
        if m is None:
            self.diags.error("vliw-syntax", lineno, f"cannot read the operation in slot {slot}: {text!r}")
            return
        opcode, rest = m.group(1), m.group(2)
        name, known = self.tables.alu_name(opcode)
        if not known:
            self.diags.warning("vliw-unknown-opcode", lineno,
                               f"unknown ALU operation {opcode} in slot {slot}; counted in that slot as a guess "
                               "(no MAD, no slot rule)")
        operands = split_operands(rest)
        if operands:
            # flags such as VEC_021, CLAMP or UPDATE_EXEC_MASK follow the last operand after spaces
            operands[-1] = first_token(operands[-1])
        for lit in _LITERAL.finditer(rest):
            self.group.literal_values.add(lit.group(1).lower())
            if lit.group(2):
                self.group.literal_channels.append(CHANNELS.index(lit.group(2)))
        masked = bool(operands) and operands[0].startswith("__")
        unit = self.tables.unit(self.generation, name) if known else Unit.ANY
        self.group.ops.append(AluOp(
            line=lineno, slot=slot, opcode=opcode, name=name, unit=unit, known=known,
            mad=name in self.tables.mad, masked=masked, operands=tuple(operands),
            gprs=register_indices(_GPR, operands), temps=register_indices(_TEMP, operands),
        ))

    def _fetch(self, number: int, opcode: str, rest: str, lineno: int) -> None:
        assert self.clause is not None
        name, known = self.tables.fetch_name(opcode)
        if not known:
            self.diags.warning("vliw-unknown-opcode", lineno, f"unknown fetch {opcode}; its bytes are guessed "
                                                              "from the destination")
        operands = split_operands(rest)
        self.clause.fetches.append(FetchOp(
            line=lineno, number=number, opcode=opcode, known=known,
            bytes=self._fetch_bytes(name, operands[0] if operands else ""),
            gprs=register_indices(_GPR, operands),
        ))

    def _fetch_bytes(self, name: str, dst: str) -> int:
        # 32-bit channels assumed: the format is not in the dump (docs/vliw.md, "Limits")
        if name in self.tables.fetch_no_memory or dst.startswith("__"):
            return 0
        if "." not in dst:
            return 16
        return 4 * sum(1 for ch in dst.split(".", 1)[1] if ch in CHANNELS)

    def _close_group(self) -> None:
        if self.group is not None and self.clause is not None:
            self.clause.groups.append(self.group.build())
        self.group = None

    def _close_clause(self) -> None:
        self._close_group()
        self.clause = None

    def _finish_program(self, name: str) -> None:
        self._close_clause()
        if not self.clauses:
            return
        label = name if not self.programs else f"{name}#{len(self.programs) + 1}"
        self.programs.append(VliwProgram(name=label, line=self.clauses[0].line,
                                         clauses=tuple(c.build() for c in self.clauses),
                                         declared_gprs=self.declared_gprs))
        self.clauses = []
        self.declared_gprs = None


def read_cal(text: str, file: str, tables: Tables, generation: str, diags: Diagnostics) -> list[VliwProgram]:
    """The programs of a CAL dump, read with ``generation``'s slot rules."""
    name = PurePath(file).stem if file and not file.startswith("<") else "shader"
    return CalReader(tables, generation, diags).read(text, name)
