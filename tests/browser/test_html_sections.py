"""The HTML report's timing and advice sections show what the JSON document says, and their line links move
the listing to that line (Debian's chromium through Playwright; skipped without it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import isalens
from isalens.cli import main
from tests.conftest import ROOT

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
    rows = page.locator("#sections table tr")
    assert rows.count() == 1 + len(kernel["timing"]["loops"])
    first_loop = kernel["timing"]["loops"][0]
    line, depth, cycles = rows.nth(1).inner_text().split("\t")[:3]
    assert (int(line), int(depth), float(cycles)) == (first_loop["header_line"], first_loop["depth"],
                                                      first_loop["cycles_per_iteration"])
    items = page.locator("#sections ol > li")
    assert items.count() == len(kernel["advice"])
    # the first evidence line of the pressure advice: clicking it makes that line the current row
    pressure = next(a for a in kernel["advice"] if a["kind"] == "pressure")
    target = pressure["lines"][0]
    page.locator(f'#sections a[data-line="{target}"]').first.click()
    assert page.locator(".row.current .ln").inner_text() == str(target)
    # the listing's cycles column shows each line's issue/stall cycles
    assert page.locator(".row.current .cyc").inner_text().count("/") == 1
    assert errors == []
    page.close()
