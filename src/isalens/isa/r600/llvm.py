"""Reader for LLVM's r600 assembly (``clang -target r600 -mcpu=cypress|cayman|... -S``).

Per function: a control-flow list (``ALU 17, @22, KC0[CB0:0-32], KC1[]``, ``TEX 1 @18``,
``LOOP_START_DX10 @10``, ``JUMP @11 POP:1``, ``MEM_RAT_CACHELESS STORE_RAW ...``, ``CF_END``, ``PAD``),
then the clause bodies (``Fetch clause starting at 18:``, ``ALU clause starting at 22:``). In an ALU
body a ``*`` after the opcode ends an instruction group; a line of two numbers such as
``4(5.605194e-45), 0(0.000000e+00)`` is one 64-bit literal slot of the group before it. ``ALU n``
declares n + 1 slots (literal slots included) and ``TEX n`` n + 1 fetches. LLVM prints GPRs as
``T<n>.<chan>``; it does not print slots, so the slot is recovered as domain.md §2 says: the
destination channel, unless the operation is trans-only or its channel is not above the previous
operation's (then t). Cayman has no t: the channel is the slot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from isalens.ir.vliw import AluGroup, AluOp, Clause, ClauseKind, FetchOp, Unit, VliwProgram
from isalens.isa.r600.common import CHANNELS, Diagnostics, register_indices, show, split_operands
from isalens.isa.r600.rules import Tables
from isalens.lines import lines_of

_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):")
_BODY = re.compile(r"^\s*(ALU|Fetch) clause starting at ([0-9]{1,9}):\s*$")
# lines are right-stripped first, so the operands need no lazy match before trailing blanks (quadratic)
_INSTR = re.compile(r"^\s+([A-Z][A-Z0-9_]*)\b\s*(\*)?\s*(.*)$")
_LITERAL_LINE = re.compile(r"^\s*-?\d+\([^)]*\),\s*-?\d+\([^)]*\)\s*$")
# at most 9 digits: a longer number does not match and becomes a diagnostic, never a huge int()
_COUNT_ADDR = re.compile(r"^([0-9]{1,9}),?\s*@([0-9]{1,9})(?![0-9])")
_ADDR = re.compile(r"@([0-9]{1,9})(?![0-9])")
_GPR = re.compile(r"(?<![A-Za-z0-9_])T([0-9]+)(?![0-9])")
_LONG = re.compile(r"^\s*\.long\s+(-?[0-9]{1,12})(?![0-9])")
_SECTION = re.compile(r"^\s*\.(section|text|data)\b(.*)$")
_CHANNEL = re.compile(r"\.([XYZW])$")
_PRED_DST = re.compile(r"^(?:ExecMask|Pred),PredicateBit")

# SQ_PGM_RESOURCES registers whose low byte is NUM_GPRS (LLVM R600AsmPrinter::EmitProgramInfoR600
# writes S_NUM_GPRS(MaxGPR + 1) into the PS/VS/GS/LS resource register; R600Defines.h gives the
# addresses: 0x028850 PS and 0x028868 VS on R600/R700, 0x028844 PS, 0x028860 VS, 0x028878 GS and
# 0x0288D4 LS on Evergreen and later).
_PGM_RESOURCES = frozenset({0x028850, 0x028868, 0x028844, 0x028860, 0x028878, 0x0288D4})


@dataclass
class _RawOp:
    line: int
    opcode: str
    name: str
    known: bool
    channel: int | None
    masked: bool
    operands: tuple[str, ...]


@dataclass
class _RawGroup:
    line: int
    ops: list[_RawOp] = field(default_factory=list)
    literal_lines: int = 0
    closed: bool = False


@dataclass
class _RawCf:
    line: int
    index: int
    opcode: str
    rest: str


@dataclass
class _RawFunction:
    name: str
    line: int
    config: list[int]
    cf: list[_RawCf] = field(default_factory=list)
    alu: dict[int, list[_RawGroup]] = field(default_factory=dict)
    fetch: dict[int, list[FetchOp]] = field(default_factory=dict)

    def declared_gprs(self) -> int | None:
        pairs = zip(self.config[0::2], self.config[1::2], strict=False)
        values = [value & 0xFF for reg, value in pairs if reg in _PGM_RESOURCES]
        return max(values) if values else None


class LlvmReader:
    """Reads the functions of one r600 assembly file into raw form, then into programs."""

    def __init__(self, tables: Tables, diags: Diagnostics) -> None:
        self.tables = tables
        self.diags = diags
        self.functions: list[_RawFunction] = []

    # ------------------------------------------------------------------ pass 1: text -> raw functions
    def scan(self, text: str) -> None:
        label: tuple[str, int] | None = None
        config: list[int] = []
        in_config = False
        func: _RawFunction | None = None
        body: tuple[str, int] | None = None
        for lineno, raw in enumerate(lines_of(text), start=1):
            line = raw.split(";", 1)[0].rstrip()
            if not line.strip():
                continue
            if m := _SECTION.match(line):
                in_config = ".AMDGPU.config" in m.group(2)
                if in_config:
                    config = []
                continue
            if in_config:
                if m := _LONG.match(line):
                    config.append(int(m.group(1)) & 0xFFFFFFFF)
                else:
                    self.diags.warning("vliw-unparsed-line", lineno, f"expected '.long <register or value>' in "
                                                                     f".AMDGPU.config, not {show(line)}")
                continue
            if m := _LABEL.match(line):
                name = m.group(1)
                if name.startswith(".Lfunc_end"):
                    label, func, body = None, None, None
                if name.startswith(".L") or name.endswith("$local"):
                    continue
                label, func, body = (name, lineno), None, None
                continue
            if line.lstrip().startswith("."):
                continue
            if m := _BODY.match(line):
                if func is None:
                    self.diags.error("vliw-syntax", lineno, "clause body outside a function")
                    continue
                body = (m.group(1), int(m.group(2)))
                if body[0] == "ALU":
                    func.alu[body[1]] = []
                else:
                    func.fetch[body[1]] = []
                continue
            m = _INSTR.match(line) if not _LITERAL_LINE.match(line) else None
            if func is None and m is not None and label is not None:
                func = _RawFunction(label[0], label[1], config)
                self.functions.append(func)
                config = []
            if func is None:
                # outside a function only labels, directives and comments are expected
                self.diags.warning("vliw-unparsed-line", lineno, f"cannot read this line outside a function: "
                                                                 f"{show(line)}")
                continue
            if body is None:
                if m is None:
                    self.diags.warning("vliw-unparsed-line", lineno, f"cannot read control-flow line {show(line)}")
                    continue
                func.cf.append(_RawCf(lineno, len(func.cf), m.group(1), f"{m.group(2) or ''}{m.group(3)}".strip()))
            elif body[0] == "ALU":
                self._alu_line(func.alu[body[1]], line, lineno, m)
            else:
                self._fetch_line(func.fetch[body[1]], line, lineno, m)

    def _alu_line(self, groups: list[_RawGroup], line: str, lineno: int, m: re.Match[str] | None) -> None:
        if _LITERAL_LINE.match(line):
            if not groups or not groups[-1].closed:
                self.diags.error("vliw-syntax", lineno, "literal line without an instruction group before it")
                return
            groups[-1].literal_lines += 1
            return
        if m is None:
            self.diags.warning("vliw-unparsed-line", lineno, f"cannot read ALU line {show(line)}")
            return
        if not groups or groups[-1].closed:
            groups.append(_RawGroup(lineno))
        group = groups[-1]
        opcode, last, rest = m.group(1), m.group(2), m.group(3)
        name, known = self.tables.alu_name(opcode)
        if not known and name.endswith("_SAT"):
            # LLVM prints the clamp bit as a _SAT suffix on the opcode
            name, known = self.tables.alu_name(name[:-4])
        if not known:
            self.diags.warning("vliw-unknown-opcode", lineno,
                               f"unknown ALU operation {opcode}; its slot is guessed from the destination channel")
        operands, masked = _operands(_PRED_DST.sub("PredicateBit", rest))
        channel: int | None = None
        if name not in self.tables.no_dst and operands and (c := _CHANNEL.search(operands[0])):
            channel = CHANNELS.index(c.group(1).lower())
        group.ops.append(_RawOp(lineno, opcode, name, known, channel, masked, tuple(operands)))
        if last or name in self.tables.ends_group:
            group.closed = True

    def _fetch_line(self, fetches: list[FetchOp], line: str, lineno: int, m: re.Match[str] | None) -> None:
        if m is None:
            self.diags.warning("vliw-unparsed-line", lineno, f"cannot read fetch line {show(line)}")
            return
        opcode, rest = m.group(1), m.group(3)
        name, known = self.tables.fetch_name(opcode)
        if not known:
            self.diags.warning("vliw-unknown-opcode", lineno, f"unknown fetch {opcode}; its bytes are guessed "
                                                              "from the destination")
        operands = split_operands(rest)
        dst = operands[0] if operands else ""
        if name in self.tables.fetch_bytes:
            nbytes = self.tables.fetch_bytes[name]
        elif name in self.tables.fetch_no_memory:
            nbytes = 0
        else:
            chans = dst.split(".", 1)[1] if "." in dst else "XYZW"
            nbytes = 4 * sum(1 for ch in chans if ch in "XYZW")
        fetches.append(FetchOp(line=lineno, number=None, opcode=opcode, known=known, bytes=nbytes,
                               gprs=register_indices(_GPR, operands, self.diags, lineno)))

    # ------------------------------------------------------------------ pass 2: raw -> programs
    def is_cayman(self) -> bool:
        """Cayman replicates trans-only work over x/y/z/w, so such an operation appears twice in one group
        or before the group's last operation; a VLIW5 compiler puts it last, once."""
        for func in self.functions:
            for groups in func.alu.values():
                for group in groups:
                    trans = [i for i, op in enumerate(group.ops)
                             if self.tables.unit("evergreen", op.name) is Unit.TRANS]
                    if len(trans) > 1 or (trans and trans[-1] != len(group.ops) - 1):
                        return True
        return False

    def programs(self, generation: str) -> list[VliwProgram]:
        width = self.tables.widths[generation]
        return [self._program(func, generation, width) for func in self.functions]

    def _program(self, func: _RawFunction, generation: str, width: int) -> VliwProgram:
        clauses: list[Clause] = []
        for cf in func.cf:
            info = self.tables.cf(cf.opcode)
            if not info.known:
                self.diags.warning("vliw-unknown-cf", cf.line, f"unknown control-flow instruction {cf.opcode}; "
                                                               "treated as plain control flow")
            kind = ClauseKind(info.kind)
            count: int | None = None
            addr: int | None = None
            if m := _COUNT_ADDR.match(cf.rest):
                count, addr = int(m.group(1)), int(m.group(2))
            elif m2 := _ADDR.search(cf.rest):
                addr = int(m2.group(1))
            groups: tuple[AluGroup, ...] = ()
            fetches: tuple[FetchOp, ...] = ()
            if kind is not ClauseKind.CF:
                if count is None or addr is None:
                    self.diags.error("vliw-syntax", cf.line, f"{cf.opcode} without a count and @address")
                elif kind is ClauseKind.ALU:
                    if addr not in func.alu:
                        self.diags.error("vliw-missing-clause", cf.line, f"no 'ALU clause starting at {addr}'")
                    groups = tuple(self._group(g, generation, width) for g in func.alu.get(addr, []))
                else:
                    if addr not in func.fetch:
                        self.diags.error("vliw-missing-clause", cf.line, f"no 'Fetch clause starting at {addr}'")
                    fetches = tuple(func.fetch.get(addr, []))
            clauses.append(Clause(
                line=cf.line, index=cf.index, opcode=cf.opcode, kind=kind, flow=info.flow, addr=addr, count=count,
                declared=None if count is None else count + 1, groups=groups, fetches=fetches,
                gprs=register_indices(_GPR, [cf.rest], self.diags, cf.line) if kind is ClauseKind.CF else (),
            ))
        return VliwProgram(name=func.name, line=func.line, clauses=tuple(clauses),
                           declared_gprs=func.declared_gprs())

    def _group(self, raw: _RawGroup, generation: str, width: int) -> AluGroup:
        if not raw.closed:
            self.diags.warning("vliw-syntax", raw.ops[-1].line if raw.ops else raw.line,
                               "instruction group not ended by '*' before the end of the clause")
        ops: list[AluOp] = []
        previous: int | None = None
        for op in raw.ops:
            unit = self.tables.unit(generation, op.name) if op.known else Unit.ANY
            channel = op.channel if op.channel is not None else 0  # no destination channel: x
            if width == 4:
                slot = CHANNELS[channel]
            elif unit is Unit.TRANS or (previous is not None and channel <= previous):
                slot = "t"
            else:
                slot = CHANNELS[channel]
                previous = channel
            ops.append(AluOp(
                line=op.line, slot=slot, opcode=op.opcode, name=op.name, unit=unit, known=op.known,
                mad=op.name in self.tables.mad, masked=op.masked, operands=op.operands,
                gprs=register_indices(_GPR, op.operands, self.diags, op.line), temps=(), slot_guessed=True,
            ))
        return AluGroup(line=raw.line, number=None, ops=tuple(ops), literal_slots=raw.literal_lines)


def _operands(rest: str) -> tuple[list[str], bool]:
    """Operands without LLVM's flags (``Pred_sel_zero``, ``BS:VEC_120/SCL_212``), and whether the
    destination is write-masked (``(MASKED)``)."""
    masked = False
    operands: list[str] = []
    for part in split_operands(rest):
        words = part.split()
        kept = []
        for word in words:
            if word == "(MASKED)":
                masked = True
            elif not (word.startswith(("BS:", "Pred_sel")) or word in {"CLAMP"}):
                kept.append(word)
        if kept:
            operands.append(" ".join(kept))
    return operands, masked

