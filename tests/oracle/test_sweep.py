"""``isalens sweep`` against separate ``isalens analyze`` runs of the same compiles (clang-19)."""

from __future__ import annotations

import json

import pytest

from isalens.cli import main
from isalens.frontends import clang as cc
from tests.conftest import EXAMPLES
from tests.schema_check import validate

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
    # one best variant per target: the most useful work per instruction per SIMD (test below)
    for arch in ("gfx902", "gfx1030"):
        mine = [k for c in compiles if c["arch"] == arch for k in c["kernels"]]
        assert sum(1 for k in mine if k["best"]) == 1


def test_sweep_best_weighs_the_border_overhead_of_the_tile_model(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: sweep called TILE=8 best (most waves, then fewest instructions) although `isalens tile` says an
    8x8 tile's border overhead is twice a 16x16 tile's. Best is now the most useful work per instruction per
    SIMD: waves x useful / loads / instructions, with the tile from `isalens tile` itself."""
    doc = json.loads(_run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,16,32", "--arch", "gfx902,gfx1030",
                          "--json"))
    validate(doc)
    tiles = {}
    for side in (8, 16, 32):
        # the tile model as `isalens tile` prints it for a side x side tile of floats with a one-texel border
        one = json.loads(_run(capsys, "tile", "--dims", f"{side}x{side}", "--radius", "1", "--bytes-per-item", "4",
                              "--json"))
        tiles[side] = one["tile"]
    # the claim, by hand: 8x8 loads 10^2 = 100 for 64 (+56.25%), 16x16 loads 18^2 = 324 for 256 (+26.6%)
    assert tiles[8]["overhead_vs_useful_pct"] == 56.25 and tiles[16]["overhead_vs_useful_pct"] == 26.56
    for arch in ("gfx902", "gfx1030"):
        mine = {int(c["defines"]["TILE"]): c["kernels"][0] for c in doc["files"] if c["arch"] == arch}
        score = {}
        for side, k in mine.items():
            work = k["work"]
            assert work["tile"]["dims"] == [side, side] and work["tile"]["radius"] == 1
            assert work["tile"]["overhead_vs_useful_pct"] == tiles[side]["overhead_vs_useful_pct"]
            # useful share by hand: side^2 outputs of (side + 2)^2 loads
            assert work["useful_share"] == pytest.approx(side * side / (side + 2) ** 2, abs=1e-6)
            score[side] = k["occupancy"]["waves_per_simd"] * side * side / (side + 2) ** 2 / k["instructions"]
            assert work["score"] == pytest.approx(score[side], abs=1e-6) and "waves per SIMD" in work["weighed"]
        (best,) = [side for side, k in mine.items() if k["best"]]
        assert score[best] == max(score.values())
        assert best != 8  # 10 (gfx902) or 16 (gfx1030) waves for every tile up to 16x16: the border decides
    text = _run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,16", "--arch", "gfx902")
    assert "weighing useful work per instruction per SIMD" in text and "56.2%" in text and "26.6%" in text


def test_sweep_text_has_six_rows_and_failed_compiles_are_rows(capsys: pytest.CaptureFixture[str]) -> None:
    text = _run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,16,32", "--arch", "gfx902,gfx1030")
    body = [line for line in text.splitlines() if "tile_blur" in line]
    assert len(body) == 6
    assert sum(1 for line in body if line.startswith("*")) == 2
    doc = json.loads(_run(capsys, "sweep", str(TILE_BLUR), "-D", "TILE=8,oops", "--arch", "gfx902", "--json"))
    bad = [c for c in doc["files"] if c["error"]]
    assert len(bad) == 1 and bad[0]["defines"] == {"TILE": "oops"} and "oops" in bad[0]["error"]["message"]


def test_sweep_exit_code_says_whether_anything_was_compared(capsys: pytest.CaptureFixture[str]) -> None:
    """Some variants failing: exit 0 and one line naming how many; every variant failing: exit 2 (the table said
    so and the exit code was 0); a mistyped target: exit 2 before anything compiles (it was an error row)."""
    assert main(["sweep", str(TILE_BLUR), "-D", "TILE=8,oops", "--arch", "gfx902"]) == 0
    assert "1 of 2 variant(s) failed" in capsys.readouterr().err
    assert main(["sweep", str(TILE_BLUR), "-D", "TILE=oops,bad", "--arch", "gfx902"]) == 2
    assert "2 of 2 variant(s) failed" in capsys.readouterr().err
    assert main(["sweep", str(TILE_BLUR), "-D", "TILE=8", "--arch", "gfx902,gfx9o2"]) == 2
    captured = capsys.readouterr()
    assert "unknown target architecture 'gfx9o2'" in captured.err and captured.out == ""
