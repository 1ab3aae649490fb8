"""Command line: parse flags, call the API, pick a renderer, map errors to exit codes.

Exit codes: 0 success, 2 bad input or usage (one-line ``file:line: error: ...`` message), 3 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from isalens import __version__
from isalens.api import load
from isalens.arch.loader import all_archs
from isalens.errors import IsalensError
from isalens.ir.registers import RegFile
from isalens.isa.registry import DIALECTS
from isalens.report.json import render_json
from isalens.report.model import livereg_report
from isalens.report.rga import render_rga
from isalens.report.text import render_text

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_INTERNAL = 3

_REG_FILES = {"vgpr": RegFile.VGPR, "sgpr": RegFile.SGPR, "agpr": RegFile.AGPR}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"isalens: error: {message}\n")
        raise SystemExit(EXIT_INPUT)


def _add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="ISA text: clang -S / llc output, llvm-objdump -d, an RGA/driver listing, "
                                "Mesa ACO disassembly, or a bare list of instructions ('-' for stdin)")
    p.add_argument("--arch", help="target, e.g. gfx902, gfx90a, gfx1100, or a name such as raven/navi21 "
                                  "(taken from the input when it says, e.g. .amdgcn_target)")
    p.add_argument("--dialect", choices=DIALECTS, help="input format (default: detected)")
    p.add_argument("--kernel", help="analyse only this kernel or function")
    p.add_argument("--wave", type=int, choices=(32, 64), help="wave size (default: declared, else inferred)")
    p.add_argument("--ignore-unknown", action="store_true",
                   help="treat unknown instructions as warnings (first operand written, rest read) "
                        "instead of errors; the report says how many were guessed")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="isalens",
        description="Static analysis of AMD GPU ISA: register liveness and pressure, checked against real "
                    "compilers.",
    )
    parser.add_argument("--version", action="version", version=f"isalens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lr = sub.add_parser(
        "livereg", help="live registers per instruction, pressure peaks, lifetimes, requested/allocated",
        description="Live-register analysis: for every instruction the registers live, written (^), read (v) "
                    "or both (x); the peak and what is live there; the longest live ranges; requested, "
                    "allocated and compiler-declared register counts.",
    )
    _add_input_options(lr)
    lr.add_argument("--reg", choices=tuple(_REG_FILES), default="vgpr", help="register file to map (default vgpr)")
    out = lr.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (schema 1) instead of text")
    out.add_argument("--rga", action="store_true", help="print Radeon GPU Analyzer's livereg text format")
    lr.add_argument("--summary", action="store_true", help="text: omit the per-line listing")
    lr.add_argument("--longest", type=int, default=10, metavar="N", help="how many longest live ranges (10)")
    lr.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the text view")

    arch = sub.add_parser("arch", help="list known targets")
    arch.add_argument("action", choices=("list",), nargs="?", default="list")
    return parser


def _source(file: str) -> str | Path:
    """Standard input's text for ``-``, else the path (a missing file is the API's clear error)."""
    if file == "-":
        return sys.stdin.read()
    return Path(file)


def _cmd_livereg(args: argparse.Namespace) -> int:
    source = _source(args.file)
    module = load(source, args.arch, dialect=args.dialect, ignore_unknown=args.ignore_unknown,
                  wave_size=args.wave)
    kernels = module.kernels
    if args.kernel:
        names = [k.name for k in kernels]
        if args.kernel not in names:
            raise IsalensError(f"no kernel named '{args.kernel}' (found: {', '.join(names)})", file=args.file)
        kernels = tuple(k for k in kernels if k.name == args.kernel)
    if args.rga and len(kernels) > 1:
        raise IsalensError("--rga prints one kernel; choose it with --kernel (found: "
                           + ", ".join(k.name for k in kernels) + ")", file=args.file)
    if args.longest < 0:
        raise IsalensError("--longest must be >= 0")
    results = [k.analyze() for k in kernels]
    report = livereg_report(results, file=module.ir.file, dialect=module.ir.dialect,
                            diagnostics=module.ir.diagnostics, longest_count=args.longest)
    file = _REG_FILES[args.reg]
    if args.json:
        sys.stdout.write(render_json(report))
    elif args.rga:
        if file is RegFile.AGPR:
            raise IsalensError("RGA's format has VGPR and SGPR modes only")
        sys.stdout.write(render_rga(report.kernels[0], file))
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
        sys.stdout.write(render_text(report, file, color=color, listing=not args.summary))
    for diag in module.ir.diagnostics:
        if args.json or args.rga:
            sys.stderr.write(diag.format() + "\n")
    return EXIT_OK


def _cmd_arch(args: argparse.Namespace) -> int:
    seen = set()
    for name, spec in sorted(all_archs().items()):
        if spec.name != name or name in seen:
            continue
        seen.add(name)
        aliases = f"  ({', '.join(spec.aliases)})" if spec.aliases else ""
        sys.stdout.write(f"{name:8s} {spec.family:6s} wave{'/'.join(str(w) for w in spec.wave_sizes)}{aliases}\n")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_INPUT
    try:
        if args.command == "livereg":
            return _cmd_livereg(args)
        if args.command == "arch":
            return _cmd_arch(args)
    except IsalensError as exc:
        sys.stderr.write(f"isalens: {exc}\n")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug in isalens: one line, traceback only on request
        if os.environ.get("ISALENS_DEBUG"):
            raise
        sys.stderr.write(f"isalens: internal error: {type(exc).__name__}: {exc} "
                         "(please report it; set ISALENS_DEBUG=1 for a traceback)\n")
        return EXIT_INTERNAL
    parser.print_help()
    return EXIT_INPUT
