"""Occupancy, latency hiding and the timing section of ``isalens vliw`` (domain.md §1.4).

Every expected figure is derived by hand in the comments from the cited facts:
  * GPRs per SIMD lane slot 256, clause temporaries 4 reserved twice -> 248 to share (AMD's OpenCL guide:
    1 GPR -> 248 wavefronts, 30 GPRs -> 8), at most 32 wavefronts per SIMD;
  * the HD 4870 has 248 wavefront slots on 10 SIMDs -> at most 24 per SIMD;
  * a 64-wide wavefront covers a SIMD's 16 thread processors in 4 clocks per instruction group.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.analysis.vliw import VliwAnalysis
from isalens.arch.devices import load_devices
from isalens.arch.vliw_occupancy import GENERATIONS as OCC_GENERATIONS
from isalens.arch.vliw_occupancy import occupancy_facts
from isalens.cli import main as isalens_main
from isalens.engine.vliw import analyze_vliw, load_vliw
from isalens.errors import IsalensError
from isalens.isa.r600.rules import GENERATIONS, generation_of
from tests.conftest import EXAMPLES

VLIW = EXAMPLES / "vliw"


def analyze(source: str | Path, *, target: str | None = None, device: str | None = None,
            fetch_latency: int | None = None) -> VliwAnalysis:
    return analyze_vliw(load_vliw(source, target=target), device, None, fetch_latency)


def run_cli(*argv: str) -> int:
    """``isalens vliw ARGV`` through :func:`isalens.cli.main`, the one place errors become exit codes."""
    return isalens_main(["vliw", *argv])


def test_sgemm_occupancy_latency_and_timing(capsys: pytest.CaptureFixture[str]) -> None:
    result = analyze(VLIW / "sgemm_8x8.rv770.isa", device="hd4870")
    occ = result.total.occupancy
    assert occ is not None
    # R0..R27 = 28 GPRs: 248 / 28 = 8.86 -> 8 wavefronts; the HD 4870's 248 slots / 10 SIMDs = 24 -> GPRs limit
    assert (occ.gprs, occ.available, occ.gpr_limit, occ.hardware_limit, occ.wavefronts, occ.limiter) == \
        (28, 248, 8, 24, 8, "gprs")
    (loop,) = result.total.loops
    t = loop.timing
    assert t is not None
    # 32 groups x 4 clocks = 128 ALU clocks per wavefront-iteration; one TEX clause waiting 180 clocks needs
    # 1 + ceil(180 / 128) = 3 wavefronts; 8 fit -> hidden; 3 wavefronts leave 248 / 3 = 82 GPRs = 328 scalars
    h = t.latency
    assert (h.alu_cycles, h.fetch_clauses, h.wavefronts_needed, h.hidden) == (128, 1, 3, True)
    assert (h.gprs_for_needed, h.scalars_for_needed) == (82, 328)
    # fetch: 128 bytes x 64 work-items = 8192 bytes at 444 GB/s / (10 SIMDs x 0.75 GHz) = 59.2 bytes/clock
    # = 138.38 clocks > 128 ALU clocks; latency term (128 + 180) / 8 = 38.5 -> the fetch bandwidth limits
    assert t.issue_cycles["alu"] == 128
    assert t.issue_cycles["fetch"] == pytest.approx(8192 / 59.2)
    assert t.cycles_per_iteration == pytest.approx(8192 / 59.2)
    assert t.bottleneck == "fetch bandwidth"
    assert (t.flops, t.bytes_global, t.bytes_lds, t.latency_cycles, t.waves) == (256, 128, 0, 180, 8)
    # the seed's figures are unchanged: 960 ALU roof, 888 fetch roof; the estimate is the fetch roof again:
    # 256 flops x 64 x 10 SIMDs x 0.75 GHz / 138.38 clocks = 888
    assert t.roofs is not None
    assert (t.roofs.alu_gflops, t.roofs.fetch_gflops, t.roofs.bound) == (pytest.approx(960.0),
                                                                         pytest.approx(888.0), "fetch")
    assert t.roofs.gflops == pytest.approx(888.0)
    assert (loop.gflops, loop.fetch_bound_gflops) == (pytest.approx(960.0), pytest.approx(888.0))

    assert run_cli(str(VLIW / "sgemm_8x8.rv770.isa"), "--device", "hd4870", "--json") == 0
    (doc,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]  # one program: the file's one kernel
    (tl,) = doc["timing"]["loops"]
    # the loop header is line 92 of the file ('01 LOOP_DX10 i0 FAIL_JUMP_ADDR(5)')
    assert (VLIW / "sgemm_8x8.rv770.isa").read_text().split("\n")[91].startswith("01 LOOP_DX10")
    assert (tl["header_line"], tl["depth"], tl["issue_cycles"], tl["cycles_per_iteration"], tl["bottleneck"]) == \
        (92, 0, {"alu": 128.0, "fetch": 138.38}, 138.38, "fetch bandwidth")
    assert (tl["flops"], tl["bytes"], tl["roofs"]["alu_gflops"], tl["roofs"]["fetch_gflops"]) == \
        (256, {"global": 128, "lds": 0}, 960.0, 888.0)
    assert doc["loops"][0]["latency"]["wavefronts_needed"] == 3
    assert (doc["loops"][0]["gflops"], doc["loops"][0]["fetch_bound_gflops"]) == (960.0, 888.0)  # kept keys
    assert doc["occupancy"]["wavefronts_per_simd"] == 8
    # the kernel, every clause once: 48 groups x 4 = 192 ALU clocks, the same 138.38 fetch clocks -> ALU issue
    kernel = doc["timing"]["kernel"]
    assert (kernel["header_line"], kernel["depth"], kernel["issue_cycles"]["alu"], kernel["bottleneck"]) == \
        (21, None, 192.0, "ALU issue")


def _seed_loop(gprs: int) -> str:
    # a loop of one TEX clause and an ALU clause of 7 groups; R(gprs - 1) is the highest GPR named
    groups = "".join(f"      {i + 2}  x: MULADD R1.x, R2.x, R2.y, R1.x\n" for i in range(7))
    return ("00 ALU: ADDR(32) CNT(1)\n"
            f"      0  x: MOV R{gprs - 1}.x, 0.0f\n"
            "01 LOOP_DX10 i0 FAIL_JUMP_ADDR(5)\n"
            "    02 TEX: ADDR(80) CNT(1)\n"
            "          1  SAMPLE R2, R0.xyxx, t0, s0\n"
            "    03 ALU: ADDR(40) CNT(7)\n" + groups +
            "04 ENDLOOP i0 PASS_JUMP_ADDR(2)\n"
            "END_OF_PROGRAM\n")


def test_the_seeds_8_wavefronts_leave_about_120_scalars() -> None:
    # 7 groups x 4 clocks = 28 ALU clocks per iteration; hiding a 180-clock L1 hit needs 1 + ceil(180 / 28) =
    # 1 + 7 = 8 wavefronts, which leaves 248 / 8 = 31 GPRs = 124 scalars per work-item (domain.md: "~8
    # wavefronts, which leaves ~120 scalars per thread")
    result = analyze(_seed_loop(gprs=31), target="rv770")
    (loop,) = result.total.loops
    assert loop.timing is not None
    h = loop.timing.latency
    assert (h.alu_cycles, h.wavefronts_needed, h.gprs_for_needed, h.scalars_for_needed) == (28, 8, 31, 124)
    # 31 GPRs: 248 / 31 = 8 wavefronts fit (no device: the 32 per SIMD cap) -> hidden, ALU issue bound
    assert result.total.occupancy is not None and result.total.occupancy.wavefronts == 8
    assert h.hidden is True and loop.timing.bottleneck == "ALU issue"
    # 40 GPRs: 248 / 40 = 6 fit -> not hidden; (28 + 180) / 6 = 34.67 clocks per iteration
    loop = analyze(_seed_loop(gprs=40), target="rv770").total.loops[0]
    assert loop.timing is not None
    assert loop.timing.latency.hidden is False
    assert loop.timing.cycles_per_iteration == pytest.approx(208 / 6)
    assert loop.timing.bottleneck == "fetch latency with 6 wavefronts per SIMD"
    # a shorter latency needs fewer: 1 + ceil(50 / 28) = 3; none at all needs 1
    assert analyze(_seed_loop(40), target="rv770", fetch_latency=50).total.loops[0].timing.latency \
        .wavefronts_needed == 3  # type: ignore[union-attr]
    assert analyze(_seed_loop(40), target="rv770", fetch_latency=0).total.loops[0].timing.latency \
        .wavefronts_needed == 1  # type: ignore[union-attr]


def test_nested_indent_timing_per_loop() -> None:
    result = analyze(VLIW / "nested_indent.rv770.isa", target="rv770", device="hd4870")
    outer, inner = result.total.loops
    assert outer.timing is not None and inner.timing is not None
    # R0..R5 = 6 GPRs: 248 / 6 = 41, above the HD 4870's 24 per SIMD -> 24 wavefronts, hardware-limited
    occ = result.total.occupancy
    assert occ is not None and (occ.wavefronts, occ.limiter, occ.hardware_source) == (24, "hardware", "device")
    # outer: 4 groups = 16 ALU clocks; 24 bytes x 64 / 59.2 = 25.95 fetch clocks; 1 + ceil(180 / 16) = 13
    # wavefronts needed (24 fit) -> 248 / 13 = 19 GPRs = 76 scalars; the fetch bandwidth limits
    assert outer.timing.issue_cycles == {"alu": 16.0, "fetch": pytest.approx(24 * 64 / 59.2)}
    assert (outer.timing.latency.wavefronts_needed, outer.timing.latency.gprs_for_needed) == (13, 19)
    assert outer.timing.bottleneck == "fetch bandwidth"
    # inner: 3 groups = 12 clocks, nothing fetched -> 1 wavefront suffices, ALU issue
    assert (inner.timing.issue_cycles["alu"], inner.timing.latency.wavefronts_needed) == (12.0, 1)
    assert inner.timing.bottleneck == "ALU issue"
    # 2 flops per MAD: 6 MADs -> 12 flops per work-item in either loop
    assert (outer.timing.flops, inner.timing.flops) == (12, 12)


def test_register_file_per_chip_and_declared_gprs() -> None:
    text = _seed_loop(gprs=20)
    # R0..R19 = 20 GPRs. RV770's file is 256: 248 / 20 = 12 wavefronts; RV730's is 128 (Linux rv770.c):
    # (128 - 2 x 4) / 20 = 6
    occ = analyze(text, target="rv770").total.occupancy
    assert occ is not None and (occ.gpr_file, occ.wavefronts) == (256, 12)
    occ = analyze(text, target="rv730").total.occupancy
    assert occ is not None and (occ.gpr_file, occ.available, occ.wavefronts) == (128, 120, 6)
    # NUM_GPRS declared by the compiler is what the hardware allocates: 62 -> 248 / 62 = 4
    occ = analyze("NUM_GPRS = 62\n" + text, target="rv770").total.occupancy
    assert occ is not None and (occ.gprs, occ.wavefronts) == (62, 4)
    # Cayman without a device: R0..R2 = 3 GPRs -> 248 / 3 = 82, above the 32 per SIMD cap
    occ = analyze(_seed_loop(gprs=3), target="cayman").total.occupancy
    assert occ is not None and (occ.gpr_limit, occ.wavefronts, occ.limiter) == (82, 32, "hardware")


def test_occupancy_data_covers_every_generation_and_vliw_device() -> None:
    assert OCC_GENERATIONS == GENERATIONS
    facts = occupancy_facts()
    for dev in load_devices().values():
        if dev.is_vliw:
            gen = generation_of(dev.target)
            assert gen is not None and facts.gprs_available(gen, dev.target) > 0, dev.name
            if dev.max_wavefronts is not None:
                assert dev.max_wavefronts >= dev.compute_units, dev.name


def test_text_uses_the_timing_words_and_bad_latency_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(str(VLIW / "sgemm_8x8.rv770.isa"), "--device", "hd4870", "--fetch-latency", "500") == 0
    out = capsys.readouterr().out
    # 1 + ceil(500 / 128) = 5 wavefronts needed -> 248 / 5 = 49 GPRs
    assert "issue cycles alu 128.0, fetch 138.4; cycles per iteration 138.4; bottleneck: fetch bandwidth" in out
    assert "needs 5 wavefronts (8 fit: hidden); 5 wavefronts leave 49 GPRs (196 scalars)" in out
    assert "8 wavefronts per SIMD (GPR-limited: (256 - 2 x 4 clause temporaries) / 28 GPRs = 8" in out
    for bad in ("-1", "ten", "1" * 5000):
        with pytest.raises(SystemExit) as exc:
            run_cli(str(VLIW / "sgemm_8x8.rv770.isa"), "--fetch-latency", bad)
        assert exc.value.code == 2
    with pytest.raises(IsalensError):
        analyze(VLIW / "sgemm_8x8.rv770.isa", fetch_latency=-5)


def test_analyze_routes_a_vliw_file_with_its_timing(capsys: pytest.CaptureFixture[str]) -> None:
    # `isalens analyze` builds its own argument namespace for VLIW files: the timing must come out there too
    assert isalens_main(["analyze", str(VLIW / "sgemm_8x8.rv770.isa"), "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    # 28 GPRs -> 248 / 28 = 8 wavefronts (no device: the cap is 32); the loop's 32 groups = 128 ALU clocks
    assert doc["occupancy"]["wavefronts_per_simd"] == 8
    assert doc["timing"]["loops"][0]["issue_cycles"] == {"alu": 128.0}
