"""Issue 31 item 1: every command's ``--json`` is one document (schema 3) that validates against the published
JSON Schemas, and a kernel's figures are the same whichever command printed them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from isalens.cli import main
from tests.conftest import ROOT, require_tool
from tests.schema_check import validate

EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))
LOOP, STRAIGHT = ROOT / "tests" / "golden" / "cases" / "loop.s", ROOT / "tests" / "golden" / "cases" / "straight.s"
VLIW = sorted((ROOT / "examples" / "vliw").glob("*.isa"))


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


#: every command that prints JSON, on a bundled input (the tool-free ones; decode and list below need tools)
COMMANDS = [
    *(["livereg", str(p), "--json"] for p in EXAMPLES),
    *(["analyze", str(p), "--json"] for p in EXAMPLES),
    ["analyze", str(LOOP), str(STRAIGHT), "--arch", "gfx900", "--json"],
    *(["advise", str(p), "--json"] for p in EXAMPLES),
    *(["timing", str(p), "--json", "--lines"] for p in EXAMPLES),
    ["timing", str(LOOP), "--arch", "gfx900", "--json", "--what-if", "waves=1,2"],
    ["compare", str(EXAMPLES[0]), str(EXAMPLES[1]), "--json"],
    *(["vliw", str(p), "--json"] for p in VLIW),
    ["analyze", str(VLIW[0]), "--json"],
    ["occupancy", "--arch", "gfx90a", "--vgprs", "90", "--wg", "256", "--json", "--curves"],
    ["occupancy", "--arch", "gfx1100", "--vgprs", "96", "--lds", "40000", "--wg", "256", "--json"],
    ["tile", "--dims", "16x16", "--radius", "2", "--arch", "gfx1030", "--json"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(Path(a).name for a in c) for c in COMMANDS])
def test_every_command_prints_a_valid_schema_3_document(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(argv, capsys)
    validate(doc)
    assert doc["command"] == argv[0]


def test_decode_document_validates(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("llvm-mc-19")
    validate(_json(["decode", "--arch", "gfx902", "--explain", "D8700400", "3B00002A", "--json"], capsys))


def test_a_failed_file_is_an_entry_with_its_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.s"
    bad.write_text("v_frobnicate v1, v2\n")
    assert main(["analyze", str(LOOP), str(bad), "--arch", "gfx900", "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert [f["file"] for f in doc["files"]] == [str(LOOP), str(bad)]
    assert doc["files"][1]["kernels"] == [] and doc["files"][1]["error"]["line"] == 1


def test_the_schema_rejects_what_it_should() -> None:
    """The schemas are not vacuous: each broken document below fails (a check of the checker)."""
    good = {"schema": 3, "isalens_version": "0", "command": "analyze",
            "files": [{"file": "a.s", "kernels": [{"name": "k", "vgpr": {"requested": 3}, "lines": []}]}]}
    validate(good)
    broken = [
        {**good, "schema": 2},                                         # the old version
        {k: v for k, v in good.items() if k != "files"},               # a file command without files
        {**good, "files": [{"file": "a.s"}]},                          # an entry without kernels
        {**good, "files": [{"file": "a.s", "kernels": [{"name": "k", "vgpr": {"requested": -1}}]}]},
        {**good, "files": [{"file": "a.s", "kernels": [{"name": "k", "lines": [{"line": 1}]}]}]},
        {**good, "files": [{"file": "a.s", "kernels": [{"name": "k", "timing": {"loops": []}}]}]},
        {**good, "command": "tile"},                                   # tile needs its tile and table
    ]
    for doc in broken:
        with pytest.raises(jsonschema.ValidationError):
            validate(doc)


def _kernels(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k["name"]: k for f in doc["files"] for k in f["kernels"]}


def _subset_equal(part: Any, whole: Any, where: str) -> None:
    """Every key ``part`` has, ``whole`` has with the same value (recursively)."""
    if isinstance(part, dict):
        assert isinstance(whole, dict), where
        for key, value in part.items():
            assert key in whole, f"{where}.{key} missing"
            _subset_equal(value, whole[key], f"{where}.{key}")
    else:
        assert part == whole, f"{where}: {part!r} != {whole!r}"


def _without_range(section: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in section.items() if k != "memory_range"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_a_kernels_figures_are_equal_across_commands(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """analyze computes every section in one run; livereg, advise, timing and compare compute theirs through their
    own engine calls (kernel_advice, kernel_timing, compare_variant), so equal values mean one figure, one place."""
    analyze = _kernels(_json(["analyze", str(path), "--json"], capsys))
    livereg = _kernels(_json(["livereg", str(path), "--json"], capsys))
    advise = _kernels(_json(["advise", str(path), "--json"], capsys))
    timing = _kernels(_json(["timing", str(path), "--json"], capsys))
    compare = _json(["compare", str(path), str(path), "--labels", "a,b", "--json"], capsys)
    assert analyze and analyze.keys() == livereg.keys() == advise.keys() == timing.keys()
    for name, a in analyze.items():
        for key in ("arch", "wave_size", "instructions", "vgpr", "sgpr", "agpr", "lines", "occupancy",
                    "peak_live_set", "blocks", "source_lines"):
            assert livereg[name][key] == a[key], (name, key)
        assert advise[name]["advice"] == a["advice"] and advise[name]["advice_refused"] == a["advice_refused"]
        assert advise[name]["arch"] == timing[name]["arch"] == a["arch"]
        t, at = timing[name]["timing"], a["timing"]
        # `timing` adds the all-misses-to-DRAM end of the memory range (a second simulation analyze does not run);
        # every figure both carry is the same
        assert _without_range(t["kernel"]) == at["kernel"] and t["waves"] == at["waves"]
        assert [_without_range(lp) for lp in t["loops"]] == at["loops"]
        for entry in compare["files"]:
            (c,) = entry["kernels"]
            for key in ("arch", "instructions", "vgpr", "sgpr", "occupancy", "stats"):
                _subset_equal(c[key], a[key], f"compare {name}.{key}")
            assert c["pressure"] == [line["live_vgpr"] for line in a["lines"]]
