"""The timing model: data coverage, issue ratios (domain.md section 1.2), s_waitcnt and s_nop semantics,
trip counts and bad input. Expected figures are derived by hand in the comments from the cited rates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import isalens
from isalens.arch.timing import FAMILIES, UNITS, timing_table
from isalens.cli import main
from isalens.engine.timing import instruction_classes, kernel_timing
from isalens.isa.amdgcn.classes import UNKNOWN, class_keys, class_of

DATA = Path(isalens.__file__).parent / "isa" / "amdgcn" / "data"
#: mnemonic list -> timing table and the generation its class rules use
LISTS = {"gfx8": ("gfx8", 8), "gfx9": ("gfx9", 9), "cdna1": ("cdna1", 9), "cdna2": ("cdna2", 9),
         "cdna3": ("cdna3", 9), "cdna4": ("cdna3", 9), "gfx10_1": ("gfx10", 10), "gfx10_3": ("gfx10", 10),
         "gfx11": ("gfx11", 11), "gfx12": ("gfx12", 12), "gfx12_5": ("gfx12", 12)}


#: GCN1/GCN2 have mnemonic lists but no sourced timing figures: the timing command refuses them (tested below)
UNMODELLED = {"gfx6": "gfx601", "gfx7": "gfx700"}


def test_every_family_list_is_covered() -> None:
    assert sorted(p.stem.removeprefix("mnemonics_") for p in DATA.glob("mnemonics_*.txt")) == sorted(
        {*LISTS, *UNMODELLED})


@pytest.mark.parametrize("target", sorted(UNMODELLED.values()))
def test_unmodelled_targets_are_refused_in_one_line(target: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from isalens.cli import main
    src = tmp_path / "k.s"
    src.write_text("v_add_f32 v0, v1, v2\ns_endpgm\n")
    assert main(["timing", str(src), "--arch", target]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no timing facts" in err[0]


@pytest.mark.parametrize("name", sorted(LISTS))
def test_every_mnemonic_gets_a_unit_and_a_rate(name: str) -> None:
    family, generation = LISTS[name]
    table = timing_table(family)
    mnemonics = [m.strip() for m in (DATA / f"mnemonics_{name}.txt").read_text().splitlines()
                 if m.strip() and not m.startswith("#")]
    assert len(mnemonics) > 100
    missing = []
    for m in mnemonics:
        klass = class_of(m, generation)
        entry = table.of(klass)
        if klass == UNKNOWN or entry is None or entry.unit not in UNITS or entry.issue64 < 1 or entry.issue32 < 1:
            missing.append((m, klass))
    assert not missing, missing[:10]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_class_key_has_an_entry(family: str) -> None:
    assert set(class_keys()) <= set(timing_table(family).classes)


def test_family_differences() -> None:
    # fp64: 1/16 of fp32 on consumer gfx9 (64 vs 4 cycles), 1/2 on MI100, full rate on MI200
    assert [timing_table(f).of("valu.f64").issue64 for f in ("gfx9", "cdna1", "cdna2")] == [64, 8, 4]  # type: ignore[union-attr]
    # RDNA: wave32 in one pass, wave64 in two; gfx11 moves transcendentals to their own unit
    assert (timing_table("gfx10").of("valu.f32").issue32, timing_table("gfx10").of("valu.f32").issue64) == (1, 2)  # type: ignore[union-attr]
    assert timing_table("gfx11").of("valu.trans").unit == "trans"  # type: ignore[union-attr]
    assert timing_table("gfx10").of("global.store").counters == ("vscnt",)  # type: ignore[union-attr]
    assert timing_table("gfx9").of("global.store").counters == ("vmcnt",)  # type: ignore[union-attr]
    assert timing_table("gfx12").of("global.load").counters == ("loadcnt",)  # type: ignore[union-attr]


def _json(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *args: str) -> dict:  # type: ignore[type-arg]
    path = tmp_path / "k.s"
    path.write_text(text)
    code = main(["timing", str(path), "--json", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)["files"][0]["kernels"][0]["timing"]  # type: ignore[no-any-return]


# domain.md section 1.2 on gfx9. Every instruction below is a full-rate VALU op: a wave64 occupies the SIMD16
# for 64 / 16 = 4 cycles (domain.md section 2). s_endpgm goes to the branch unit, not the VALU.
UPPER_HALF = """v_lshrrev_b32_e32 v2, 16, v0
v_lshrrev_b32_e32 v3, 16, v1
v_add_f16_e32 v2, v2, v3
v_lshlrev_b32_e32 v2, 16, v2
v_or_b32_e32 v0, v0, v2
s_endpgm
"""  # 5 x 4 = 20 VALU cycles
UPPER_HALF_SDWA = """v_add_f16_sdwa v0, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_1
s_endpgm
"""  # 1 x 4 = 4 cycles: the seed's "1/5th the rate" is 20 : 4
EMULATED = """v_add_f16_e32 v4, v0, v1
v_lshrrev_b32_e32 v2, 16, v0
v_lshrrev_b32_e32 v3, 16, v1
v_add_f16_e32 v2, v2, v3
v_lshlrev_b32_e32 v2, 16, v2
v_or_b32_e32 v0, v4, v2
s_endpgm
"""  # 6 x 4 = 24 cycles (gfx9 16-bit ops zero the high half, so v4's high half is 0 for the OR)
SDWA_PAIR = """v_add_f16_e32 v4, v0, v1
v_add_f16_sdwa v4, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_1
s_endpgm
"""  # 2 x 4 = 8 cycles
PACKED = """v_pk_add_f16 v0, v0, v1
s_endpgm
"""  # 1 x 4 = 4 cycles -> 24 : 8 : 4 = 6 : 2 : 1


def test_sdwa_rate_domain_1_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    five = _json(tmp_path, capsys, UPPER_HALF, "--arch", "gfx902")["kernel"]["issue_cycles"]
    one = _json(tmp_path, capsys, UPPER_HALF_SDWA, "--arch", "gfx902")["kernel"]["issue_cycles"]
    assert (five["valu"], one["valu"]) == (20, 4)
    assert five["valu"] == 5 * one["valu"]


def test_packed_add_ratio_6_2_1_and_ops_per_second(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--arch", "gfx902", "--waves", "8", "--device", "ryzen-5-2400g")
    docs = [_json(tmp_path, capsys, text, *args)["kernel"] for text in (EMULATED, SDWA_PAIR, PACKED)]
    assert [d["issue_cycles"]["valu"] for d in docs] == [24, 8, 4]
    # every variant adds 2 fp16 values per lane: 2 x 64 = 128 flops per wave
    assert [d["flops"] for d in docs] == [{"f16": 128}] * 3
    # ops/s on a Ryzen 5 2400G (11 CUs x 4 SIMDs at 1250 MHz), 8 waves per SIMD, VALU-bound:
    # packed: 128 flops x 8 waves / (8 x 4 cycles) = 32 flops/clk/SIMD x 44 SIMDs x 1.25 GHz = 1760 Gflop/s
    # SDWA pair: / 2 = 880; emulation: / 6 = 293.3
    gflops = [d["roofs"]["issue_model_gflops"] for d in docs]
    assert gflops == [pytest.approx(1760 / 6, abs=0.1), pytest.approx(880), pytest.approx(1760)]
    assert all(d["bottleneck"] == "VALU issue" for d in docs)


def _timing(text: str, arch: str = "gfx902", **kw: object):  # type: ignore[no-untyped-def]
    kernel = isalens.load(text, arch).kernels[0]
    return kernel_timing(kernel, **kw)  # type: ignore[arg-type]


def test_waitcnt_waits_for_all_but_n_older_loads() -> None:
    # gfx9: without --memory-level a global load is assumed to hit L2, 240 cycles after it issues (timing_gfx9.toml
    # [memory] l2, from gpu-benches' MI210 pointer chase); loads issue every 4 cycles.
    # load A at 0, load B at 4. vmcnt(1) waits only for A (done at 240); vmcnt(0) for B (244).
    base = "global_load_dword v1, v[2:3], off\nglobal_load_dword v4, v[2:3], off\n"
    one = _timing(base + "s_waitcnt vmcnt(1)\nv_add_f32_e32 v5, v1, v1\ns_endpgm\n", waves=1)
    zero = _timing(base + "s_waitcnt vmcnt(0)\nv_add_f32_e32 v5, v1, v4\ns_endpgm\n", waves=1)
    starts_one = {lt.line: lt.start for lt in one.profile.lines}
    starts_zero = {lt.line: lt.start for lt in zero.profile.lines}
    assert starts_one[3] == 240 and starts_zero[3] == 244
    assert one.kernel.bottleneck == "global-memory latency with 1 wave per SIMD"
    assert 1 in one.kernel.bottleneck_lines and 3 in one.kernel.bottleneck_lines


def test_s_nop_takes_n_plus_one_wait_states_on_rdna() -> None:
    # gfx10: one instruction per cycle; s_nop 7 = 8 wait states, so the add issues at 1 + 8 = 9
    t = _timing("v_mov_b32_e32 v0, 0\ns_nop 7\nv_add_f32_e32 v1, v2, v2\ns_endpgm\n", "gfx1030", waves=1)
    assert {lt.line: lt.start for lt in t.profile.lines}[3] == 9


def test_rdna_dependency_waits_for_the_valu_latency() -> None:
    # gfx10: a dependent VALU op waits 5 cycles [LLVM GFX10SpeedModel Write32Bit 5]; an independent one 1
    dep = _timing("v_add_f32_e32 v1, v2, v2\nv_add_f32_e32 v3, v1, v1\ns_endpgm\n", "gfx1030", waves=1)
    ind = _timing("v_add_f32_e32 v1, v2, v2\nv_add_f32_e32 v3, v4, v4\ns_endpgm\n", "gfx1030", waves=1)
    assert [lt.start for lt in dep.profile.lines][:2] == [0, 5]
    assert [lt.start for lt in ind.profile.lines][:2] == [0, 1]


LOOP = """s_mov_b32 s0, 8
.L1:
v_fma_f32 v0, v1, v2, v0
s_add_i32 s0, s0, -1
s_cmp_lg_u32 s0, 0
s_cbranch_scc1 .L1
s_endpgm
"""


def test_trip_counts_weight_the_kernel_and_are_stated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assumed = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--waves", "1")
    given = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--waves", "1", "--trip-count", "3=4")
    (loop,) = given["loops"]
    assert loop["header_line"] == 3 and loop["depth"] == 1 and loop["trip_count"] == 4
    # one v_fma_f32 per iteration: 4 VALU cycles; x 4 trips = 16, x the assumed 10 = 40
    assert given["kernel"]["issue_cycles"]["valu"] == 16
    assert assumed["kernel"]["issue_cycles"]["valu"] == 40
    assert any("trip count 10 assumed" in a for a in assumed["assumptions"])
    assert not any("trip count" in a for a in given["assumptions"])
    # FMA = 2 flops per lane, 64 lanes
    assert loop["flops"] == {"f32": 128}


@pytest.mark.parametrize(("args", "fragment"), [
    (("--device", "no-such-gpu"), "unknown device"),
    (("--trip-count", "99=4"), "no loop has its header at line 99"),
    (("--waves", "-2"), "--waves must be at least 1"),
    (("--waves", "two"), "--waves expects"),
    (("--trip-count", "3"), "--trip-count expects LINE=N"),
    (("--what-if", "colour=red"), "--what-if expects"),
    # a SIMD holds at most 10 waves before gfx10 but on gfx90a (LLVM's AMDGPUBaseInfo.cpp getMaxWavesPerEU:
    # 8 on gfx90a, 10 before gfx10, 16 with gfx10.3's instructions, else 20): cycles for 11 describe no hardware
    (("--waves", "11"), "--waves 11: gfx902 holds at most 10 waves per SIMD (wave64)"),
    (("--what-if", "waves=2,16"), "--what-if waves 16: gfx902 holds at most 10 waves per SIMD"),
    # a device of another generation (devices.toml: the MI300X is gfx942, the RX 6900 XT gfx1030, the HD 4870 an
    # RV770): its compute units, clocks and bandwidth were applied to the gfx9 rates without a word
    (("--device", "mi300x"), "--device mi300x is a gfx942 device and the kernel is gfx902 (gfx9)"),
    (("--what-if", "device=mi50,rx-6900-xt"), "--what-if device rx-6900-xt is a gfx1030 device"),
    (("--device", "hd4870"), "--device hd4870 is a VLIW (rv770) device"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                      fragment: str) -> None:
    path = tmp_path / "k.s"
    path.write_text(LOOP)
    code = main(["timing", str(path), "--arch", "gfx902", *args])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and fragment in lines[0], err


def test_the_most_waves_a_simd_holds_are_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the limit is the target's (getMaxWavesPerEU, above), not a smaller figure: 10 on gfx902, 16 on gfx1030
    assert _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--waves", "10")["waves"] == 10
    assert _json(tmp_path, capsys, LOOP, "--arch", "gfx1030", "--wave", "32", "--waves", "16")["waves"] == 16
    assert main(["timing", str(tmp_path / "k.s"), "--arch", "gfx1030", "--wave", "32", "--waves", "17"]) == 2
    assert "at most 16 waves per SIMD (wave32)" in capsys.readouterr().err


def test_a_device_of_another_target_of_the_family_is_named_in_the_assumptions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the RX Vega 64 is gfx900 (devices.toml), the kernel gfx902: both gfx9, so it is timed, and says so
    other = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--device", "rx-vega-64")
    assert any("device rx-vega-64 is gfx900, the kernel gfx902" in a for a in other["assumptions"])
    own = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--device", "ryzen-5-2400g")  # a gfx902 APU
    assert not any(a.startswith("device ") for a in own["assumptions"])
    # and a what-if variant on it is timed (its variants list no assumptions)
    both = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--what-if", "device=ryzen-5-2400g,rx-vega-64")
    assert [v["device"] for v in both["what_if"]] == ["ryzen-5-2400g", "rx-vega-64"]


def test_a_multi_die_device_says_a_kernel_runs_on_one_die(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    # ROCm lists each MI250X GCD as a device of its own ("Each GCD ... appears as a separate GPU", ROCm MI250
    # microarchitecture page): 220 / 2 = 110 CUs, 8192-bit / 2 x 3.2 Gbit/s / 8 = 1638.4 GB/s per die
    both = _json(tmp_path, capsys, LOOP, "--arch", "gfx90a", "--device", "mi250x")
    (note,) = [a for a in both["assumptions"] if a.startswith("device mi250x ")]
    assert "2 dies" in note and "one die (110 compute units, 1638.4 GB/s)" in note and "--device mi250x-gcd" in note
    one = _json(tmp_path, capsys, LOOP, "--arch", "gfx90a", "--device", "mi250x-gcd")
    assert not any(a.startswith("device ") for a in one["assumptions"])


def test_classes_come_from_the_class_table() -> None:
    kernel = isalens.load("v_pk_add_f16 v0, v0, v1\ns_endpgm\n", "gfx902").kernels[0]
    assert instruction_classes(kernel) == ["valu.pk.f16", "end"]


def test_aco_model_on_a_listing_states_its_assumptions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # GFX9 under ACO's rules: v_mov_b32 takes 4 cycles (valu32), s_endpgm (SALU class, 4 cycles) first waits
    # for v0 (ready at 0 + 4 = 4, already reached): Latency 8. Usage VALU 4, scalar 4 -> parallelism
    # min(waves, 8 / 4 = 2) = 2 -> Inverse Throughput 8 / 2 = 4.
    path = tmp_path / "k.s"
    path.write_text("BB0:\n\tv_mov_b32_e32 v0, 0 ; 7e000280\n\ts_endpgm ; bf810000\n")
    code = main(["timing", str(path), "--arch", "gfx902", "--dialect", "aco", "--model", "aco", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)["files"][0]["kernels"][0]["aco_timing"]
    assert doc["kernel"] == {"latency": 8, "inverse_throughput": 4}
    assert any("no ACO IR" in a for a in doc["assumptions"])
    assert any("occupancy model" in a for a in doc["assumptions"])


def test_json_names_are_the_shared_vocabulary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the VLIW report maps its loop figures onto these names: they must not drift
    doc = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--device", "ryzen-5-2400g")
    (loop,) = doc["loops"]
    assert {"header_line", "depth", "issue_cycles", "latency_cycles", "waves", "cycles_per_iteration", "bottleneck",
            "flops", "bytes", "roofs"} <= set(loop)
    assert set(loop["bytes"]) == {"global", "lds"}
    assert {"issue_cycles", "latency_cycles", "waves", "cycles_per_iteration", "bottleneck", "flops", "bytes",
            "roofs"} <= set(doc["kernel"])
    assert {"blocks", "loops", "kernel"} <= set(doc)


def test_json_keys_issue_29_keeps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29's acceptance list of keys users and scripts already read (new keys go beside them). Oracle: the
    issue's text, key by key."""
    doc = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--device", "ryzen-5-2400g")
    assert {"waves", "wave_size", "family", "kernel", "loops", "blocks"} <= set(doc)
    assert {"cycles_per_iteration", "flops", "bytes", "roofs", "bottleneck", "issue_cycles"} <= set(doc["kernel"])
    assert doc["loops"] and doc["blocks"]
    for loop in doc["loops"]:
        assert {"header_line", "cycles_per_iteration", "bottleneck", "flops"} <= set(loop)
    for block in doc["blocks"]:
        assert {"index", "start_line", "end_line", "loop_depth"} <= set(block)
    for roofs in (doc["kernel"]["roofs"], *(loop["roofs"] for loop in doc["loops"])):
        assert {"bound", "compute_gflops", "issue_model_gflops"} <= set(roofs)


def test_what_if_reevaluates_waves_and_devices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(tmp_path, capsys, LOOP, "--arch", "gfx902", "--what-if", "waves=1,4", "--what-if",
                "device=ryzen-5-2400g,rx-vega-64")
    variants = doc["what_if"]
    assert [(v["waves"], v["device"]) for v in variants] == [(1, "ryzen-5-2400g"), (1, "rx-vega-64"),
                                                             (4, "ryzen-5-2400g"), (4, "rx-vega-64")]
    # gfx9, per iteration: v_fma_f32 (VALU 4), s_add_i32 and s_cmp_lg_u32 (SALU 4 each), s_cbranch (branch 8):
    # busiest units SALU = branch = 8 cycles. One wave issues every 4 cycles: fma 0, add 4, cmp 8 (its s0 is
    # ready at 4 + 4), branch 12 (SCC ready at 12) and holds the branch unit to 20; the next iteration starts
    # at 16 and ends at 36: 16 cycles per iteration. W=1: max(1 x 8, 16) = 16; W=4: max(4 x 8, 16) = 32.
    one, four = variants[0]["loops"][0]["cycles_per_iteration"], variants[2]["loops"][0]["cycles_per_iteration"]
    assert (one, four) == (16, 32)
    assert variants[0]["loops"][0]["bottleneck"].endswith("with 1 wave per SIMD")
    assert variants[2]["loops"][0]["bottleneck"] in ("SALU issue", "branch/message issue")


def test_valu_sgpr_vmem_hazard_needs_five_wait_states() -> None:
    # Vega ISA 4.5: a VMEM instruction reading an SGPR a VALU wrote must follow it by 5 wait states. Right
    # after the v_readfirstlane (0 in between) the load waits 5; after s_nop 4 (5 wait states) it does not.
    bare = _timing("v_readfirstlane_b32 s0, v1\nbuffer_load_dword v2, v3, s[0:3], 0 offen\ns_endpgm\n", waves=1)
    padded = _timing("v_readfirstlane_b32 s0, v1\ns_nop 4\nbuffer_load_dword v2, v3, s[0:3], 0 offen\ns_endpgm\n",
                     waves=1)
    load = next(lt for lt in bare.profile.lines if lt.line == 2)
    assert (load.reason, load.stall) == ("hazard", 5)
    assert next(lt for lt in padded.profile.lines if lt.line == 3).reason != "hazard"
    # RDNA has no such table entry: no hazard stall
    rdna = _timing("v_readfirstlane_b32 s0, v1\nbuffer_load_dword v2, v3, s[0:3], 0 offen\ns_endpgm\n", "gfx1030",
                   waves=1)
    assert next(lt for lt in rdna.profile.lines if lt.line == 2).reason != "hazard"


def test_every_kernel_with_an_untimed_instruction_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two kernels, one instruction text no class rule knows (kept with --ignore-unknown): both are timed as a
    # full-rate VALU op and both must say so, although the costs of that text are computed once per process
    kernel = ("\t.globl\t{0}\n\t.type\t{0},@function\n{0}:\n\tzz_foo v0, v1\n\ts_endpgm\n.Lfunc_end_{0}:\n"
              "\t.size\t{0}, .Lfunc_end_{0}-{0}\n")
    path = tmp_path / "two.s"
    path.write_text("\t.text\n" + kernel.format("k1") + kernel.format("k2"))
    code = main(["timing", str(path), "--arch", "gfx900", "--ignore-unknown", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    docs = json.loads(out.out)["files"][0]["kernels"]
    assert [d["name"] for d in docs] == ["k1", "k2"]
    for doc in docs:
        assert any(a.startswith("no timing entry") and "zz_foo" in a for a in doc["timing"]["assumptions"]), doc


FMA64 = """v_fma_f64 v[0:1], v[2:3], v[4:5], v[0:1]
s_endpgm
"""


@pytest.mark.parametrize(("device", "cycles"), [(None, 64), ("radeon-vii", 16), ("mi50", 8), ("radeon-pro-vii", 8)])
def test_fp64_rate_is_the_products(device: str | None, cycles: int, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """gfx906 runs fp64 at the rate of the product (issue 29 item 1). Derived from the cited peaks: a full-rate
    wave64 op is 4 cycles; Radeon VII 3456 / 13824 Gflop/s = 1/4 -> 16 cycles; MI50 6600 / 13248 and Radeon
    Pro VII 6500 / 13056 = 1/2 -> 8; without a device the consumer Vega rate 1/16 -> 64."""
    args = ("--arch", "gfx906", "--waves", "8") + (("--device", device) if device else ())
    assert _json(tmp_path, capsys, FMA64, *args)["kernel"]["issue_cycles"]["valu"] == cycles


def test_what_if_devices_take_their_own_fp64_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(tmp_path, capsys, FMA64, "--arch", "gfx906", "--waves", "8", "--what-if", "device=radeon-vii,mi50")
    # one wave-64 FMA per wave, 8 waves: 8 x 16 and 8 x 8 cycles (rates as in the test above)
    assert [v["kernel"]["cycles_per_iteration"] for v in doc["what_if"]] == [128, 64]


def test_gfx906_multiplies_at_half_rate_gfx900_at_quarter() -> None:
    text = "v_mul_lo_u32 v0, v1, v2\ns_endpgm\n"
    # half rate on gfx906 (clpeak's integer test on Radeon VII/MI50: 8 cycles, timing_gfx9.toml's citation),
    # the GCN guides' quarter rate (16 cycles) on gfx900
    assert _timing(text, "gfx906").kernel.issue_cycles["valu"] == 8
    assert _timing(text, "gfx900").kernel.issue_cycles["valu"] == 16


@pytest.mark.parametrize(("arch", "scalar", "packed"), [
    ("gfx900", 4, 4), ("gfx906", 8, 4), ("gfx908", 8, 4), ("gfx90a", 8, 4), ("gfx942", 8, 4),
    ("gfx1010", 1, 1), ("gfx1012", 2, 1), ("gfx1030", 1, 1), ("gfx1100", 1, 1),
])
def test_scalar_fp16_fma_is_half_rate_where_measured(arch: str, scalar: int, packed: int) -> None:
    """issue 29: clpeak's scalar fp16 chain (one v_fma_f16 per step, as clang-19 compiles it) measured 0.48-0.51 of
    the scalar fp32 chain on gfx906 (MI50 x3, Radeon Pro VII), gfx908 (MI100), gfx90a (MI250X GCD) and gfx1012
    (RX 5500 XT), 0.56 of full rate on gfx942 (MI300X), but the full rate on gfx1030/gfx1036 (timing_gfx9.toml's
    citations). So a wave64 v_fma_f16 takes 2 x 4 cycles there, a wave32 one 2 x 1 on gfx1012; packed fp16 stays
    at 4 (wave64) and 1 (wave32); unmeasured parts (gfx900, gfx1010) keep the full rate."""
    fma = _timing("v_fma_f16 v0, v1, v2, v3\ns_endpgm\n", arch).kernel.issue_cycles["valu"]
    pk = _timing("v_pk_fma_f16 v0, v1, v2, v3\ns_endpgm\n", arch).kernel.issue_cycles["valu"]
    assert (fma, pk) == (scalar, packed)


@pytest.mark.parametrize(("arch", "cycles"), [("gfx1030", 16), ("gfx1100", 16), ("gfx1103", 32), ("gfx1200", 32),
                                             ("gfx1201", 32)])
def test_rdna3_rdna4_fp64_rate_where_measured(arch: str, cycles: int) -> None:
    """issue 29 ("RDNA3 parts may differ from RDNA2"): clpeak's fp64 chain measured 1/32.7 of single-issue FP32 on
    a Radeon 760M (gfx1103: 87.6 of 2,867 Gflop/s) and 1/31 on an RX 9070 XT (gfx1201: 828 of 25,607), against 1/16
    on RDNA2 (RX 6900 XT 1,582 of 24,483); vkpeak's fp64 chains on an RX 9060 XT (gfx1200) 444.9 Gflop/s, where
    its fp32-scalar row (17,679) needs at least 2.16 GHz on 32 CUs even fully dual-issued, at which 1/16 would give
    552: below 1/16, and gfx1201's 1/32 is taken. A wave32 FP32 op issues in 1 cycle, so v_fma_f64 takes 32 there
    and 16 on the unmeasured RDNA3 targets, as on RDNA2."""
    assert _timing("v_fma_f64 v[0:1], v[2:3], v[4:5], v[0:1]\ns_endpgm\n", arch).kernel.issue_cycles["valu"] == cycles


def test_cdna3_dual_issues_non_packed_fp32() -> None:
    fma = "v_fma_f32 v0, v1, v2, v0\nv_fma_f32 v3, v1, v2, v3\ns_endpgm\n"
    pk = "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[0:1]\ns_endpgm\n"
    # MI300X: 256 FP32 flops/clock/CU = 2 per lane per clock on 4 SIMD16s: a wave64 v_fma_f32 in 2 cycles, so two
    # of them equal one v_pk_fma_f32 (4 cycles); on MI250X (gfx90a) the non-packed pair takes 8
    assert _timing(fma, "gfx942").kernel.issue_cycles["valu"] == _timing(pk, "gfx942").kernel.issue_cycles["valu"] == 4
    assert _timing(fma, "gfx90a").kernel.issue_cycles["valu"] == 8


@pytest.mark.parametrize(("text", "device", "roof"), [
    ("v_mfma_i32_32x32x16_i8 a[0:15], v[0:1], v[2:3], a[0:15]\ns_endpgm\n", "mi300x", 2614900),
    ("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]\ns_endpgm\n", "mi300x", 1307400),
    ("v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[0:1]\ns_endpgm\n", "mi250x-gcd", 47850),
])
def test_compute_roof_is_the_units_peak(text: str, device: str, roof: float) -> None:
    """MFMA loops are bounded by the matrix cores' peak of their precision (ROCm MI300 page: INT8 2614.9 TOPS,
    FP16 1307.4 TFLOPS dense), not the FP32 vector peak; packed FP32 by the packed peak (95.7 TF / 2 GCDs)."""
    r = _timing(text, "gfx942" if device == "mi300x" else "gfx90a", device=device, waves=4).kernel.roofs
    assert r is not None and r.compute == roof


MFMA_LOOP = """s_mov_b32 s0, 8
BB0:
v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]
s_sub_u32 s0, s0, 1
s_cmp_lg_u32 s0, 0
s_cbranch_scc1 BB0
s_endpgm
"""


def test_matrix_loops_run_at_the_measured_gemm_clock(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """issue 29: the MI300X's engine clock in a dense GEMM follows the data, 1188 MHz with random data and 1792 MHz
    with zeros (AMD ROCm blog "Measuring Max-Achievable FLOPs - Part 2", footnote 1). A matrix loop's issue model
    is flops x waves / cycles x 4 SIMDs x 304 CUs x that clock; a loop without MFMA keeps the 2100 MHz peak."""
    t = _timing(MFMA_LOOP, "gfx942", device="mi300x", waves=4)
    (loop,) = t.loops
    r = loop.roofs
    assert r is not None and loop.work.flops == {"f16": 2 * 32 * 32 * 8 * 2}
    per_clock = sum(loop.work.flops.values()) * 4 / loop.cycles_per_iteration * 4 * 304
    assert (r.clock_mhz, r.clock_basis) == (1188, "matrix clock for random data, assumed")
    assert r.issue_model == pytest.approx(per_clock * 1188 / 1000)
    assert r.issue_model_high == pytest.approx(per_clock * 1792 / 1000)
    assert r.bound == "issue model" and r.compute == 1307400  # AMD's peak (at 2100 MHz) stays the compute roof
    assert any("1188 MHz" in a and "--matrix-data low-toggle" in a for a in t.assumptions)
    low = _timing(MFMA_LOOP, "gfx942", device="mi300x", waves=4, matrix_data="low-toggle").loops[0].roofs
    assert low is not None and low.clock_mhz == 1792 and low.issue_model_high is None
    assert low.issue_model == pytest.approx(per_clock * 1792 / 1000)
    vector = _timing(MFMA_LOOP.replace("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]",
                                       "v_pk_fma_f32 v[4:5], v[0:1], v[2:3], v[4:5]")
                     .replace("v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]",
                              "v_pk_fma_f32 v[6:7], v[0:1], v[2:3], v[6:7]"), "gfx942", device="mi300x", waves=4)
    vr = vector.loops[0].roofs
    assert vr is not None and (vr.clock_mhz, vr.clock_basis, vr.issue_model_high) == (2100, "peak engine clock", None)
    assert not any("matrix loops" in a for a in vector.assumptions)
    cdna2 = MFMA_LOOP.replace("32x32x8_f16", "32x32x8f16")  # gfx90a's spelling
    other = _timing(cdna2, "gfx90a", device="mi250x-gcd", waves=4).loops[0].roofs  # no measured matrix clock
    assert other is not None and other.clock_mhz == 1700 and other.issue_model_high is None
    src = tmp_path / "k.s"
    src.write_text(MFMA_LOOP)
    assert main(["timing", str(src), "--arch", "gfx942", "--device", "mi300x", "--waves", "4", "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["timing"]["loops"]
    assert doc["roofs"]["clock_mhz"] == 1188
    assert doc["roofs"]["issue_model_gflops_range"] == [round(per_clock * 1.188, 1), round(per_clock * 1.792, 1)]
    assert main(["timing", str(src), "--arch", "gfx942", "--device", "mi250x-gcd", "--matrix-data", "random"]) == 2
    assert "--matrix-data needs a --device with measured matrix clocks (mi300x)" in capsys.readouterr().err


def test_loops_are_named_by_their_source_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """issue 27/29 item 7: with source lines, each loop's JSON carries {file, first_line, last_line}. Oracle: the
    file itself - sgemm_4x4.cl's loop is the `for` on line 9 and its body's statements end on line 15 (the closing
    brace on 16 generates no code)."""
    from tests.conftest import require_tool
    require_tool("clang-19")
    src = Path(__file__).resolve().parents[2] / "examples" / "kernels" / "timing" / "sgemm_4x4.cl"
    assert main(["timing", str(src), "--arch", "gfx902", "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["timing"]["loops"]
    assert loop["source"] == {"file": str(src), "first_line": 9, "last_line": 15}
    assert main(["timing", str(src), "--arch", "gfx902", "--device", "ryzen-5-2400g", "--waves", "8"]) == 0
    text = capsys.readouterr().out
    assert "      source: sgemm_4x4.cl:9-15" in text
    # issue 31: the bound comes first with its own figure; the issue model is what memory-free code would reach.
    # 2048 flops per 2048 bytes x 46.9 GB/s = 47 Gflop/s (docs/timing.md's example, tests/oracle/test_timing_sgemm.py)
    # The 2400G has no published streaming figure, so the roof names the nominal bandwidth (issue 29 item 4).
    assert "      bound: dram bandwidth 47 Gflop/s (intensity 1.00 flop/B x 46.9 GB/s nominal DRAM bandwidth; " \
           "roofs: compute 1760); if memory were free: 1006 Gflop/s (issue model)" in text


def test_listing_loops_have_no_source_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "s_mov_b32 s0, 4\nBB0:\nv_add_f32 v0, v1, v0\ns_sub_u32 s0, s0, 1\ns_cbranch_scc1 BB0\ns_endpgm\n"
    (loop,) = _json(tmp_path, capsys, text, "--arch", "gfx902")["loops"]
    assert "source" not in loop


@pytest.mark.parametrize(("line", "lane_bytes"), [
    # register data per lane, by hand from the ISA guides' field descriptions: 4 bytes per dmask channel, 2 with
    # D16 (16-bit data); a gather4 returns one channel of each of four texels; a format op's x/xy/xyz/xyzw
    ("image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm", 16),
    ("image_load v[0:1], v[4:5], s[8:15] dmask:0xf unorm d16", 8),
    ("image_load v[0:1], v[4:5], s[8:15] dmask:0x3 unorm", 8),
    ("image_gather4 v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1", 16),
    ("buffer_load_format_xyzw v[0:3], off, s[8:11], 0", 16),
    ("buffer_load_format_d16_xy v0, off, s[8:11], 0", 4),
    ("buffer_load_format_d16_hi_x v0, off, s[8:11], 0", 2),
])
def test_image_and_format_bytes_are_their_register_data(line: str, lane_bytes: int) -> None:
    t = _timing(line + "\ns_waitcnt vmcnt(0)\ns_endpgm\n", "gfx900", waves=1)
    assert t.kernel.work.bytes_global == 64 * lane_bytes
    # and the report says these bytes are not the memory format's (the descriptor holds it)
    assert any(a.startswith("image and format buffer accesses count their register data") for a in t.assumptions)


def test_plain_loads_state_no_format_assumption() -> None:
    t = _timing("global_load_dwordx4 v[0:3], v[4:5], off\ns_waitcnt vmcnt(0)\ns_endpgm\n", "gfx900", waves=1)
    assert t.kernel.work.bytes_global == 64 * 16
    assert not any(a.startswith("image and format") for a in t.assumptions)
