"""Benchmark: ``analysis/lifetimes.py`` in-process on a dense kernel (``dense_kernel.py``, 100k by default).

Times, after parse + CFG + liveness (not timed): ``live_ranges`` over the whole kernel, and the queries a
report makes at the pressure peak: ``definitions_reaching`` and ``next_uses`` for every register live at
the first VGPR and SGPR peak (252 + 20 registers on the dense kernel). Best of ``--repeat`` in one process.
To compare two versions of the code in one run, point ``PYTHONPATH`` at the other checkout's ``src``:

    nice -n 10 .venv/bin/python benchmarks/lifetimes.py [--size 100k] [--repeat 5]
    PYTHONPATH=/tmp/base/src nice -n 10 .venv/bin/python benchmarks/lifetimes.py
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dense_kernel import build_all


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="100k", choices=["10k", "100k", "1m"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    path = build_all()[args.size]

    import isalens
    from isalens.analysis import lifetimes
    from isalens.analysis.cfg import cfg
    from isalens.analysis.liveness import liveness
    from isalens.analysis.pressure import pressure
    from isalens.ir.registers import Reg, RegFile, registers_in

    kernel = max(isalens.load(path).ir.kernels, key=lambda k: len(k.instructions))
    graph = cfg(kernel)
    live = liveness(kernel, graph)
    press = pressure(kernel, graph, live)
    # what the livereg/analyze report asks at the first VGPR and SGPR peak (report/model.py _peak_values)
    queries: list[tuple[int, Reg]] = []
    for file, fp in ((RegFile.VGPR, press.vgpr), (RegFile.SGPR, press.sgpr)):
        at = fp.peak_indices[0]
        mask = live.live_in[at] | live.live_out[at]
        queries += [(at, Reg(file, i)) for i in registers_in(mask, file)]

    ranges_s: list[float] = []
    queries_s: list[float] = []
    found = 0
    ranges: tuple[lifetimes.LiveRange, ...] = ()
    for _ in range(args.repeat):
        getattr(lifetimes, "_SUMMARIES", {}).clear()  # no answers kept from the previous round
        t0 = time.perf_counter()
        ranges = lifetimes.live_ranges(kernel, graph, live)
        t1 = time.perf_counter()
        for at, reg in queries:
            found += len(lifetimes.definitions_reaching(kernel, graph, at + 1, reg))
            found += len(lifetimes.next_uses(kernel, graph, at, reg))
        t2 = time.perf_counter()
        ranges_s.append(t1 - t0)
        queries_s.append(t2 - t1)
    print(json.dumps({"file": path.name, "instructions": len(kernel.instructions), "blocks": len(graph.blocks),
                      "ranges": len(ranges), "queries": len(queries), "answers": found // args.repeat,
                      "live_ranges_best_s": round(min(ranges_s), 3), "peak_queries_best_s": round(min(queries_s), 3),
                      "live_ranges_runs_s": [round(x, 3) for x in ranges_s],
                      "peak_queries_runs_s": [round(x, 3) for x in queries_s]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
