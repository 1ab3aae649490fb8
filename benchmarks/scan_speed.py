"""Benchmark: ``isalens scan`` throughput (kernels/s) with 1 and 2 worker processes, and whether a scan
resumes. Run by hand (never in tests):

    .venv/bin/python benchmarks/scan_speed.py [--library PATH] [--target gfx1030] [--kernels 2000]
    .venv/bin/python benchmarks/scan_speed.py --full [--library PATH]    # every target of the library
    .venv/bin/python benchmarks/scan_speed.py --compare A.parquet B.parquet  # are two scans' tables equal?
    .venv/bin/python benchmarks/scan_speed.py --list                  # `isalens list` of the library: time, RSS
    .venv/bin/python benchmarks/scan_speed.py --largest --kernels 400 # one code object alone (<= 400 kernels)
    .venv/bin/python benchmarks/scan_speed.py --in-process DIR        # CPU of the units alone, as a worker runs them

The library defaults to Debian's librocsparse0 unpacked under .cache/debs (tests/oracle/debian.py puts it
there). Without ``--full`` the first code objects of ``--target`` (at least ``--kernels`` kernels) are copied
into a directory of ``.co`` files and scanned from there, so both runs do the same work. Wall time, the CPU
time of the scan's processes (the machine may be shared) and kernels/s are printed as a Markdown row.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("ISALENS_MAX_INPUT_SIZE", "4G")  # librocsparse.so.0.1 is 1.3 GB, over the 1 GiB default cap


def _library() -> Path:
    found = sorted(p for p in (ROOT / ".cache" / "debs" / "x" / "librocsparse0").rglob("librocsparse.so.0*")
                   if p.is_file() and not p.is_symlink())
    if not found:
        raise SystemExit("librocsparse0 is not unpacked: run tests/oracle/test_debian_libraries.py or pass --library")
    return found[0]


def extract(library: Path, target: str, kernels: int, into: Path) -> tuple[int, int]:
    """Copy code objects of ``target`` until they hold ``kernels`` kernels; returns (code objects, kernels)."""
    from isalens.binary.codeobject import read_code_object
    from isalens.binary.container import find_code_objects
    from isalens.engine.binary import mapped

    count = total = 0
    with mapped(library) as data:
        for ref in find_code_objects(data, file=str(library)):
            if ref.triple is None or not ref.triple.endswith("--" + target):
                continue
            total += len(read_code_object(ref.data, file=str(library), source=ref.source).kernels)
            (into / f"{count:04d}.co").write_bytes(ref.data)
            count += 1
            if total >= kernels:
                break
    return count, total


def largest(library: Path, target: str, into: Path, cap: int) -> int:
    """Copy the ``target`` code object with the most kernels, at most ``cap``, to ``into``; returns its kernel
    count."""
    from isalens.binary.codeobject import read_code_object
    from isalens.binary.container import find_code_objects
    from isalens.engine.binary import mapped

    best, data = 0, b""
    with mapped(library) as view:
        for ref in find_code_objects(view, file=str(library)):
            if ref.triple is None or not ref.triple.endswith("--" + target):
                continue
            count = len(read_code_object(ref.data, file=str(library), source=ref.source).kernels)
            if best < count <= cap:
                best, data = count, ref.data
    into.write_bytes(data)
    return best


def timed(argv: list[str]) -> tuple[float, float, int, int]:
    """Wall seconds, CPU seconds, peak RSS (MB) and exit status of one process (``wait4``)."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(argv, stdout=null, stderr=null)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, os.waitstatus_to_exitcode(status)


def run_scan(paths: list[str], out: Path, workers: int) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the scan's processes, and its summary line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "isalens", "scan", *paths, "--out", str(out), "--workers",
                           str(workers), "--no-progress"], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stderr.strip().splitlines()[-1]


def in_process(paths: list[str]) -> None:
    """CPU seconds of ``scan.work.run_unit`` over the units of ``paths`` in this process, as a pool worker runs
    them (collector paused, the first unit's imports and tables loaded first): the analysis alone, without the
    scan's start-up, the pool and the table writing, and less disturbed by other processes than wall time."""
    import gc

    from isalens.scan import work
    from isalens.scan.split import split_code_object
    from isalens.scan.units import iter_units

    gc.disable()
    units = [part for unit in iter_units(paths) for part in
             (split_code_object(unit, target=None, kernel=None).units if unit.kind == "code-object" else (unit,))]
    if units:
        work.preload(units[0])
    start = time.process_time()
    rows = sum(len(work.run_unit(unit, work.ScanOptions())) for unit in units)
    cpu = time.process_time() - start
    print(f"| in-process | {len(units)} units | {rows} rows | {cpu:.2f} s CPU | {rows / cpu:.1f} kernels per "
          f"CPU-second | load {os.getloadavg()[0]:.1f} |")


def compare(a: Path, b: Path) -> int:
    """Rows of two scan results that differ (every column but the isalens version, in any row order)."""
    import duckdb

    def source(p: Path) -> str:
        return f"read_parquet('{p}.parts/*.parquet')" if Path(f"{p}.parts").is_dir() else f"read_parquet('{p}')"

    con = duckdb.connect()
    cols_a = [c for c in con.sql(f"select * from {source(a)} limit 0").columns if c != "isalens_version"]
    cols_b = [c for c in con.sql(f"select * from {source(b)} limit 0").columns if c != "isalens_version"]
    # a table of several targets has columns (instruction classes ...) that another's rows never fill:
    # a column only one table has must be NULL in every row of it
    for table, own, other in ((a, cols_a, cols_b), (b, cols_b, cols_a)):
        extra = sorted(set(own) - set(other))
        filled = [c for c in extra
                  if con.execute(f'select count("{c}") from {source(table)}').fetchall()[0][0]]
        if filled:
            print(f"columns only {table} fills: {filled}")
            return 1
    common = sorted(set(cols_a) & set(cols_b))
    cols = ", ".join(f'"{c}"' for c in common)
    counts = [con.execute(f"select count(*) from {source(p)}").fetchall()[0][0] for p in (a, b)]
    only_a, only_b = (con.execute(f"select count(*) from (select {cols} from {source(x)} except all "
                                  f"select {cols} from {source(y)})").fetchall()[0][0]
                      for x, y in ((a, b), (b, a)))
    print(f"{a}: {counts[0]} rows; {b}: {counts[1]} rows; {len(cols_a)} columns compared; "
          f"rows only in the first: {only_a}, only in the second: {only_b}")
    return 0 if only_a == only_b == 0 else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=Path)
    parser.add_argument("--target", default="gfx1030")
    parser.add_argument("--kernels", type=int, default=2000)
    parser.add_argument("--full", action="store_true", help="scan the whole library with 2 workers")
    parser.add_argument("--list", action="store_true", help="time `isalens list` (and --json) of the library")
    parser.add_argument("--largest", action="store_true", help="scan the target's largest code object alone")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"),
                        help="compare two scan results (Parquet, or a scan's .parts directory of shards)")
    parser.add_argument("--in-process", nargs="+", metavar="PATH",
                        help="CPU of run_unit over the units of PATH in this process (as a worker runs them)")
    args = parser.parse_args()
    if args.in_process:
        return in_process(args.in_process)
    if args.compare:
        raise SystemExit(compare(*args.compare))
    library = args.library or _library()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if args.list:
        for argv in (["list"], ["list", "--json"]):
            wall, cpu, rss, code = timed([sys.executable, "-m", "isalens", *argv, str(library)])
            print(f"| `isalens {' '.join(argv)}` | {wall:.1f} s | {cpu:.1f} s | {rss} MB | exit {code} | "
                  f"load {os.getloadavg()[0]:.1f} |")
        return
    with tempfile.TemporaryDirectory(prefix="isalens-scan-bench-") as tmp:
        work = Path(tmp)
        if args.largest:
            kernels = largest(library, args.target, work / "largest.co", args.kernels)
            print(f"the largest {args.target} code object of at most {args.kernels} kernels: {kernels} kernels")
            for workers in (1, 2):
                wall, cpu, line = run_scan([str(work / "largest.co")], work / f"l{workers}.parquet", workers)
                print(f"| {workers} worker(s) | {kernels} | {wall:.1f} s | {cpu:.1f} s | {kernels / wall:.1f} | "
                      f"{kernels / cpu:.1f} | load {os.getloadavg()[0]:.1f} |  ({line})")
            return
        if args.full:
            wall, cpu, line = run_scan([str(library)], work / "full.parquet", 2)
            print(f"| full library, 2 workers | {wall:.0f} s | {cpu:.0f} s | {line} |")
            return
        (work / "objects").mkdir()
        objects, kernels = extract(library, args.target, args.kernels, work / "objects")
        print(f"{objects} {args.target} code objects, {kernels} kernels")
        walls = {}
        for workers in (1, 2):
            wall, cpu, line = run_scan([str(work / "objects")], work / f"w{workers}.parquet", workers)
            walls[workers] = wall
            print(f"| {workers} worker(s) | {kernels} | {wall:.1f} s | {cpu:.1f} s | {kernels / wall:.1f} | "
                  f"{kernels / cpu:.1f} | load {os.getloadavg()[0]:.1f} |  ({line})")
        print(f"speed-up with 2 workers: {walls[1] / walls[2]:.2f}x")


if __name__ == "__main__":
    main()
