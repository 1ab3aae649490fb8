"""The compare page in a real browser: a chart per kernel pair, with axes and a peak marker per build.

Oracle: ``compare --json`` of the same builds (each kernel's ``pressure``: the first index of its maximum is
the peak, found here by brute force) and the input text itself (the peak's line, counted in the file).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM
from tests.conftest import ROOT

pytest.importorskip("playwright.sync_api")  # every test here drives the browser

if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (scripts/setup.sh --dev installs it)", allow_module_level=True)

ARTIFACTS = ROOT / "test-artifacts"
HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n\t.text\n'
SIZES = [(1280, 800), (1920, 1080)]


def _kernel(name: str, vgprs: int, n: int) -> str:
    """Writes v0..v(vgprs-1), then adds them all into v0: every value lives until its add, so the first peak is
    the last write (``vgprs`` live)."""
    writes = "".join(f"\tv_mov_b32 v{i}, {i + 1}.0\n" for i in range(vgprs))
    adds = "".join(f"\tv_add_f32 v0, v0, v{i}\n" for i in range(1, vgprs))
    return f"\t.type\t{name},@function\n{name}:\n{writes}{adds}\tglobal_store_dword v[0:1], v0, off\n\ts_endpgm\n" \
           f".Lfunc_end{n}:\n"


def _build(path: Path, kernels: list[tuple[str, int]]) -> Path:
    path.write_text(HEAD + "".join(_kernel(name, v, n) for n, (name, v) in enumerate(kernels)))
    return path


def _peak_line(path: Path, kernel: str, vgprs: int) -> int:
    """The input line of ``kernel``'s last ``v_mov_b32`` (1-based, counted in the file)."""
    lines = path.read_text().splitlines()
    start = lines.index(f"{kernel}:")
    return next(n for n in range(start, len(lines)) if lines[n].startswith(f"\tv_mov_b32 v{vgprs - 1},")) + 1


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[tuple[str, str], int]]:
    tmp = tmp_path_factory.mktemp("compare")
    builds = {"old.s": [("a", 6), ("b", 9), ("c", 12)], "new.s": [("c", 20), ("a", 7), ("b", 4)]}
    paths = [_build(tmp / name, kernels) for name, kernels in builds.items()]
    html = tmp / "compare.html"
    run = subprocess.run([sys.executable, "-m", "isalens", "compare", *map(str, paths), "--json", "--html", str(html)],
                         capture_output=True, text=True, check=True)
    lines = {(name, k): _peak_line(tmp / name, k, v) for name, kernels in builds.items() for k, v in kernels}
    return html, json.loads(run.stdout), lines


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_chart_per_pair_with_axes_and_peak_markers(browser: Any, size: tuple[int, int],
                                                     pages: tuple[Path, dict[str, Any], dict[tuple[str, str], int]]
                                                     ) -> None:
    html, doc, peak_lines = pages
    pressure = {(f["label"], k["name"]): k["pressure"] for f in doc["files"] for k in f["kernels"]}
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html.as_uri())
    charts = page.locator("svg.chart")
    assert [p["name"] for p in doc["pairs"]] == ["a", "b", "c"]
    assert charts.count() == 3
    for n, pair in enumerate(doc["pairs"]):
        chart = charts.nth(n)
        yticks = [int(t) for t in chart.locator(".ytick").all_text_contents()]
        assert len(yticks) >= 3 and yticks[0] == 0
        assert len(chart.locator(".xtick").all_text_contents()) >= 2
        assert [t for t in chart.locator(".axis-title").all_text_contents() if "VGPRs" in t]
        grid = chart.locator("line.grid")
        (v0, y0), (v1, y1) = [(float(grid.nth(i).get_attribute("data-value")), float(grid.nth(i).get_attribute("y1")))
                              for i in (0, grid.count() - 1)]
        markers = chart.locator("g.peak-marker")
        assert markers.count() == len(pair["variants"]) == 2
        for k, variant in enumerate(pair["variants"]):
            counts = pressure[(variant["label"], variant["kernel"])]
            peak = counts.index(max(counts))  # brute force: the first instruction at the most live VGPRs
            marker = chart.locator(f'g.peak-marker[data-variant="{k}"]')
            assert int(marker.get_attribute("data-index")) == peak
            assert int(marker.get_attribute("data-line")) == peak_lines[(variant["label"], variant["kernel"])]
            # the marker's tip sits on the curve's scale: 1 px above the peak's y
            tip = float(marker.locator("polygon").get_attribute("points").split()[2].split(",")[1])
            assert tip + 1 == pytest.approx(y0 + (max(counts) - v0) * (y1 - y0) / (v1 - v0), abs=0.2)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"compare-{size[0]}x{size[1]}.png"))
    # the normalised view keeps axes and markers
    page.check("input[value=norm]")
    assert charts.nth(0).locator(".xtick").all_text_contents()[-1] == "100%"
    assert page.locator("g.peak-marker").count() == 6
    assert not errors, errors
    page.close()
