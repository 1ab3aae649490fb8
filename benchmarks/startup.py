"""Benchmark: start-up of a small kernel, ``isalens livereg <the 812-instruction example> --json`` (issue 32,
item 3: target <= 0.10 s wall), beside the bare interpreter's own start (the floor no change can go below).

Each variant runs ``--runs`` times (a fresh process each time, the variants alternating so that a change in the
machine's load hits them alike); printed: the median wall and CPU (user + system, ``wait4``) seconds of each, and
the load average before and after. Variants: the command as installed (``--isalens``; with ``--this-tree`` this
checkout's ``src`` first on ``PYTHONPATH``), the same through ``python -m isalens``, the command with the dataclass
method cache off (``ISALENS_CLASS_CACHE=0``, isalens.classcode) and with the TOML table cache off
(``ISALENS_TABLE_CACHE=0``, isalens.tomlcache), another source tree (``--before DIR/src``), RGA's ``shae`` on the
same file when ``ISALENS_PEER_SHAE`` names it, ``python -c pass`` and ``python -S -c pass``. One warm-up run of
each variant first fills the caches (decoded texts, class code, tables), as any earlier run on the machine does. On
a loaded machine read the CPU column (wall is the share of the CPU a run got). Run single-job, e.g.

    nice -n 5 .venv/bin/python benchmarks/startup.py --runs 11
    ISALENS_PEER_SHAE=/tmp/peer/shae .venv/bin/python benchmarks/startup.py --this-tree --before /tmp/old/src
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from commands import package_root

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s"


#: ``--clock``: the command run through ``cli.main`` in ``python -c``, which writes the process's own CPU clock
#: (``time.process_time``, interpreter start included) at the end to the file named by its first argument
_CLOCKED = ("import sys, time; from isalens.cli import main; code = main(sys.argv[2:]); "
            "open(sys.argv[1], 'w').write(repr(time.process_time())); sys.exit(code)")


def run_once(argv: Sequence[str], env: dict[str, str], clock_file: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``argv``, output discarded; CPU from ``wait4``, or read from
    ``clock_file`` when the run writes its own clock there (``_CLOCKED``)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[0]} failed (status {status})")
    if clock_file:
        return wall, float(Path(clock_file).read_text())
    return wall, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--isalens", default=str(Path(sys.executable).parent / "isalens"),
                        help="the program (default: isalens beside this Python)")
    parser.add_argument("--this-tree", action="store_true",
                        help="run --isalens with this checkout's src first on PYTHONPATH (its package is imported)")
    parser.add_argument("--before", type=Path, help="a source tree (its root or its src/) to run as 'before'")
    parser.add_argument("--clock", action="store_true",
                        help="also the command's own CPU clock (ns resolution; wait4's CPU moves in scheduler "
                             "ticks, coarse against a few ms under load), for this tree and --before")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    tail = ["livereg", str(EXAMPLE), "--json"]
    before = str(package_root(args.before)) if args.before else ""
    # the installed entry point (what a user types), not `python -m isalens`: runpy and importlib.util, which
    # `-m` imports, are no part of the command (the `-m` row shows what they cost); with PYTHONPATH the entry point
    # imports that tree's package (PYTHONPATH precedes the editable install's path entry)
    command = [args.isalens, *tail]
    if args.this_tree:
        env = {**env, "PYTHONPATH": str(ROOT / "src")}
    variants = {
        "livereg --json": (command, env),
        "livereg --json, class cache off": (command, {**env, "ISALENS_CLASS_CACHE": "0"}),
        "livereg --json, table cache off": (command, {**env, "ISALENS_TABLE_CACHE": "0"}),
        "python -m isalens livereg --json": ([sys.executable, "-m", "isalens", *tail], env),
    }
    if args.before:
        variants["livereg --json, before"] = (command, {**env, "PYTHONPATH": before})
    clock_file = f"/tmp/startup_clock_{os.getpid()}.txt"
    clocked: dict[str, str] = {}
    if args.clock:
        for name, run_env in (("own clock", env), ("before, own clock", {**env, "PYTHONPATH": before})):
            if name.startswith("before") and not args.before:
                continue
            variants[f"livereg --json, {name}"] = ([sys.executable, "-c", _CLOCKED, clock_file, *tail], run_env)
            clocked[f"livereg --json, {name}"] = clock_file
    shae = os.environ.get("ISALENS_PEER_SHAE")
    if shae:
        out = f"/tmp/startup_shae_{os.getpid()}.txt"
        variants["shae (peer)"] = ([shae, "--isa", "gfx9", "analyse-liveness", "--arch-info", "--wave-size", "64",
                                    str(EXAMPLE), out], env)
    variants["python -c pass"] = ([sys.executable, "-c", "pass"], env)
    variants["python -S -c pass"] = ([sys.executable, "-S", "-c", "pass"], env)
    for name, (argv, run_env) in variants.items():  # warm-up: the caches a previous run leaves
        run_once(argv, run_env, clocked.get(name))
    load_before = os.getloadavg()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for _ in range(args.runs):
        for name, (argv, run_env) in variants.items():
            times[name].append(run_once(argv, run_env, clocked.get(name)))
    load_after = os.getloadavg()
    print(f"{EXAMPLE.name}, median of {args.runs} alternating runs; load average "
          f"{load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print("| command | wall | CPU |\n|---|---:|---:|")
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"| `{name}` | {wall:.3f} s | {cpu:.3f} s |")
    if shae:
        Path(out).unlink(missing_ok=True)
    Path(clock_file).unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
