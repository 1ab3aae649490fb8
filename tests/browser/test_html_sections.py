"""The HTML report's timing and advice sections show what the JSON document says, and their line links move
the listing to that line (Debian's chromium through Playwright; skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import isalens
from isalens.cli import main
from tests.conftest import EXAMPLES, ROOT, require_tool

pytest.importorskip("playwright.sync_api")  # every test here drives the browser
EXAMPLE = ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s"



def test_timing_and_advice_sections_follow_the_json(browser: Any, tmp_path: Path) -> None:
    (kernel,) = isalens.analyze(EXAMPLE).to_dict()["files"][0]["kernels"]
    out = tmp_path / "r.html"
    assert main(["analyze", str(EXAMPLE), "--html", str(out)]) == 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(out.as_uri())
    rows = page.locator("#timing-table tr")
    assert rows.count() == 1 + len(kernel["timing"]["loops"])
    first_loop = kernel["timing"]["loops"][0]
    line, depth, cycles = rows.nth(1).inner_text().split("\t")[:3]
    assert (int(line), int(depth), float(cycles)) == (first_loop["header_line"], first_loop["depth"],
                                                      first_loop["cycles_per_iteration"])
    _check_advice_table(page, kernel["advice"])
    # the first evidence line of the pressure advice: clicking it makes that line the current row
    pressure = next(a for a in kernel["advice"] if a["kind"] == "pressure")
    target = pressure["lines"][0]
    page.locator(f'#sections a[data-line="{target}"]').first.click()
    assert page.locator(".row.current .ln").inner_text() == str(target)
    # the listing's cycles column shows each line's issue/stall cycles
    assert page.locator(".row.current .cyc").inner_text().count("/") == 1
    assert errors == []
    page.close()


def _ranked(advice: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The JSON's items by gain, largest first (ties in JSON order)."""
    return sorted(advice, key=lambda a: -(a["gain"]["relative"] if a["gain"] else 0))


def _check_advice_table(page: Any, advice: list[dict[str, Any]]) -> None:
    """One table row per item, ranked by the JSON's gain; its gain and effect cells are the JSON's figures."""
    rows = page.locator("#advice-table tbody tr")
    assert rows.count() == len(advice)
    for n, item in enumerate(_ranked(advice)):
        row = rows.nth(n)
        assert row.get_attribute("data-kind") == item["kind"]
        gain = item["gain"]
        assert row.locator(".gain").inner_text() == \
            (f"+{round(gain['relative'] * 100, 1):g}% {gain['figure']}" if gain else "-")
        assert row.locator(".effect div").all_inner_texts() == \
            [f"{k} {a:g} -> {b:g}" for k, (a, b) in item["effect"].items()]


def test_advice_table_ranks_by_gain(browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # spill_budget.cl: the detectors emit occupancy, spills, constants; by gain (advice/gain.py, from the
    # effect figures): spills 44 -> 0 slots = 100%, occupancy 8 -> 9 waves = 12.5%, constants 1508 -> 1460 loop
    # bytes = 3.2%, so the table reads spills, occupancy, constants
    require_tool("clang-19")
    source = EXAMPLES / "kernels" / "advice" / "spill_budget.cl"
    out = tmp_path / "r.html"
    assert main(["analyze", str(source), "--arch", "gfx902", "--html", str(out), "--json"]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    assert [a["kind"] for a in kernel["advice"]] == ["occupancy", "spills", "constants"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(out.as_uri())
    page.wait_for_selector("#advice-table")
    assert [r.get_attribute("data-kind") for r in page.locator("#advice-table tbody tr").all()] == \
        ["spills", "occupancy", "constants"]
    _check_advice_table(page, kernel["advice"])
    page.close()
