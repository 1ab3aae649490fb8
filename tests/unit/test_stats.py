"""Instruction classes, code size rules, modifier/constant use and the LDS access analysis.

Expected values are hand counts and hand arithmetic written next to each assertion; llvm-mc confirms the
size rules in tests/oracle/test_encoding_sizes.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import isalens
from isalens.analysis.stats import bank_conflict_degree
from isalens.engine.decode import kernel_stats
from isalens.isa.amdgcn import catalog, classes
from isalens.isa.amdgcn.encoding import constant_kinds, is_inline_constant, text_size
from isalens.isa.amdgcn.syntax import parse_instruction_text
from isalens.report.stats import render_stats_text, stats_dict
from tests.conftest import FIXTURES

# ---------------------------------------------------------------------------------------------- classes


def test_class_table_loads_and_every_listed_mnemonic_has_a_class() -> None:
    keys = classes.class_keys()
    rules = classes.class_rules()
    assert rules and all(rule.klass in keys for rule in rules)
    used = {rule.klass for rule in rules}
    assert used == set(keys), f"declared but unused: {set(keys) - used}"
    missing = []
    total = 0
    for family in catalog.all_families():
        for name in catalog._load(family):
            total += 1
            if classes.class_of(name) == classes.UNKNOWN:
                missing.append(f"{family}: {name}")
    assert total > 10_000  # ten family lists of ~1,000-1,600 names
    assert not missing, missing[:20]


@pytest.mark.parametrize(("mnemonic", "key"), [
    ("v_fma_f32", "valu.fma.f32"), ("v_fmac_f32_e32", "valu.fma.f32"), ("v_madmk_f32", "valu.fma.f32"),
    ("v_pk_add_f16", "valu.pk.f16"), ("v_pk_mul_f16", "valu.pk.f16"), ("v_pk_fmac_f16_e32", "valu.pk.f16"),
    ("v_pk_add_u16", "valu.pk.i16"), ("v_pk_fma_f32", "valu.pk.f32"), ("v_exp_f32_e32", "valu.trans"),
    ("v_rsq_f16", "valu.trans"), ("v_add_f64", "valu.f64"), ("v_rcp_f64_e32", "valu.f64"),
    ("v_cvt_f32_f16_e32", "valu.cvt"), ("v_pack_b32_f16", "valu.cvt"), ("v_mul_lo_u32", "valu.int.mul"),
    ("v_mad_u64_u32", "valu.int.i64"), ("v_cmp_eq_u64_e32", "valu.cmp"), ("v_add_u32_e32", "valu.int"),
    ("v_add_f16_sdwa", "valu.f16"), ("v_mov_b32_dpp", "valu.mov"), ("v_mfma_f32_32x32x8f16", "mfma"),
    ("v_wmma_f32_16x16x16_f16", "wmma"), ("v_dual_mul_f32", "valu.dual"), ("s_add_u32", "salu"),
    ("s_load_dwordx4", "smem.load"), ("buffer_load_dword", "vmem.load"), ("buffer_store_dword", "vmem.store"),
    ("buffer_atomic_add", "vmem.atomic"), ("global_load_dword", "global.load"), ("flat_store_dword", "flat.store"),
    ("scratch_load_dword", "scratch.load"), ("ds_read_b32", "ds.read"), ("ds_read2_b32", "ds.read2"),
    ("ds_read2st64_b32", "ds.read2st64"), ("ds_load_2addr_stride64_b32", "ds.read2st64"),
    ("ds_read_u16_d16_hi", "ds.read"), ("ds_write2st64_b64", "ds.write2st64"), ("ds_store_b32", "ds.write"),
    ("ds_add_rtn_u32", "ds.atomic"), ("ds_write_src2_b32", "ds.atomic"), ("ds_bpermute_b32", "ds.permute"),
    ("exp", "export"), ("s_cbranch_scc1", "branch"), ("s_waitcnt", "waitcnt"), ("s_wait_loadcnt", "waitcnt"),
    ("s_barrier", "barrier"), ("s_nop", "nop"), ("v_nop", "nop"), ("s_sendmsg", "msg"), ("s_endpgm", "end"),
    ("image_sample", "image.sample"), ("foo_bar", classes.UNKNOWN),
])
def test_class_keys(mnemonic: str, key: str) -> None:
    assert classes.class_of(mnemonic, 9) == key


# ---------------------------------------------------------------------------------------------- sizes


def _size(text: str, target: str) -> int:
    raw = parse_instruction_text(text)
    return text_size(raw.mnemonic, raw.operands, raw.modifiers, target, text).bytes


# domain.md §1.2 (from AMD's GPUOpen article on SDWA): adding the high fp16 halves of v1 and v2 without SDWA
_NO_SDWA = ["v_lshrrev_b32 v3, 16, v1", "v_lshrrev_b32 v4, 16, v2", "v_add_f16 v2, v3, v4", "v_lshlrev_b32 v2, 16, v2",
            "v_or_b32 v0, v1, v2"]
_NO_SDWA_LONG = ["v_lshrrev_b32_e64 v3, 16, v1", "v_lshrrev_b32_e64 v4, 16, v2", "v_add_f16 v2, v3, v4",
                 "v_lshlrev_b32_e64 v2, 16, v2", "v_or_b32_e64 v0, v1, v2"]
_SDWA = ["v_add_f16 v0, v1, v2",
         "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_1"]


@pytest.mark.parametrize("target", ["gfx803", "gfx902"])
def test_section_1_2_arithmetic(target: str) -> None:
    # five VOP1/VOP2 instructions: 5 x 4 = 20 bytes
    assert sum(_size(t, target) for t in _NO_SDWA) == 20
    # the two right shifts, the left shift and the OR in their 8-byte VOP3 form: 4 x 8 + 4 = 36 bytes
    assert sum(_size(t, target) for t in _NO_SDWA_LONG) == 36
    # with SDWA: a 4-byte v_add_f16 for the low halves and an 8-byte SDWA one for the high halves = 12
    assert [_size(t, target) for t in _SDWA] == [4, 8]


@pytest.mark.parametrize(("text", "target", "size"), [
    ("v_add_u32 v52, 0x90, v105", "gfx902", 8),          # VOP2 + literal dword (listing: 6868D2FF 00000090)
    ("v_add_u32 v52, 64, v105", "gfx902", 4),            # 64 is the largest inline integer
    ("v_add_u32 v52, 65, v105", "gfx902", 8),
    ("v_add_u32 v52, v1, s5", "gfx902", 8),              # an SGPR second source needs VOP3
    ("v_mul_f32 v1, -v2, v3", "gfx902", 8),              # a source modifier needs VOP3
    ("v_fma_f32 v0, v1, 0x41000000, v2", "gfx1030", 12),  # gfx10+ VOP3 takes a literal: 8 + 4
    ("v_madmk_f32 v1, v2, 0x3e052640, v3", "gfx902", 8),  # the literal is an operand: always 8
    ("s_movk_i32 s16, 0x3620", "gfx902", 4),             # SOPK: 16-bit immediate inside the instruction
    ("s_mov_b32 s5, 0xbd38aa3b", "gfx902", 8),            # SOP1 + literal
    ("s_mov_b32 s0, 0x3f800000", "gfx902", 4),            # the bit pattern of 1.0 is an inline constant
    ("s_mov_b64 s[0:1], 0xffffffff", "gfx902", 8),        # as a 64-bit value that is not -1
    ("s_mov_b32 s0, 0xffffffff", "gfx902", 4),            # as a 32-bit value it is -1
    ("v_add_f16 v0, 0x3800, v1", "gfx902", 4),            # 0x3800 is fp16 0.5
    ("v_mov_b32 v0, 0x3800", "gfx902", 8),                # ... but not a 32-bit inline constant
    ("v_mul_f64 v[0:1], 0x3ff00000, v[2:3]", "gfx1030", 8),  # high half of fp64 1.0
    ("s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x1234", "gfx902", 8),
    ("s_waitcnt 0xc07f", "gfx902", 4),                    # SOPP immediate, not a literal
    ("ds_read2st64_b32 v[45:46], v46 offset1:4", "gfx902", 8),
    ("global_load_dword v1, v[2:3], off", "gfx1100", 8),
    ("global_load_b32 v1, v[2:3], off", "gfx1200", 12),   # gfx12 VGLOBAL is 96 bits
    ("v_add_f32_e64_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", "gfx1100", 12),
    ("v_add_f32_dpp v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0]", "gfx1030", 8),
    # NSA: 11 addresses = 1 in the instruction + ceil(10 / 4) = 3 extra dwords: 8 + 12
    ("image_bvh_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19], s[4:7]", "gfx1030", 20),
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, 0x41000000, v5", "gfx1100", 12),
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5", "gfx1100", 8),
])
def test_size_rules(text: str, target: str, size: int) -> None:
    assert _size(text, target) == size


def test_inline_constants_by_width() -> None:
    assert is_inline_constant(-16, 32, False) and not is_inline_constant(-17, 32, False)
    assert is_inline_constant(0x3C00, 16, True)              # fp16 1.0
    assert not is_inline_constant(0x3C00, 16, False)         # a 16-bit integer 15360
    assert is_inline_constant(0x3E22F983, 32, True)          # 1/(2*pi) in fp32
    assert is_inline_constant(0x3FF0000000000000, 64, False)  # fp64 1.0 as a full 64-bit value
    assert is_inline_constant(0.15915494, 32, True)
    assert not is_inline_constant(1.5, 32, True)


def test_constant_kinds_skip_the_destination() -> None:
    raw = parse_instruction_text("v_madmk_f32 v1, s2, 0x3e052640, v3")
    assert constant_kinds(raw.mnemonic, raw.operands, 9) == (None, "sgpr", "literal", None)


# ---------------------------------------------------------------------------------------------- the listings

# Hand counts over ../shared/samples/gcn_listing (extra checks, collected when present), made with
#   sed 's#//.*##' FILE | awk '{print $1}' | sort | uniq -c        (mnemonics)
#   sed 's#//.*##' FILE | grep -o '0x[0-9a-fA-F]*'                 (hex constants in the instruction text)
# Literals are the hex constants of VALU/SALU sources that are not inline: gcn_1's seven v_add_u32 offsets
# (0x90 ... 0xc4); its s_movk_i32 0x3620 and gcn_4's two s_movk_i32 are 16-bit SOPK immediates and the
# s_nop 0x0000 of gcn_3/gcn_5 is a SOPP immediate, none of them a literal dword. Packed fp16 = v_pk_mul_f16
# + v_pk_add_f16; conversions = v_pack_b32_f16 (the fragments have no v_cvt_*).
LISTING_COUNTS = {
    #                                 read2st64 read2 u16_d16 u16_d16_hi pk_f16 cvt literals instructions
    "gcn_1_fp16_neighborhood_a.isa": (7, 0, 0, 0, 14, 0, 7, 36),
    "gcn_2_fp16_neighborhood_b_read2.isa": (1, 3, 0, 0, 13, 0, 0, 24),
    "gcn_3_fp16_half4.isa": (6, 0, 0, 0, 20, 0, 0, 30),
    "gcn_4_fp16_uint2_array.isa": (0, 3, 0, 0, 23, 2, 0, 34),
    "gcn_5_fp16_half3_array.isa": (0, 0, 3, 3, 16, 3, 0, 39),
}


# Our own fragment tests/fixtures/listing/fp16_reads.isa, counted with the same commands: 2 ds_read2st64_b32,
# 1 ds_read2_b32, 1 ds_read_u16_d16, 1 ds_read_u16_d16_hi; packed fp16 = 2 v_pk_mul_f16 + 2 v_pk_add_f16 +
# 1 v_pk_fma_f16 = 5; conversions = 1 v_pack_b32_f16; hex constants 0x3c00 (s_movk_i32: SOPK immediate),
# 0x00000120 and 0x00000124 (the two v_add_u32 literals): 2 literals; 18 instruction lines
OWN_LISTING = FIXTURES / "listing" / "fp16_reads.isa"
OWN_LISTING_COUNTS = (2, 1, 1, 1, 5, 1, 2, 18)


def test_own_listing_counts_match_hand_counts() -> None:
    _check_listing_counts(OWN_LISTING, OWN_LISTING_COUNTS)


@pytest.mark.parametrize("name", sorted(LISTING_COUNTS))
def test_listing_fragment_counts_match_hand_counts(samples: Path, name: str) -> None:
    _check_listing_counts(samples / "gcn_listing" / name, LISTING_COUNTS[name])


def _check_listing_counts(path: Path, want: tuple[int, ...]) -> None:
    kernel = isalens.load(path, "gfx902").kernels[0]
    s = kernel_stats(kernel)
    got = (s.lds.get("ds_read2st64_b32", 0), s.lds.get("ds_read2_b32", 0), s.lds.get("ds_read_u16_d16", 0),
           s.lds.get("ds_read_u16_d16_hi", 0), s.classes.get("valu.pk.f16", 0), s.classes.get("valu.cvt", 0),
           s.constants.get("literal", 0), s.instructions)
    assert got == want
    # the listing prints every instruction's words (a fragment's last line may be cut before them): the
    # rule size of each instruction equals its words
    for ins, fact_size in zip(kernel.ir.instructions, [r.size for r in s.lines], strict=True):
        if ins.encoding:
            assert fact_size == 4 * len(ins.encoding)
            raw = text_size(ins.mnemonic, ins.operands, ins.modifiers, "gfx902", ins.text)
            assert raw.bytes == fact_size, ins.text


def test_own_listing_modifiers_and_lds_offsets() -> None:
    s = kernel_stats(isalens.load(OWN_LISTING, "gfx902").kernels[0])
    # two `v_pk_mul_f16 ... op_sel:[1,0] op_sel_hi:[0,0]`; the v_pk_add_f16 print LLVM's default op_sel_hi
    assert s.modifiers["op_sel"] == {"op_sel:[1,0]": 2, "op_sel_hi:[0,0]": 2}
    # `ds_read2st64_b32 v[10:11], v2 offset1:4`: offsets 0 and 4 x 4 bytes x 64 = 1024; 2 x 4 bytes per lane
    # x 64 lanes = 512 bytes per wave; v2 comes from outside the fragment: conflicts unknown. The second one
    # (offset0:1 offset1:5) reads at 256 and 1280
    first, second = s.lds_accesses[:2]
    assert (first.form, first.offsets, first.bytes_per_lane, first.bytes_per_wave) == ("read2st64", (0, 1024), 8, 512)
    assert first.conflict_degree is None
    assert second.offsets == (256, 1280)
    # 2 x 512 (read2st64) + 512 (read2_b32: 2 x 4 bytes x 64) + 2 x 128 (u16: 2 bytes x 64) = 1792
    assert s.lds_totals["read_bytes_per_wave"] == 1792
    # SGPR constants: the two v_pk_mul_f16 weights (s4, s5); literals: the two v_add_u32 offsets
    assert s.constants["sgpr"] == 2 and s.constants["literal"] == 2
    assert s.literal_values == {"0x00000120": 1, "0x00000124": 1}


def test_listing_modifiers_and_lds_offsets(samples: Path) -> None:
    s = kernel_stats(isalens.load(samples / "gcn_listing" / "gcn_1_fp16_neighborhood_a.isa", "gfx902").kernels[0])
    # seven `v_pk_mul_f16 ... op_sel:[1,0] op_sel_hi:[0,0]` and seven `v_pk_add_f16 ... op_sel_hi:[1,1]`
    assert s.modifiers["op_sel"] == {"op_sel:[1,0]": 7, "op_sel_hi:[0,0]": 7, "op_sel_hi:[1,1]": 7}
    # `ds_read2st64_b32 v[45:46], v46 offset1:4`: offsets 0 and 4 x 4 bytes x 64 = 1024; 2 x 4 bytes per lane,
    # x 64 lanes = 512 bytes per wave; v46 comes from outside the fragment: conflicts unknown
    first = s.lds_accesses[0]
    assert (first.form, first.offsets, first.bytes_per_lane, first.bytes_per_wave) == ("read2st64", (0, 1024), 8, 512)
    assert first.conflict_degree is None
    assert s.lds_totals["read_bytes_per_wave"] == 7 * 512
    # SGPR constants: the seven v_pk_mul_f16 weights (s15, s14 ...); literals: the seven v_add_u32 offsets
    assert s.constants["sgpr"] == 7 and s.constants["literal"] == 7
    assert s.literal_values["0x00000090"] == 1


# ---------------------------------------------------------------------------------------------- LDS analysis


def test_bank_conflict_degree_hand_checks() -> None:
    assert bank_conflict_degree(4, (0,), 4) == 1      # 32 consecutive dwords: one per bank
    assert bank_conflict_degree(8, (0,), 4) == 2      # even dwords only: two lanes per even bank
    assert bank_conflict_degree(128, (0,), 4) == 32   # 128 bytes = 32 dwords: every lane on bank 0
    assert bank_conflict_degree(0, (0,), 4) == 1      # one dword read by all lanes: broadcast
    assert bank_conflict_degree(8, (0,), 8) == 1      # b64, 64 dwords over 32 banks = the 2 passes needed
    assert bank_conflict_degree(2, (0,), 2) == 1      # u16 pairs share dwords: 16 dwords, 16 banks
    # read2st64 offsets 0 and 1024: dwords i and 256 + i share bank i, 2 per bank over the 2 passes needed
    assert bank_conflict_degree(4, (0, 1024), 4) == 1
    assert bank_conflict_degree(12, (0,), 4) == 1     # 3 is odd: lane i hits bank 3i mod 32, all distinct


def _kernel(body: str, arch: str = "gfx900") -> isalens.engine.load.LoadedKernel:
    return isalens.load(body + "\ns_endpgm\n", arch, dialect="bare").kernels[0]


@pytest.mark.parametrize(("shift", "stride", "degree"), [(2, 4, 1), (3, 8, 2), (4, 16, 4), (7, 128, 32)])
def test_lane_linear_address_from_workitem_id(shift: int, stride: int, degree: int) -> None:
    k = _kernel(f"v_lshlrev_b32 v1, {shift}, v0\nds_read_b32 v2, v1\n")
    (a,) = kernel_stats(k).lds_accesses
    assert (a.lane_stride, a.basis, a.conflict_degree) == (stride, "workitem_x", degree)


def test_lane_id_from_mbcnt_and_uniform_base() -> None:
    k = _kernel("v_mbcnt_lo_u32_b32 v1, -1, 0\nv_mbcnt_hi_u32_b32 v1, -1, v1\nv_lshlrev_b32 v1, 2, v1\n"
                "v_add_u32_e32 v1, s4, v1\nds_write_b32 v1, v2 offset:16\n")
    (a,) = kernel_stats(k).lds_accesses
    assert (a.form, a.lane_stride, a.basis, a.offsets, a.conflict_degree) == ("write", 4, "mbcnt", (16,), 1)


def test_unknown_when_the_address_is_loaded_or_redefined_in_a_loop() -> None:
    k = _kernel("v_lshlrev_b32 v1, 2, v0\n"
                ".LBB0_1:\n"
                "ds_read_b32 v2, v1\n"
                "global_load_dword v1, v[4:5], off\n"
                "s_cbranch_scc1 .LBB0_1\n")
    s = kernel_stats(k)
    (a,) = s.lds_accesses
    # on the second trip v1 holds a loaded value: not provably lane-linear
    assert a.conflict_degree is None and a.lane_stride is None
    assert s.lds_totals["unknown"] == 1


def test_repeated_instructions_count_once_per_line() -> None:
    # the same text on several lines (one shared facts object): every figure counts each line
    k = _kernel("v_add_f32_e32 v1, 1.0, v1\n"
                "v_add_f32_e32 v1, 1.0, v1\n"
                ".LBB0_1:\n"
                "v_add_f32_e32 v1, 1.0, v1\n"
                "v_add_f32_e32 v1, 1.0, v1\n"
                "v_add_f32_e32 v1, 0x40490fdb, v1\n"
                "v_add_f32_e32 v1, 0x40490fdb, v1\n"
                "s_cbranch_scc1 .LBB0_1\n")
    s = kernel_stats(k, loop_weight=10)
    assert s.classes == {"branch": 1, "end": 1, "valu.f32": 6}
    assert s.classes_by_loop_depth == {0: {"end": 1, "valu.f32": 2}, 1: {"branch": 1, "valu.f32": 4}}
    # two adds at depth 0 weigh 1 each, four in the loop 10 each: 2 + 40
    assert s.classes_weighted == {"branch": 10, "end": 1, "valu.f32": 42}
    # 1.0 is an inline constant (4 lines), 0x40490fdb a literal (2 lines); v1 is no constant
    assert s.constants == {"inline": 4, "literal": 2}
    assert s.literal_values == {"0x40490fdb": 2}
    # VOP2 4 bytes x 4, with a literal 8 bytes x 2, s_cbranch 4, s_endpgm 4 = 40
    assert s.code_bytes == 40
    assert [sum(b.classes.values()) for b in s.blocks] == [2, 5, 1]


def test_loop_depth_weighting_and_blocks() -> None:
    k = _kernel("v_mov_b32 v1, 0\n"
                ".LBB0_1:\n"
                "v_add_f32_e32 v1, 1.0, v1\n"
                "v_pk_add_f16 v2, v2, v3\n"
                "s_cbranch_scc1 .LBB0_1\n")
    s = kernel_stats(k, loop_weight=10)
    # outside the loop: v_mov_b32 and s_endpgm; inside (depth 1): add, packed add, branch
    assert s.classes_by_loop_depth == {0: {"end": 1, "valu.mov": 1}, 1: {"branch": 1, "valu.f32": 1,
                                                                         "valu.pk.f16": 1}}
    assert s.classes_weighted == {"branch": 10, "end": 1, "valu.f32": 10, "valu.mov": 1, "valu.pk.f16": 10}
    assert [b.classes for b in s.blocks] == [{"valu.mov": 1}, {"branch": 1, "valu.f32": 1, "valu.pk.f16": 1},
                                             {"end": 1}]
    # bytes: v_mov_b32 4, v_add_f32_e32 4 (1.0 is inline), v_pk_add_f16 8, s_cbranch 4, s_endpgm 4 = 24
    assert s.code_bytes == 24 and not s.code_bytes_exact


def test_modifier_and_constant_use() -> None:
    k = _kernel("v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_1\n"
                "v_mov_b32_dpp v3, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1\n"
                "v_pk_mul_f16 v5, v6, s15 op_sel:[1,0] op_sel_hi:[0,0]\n"
                "v_mul_f32_e64 v7, -|v8|, v9 clamp mul:2\n"
                "v_madmk_f32 v10, v11, 0x3e052640, v12\n"
                "v_add_f32_e32 v13, 1.0, v14\n")
    s = kernel_stats(k)
    assert s.modifiers["sdwa"] == {"dst_sel:WORD_1": 1, "dst_unused:UNUSED_PRESERVE": 1, "src0_sel:WORD_1": 1,
                                   "src1_sel:WORD_1": 1}
    assert s.modifiers["dpp"] == {"bank_mask:0xf": 1, "bound_ctrl:1": 1, "quad_perm:[1,0,3,2]": 1, "row_mask:0xf": 1}
    assert s.modifiers["op_sel"] == {"op_sel:[1,0]": 1, "op_sel_hi:[0,0]": 1}
    assert s.modifiers["source"] == {"abs": 1, "neg": 1}
    assert s.modifiers["output"] == {"clamp": 1, "mul:2": 1}
    assert s.modifiers["encoding"] == {"dpp": 1, "sdwa": 1}
    # sources: s15 is an SGPR constant, 0x3e052640 a literal, 1.0 an inline constant
    assert s.constants == {"inline": 1, "literal": 1, "sgpr": 1}
    assert s.literal_values == {"0x3e052640": 1}
    assert s.lines[4].constants == {"literal": 1}


def test_report_dict_and_text() -> None:
    k = _kernel("v_lshlrev_b32 v1, 2, v0\nds_read2_b32 v[2:3], v1 offset0:69 offset1:70\n")
    s = kernel_stats(k)
    doc = stats_dict(s, lines=True)
    assert {"code_bytes", "lds", "modifiers", "constants"} <= set(doc)
    assert doc["lds"] == {"ds_read2_b32": 1}
    (access,) = doc["lds_accesses"]
    # offset0:69 offset1:70 in units of 4 bytes: 276 and 280
    assert access["offsets"] == [276, 280] and access["bank_conflict_degree"] == 1
    assert len(doc["lines"]) == 3
    # v_lshlrev_b32 4 + ds_read2_b32 8 + s_endpgm 4 bytes
    assert doc["code_bytes"] == 16
    text = render_stats_text(s)
    assert "ds_read2_b32" in text and "276,280" in text and "16 bytes of code" in text
