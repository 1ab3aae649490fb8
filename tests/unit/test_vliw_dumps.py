"""Real CAL / GPU ShaderAnalyzer dump layouts and garbage: nested control flow indented before its CF number,
every unreadable line a diagnostic with its line number, no crash on truncated headers or huge numbers.

Expected figures are derived by hand in the comments, never copied from isalens's output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.vliw import VliwAnalysis
from isalens.cli import main as isalens_main
from isalens.engine.vliw import analyze_vliw, load_vliw
from isalens.errors import IsalensError, Severity
from tests.conftest import EXAMPLES

NESTED = EXAMPLES / "vliw" / "nested_indent.rv770.isa"


def analyze(source: str | Path, device: str | None = "hd4870") -> VliwAnalysis:
    return analyze_vliw(load_vliw(source, target="rv770"), device)


def run_cli(*argv: str) -> int:
    """``isalens vliw ARGV`` through :func:`isalens.cli.main`, the one place errors become exit codes."""
    return isalens_main(["vliw", *argv])


def found(result: VliwAnalysis) -> set[tuple[str, int | None]]:
    return {(d.code, d.line) for d in result.diagnostics}


def assert_nested_figures(result: VliwAnalysis) -> None:
    # The dump (examples/vliw/nested_indent.rv770.isa), counted by hand:
    #   inner loop CF 04-07 holds ALU_BREAK 05 (group 4: ADD + PREDGT = 1 group, 0 MADs) and ALU 06
    #   (group 5: 4 MULADD + MUL, group 6: 2 MULADD + RCP_e = 2 groups, 6 MADs)
    #   -> 3 groups, 6 MADs, 2.0 MAD/clk; HD 4870: 2.0 x 2 flop x 10 SIMDs x 16 TPs x 0.75 GHz = 480 Gflop/s
    #   outer loop CF 02-09 adds TEX 03 (SAMPLE R2 = 16 bytes, SAMPLE R3.xy__ = 8 bytes) and ALU_BREAK 08
    #   (group 7: ADD + PREDGT) -> 4 groups, 6 MADs, 1.5 MAD/clk -> 1.5 x 2 x 10 x 16 x 0.75 = 360 Gflop/s;
    #   fetch bound 444 GB/s x (2 x 6 flop) / 24 bytes = 222 Gflop/s -> the fetch path limits
    p = result.total
    outer, inner = p.loops
    assert (outer.start, outer.end, outer.depth) == (2, 9, 0)
    assert (inner.start, inner.end, inner.depth) == (4, 7, 1)
    assert (inner.groups, inner.slot_ops, inner.mads, inner.fetch_bytes) == (3, 10, 6, 0)
    assert inner.mads_per_clock == pytest.approx(2.0)
    assert inner.gflops == pytest.approx(480.0)
    assert (outer.groups, outer.slot_ops, outer.mads, outer.fetches, outer.fetch_bytes) == (4, 12, 6, 2, 24)
    assert outer.gflops == pytest.approx(360.0)
    assert outer.fetch_bound_gflops == pytest.approx(222.0)
    assert outer.bound == "fetch"
    # program: groups 0, 4, 5, 6, 7 = 5; x 4, y 4, z 3, w 3, t 3 = 17 operations; one literal slot (2.0f .x);
    # R0..R5 = 6 GPRs; fetches 16 + 16 + 8 = 40 bytes
    assert (p.groups, p.slot_ops, p.literal_slots, p.mads, p.gprs, p.fetches, p.fetch_bytes) == \
        (5, 17, 1, 6, 6, 3, 40)
    assert p.per_slot.as_dict() == {"x": 4, "y": 4, "z": 3, "w": 3, "t": 3}
    # every clause's CNT agrees with its body: 5, 1, 2, 3 (2 ops + 1 literal slot), 8, 2
    assert [c.slots for c in p.clauses if c.kind != "cf"] == [5, 1, 2, 3, 8, 2]
    assert all(c.count_ok for c in p.clauses if c.kind != "cf")
    # the depth of each CF line follows the loops, not the indentation
    assert [c.loop_depth for c in p.clauses][:10] == [0, 0, 0, 1, 1, 2, 2, 1, 1, 0]


def test_nested_clauses_indented_before_the_cf_number() -> None:
    # Fails on 8f4a793: the reader took '    03 TEX: ...' for an unreadable line inside the LOOP_DX10 and
    # dropped the whole loop body without a diagnostic (the outer loop had 0 groups, 0 MADs).
    result = analyze(NESTED)
    assert_nested_figures(result)
    assert [d for d in result.diagnostics if d.severity is not Severity.NOTE] == []


def _indent_after_number(text: str) -> str:
    return re.sub(r"(?m)^( +)([0-9]{2}) ", r"\2\1 ", text)


def test_indentation_after_the_number_or_on_both_sides_reads_the_same() -> None:
    text = NESTED.read_text()
    after = _indent_after_number(text)
    assert "\n03     TEX:" in after                   # the layout of examples/vliw/nested_loops.cayman.isa
    both = re.sub(r"(?m)^( +)([0-9]{2}) ", r"\1\2  ", text)
    assert "\n    03  TEX:" in both
    for variant in (after, both):
        result = analyze(variant)
        assert_nested_figures(result)
        assert [d for d in result.diagnostics if d.severity is not Severity.NOTE] == []


def test_an_unreadable_line_in_a_loop_body_is_a_warning_with_its_line() -> None:
    lines = NESTED.read_text().split("\n")
    at = lines.index("        06 ALU: ADDR(108) CNT(8)") + 2     # after group 5's x line
    lines.insert(at, "              %% not an instruction")
    result = analyze("\n".join(lines))
    assert ("vliw-unparsed-line", at + 1) in found(result)
    # a group where no ALU clause is open (inside the LOOP_DX10 line's scope) is not dropped silently either
    lines = NESTED.read_text().split("\n")
    at = lines.index("02 LOOP_DX10 i0 FAIL_JUMP_ADDR(10)") + 1
    lines.insert(at, "          9  x: MOV R0.x, 0.0f")
    assert ("vliw-unparsed-line", at + 1) in found(analyze("\n".join(lines)))


def test_header_lines_outside_the_disassembly_are_named_in_one_note() -> None:
    text = "ShaderType = IL_SHADER_COMPUTE\nTargetChip = rv770\n; comment\n" + NESTED.read_text() + \
        "SQ_PGM_RESOURCES:NUM_GPRS = 6\nsomething after the program\n"
    result = analyze(text)
    assert_nested_figures(result)
    (note,) = [d for d in result.diagnostics if d.code == "vliw-skipped-lines"]
    last = len(text.split("\n")) - 1                  # the line before the final newline
    assert note.severity is Severity.NOTE and note.line == 1
    assert "3 lines" in note.message and f"lines 1-2, {last}" in note.message
    assert result.total.declared_gprs == 6


_OPEN_ALU = "00 TEX: ADDR(40) CNT(1)\n      0  SAMPLE R1, R0, t0, s0\n01 ALU: ADDR(32) CNT(1)\n"
_OPEN_TEX = "00 ALU: ADDR(32) CNT(1)\n      0  x: MOV R0.x, 0.0f\n01 TEX: ADDR(40) CNT(1)\n"


@pytest.mark.parametrize(("before", "line", "code", "severity"), [
    (_OPEN_TEX, "05 ALU: ADDR(", "vliw-syntax", Severity.ERROR),                   # truncated: no CNT
    (_OPEN_TEX, "05 ALU: ADDR(40) CNT(" + "9" * 5000 + ")", "vliw-syntax", Severity.ERROR),  # int() refuses it
    (_OPEN_TEX, "05 TEX: ADDR(99999999999999999999) CNT(1)", "vliw-syntax", Severity.ERROR),
    (_OPEN_ALU, "      9  x: MOV R" + "7" * 5000 + ".x, 0.0f", "vliw-register", Severity.WARNING),
    (_OPEN_ALU, "      9  x: MOV R300.x, 0.0f", "vliw-register", Severity.WARNING),  # 7-bit GPR fields: R0..R127
    (_OPEN_ALU, "\x01\x02\x7f junk \x1b[0m", "vliw-unparsed-line", Severity.WARNING),
    (_OPEN_TEX, "\x01\x02\x7f junk \x1b[0m", "vliw-unparsed-line", Severity.WARNING),
    (_OPEN_TEX, "    " + "9" * 6000 + " SAMPLE R1, R0, t0, s0", "vliw-syntax", Severity.ERROR),
])
def test_garbage_lines_are_diagnosed_on_their_line(before: str, line: str, code: str, severity: Severity) -> None:
    # line 4 of the dump, inside an open ALU or TEX clause
    result = analyze(before + line + "\nEND_OF_PROGRAM\n")
    matching = [d for d in result.diagnostics if d.code == code and d.line == 4]
    assert matching and matching[0].severity is severity, result.diagnostics
    assert result.total.gprs <= 128


def test_a_form_feed_does_not_shift_line_numbers() -> None:
    # str.splitlines() splits at \f, \x1c, \u2028 ...; editors and the diagnostics count newlines only
    text = "; page\f break\n00 ALU: ADDR(32) CNT(1)\n      0  x: MOV R0.x, 0.0f\n%% junk\nEND_OF_PROGRAM\n"
    assert ("vliw-unparsed-line", 4) in found(analyze(text))


def test_garbage_exits_2_with_the_line_on_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "truncated.isa"
    path.write_text("00 ALU: ADDR(32) CNT(1)\n      0  x: MOV R0.x, 0.0f\n01 TEX: ADDR(\n")
    assert run_cli(str(path)) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert f"{path}:3: error:" in out.out


_JUNK = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=40)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=0), _JUNK), min_size=1, max_size=5))
def test_no_line_inside_the_disassembly_is_dropped_silently(inserts: list[tuple[int, str]]) -> None:
    # '%' starts no CF line, group, slot, fetch, flag line or comment: each such line must be named by a
    # diagnostic on its own line number
    lines = NESTED.read_text().split("\n")
    first = lines.index("00 ALU: ADDR(32) CNT(5) KCACHE0(CB0:0-15)") + 1
    last = lines.index("END_OF_PROGRAM")
    for pos, junk in inserts:
        at = first + pos % (last - first)
        lines.insert(at, "   %" + junk)
        last += 1
    junk_lines = {i + 1 for i, line in enumerate(lines) if line.startswith("   %")}
    try:
        result = analyze("\n".join(lines))
    except IsalensError:
        return
    named = {d.line for d in result.diagnostics if d.code == "vliw-unparsed-line"}
    assert junk_lines <= named


_LLVM = ("\t.section\t.AMDGPU.config,\"\",@progbits\n\t.long\t166100\n\t.long\t522\n\t.text\nk:\n"
         "\tALU 0, @4, KC0[], KC1[]\n\tCF_END\n\tALU clause starting at 4:\n\t  MOV * T0.X, 0.0,\n")


@pytest.mark.parametrize(("edit", "line", "code"), [
    (lambda t: "%% junk before any function\n" + t, 1, "vliw-unparsed-line"),
    (lambda t: t.replace("\t.long\t522\n", "\t.long\t522\n\twhat is this\n"), 4, "vliw-unparsed-line"),
    (lambda t: t.replace("\t.long\t522\n", "\t.long\t" + "5" * 5000 + "\n"), 3, "vliw-unparsed-line"),
    (lambda t: t.replace("ALU 0, @4", "ALU " + "9" * 5000 + ", @4"), 6, "vliw-syntax"),
    (lambda t: t.replace("ALU 0, @4", "ALU 0, @" + "4" * 30), 6, "vliw-syntax"),
    (lambda t: t.replace("MOV * T0.X", "MOV * T" + "1" * 5000 + ".X"), 9, "vliw-register"),
])
def test_llvm_garbage_is_diagnosed_on_its_line(edit: Callable[[str], str], line: int, code: str) -> None:
    result = analyze_vliw(load_vliw(str(edit(_LLVM))))
    assert (code, line) in found(result), result.diagnostics
