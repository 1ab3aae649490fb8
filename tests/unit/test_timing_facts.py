"""The ISA's timing facts per instruction (isa/amdgcn/timing_facts) and the one place mnemonics are cut
(isa/amdgcn/mnemonics). Expected values: llvm-mc's encodings, or arithmetic from the ISA guides in comments."""

from __future__ import annotations

import subprocess

import pytest

import isalens
from isalens.isa.amdgcn.mnemonics import base_mnemonic, dual_to_single, is_dpp, vopd_halves, without_size_suffix
from isalens.isa.amdgcn.timing_facts import TimingFacts, decode_waitcnt, timing_facts
from tests.conftest import require_tool


def _facts(text: str, arch: str) -> TimingFacts:
    kernel = isalens.load(f"    {text}\n    s_endpgm\n", arch).kernels[0]
    ins = kernel.ir.instructions[0]
    return timing_facts(ins, ins.facts.klass, kernel.arch.generation)


@pytest.mark.parametrize(("cpu", "generation", "counters"), [
    ("gfx803", 8, {"vmcnt": 9, "expcnt": 3, "lgkmcnt": 10}),      # 4-bit vmcnt, 4-bit lgkmcnt
    ("gfx900", 9, {"vmcnt": 37, "expcnt": 3, "lgkmcnt": 10}),     # vmcnt's high bits in 15:14
    ("gfx1030", 10, {"vmcnt": 37, "expcnt": 3, "lgkmcnt": 40}),   # 6-bit lgkmcnt
    ("gfx1100", 11, {"vmcnt": 37, "expcnt": 3, "lgkmcnt": 40}),   # RDNA3's new field order
])
def test_waitcnt_immediate_fields_match_llvm_mc(cpu: str, generation: int, counters: dict[str, int]) -> None:
    mc = require_tool("llvm-mc-19")
    text = "s_waitcnt " + " ".join(f"{k}({v})" for k, v in counters.items())
    out = subprocess.run([mc, "--arch=amdgcn", f"--mcpu={cpu}", "-show-encoding"], input=text, text=True,
                         capture_output=True, check=True).stdout
    encoding = [int(b, 16) for b in out.split("encoding: [")[1].split("]")[0].split(",")]
    imm = encoding[0] | encoding[1] << 8  # SOPP: simm16 in the low half of the little-endian word
    assert decode_waitcnt(imm, generation) == counters


def test_waitcnt_named_counters_keep_their_order() -> None:
    assert _facts("s_waitcnt vmcnt(2) lgkmcnt(0)", "gfx900").waits == (("vmcnt", 2), ("lgkmcnt", 0))
    # s_waitcnt_vscnt null, N (gfx10+): the counter is the mnemonic's, the limit the immediate
    assert _facts("s_waitcnt_vscnt null, 0x3", "gfx1030").waits == (("vscnt", 3),)


def test_gfx12_combined_wait_splits_its_immediate() -> None:
    # s_wait_loadcnt_dscnt: loadcnt in bits 13:8, dscnt in 5:0 [RDNA4 ISA, ch. 4]: 0x305 -> 3 and 5
    assert _facts("s_wait_loadcnt_dscnt 0x305", "gfx1200").waits == (("loadcnt", 3), ("dscnt", 5))


@pytest.mark.parametrize(("text", "arch", "lane_bytes", "traffic"), [
    ("global_load_dwordx4 v[0:3], v[4:5], off", "gfx90a", 16, "global"),   # 4 dwords
    ("global_store_short v[0:1], v2, off", "gfx90a", 2, "global"),
    ("ds_read2_b64 v[0:3], v4 offset1:1", "gfx90a", 16, "lds"),            # two addresses x 8 bytes
    ("ds_write_b32 v0, v1", "gfx90a", 4, "lds"),
    ("image_load v[0:1], v[2:5], s[0:7] dmask:0x3 unorm", "gfx900", 8, "global"),  # 2 channels x 4 bytes
])
def test_bytes_one_lane_moves(text: str, arch: str, lane_bytes: int, traffic: str) -> None:
    facts = _facts(text, arch)
    assert (facts.lane_bytes, facts.traffic) == (lane_bytes, traffic)


@pytest.mark.parametrize(("text", "arch", "flops", "fma", "per_wave"), [
    ("v_fma_f32 v0, v1, v2, v3", "gfx900", (("f32", 2),), 1, False),           # an FMA is 2 flops
    ("v_add_f64 v[0:1], v[2:3], v[4:5]", "gfx900", (("f64", 1),), 0, False),
    ("v_pk_fma_f16 v0, v1, v2, v3", "gfx900", (("f16", 4),), 2, False),        # two halves, each an FMA
    ("v_cvt_f32_f16 v0, v1", "gfx900", (), 0, False),                          # a conversion: no flops
    # VOPD: an FMAC (2) and a MUL (1) per lane
    ("v_dual_fmac_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5", "gfx1100", (("f32", 3),), 1, False),
    # MFMA 32x32x8: 2 x 32 x 32 x 8 flops per wave, f16 sources
    ("v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "gfx908", (("f16", 16384),), 8192, True),
    # 4x4x4 computes 16 blocks at once: 2 x 4 x 4 x 4 x 16
    ("v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]", "gfx908", (("f16", 2048),), 1024, True),
])
def test_flops_by_precision(text: str, arch: str, flops: tuple[tuple[str, int], ...], fma: int,
                            per_wave: bool) -> None:
    facts = _facts(text, arch)
    assert (facts.flops, facts.fma, facts.per_wave) == (flops, fma, per_wave)


def test_hazard_and_sequencer_facts() -> None:
    dpp = _facts("v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "gfx900")
    assert (dpp.base, dpp.dpp) == ("v_mov_b32", True)
    sdwa = _facts("v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_0",
                  "gfx900")
    assert (sdwa.base, sdwa.dpp) == ("v_add_f16", False)
    assert _facts("s_nop 3", "gfx900").nop_count == 3
    assert _facts("v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "gfx908").mfma_shape == "32x32"
    assert _facts("s_barrier", "gfx900").barrier and not _facts("s_nop 0", "gfx900").barrier


def test_mnemonic_spellings() -> None:
    # LLVM's VALU encoding suffixes: _e32/_e64 choose a size, _sdwa/_dpp change how sources are read
    assert base_mnemonic("v_add_f32_e64_dpp") == ("v_add_f32", "e64_dpp")
    assert base_mnemonic("v_mov_b32_dpp8") == ("v_mov_b32", "dpp8")
    assert base_mnemonic("s_mov_b32") == ("s_mov_b32", "")
    assert without_size_suffix("v_add_f32_e64") == "v_add_f32"
    assert without_size_suffix("v_add_f32_sdwa") == "v_add_f32_sdwa"
    assert is_dpp("v_mov_b32", ["row_shr:1"]) and is_dpp("v_mov_b32_dpp8", [])
    assert not is_dpp("v_mov_b32_e32", ["dst_sel:WORD_1"])
    halves = vopd_halves("v_dual_fmac_f32 v0, v1, v2 :: v_dual_mov_b32 v3, 1.0")
    assert [dual_to_single(h.mnemonic) for h in halves] == ["v_fmac_f32", "v_mov_b32"]
    assert [len(h.operands) for h in halves] == [3, 2]
