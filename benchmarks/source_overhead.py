"""Benchmark: what reading debug information costs (issue 27: at most 15% on the 100k dense kernel).

The dense kernel of ``dense_kernel.py`` is compiled by clang-19 with ``-gline-tables-only`` (what isalens's own
front ends add: ``.file``/``.loc`` directives) or ``-g`` (also ``;DEBUG_VALUE:`` comments), replicated to 100k
instructions, and ``isalens analyze --json --source`` is timed on it and on the same text with every ``.loc`` and
``DEBUG_VALUE`` line made a blank line: the same code and the same input line numbers, so the difference is
only the reading of lines and variables and the source tables.

    .venv/bin/python benchmarks/source_overhead.py [--size 100k] [--repeat 5] [--debug lines|full]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import dense_kernel  # the benchmarks folder is not a package


def build(size: int, debug: str) -> tuple[Path, Path]:
    from isalens.frontends.clang import compile_opencl

    cache = dense_kernel.CACHE
    cache.mkdir(parents=True, exist_ok=True)
    flag = {"lines": "-gline-tables-only", "full": "-g"}[debug]
    source = cache / "dense_g.cl"
    asm = cache / f"dense_g.{debug}.{dense_kernel.TARGET}.s"
    if not asm.exists():
        source.write_text(dense_kernel.kernel_source(216, 8))
        compile_opencl(source, dense_kernel.TARGET, out_asm=asm, extra_flags=[flag])
    # -g adds labels of its own (.Ltmp*, .Lfunc_begin0) inside the body: renamed per copy like the block labels
    text, count = dense_kernel.replicate(asm.read_text(), size)
    text = _unique_debug_labels(text)
    with_debug = cache / f"dense_g.{debug}.{size}.s"
    without = cache / f"dense_g.{debug}.{size}.nodebug.s"
    with_debug.write_text(text)
    # blank lines keep every input line number, so both runs report the same lines
    without.write_text("\n".join("" if (".loc" in line or "DEBUG_VALUE" in line) else line
                                 for line in text.splitlines()) + "\n")
    print(f"{with_debug.name}: {count} instructions", file=sys.stderr)
    return with_debug, without


def _unique_debug_labels(text: str) -> str:
    seen: dict[str, int] = {}
    out = []
    for line in text.splitlines():
        label = re.match(r"^(\.L(?:tmp|func_begin)\d+):", line)
        if label:
            seen[label.group(1)] = seen.get(label.group(1), 0) + 1
        out.append(re.sub(r"\.L(tmp|func_begin)(\d+)\b",
                          lambda m: f".L{m.group(1)}{m.group(2)}c{seen.get(m.group(0), 1)}", line))
    return "\n".join(out) + "\n"


def _run(path: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system of the child): on a loaded machine the CPU time is the
    steadier figure, since waiting for a core counts only in the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "isalens", "analyze", str(path), "--json", "--source"], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed(without: Path, with_debug: Path, repeat: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall, CPU) seconds of each, the runs alternating (a loaded machine's drift falls on both alike)."""
    a: list[tuple[float, float]] = []
    b: list[tuple[float, float]] = []
    for _ in range(repeat):
        a.append(_run(without))
        b.append(_run(with_debug))
    return ((statistics.median(x for x, _ in a), statistics.median(y for _, y in a)),
            (statistics.median(x for x, _ in b), statistics.median(y for _, y in b)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="100k", choices=("10k", "100k"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--debug", choices=("lines", "full"), default="lines")
    args = parser.parse_args()
    with_debug, without = build({"10k": 10_000, "100k": 100_000}[args.size], args.debug)
    (wall_a, cpu_a), (wall_b, cpu_b) = timed(without, with_debug, args.repeat)
    load = os.getloadavg()
    mb = with_debug.stat().st_size / 1e6, without.stat().st_size / 1e6
    print(f"analyze --json --source, {args.size}, {args.debug} ({mb[1]:.0f} MB of text without debug "
          f"information, {mb[0]:.0f} MB with); median of {args.repeat} alternating runs; load average at the end "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores\n"
          f"  wall: without {wall_a:.2f} s, with {wall_b:.2f} s, +{100 * (wall_b - wall_a) / wall_a:.1f}%\n"
          f"  CPU:  without {cpu_a:.2f} s, with {cpu_b:.2f} s, +{100 * (cpu_b - cpu_a) / cpu_a:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
