"""The ``isalens vliw`` command: slot utilisation, clauses and ALU/fetch bounds of VLIW5/VLIW4 code.

Exit codes as in :mod:`isalens.cli`: 0 success (warnings allowed), 2 bad input or usage, including a
dump with error diagnostics (two operations in one slot, unreadable clause headers).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from isalens.cli.common import EXIT_INPUT, EXIT_OK

#: the VLIW readers' input formats (isalens.isa.r600.DIALECTS; a test keeps the two equal)
DIALECTS = ("cal", "llvm")

__all__ = ["register", "run"]


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected GB/s as a number, not {text!r}") from None
    if not 0 < value < float("inf"):  # inf would be written to JSON as the invalid token Infinity
        raise argparse.ArgumentTypeError(f"expected a positive, finite bandwidth, not {text}")
    return value


def _clocks(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of clocks, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected clocks >= 0, not {text}")
    return value


def register(subparsers: Any) -> None:
    """Add the ``vliw`` subcommand to ``subparsers`` (the object ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "vliw", help="VLIW5/VLIW4 (R600-Cayman) slot utilisation, clauses, loops and ALU vs fetch bounds",
        description="Instruction groups, operations per x/y/z/w/t slot, utilisation, literal slots, clause "
                    "counts (CNT) against the code, GPRs, fetches and the ALU:fetch ratio of a CAL / GPU "
                    "ShaderAnalyzer dump or LLVM r600 assembly; for each loop its MADs per clock and, on a "
                    "device, the ALU-bound and fetch-bound Gflop/s.",
    )
    p.add_argument("file", help="CAL dump or LLVM r600 assembly ('-' for stdin)")
    p.add_argument("--device", help="device for the Gflop/s bounds, e.g. hd4870, hd5870, hd6970, hd2900-xt")
    p.add_argument("--fetch-gbs", type=_positive, metavar="GBS",
                   help="fetch-path bandwidth in GB/s (default: the device's, when known)")
    p.add_argument("--fetch-latency", type=_clocks, metavar="CLOCKS",
                   help="clocks one fetch clause waits, for latency hiding and timing (default: 180, an L1 hit)")
    p.add_argument("--dialect", choices=DIALECTS, help="input format (default: detected)")
    p.add_argument("--target", help="chip or generation whose slot rules apply: rv770, cypress, cayman, r700 ... "
                                    "(default: the device's chip, else inferred from the code)")
    p.add_argument("--json", action="store_true", help="print JSON (schema 1) instead of text")


def run(args: argparse.Namespace) -> int:
    """Run ``isalens vliw`` for parsed ``args``; returns the exit code."""
    from isalens.engine import source_of
    from isalens.engine.vliw import analyze_vliw, load_vliw, resolve_device
    from isalens.errors import Severity
    from isalens.report.vliw import render_vliw_json, render_vliw_text

    device = resolve_device(args.device) if args.device else None
    target = args.target or (device.target if device is not None and device.is_vliw else None)
    source = source_of(args.file)  # '-': standard input, capped like every input
    module = load_vliw(source, args.dialect, target=target)
    # `isalens analyze` builds its own Namespace for VLIW files, without the newer options
    result = analyze_vliw(module, device, args.fetch_gbs, args.fetch_latency)
    if args.json:
        sys.stdout.write(render_vliw_json(result))
        for diag in result.diagnostics:
            sys.stderr.write(diag.format() + "\n")
    else:
        sys.stdout.write(render_vliw_text(result))
    errors = sum(1 for d in result.diagnostics if d.severity is Severity.ERROR)
    if errors:  # exit code 2 always comes with a reason on stderr, whatever went to stdout
        sys.stderr.write(f"isalens: {args.file}: {errors} error(s) in the dump (listed in the report)\n")
    return EXIT_INPUT if errors else EXIT_OK
