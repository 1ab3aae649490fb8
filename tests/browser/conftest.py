"""Shared by the browser tests: Debian's Chromium, headless, driven through Playwright (skipped without either)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: as the machine's probe starts it: without the background-networking flags Chromium tries hosts it cannot reach
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (scripts/setup.sh --dev installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()


ARTIFACTS = ROOT / "test-artifacts"


def open_report(browser: Any, html: Path, width: int = 1400, height: int = 1000) -> Any:
    """A page showing ``html`` once its listing rows exist; ``page.errors`` collects script errors and any
    request that leaves the file (the report is one self-contained file)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: errors.append(f"network request {r.url}") if not r.url.startswith("file:") else None)
    page.goto(html.as_uri())
    page.wait_for_selector(".row")
    page.errors = errors
    return page


def screenshot(page: Any, name: str) -> None:
    """The visible part of ``page`` as test-artifacts/NAME (kept out of git) for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)
