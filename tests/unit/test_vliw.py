"""VLIW5/VLIW4 analysis: the R700 sample dump, LLVM r600 samples, our own CAL dumps, bad input.

Every expected figure is derived by hand in the comments (or in the example file's header), never
copied from isalens's output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.vliw import ProgramStats, VliwAnalysis
from isalens.arch.devices import load_devices
from isalens.cli import main as isalens_main
from isalens.engine.vliw import analyze_vliw, load_vliw
from isalens.errors import IsalensError, Severity
from isalens.ir.vliw import Unit
from isalens.isa.r600.common import literal_slots
from isalens.isa.r600.rules import GENERATIONS, generation_of, tables
from isalens.report.vliw import render_vliw_text, vliw_dict
from tests.conftest import EXAMPLES

VLIW = EXAMPLES / "vliw"


def analyze(source: str | Path, *, target: str | None = None, device: str | None = None,
            fetch_gbs: float | None = None) -> VliwAnalysis:
    return analyze_vliw(load_vliw(source, target=target), device, fetch_gbs)


def codes(result: VliwAnalysis) -> list[str]:
    return [d.code for d in result.diagnostics]


def run_cli(*argv: str) -> int:
    return isalens_main(["vliw", *argv])


# ------------------------------------------------------------------ CAL dumps against grep counts

def _grep_counts(path: Path) -> dict[str, object]:
    """Figures of a CAL dump counted from its text alone, independently of isalens: numbered group lines,
    slot lines per unit, the ALU and TEX clauses' CNT(n), the highest Rn, multiply-add lines."""
    text = path.read_text()
    slots = {u: len(re.findall(rf"^ +(?:[0-9]+ +)?{u}: ", text, re.M)) for u in "xyzwt"}
    return {
        "groups": len(re.findall(r"^ +[0-9]+ +[xyzwt]:", text, re.M)),
        "per_slot": slots,
        "alu_cnt": sum(int(n) for n in re.findall(r"^ *[0-9]+ +ALU\w*:.*CNT\(([0-9]+)\)", text, re.M)),
        "tex_cnt": sum(int(n) for n in re.findall(r"^ *[0-9]+ +(?:TEX|VTX)\w*:.*CNT\(([0-9]+)\)", text, re.M)),
        "gprs": 1 + max(int(n) for n in re.findall(r"\bR([0-9]+)\b", text)),
        "mads": len(re.findall(r"^ +(?:[0-9]+ +)?[xyzwt]: +(?:MULADD|DOT4)\w*", text, re.M)),
    }


def _check_against_grep(path: Path) -> None:
    p = analyze(path).total
    want = _grep_counts(path)
    assert p.groups == want["groups"]
    assert p.per_slot.as_dict() == want["per_slot"]
    # each ALU clause's CNT(n) counts its operations and literal slots
    assert p.slot_ops + p.literal_slots == want["alu_cnt"]
    assert p.fetches == want["tex_cnt"]
    assert p.gprs == want["gprs"]
    assert p.utilization_pct == pytest.approx(100 * p.slot_ops / (5 * p.groups))
    module = load_vliw(path)
    assert sum(op.mad for c in module.programs[0].clauses for g in c.groups for op in g.ops) == want["mads"]


OWN_R700 = sorted(VLIW.glob("*.rv770.isa"))


@pytest.mark.parametrize("path", OWN_R700, ids=[p.name for p in OWN_R700])
def test_own_r700_dumps_agree_with_grep_counts(path: Path) -> None:
    """Our own hand-written R700 dumps (examples/vliw), the way the reference dump is checked below."""
    _check_against_grep(path)


def test_r700_sample_agrees_with_grep_counts(samples: Path) -> None:
    _check_against_grep(samples / "r700" / "pixel_shader.isa")


# ------------------------------------------------------------------ the R700 sample (../shared/samples)

def test_r700_pixel_shader_slots(samples: Path) -> None:
    result = analyze(samples / "r700" / "pixel_shader.isa")
    p = result.total
    assert (result.dialect, result.generation, result.width) == ("cal", "r700", 5)
    # Counted with grep, independently of isalens:
    #   grep -cE '^ +[0-9]+ +[xyzwt]:'        -> 146 numbered group lines
    #   grep -cE '^ +([0-9]+ +)?x: ' (y, z ...) -> x 125, y 122, z 121, w 113, t 89 (sum 570)
    assert p.groups == 146
    assert p.per_slot.as_dict() == {"x": 125, "y": 122, "z": 121, "w": 113, "t": 89}
    assert p.slot_ops == 570
    # grep -c '(0x' -> 11 lines with a literal, all '.x' and each in a different group: one 64-bit slot
    # each. Cross-check: the ALU clauses' CNT(n) sum to 581 = 570 operations + 11 literal slots.
    assert p.literal_slots == 11
    assert sum(c.declared or 0 for c in p.clauses if c.kind == "alu") == 581
    # 570 / (146 groups x 5 slots) = 570 / 730 = 78.08 %; the dump's author said "about 80%"
    assert p.utilization_pct == pytest.approx(100 * 570 / 730)
    # the TEX clauses' CNT(n) sum to 69 fetches; highest register R13 -> 14 GPRs
    assert p.fetches == 69
    assert p.gprs == 14
    assert p.alu_fetch_ratio == pytest.approx(146 / 69)
    # clause 01 (ALU_PUSH_BEFORE, CNT(101)): groups 1..22; the 7 DOT4 groups 3, 4, 8, 11, 15, 16, 20 carry
    # the literal (0x80000000, 0.0f).x, so 101 = 94 operations + 7 literal slots
    first = next(c for c in p.clauses if c.index == 1)
    assert (first.groups, first.slot_ops, first.literal_slots, first.slots) == (22, 94, 7, 101)
    assert all(c.count_ok is not False for c in p.clauses)
    # every transcendental (RSQ_sat, RCP_e, RSQ_e, LOG_sat, EXP_e) sits in t and every DOT4 fills x..w
    assert codes(result) == []


def test_r700_sample_mads_and_temporaries(samples: Path) -> None:
    module = load_vliw(samples / "r700" / "pixel_shader.isa")
    ops = [op for c in module.programs[0].clauses for g in c.groups for op in g.ops]
    # grep -cE '^ +([0-9]+ +)?[xyzwt]: +(MULADD|DOT4)' -> 188 multiply-add slots
    assert sum(op.mad for op in ops) == 188
    # the dump's transcendentals: RSQ_sat, RSQ_e, RCP_e, LOG_sat, EXP_e (CAL spellings, see vliw.toml)
    trans = {op.name for op in ops if op.unit is Unit.TRANS}
    assert trans == {"RECIPSQRT_CLAMPED", "RECIPSQRT_IEEE", "RECIP_IEEE", "LOG_CLAMPED", "EXP_IEEE"}
    # clause 01 uses the temporaries T0, T1, T2, T3
    assert max(len({t for g in c.groups for op in g.ops for t in op.temps}) for c in module.programs[0].clauses) == 4


# ------------------------------------------------------------------ LLVM r600 samples
# (extra checks on ../shared/samples; on our own kernels tests/oracle/test_vliw_llvm.py checks every clause's
# slots against LLVM's ALU n + 1, the GPRs, Cayman's four slots and the loops, for Cypress and Cayman)

def test_llvm_cypress_sample_clauses_and_loop(samples: Path) -> None:
    result = analyze(samples / "llvm" / "r600_mm.cypress.s", device="hd5870", fetch_gbs=500.0)
    p = result.total
    alu = [c for c in p.clauses if c.kind == "alu"]
    # ALU n, @a declares n + 1 slots: 17+1, 25+1, 22+1, 18+1
    assert [(c.slots, c.declared) for c in alu] == [(18, 18), (26, 26), (23, 23), (19, 19)]
    # clause @66 by hand (slot = destination channel, t when not above the previous one):
    #   [w] [x z w t]+lit [y z w] [x y z w] [x y z] [x y w]+lit [x w] [x: PRED_SETNE_INT, no channel]
    #   -> 8 groups, x 6, y 4, z 4, w 6, t 1 = 21 operations + 2 literal slots = 23
    body = alu[2]
    assert body.groups == 8
    assert body.per_slot.as_dict() == {"x": 6, "y": 4, "z": 4, "w": 6, "t": 1}
    assert p.gprs == 10 == p.declared_gprs  # T0..T9; SQ_PGM_RESOURCES = 522 = 0x20A -> NUM_GPRS 10
    (loop,) = p.loops
    # LOOP_START_DX10 (CF 3) .. END_LOOP (CF 9): TEX with two VTX_READ_128 (32 bytes), the clause above
    # with 16 MULADD_IEEE -> 16 / 8 = 2.0 MAD/clk; HD 5870: 2.0 x 2 x 20 SIMDs x 16 x 0.85 GHz = 1088
    assert (loop.start, loop.end, loop.groups, loop.mads, loop.fetch_bytes) == (3, 9, 8, 16, 32)
    assert loop.mads_per_clock == pytest.approx(2.0)
    assert loop.gflops == pytest.approx(1088.0)
    # fetch bound at 500 GB/s: 500 x (2 x 16 flop / 32 bytes) = 500 Gflop/s -> the fetch path limits
    assert loop.fetch_bound_gflops == pytest.approx(500.0)
    assert loop.bound == "fetch"
    assert codes(result) == []


def test_llvm_cayman_sample_uses_four_slots(samples: Path) -> None:
    result = analyze(samples / "llvm" / "r600_mm.cayman.s", target="cayman")
    p = result.total
    assert result.width == 4 and p.per_slot.t == 0
    alu = [c for c in p.clauses if c.kind == "alu"]
    # ALU 17, 24, 23, 19 -> 18, 25, 24, 20 slots
    assert [c.slots for c in alu] == [c.declared for c in alu] == [18, 25, 24, 20]
    # first clause: MOV T2.X..W* | SETGT_INT* T0.W | MOV T3.X..W* | T4 | T5 | PRED_SETE_INT* -> 6 groups
    assert alu[0].groups == 6
    assert codes(result) == []


# ------------------------------------------------------------------ our own CAL dumps (examples/vliw)

def test_sgemm_8x8_reports_4_mad_per_clock_and_960_gflops() -> None:
    result = analyze(VLIW / "sgemm_8x8.rv770.isa", device="hd4870")
    p = result.total
    # figures derived in the file's header
    assert (p.groups, p.slot_ops, p.literal_slots, p.gprs, p.fetches, p.fetch_bytes, p.mads) == \
        (48, 204, 4, 28, 8, 128, 128)
    assert p.per_slot.as_dict() == {"x": 48, "y": 48, "z": 48, "w": 48, "t": 12}
    assert p.utilization_pct == pytest.approx(85.0)
    assert p.alu_fetch_ratio == pytest.approx(6.0)
    (loop,) = p.loops
    # 128 MULADD in 32 groups = 4.0 MAD/clk; 10 SIMDs x 16 TPs x 4 MAD/clk x 2 flop x 750 MHz = 960
    assert (loop.groups, loop.mads, loop.fetches, loop.fetch_bytes) == (32, 128, 8, 128)
    assert loop.mads_per_clock == pytest.approx(4.0)
    assert loop.gflops == pytest.approx(960.0)
    # the fetch path: 444 GB/s x (256 flop / 128 bytes) = 888 Gflop/s, below 960 -> fetch bound
    assert loop.fetch_bound_gflops == pytest.approx(888.0)
    assert loop.bound == "fetch"
    assert codes(result) == []


def test_sgemm_fetch_override_moves_the_bound() -> None:
    # at 600 GB/s the fetch bound is 600 x 2 = 1200 > 960: the ALUs limit
    (loop,) = analyze(VLIW / "sgemm_8x8.rv770.isa", device="hd4870", fetch_gbs=600.0).total.loops
    assert loop.fetch_bound_gflops == pytest.approx(1200.0)
    assert loop.bound == "alu"


def test_branches_loop_example() -> None:
    result = analyze(VLIW / "branches_loop.rv770.isa", device="hd4870")
    p = result.total
    # table in the file's header
    assert (p.groups, p.slot_ops, p.literal_slots, p.mads, p.gprs, p.temps) == (12, 41, 5, 10, 9, 2)
    assert p.per_slot.as_dict() == {"x": 11, "y": 9, "z": 8, "w": 7, "t": 6}
    assert p.utilization_pct == pytest.approx(100 * 41 / 60)
    assert (p.fetches, p.fetch_bytes) == (4, 40)
    by_index = {c.index: c for c in p.clauses}
    assert [by_index[i].declared for i in (0, 2, 5, 7, 9, 11, 14)] == [12, 5, 4, 5, 5, 6, 9]
    assert all(by_index[i].count_ok for i in (0, 1, 2, 5, 7, 9, 10, 11, 14))
    assert by_index[0].literal_slots == 3   # .x/.y in group 0 (one slot), up to .z in group 1 (two)
    assert [by_index[i].loop_depth for i in (4, 5, 11, 12)] == [0, 1, 1, 0]
    (loop,) = p.loops
    # 6 groups, 5 MADs: 5/6 x 240 = 200 Gflop/s; fetch 444 x 10 / 16 = 277.5 -> ALU bound
    assert (loop.start, loop.end, loop.groups, loop.mads, loop.fetch_bytes) == (4, 12, 6, 5, 16)
    assert loop.gflops == pytest.approx(200.0)
    assert loop.fetch_bound_gflops == pytest.approx(277.5)
    assert loop.bound == "alu"
    assert codes(result) == []


def test_nested_loops_on_cayman() -> None:
    result = analyze(VLIW / "nested_loops.cayman.isa", device="hd6970", fetch_gbs=200.0)
    assert (result.generation, result.width) == ("cayman", 4)
    p = result.total
    assert (p.groups, p.slot_ops, p.literal_slots, p.mads, p.gprs, p.fetch_bytes) == (5, 18, 1, 4, 4, 16)
    assert p.per_slot.as_dict() == {"x": 5, "y": 5, "z": 4, "w": 4, "t": 0}
    assert p.utilization_pct == pytest.approx(90.0)
    outer, inner = p.loops
    assert (outer.start, outer.end, outer.depth, inner.start, inner.end, inner.depth) == (1, 7, 0, 3, 5, 1)
    # inner: 4 MADs in 2 groups -> 2.0 x 2 x 24 x 16 x 0.88 = 1351.68; nothing fetched
    assert inner.gflops == pytest.approx(1351.68)
    assert inner.fetch_bound_gflops is None and inner.bound == "alu"
    # outer: 4 MADs in 4 groups -> 675.84; 200 GB/s x 8 flop / 16 bytes = 100 -> fetch bound
    assert outer.gflops == pytest.approx(675.84)
    assert outer.fetch_bound_gflops == pytest.approx(100.0)
    assert outer.bound == "fetch"
    assert codes(result) == []


def test_cayman_is_inferred_from_replicated_transcendentals() -> None:
    # RCP_e appears in x, y and z and no group uses t
    module = load_vliw(VLIW / "nested_loops.cayman.isa")
    assert (module.generation, module.generation_source, module.width) == ("cayman", "inferred", 4)


# ------------------------------------------------------------------ slot-rule checks and bad input

HEADER = "; --------  Disassembly --------------------\n"


def dump(body: str) -> str:
    return HEADER + body


def test_two_ops_in_one_slot_is_an_error_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = dump(
        "00 ALU: ADDR(32) CNT(2)\n"      # line 2
        "      0  x: MOV         R0.x,  0.0f\n"
        "         x: MOV         R0.y,  1.0f\n"  # line 4: second op in x
        "01 EXP_DONE: PIX0, R0\n"
        "END_OF_PROGRAM\n")
    result = analyze(text)
    (diag,) = [d for d in result.diagnostics if d.code == "vliw-slot-conflict"]
    assert diag.severity is Severity.ERROR and diag.line == 4
    # both operations are counted as printed, in slot x
    assert result.total.per_slot.x == 2 and result.total.groups == 1
    path = tmp_path / "bad.isa"
    path.write_text(text)
    assert run_cli(str(path)) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert f"{path}:4: error:" in out.out


def test_cnt_mismatch_is_a_warning_on_the_clause_line() -> None:
    text = dump(
        "00 ALU: ADDR(32) CNT(3)\n"      # line 2: claims 3 slots
        "      0  x: MOV         R0.x,  (0x3F800000, 1.0f).x\n"
        "         y: MOV         R0.y,  0.0f\n"
        "01 TEX: ADDR(40) CNT(2)\n"      # line 5: claims 2 fetches, has 1
        "      1  SAMPLE R1, R0.xyxx, t0, s0\n"
        "END_OF_PROGRAM\n")
    # body: 2 operations + 1 literal slot = 3 -> the ALU clause is consistent; the TEX clause is not
    result = analyze(text)
    (diag,) = [d for d in result.diagnostics if d.code == "vliw-cnt"]
    assert diag.severity is Severity.WARNING and diag.line == 5
    text2 = text.replace("CNT(3)", "CNT(2)")
    lines = sorted(d.line or 0 for d in analyze(text2).diagnostics if d.code == "vliw-cnt")
    assert lines == [2, 5]


def test_unknown_opcode_is_a_warning_and_counted_as_guessed(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    text = dump(
        "00 ALU: ADDR(32) CNT(2)\n"
        "      0  x: FROBNICATE  R0.x,  R1.x\n"  # line 3
        "         y: MULADD      R0.y,  R1.y,  R1.z,  R0.y\n"
        "END_OF_PROGRAM\n")
    result = analyze(text)
    (diag,) = [d for d in result.diagnostics if d.code == "vliw-unknown-opcode"]
    assert diag.severity is Severity.WARNING and diag.line == 3
    p = result.total
    # the slot is printed, so the operation still counts there; it is not a MAD
    assert (p.slot_ops, p.per_slot.x, p.guessed_ops, p.mads) == (2, 1, 1, 1)
    path = tmp_path / "unknown.isa"
    path.write_text(text)
    assert run_cli(str(path), "--json") == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["files"][0]["totals"]["guessed_ops"] == 1
    assert f"{path}:3: warning:" in out.err


def test_slot_rules() -> None:
    text = dump(
        "00 ALU: ADDR(32) CNT(4)\n"
        "      0  x: RCP_e       R0.x,  R1.x\n"        # line 3: trans-only op in x
        "         y: DOT4        ____,  R1.x,  R1.x\n"  # lines 4-5: DOT4 only in y and z
        "         z: DOT4        R0.z,  R1.y,  R1.y\n"
        "         t: FLT_TO_INT  R0.w,  R1.z\n"         # R700: FLT_TO_INT is trans-only, fine in t
        "END_OF_PROGRAM\n")
    result = analyze(text, target="rv770")
    found = {(d.code, d.line) for d in result.diagnostics}
    assert ("vliw-trans-slot", 3) in found
    assert ("vliw-reduction", 3) in found  # reported on the group's line
    assert not any(code == "vliw-trans-slot" and line == 6 for code, line in found)
    # on Evergreen FLT_TO_INT is vector-only: the same t slot is now wrong
    evergreen = analyze(text, target="cypress")
    assert ("vliw-vector-slot", 6) in {(d.code, d.line) for d in evergreen.diagnostics}
    # on Cayman there is no t slot at all
    cayman = analyze(text, target="cayman")
    assert ("vliw-cayman-t", 6) in {(d.code, d.line) for d in cayman.diagnostics}


def test_unmatched_loop_end_is_a_warning() -> None:
    text = dump("00 ALU: ADDR(32) CNT(1)\n      0  x: MOV R0.x, 0.0f\n01 ENDLOOP i0 PASS_JUMP_ADDR(0)\n"
                "END_OF_PROGRAM\n")
    result = analyze(text)
    assert [(d.code, d.line) for d in result.diagnostics] == [("vliw-loop", 4)]
    assert result.total.loops == ()


def test_llvm_missing_clause_body_is_an_error() -> None:
    text = "k:\n\tALU 0, @4, KC0[], KC1[]\n\tCF_END\n\tALU clause starting at 5:\n\t  MOV * T0.X, 0.0,\n"
    result = analyze(text)
    (diag,) = [d for d in result.diagnostics if d.code == "vliw-missing-clause"]
    assert diag.severity is Severity.ERROR and diag.line == 2


@pytest.mark.parametrize(("content", "fragment"), [
    ("", "empty"),
    ("just some words\n", "not a VLIW dump"),
    (b"\x7fELF\x02\x01\x00garbage", "binary"),
])
def test_unreadable_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str | bytes, fragment: str) -> None:
    path = tmp_path / "input.isa"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert run_cli(str(path)) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(path) in err and ":1:" in err and fragment in err


def test_missing_file_unknown_device_and_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(str(tmp_path / "nope.isa")) == 2
    assert "no such file" in capsys.readouterr().err
    sample = str(VLIW / "sgemm_8x8.rv770.isa")
    assert run_cli(sample, "--device", "hd9999") == 2
    assert "unknown device" in capsys.readouterr().err
    assert run_cli(sample, "--target", "rv9000") == 2
    assert "unknown VLIW target" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        run_cli(sample, "--fetch-gbs", "-3")
    assert exc.value.code == 2


def test_analyze_rejects_a_non_positive_bandwidth() -> None:
    with pytest.raises(IsalensError):
        analyze_vliw(load_vliw(VLIW / "sgemm_8x8.rv770.isa"), "hd4870", 0.0)


_LINES = st.sampled_from([
    "00 ALU: ADDR(32) CNT(5)", "01 TEX: ADDR(8) CNT(1) VALID_PIX", "02 LOOP_DX10 i0 FAIL_JUMP_ADDR(4)",
    "03 ENDLOOP i0 PASS_JUMP_ADDR(2)", "04 JUMP POP_CNT(1) ADDR(3)", "END_OF_PROGRAM", "00 ALU: ADDR(",
    "      0  x: MULADD R0.x, R1.x, (0x3F800000, 1.0f).w, R0.x", "         t: RCP_e R2.x, R1.x  VEC_021",
    "         y: DOT4 ____, (0x80000000", "      3  SAMPLE R1.x___, R0.xyxx, t0, s0", "         q: MOV R0.x",
    "      9  z: ((( ", "\tALU 3, @4, KC0[], KC1[]", "\tALU clause starting at 4:", "\t  MOV * T0.X, 0.0,",
    "\t  MULADD_IEEE T1.W, T2.X, T3.Y, T1.W,", "\t1(1.4e-45), 0(0)", "\tTEX 0 @2", "\tFetch clause starting at 2:",
    "\t  VTX_READ_128 T1.XYZW, T0.X, 0, #1", "k:", "\tLOOP_START_DX10 @9", "\tEND_LOOP @1", ";comment", "",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=30))
def test_any_mix_of_lines_gives_a_result_or_an_isalens_error(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    try:
        result = analyze(text, device="hd4870")
    except IsalensError as exc:
        assert exc.file == "<text>"
        return
    vliw_dict(result)
    render_vliw_text(result)


# ------------------------------------------------------------------ tables, reports, CLI

def test_tables_load_and_cover_the_vliw_devices() -> None:
    t = tables()
    assert t.widths == {"r600": 5, "r700": 5, "evergreen": 5, "cayman": 4}
    for dev in load_devices().values():
        if dev.is_vliw:
            gen = generation_of(dev.target)
            assert gen is not None, dev.name
            assert t.widths[gen] == dev.alus_per_sp, dev.name
    assert {generation_of(g) for g in GENERATIONS} == set(GENERATIONS)
    # domain.md §2 examples of trans-only operations, on every VLIW5 generation
    for gen in ("r600", "r700", "evergreen"):
        for op in ("EXP_IEEE", "LOG_IEEE", "RECIP_IEEE", "RECIPSQRT_IEEE", "SQRT_IEEE", "SIN", "COS",
                   "MULLO_INT", "MULHI_INT", "INT_TO_FLT"):
            assert t.unit(gen, op) is Unit.TRANS, (gen, op)
        assert t.unit(gen, "MULADD") is Unit.ANY
    for gen in GENERATIONS:
        for op in ("DOT4", "CUBE", "MAX4"):
            assert t.unit(gen, op) is Unit.REDUCTION
    assert t.alu_name("RSQ_sat") == ("RECIPSQRT_CLAMPED", True)
    assert t.alu_name("LSHL") == ("LSHL_INT", True)
    assert t.alu_name("WIBBLE") == ("WIBBLE", False)


@pytest.mark.parametrize(("channels", "values", "slots"), [
    ([], 0, 0), ([0], 1, 1), ([0, 1], 2, 1), ([2], 1, 2), ([0, 3], 2, 2), ([], 3, 2),
])
def test_literal_slots(channels: list[int], values: int, slots: int) -> None:
    # two 32-bit literals per 64-bit slot: .x/.y in the first, .z/.w in the second
    assert literal_slots(channels, values) == slots


def test_json_report_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(str(VLIW / "sgemm_8x8.rv770.isa"), "--device", "hd4870", "--json") == 0
    full = json.loads(capsys.readouterr().out)
    (entry,) = full["files"]
    doc, (kernel,) = entry["totals"], entry["kernels"]
    for key in ("groups", "slot_ops", "utilization_pct", "per_slot", "literal_slots", "gprs", "fetches",
                "alu_fetch_ratio"):
        assert key in doc and kernel[key] == doc[key]  # one program: its figures are the file's
    assert "diagnostics" in entry
    assert set(doc["per_slot"]) == {"x", "y", "z", "w", "t"}
    (loop,) = kernel["loops"]
    assert {"groups", "mads", "mads_per_clock", "gflops", "fetch_bound_gflops"} <= set(loop)
    assert (loop["groups"], loop["mads"], loop["mads_per_clock"], loop["gflops"], loop["fetch_bound_gflops"]) == \
        (32, 128, 4.0, 960.0, 888.0)
    assert doc["utilization_pct"] == 85.0 and full["schema"] == 3
    assert len(kernel["clauses"]) == 7  # CF 00..05 and END_OF_PROGRAM


def test_text_report_names_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(str(VLIW / "sgemm_8x8.rv770.isa"), "--device", "hd4870") == 0
    out = capsys.readouterr().out
    assert "4.00 MAD/clk" in out and "ALU bound 960.0 Gflop/s" in out and "fetch bound 888.0 Gflop/s" in out
    assert "x 48  y 48  z 48  w 48  t 12" in out


def test_stdin_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO((VLIW / "branches_loop.rv770.isa").read_text()))
    assert run_cli("-", "--json") == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["totals"]["groups"] == 12


def test_totals_over_several_programs() -> None:
    one = (VLIW / "branches_loop.rv770.isa").read_text()
    result = analyze(one + one)   # CF numbering restarts at 00: a second program
    assert len(result.programs) == 2
    total: ProgramStats = result.total
    assert (total.groups, total.slot_ops, total.mads) == (24, 82, 20)
    assert len(total.loops) == 2


def test_analyze_routes_vliw_files_to_the_vliw_report(samples: Path, capsys: pytest.CaptureFixture[str]) -> None:

    assert isalens_main(["analyze", str(samples / "r700" / "pixel_shader.isa"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["files"][0]["totals"]
    # 146 groups and 570 slot operations (the hand count in this file's sample test)
    assert doc["groups"] == 146 and doc["slot_ops"] == 570
