"""The ``isalens advise`` command: what to change in each kernel, where, and what it buys.

Exit codes as in :mod:`isalens.cli`: 0 success (also when a kernel gets no advice), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from isalens.cli.common import EXIT_OK, add_load_options, load_options

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``advise`` subcommand to ``subparsers`` (the object ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "advise", help="what to change: pressure attribution, occupancy, spills, halves, sub-dword, LDS, constants",
        description="For every kernel: the values to shorten at the VGPR peak, the cheapest step to the next "
                    "occupancy level, spill slots and the budget that removes them, 16-bit halves to pack, "
                    "sub-dword sequences one SDWA/op_sel/packed op would do, LDS reads to merge and bank "
                    "conflicts, literals to hoist or replace; each with its effect computed by isalens' models.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="ISA text or source files (see `isalens livereg --help`)")
    add_load_options(p)
    p.add_argument("--json", action="store_true",
                   help="print JSON: files[].kernels[].advice [{kind, lines, message, effect}]")


def run(args: argparse.Namespace) -> int:
    """Run ``isalens advise`` for parsed ``args``; returns the exit code."""
    from isalens.engine import load_input, source_of
    from isalens.engine.advice import kernel_advice
    from isalens.report.advice import advice_kernel_dict, render_advice_text
    from isalens.report.document import document, file_entry
    from isalens.report.serialize import dumps

    files: list[dict[str, Any]] = []
    texts: list[str] = []
    options = load_options(args)
    for file in args.files:
        module, kernels, stats = load_input(source_of(file), options)
        docs = []
        for kernel in kernels:
            advice = kernel_advice(kernel)
            docs.append(advice_kernel_dict(advice))
            texts.append(render_advice_text(advice))
        files.append(file_entry(file, docs, dialect=module.ir.dialect, diagnostics=module.diagnostics,
                                compiler_stats=stats))
    if args.json:
        sys.stdout.write(dumps(document("advise", files=files), indent=1))
    else:
        sys.stdout.write("\n".join(texts))
    return EXIT_OK
