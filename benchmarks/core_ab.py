"""Benchmark: the compiled core against the pure-Python one (and an older tree), beside RGA's ``shae``.

Runs each command as a fresh process, alternating the variants run by run (so a change in the machine's load
hits every variant alike), and reports the median wall and CPU time (user + system) and the peak RSS of each:

* ``compiled``: this checkout as it is (the compiled core when built);
* ``pure``: this checkout with ``ISALENS_PURE_PYTHON=1`` (the reference core);
* ``before``: another source tree (``--before DIR/src``, e.g. ``git archive`` of an older commit), if given;
* ``shae (peer)``: RGA's live-register engine on the same file when ``ISALENS_PEER_SHAE`` names the binary,
  run as RGA runs it (see docs/performance.md).

The input is a dense kernel of ``dense_kernel.py`` (``--size 10k|100k|1m``) or any ISA file (``--file``).
Run by hand, never in tests, e.g.

    ISALENS_PEER_SHAE=/tmp/peer/shae .venv/bin/python benchmarks/core_ab.py --size 100k --repeat 5 \\
        --commands 'livereg --json,analyze --json'
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from commands import package_root, run_once
from dense_kernel import ROOT, build_all


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="100k", help="dense kernel size: 10k, 100k or 1m (default 100k)")
    parser.add_argument("--file", type=Path, help="an ISA file instead of the dense kernel")
    parser.add_argument("--repeat", type=int, default=5, help="alternating runs of each variant (default 5)")
    parser.add_argument("--commands", default="livereg --json,analyze --json",
                        help="comma-separated isalens command lines before the input path")
    parser.add_argument("--before", type=Path, help="a source tree (its root or its src/) to run as 'before'")
    parser.add_argument("--no-pure", action="store_true", help="skip the ISALENS_PURE_PYTHON=1 variant")
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--warm-up", action="store_true",
                        help="one untimed run of each variant first (fills the decoded-text cache, "
                             "isa/amdgcn/decode_cache.py, so every timed run reads it)")
    args = parser.parse_args()
    path = args.file or build_all()[args.size]
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ISALENS_PURE_PYTHON")}
    here = dict(base, PYTHONPATH=str(ROOT / "src"))
    variants: list[tuple[str, dict[str, str]]] = [("compiled", here)]
    if not args.no_pure:
        variants.append(("pure", dict(here, ISALENS_PURE_PYTHON="1")))
    if args.before:
        variants.append(("before", dict(base, PYTHONPATH=str(package_root(args.before)))))
    runs: list[tuple[str, list[str], dict[str, str]]] = []
    shae = os.environ.get("ISALENS_PEER_SHAE")
    out = Path("/tmp") / f"core_ab_shae_{os.getpid()}.txt"
    if shae:
        runs.append(("shae (peer)", [shae, "--isa", "gfx9", "analyse-liveness", "--arch-info", "--wave-size", "64",
                                     str(path), str(out)], base))
    for command in args.commands.split(","):
        for name, env in variants:
            runs.append((f"{command} [{name}]", [sys.executable, "-m", "isalens", *command.split(), str(path)], env))
    samples: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _, _ in runs}
    if args.warm_up:
        for name, argv, env in runs:
            if _run(argv, env, args.timeout)[3] != 0:
                print(f"{name}: warm-up failed", file=sys.stderr)
                return 1
    for k in range(args.repeat):
        for name, argv, env in runs:
            wall, cpu, rss, code = _run(argv, env, args.timeout)
            if code != 0:
                print(f"{name}: exit {code}", file=sys.stderr)
                return 1
            samples[name].append((wall, cpu, rss))
            print(f"  run {k + 1} {name:<36} {wall:7.3f} s {cpu:7.3f} s CPU {rss:6.0f} MB", file=sys.stderr)
    out.unlink(missing_ok=True)
    ref = samples.get("shae (peer)")
    ref_cpu = statistics.median(s[1] for s in ref) if ref else None
    ref_wall = statistics.median(s[0] for s in ref) if ref else None
    print(f"{path.name}, median of {args.repeat} alternating runs")
    print("| command | wall | CPU | peak RSS | / shae (wall, CPU) |")
    print("|---|---:|---:|---:|---:|")
    for name, rows in samples.items():
        wall = statistics.median(s[0] for s in rows)
        cpu = statistics.median(s[1] for s in rows)
        rss = max(s[2] for s in rows)
        ratio = f"{wall / ref_wall:.2f}x, {cpu / ref_cpu:.2f}x" if ref_cpu and ref_wall else ""
        print(f"| `{name}` | {wall:.2f} s | {cpu:.2f} s | {rss:.0f} MB | {ratio} |")
    return 0


def _run(argv: list[str], env: dict[str, str], timeout: float) -> tuple[float, float, float, int]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        return run_once(argv, timeout)
    finally:
        os.environ.clear()
        os.environ.update(saved)


if __name__ == "__main__":
    sys.exit(main())
