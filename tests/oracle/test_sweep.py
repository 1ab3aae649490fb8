"""``isalens sweep`` against separate ``isalens analyze`` runs of the same compiles (clang-19)."""

from __future__ import annotations

import json

import pytest

from isalens.cli import main
from isalens.frontends import clang as cc
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.oracle

TILE_BLUR = EXAMPLES / "kernels" / "sweep" / "tile_blur.cl"


@pytest.fixture(scope="module", autouse=True)
def _clang() -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_sweep_rows_equal_separate_analyze_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(_run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,16,32", "--arch", "gfx902,gfx1030",
                          "--json"))
    compiles = doc["files"]
    assert [(c["arch"], c["defines"]) for c in compiles] == [
        (a, {"TILE": t}) for a in ("gfx902", "gfx1030") for t in ("8", "16", "32")]
    for compiled in compiles:
        assert compiled["error"] is None
        (row,) = compiled["kernels"]
        one = json.loads(_run(capsys, "analyze", str(TILE_BLUR), "--arch", compiled["arch"], "-D",
                              f"TILE={compiled['defines']['TILE']}", "--json"))
        (k,) = one["files"][0]["kernels"]
        assert row["name"] == k["name"]
        # sweep's kernel object uses analyze's names: every figure it has equals analyze's
        assert row["vgpr"] == {key: k["vgpr"][key] for key in ("peak_live", "requested", "allocated")}
        assert row["sgpr"]["requested"] == k["sgpr"]["requested"]
        assert row["occupancy"]["waves_per_simd"] == k["occupancy"]["waves_per_simd"]
        assert row["stats"]["code_bytes"] == k["stats"]["code_bytes"]
        assert row["occupancy"]["llvm_occupancy"] == k["occupancy"]["llvm_occupancy"]
        assert row["instructions"] == k["instructions"]
        # LDS by hand: (TILE + 2)^2 floats
        assert row["lds_bytes"] == (int(compiled["defines"]["TILE"]) + 2) ** 2 * 4
    # one best variant per target, and it has the most waves there
    for arch in ("gfx902", "gfx1030"):
        mine = [k for c in compiles if c["arch"] == arch for k in c["kernels"]]
        (best,) = [k for k in mine if k["best"]]
        assert best["occupancy"]["waves_per_simd"] == max(k["occupancy"]["waves_per_simd"] for k in mine)


def test_sweep_text_has_six_rows_and_failed_compiles_are_rows(capsys: pytest.CaptureFixture[str]) -> None:
    text = _run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,16,32", "--arch", "gfx902,gfx1030")
    body = [line for line in text.splitlines() if "tile_blur" in line]
    assert len(body) == 6
    assert sum(1 for line in body if line.startswith("*")) == 2
    doc = json.loads(_run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,oops", "--arch", "gfx902", "--json"))
    bad = [c for c in doc["files"] if c["error"]]
    assert len(bad) == 1 and bad[0]["defines"] == {"TILE": "oops"} and "oops" in bad[0]["error"]["message"]
