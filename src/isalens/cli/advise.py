"""The ``isalens advise`` command: what to change in each kernel, where, and what it buys.

Exit codes as in :mod:`isalens.cli`: 0 success (also when a kernel gets no advice), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isalens.errors import IsalensError

if TYPE_CHECKING:
    from isalens.engine.load import LoadedModule

__all__ = ["register", "run"]

EXIT_OK = 0
EXIT_INPUT = 2


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
    p.add_argument("--arch", help="target, e.g. gfx902 (taken from the input when it says)")
    p.add_argument("--kernel", help="advise only this kernel")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]", help="preprocessor define")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="include directory")
    p.add_argument("--ignore-unknown", action="store_true",
                   help="read unknown instructions as guesses (their kernels then get no advice)")
    p.add_argument("--json", action="store_true",
                   help="print JSON: per kernel `advice` [{kind, lines, message, effect}]")


def _load(file: str, args: argparse.Namespace) -> LoadedModule:
    from isalens.engine.load import load
    from isalens.engine.sources import is_source, load_source

    if is_source(file):
        module, _ = load_source(Path(file), args.arch, defines=args.defines, include_dirs=args.include_dirs,
                                ignore_unknown=args.ignore_unknown)
        return module
    source: str | Path = sys.stdin.read() if file == "-" else Path(file)
    return load(source, args.arch, ignore_unknown=args.ignore_unknown)


def run(args: argparse.Namespace) -> int:
    """Run ``isalens advise`` for parsed ``args``; returns the exit code."""
    from isalens.engine.advice import kernel_advice
    from isalens.report.advice import advice_dict, render_advice_text

    docs: list[dict[str, Any]] = []
    texts: list[str] = []
    try:
        for file in args.files:
            module = _load(file, args)
            kernels = module.kernels
            if args.kernel:
                kernels = tuple(k for k in kernels if k.name == args.kernel)
                if not kernels:
                    names = ", ".join(k.name for k in module.kernels)
                    raise IsalensError(f"no kernel named '{args.kernel}' (found: {names})", file=file)
            for kernel in kernels:
                advice = kernel_advice(kernel)
                docs.append({"file": file, **advice_dict(advice)})
                texts.append(render_advice_text(advice))
    except IsalensError as exc:
        sys.stderr.write(f"isalens: {exc}\n")
        return EXIT_INPUT
    if args.json:
        sys.stdout.write(json.dumps({"schema": 1, "kernels": docs}, sort_keys=True, indent=1) + "\n")
    else:
        sys.stdout.write("\n".join(texts))
    return EXIT_OK
