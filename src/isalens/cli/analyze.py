"""``isalens analyze``: the one-stop report of every kernel of one or more files (files in parallel)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isalens.cli.common import (
    EXIT_INPUT,
    EXIT_OK,
    PLOT_ENDINGS,
    add_jobs_option,
    add_load_options,
    add_source_view_options,
    check_output_files,
    jobs_of,
    load_options,
    print_diagnostics,
    use_color,
    write_output,
)

if TYPE_CHECKING:
    from isalens.report.model import LiveRegReport


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyze", help="one-stop report: resources, occupancy, pressure peak, lifetimes, instruction mix",
        description="Analyse every kernel of one or more ISA files: registers requested/allocated/declared, "
                    "occupancy and its limiter, the pressure peak and what is live there, the longest live ranges, "
                    "wasted 16-bit halves, instructions by class and diagnostics. Several files are analysed on "
                    "every core; a file that fails is reported and the others still are (exit code 2).",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="ISA text or source files (see `isalens livereg --help`)")
    add_load_options(p)
    p.add_argument("--json", action="store_true", help="print JSON: {schema, files: [{file, kernels}]}")
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people (default: compact)")
    add_jobs_option(p)
    p.add_argument("--csv", type=Path, metavar="OUT.csv", help="write per-line live counts as CSV")
    p.add_argument("--html", type=Path, metavar="OUT.html",
                   help="write a self-contained interactive report (chart, listing, register highlighting)")
    p.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                   help="draw live VGPRs per instruction with occupancy thresholds (needs matplotlib)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the text view")
    add_source_view_options(p)


def run(args: argparse.Namespace) -> int:
    from isalens.engine import analyze, source_of
    from isalens.errors import IsalensError

    jobs = jobs_of(args)
    if args.files.count("-") > 1:
        raise IsalensError("standard input ('-') can be read once")
    if args.html is not None and len(args.files) > 1:  # said before the work, not after every file's report
        raise IsalensError("--html writes one file's report; use `isalens compare` for several files")
    check_output_files((args.html, ()), (args.csv, ()), (args.plot, PLOT_ENDINGS))
    sources = [source_of(f) for f in args.files]
    # the text view shows no listing: leave the rows out (JSON, CSV, plots and HTML show them)
    listing = bool(args.json or args.csv or args.plot or args.html or args.source)
    result = analyze(sources, load_options(args), jobs=jobs, listing=listing)
    reports = [f.report for f in result.files if f.report is not None]
    if (args.html or args.csv or args.plot) and any(f.vliw is not None for f in result.files):
        raise IsalensError("VLIW (R600-Cayman) files have no --html/--csv/--plot view; see `isalens vliw --help`")
    if args.json:
        from isalens.report.serialize import write
        write(result.to_dict(stream=True), sys.stdout, pretty=args.pretty)
        for f in result.files:
            if f.report is not None:
                print_diagnostics(f.report.diagnostics, verbose=args.verbose)
    else:
        from isalens.ir.registers import RegFile
        from isalens.report.advice import render_advice_text
        from isalens.report.stats import render_stats_text
        from isalens.report.text import render_text
        from isalens.report.timing import render_timing_text
        from isalens.report.vliw import render_vliw_text
        color = use_color(args.color)
        for f in result.files:
            if len(result.files) > 1:
                sys.stdout.write(f"== {f.source}\n")
            if f.report is not None:
                sys.stdout.write(render_text(f.report, RegFile.VGPR, color=color, listing=args.source,
                                             source=args.source, by_source=args.by_source, verbose=args.verbose))
                for k in f.report.kernels:
                    if k.stats is not None:
                        sys.stdout.write("\n" + render_stats_text(k.stats))
                    if k.timing is not None:
                        sys.stdout.write("\n" + render_timing_text(k.timing, name=k.name, sources=k.loop_sources))
                    elif k.timing_note:
                        sys.stdout.write(f"\ntiming: {k.timing_note}\n")
                    if k.advice is not None:
                        sys.stdout.write("\n" + render_advice_text(k.advice))
            elif f.vliw is not None:
                sys.stdout.write(render_vliw_text(f.vliw))
    for f in result.failed:
        sys.stderr.write(f"isalens: {f.error}\n")
    if args.html is not None and reports:
        from isalens.report.html import write_html
        report = reports[0]
        write_output(args.html, lambda out: write_html(report, out))
    if args.csv is not None and reports:
        from isalens.report.csv import render_csv
        write_output(args.csv, "".join(render_csv(r) if i == 0 else render_csv(r).split("\n", 1)[1]
                                       for i, r in enumerate(reports)))
    if args.plot is not None and reports:
        _plot(reports, args.plot)
    from isalens.errors import Severity
    vliw_errors = any(d.severity is Severity.ERROR for f in result.files if f.vliw is not None
                      for d in f.vliw.diagnostics)
    return EXIT_INPUT if result.failed or vliw_errors else EXIT_OK


def _plot(reports: list[LiveRegReport], out: Path) -> None:
    from isalens.errors import IsalensError
    from isalens.report.plot import PlotUnavailable, plot_pressure

    kernels = [k for r in reports for k in r.kernels]
    series = [(k.name if len(reports) == 1 else f"{Path(r.file or '').name}:{k.name}",
               tuple(row.live_vgpr for row in k.lines)) for r in reports for k in r.kernels]
    first = kernels[0]
    top = max((max(s[1], default=0) for s in series), default=0)
    thresholds: list[tuple[int, str]] = []
    for v, w in first.registers.vgpr_thresholds:
        # label only steps far enough apart to read, within the plotted range
        if v <= top + 16 and (not thresholds or v - thresholds[-1][0] >= max(top, 1) / 12):
            thresholds.append((v, f"{w:g} waves <= {v} VGPRs"))
    try:
        plot_pressure(series, out, title=f"live VGPRs per instruction ({first.arch})", thresholds=thresholds)
    except (PlotUnavailable, ValueError, OSError) as exc:
        raise IsalensError(str(exc), file=str(out), code="plot") from None
    sys.stderr.write(f"isalens: wrote {out}\n")
