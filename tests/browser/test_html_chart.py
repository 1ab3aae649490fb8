"""The HTML report's pressure chart and listing at common screen sizes (Debian's Chromium through Playwright).

Oracle: the ``--json`` document of the same run: lines (ISA line numbers of the x ticks), vgpr (requested,
allocated, peak index and line) and occupancy (the kernel's waves per SIMD and the next step's VGPR count).
Screenshots go to test-artifacts/; the ones in docs/img/ were taken from these.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, open_report, screenshot
from tests.conftest import EXAMPLES

pytest.importorskip("playwright.sync_api")  # every test here drives the browser

if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (scripts/setup.sh --dev installs it)", allow_module_level=True)

#: 150 VGPRs requested, 152 allocated, 1 wave per SIMD; 22 fewer VGPRs give 2 (its --json occupancy section)
EXAMPLE = EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"
SIZES = [(1280, 800), (1920, 1080)]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    html = tmp_path_factory.mktemp("chart") / "report.html"
    run = subprocess.run([sys.executable, "-m", "isalens", "analyze", str(EXAMPLE), "--html", str(html), "--json"],
                         capture_output=True, text=True, check=True)
    (kernel,) = json.loads(run.stdout)["files"][0]["kernels"]
    return html, kernel


def _y_of(page: Any) -> Any:
    """The chart's value -> y mapping read back from its y grid: (value, y) of the lowest and highest tick."""
    ticks = page.eval_on_selector_all("#chart line.grid", "ls => ls.map(l => [Number(l.dataset.value), "
                                                          "Number(l.getAttribute('y1'))])")
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    return lambda v: y0 + (v - v0) * (y1 - y0) / (v1 - v0)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_axes_and_register_lines(browser: Any, report: tuple[Path, dict[str, Any]], size: tuple[int, int]) -> None:
    html, kernel = report
    page = open_report(browser, html, *size)
    # y axis: at least three register counts, evenly spaced from 0; x axis: ISA line numbers of the instructions
    yticks = [int(t) for t in page.eval_on_selector_all("#chart .ytick", "ts => ts.map(t => t.textContent)")]
    assert len(yticks) >= 3 and yticks[0] == 0
    assert len({b - a for a, b in itertools.pairwise(yticks)}) == 1
    xticks = page.eval_on_selector_all("#chart .xtick", "ts => ts.map(t => [Number(t.dataset.index), t.textContent])")
    assert len(xticks) >= 3
    assert [text for _i, text in xticks] == [str(kernel["lines"][i]["line"]) for i, _t in xticks]
    titles = page.eval_on_selector_all("#chart .axis-title", "ts => ts.map(t => t.textContent)")
    assert any("ISA line" in t for t in titles) and any("registers" in t for t in titles)
    # requested and allocated VGPRs: the --json figures, drawn on the scale of the live curve
    y = _y_of(page)
    for key in ("requested", "allocated"):
        line = page.locator(f"#chart line.{key}")
        assert int(line.get_attribute("data-vgprs")) == kernel["vgpr"][key]
        assert float(line.get_attribute("y1")) == pytest.approx(y(kernel["vgpr"][key]), abs=0.2)
        assert page.locator(f"#chart .{key}-label").text_content() == f"{key} {kernel['vgpr'][key]}"
    peak = kernel["vgpr"]["peak_indices"][0]
    points = page.get_attribute("#chart polyline.vgpr", "points").split()
    assert float(points[peak].split(",")[1]) == pytest.approx(y(kernel["vgpr"]["peak_live"]), abs=0.2)
    # occupancy thresholds: the next step's VGPR count carries the next step's waves, and no band the
    # allocated count reaches promises more waves than the kernel runs at
    occ = kernel["occupancy"]
    bands = page.eval_on_selector_all("#chart g.threshold", "gs => gs.map(g => [Number(g.dataset.vgprs), "
                                                           "Number(g.dataset.waves), g.textContent])")
    at = kernel["vgpr"]["requested"] - occ["next_step"]["vgprs_to_remove"]
    assert [(w, text) for v, w, text in bands if v == at] == [(occ["next_step"]["waves_per_simd"],
                                                              f"{occ['next_step']['waves_per_simd']:g} waves <= {at}")]
    assert all(w <= occ["waves_per_simd"] for v, w, _t in bands if v >= kernel["vgpr"]["allocated"])
    for v, w, text in bands:
        assert text in ("", f"{w:g} wave{'' if w == 1 else 's'} <= {v}")
        line_y = float(page.locator(f'#chart g.threshold[data-vgprs="{v}"] line').get_attribute("y1"))
        assert line_y == pytest.approx(y(v), abs=0.2)
    assert not page.errors, page.errors
    screenshot(page, f"report-chart-{size[0]}x{size[1]}.png")
    page.close()


def _in_view(page: Any, index: int) -> dict[str, float]:
    return page.evaluate(f"""() => {{
        const r = document.querySelector('#spacer .row[data-index="{index}"]').getBoundingClientRect();
        const h = document.getElementById('listing-head').getBoundingClientRect();
        const l = document.getElementById('listing').getBoundingClientRect();
        return {{top: r.top, bottom: r.bottom, inner: window.innerHeight, head: h.bottom, listBottom: l.bottom}};
    }}""")


def _visible(box: dict[str, float]) -> bool:
    """Inside the window, below the listing's sticky header and above the listing's bottom edge."""
    return box["top"] >= 0 and box["bottom"] <= box["inner"] and box["top"] >= box["head"] - 0.5 \
        and box["bottom"] <= box["listBottom"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clicks_on_the_chart_show_the_row(browser: Any, report: tuple[Path, dict[str, Any]],
                                          size: tuple[int, int]) -> None:
    html, kernel = report
    page = open_report(browser, html, *size)
    peak = kernel["vgpr"]["peak_indices"][0]
    page.click("#peak-marker")
    current = page.locator("#spacer .row.current")
    assert current.count() == 1
    assert int(current.get_attribute("data-index")) == peak
    assert current.locator(".ln").inner_text().strip() == str(kernel["vgpr"]["peak_lines"][0])
    assert _visible(_in_view(page, peak)), _in_view(page, peak)
    screenshot(page, f"report-peak-{size[0]}x{size[1]}.png")
    # a click on the curve near the end, then near the start: the row under the pointer each time
    box = page.locator("#chart").bounding_box()
    for near in (len(kernel["lines"]) - 40, 5):
        # mouse events carry whole pixels: the row is the one drawn nearest the pixel clicked
        x = round(box["x"] + page.evaluate(f"window.isalens.chartX({near})"))
        drawn = {i: box["x"] + page.evaluate(f"window.isalens.chartX({i})") for i in range(near - 2, near + 3)}
        index = min(drawn, key=lambda i: abs(drawn[i] - x))
        page.mouse.click(x, box["y"] + box["height"] / 2)
        assert page.locator("#spacer .row.current").get_attribute("data-index") == str(index)
        assert _visible(_in_view(page, index)), (index, _in_view(page, index))
    # the column headers stay at the listing's top edge while its rows scroll
    head = page.locator("#listing-head").bounding_box()
    assert head["y"] == pytest.approx(page.locator("#listing").bounding_box()["y"], abs=1.5)
    assert [page.locator(f"#listing-head .{c}").inner_text() for c in ("ln", "cnt", "txt")] == \
        ["line", "live", "ISA instruction"]
    assert not page.errors, page.errors
    page.close()
