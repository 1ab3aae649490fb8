"""The HTML report's source pane (issue 27): a source line clicked marks exactly the listing rows that the
JSON maps to it (``lines[].source``), a listing row's line number selects its source line, and at 1280x800 the
source and the listing stand side by side (screenshot in test-artifacts/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.conftest import EXAMPLES, ROOT, require_tool

pytest.importorskip("playwright.sync_api")  # every test here drives the browser
SOURCE = EXAMPLES / "kernels" / "source" / "inlined.cl"



def _marked(page: Any) -> list[int]:
    """Indices of listing rows drawn with the source highlight, scrolling through the whole (virtual) list."""
    return list(page.evaluate("""() => {
        const l = document.getElementById("listing"), out = new Set();
        for (let top = 0; top <= l.scrollHeight; top += Math.max(50, l.clientHeight / 2)) {
            l.scrollTop = top; window.isalens.render();
            document.querySelectorAll(".row.src-hl").forEach((r) => out.add(Number(r.dataset.index)));
        }
        return Array.from(out).sort((a, b) => a - b);
    }"""))


def test_source_pane_links_both_ways(browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("clang-19")
    html = tmp_path / "report.html"
    assert main(["analyze", str(SOURCE), "--arch", "gfx902", "--html", str(html), "--json"]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    costliest = max(kernel["source_lines"], key=lambda r: r["instructions"])
    expected = [i for i, row in enumerate(kernel["lines"]) if row["source"] is not None
                and (row["source"]["file"], row["source"]["line"]) == (costliest["file"], costliest["line"])]
    assert len(expected) >= 2
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html.as_uri())
    page.wait_for_selector(".src-row")
    # click the costliest source line in the pane: exactly its instructions are marked, the listing jumps there
    pane_row = page.locator(".src-row:not(.file)").filter(has_text=str(costliest["text"]).strip()).first
    assert pane_row.locator(".sln").inner_text() == str(costliest["line"])
    pane_row.click()
    assert page.locator(".row.current").get_attribute("data-index") == str(expected[0])
    ARTIFACTS = ROOT / "test-artifacts"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "source-pane-1280x800.png"))
    # both panes are on screen side by side, each wide enough to read
    pane, listing = page.locator("#source-pane").bounding_box(), page.locator("#listing").bounding_box()
    assert pane["x"] + pane["width"] <= listing["x"] and pane["width"] >= 300 and listing["width"] >= 600
    assert listing["x"] + listing["width"] <= 1280
    assert _marked(page) == expected
    # back: a listing row's line number selects its source line in the pane
    other = next(i for i, row in enumerate(kernel["lines"]) if row["source"] is not None
                 and row["source"]["line"] != costliest["line"])
    page.evaluate(f"window.isalens.goTo({other})")
    page.locator(f'.row[data-index="{other}"] .ln').click()
    selected = page.locator(".src-row.sel .sln").inner_text()
    assert selected == str(kernel["lines"][other]["source"]["line"])
    assert errors == []
    page.close()


def test_no_pane_without_source_lines(browser: Any, tmp_path: Path) -> None:
    html = tmp_path / "plain.html"
    assert main(["analyze", str(EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"), "--html", str(html)]) == 0
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(html.as_uri())
    page.wait_for_selector(".row")
    assert page.locator("#source-pane").is_hidden()
    page.close()


def _report(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: Path, *flags: str) -> tuple[Path, Any]:
    require_tool("clang-19")
    html = tmp_path / f"{source.stem}.html"
    assert main(["analyze", str(source), "--arch", "gfx902", "--html", str(html), "--json", *flags]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    return html, kernel


def test_chart_hover_names_the_source_line_and_its_variables(browser: Any, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # oracle: the --json of the same run: lines[i].source and the variables whose ranges cover lines[i].line
    html, kernel = _report(tmp_path, capsys, SOURCE, "--debug-variables")
    lines = kernel["lines"]

    def held(line: int) -> list[str]:
        return [v["name"] for v in kernel["variables"]
                if any(r["first_line"] <= line <= r["last_line"] for r in v["ranges"])]
    # a line where some variable is held and another's range has already ended (so the hover must look at
    # both ends of each range)
    def ended(line: int) -> bool:
        return any(all(r["last_line"] < line for r in v["ranges"]) for v in kernel["variables"])
    index = next(i for i, row in enumerate(lines)
                 if row["source"] is not None and held(row["line"]) and ended(row["line"]))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(html.as_uri())
    page.wait_for_selector(".src-row")
    box = page.locator("#chart").bounding_box()
    # where the chart puts row i (report.js renderChart: the plot area starts after the y axis)
    page.mouse.move(box["x"] + page.evaluate(f"window.isalens.chartX({index})"), box["y"] + box["height"] / 2)
    tip = page.locator("#chart-tip").inner_text()
    source = lines[index]["source"]
    assert tip.startswith(f"line {lines[index]['line']}: ")
    assert f"source {source['file'].rsplit('/', 1)[-1]}:{source['line']}" in tip
    assert tip.splitlines()[-1] == "variables: " + ", ".join(held(lines[index]["line"]))
    page.close()


def test_advice_and_loop_tables_link_to_source_lines(browser: Any, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    source = EXAMPLES / "kernels" / "advice" / "spill_budget.cl"
    html, kernel = _report(tmp_path, capsys, source)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(html.as_uri())
    page.wait_for_selector(".src-row")

    def selected_after(link: Any) -> tuple[int, list[int]]:
        link.click()
        line = int(page.locator(".src-row.sel .sln").inner_text())
        return line, _marked(page)

    def mapped(line: int) -> list[int]:
        return [i for i, row in enumerate(kernel["lines"]) if row["source"] is not None
                and row["source"]["line"] == line and row["source"]["file"].endswith("/spill_budget.cl")]
    # the one loop left after unrolling is `for (int it ...)`, source lines 17-20 (read off the file): its link
    # selects line 17 and marks exactly that line's instructions
    assert len(kernel["timing"]["loops"]) == 1
    loop_link = page.locator("#timing-table a.src-link")
    assert loop_link.inner_text() == "spill_budget.cl:17-20"
    assert selected_after(loop_link) == (17, mapped(17))
    # each advice item's first source link selects the first of the item's JSON sources
    items = [a for a in kernel["advice"] if a.get("sources")]
    assert items
    # the table ranks items by the JSON's gain, largest first (ties in JSON order)
    ranked = sorted(kernel["advice"], key=lambda a: -(a["gain"]["relative"] if a["gain"] else 0))
    for n, item in enumerate(ranked):
        if not item.get("sources"):
            continue
        link = page.locator("#advice-table tbody tr").nth(n).locator("a.src-link").first
        first = item["sources"][0]["line"]
        assert selected_after(link) == (first, mapped(first))
    page.close()
