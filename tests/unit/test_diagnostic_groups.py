"""Issue 31 item 3: one line per distinct diagnostic with its count and first lines; --verbose lists each."""

from __future__ import annotations

from pathlib import Path

import pytest

from isalens.cli import main
from isalens.errors import Diagnostic, Severity
from isalens.report.diagnostics import diagnostic_lines


def _warn(message: str, line: int, file: str = "k.s") -> Diagnostic:
    return Diagnostic(Severity.WARNING, "call", message, file, line)


def test_repeated_message_is_one_line_with_count_and_first_lines() -> None:
    # 32 call sites of one undefined callee, at lines 10, 20, ..., 320
    same = [_warn("call to undefined 'f': figures are a lower bound", 10 * n) for n in range(1, 33)]
    other = _warn("another message", 5)
    lines = diagnostic_lines([same[0], other, *same[1:]])
    assert lines == ["k.s:10: warning: call to undefined 'f': figures are a lower bound "
                     "(at 32 lines: 10, 20, 30, 40, 50, ...; --verbose lists each)",
                     "k.s:5: warning: another message"]  # in first-seen order
    assert len(diagnostic_lines([*same, other], verbose=True)) == 33


def test_same_message_in_two_files_or_with_two_severities_stays_apart() -> None:
    diags = [_warn("m", 1, "a.s"), _warn("m", 2, "a.s"), _warn("m", 3, "b.s"),
             Diagnostic(Severity.NOTE, "call", "m", "a.s", 4)]
    assert diagnostic_lines(diags) == ["a.s:1: warning: m (at 2 lines: 1, 2; --verbose lists each)",
                                       "b.s:3: warning: m", "a.s:4: note: m"]


def test_cli_groups_and_verbose_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rep.s"
    path.write_text("v_frob v1, v2\nv_frob v1, v2\nv_add_f32 v0, v1, v2\nv_frob v3, v2\ns_endpgm\n")
    base = ["livereg", str(path), "--arch", "gfx900", "--ignore-unknown", "--summary"]
    assert main(base) == 0
    out = capsys.readouterr().out
    assert out.count("unknown instruction 'v_frob'") == 1 and "(at 3 lines: 1, 2, 4;" in out
    assert main([*base, "--verbose"]) == 0
    out = capsys.readouterr().out
    assert [f"{path}:{n}: warning" in out for n in (1, 2, 4)] == [True] * 3
    assert main(["analyze", str(path), "--arch", "gfx900", "--ignore-unknown", "--json"]) == 0
    err = capsys.readouterr().err
    assert err.count("unknown instruction 'v_frob'") == 1
