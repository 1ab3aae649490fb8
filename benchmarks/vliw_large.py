"""Benchmark: read + analyse + JSON of a large CAL dump (``isalens vliw``).

The dump is our hand-written SGEMM and nested-loop examples (examples/vliw), repeated until it has at least
``--min-lines`` lines; the CF numbering restarts at 00 for each copy, so each copy is a program of its own.
Run by hand:

    .venv/bin/python benchmarks/vliw_large.py [--min-lines 100000] [--repeat 3]

Each timing runs in a fresh process so peak memory (ru_maxrss) belongs to the analysis alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "benchmarks"
SOURCES = ("sgemm_8x8.rv770.isa", "nested_indent.rv770.isa", "branches_loop.rv770.isa")

_CHILD = """
import json, resource, sys, time
from isalens.engine.vliw import analyze_vliw, load_vliw
from isalens.report.vliw import render_vliw_json
start = time.perf_counter()
result = analyze_vliw(load_vliw(sys.argv[1], target="rv770"), "hd4870")
render_vliw_json(result)
print(json.dumps({"seconds": time.perf_counter() - start, "programs": len(result.programs),
                  "groups": result.total.groups,
                  "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def build(min_lines: int) -> Path:
    """The repeated dump, written under .cache/benchmarks."""
    texts = [(ROOT / "examples" / "vliw" / name).read_text() for name in SOURCES]
    parts: list[str] = []
    lines = 0
    while lines < min_lines:
        for text in texts:
            parts.append(text)
            lines += text.count("\n")
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"vliw_{min_lines}.isa"
    path.write_text("".join(parts))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--min-lines", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    path = build(args.min_lines)
    lines = path.read_text().count("\n")
    runs = []
    for _ in range(args.repeat):
        out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], check=True, capture_output=True, text=True)
        runs.append(json.loads(out.stdout))
    best = min(r["seconds"] for r in runs)
    print(json.dumps({"lines": lines, "programs": runs[0]["programs"], "groups": runs[0]["groups"],
                      "best_seconds": round(best, 2), "lines_per_second": round(lines / best),
                      "max_rss_mib": round(max(r["max_rss_mib"] for r in runs))}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
