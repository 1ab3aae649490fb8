"""Golden files for every command's text and JSON (``pytest --update-golden`` rewrites them).

Golden files are a regression net, not an oracle: they were written by isalens itself and only say that
nothing changed. They guard the *format*; the figures are checked independently: the key figures of each
golden case against hand counts in :func:`test_golden_key_figures_by_hand` below (and the field values of
the decode case in ``tests/unit/test_decode.py::test_ds_read2st64_fields_by_hand``), the analyses in
general against RGA's engine, LLVM's liveness and metadata, and brute force.

For loop.s the VGPR counts were also derived by hand: v0 (read in the loop)
and the address pair v[4:5] are live from the entry: 3 at line 2; v1 joins at line 3: 4; line 5 (v1 = v1 +
v0) still 4 because v2 is rewritten at line 6 before any read, so it is dead around the back edge; line 6
writes v2: 5 (the peak), lines 7-9 keep 5; line 10 reads v1, v2 and writes v3 with v[4:5] live: 5, and v0
is dead after the loop; line 11 reads v3, v4, v5: 3; s_endpgm: 0. Requested 6 (v0-v5), allocated 8.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.cli import main
from tests.conftest import ROOT, require_tool
from tests.schema_check import validate

CASES = Path(__file__).parent / "cases"


def _check(path: Path, text: str, update: bool) -> None:
    if update or not path.exists():
        path.write_text(text)
        if not update:
            pytest.fail(f"{path.name} did not exist: written, run again")
    assert text == path.read_text(), f"{path.name} differs (pytest --update-golden to accept)"


@pytest.mark.parametrize(("args", "suffix"), [
    (["--color", "never"], ".text"),
    (["--json", "--pretty"], ".json"),
    (["--rga"], ".rga"),
    (["--rga", "--reg", "sgpr"], ".sgpr.rga"),
])
def test_golden(args: list[str], suffix: str, update_golden: bool, capsys: pytest.CaptureFixture[str]) -> None:
    source = CASES / "loop.s"
    assert main(["livereg", str(source), "--arch", "gfx900", *args]) == 0
    out = capsys.readouterr().out.replace(str(source), "loop.s")
    _check(CASES / f"loop{suffix}", out, update_golden)


def test_json_matches_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    for source, arch in ((CASES / "loop.s", "gfx900"), (ROOT / "examples" / "isa" / "fp16_half3.gfx902.s", None)):
        assert main(["livereg", str(source), "--json", *(["--arch", arch] if arch else [])]) == 0
        validate(json.loads(capsys.readouterr().out))


LOOP, STRAIGHT = CASES / "loop.s", CASES / "straight.s"
#: (golden file, argv): each command's text and JSON on the hand-checked cases
COMMANDS = [
    ("loop.analyze.text", ["analyze", str(LOOP), "--arch", "gfx900", "--color", "never"]),
    ("loop.analyze.json", ["analyze", str(LOOP), "--arch", "gfx900", "--json", "--pretty"]),
    ("loop.timing.text", ["timing", str(LOOP), "--arch", "gfx900"]),
    ("loop.timing.json", ["timing", str(LOOP), "--arch", "gfx900", "--json"]),
    ("loop.advise.text", ["advise", str(LOOP), "--arch", "gfx900"]),
    ("loop.advise.json", ["advise", str(LOOP), "--arch", "gfx900", "--json"]),
    ("compare.text", ["compare", str(LOOP), str(STRAIGHT), "--arch", "gfx900"]),
    ("compare.json", ["compare", str(LOOP), str(STRAIGHT), "--arch", "gfx900", "--json", "--pretty"]),
    ("decode.explain.text", ["decode", "--arch", "gfx902", "--explain", "D8700400", "3B00002A"]),
    ("decode.explain.json", ["decode", "--arch", "gfx902", "--explain", "D8700400", "3B00002A", "--json"]),
]


def _output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    if argv[0] == "decode":
        require_tool("llvm-mc-19")  # the instruction text comes from LLVM's disassembler
    assert main(argv) == 0
    out = capsys.readouterr().out
    return out.replace(str(LOOP), "loop.s").replace(str(STRAIGHT), "straight.s")


@pytest.mark.parametrize(("name", "argv"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_command_golden(name: str, argv: list[str], update_golden: bool, capsys: pytest.CaptureFixture[str]) -> None:
    _check(CASES / name, _output(argv, capsys), update_golden)


def test_golden_key_figures_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """The figures the golden files hold, from hand counts (the module docstring derives loop.s's VGPRs)."""
    analyze = json.loads(_output(COMMANDS[1][1], capsys))["files"][0]["kernels"][0]
    vgpr = analyze["vgpr"]
    assert (vgpr["peak_live"], vgpr["peak_lines"], vgpr["requested"], vgpr["allocated"]) == (5, [6, 7, 8, 9, 10], 6, 8)
    assert analyze["instructions"] == 10
    # occupancy: 8 VGPRs -> 256 / 8 = 32, capped at gfx9's 10 waves per SIMD; no workgroup size, so LLVM's
    # 1024 threads = 16 waves per workgroup; a CU holds 40 waves: 2 whole workgroups = 32 waves over 4 SIMDs = 8
    occ = analyze["occupancy"]
    assert (occ["limits"]["vgpr"], occ["waves_per_workgroup"], occ["workgroups_per_cu"], occ["waves_per_simd"]) == (
        10, 16, 2, 8)
    # code bytes by the encoding rules: nine 4-byte instructions + global_store_dword (8) = 44
    assert analyze["stats"]["code_bytes"] == 44
    timing = json.loads(_output(COMMANDS[3][1], capsys))["files"][0]["kernels"][0]["timing"]
    # trip count 10 assumed; per iteration v_add_f32 + v_mul_f32 = 2 f32 ops x 64 lanes = 128 flops; kernel:
    # 10 x 128 + the v_add_f32 after the loop (64) = 1344; one global_store_dword: 64 lanes x 4 bytes = 256;
    # VALU issue on gfx9 wave64 is 4 cycles per instruction: (10 x 2 + 2) x 4 = 88
    kernel = timing["kernel"]
    assert (kernel["flops"]["f32"], kernel["bytes"]["global"], kernel["issue_cycles"]["valu"]) == (1344, 256, 88)
    assert [loop["flops"]["f32"] for loop in timing["loops"]] == [128]
    # advise: 8 of 10 waves, limited by whole 16-wave workgroups, not by registers or LDS: nothing to change
    assert json.loads(_output(COMMANDS[5][1], capsys))["files"][0]["kernels"][0]["advice"] == []
    # compare: straight.s is loop.s's body once (hand count: live v1, v2 read, v3 written, v4, v5 = 5 at its
    # line 5), 6 instructions of 4 bytes but the store (8): 28 bytes
    doc = json.loads(_output(COMMANDS[7][1], capsys))
    variants = [k for f in doc["files"] for k in f["kernels"]]
    assert [(v["vgpr"]["peak_live"], v["vgpr"]["requested"], v["instructions"], v["stats"]["code_bytes"])
            for v in variants] == [(5, 6, 10, 44), (5, 6, 6, 28)]
