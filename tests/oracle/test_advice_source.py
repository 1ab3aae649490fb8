"""Advice in source terms (issue 27): a pressure item's values name the source lines where each value is born
and last used, and the variables the register holds at the peak. Oracle: the ``.loc`` directives of clang-19's
own ``-S -gline-tables-only`` output, read here by a plain scan (each instruction line takes the last ``.loc``
above it with a line other than 0, the rule ``llvm-objdump -d -l`` prints), and a ``;DEBUG_VALUE:`` comment
written into that assembly by the test for one register at the peak."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.conftest import EXAMPLES
from tests.oracle.test_source_lines import _build

SOURCE = EXAMPLES / "kernels" / "fp16_layouts" / "half3_two_uint.cl"
_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?')
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)")


def loc_by_line(asm: str) -> dict[int, tuple[str, int]]:
    """Input line number -> (file name, source line) for every line below the first ``.loc``."""
    files: dict[str, str] = {}
    out: dict[int, tuple[str, int]] = {}
    current: tuple[str, int] | None = None
    for n, text in enumerate(asm.splitlines(), 1):
        if m := _FILE.match(text):
            files[m.group(1)] = (m.group(3) or m.group(2)).rsplit("/", 1)[-1]
        elif (m := _LOC.match(text)) and int(m.group(2)) != 0:
            current = (files[m.group(1)], int(m.group(2)))
        if current is not None:
            out[n] = current
    return out


def _short(loc: dict[str, Any] | None) -> tuple[str, int] | None:
    return None if loc is None else (loc["file"].rsplit("/", 1)[-1], loc["line"])


def _advise(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    import json
    assert main(["advise", str(path), "--json"]) == 0
    return list(json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["advice"])


def test_pressure_values_are_born_and_last_used_where_loc_says(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    asm_path = _build(SOURCE, "gfx902", tmp_path / "k.s", "-gline-tables-only")
    asm = asm_path.read_text()
    where = loc_by_line(asm)
    items = _advise(asm_path, capsys)
    pressure = next(i for i in items if i["kind"] == "pressure")
    assert len(pressure["values"]) >= 10
    for v in pressure["values"]:
        assert _short(v["born"]) == (where[v["def_line"]] if v["def_line"] else None), v["reg"]
        assert _short(v["last_use"]) == where[max(v["use_lines"])], v["reg"]
        assert v["variables"] == []  # line tables only: no variable is named
    for item in items:
        expected = list(dict.fromkeys(where[n] for n in item["lines"] if n in where))
        assert [_short(s) for s in item["sources"]] == expected, item["kind"]
    # the variable held by a chosen register at the peak: a DEBUG_VALUE right above the peak instruction
    peak_line = int(re.search(r"VGPR peak \(line (\d+)\)", pressure["message"]).group(1))  # type: ignore[union-attr]
    reg = pressure["values"][0]["reg"]
    lines = asm.splitlines()
    lines.insert(peak_line - 1, f"\t;DEBUG_VALUE: resolve_half3_two_uint:probe <- $vgpr{reg[1:]}")
    probed = tmp_path / "probed.s"
    probed.write_text("\n".join(lines) + "\n")
    again = next(i for i in _advise(probed, capsys) if i["kind"] == "pressure")
    assert [v["reg"] for v in again["values"]] == [v["reg"] for v in pressure["values"]]  # no figure changes
    assert {v["reg"]: v["variables"] for v in again["values"] if v["variables"]} == {reg: ["probe"]}


def test_text_names_the_values_in_source_terms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asm_path = _build(SOURCE, "gfx902", tmp_path / "k.s", "-gline-tables-only")
    where = loc_by_line(asm_path.read_text())
    assert main(["advise", str(asm_path)]) == 0
    text = capsys.readouterr().out
    items = _advise(asm_path, capsys)
    first = next(i for i in items if i["kind"] == "pressure")["values"][0]
    name, line = where[first["def_line"]]
    last = where[max(first["use_lines"])]
    assert f"{first['reg']} (born {name}:{line}, last used {last[0]}:{last[1]})" in text


def test_a_loop_is_named_by_its_source_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # spill_budget.cl's `for (int it ...)` loop is lines 17-21 of the source: its header is line 17, the
    # unrolled inner loop's body line 20 is the last line with code (the closing brace at 21 makes none)
    source = EXAMPLES / "kernels" / "advice" / "spill_budget.cl"
    asm_path = _build(source, "gfx902", tmp_path / "k.s", "-gline-tables-only")
    constants = next(i for i in _advise(asm_path, capsys) if i["kind"] == "constants" and "loop" in i)
    assert constants["loop"]["file"].endswith("/spill_budget.cl")
    assert (constants["loop"]["first_line"], constants["loop"]["last_line"]) == (17, 20)
