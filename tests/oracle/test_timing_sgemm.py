"""A GCN SGEMM-style inner loop of our own (examples/kernels/timing/sgemm_4x4.cl), compiled by clang-19 for
gfx902 (Raven, Ryzen 5 2400G) and gfx90a (MI250X): FMA per clock, Gflop/s against the device roof and the
memory bound, each derived by hand below from the compiled loop and the cited rates."""

from __future__ import annotations

from pathlib import Path

import pytest

import isalens
from isalens.engine.timing import kernel_timing
from isalens.frontends.clang import compile_opencl, find_clang

SOURCE = Path(__file__).resolve().parents[2] / "examples" / "kernels" / "timing" / "sgemm_4x4.cl"


def _compile(tmp_path: Path, target: str) -> tuple[isalens.LoadedKernel, list[str]]:  # type: ignore[name-defined]
    if find_clang() is None:
        pytest.skip("clang is not installed (run scripts/setup.sh)")
    out = tmp_path / f"sgemm.{target}.s"
    compile_opencl(SOURCE, target, out_asm=out)
    text = out.read_text().splitlines()
    start = next(i for i, ln in enumerate(text) if ln.startswith(".LBB0_2:"))
    end = next(i for i in range(start, len(text)) if "s_cbranch_scc0 .LBB0_2" in text[i])
    body = [ln.split(";")[0].strip() for ln in text[start + 1:end + 1] if ln.strip() and not ln.strip().startswith(";")]
    return isalens.load(out, target).kernels[0], body


def test_sgemm_gfx902(tmp_path: Path) -> None:
    kernel, body = _compile(tmp_path, "gfx902")
    valu = [b for b in body if b.startswith("v_")]
    fma = [b for b in valu if b.startswith("v_fma_f32")]
    wide = [b for b in valu if b.startswith("v_lshlrev_b64")]
    # the loop clang-19 -O3 gives: 16 v_fma_f32, 2 v_lshlrev_b64, 8 other VALU ops (2 v_ashrrev_i32, 2 v_add_co,
    # 2 v_addc_co, 2 v_add_u32), 2 global_load_dwordx4
    assert (len(fma), len(wide), len(valu) - len(fma) - len(wide)) == (16, 2, 8)
    assert sum(b.startswith("global_load_dwordx4") for b in body) == 2
    t = kernel_timing(kernel, waves=8, device="ryzen-5-2400g")
    (loop,) = t.loops
    # VALU issue per wave64 (SIMD16, 4 cycles per full-rate op [domain.md section 2]; 64-bit shifts half rate,
    # 8 cycles [LLVM SIQuarterSpeedModel Write64Bit 2]): 16 x 4 + 2 x 8 + 8 x 4 = 64 + 16 + 32 = 112 cycles
    valu_cycles = 112
    assert loop.issue_cycles["valu"] == valu_cycles
    # 8 waves on a SIMD: 8 x 112 = 896 exceeds one wave's latency chain (a 320-cycle load + ~30 instructions)
    assert 320 < loop.latency_cycles < 8 * valu_cycles
    assert loop.cycles_per_iteration == 8 * valu_cycles
    assert loop.bottleneck == "VALU issue"
    # FMA per clock per CU: 16 FMAs x 64 lanes x 8 waves / 896 cycles x 4 SIMDs = 36.6 (of 256 peak)
    fma_per_clk = 16 * 64 * 8 / (8 * valu_cycles) * 4
    assert loop.fma_per_clock_per_cu == pytest.approx(fma_per_clk)
    # Gflop/s: 36.6 x 2 flops per FMA x 11 CUs x 1.25 GHz = 1006, against the 1760 Gflop/s roof (704 SPs x 2 x 1.25 GHz)
    r = loop.roofs
    assert r is not None
    assert r.issue_model == pytest.approx(fma_per_clk * 2 * 11 * 1.25)
    assert r.compute == 1760
    # memory bound: per wave-iteration 2048 flops (16 x 64 x 2) over 2 x 16 B x 64 lanes = 2048 B -> 1 flop/B;
    # x 46.9 GB/s (dual-channel DDR4-2933) = 46.9 Gflop/s: this kernel (no reuse between work-items) is
    # memory-bound by far
    assert loop.work.flops == {"f32": 2048} and loop.work.bytes_global == 2048
    assert r.arithmetic_intensity == pytest.approx(1.0)
    assert r.dram == pytest.approx(46.9)
    assert r.bound == "dram bandwidth"
    # one wave alone waits for its loads
    assert kernel_timing(kernel, waves=1).loops[0].bottleneck == "global-memory latency with 1 wave per SIMD"


def test_sgemm_gfx90a(tmp_path: Path) -> None:
    kernel, body = _compile(tmp_path, "gfx90a")
    valu = [b for b in body if b.startswith("v_")]
    pk = [b for b in valu if b.startswith("v_pk_fma_f32")]
    # clang-19 packs the 16 FMAs into 8 v_pk_fma_f32 (two fp32 FMAs per lane); 11 other VALU ops
    assert (len(pk), len(valu) - len(pk)) == (8, 11)
    t = kernel_timing(kernel, waves=8, device="mi250x")
    (loop,) = t.loops
    # CDNA2: every op here full rate, 4 cycles per wave64 (64-bit shifts too: LLVM SIDPFullSpeedModel
    # Write64Bit 1; packed FP32 full rate: MI250X packed 95.7 = 2 x 47.9 TF) -> 19 x 4 = 76 cycles
    assert loop.issue_cycles["valu"] == 19 * 4
    assert loop.cycles_per_iteration == 8 * 76
    # FMA per clock per CU: 16 FMAs x 64 lanes x 8 waves / 608 cycles x 4 SIMDs = 53.9
    assert loop.fma_per_clock_per_cu == pytest.approx(16 * 64 * 8 / 608 * 4)
    r = loop.roofs
    assert r is not None
    # 53.9 FMA/clk x 2 x 220 CUs x 1.7 GHz = 40,311 Gflop/s; the compute roof of packed FP32 is AMD's
    # "Packed FP32 (Peak) 95.7 TF" (14080 x 4 x 1.7 GHz), not the 47.9 TF non-packed peak (issue 29)
    assert r.issue_model == pytest.approx(16 * 64 * 8 / 608 * 4 * 2 * 220 * 1.7)
    assert r.compute == 95700
    # memory: 1 flop/B x 3276.8 GB/s = 3276.8 Gflop/s
    assert r.dram == pytest.approx(3276.8)
    assert r.bound == "dram bandwidth"
