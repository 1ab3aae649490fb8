"""Benchmark: every isalens command end to end as a process, beside RGA's ``shae`` and ``llvm-mc-19``.

On the dense kernels of ``dense_kernel.py`` (real clang-19 output for gfx902, 252 VGPRs live at the peak,
thousands of blocks, nested loops; about 10k, 100k and 1M instructions) it times, in one run:

* ``isalens livereg`` (text, ``--json``, ``--rga``, ``--summary``), ``analyze`` (text, ``--json``,
  ``--html``), ``compare`` (the kernel against itself), and ``timing`` when ``isalens timing --help`` works;
* ``isalens --help`` and ``--version`` (start-up);
* ``isalens analyze a.s b.s c.s d.s`` against four separate ``analyze`` calls (four distinct files);
* the peer: RGA's ``shae`` live-register analysis (``shae --isa gfx9 analyse-liveness --arch-info
  --wave-size 64 IN OUT``, the command line RGA itself builds) when ``ISALENS_PEER_SHAE`` names the binary;
* the floor: ``llvm-mc-19`` assembling the same file to an object.

Each figure is the best wall time of ``--repeat`` runs (a fresh process each time), with the CPU time (user
+ system) and peak resident memory of that run (``wait4``); ratios are to shae and to llvm-mc of the same
size, for wall and for CPU time (CPU time is the steadier figure when other work shares the machine). Output goes to
/dev/null or a temporary directory, so writing it is part of the time. Run by hand, e.g.

    ISALENS_PEER_SHAE=/tmp/peer/shae nice -n 10 .venv/bin/python benchmarks/commands.py --sizes 10k,100k,1m

``--isalens`` chooses the program (default: this checkout's ``.venv/bin/isalens``).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dense_kernel import ROOT, build_all


def package_root(tree: Path) -> Path:
    """The directory to put on PYTHONPATH to run the isalens of ``tree``: ``tree`` itself when it holds the
    package, else its ``src/``. Exits with a message when neither does: a wrong path would otherwise run the
    installed isalens as "before" and compare a tree with itself (it did, in the eighteenth session)."""
    for candidate in (tree, tree / "src"):
        if (candidate / "isalens" / "__init__.py").is_file():
            return candidate
    raise SystemExit(f"{tree}: no isalens package in it or in its src/")


@dataclass
class Result:
    size: str
    name: str
    wall_s: float | None  # None: failed or timed out
    rss_mb: float | None
    cpu_s: float | None  # user + system CPU seconds of the best run: steadier than wall time on a busy machine
    runs: int
    note: str = ""


def run_once(argv: Sequence[str], timeout: float) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit status) of one run of ``argv``, output discarded."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = t0 + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            return timeout, 0.0, 0.0, -9
        time.sleep(0.002)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


ONLY: set[str] | None = None


def measure(size: str, name: str, argv: Sequence[str], repeat: int, timeout: float) -> Result:
    if ONLY is not None and name not in ONLY:
        return Result(size, name, None, None, None, 0, "not run")
    best: tuple[float, float, float] | None = None
    for _ in range(repeat):
        wall, cpu, rss, code = run_once(argv, timeout)
        if code != 0:
            note = f"> {timeout:.0f} s" if code == -9 else f"exit {code}"
            print(f"  {size:>5} {name:<28} {note}: {shlex.join(argv)}", file=sys.stderr)
            return Result(size, name, None, None, None, 0, note)
        if best is None or wall < best[0]:
            best = (wall, cpu, rss)
    assert best is not None
    print(f"  {size:>5} {name:<28} {best[0]:8.3f} s {best[1]:8.3f} s CPU {best[2]:8.0f} MB", file=sys.stderr)
    return Result(size, name, best[0], best[2], best[1], repeat)


def works(argv: Sequence[str]) -> bool:
    return subprocess.run(argv, capture_output=True, check=False).returncode == 0


def distinct_copies(src: Path, out_dir: Path, n: int) -> list[Path]:
    """``n`` files with the same kernel but different label names, so no run can reuse another's input."""
    text = src.read_text()
    paths = []
    for k in range(n):
        path = out_dir / f"{src.stem}.{'abcd'[k % 4]}{k}.s"
        path.write_text(text.replace(".LBB0_", f".LBB0_{k}y"))
        paths.append(path)
    return paths


def commands(isalens: list[str], path: Path, tmp: Path) -> list[tuple[str, list[str]]]:
    cmds = [
        ("livereg", [*isalens, "livereg", str(path)]),
        ("livereg --json", [*isalens, "livereg", "--json", str(path)]),
        ("livereg --rga", [*isalens, "livereg", "--rga", str(path)]),
        ("livereg --summary", [*isalens, "livereg", "--summary", str(path)]),
        ("analyze", [*isalens, "analyze", str(path)]),
        ("analyze --json", [*isalens, "analyze", "--json", str(path)]),
        ("analyze --html", [*isalens, "analyze", "--html", str(tmp / "out.html"), str(path)]),
        ("compare (itself)", [*isalens, "compare", str(path), str(path)]),
    ]
    if works([*isalens, "timing", "--help"]):
        cmds.append(("timing", [*isalens, "timing", str(path)]))
    return cmds


def table(results: list[Result], sizes: list[str]) -> str:
    """Markdown: one row per command, per size wall time, RSS and the ratios to shae and llvm-mc."""
    by = {(r.size, r.name): r for r in results}
    names = list(dict.fromkeys(r.name for r in results if r.size in sizes))
    head = ["command"]
    for s in sizes:
        head += [f"{s} wall", f"{s} CPU", f"{s} RSS", f"{s} / shae (wall, CPU)", f"{s} / llvm-mc (wall, CPU)"]
    lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for name in names:
        row = [f"`{name}`"]
        for s in sizes:
            r = by.get((s, name))
            shae = by.get((s, "shae (peer)"))
            mc = by.get((s, "llvm-mc-19 (floor)"))
            if r is None or r.wall_s is None:
                row += [r.note if r else "", "", "", "", ""]
                continue
            row += [f"{r.wall_s:.2f} s", f"{r.cpu_s:.2f} s", f"{r.rss_mb:.0f} MB"]
            for ref in (shae, mc):
                ok = ref is not None and ref.wall_s and ref.cpu_s
                row.append(f"{r.wall_s / ref.wall_s:.1f}x, {r.cpu_s / ref.cpu_s:.1f}x" if ok else "")  # type: ignore[operator,union-attr]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10k,100k", help="comma-separated: 10k, 100k, 1m (default 10k,100k)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command; the best counts (1m: once)")
    parser.add_argument("--multi-size", default="10k", help="kernel size for the four-file analyze test")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds before a run is abandoned")
    parser.add_argument("--isalens", default=str(ROOT / ".venv" / "bin" / "isalens"),
                        help="the isalens command line (split like a shell would)")
    parser.add_argument("--only", help="comma-separated row names to run (e.g. 'shae (peer),livereg --summary')")
    parser.add_argument("--no-multi", action="store_true", help="skip the four-file analyze test")
    parser.add_argument("--json", type=Path, help="also write every result here")
    args = parser.parse_args()
    global ONLY
    ONLY = {n.strip() for n in args.only.split(",")} if args.only else None
    isalens = shlex.split(args.isalens)
    sizes = [s.strip().lower() for s in args.sizes.split(",") if s.strip()]
    # the state scripts/setup.sh leaves: isalens's modules with bytecode (the default with a non-editable
    # install, and written on first use unless PYTHONDONTWRITEBYTECODE is set)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", str(ROOT / "src" / "isalens")],
                   stdout=subprocess.DEVNULL, check=True)
    kernels = build_all()
    shae = os.environ.get("ISALENS_PEER_SHAE")
    mc = shutil.which("llvm-mc-19")
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="isalens-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for argv, name in (([*isalens, "--help"], "--help"), ([*isalens, "--version"], "--version")):
            results.append(measure("start", name, argv, max(args.repeat, 5), args.timeout))
        for size in sizes:
            path = kernels[size]
            repeat = 1 if size == "1m" else args.repeat
            if shae:
                argv = [shae, "--isa", "gfx9", "analyse-liveness", "--arch-info", "--wave-size", "64", str(path),
                        str(tmp / "shae.txt")]
                results.append(measure(size, "shae (peer)", argv, repeat, args.timeout))
            if mc:
                argv = [mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx902", "-filetype=obj", "-o", os.devnull, str(path)]
                results.append(measure(size, "llvm-mc-19 (floor)", argv, repeat, args.timeout))
            for name, argv in commands(isalens, path, tmp):
                results.append(measure(size, name, argv, repeat, args.timeout))
        files = distinct_copies(kernels[args.multi_size], tmp, 4)
        multi = Result(args.multi_size, "analyze a b c d (one call)", None, None, None, 0, "not run")
        if not args.no_multi:
            multi = measure(args.multi_size, multi.name, [*isalens, "analyze", *map(str, files)], args.repeat,
                            args.timeout)
        separate: list[float] = []
        for _ in range(args.repeat if multi.wall_s is not None else 0):
            t0 = time.perf_counter()
            for f in files:
                subprocess.run([*isalens, "analyze", str(f)], stdout=subprocess.DEVNULL, check=True)
            separate.append(time.perf_counter() - t0)
    print(table(results, ["start"]))
    print()
    print(table(results, sizes))
    print()
    if multi.wall_s is not None and separate:
        print(f"`analyze` of 4 {args.multi_size} files: one call {multi.wall_s:.2f} s, four calls {min(separate):.2f} s"
              f" -> ratio {multi.wall_s / min(separate):.2f} (best of {args.repeat})")
    if args.json:
        args.json.write_text(json.dumps({"results": [r.__dict__ for r in results],
                                         "multi": {"one_call_s": multi.wall_s,
                                                   "four_calls_s": min(separate, default=None)},
                                         "kernels": {k: str(v) for k, v in kernels.items()}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
