"""Registers addressed through an index: ``s_set_gpr_idx_on`` (gfx8/9 VGPR index mode) and the M0-relative
moves ``v_movrel*``/``s_movrel*``.

The register an indexed operand names is only the base: ``s_set_gpr_idx_on s2, gpr_idx(SRC0)`` followed
by ``v_mov_b32 v19, v1`` reads ``v[1 + s2]``. An indexed read therefore reads every register the index
may reach and an indexed write may write any of them (the others keep their values, so they stay live
through it: LLVM's MIR gives the same instructions the whole vector tuple as an implicit, tied operand).
The reach comes from the index register's bounds when a short chain of scalar instructions in the same
block proves them (``s_and_b32 s2, s1, 15`` gives 0..15), else it runs to the end of the addressable file.
Each such line gets a note naming the range: never a silent single-register read.

Facts: AMD "Vega ISA" reference guide, sections "VGPR Indexing" (S_SET_GPR_IDX_ON mode bits: SRC0 = 1,
SRC1 = 2, SRC2 = 4, DST = 8; the index is added to the operand's VGPR number) and "M0-relative moves"
(V_MOVRELS: VGPR[D] = VGPR[S + M0], V_MOVRELD: VGPR[D + M0] = S, V_MOVRELSD both); RDNA ISA guides for
the same moves on gfx10+ (no index mode there).
"""

from __future__ import annotations

import dataclasses
import re

from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.operands import ImmOperand, OtherOperand, RegOperand
from isalens.ir.registers import Reg, RegFile
from isalens.isa.amdgcn import semantics
from isalens.isa.amdgcn.mnemonics import without_size_suffix

_MODE_BITS = {"SRC0": 1, "SRC1": 2, "SRC2": 4, "DST": 8}
_GPR_IDX = re.compile(r"gpr_idx\(([^)]*)\)")
#: operand kind -> index into the instruction's sources (DST is the first operand)
_SRC_OF_BIT = {1: 0, 2: 1, 4: 2}


def _mode(ins: Instruction) -> int:
    """The index-mode bits an ``s_set_gpr_idx_on``/``_mode`` sets."""
    mode = 0
    for op in ins.operands[1:] if ins.mnemonic == "s_set_gpr_idx_on" else ins.operands:
        if isinstance(op, OtherOperand):
            m = _GPR_IDX.fullmatch(op.text.strip())
            if m:
                for name in m.group(1).split(","):
                    mode |= _MODE_BITS.get(name.strip().upper(), 0)
        elif isinstance(op, ImmOperand) and isinstance(op.value, int):
            mode |= op.value & 0xF
    return mode


def _imm(op: object) -> int | None:
    return op.value if isinstance(op, ImmOperand) and isinstance(op.value, int) else None


def _name(op: object) -> str | None:
    if isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].count == 1:
        return op.text.strip()
    return None


def _bounds_after(ins: Instruction, known: dict[str, tuple[int, int]]) -> tuple[str, tuple[int, int] | None] | None:
    """(written scalar, its bounds or None) for a 32-bit scalar write, else None."""
    if not ins.operands or not ins.mnemonic.startswith("s_"):
        return None
    dst = _name(ins.operands[0])
    if dst is None:
        return None
    srcs = ins.operands[1:]
    base = without_size_suffix(ins.mnemonic)

    def of(op: object) -> tuple[int, int] | None:
        value = _imm(op)
        if value is not None:
            return (value, value)
        name = _name(op)
        return known.get(name) if name else None

    result: tuple[int, int] | None = None
    if base in ("s_mov_b32", "s_movk_i32") and len(srcs) == 1:
        result = of(srcs[0])
    elif base == "s_and_b32" and len(srcs) == 2:
        for a, b in ((srcs[0], srcs[1]), (srcs[1], srcs[0])):
            mask = _imm(a)
            if mask is not None and mask >= 0:
                other = of(b)
                hi = min(mask, other[1]) if other and other[0] >= 0 else mask
                result = (0, hi)
                break
    elif base in ("s_add_i32", "s_add_u32") and len(srcs) == 2:
        x, y = of(srcs[0]), of(srcs[1])
        if x and y:
            result = (x[0] + y[0], x[1] + y[1])
    elif base == "s_lshl_b32" and len(srcs) == 2:
        x, shift = of(srcs[0]), _imm(srcs[1])
        if x and shift is not None and x[0] >= 0:
            result = (x[0] << shift, x[1] << shift)
    return dst, result


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """How many registers of each file the target can address."""

    vgprs: int
    sgprs: int


def _reach(op: RegOperand, bounds: tuple[int, int] | None, limits: Limits) -> Reg | None:
    if len(op.regs) != 1 or op.regs[0].file not in (RegFile.VGPR, RegFile.SGPR):
        return None
    reg = op.regs[0]
    top = (limits.vgprs if reg.file is RegFile.VGPR else limits.sgprs) - 1
    lo, hi = bounds if bounds is not None and bounds[0] >= 0 else (0, top)
    first = min(reg.index + lo, top)
    last = min(reg.index + hi + reg.count - 1, top)
    return Reg(reg.file, first, last - first + 1)


def _describe(index_name: str, bounds: tuple[int, int] | None) -> str:
    if bounds is None or bounds[0] < 0:
        return f"index {index_name} unknown: up to the end of the register file"
    return f"index {index_name} in [{bounds[0]}, {bounds[1]}]"


def apply_indexing(instructions: list[Instruction], generation: int, limits: Limits, block_starts: set[int]
                   ) -> list[tuple[int, str]]:
    """Widen indexed operands in ``instructions`` (replaced in place); return (index, note) per line.

    The semantics table's ``indexed`` field says how each M0-relative move uses its index: ``src``
    (reads through it), ``dst`` (writes through it), ``both`` or ``swap``. Index bounds are only
    trusted within a block (``block_starts``: labelled instructions).
    """
    kinds = {m: semantics.effect_of(m, generation).indexed for m in {ins.mnemonic for ins in instructions}}
    if not any(kinds.values()) and "s_set_gpr_idx_on" not in kinds and "s_set_gpr_idx_idx" not in kinds:
        return []  # nothing indexed: the common case costs one pass over the mnemonics
    indexed_kind = {ins.index: kind for ins in instructions if (kind := kinds[ins.mnemonic]) is not None}
    notes: list[tuple[int, str]] = []
    known: dict[str, tuple[int, int]] = {}
    masks: dict[str, int] = {}
    mode = 0
    index_name = ""
    index_bounds: tuple[int, int] | None = None
    for k, ins in enumerate(instructions):
        if k == 0 or k in block_starts or instructions[k - 1].branch is not BranchKind.NONE:
            known = {}
        base = ins.mnemonic
        if base == "s_set_gpr_idx_on":
            mode = _mode(ins)
            index_name = _name(ins.operands[0]) or ins.operands[0].text if ins.operands else "?"
            index_bounds = known.get(index_name)
        elif base == "s_set_gpr_idx_idx":
            index_name = _name(ins.operands[0]) or "?" if ins.operands else "?"
            index_bounds = known.get(index_name)
        elif base == "s_set_gpr_idx_mode":
            mode = _mode(ins)
        elif base == "s_set_gpr_idx_off":
            mode = 0
        elif mode and base.startswith("v_"):
            instructions[k], note = _widen_gpr_idx(ins, mode, index_bounds, limits)
            if note:
                notes.append((k, f"{note} ({_describe(index_name, index_bounds)})"))
        elif k in indexed_kind:
            m0 = known.get("m0")
            instructions[k], note = _widen_movrel(ins, indexed_kind[k], m0, limits)
            if note:
                notes.append((k, f"{note} ({_describe('m0', m0)})"))
        # forget the bounds of every scalar this instruction writes, then learn the one it computes
        if ins.defs:
            known = {n: b for n, b in known.items() if not masks[n] & ins.defs}
        written = _bounds_after(ins, known)
        if written is not None and written[1] is not None:
            known[written[0]] = written[1]
            masks[written[0]] = ins.operands[0].mask if isinstance(ins.operands[0], RegOperand) else 0
    return notes


def _widen(ins: Instruction, op: RegOperand, reach: Reg, write: bool) -> tuple[int, int]:
    defs, uses = ins.defs, ins.uses
    mask = reach.mask()
    if write:
        # one register of the range is written, which one is unknown: the others keep their values
        defs = (defs & ~op.mask) | mask
        uses |= mask
    else:
        uses |= mask
    return defs, uses


def _widen_gpr_idx(ins: Instruction, mode: int, bounds: tuple[int, int] | None, limits: Limits
                   ) -> tuple[Instruction, str]:
    regs = [(i, op) for i, op in enumerate(ins.operands) if isinstance(op, RegOperand)]
    if not regs:
        return ins, ""
    defs, uses = ins.defs, ins.uses
    parts: list[str] = []
    # DST is the first operand; sources are the operands after the destination(s) the instruction writes
    first_src = 1
    while first_src < len(ins.operands) and _is_written(ins, ins.operands[first_src]):
        first_src += 1
    targets: list[tuple[RegOperand, bool]] = []
    if mode & 8 and isinstance(ins.operands[0], RegOperand) and ins.operands[0].mask & ins.defs:
        targets.append((ins.operands[0], True))
    for bit, src in _SRC_OF_BIT.items():
        pos = first_src + src
        if mode & bit and pos < len(ins.operands):
            op = ins.operands[pos]
            if isinstance(op, RegOperand):
                targets.append((op, False))
    for op, write in targets:
        reach = _reach(op, bounds, limits)
        if reach is None or reach.file is not RegFile.VGPR:
            continue
        d, u = _widen(ins._replace(defs=defs, uses=uses), op, reach, write)
        defs, uses = d, u
        parts.append(f"{'writes one of' if write else 'reads'} {reach} through gpr_idx, not {op.text}")
    if not parts:
        return ins, ""
    return ins._replace(defs=defs, uses=uses), "; ".join(parts)


def _is_written(ins: Instruction, op: object) -> bool:
    return isinstance(op, RegOperand) and bool(op.mask & ins.defs) and not op.mask & ins.uses


def _widen_movrel(ins: Instruction, kind: str, bounds: tuple[int, int] | None, limits: Limits
                  ) -> tuple[Instruction, str]:
    ops = [op for op in ins.operands if isinstance(op, RegOperand)]
    if not ops:
        return ins, ""
    defs, uses = ins.defs, ins.uses
    parts: list[str] = []
    dst = ops[0]
    src = ops[1] if len(ops) > 1 and isinstance(ins.operands[1], RegOperand) else None
    plan: list[tuple[RegOperand, bool]] = []
    if kind in ("dst", "both", "swap"):
        plan.append((dst, True))
    if src is not None and kind in ("src", "both", "swap"):
        plan.append((src, kind == "swap"))
    for op, write in plan:
        reach = _reach(op, bounds, limits)
        if reach is None:
            continue
        defs, uses = _widen(ins._replace(defs=defs, uses=uses), op, reach, write)
        if write and kind == "swap":
            parts.append(f"swaps one of {reach} through m0")
        else:
            parts.append(f"{'writes one of' if write else 'reads'} {reach} through m0, not {op.text}")
    if not parts:
        return ins, ""
    return ins._replace(defs=defs, uses=uses), "; ".join(parts)
