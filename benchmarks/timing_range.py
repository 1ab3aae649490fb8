"""Benchmark: what the second simulation of ``isalens timing`` costs (issue 29, the L2..DRAM memory range).

Without ``--memory-level`` the timing command simulates every kernel twice: vector loads as L2 hits (the
headline) and as misses to DRAM (the range's upper end). This script measures, on one ISA file (default: the
dense 100k kernel of ``dense_kernel.py``), the CPU time (``time.process_time``) of each simulation in a fresh
process, in the order the command runs them (the second finds the decoded facts the first made), and prints
the median of ``--repeat`` runs. The whole command with and without the range is measured by
``core_ab.py --commands 'timing --json,timing --json --memory-level l2'``. Run by hand, never in tests:

    .venv/bin/python benchmarks/timing_range.py [--file F.s] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def measure(path: Path) -> dict[str, float]:
    import isalens
    from isalens.engine.timing import kernel_profile

    module = isalens.load(path)
    kernel = max(module.kernels, key=lambda k: len(k.instructions))
    _ = kernel.cfg  # built before timing by every command; not part of either simulation
    t0 = time.process_time()
    low = kernel_profile(kernel, memory_level="l2")
    t1 = time.process_time()
    kernel_profile(kernel, memory_level="dram")
    t2 = time.process_time()
    return {"instructions": len(kernel.instructions), "vector_loads": low.has_vector_loads,
            "first_cpu_s": t1 - t0, "second_cpu_s": t2 - t1}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, help="an ISA file (default: the dense 100k kernel)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    if args.file is None:
        from dense_kernel import build_all
        path = build_all()["100k"]
    else:
        path = args.file
    runs = [json.loads(subprocess.run([sys.executable, __file__, "--measure", str(path)], capture_output=True,
                                      text=True, check=True).stdout) for _ in range(args.repeat)]
    first = statistics.median(r["first_cpu_s"] for r in runs)
    second = statistics.median(r["second_cpu_s"] for r in runs)
    print(json.dumps({"file": str(path), "runs": runs, "median_first_cpu_s": round(first, 3),
                      "median_second_cpu_s": round(second, 3),
                      "simulation_ratio": round((first + second) / first, 2)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
