"""The HTML report against hostile strings and wide kernels, in Debian's Chromium (Playwright).

Screenshots land in test-artifacts/ (kept out of git).
"""

from __future__ import annotations

import dataclasses
import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from isalens.engine.load import load
from isalens.report.compare import Pair, Pairing, Variant, render_compare_html
from isalens.report.html import render_html
from isalens.report.model import livereg_report
from tests.conftest import ROOT

#: each can end a script element, open an HTML comment/nested script, close CDATA or break a JS line
HOSTILE = "a</script><b>x</b><!--<script>alert(1)//]]>\u2028\u2029&amp;\"'end"


def _report_page(text: str, arch: str = "gfx902", file: str = "k.s", kernel: str | None = None) -> str:
    module = load(text, arch)
    report = livereg_report([k.analyze() for k in module.kernels], file=file, dialect=module.ir.dialect,
                            diagnostics=module.ir.diagnostics)
    if kernel is not None:
        report = dataclasses.replace(report, kernels=tuple(dataclasses.replace(k, name=kernel)
                                                           for k in report.kernels))
    return render_html(report)


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.comments = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append("")

    def handle_data(self, data: str) -> None:
        if self.scripts and self.lasttag == "script":
            self.scripts[-1] += data

    def handle_comment(self, data: str) -> None:
        self.comments += 1


def test_data_cannot_end_the_script_or_open_a_comment() -> None:
    page = _report_page("v_add_f32 v0, v1, v2\ns_endpgm\n", file=HOSTILE, kernel=HOSTILE)
    data = page.split('<script type="application/json" id="isalens-data">', 1)[1].split("</script>", 1)[0]
    for bad in ("</", "<!--", "<script", "]]>", "\u2028", "\u2029"):
        assert bad not in data, bad
    parser = _Scripts()
    parser.feed(page)
    assert len(parser.scripts) == 2 and parser.comments == 0  # the data and the program, nothing else


def test_compare_page_data_is_inert() -> None:
    module = load("v_add_f32 v0, v1, v2\ns_endpgm\n", "gfx902")
    report = livereg_report([k.analyze(extra=("stats",)) for k in module.kernels], file="k.s",
                            dialect=module.ir.dialect,
                            diagnostics=())
    page = render_compare_html(Pairing((Pair("k", (Variant(HOSTILE, report.kernels[0]),
                                                    Variant("plain", report.kernels[0]))),)))
    data = page.split('id="isalens-data">', 1)[1].split("</script>", 1)[0]
    for bad in ("</", "<!--", "<script", "]]>", "\u2028", "\u2029"):
        assert bad not in data, bad
    assert json.loads(data)["pairs"][0]["variants"][0]["label"] == HOSTILE


pytest.importorskip("playwright.sync_api")  # the module is skipped without Playwright, as before
ARTIFACTS = ROOT / "test-artifacts"



def _open(browser: Any, html: str, tmp_path: Path, width: int, height: int) -> tuple[Any, list[str]]:
    path = tmp_path / "report.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector(".row", timeout=10_000)
    return page, errors


def test_hostile_strings_leave_the_page_working(browser: Any, tmp_path: Path) -> None:
    page, errors = _open(browser, _report_page("v_add_f32 v0, v1, v2\ns_endpgm\n", file=HOSTILE, kernel=HOSTILE),
                         tmp_path, 1280, 800)
    assert not errors, errors
    assert page.evaluate("window.isalens.data.file") == HOSTILE
    assert page.locator("#kernel option").first.text_content() == HOSTILE
    assert page.locator(".row").count() == 2
    assert page.evaluate("document.querySelectorAll('script').length") == 2
    assert page.title() == "isalens: " + HOSTILE
    page.close()


def _kernel_256_vgprs() -> str:
    # every VGPR written, then all read by a chain: all 256 are live together before the chain starts
    body = [f"v_mov_b32 v{i}, {i}" for i in range(256)]
    body += [f"v_add_f32 v0, v0, v{i}" for i in range(255, 0, -1)]
    return "\n".join([*body, "s_endpgm"]) + "\n"


def test_listing_text_readable_at_1280_with_256_vgprs(browser: Any, tmp_path: Path) -> None:
    page, errors = _open(browser, _report_page(_kernel_256_vgprs()), tmp_path, 1280, 800)
    assert not errors, errors
    assert page.evaluate("window.isalens.data.kernels[0].map_width.vgpr") == 256
    page.evaluate("window.isalens.goTo(300)")  # the chain of adds: the longest lines
    cells = page.locator(".row .txt")
    assert cells.count() > 10
    for k in range(cells.count()):
        box = cells.nth(k).bounding_box()
        if box is None or box["y"] < 0 or box["y"] > 800:
            continue
        # the whole instruction is inside the window and not clipped by its cell
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, box
        clipped = cells.nth(k).evaluate("e => e.scrollWidth > e.clientWidth")
        assert not clipped, cells.nth(k).text_content()
    # "v_add_f32 v0, v0, v255" is 22 characters: a 29-px column (the old layout) cannot show it
    assert cells.first.bounding_box()["width"] > 22 * 6
    # the register map is still reachable: the listing scrolls sideways
    assert page.evaluate("(() => { const l = document.getElementById('listing'); "
                         "return l.scrollWidth > l.clientWidth; })()")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-256-vgprs-1280x800.png"))
    page.close()
