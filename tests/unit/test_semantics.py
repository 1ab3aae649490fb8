"""Register effects of instructions, each expectation derived from the ISA documentation."""

from __future__ import annotations

import pytest

from isalens.ir.instruction import BranchKind
from isalens.ir.registers import HALF_HI, HALF_LO, Reg, RegFile, special, special_pair
from isalens.isa.amdgcn import semantics
from isalens.isa.amdgcn.syntax import parse_instruction_text


def effects(text: str, generation: int = 9, wave: int = 64) -> semantics.RegisterEffects:
    raw = parse_instruction_text(text)
    out, _ = semantics.apply(raw.mnemonic, raw.operands, raw.modifiers, generation=generation, wave_size=wave)
    return out


def v(i: int, n: int = 1, halves: int = 3) -> int:
    return Reg(RegFile.VGPR, i, n, halves).mask()


def s(i: int, n: int = 1) -> int:
    return Reg(RegFile.SGPR, i, n).mask()


EXEC64 = special_pair("exec").mask()
EXEC32 = special("exec_lo").mask()
VCC64 = special_pair("vcc").mask()
SCC = special("scc").mask()


def test_table_loads_and_every_rule_is_valid() -> None:
    rules = semantics.rules()
    assert len(rules) > 40
    for rule in rules:
        assert rule.match


def test_default_rule_first_operand_written() -> None:
    e = effects("v_add_f32_e32 v1, v2, v3")
    assert e.defs == v(1)
    assert e.uses == v(2) | v(3) | EXEC64


def test_accumulators_read_their_destination() -> None:
    e = effects("v_fmac_f32_e32 v0, s6, v3", generation=11, wave=32)
    assert e.defs == v(0)
    assert e.uses == v(0) | s(6) | v(3) | EXEC32


def test_stores_define_nothing() -> None:
    e = effects("global_store_dword v[1:2], v0, off")
    assert e.defs == 0
    assert e.uses == v(1, 2) | v(0) | EXEC64
    assert effects("ds_write2st64_b32 v6, v4, v5 offset1:4").defs == 0


def test_ds_read2st64_reads_address_then_writes_pair() -> None:
    e = effects("ds_read2st64_b32 v[45:46], v46 offset1:4")
    assert e.defs == v(45, 2)
    assert e.uses & v(46)


def test_atomic_returns_only_with_glc() -> None:
    assert effects("global_atomic_add v1, v2, s[0:1]").defs == 0
    e = effects("global_atomic_add v0, v1, v2, s[0:1] glc")
    assert e.defs == v(0)
    # MUBUF atomics return into their data register; cmpswap returns half its width
    assert effects("buffer_atomic_add v1, off, s[0:3], 0").defs == 0
    assert effects("buffer_atomic_add v1, off, s[0:3], 0 glc").defs == v(1)
    assert effects("buffer_atomic_cmpswap v[2:3], off, s[0:3], 0 glc").defs == v(2)
    # gfx940 uses sc0 for "return", gfx12 th:TH_ATOMIC_RETURN
    assert effects("global_atomic_add_f32 v0, v1, v2, s[0:1] sc0").defs == v(0)
    assert effects("global_atomic_add_u32 v0, v1, v2, s[0:1] th:TH_ATOMIC_RETURN", 12, 32).defs == v(0)
    assert effects("ds_add_u32 v1, v2").defs == 0
    assert effects("ds_add_rtn_u32 v0, v1, v2").defs == v(0)


def test_vopc_writes_vcc_and_cmpx_writes_exec() -> None:
    e = effects("v_cmp_lt_u32_e32 vcc, 15, v1")
    assert e.defs == VCC64
    # gfx9 v_cmpx writes its sdst and EXEC
    e = effects("v_cmpx_le_i32_e32 vcc, 16, v2")
    assert e.defs == VCC64 | EXEC64
    # gfx10+ v_cmpx has no sdst: only EXEC
    e = effects("v_cmpx_le_i32_e32 16, v2", generation=10, wave=32)
    assert e.defs == EXEC32


def test_carry_ops_write_two_destinations() -> None:
    e = effects("v_add_co_u32_e64 v11, s[0:1], s12, v11")
    assert e.defs == v(11) | s(0, 2)
    e = effects("v_addc_co_u32_e64 v12, s[0:1], v13, v12, s[0:1]")
    assert e.defs == v(12) | s(0, 2)
    assert e.uses & s(0, 2)
    # gfx9 v_add_u32 has no carry; gfx8's does (operand count decides)
    assert effects("v_add_u32_e32 v1, v2, v3").defs == v(1)
    assert effects("v_add_u32_e32 v1, vcc, v2, v3", generation=8).defs == v(1) | VCC64


def test_saveexec_reads_and_writes_exec() -> None:
    e = effects("s_and_saveexec_b64 s[0:1], vcc")
    assert e.defs == s(0, 2) | EXEC64 | SCC
    assert e.uses == VCC64 | EXEC64
    e = effects("s_and_saveexec_b32 s0, vcc_lo", generation=10, wave=32)
    assert e.defs == s(0) | EXEC32 | SCC


def test_salu_scc() -> None:
    assert effects("s_add_u32 s0, s1, s2").defs == s(0) | SCC
    assert effects("s_mov_b32 s0, s1").defs == s(0)
    e = effects("s_cselect_b32 s0, s1, s2")
    assert e.uses & SCC and not e.defs & SCC
    e = effects("s_cmp_lt_i32 s1, 4")
    assert e.defs == SCC
    e = effects("s_addc_u32 s0, s1, s2")
    assert e.uses & SCC and e.defs & SCC


def test_branches() -> None:
    for text, kind in [("s_branch BB1", BranchKind.JUMP), ("s_cbranch_scc0 BB1", BranchKind.COND),
                       ("s_endpgm", BranchKind.END), ("s_setpc_b64 s[30:31]", BranchKind.RETURN)]:
        assert effects(text).branch is kind
    assert effects("s_cbranch_execz BB2").uses == EXEC64
    assert effects("s_cbranch_vccnz BB2", 10, 32).uses == special("vcc_lo").mask()


def test_sdwa_preserve_writes_one_half_and_keeps_the_other() -> None:
    # dst_unused:UNUSED_PRESERVE keeps the other 16 bits: neither read nor written, so whatever is live in
    # them after the instruction is live before it (liveness passes through the kept half)
    e = effects("v_mov_b32_sdwa v2, 0 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD")
    assert e.defs == v(2, halves=HALF_LO)
    assert not e.uses & v(2)
    # src1_sel:WORD_1 reads only the high half of the source
    e = effects("v_mul_f16_sdwa v20, v17, v17 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
                "src0_sel:WORD_1 src1_sel:WORD_1")
    assert e.defs == v(20, halves=HALF_HI)
    assert e.uses & v(17) == v(17, halves=HALF_HI)
    assert not e.uses & v(20)
    # a byte write keeps the other byte of the same 16-bit half: that unit is read and written
    e = effects("v_mov_b32_sdwa v3, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD")
    assert e.defs == v(3, halves=HALF_LO) and e.uses & v(3) == v(3, halves=HALF_LO)
    # UNUSED_PAD (the default) zeroes the rest: a whole-register write
    e = effects("v_mul_f16_sdwa v20, v17, v17 dst_sel:WORD_1 dst_unused:UNUSED_PAD")
    assert e.defs == v(20)


@pytest.mark.parametrize(("text", "written"), [
    ("ds_read_u16_d16 v17, v13", HALF_LO),
    ("ds_read_u16_d16_hi v20, v13 offset:2", HALF_HI),
    ("global_load_short_d16_hi v5, v[0:1], off", HALF_HI),
])
def test_d16_loads_write_one_half(text: str, written: int) -> None:
    # D16 loads write 16 bits and keep the other half untouched (not read: its liveness passes through)
    e = effects(text)
    dst = int(text.split()[1].strip("v,"))
    assert e.defs == v(dst, halves=written)
    assert not e.uses & v(dst)


def test_fma_mix_sources_are_f32_or_one_f16_half() -> None:
    # v_fma_mix*: op_sel_hi[k] = 1 makes source k an f16 taken from the half op_sel[k] names, 0 an f32
    # (LLVM AMDGPU docs, "FX operand": size from m_op_sel_hi, location of the 16-bit operand from m_op_sel)
    e = effects("v_fma_mixlo_f16 v3, v1, s0, v2 op_sel:[1,0,0] op_sel_hi:[1,0,1]")
    assert e.uses & v(1) == v(1, halves=HALF_HI)
    assert e.uses & v(2) == v(2, halves=HALF_LO)
    assert e.uses & s(0) == s(0)
    assert e.defs == v(3, halves=HALF_LO) and not e.uses & v(3)
    e = effects("v_fma_mix_f32 v3, v1, v4, v2")  # no op_sel_hi: all three are f32
    assert e.uses & (v(1) | v(4) | v(2)) == v(1) | v(4) | v(2)


def test_packed_op_sel_selects_halves() -> None:
    # lo lane takes op_sel, hi lane op_sel_hi: src0 (v33) reads hi then lo, src1 (s15) is an SGPR
    e = effects("v_pk_mul_f16 v51, v33, s15 op_sel:[1,0] op_sel_hi:[0,0]")
    assert e.uses & v(33) == v(33)
    e = effects("v_pk_mul_f16 v21, v21, v40 op_sel_hi:[1,0]")
    assert e.uses & v(40) == v(40, halves=HALF_LO)


def test_vop3_sixteen_bit_op_sel_dst_writes_high_half() -> None:
    e = effects("v_add_f16_e64 v1, v2, v3 op_sel:[1,0,1]")
    assert e.defs == v(1, halves=HALF_HI)
    assert e.uses & v(2) == v(2, halves=HALF_HI)
    assert e.uses & v(3) == v(3, halves=HALF_LO)


def test_swap_and_lane_ops() -> None:
    e = effects("v_swap_b32 v1, v2")
    assert e.defs == v(1) | v(2) and e.uses & (v(1) | v(2)) == v(1) | v(2)
    e = effects("v_writelane_b32 v1, s0, 5")
    assert e.uses & v(1)
    assert effects("v_readfirstlane_b32 s0, v1").defs == s(0)


def test_mfma_reads_accumulator_tuple() -> None:
    e = effects("v_mfma_f32_32x32x1f32 a[0:31], v1, v2, a[0:31]")
    acc = Reg(RegFile.AGPR, 0, 32).mask()
    assert e.defs == acc and e.uses & acc == acc


def test_m0_readers() -> None:
    assert effects("s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", 11, 32).uses & special("m0").mask()
    assert effects("ds_read_b32 v0, v1", generation=8).uses & special("m0").mask()
    assert not effects("ds_read_b32 v0, v1", generation=9).uses & special("m0").mask()


@pytest.mark.parametrize(("text", "generation", "read"), [
    ("global_store_short v[4:5], v3, off", 9, HALF_LO),
    ("global_store_short_d16_hi v[4:5], v3, off", 9, HALF_HI),
    ("ds_write_b16 v6, v3 offset:4", 9, HALF_LO),
    ("buffer_store_byte v3, off, s[0:3], 0", 9, HALF_LO),
    ("global_store_d16_hi_b16 v[4:5], v3, off", 11, HALF_HI),
])
def test_sub_dword_stores_read_one_half_of_their_data(text: str, generation: int, read: int) -> None:
    # a 16-bit store writes data bits [15:0] to memory (the d16_hi forms bits [31:16]); a byte store bits
    # [7:0] (or [23:16]), which lie in the same 16-bit half
    e = effects(text, generation, 32 if generation >= 10 else 64)
    assert e.uses & v(3) == v(3, halves=read)
    assert not e.defs & v(3)
