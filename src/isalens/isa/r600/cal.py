"""Reader for AMD CAL / GPU ShaderAnalyzer disassembly (R600, R700, Evergreen, Cayman).

The format: numbered control-flow lines (``01 ALU_PUSH_BEFORE: ADDR(64) CNT(101)``,
``05 TEX: ADDR(658) CNT(6) VALID_PIX``, ``02 JUMP  POP_CNT(1) ADDR(36)``, ``38 EXP_DONE: PIX0, R0``,
``END_OF_PROGRAM``); inside ALU clauses numbered instruction groups whose operations name their slot
(``     1  x: MULADD  T1.x, C34.x, R6.x, -1.0f``, then ``y:`` ... ``t:`` lines); inside fetch clauses
numbered fetches (``     52  SAMPLE_G R4.__x_, R7.xyxx, t0, s0``). ``R<n>`` are GPRs, ``T0``..``T3``
clause temporaries, ``PV<n>``/``PS<n>`` the previous group's results, ``C<n>``/``KC0[n]`` constants,
``(0x3F800000, 1.0f).x`` a literal, ``____`` a masked write. GPU ShaderAnalyzer indents control flow
nested in a loop or branch before its number (``    04 ALU_BREAK: ADDR(105) CNT(3)``) and the clause body
one step deeper; other tools indent after the number (``02     TEX: ...``). Both are read, at any depth.
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
    show,
    split_operands,
)
from isalens.isa.r600.rules import Tables
from isalens.lines import lines_of

# Lines are right-stripped before matching, so no pattern needs a lazy ``.*?`` before trailing blanks (which
# is quadratic on long runs of blanks). Real dumps indent control flow nested in a loop or branch *before* the
# CF number and its clause body one step deeper (domain.md §1.4); other tools indent after the number.
_NUMBERED = re.compile(r"^([ \t]*)([0-9]+)[ \t]+(\S.*)$")
_GROUP_REST = re.compile(r"^([xyzwt]):[ \t]*(\S.*)$")
_OPCODE_REST = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(:?)(?![A-Za-z0-9_])[ \t]*(.*)$")
_END = re.compile(r"^[ \t]*END_OF_PROGRAM\b")
_SLOT = re.compile(r"^[ \t]+([xyzwt]):[ \t]*(\S.*)$")
# a fetch's second line: flags only, e.g. ``FETCH_TYPE(NO_INDEX_OFFSET)`` or ``MEGA(16) OFFSET(0)``
_FLAG = r"[A-Z][A-Z0-9_]*(?:\([^()]*\))?"
_FETCH_MORE = re.compile(rf"^[ \t]+{_FLAG}(?:[ \t]+{_FLAG})*$")
_OP = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*(.*)$")
_ADDR = re.compile(r"(?<![A-Z_])ADDR\(([0-9]+)\)")
_CNT = re.compile(r"(?<![A-Z_])CNT\(([0-9]+)\)")
_LITERAL = re.compile(r"\((0x[0-9A-Fa-f]+)\s*,[^)]*\)(?:\.([xyzw]))?")
_GPR = re.compile(r"(?<![A-Za-z0-9_])R([0-9]+)(?![0-9])")
_TEMP = re.compile(r"(?<![A-Za-z0-9_])T([0-9]+)(?![0-9])")
_NUM_GPRS = re.compile(r"NUM_GPRS\s*=\s*([0-9]+)")
_SLOT_LINE = re.compile(r"^[ \t]*(?:[0-9]+[ \t]+)?([xyzwt]):[ \t]+([A-Za-z][A-Za-z0-9_]*)", re.MULTILINE)
_CF_NAMES = re.compile(r"^[ \t]*[0-9]+[ \t]+([A-Z][A-Z0-9_]*)", re.MULTILINE)
#: numbers longer than this are diagnosed, never converted (CPython refuses int() of > 4300 digits)
_MAX_DIGITS = 9


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
    number: int | None
    ops: list[AluOp] = field(default_factory=list)
    literal_channels: list[int] = field(default_factory=list)
    literal_values: set[str] = field(default_factory=set)

    def build(self) -> AluGroup:
        unchanneled = len(self.literal_values) if not self.literal_channels else 0
        return AluGroup(line=self.line, number=self.number, ops=tuple(self.ops),
                        literal_slots=literal_slots(self.literal_channels, unchanneled))


class CalReader:
    """Reads one CAL dump; one program per run of CF numbers starting at 00.

    Inside the disassembly (from the first CF line of a program to END_OF_PROGRAM) every line must be a
    CF instruction, an instruction group, a slot, a fetch (with its flag line), a comment or blank;
    anything else is a ``vliw-unparsed-line`` warning naming the line. Lines outside it (IL listings,
    statistics, headers) are skipped, and one note names them.
    """

    def __init__(self, tables: Tables, generation: str, diags: Diagnostics) -> None:
        self.tables = tables
        self.generation = generation
        self.diags = diags
        self.programs: list[VliwProgram] = []
        self.clauses: list[_ClauseBuilder] = []
        self.clause: _ClauseBuilder | None = None
        self.group: _GroupBuilder | None = None
        self.declared_gprs: int | None = None
        self.inside = False               # between a program's first CF line and END_OF_PROGRAM
        self.fetch_open = False           # the last line was a fetch (its flag line may follow)
        self.skipped: list[int] = []      # line numbers outside the disassembly

    def read(self, text: str, name: str) -> list[VliwProgram]:
        for lineno, raw in enumerate(lines_of(text), start=1):
            line = raw.rstrip()
            stripped = line.strip()
            if not stripped or stripped.startswith(";"):
                continue
            if m := _NUM_GPRS.search(line):
                self.declared_gprs = self._int(m.group(1), lineno, "NUM_GPRS")
                continue
            self._line(line, lineno, name)
        self._finish_program(name)
        if self.skipped:
            self.diags.note("vliw-skipped-lines", self.skipped[0],
                            f"{len(self.skipped)} lines outside the disassembly skipped as headers or statistics "
                            f"(lines {_ranges(self.skipped)})")
        return self.programs

    def _int(self, digits: str, lineno: int, what: str) -> int | None:
        if len(digits) > _MAX_DIGITS:
            self.diags.error("vliw-syntax", lineno, f"{what} {digits[:12]}... has {len(digits)} digits: out of range")
            return None
        return int(digits)

    def _line(self, line: str, lineno: int, name: str) -> None:
        if _END.match(line):
            index = self.clauses[-1].index + 1 if self.clauses else 0
            self._start_cf(index, "END_OF_PROGRAM", "", lineno)
            self._close_clause()
            self.inside = False
            return
        if (m := _NUMBERED.match(line)) and self._numbered(m, lineno, name):
            return
        fetch_more = self.fetch_open
        self.fetch_open = False
        clause = self.clause
        if (s := _SLOT.match(line)) and clause is not None and clause.kind is ClauseKind.ALU and self.group is not None:
            self._op(s.group(1), s.group(2), lineno)
            return
        if fetch_more and _FETCH_MORE.match(line):
            self.fetch_open = True        # VFETCH prints its format on a second line
            return
        if not self.inside:
            self.skipped.append(lineno)
            return
        if clause is not None and clause.kind is not ClauseKind.CF:
            where = f"{clause.kind.value.upper()} clause {clause.index:02d}"
        else:
            where = "the control-flow list"
        self.diags.warning("vliw-unparsed-line", lineno, f"cannot read this line of {where}: {show(line)}")

    def _numbered(self, m: re.Match[str], lineno: int, name: str) -> bool:
        """Handle a line that starts with a number; False when it is none of CF line, group or fetch."""
        indent, digits, rest = m.group(1), m.group(2), m.group(3)
        clause = self.clause
        if g := _GROUP_REST.match(rest):
            if clause is None or clause.kind is not ClauseKind.ALU:
                return False
            self.fetch_open = False
            self._close_group()
            self.group = _GroupBuilder(lineno, self._int(digits, lineno, "group number"))
            self._op(g.group(1), g.group(2), lineno)
            return True
        o = _OPCODE_REST.match(rest)
        if o is None:
            return False
        opcode, colon, tail = o.group(1), o.group(2), o.group(3)
        if self._is_cf(indent, opcode, colon, tail):
            index = self._int(digits, lineno, "CF number")
            if index is None:
                return True
            if index == 0 and self.clauses:
                self._finish_program(name)
            self.fetch_open = False
            self._start_cf(index, opcode, tail, lineno)
            self.inside = True
            return True
        if clause is not None and clause.kind is ClauseKind.FETCH:
            self._fetch(self._int(digits, lineno, "fetch number"), opcode, tail, lineno)
            self.fetch_open = True
            return True
        return False

    def _is_cf(self, indent: str, opcode: str, colon: str, tail: str) -> bool:
        """A numbered line is a CF instruction when it starts at column 0 (the classic layout) or, when
        indented (nested control flow), names a CF opcode or looks like one (``NAME:``, ``ADDR(``/``CNT(``)
        and is not a fetch."""
        if not opcode[0].isupper() or opcode != opcode.upper():
            return False
        if not indent:
            return True
        if self.tables.fetch_name(opcode)[1]:
            return False
        return self.tables.cf(opcode).known or bool(colon) or bool(_ADDR.search(tail) or _CNT.search(tail))

    def _start_cf(self, index: int, opcode: str, rest: str, lineno: int) -> None:
        self._close_clause()
        info = self.tables.cf(opcode)
        if not info.known:
            self.diags.warning("vliw-unknown-cf", lineno, f"unknown control-flow instruction {opcode}; "
                                                          "treated as plain control flow")
        kind = ClauseKind(info.kind)
        addr = self._int(a.group(1), lineno, "ADDR") if (a := _ADDR.search(rest)) else None
        count: int | None = None
        if c := _CNT.search(rest):
            count = self._int(c.group(1), lineno, "CNT")
        elif kind is not ClauseKind.CF:
            self.diags.error("vliw-syntax", lineno, f"{opcode} clause without CNT(n)")
        gprs = register_indices(_GPR, [rest], self.diags, lineno) if kind is ClauseKind.CF else ()
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
            gprs=register_indices(_GPR, operands, self.diags, lineno),
            temps=register_indices(_TEMP, operands, self.diags, lineno),
        ))

    def _fetch(self, number: int | None, opcode: str, rest: str, lineno: int) -> None:
        assert self.clause is not None
        name, known = self.tables.fetch_name(opcode)
        if not known:
            self.diags.warning("vliw-unknown-opcode", lineno, f"unknown fetch {opcode}; its bytes are guessed "
                                                              "from the destination")
        operands = split_operands(rest)
        self.clause.fetches.append(FetchOp(
            line=lineno, number=number, opcode=opcode, known=known,
            bytes=self._fetch_bytes(name, operands[0] if operands else ""),
            gprs=register_indices(_GPR, operands, self.diags, lineno),
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


def _ranges(lines: list[int]) -> str:
    """``1-10, 40, 52-53`` for sorted line numbers."""
    parts: list[str] = []
    start = prev = lines[0]
    for n in [*lines[1:], -1]:
        if n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)


def read_cal(text: str, file: str, tables: Tables, generation: str, diags: Diagnostics) -> list[VliwProgram]:
    """The programs of a CAL dump, read with ``generation``'s slot rules."""
    name = PurePath(file).stem if file and not file.startswith("<") else "shader"
    return CalReader(tables, generation, diags).read(text, name)
