"""The ``isalens scan`` command: every kernel x target of files, directories, code objects, fat binaries and
libraries into one table (Parquet or DuckDB), in parallel, resumable.

Exit codes: 0 done (error rows are data, not failure), 2 bad usage or an unreadable earlier result, 130
interrupted (what finished is kept; run the same command again to resume).
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any

from isalens.cli.common import EXIT_INPUT, EXIT_OK, add_disassembler_option, add_workgroup_option, workgroup_size
from isalens.errors import IsalensError

__all__ = ["register", "run"]

EXIT_INTERRUPTED = 130


def register(subparsers: Any) -> None:
    """Add the ``scan`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "scan", help="analyse every kernel of many files/binaries into a Parquet or DuckDB table",
        description="Walk files and directories (ISA text, .cl/.hip/.ll sources, code objects, .hipfb bundles, "
                    "executables and shared libraries) and write one row per kernel x target with every figure "
                    "of `analyze --json` plus file, target, kernel, content hash and isalens version. Units "
                    "(text files, code objects) already in the output with the same hash are skipped, so an "
                    "interrupted scan resumes; files that cannot be read become error rows.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    p.add_argument("--out", required=True, type=Path, metavar="RESULTS.parquet|RESULTS.duckdb",
                   help="the table to write (.parquet file, or .duckdb database with table 'kernels')")
    p.add_argument("--workers", type=int, metavar="N", help="processes (default: all cores; 1 = in this process)")
    p.add_argument("--engine", choices=("local", "dask"), default="local", help="where to run (default local)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://head:8786")
    p.add_argument("--target", help="only code objects for this processor, e.g. gfx1030")
    add_workgroup_option(p)
    p.add_argument("--kernel", help="only kernels whose name matches (a name or shell glob)")
    p.add_argument("--arch", help="target of ISA text and sources that do not name one")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]",
                   help="preprocessor define for sources")
    p.add_argument("--ignore-unknown", action="store_true", help="guess unknown instructions instead of failing")
    add_disassembler_option(p)
    p.add_argument("--rescan", action="store_true", help="analyse everything again, ignoring earlier rows")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None, help="always show progress")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    """Run ``isalens scan``; returns the exit code."""
    from isalens.scan.run import scan
    from isalens.scan.work import ScanOptions

    if args.out.suffix.lower() not in (".parquet", ".duckdb", ".db"):
        sys.stderr.write(f"isalens: {args.out}: error: --out must end in .parquet or .duckdb\n")
        return EXIT_INPUT
    if args.workers is not None and args.workers < 1:
        sys.stderr.write("isalens: error: --workers must be at least 1\n")
        return EXIT_INPUT
    options = ScanOptions(target=args.target, kernel=args.kernel, arch=args.arch,
                          ignore_unknown=args.ignore_unknown, defines=tuple(args.defines),
                          workgroup=workgroup_size(args.wg), disassembler=args.disassembler)
    engine = None
    if args.engine == "dask":
        from isalens.scan.dask_engine import dask_engine

        engine = dask_engine(args.scheduler, workers=args.workers)
    elif args.scheduler:
        raise IsalensError("--scheduler needs --engine dask")
    # a batch system's kill (SIGTERM) stops the scan like Ctrl-C: what finished is kept for the next run
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        summary = scan(args.paths, args.out, options=options, engine=engine, workers=args.workers,
                       progress=args.progress, rescan=args.rescan)
    finally:
        signal.signal(signal.SIGTERM, previous)
    rate = summary.kernels / summary.seconds if summary.seconds > 0 else 0.0
    if summary.interrupted:
        sys.stderr.write(f"isalens: interrupted after {summary.analysed} unit(s) analysed ({summary.skipped} "
                         f"unchanged skipped, {summary.kernels} kernel row(s)); finished ones are kept in "
                         f"{args.out.name}.parts: run the same command again to resume\n")
        return EXIT_INTERRUPTED
    sys.stderr.write(f"isalens: {summary.units} unit(s): {summary.analysed} analysed, {summary.skipped} unchanged; "
                     f"{summary.kernels} kernel row(s), {summary.errors} error row(s) in {summary.seconds:.1f} s "
                     f"({rate:.1f} kernels/s); {summary.rows_in_table} row(s) in {args.out}\n")
    return EXIT_OK
