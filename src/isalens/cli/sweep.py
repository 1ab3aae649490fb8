"""The ``isalens sweep`` command: compile a source for every combination of defines and targets, analyse
each, and print one comparison table with the best variant per target marked.

Exit codes as in :mod:`isalens.cli`: 0 success (failed compiles are rows with their error, counted on stderr), 2 bad
input or usage, an unknown target, or every variant failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from isalens.cli.common import EXIT_INPUT, EXIT_OK, PLOT_ENDINGS, check_output_files
from isalens.errors import IsalensError

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``sweep`` subcommand to ``subparsers`` (the object ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "sweep", help="compile every combination of -D values and targets, compare registers, waves, size, LDS",
        description="Compile SOURCE with the real front end (clang or RADV) for every combination of the -D value "
                    "lists and --arch targets, in parallel, analyse each compile as `isalens analyze` does, and "
                    "print one table with the best variant per target marked: the most useful work per instruction "
                    "per SIMD (waves per SIMD x the useful share of the items its LDS tile loads, by the model of "
                    "`isalens tile`, / instructions; then fewest VGPRs, then fewest instructions). Failed compiles "
                    "are rows with their error; exit code 2 when every variant failed.",
    )
    p.add_argument("source", help="source file (.cl .hip .ll .comp .frag .vert .hlsl ...)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=v1,v2",
                   help="a define and its values (repeat for more defines)")
    p.add_argument("--arch", required=True, help="comma-separated targets, e.g. gfx902,gfx1030")
    p.add_argument("--jobs", type=int, help="parallel compiles (default: the number of cores)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON: `files` [{defines, arch, kernels}]")
    out.add_argument("--csv", action="store_true", help="print CSV")
    p.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                   help="overlay the variants' pressure curves (as `isalens compare --plot`; needs matplotlib)")


def run(args: argparse.Namespace) -> int:
    """Run ``isalens sweep`` for parsed ``args``; returns the exit code."""
    from isalens.engine.sweep import parse_sweep_defines, sweep
    from isalens.report.plot import PlotUnavailable, plot_pressure
    from isalens.report.serialize import dumps
    from isalens.report.sweep import render_sweep_csv, render_sweep_text, sweep_dict

    if args.jobs is not None and args.jobs < 1:
        raise IsalensError("--jobs must be at least 1")
    check_output_files((args.plot, PLOT_ENDINGS))
    archs = [a.strip() for a in args.arch.split(",") if a.strip()]
    rows = sweep(args.source, parse_sweep_defines(args.defines), archs, jobs=args.jobs)
    if args.plot is not None:
        series = [(" ".join(f"{k}={v}" for k, v in r.defines.items()) + f" {r.arch} {r.kernel}", r.pressure)
                  for r in rows if not r.error]
        try:
            plot_pressure(series, args.plot, title="live VGPRs per instruction", normalise=True)
        except (PlotUnavailable, ValueError, OSError) as exc:
            raise IsalensError(str(exc), file=str(args.plot), code="plot") from None
        sys.stderr.write(f"isalens: wrote {args.plot}\n")
    if args.json:
        sys.stdout.write(dumps(sweep_dict(rows, args.source), indent=1))
    elif args.csv:
        sys.stdout.write(render_sweep_csv(rows))
    else:
        sys.stdout.write(render_sweep_text(rows))
    failed = sum(1 for r in rows if r.error)
    if failed:  # a failed variant is a row of the table; the exit code says whether anything was compared
        sys.stderr.write(f"isalens: {args.source}: {failed} of {len(rows)} variant(s) failed (their rows say why)\n")
    return EXIT_INPUT if failed == len(rows) else EXIT_OK
