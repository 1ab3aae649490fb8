"""Per-half sources of VALU results (``isa.amdgcn.lanes``), each expectation derived from the ISA text."""

from __future__ import annotations

import isalens
from isalens.ir.registers import HALF_HI, HALF_LO, Reg, RegFile
from isalens.isa.amdgcn.lanes import HalfLanes, half_lanes


def _lanes(text: str, arch: str = "gfx900") -> HalfLanes | None:
    kernel = isalens.load(f"    {text}\n    s_endpgm\n", arch).kernels[0]
    return half_lanes(kernel.ir.instructions[0])


def v(i: int, halves: int = 3) -> int:
    return Reg(RegFile.VGPR, i, 1, halves).mask()


def s(i: int) -> int:
    return Reg(RegFile.SGPR, i).mask()


def test_packed_f16_lanes_follow_op_sel_and_op_sel_hi() -> None:
    # D.lo = fma(S0[op_sel], ...), D.hi = fma(S0[op_sel_hi], ...); op_sel_hi defaults to 1, op_sel to 0
    lanes = _lanes("v_pk_fma_f16 v0, v1, s2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1]")
    assert lanes is not None
    assert (lanes.lo_def, lanes.hi_def) == (v(0, HALF_LO), v(0, HALF_HI))
    assert lanes.lo_uses == v(1, HALF_HI) | s(2) | v(3, HALF_LO)
    assert lanes.hi_uses == v(1, HALF_LO) | s(2) | v(3, HALF_HI)


def test_alignbit_by_16_splits_its_sources() -> None:
    # ({S0, S1} >> 16): D[15:0] = S1[31:16], D[31:16] = S0[15:0]
    lanes = _lanes("v_alignbit_b32 v0, s4, v1, 16")
    assert lanes is not None and (lanes.lo_uses, lanes.hi_uses) == (v(1, HALF_HI), s(4))
    assert _lanes("v_alignbit_b32 v0, s4, v1, 8") is None  # halves mix


def test_pack_and_16_bit_shifts() -> None:
    lanes = _lanes("v_pack_b32_f16 v0, v1, v2 op_sel:[1,0]")
    assert lanes is not None and (lanes.lo_uses, lanes.hi_uses) == (v(1, HALF_HI), v(2, HALF_LO))
    lanes = _lanes("v_lshrrev_b32_e32 v0, 16, v1")  # D.lo = S.hi, D.hi = 0
    assert lanes is not None and (lanes.lo_uses, lanes.hi_uses) == (v(1, HALF_HI), 0)
    lanes = _lanes("v_lshlrev_b32_e32 v0, 16, v1")  # D.hi = S.lo, D.lo = 0
    assert lanes is not None and (lanes.lo_uses, lanes.hi_uses) == (0, v(1, HALF_LO))
    lanes = _lanes("v_and_b32_e32 v0, 0xffff, v1")
    assert lanes is not None and (lanes.lo_uses, lanes.hi_uses) == (v(1, HALF_LO), 0)


def test_whole_register_operations_have_no_lanes() -> None:
    for text in ("v_add_f32_e32 v0, v1, v2", "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]",
                 "v_pk_fmac_f16 v0, v1, v2", "v_lshrrev_b32_e32 v0, 15, v1"):
        assert _lanes(text, "gfx90a") is None, text


def test_low_dword_of_64_bit_mad_and_left_shift_needs_only_low_source_dwords() -> None:
    # D = S0 * S1 + S2: carries run upwards, so D[31:0] needs S2[31:0] only; D[63:32] needs all of S2
    lanes = _lanes("v_mad_u64_u32 v[0:1], s[0:1], v2, s3, v[4:5]")
    assert lanes is not None
    assert (lanes.lo_def, lanes.hi_def) == (v(0), v(1))
    assert lanes.lo_uses == v(2) | s(3) | v(4)
    assert lanes.hi_uses == v(2) | s(3) | v(4) | v(5)
    # (S << 3)[31:0] = S[31:0] << 3
    lanes = _lanes("s_lshl_b64 s[0:1], s[6:7], 3")
    assert lanes is not None and (lanes.lo_uses, lanes.hi_uses) == (s(6), s(6) | s(7))


MAD_HIGH_DWORD_DEAD = """\
    v_mov_b32_e32 v5, 7
    v_mad_u64_u32 v[0:1], s[0:1], v2, s3, v[4:5]
    v_ashrrev_i32_e32 v1, 31, v0
    global_store_dwordx2 v[6:7], v[0:1], off
    s_endpgm
"""


def test_an_addend_high_dword_feeding_only_a_dead_result_dword_is_not_live() -> None:
    """By hand: the mad's high dword v1 is overwritten at once and its carry-out s[0:1] is never read, so
    v5 (the addend's high dword) only feeds dead bits: not live after its write. v4 is (low dword)."""
    from isalens.ir.registers import registers_in

    kernel = isalens.load(MAD_HIGH_DWORD_DEAD, "gfx900").kernels[0]
    live = kernel.liveness()
    assert 5 not in registers_in(live.live_out[0], RegFile.VGPR)
    assert 4 in registers_in(live.live_out[0], RegFile.VGPR)
    # read the carry-out and the whole addend is needed again
    carry = MAD_HIGH_DWORD_DEAD.replace("global_store_dwordx2 v[6:7], v[0:1], off",
                                        "global_store_dwordx2 v[6:7], v[0:1], off\n    s_and_b64 s[8:9], s[0:1], exec")
    live = isalens.load(carry, "gfx900").kernels[0].liveness()
    assert 5 in registers_in(live.live_out[0], RegFile.VGPR)


def test_source_halves_are_the_units_of_each_half_register() -> None:
    """``lanes._halves`` computes a 32-bit source's half units by arithmetic (no Reg made per half): they must be
    the units ``Reg.with_halves(...).mask()`` gives for that half, in every file; a scalar's one unit serves both."""
    from isalens.ir.operands import RegOperand
    from isalens.ir.registers import SPECIAL_NAMES
    from isalens.isa.amdgcn.lanes import _halves

    for file, count in ((RegFile.VGPR, 256), (RegFile.AGPR, 256), (RegFile.SGPR, 106),
                        (RegFile.SPECIAL, len(SPECIAL_NAMES))):
        for index in range(count):
            reg = Reg(file, index)
            halves = _halves(RegOperand.of((reg,), str(reg)))
            if file in (RegFile.VGPR, RegFile.AGPR):
                assert halves == (reg.with_halves(HALF_LO).mask(), reg.with_halves(HALF_HI).mask()), reg
            else:
                assert halves == (reg.mask(), reg.mask()), reg
    # not a single whole 32-bit register: no halves
    assert _halves(RegOperand.of((Reg(RegFile.VGPR, 2, 2),), "v[2:3]")) is None
    assert _halves(RegOperand.of((Reg(RegFile.VGPR, 2, 1, HALF_LO),), "v2.l")) is None
