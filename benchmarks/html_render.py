"""Benchmark: time to first render of the HTML report of a >= 100,000-instruction kernel in headless Chromium.

    .venv/bin/python benchmarks/html_render.py [--asm FILE] [--repeat 3]

Without --asm it uses the kernel benchmarks/large_kernel.py builds (real clang-19 output repeated to
100,000+ instructions; run that first) or, if absent, a generated straight-line kernel. It measures the
report generation (isalens analyze --html) and, in the browser, the time from navigation start until the
first listing row exists, and a scroll to the end.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def default_asm(tmp: Path) -> Path:
    built = sorted((ROOT / ".cache" / "benchmarks").glob("big_1500.*.x100000.v2.s"))
    if built:
        return built[0]
    path = tmp / "generated.s"
    lines = ["v_mov_b32_e32 v1, 0", "loop:"]
    lines += [f"v_add_f32_e32 v{2 + i % 60}, v{2 + (i + 7) % 60}, v1" for i in range(100_000)]
    lines += ["s_cbranch_scc1 loop", "s_endpgm"]
    path.write_text("\n".join(lines) + "\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--asm", type=Path)
    parser.add_argument("--arch", default="gfx90a")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("needs Debian's chromium (scripts/setup.sh --dev)")
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        asm = args.asm or default_asm(tmp)
        html = tmp / "report.html"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "isalens", "analyze", str(asm), "--arch", args.arch, "--html",
                        str(html)], check=True, capture_output=True)
        generate = time.perf_counter() - t0
        results = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
            for _ in range(args.repeat):
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                start = time.perf_counter()
                page.goto(html.as_uri())
                page.wait_for_selector(".row")
                wall = time.perf_counter() - start
                in_page = page.evaluate("performance.now()")
                n = page.evaluate("window.isalens.data.kernels[0].lines.length")
                s0 = time.perf_counter()
                page.evaluate(f"window.isalens.goTo({n - 1})")
                page.wait_for_selector(f'.row[data-index="{n - 1}"]')
                scroll = time.perf_counter() - s0
                rows = page.locator(".row").count()
                results.append({"first_render_s": wall, "page_clock_ms": in_page, "scroll_to_end_s": scroll,
                                "rows_in_dom": rows})
                page.close()
            browser.close()
        best = min(results, key=lambda r: r["first_render_s"])
        print(json.dumps({"asm": str(asm), "instructions": n, "html_bytes": html.stat().st_size,
                          "generate_s": generate, "best": best}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
