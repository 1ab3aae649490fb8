"""``isalens compare``: builds side by side, kernels paired by name (one-kernel files pair whatever the names)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from isalens.cli.common import (
    EXIT_OK,
    PLOT_ENDINGS,
    add_jobs_option,
    add_load_options,
    check_output_files,
    jobs_of,
    load_options,
    write_output,
)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "compare", help="variants side by side: registers, occupancy, size, LDS forms, overlaid pressure",
        description="Compare builds side by side, kernels paired by name across the files (files of one kernel "
                    "each pair whatever the names; --kernel picks some; kernels in only some files are listed as "
                    "added/removed): VGPR/SGPR peak, requested and "
                    "allocated, occupancy, instruction count, code bytes, LDS reads/writes by form, packed fp16 "
                    "ops, conversions, literals; and overlaid pressure curves. The figures are those "
                    "`isalens analyze` prints.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="ISA text or source files, one variant each")
    p.add_argument("--labels", help="comma-separated names for the variants (default: file names)")
    add_jobs_option(p)
    add_load_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people (default: compact)")
    p.add_argument("--html", type=Path, metavar="OUT.html", help="write a self-contained page: table and chart")
    p.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                   help="overlay the pressure curves (absolute index); OUT-normalised.* aligns lengths")


def run(args: argparse.Namespace) -> int:
    from isalens.engine import compare_variants, read_stdin, source_of
    from isalens.errors import IsalensError
    from isalens.report.compare import Build, compare_dict, pair_kernels, render_compare_html, render_pairing_text

    labels = [x.strip() for x in args.labels.split(",")] if args.labels else [Path(f).name for f in args.files]
    if len(labels) != len(args.files):
        raise IsalensError(f"--labels names {len(labels)} variants for {len(args.files)} files")
    check_output_files((args.html, ()), (args.plot, PLOT_ENDINGS))
    jobs = jobs_of(args)
    stdin_text = read_stdin() if "-" in args.files else None
    # each build keeps its kernels' figures, not their listings; several files are analysed at once on every core
    kernels = compare_variants([source_of(f, stdin_text) for f in args.files], load_options(args), jobs=jobs)
    builds = [Build(label, file, ks) for label, file, ks in zip(labels, args.files, kernels, strict=True)]
    pairing = pair_kernels(builds)
    if args.json:
        from isalens.report.serialize import dumps
        sys.stdout.write(dumps(compare_dict(builds), pretty=args.pretty))
    else:
        sys.stdout.write(render_pairing_text(pairing))
    if args.html is not None:
        write_output(args.html, render_compare_html(pairing))
    if args.plot is not None:
        from isalens.report.plot import PlotUnavailable, plot_pressure
        several = len(pairing.pairs) > 1
        series = [(f"{v.label}:{v.kernel.name}" if several else v.label, v.kernel.vgpr_counts)
                  for p in pairing.pairs for v in p.variants]
        normalised = args.plot.with_name(f"{args.plot.stem}-normalised{args.plot.suffix}")
        try:
            plot_pressure(series, args.plot, title="live VGPRs per instruction")
            plot_pressure(series, normalised, title="live VGPRs per instruction (normalised length)",
                          normalise=True)
        except (PlotUnavailable, ValueError, OSError) as exc:
            raise IsalensError(str(exc), file=str(args.plot), code="plot") from None
        sys.stderr.write(f"isalens: wrote {args.plot} and {normalised}\n")
    return EXIT_OK
