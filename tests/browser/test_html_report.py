"""The interactive HTML report in a real browser: Playwright drives Debian's Chromium headless.

Screenshots land in test-artifacts/ (kept out of git) for people to look at.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.browser.conftest import CHROMIUM, open_report, screenshot
from tests.conftest import EXAMPLES

pytest.importorskip("playwright.sync_api")  # every test here drives the browser

if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (scripts/setup.sh --dev installs it)", allow_module_level=True)

EXAMPLE = EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"



def _report(tmp_path: Path, source: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict[str, Any]]:
    html = tmp_path / "report.html"
    assert main(["analyze", str(source), "--html", str(html), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return html, doc["files"][0]["kernels"][0]


def test_chart_renders_every_point(browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html, kernel = _report(tmp_path, EXAMPLE, capsys)
    page = open_report(browser, html)
    points = page.get_attribute("#chart polyline.vgpr", "points").split()
    # fewer than 4000 instructions: one point per instruction, heights following the live counts
    assert len(points) == kernel["instructions"]
    ys = [float(p.split(",")[1]) for p in points]
    peak_at = kernel["vgpr"]["peak_indices"][0]
    assert min(ys) == pytest.approx(ys[peak_at])  # highest point (smallest y) is the peak
    assert page.locator("#peak-marker").count() == 1
    assert not page.errors, page.errors
    screenshot(page, "report-overview.png")


def test_peak_marker_scrolls_the_listing_to_the_peak(browser: Any, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    html, kernel = _report(tmp_path, EXAMPLE, capsys)
    page = open_report(browser, html)
    page.click("#peak-marker")
    current = page.locator(".row.current")
    assert current.count() == 1
    assert int(current.get_attribute("data-index")) == kernel["vgpr"]["peak_indices"][0]
    assert current.locator(".ln").inner_text().strip() == str(kernel["vgpr"]["peak_lines"][0])
    box, view = current.bounding_box(), page.locator("#listing").bounding_box()
    assert view["y"] <= box["y"] <= view["y"] + view["height"]
    screenshot(page, "report-peak.png")


def test_clicking_a_register_highlights_exactly_its_live_lines(browser: Any, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    html, kernel = _report(tmp_path, EXAMPLE, capsys)
    page = open_report(browser, html)
    # the longest-lived VGPR range from the JSON; the page must highlight the same instructions
    reg, start, end = next((r["reg"], r["start_index"], r["end_index"]) for r in kernel["longest_lived"]
                           if r["reg"].startswith("v"))
    page.evaluate(f"window.isalens.goTo({start})")
    page.click(f'.row[data-index="{start}"] .map b[data-reg="{reg[1:]}"]')
    rendered = page.eval_on_selector_all(".row", "rows => rows.map(r => [Number(r.dataset.index), "
                                                 "r.classList.contains('hl-live')])")
    assert rendered
    for index, highlighted in rendered:
        assert highlighted == (index in page.evaluate(f"window.isalens.liveRows('{reg}')")), index
    live = set(page.evaluate(f"window.isalens.liveRows('{reg}')"))
    assert set(range(start, end + 1)) <= live
    screenshot(page, "report-register.png")


def test_search_finds_an_instruction(browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html, kernel = _report(tmp_path, EXAMPLE, capsys)
    page = open_report(browser, html)
    query = "ds_read2st64_b32"
    first = next(x for x in kernel["lines"] if query in x["text"])
    page.fill("#search", query)
    page.press("#search", "Enter")
    found = page.locator(".row.found")
    assert found.count() == 1
    assert query in found.locator(".txt").inner_text()
    assert page.inner_text("#search-status") == f"line {first['line']}"
    screenshot(page, "report-search.png")


def test_large_kernel_renders_only_visible_rows(browser: Any, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "big.s"
    body = ["v_mov_b32_e32 v1, 0", "loop:"]
    for i in range(100_000):
        body.append(f"v_add_f32_e32 v{2 + i % 60}, v{2 + (i + 7) % 60}, v1")
    body += ["s_cbranch_scc1 loop", "s_endpgm"]
    source.write_text("\n".join(body) + "\n")
    html = tmp_path / "big.html"
    assert main(["analyze", str(source), "--arch", "gfx900", "--html", str(html)]) == 0
    capsys.readouterr()
    page = open_report(browser, html)
    assert page.locator(".row").count() < 200
    page.evaluate("window.isalens.goTo(90000)")
    assert page.locator('.row[data-index="90000"]').count() == 1
    assert page.locator(".row").count() < 200
    assert not page.errors, page.errors
