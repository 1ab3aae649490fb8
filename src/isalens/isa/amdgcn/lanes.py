"""Which source units each 16-bit half of a VGPR result is computed from.

Most instructions compute their whole result from all their sources. A few compute the two 16-bit halves
of a 32-bit VGPR result separately (ISA reference guides, VOP3P and VOP3 descriptions):

* packed 16-bit VOP3P operations (``v_pk_add_f16``, ``v_pk_fma_f16``, ``v_pk_mul_lo_u16`` ...):
  ``D[15:0] = op(S0[sel lo], S1[sel lo], ...)`` and ``D[31:16] = op(S0[sel hi], ...)``, where ``op_sel[k]``
  picks the half of source ``k`` for the low result and ``op_sel_hi[k]`` (default 1) for the high one;
* ``v_alignbit_b32 D, S0, S1, 16`` (``D = ({S0, S1} >> 16)[31:0]``): ``D[15:0] = S1[31:16]``,
  ``D[31:16] = S0[15:0]``; ``v_alignbyte_b32 D, S0, S1, 2`` is the same shift in bytes;
* ``v_pack_b32_f16 D, S0, S1``: ``D[15:0] = S0[sel]``, ``D[31:16] = S1[sel]``;
* ``v_lshrrev_b32 D, 16, S`` (``D[15:0] = S[31:16]``, high half zero), ``v_lshlrev_b32 D, 16, S``
  (``D[31:16] = S[15:0]``, low half zero), ``v_and_b32 D, 0xffff, S`` (``D[15:0] = S[15:0]``, high half zero)
  and ``v_bfe_u32 D, S, 16, 16`` (``D[15:0] = S[31:16]``);
* 64-bit results whose low dword depends only on low source dwords, since carries and left shifts move
  bits upwards only: ``v_mad_u64_u32``/``v_mad_i64_i32 D, carry, S0, S1, S2`` (``D = S0 * S1 + S2``; the
  low dword needs S2's low dword only) and ``v_lshlrev_b64``/``s_lshl_b64``. Here the "halves" are the
  two dwords of the result.

For these, a source half read only for a result half that nothing reads later holds no value anyone needs:
liveness (:mod:`isalens.analysis.liveness`) counts a lane's sources only where that half of the result is
live. LLVM marks such reads ``undef`` (the unused half of a ``half3``'s last pair, the register
``v_alignbit_b32`` shifts into the discarded high half).
"""

from __future__ import annotations

from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, Operand, RegOperand
from isalens.ir.registers import AGPR_BASE, HALF_BOTH, HALF_HI, HALF_LO, VGPR_BASE, Reg, RegFile
from isalens.isa.amdgcn.mnemonics import DPP_CONTROLS, SDWA_SELECTS, without_size_suffix
from isalens.records import dataclass

__all__ = ["HalfLanes", "half_lanes"]


@dataclass(frozen=True, slots=True)
class HalfLanes:
    """Result halves (unit masks), the source units read to compute each of them, and ``sources``: every
    unit of the source operands these lanes account for (what the instruction reads besides them, such as
    EXEC, is read whatever is live). Another result that is live (a carry-out, SCC) needs every source."""

    lo_def: int
    hi_def: int
    lo_uses: int
    hi_uses: int
    sources: int


#: 16-bit packed VOP3P operations whose two result halves never mix (everything ``v_pk_*`` except the
#: 32-bit-lane forms and ``v_pk_fmac_f16``, which also accumulates into its destination)
_PACKED32_SUFFIXES = ("_f32", "_b32", "_u32", "_i32", "_f64")


#: mnemonic prefixes of every instruction this module may give lanes (a cheap first test)
_CANDIDATES = ("v_pk_", "v_alignbit_b32", "v_alignbyte_b32", "v_pack_b32_f16", "v_lshrrev_b32", "v_lshlrev_b32",
               "v_and_b32", "v_bfe_u32", "v_mad_u64_u32", "v_mad_i64_i32", "v_lshlrev_b64", "s_lshl_b64")
_WIDE = frozenset(("v_mad_u64_u32", "v_mad_i64_i32", "v_lshlrev_b64", "s_lshl_b64"))
#: modifiers of the SDWA and DPP forms, which get no lanes
_FORM_MODIFIERS = SDWA_SELECTS + DPP_CONTROLS
_VGPR, _AGPR = RegFile.VGPR, RegFile.AGPR


def _bits(modifiers: tuple[str, ...], name: str) -> list[int] | None:
    for mod in modifiers:
        if mod.startswith(name + ":"):
            inner = mod[len(name) + 1 :].strip().strip("[]")
            try:
                return [int(x) for x in inner.split(",") if x.strip()]
            except ValueError:
                return None
    return None


def _halves(op: Operand) -> tuple[int, int] | None:
    """Units of the low and of the high half of a 32-bit source; an SGPR or special is one unit (all of it,
    for either half); None when the operand is not a single 32-bit register."""
    if not isinstance(op, RegOperand) or len(op.regs) != 1:
        return None
    reg = op.regs[0]
    if reg.count != 1 or reg.halves != HALF_BOTH:
        return None
    # `reg.with_halves(HALF_LO).mask()` and HALF_HI's, without making the two Regs (the units of a VGPR or AGPR
    # are its low half, then its high half: isalens.ir.registers); this ran for every candidate text of a small
    # kernel's first run (docs/performance.md, twenty-first session)
    if reg.file is _VGPR:
        lo = 1 << (VGPR_BASE + 2 * reg.index)
        return lo, lo << 1
    if reg.file is _AGPR:
        lo = 1 << (AGPR_BASE + 2 * reg.index)
        return lo, lo << 1
    whole = reg.mask()
    return whole, whole


def _half(op: Operand, half: int) -> int | None:
    """Units of ``half`` (HALF_LO/HALF_HI) of a 32-bit source, as :func:`_halves`."""
    both = _halves(op)
    return None if both is None else both[half == HALF_HI]


def _imm(op: Operand, *values: int) -> bool:
    return isinstance(op, ImmOperand) and isinstance(op.value, int) and op.value in values


def _dst(op: Operand) -> Reg | None:
    if not isinstance(op, RegOperand) or len(op.regs) != 1:
        return None
    reg = op.regs[0]
    if reg.file is not RegFile.VGPR or reg.count != 1 or reg.halves != HALF_BOTH:
        return None
    return reg


def _lanes(dst: Reg, lo: int, hi: int, sources: tuple[Operand, ...]) -> HalfLanes:
    covered = 0
    for op in sources:
        if isinstance(op, RegOperand):
            covered |= op.mask
    lo_def = 1 << (VGPR_BASE + 2 * dst.index)  # dst.with_halves(HALF_LO).mask() of a single VGPR (_dst)
    return HalfLanes(lo_def, lo_def << 1, lo, hi, covered)


def _packed(ops: tuple[Operand, ...], modifiers: tuple[str, ...], dst: Reg) -> HalfLanes | None:
    sources = ops[1:]
    op_sel = _bits(modifiers, "op_sel") or []
    op_sel_hi = _bits(modifiers, "op_sel_hi") or []
    lo = hi = 0
    for k, op in enumerate(sources):
        if not isinstance(op, RegOperand):
            continue
        halves = _halves(op)
        if halves is None:
            return None
        lo |= halves[1 if k < len(op_sel) and op_sel[k] else 0]
        hi |= halves[1 if (op_sel_hi[k] if k < len(op_sel_hi) else 1) else 0]
    return _lanes(dst, lo, hi, sources)


def _pair(op: Operand) -> Reg | None:
    """A 64-bit register pair (VGPR or SGPR), else None."""
    if not isinstance(op, RegOperand) or len(op.regs) != 1:
        return None
    reg = op.regs[0]
    if reg.file not in (RegFile.VGPR, RegFile.SGPR) or reg.count != 2 or reg.halves != HALF_BOTH:
        return None
    return reg


def _mask(op: Operand) -> int:
    return op.mask if isinstance(op, RegOperand) else 0


def _wide(base: str, ops: tuple[Operand, ...]) -> HalfLanes | None:
    """64-bit results whose low dword depends only on the sources' low dwords (carries run upwards):
    ``v_mad_u64_u32``/``v_mad_i64_i32 D, carry, S0, S1, S2`` (``D = S0 * S1 + S2``, 32-bit S0 and S1) and
    left shifts ``v_lshlrev_b64 D, n, S`` / ``s_lshl_b64 D, S, n``."""
    dst = _pair(ops[0]) if ops else None
    if dst is None:
        return None
    if base in ("v_mad_u64_u32", "v_mad_i64_i32") and len(ops) == 5:
        addend = _pair(ops[4])
        if addend is None:
            return None
        common = _mask(ops[2]) | _mask(ops[3])
        lo, hi = common | addend.subrange(0, 1).mask(), common | addend.mask()
        sources: tuple[Operand, ...] = ops[2:5]
    elif base in ("v_lshlrev_b64", "s_lshl_b64") and len(ops) == 3:
        value, amount = (ops[2], ops[1]) if base == "v_lshlrev_b64" else (ops[1], ops[2])
        pair = _pair(value)
        if pair is None:
            return None
        lo, hi = _mask(amount) | pair.subrange(0, 1).mask(), _mask(amount) | pair.mask()
        sources = ops[1:3]
    else:
        return None
    covered = 0
    for op in sources:
        covered |= _mask(op)
    return HalfLanes(dst.subrange(0, 1).mask(), dst.subrange(1, 1).mask(), lo, hi, covered)


def _for_text(mnemonic: str, ops: tuple[Operand, ...], modifiers: tuple[str, ...]) -> HalfLanes | None:
    base = without_size_suffix(mnemonic)
    if not ops:
        return None
    if base in _WIDE:
        return _wide(base, ops)
    dst = _dst(ops[0])
    if dst is None:
        return None
    if base.startswith("v_pk_"):
        if base.endswith(_PACKED32_SUFFIXES) or base.startswith("v_pk_fmac") or "dpp" in mnemonic:
            return None
        return _packed(ops, modifiers, dst)
    if len(ops) == 4 and ((base == "v_alignbit_b32" and _imm(ops[3], 16))
                          or (base == "v_alignbyte_b32" and _imm(ops[3], 2))):
        lo, hi = _half(ops[2], HALF_HI), _half(ops[1], HALF_LO)
        return None if lo is None or hi is None else _lanes(dst, lo, hi, ops[1:3])
    if base == "v_pack_b32_f16" and len(ops) == 3:
        op_sel = _bits(modifiers, "op_sel") or []
        lo = _half(ops[1], HALF_HI if op_sel[:1] == [1] else HALF_LO)
        hi = _half(ops[2], HALF_HI if op_sel[1:2] == [1] else HALF_LO)
        return None if lo is None or hi is None else _lanes(dst, lo, hi, ops[1:3])
    if len(ops) == 3 and base == "v_lshrrev_b32" and _imm(ops[1], 16):
        lo = _half(ops[2], HALF_HI)
        return None if lo is None else _lanes(dst, lo, 0, ops[2:])
    if len(ops) == 3 and base == "v_lshlrev_b32" and _imm(ops[1], 16):
        hi = _half(ops[2], HALF_LO)
        return None if hi is None else _lanes(dst, 0, hi, ops[2:])
    if len(ops) == 3 and base == "v_and_b32" and (_imm(ops[1], 0xFFFF) or _imm(ops[2], 0xFFFF)):
        src = ops[2] if _imm(ops[1], 0xFFFF) else ops[1]
        lo = _half(src, HALF_LO)
        return None if lo is None else _lanes(dst, lo, 0, (src,))
    if len(ops) == 4 and base == "v_bfe_u32" and _imm(ops[2], 16) and _imm(ops[3], 16):
        lo = _half(ops[1], HALF_HI)
        return None if lo is None else _lanes(dst, lo, 0, ops[1:2])
    return None


#: instruction text -> lanes (the text fixes mnemonic, operands and modifiers)
_BY_TEXT: dict[str, HalfLanes | None] = {}


def half_lanes(ins: Instruction) -> HalfLanes | None:
    """The per-half sources of ``ins`` when its two result halves are computed separately, else None.

    Plain VALU forms only: SDWA, DPP and VOPD forms give None (every source feeds the whole result)."""
    text = ins.text
    try:
        return _BY_TEXT[text]
    except KeyError:
        pass
    result = None
    modifiers = ins.modifiers
    if (ins.mnemonic.startswith(_CANDIDATES) and "sdwa" not in ins.mnemonic and "::" not in text
            and not (modifiers and any(m.startswith(_FORM_MODIFIERS) for m in modifiers))):
        # computed once per text (`_BY_TEXT`): no cache by operands, whose hashing cost more than the work
        result = _for_text(ins.mnemonic, ins.operands, modifiers)
    if len(_BY_TEXT) < 1 << 20:
        _BY_TEXT[text] = result
    return result
