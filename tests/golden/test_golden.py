"""Golden files for the text, JSON and RGA renderers (``pytest --update-golden`` rewrites them).

They guard the *format*; the figures are checked independently elsewhere (RGA's engine, LLVM's liveness
and metadata, brute force). For this loop the VGPR counts were also derived by hand: v0 (read in the loop)
and the address pair v[4:5] are live from the entry: 3 at line 2; v1 joins at line 3: 4; line 5 (v1 = v1 +
v0) still 4 because v2 is rewritten at line 6 before any read, so it is dead around the back edge; line 6
writes v2: 5 (the peak), lines 7-9 keep 5; line 10 reads v1, v2 and writes v3 with v[4:5] live: 5, and v0
is dead after the loop; line 11 reads v3, v4, v5: 3; s_endpgm: 0. Requested 6 (v0-v5), allocated 8.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from isalens.cli import main
from tests.conftest import ROOT

CASES = Path(__file__).parent / "cases"
SCHEMA = json.loads((ROOT / "docs" / "schema" / "livereg.schema.json").read_text())


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
        jsonschema.validate(json.loads(capsys.readouterr().out), SCHEMA)
