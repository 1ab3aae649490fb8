"""Benchmark: what the timing section adds to ``isalens analyze`` on a >= 100,000-instruction kernel.

Uses the kernel ``benchmarks/large_kernel.py`` builds (real clang-19 output, body repeated) and measures CPU
time (``time.process_time``: the machine is shared, wall time is not the program's) of

* ``isalens analyze FILE --json`` (parse, every pass, statistics, JSON), in-process, output discarded;
* the timing section for the same kernel: ``kernel_timing`` (per-block and per-loop simulation, waves from
  the occupancy model) plus ``timing_dict`` (the JSON section), on the already loaded kernel.

    .venv/bin/python benchmarks/large_kernel.py --target gfx902      # builds the kernel once
    .venv/bin/python benchmarks/timing_overhead.py [--target gfx902] [--repeat 3]

Each measurement runs in a fresh process; the best of ``--repeat`` is reported.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "benchmarks"


def measure(path: Path) -> dict[str, float]:
    import isalens
    from isalens.cli import main
    from isalens.engine.timing import kernel_timing
    from isalens.report.timing import timing_dict

    t0 = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        main(["analyze", str(path), "--json"])
    t1 = time.process_time()
    module = isalens.load(path)
    kernel = max(module.kernels, key=lambda k: len(k.instructions))
    _ = kernel.cfg  # built by analyze already; not part of the timing section
    t2 = time.process_time()
    doc = timing_dict(kernel_timing(kernel))
    t3 = time.process_time()
    return {"instructions": len(kernel.instructions), "loops": len(doc["loops"]), "analyze_cpu_s": t1 - t0,
            "timing_cpu_s": t3 - t2, "overhead_pct": 100 * (t3 - t2) / (t1 - t0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", default="gfx902")
    parser.add_argument("--taps", type=int, default=1500)
    parser.add_argument("--min-instructions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    path = CACHE / f"big_{args.taps}.{args.target}.x{args.min_instructions}.s"
    if not path.exists():
        print(f"{path} is missing: run benchmarks/large_kernel.py --target {args.target} first", file=sys.stderr)
        return 2
    runs = [json.loads(subprocess.run([sys.executable, __file__, "--measure", str(path)], capture_output=True,
                                      text=True, check=True).stdout) for _ in range(args.repeat)]
    best = min(runs, key=lambda r: r["overhead_pct"])
    print(json.dumps({"file": str(path.relative_to(ROOT)), "runs": runs, "best": best}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
