"""LDS access: reads on provably related addresses that one ``ds_read2*`` would do, pairs whose distance
overflows ``ds_read2``'s 8-bit offsets, and bank conflicts that a padded stride removes.

Addresses are tracked per basic block as *symbol + constant*: adds and subtracts of constants and copies
keep the symbol, any other write starts a new one. Two reads of the same element size (4 or 8 bytes) on one
symbol, with no LDS write, atomic or barrier between them, read known addresses ``d`` bytes apart: with both
offsets multiples of the size and at most 255 units from the lower address register, ``ds_read2`` (or
``ds_read2st64`` for multiples of 64 units) reads both (domain.md §2: offsets in 4/8-byte units, 256/512 for
st64). Bank conflicts come from :func:`~isalens.analysis.stats.bank_conflict_degree` on the lane-linear
strides the statistics pass proved; the suggested padding adds one dword to the stride.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cache

from isalens.analysis.advice.model import Advice, AdviceInput
from isalens.analysis.stats import LdsAccess, bank_conflict_degree
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, RegOperand
from isalens.ir.registers import VGPR_MASK, RegFile, registers_in
from isalens.isa.amdgcn.mnemonics import without_size_suffix

KIND = "lds"
_DS_BYTES = 8  # every DS instruction is 8 bytes
_ADDS = ("v_add_u32", "v_add_nc_u32", "v_add_co_u32", "v_add_i32")
_SUBS = ("v_sub_u32", "v_sub_nc_u32", "v_sub_co_u32", "v_sub_i32")

Symbol = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class Pair:
    """Two reads ``first`` < ``second`` of ``size`` bytes at a known distance, and how they merge."""

    first: int
    second: int
    size: int
    distance: int
    merged: str | None


def _vgpr(op: object) -> int | None:
    if isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].file is RegFile.VGPR and op.regs[0].count == 1:
        return op.regs[0].index
    return None


def _const(op: object) -> int | None:
    if isinstance(op, ImmOperand) and isinstance(op.value, int):
        value = op.value & 0xFFFF_FFFF
        return value - (1 << 32) if value >= 1 << 31 else value
    return None


@cache
def _base(mnemonic: str) -> str:
    return without_size_suffix(mnemonic)


class _Addresses:
    """VGPR -> (symbol, constant) within one block."""

    def __init__(self, block: int) -> None:
        self.block = block
        self.known: dict[int, tuple[Symbol, int]] = {}
        self.version: dict[int, int] = {}

    def of(self, reg: int) -> tuple[Symbol, int]:
        return self.known.get(reg) or (("in", reg, self.version.get(reg, 0) * 1000 + self.block), 0)

    def step(self, ins: Instruction) -> None:
        base = _base(ins.mnemonic)
        ops = ins.operands
        dst = _vgpr(ops[0]) if ops else None
        value: tuple[Symbol, int] | None = None
        if dst is not None and len(ops) >= 3 and base in _ADDS + _SUBS:
            a, b = ops[-2], ops[-1]
            for reg_op, const_op, sign in ((a, b, 1), (b, a, 1)) if base in _ADDS else ((a, b, -1),):
                r, c = _vgpr(reg_op), _const(const_op)
                if r is not None and c is not None:
                    sym, off = self.of(r)
                    value = (sym, off + sign * c)
                    break
        elif dst is not None and base == "v_mov_b32" and len(ops) == 2 and _vgpr(ops[1]) is not None:
            value = self.of(_vgpr(ops[1]) or 0)
        for reg in registers_in(ins.defs & VGPR_MASK, RegFile.VGPR):
            self.known.pop(reg, None)
            self.version[reg] = self.version.get(reg, 0) + 1
        if dst is not None and value is not None:
            self.known[dst] = value
        elif dst is not None and ins.defs >> (2 * dst) & 3:
            self.known[dst] = (("def", ins.index, dst), 0)


def _merge(size: int, low_offset: int, distance: int) -> str | None:
    """The ``ds_read2`` form reading ``low_offset`` and ``low_offset + distance`` bytes from one register."""
    suffix = "b32" if size == 4 else "b64"
    lo, hi = low_offset, low_offset + distance
    if lo % size == 0 and hi % size == 0 and 0 <= lo // size <= 255 and hi // size <= 255:
        return f"ds_read2_{suffix} offset0:{lo // size} offset1:{hi // size}"
    wide = 64 * size
    if lo % wide == 0 and hi % wide == 0 and 0 <= lo // wide <= 255 and hi // wide <= 255:
        return f"ds_read2st64_{suffix} offset0:{lo // wide} offset1:{hi // wide}"
    return None


def pairs(inp: AdviceInput) -> list[Pair]:
    """Reads of one size on one address symbol with nothing that may write LDS between them."""
    result = inp.analysis
    ins = result.kernel.instructions
    access = {a.index: a for a in inp.stats.lds_accesses}
    reads = sorted(a.index for a in inp.stats.lds_accesses if a.form == "read")
    out: list[Pair] = []
    for block in result.cfg.blocks:
        k = bisect_left(reads, block.start)
        if k == len(reads) or reads[k] >= block.end:
            continue  # no LDS read in this block: nothing to pair (addresses are tracked per block)
        addr = _Addresses(block.index)
        open_reads: list[tuple[int, Symbol, int, int]] = []  # (index, symbol, byte address, size)
        for i in range(block.start, block.end):
            a = access.get(i)
            if a is not None and a.form == "read" and a.element_bytes in (4, 8) and len(ins[i].operands) >= 2 \
                    and not ins[i].mnemonic.endswith(("_d16", "_d16_hi")):
                reg = _vgpr(ins[i].operands[1])
                if reg is not None:
                    sym, c = addr.of(reg)
                    here = c + a.offsets[0]
                    for j, (k, s, other, size) in enumerate(open_reads):
                        if s == sym and size == a.element_bytes and here != other:
                            lo_off = access[k].offsets[0] if other < here else a.offsets[0]
                            merged = _merge(size, lo_off, abs(here - other))
                            out.append(Pair(k, i, size, abs(here - other), merged))
                            del open_reads[j]
                            break
                    else:
                        open_reads.append((i, sym, here, a.element_bytes))
            elif a is not None or ins[i].mnemonic.startswith(("s_barrier", "ds_", "buffer_", "flat_")):
                open_reads.clear()  # may write LDS (or order it against other waves)
            addr.step(ins[i])
    return out


def _conflicts(inp: AdviceInput) -> list[Advice]:
    ins = inp.analysis.kernel.instructions
    out = []
    for a in inp.stats.lds_accesses:
        # a zero stride is one address for every lane (a broadcast): padding rows changes nothing
        if a.conflict_degree is None or a.conflict_degree <= 1 or not a.lane_stride:
            continue
        padded = bank_conflict_degree(a.lane_stride + 4, a.offsets, a.element_bytes)
        if padded >= a.conflict_degree:
            continue
        out.append(Advice(
            KIND, (a.line,),
            f"line {a.line} `{ins[a.index].text}`: lanes are {a.lane_stride} bytes apart, so one bank serves "
            f"{a.conflict_degree} dwords per 32-lane pass ({_basis(a)}); padding each row by one dword (stride "
            f"{a.lane_stride + 4}) leaves {padded}",
            {"lds_conflict_degree": (float(a.conflict_degree), float(padded))},
            facts={"stride": a.lane_stride, "padded_stride": a.lane_stride + 4}))
    return out


def _basis(a: LdsAccess) -> str:
    return "lane id from mbcnt" if a.basis == "mbcnt" else "lane-linear in the work-item id"


def detect(inp: AdviceInput) -> list[Advice]:
    """Merges (one item per kernel), overflowing pairs, then bank conflicts."""
    ins = inp.analysis.kernel.instructions
    found = pairs(inp)
    merges = [p for p in found if p.merged]
    reads = sum(1 for a in inp.stats.lds_accesses if a.form.startswith("read"))
    out = []
    if merges:
        shown = "; ".join(f"lines {ins[p.first].line}+{ins[p.second].line} ({p.distance} bytes apart) -> "
                          f"`{p.merged}`" for p in merges[:6])
        more = f" and {len(merges) - 6} more" if len(merges) > 6 else ""
        out.append(Advice(
            KIND, tuple(sorted({ins[i].line for p in merges for i in (p.first, p.second)})),
            f"{len(merges)} pair(s) of LDS reads on provably related addresses with no LDS write between: "
            f"{shown}{more}: {reads} -> {reads - len(merges)} LDS reads, {_DS_BYTES * len(merges)} bytes less code",
            {"lds_reads": (float(reads), float(reads - len(merges))),
             "code_bytes": (float(inp.stats.code_bytes), float(inp.stats.code_bytes - _DS_BYTES * len(merges)))},
            facts={"merges": len(merges)}))
    for p in (p for p in found if not p.merged):
        units = p.distance // p.size
        out.append(Advice(
            KIND, (ins[p.first].line, ins[p.second].line),
            f"lines {ins[p.first].line} and {ins[p.second].line} read {p.distance} bytes apart ({units} elements of "
            f"{p.size} bytes): beyond ds_read2's 8-bit offsets (255 elements, or multiples of 64 with st64), so they "
            "stay two reads; a layout that keeps them within 255 elements merges them",
            {"lds_reads_for_pair": (2.0, 1.0)}, facts={"distance": p.distance}))
    return out + _conflicts(inp)
