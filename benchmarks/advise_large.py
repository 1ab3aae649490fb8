"""Benchmark: every advice detector on a >= 100,000-instruction kernel (the one benchmarks/large_kernel.py
builds from real clang-19 output; run that first), after the analyses it reads.

    .venv/bin/python benchmarks/advise_large.py [--asm FILE] [--repeat 3]

Prints JSON: seconds for the analyses (passes + statistics) and per detector, best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import isalens
from isalens.analysis.advice import DETECTORS, AdviceInput
from isalens.engine.decode import kernel_stats

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--asm", type=Path, help="ISA file (default: the large_kernel.py output for gfx902)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    asm = args.asm or next(iter(sorted((ROOT / ".cache" / "benchmarks").glob("big_*.x100000.s"))), None)
    if asm is None:
        sys.stderr.write("no input: run benchmarks/large_kernel.py first or pass --asm\n")
        return 2
    kernel = isalens.load(asm).kernels[0]
    start = time.perf_counter()
    inp = AdviceInput(kernel.analyze(), kernel_stats(kernel))
    timings: dict[str, float] = {"analyses": time.perf_counter() - start}
    for kind, detect in DETECTORS:
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            detect(inp)
            best = min(best, time.perf_counter() - t)
        timings[kind] = best
    doc = {"file": str(asm), "instructions": len(kernel.instructions),
           "seconds": {k: round(v, 3) for k, v in timings.items()}}
    sys.stdout.write(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
