"""``isalens livereg``: live registers per instruction, pressure peaks, lifetimes, requested/allocated."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from isalens.cli.common import (
    EXIT_OK,
    add_input_file,
    add_load_options,
    add_source_view_options,
    load_options,
    print_diagnostics,
    use_color,
    write_chunks,
)

REG_FILES = ("vgpr", "sgpr", "agpr")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "livereg", help="live registers per instruction, pressure peaks, lifetimes, requested/allocated",
        description="Live-register analysis: for every instruction the registers live, written (^), read (v) "
                    "or both (x); the peak and what is live there; the longest live ranges; requested, "
                    "allocated and compiler-declared register counts.",
    )
    add_input_file(p)
    add_load_options(p)
    p.add_argument("--reg", choices=REG_FILES, default="vgpr", help="register file to map (default vgpr)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of text (schema 3: docs/schema/README.md)")
    out.add_argument("--rga", action="store_true", help="print Radeon GPU Analyzer's livereg text format")
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people (default: compact)")
    p.add_argument("--summary", action="store_true", help="text: omit the per-line listing")
    p.add_argument("--longest", type=int, default=10, metavar="N", help="how many longest live ranges (10)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the text view")
    add_source_view_options(p)


def run(args: argparse.Namespace) -> int:
    from isalens.engine import livereg, source_of
    from isalens.errors import IsalensError
    from isalens.ir.registers import RegFile

    report = livereg(source_of(args.file), load_options(args), longest=args.longest)
    file = {"vgpr": RegFile.VGPR, "sgpr": RegFile.SGPR, "agpr": RegFile.AGPR}[args.reg]
    if file is RegFile.AGPR:
        from isalens.arch.loader import get_arch
        without = sorted({k.arch for k in report.kernels if not get_arch(k.arch).agprs})
        if without:  # a column of zeros, said to be one
            sys.stderr.write(f"isalens: note: {', '.join(without)} has no AGPRs (CDNA targets have them): every "
                             "live AGPR count is 0\n")
    if args.rga and len(report.kernels) > 1:
        raise IsalensError("--rga prints one kernel; choose it with --kernel (found: "
                           + ", ".join(k.name for k in report.kernels) + ")", file=args.file)
    if args.json:
        from isalens.report.json import livereg_document
        from isalens.report.serialize import write
        write(livereg_document(report, stream=True), sys.stdout, pretty=args.pretty)
    elif args.rga:
        if file is RegFile.AGPR:
            raise IsalensError("RGA's format has VGPR and SGPR modes only")
        from isalens.report.rga import rga_lines
        write_chunks((line + "\n" for line in rga_lines(report.kernels[0], file)), sys.stdout)
    else:
        from isalens.report.text import text_chunks
        write_chunks(text_chunks(report, file, color=use_color(args.color), listing=not args.summary,
                                 source=args.source, by_source=args.by_source, verbose=args.verbose), sys.stdout)
    if args.json or args.rga:
        print_diagnostics(report.diagnostics, verbose=args.verbose)
    return EXIT_OK
