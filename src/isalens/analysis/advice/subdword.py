"""Sub-dword sequences: shifts that only move a 16-bit half into place for a 16-bit op, which one SDWA
(gfx8-gfx10.3) or ``op_sel`` (VOP3, gfx9+) instruction does in place.

* **extract**: ``v_lshrrev_b32 t, 16, x`` read only by a 16-bit op ``O`` -> ``O`` reads ``x``'s high half
  (SDWA ``src_sel:WORD_1`` for VOP1/VOP2, ``op_sel`` for native VOP3).
* **pack**: ``v_pack_b32_f16 d, lo, hi`` where ``lo = OP(a, b)`` and ``hi = OP(a >> 16, b >> 16)`` (the same
  op, each result read only by the pack) -> ``v_pk_OP d, a, b`` (gfx9+), when OP has a packed form.
* **insert**: ``v_lshlrev_b32 t, 16, y`` + ``v_or_b32 d, z, t`` where ``y`` comes from a VOP1/VOP2 16-bit op
  and ``z`` from another 16-bit op (gfx8/gfx9 16-bit ops zero the high half, which is why the compiler ORs
  without a mask) -> the op writes the high half of ``z``'s register (SDWA ``dst_sel:WORD_1
  dst_unused:UNUSED_PRESERVE``), dropping the shift and the OR.

Bytes come from the instructions' own sizes and the 8-byte SDWA/VOP3 encodings; the issue count is the
instructions removed (one VALU issue each). §1.2 of the domain notes: 20-36 bytes emulated vs 12 with SDWA.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from isalens.analysis.advice.model import Advice, AdviceInput, PassResults
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, RegOperand
from isalens.ir.registers import Reg, RegFile
from isalens.isa.amdgcn.mnemonics import without_size_suffix

KIND = "subdword"
#: the last type token names the source type: 16-bit sources (v_cvt_f32_f16 reads an f16)
_SIXTEEN = re.compile(r"_(f16|u16|i16|b16)(_e32|_e64)?$")
_WIDE = 8  # bytes of an SDWA or VOP3 instruction without a literal


@dataclass(frozen=True, slots=True)
class Fold:
    """One sequence and the instruction replacing it."""

    removed: tuple[int, ...]
    target: int
    replacement: str
    form: str
    bytes_before: int
    bytes_after: int


def _vgpr(op: object) -> int | None:
    if isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].file is RegFile.VGPR \
            and op.regs[0].count == 1 and not op.neg and not op.abs and "." not in op.text:
        return op.regs[0].index
    return None


def _shift16(ins: Instruction, name: str) -> tuple[int, int] | None:
    """(dst, src) VGPRs of ``name dst, 16, src``."""
    base = without_size_suffix(ins.mnemonic)
    ops = ins.operands
    if base != name or len(ops) != 3 or not isinstance(ops[1], ImmOperand) or ops[1].value != 16:
        return None
    dst, src = _vgpr(ops[0]), _vgpr(ops[2])
    return None if dst is None or src is None else (dst, src)


def _only_reader(result: PassResults, d: int, reg: int, end: int) -> int | None:
    """The one instruction in ``d+1..end`` that reads ``reg`` (written at ``d``), when the value dies there."""
    ins = result.kernel.instructions
    mask = Reg(RegFile.VGPR, reg).mask()
    reader = None
    for i in range(d + 1, min(end + 1, len(ins))):
        if ins[i].uses & mask:
            if reader is not None:
                return None
            reader = i
            if result.liveness.live_out[i] & mask and not ins[i].defs & mask:
                return None
        elif ins[i].defs & mask:
            break
    return reader


def _unchanged(result: PassResults, reg: int, start: int, end: int) -> bool:
    mask = Reg(RegFile.VGPR, reg).mask()
    return not any(result.kernel.instructions[i].defs & mask for i in range(start + 1, end))


def _sizes(inp: AdviceInput, *indices: int) -> int:
    return sum(inp.analysis.kernel.instructions[i].facts.size for i in indices)


def _sources_ok(ins: Instruction, generation: int) -> bool:
    # SDWA reads VGPRs only on gfx8; gfx9+ also SGPRs and inline constants (never a literal)
    for op in ins.operands[1:]:
        if isinstance(op, RegOperand):
            if _vgpr(op) is None and (generation < 9 or any(r.file is not RegFile.SGPR for r in op.regs)):
                return False
        elif isinstance(op, ImmOperand):
            if op.literal or generation < 9:
                return False
        else:
            return False
    return True


def _sdwa(ins: Instruction, sels: list[str], srcs: list[str], dst: str, dst_sel: str, unused: str) -> str:
    base = ins.mnemonic.removesuffix("_e32")
    sel = " ".join(f"src{k}_sel:{s}" for k, s in enumerate(sels))
    return f"{base}_sdwa {dst}, {', '.join(srcs)} dst_sel:{dst_sel} dst_unused:{unused} {sel}"


def _extract(inp: AdviceInput, o: int, block_start: int) -> Fold | None:
    result, arch = inp.analysis, inp.analysis.arch
    ins = result.kernel.instructions
    op = ins[o]
    if not _SIXTEEN.search(op.mnemonic) or op.mnemonic.startswith("v_pk_") or op.modifiers \
            or "literal" in op.facts.constants:
        return None
    srcs = [x.text for x in op.operands[1:]]
    sels = ["WORD_0"] * len(srcs)
    removed = []
    for k, src in enumerate(op.operands[1:]):
        v = _vgpr(src)
        if v is None:
            continue
        d = next((i for i in range(o - 1, block_start - 1, -1) if ins[i].defs & Reg(RegFile.VGPR, v).mask()), None)
        if d is None:
            continue
        shift = _shift16(ins[d], "v_lshrrev_b32")
        if shift is None or _only_reader(result, d, v, o) != o or not _unchanged(result, shift[1], d, o):
            continue
        srcs[k] = f"v{shift[1]}"
        sels[k] = "WORD_1"
        removed.append(d)
    if not removed:
        return None
    size = op.facts.size
    dst = op.operands[0].text
    if size == 4 and arch.has_sdwa and _vgpr(op.operands[0]) is not None and _sources_ok(op, arch.generation):
        text = _sdwa(op, sels, srcs, dst, "DWORD", "UNUSED_PAD")
        form = "sdwa"
    elif size == _WIDE and not op.mnemonic.endswith("_e64") and arch.generation >= 9:
        bits = [1 if s == "WORD_1" else 0 for s in sels] + [0]
        text = f"{op.mnemonic} {dst}, {', '.join(srcs)} op_sel:[{','.join(map(str, bits))}]"
        form = "op_sel"
    else:
        return None
    return Fold(tuple(sorted(removed)), o, text, form, _sizes(inp, *removed, o), _WIDE)


def _insert(inp: AdviceInput, orr: int, block_start: int) -> Fold | None:
    """``v_or_b32 d, z, (y << 16)`` with ``y`` and ``z`` from 16-bit ops (gfx8/gfx9, SDWA)."""
    result, arch = inp.analysis, inp.analysis.arch
    ins = result.kernel.instructions
    orr_base = without_size_suffix(ins[orr].mnemonic)
    if not arch.has_sdwa or arch.generation > 9 or orr_base != "v_or_b32":
        return None
    ops = ins[orr].operands
    if len(ops) != 3:
        return None

    def writer(v: int) -> int | None:
        mask = Reg(RegFile.VGPR, v).mask()
        return next((i for i in range(orr - 1, block_start - 1, -1) if ins[i].defs & mask), None)

    for a, b in ((1, 2), (2, 1)):
        t, z = _vgpr(ops[a]), _vgpr(ops[b])
        if t is None or z is None:
            continue
        s = writer(t)
        if s is None or (shift := _shift16(ins[s], "v_lshlrev_b32")) is None:
            continue
        o = writer(shift[1])
        zd = writer(z)
        if o is None or zd is None or _only_reader(result, s, t, orr) != orr \
                or _only_reader(result, o, shift[1], s) != s or _only_reader(result, zd, z, orr) != orr:
            continue
        op, zop = ins[o], ins[zd]
        if not (_SIXTEEN.search(op.mnemonic) and _SIXTEEN.search(zop.mnemonic)) or op.mnemonic.startswith("v_pk_") \
                or op.modifiers or op.facts.size != 4 or _vgpr(op.operands[0]) is None \
                or not _sources_ok(op, arch.generation) or not _unchanged(result, z, zd, orr):
            continue
        if any(ins[i].uses & Reg(RegFile.VGPR, z).mask() for i in range(o, orr)) and zd > o:
            continue
        srcs = [x.text for x in op.operands[1:]]
        text = _sdwa(op, ["WORD_0"] * len(srcs), srcs, f"v{z}", "WORD_1", "UNUSED_PRESERVE")
        return Fold((o, s, orr), o, text, "sdwa", _sizes(inp, o, s, orr), _WIDE)
    return None


#: 16-bit ops and their packed (VOP3P) forms
PACKED = {
    "v_add_f16": "v_pk_add_f16", "v_mul_f16": "v_pk_mul_f16", "v_fma_f16": "v_pk_fma_f16",
    "v_max_f16": "v_pk_max_f16", "v_min_f16": "v_pk_min_f16", "v_add_u16": "v_pk_add_u16",
    "v_sub_u16": "v_pk_sub_u16", "v_mul_lo_u16": "v_pk_mul_lo_u16", "v_max_u16": "v_pk_max_u16",
    "v_max_i16": "v_pk_max_i16", "v_min_u16": "v_pk_min_u16", "v_min_i16": "v_pk_min_i16",
    "v_lshlrev_b16": "v_pk_lshlrev_b16", "v_lshrrev_b16": "v_pk_lshrrev_b16", "v_ashrrev_i16": "v_pk_ashrrev_i16",
    "v_mad_u16": "v_pk_mad_u16",
}


def _pack(inp: AdviceInput, p: int, block_start: int) -> Fold | None:
    """``v_pack_b32_f16 d, OP(a, b), OP(a >> 16, b >> 16)`` -> ``v_pk_OP d, a, b``."""
    result, arch = inp.analysis, inp.analysis.arch
    ins = result.kernel.instructions
    pack = ins[p]
    if arch.generation < 9 or pack.mnemonic != "v_pack_b32_f16" or pack.modifiers or len(pack.operands) != 3:
        return None
    lo_reg, hi_reg = _vgpr(pack.operands[1]), _vgpr(pack.operands[2])
    if lo_reg is None or hi_reg is None or lo_reg == hi_reg:
        return None

    def writer(v: int, before: int) -> int | None:
        mask = Reg(RegFile.VGPR, v).mask()
        return next((i for i in range(before - 1, block_start - 1, -1) if ins[i].defs & mask), None)

    lo, hi = writer(lo_reg, p), writer(hi_reg, p)
    if lo is None or hi is None or _only_reader(result, lo, lo_reg, p) != p or _only_reader(result, hi, hi_reg, p) != p:
        return None
    lo_op, hi_op = ins[lo], ins[hi]
    base = without_size_suffix(lo_op.mnemonic)
    if base != without_size_suffix(hi_op.mnemonic) or base not in PACKED or lo_op.modifiers \
            or hi_op.modifiers or len(lo_op.operands) != len(hi_op.operands):
        return None
    srcs, sel_hi, removed = [], [], [lo, hi, p]
    for a, b in zip(lo_op.operands[1:], hi_op.operands[1:], strict=True):
        ra, rb = _vgpr(a), _vgpr(b)
        if ra is not None and rb is not None:
            d = writer(rb, hi)
            shift = _shift16(ins[d], "v_lshrrev_b32") if d is not None else None
            if shift is None or shift[1] != ra or _only_reader(result, d or 0, rb, hi) != hi \
                    or not _unchanged(result, ra, min(d or 0, lo), max(lo, hi)):
                return None
            srcs.append(a.text)
            sel_hi.append(1)
            removed.append(d or 0)
        elif isinstance(a, RegOperand) and isinstance(b, RegOperand) and a.text == b.text \
                and all(r.file is RegFile.SGPR for r in a.regs):
            srcs.append(a.text)  # the same scalar for both halves: its low half twice
            sel_hi.append(0)
        else:
            return None
    mods = "" if all(sel_hi) else f" op_sel_hi:[{','.join(map(str, sel_hi))}]"
    text = f"{PACKED[base]} {pack.operands[0].text}, {', '.join(srcs)}{mods}"
    removed = sorted(set(removed))
    return Fold(tuple(removed), p, text, "packed", _sizes(inp, *removed), _WIDE)


#: per finder, a test on the mnemonic alone that every line it can fold at passes (each finder's own first
#: check): the walk calls a finder only at such lines, not at every line of the kernel three times
_MAY_FOLD_AT: tuple[tuple[Callable[[AdviceInput, int, int], Fold | None], Callable[[str], bool]], ...] = (
    (_pack, lambda m: m == "v_pack_b32_f16"),
    (_insert, lambda m: without_size_suffix(m) == "v_or_b32"),
    (_extract, lambda m: _SIXTEEN.search(m) is not None and not m.startswith("v_pk_")),
)


def folds(inp: AdviceInput) -> list[Fold]:
    """Every pack, insert and extract sequence one instruction would do (the widest first: a pack would
    otherwise lose its high-half op to an extract)."""
    graph = inp.analysis.cfg
    mnemonics = [ins.mnemonic for ins in inp.analysis.kernel.instructions]
    distinct = set(mnemonics)
    blocks = graph.blocks
    out = []
    taken: set[int] = set()
    for finder, may_fold in _MAY_FOLD_AT:
        gate = {m for m in distinct if may_fold(m)}
        if not gate:
            continue
        # the lines in the order of a walk over the blocks, each block's lines in order
        at = sorted((graph.block_of[i], i) for i, m in enumerate(mnemonics) if m in gate)
        for b, i in at:
            block = blocks[b]
            if not block.start <= i < block.end:
                continue
            fold = finder(inp, i, block.start)
            if fold is not None and not taken & {*fold.removed, fold.target}:
                out.append(fold)
                taken |= {*fold.removed, fold.target}
    return sorted(out, key=lambda f: f.target)


def detect(inp: AdviceInput) -> list[Advice]:
    """One item per sequence."""
    ins = inp.analysis.kernel.instructions
    out = []
    for fold in folds(inp):
        seq = [*fold.removed, fold.target] if fold.target not in fold.removed else list(fold.removed)
        seq = sorted(set(seq))
        shown = "; ".join(f"line {ins[i].line} `{ins[i].text}`" for i in seq)
        form = {"sdwa": "SDWA", "op_sel": "op_sel", "packed": "packed (v_pk_*)"}[fold.form]
        message = (f"{len(seq)} instructions ({shown}) only move 16-bit halves around one op; one "
                   f"{form} instruction does it: `{fold.replacement}`"
                   + (" (its result lands in the high half of the preserved register)" if "PRESERVE" in fold.replacement
                      else "")
                   + f": {len(seq)} -> 1 VALU issues, {fold.bytes_before} -> {fold.bytes_after} bytes")
        out.append(Advice(KIND, tuple(ins[i].line for i in seq), message,
                          {"valu_instructions": (float(len(seq)), 1.0),
                           "code_bytes": (float(fold.bytes_before), float(fold.bytes_after))},
                          facts={"form": fold.form, "replacement": fold.replacement}))
    return out
