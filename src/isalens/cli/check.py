"""The ``isalens check`` command: a project's kernels against the budgets of ``isalens.toml``.

Exit codes: 0 every kernel within budget, 1 a budget broken (or a kernel that could not be analysed),
2 bad input or usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from isalens.cli.common import EXIT_OK, add_disassembler_option
from isalens.errors import IsalensError

__all__ = ["register", "run"]

EXIT_FAILED = 1


#: the budget file read when --budget names none
_DEFAULT_BUDGET = Path("isalens.toml")


def register(subparsers: Any) -> None:
    """Add the ``check`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "check", help="check kernels against register/occupancy/size budgets (isalens.toml)",
        description="Analyse PATHs (or the budget file's 'paths'; scan results are read as they are) and check "
                    "every kernel against the limits of the budget file: [defaults] and [[budget]] tables with "
                    "kernel/target globs and at-most limits (vgpr, sgpr, agpr, spills, scratch, lds, code_bytes, "
                    "instructions) or at-least occupancy.",
    )
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files, directories or scan results")
    p.add_argument("--budget", type=Path, default=_DEFAULT_BUDGET,
                   help="budget file (default isalens.toml); its 'paths' must lie in its own directory tree")
    p.add_argument("--arch", help="target of ISA text that does not name one")
    p.add_argument("--allow-unanalysed", action="store_true",
                   help="a kernel that could not be analysed is listed, not a failure (default: exit code 1)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_disassembler_option(p)


def run(args: argparse.Namespace) -> int:
    """Run ``isalens check``; returns the exit code."""
    from isalens.report.serialize import dumps
    from isalens.scan.budget import check_rows, read_budget
    from isalens.scan.inputs import rows_of
    from isalens.scan.rows import printable
    from isalens.scan.work import ScanOptions

    if args.budget == _DEFAULT_BUDGET and not args.budget.exists():
        # the default file missing is a usage question, not a broken file: say what the command needs
        raise IsalensError("no budget file: isalens.toml is not in the current directory (write one with [defaults] "
                           "and [[budget]] tables, docs/binaries.md, or name one with --budget FILE)",
                           file=str(args.budget), code="usage")
    budget = read_budget(args.budget, paths_needed=not args.paths)
    paths = list(args.paths) or [Path(p) for p in budget.paths]
    if not paths:
        raise IsalensError("nothing to check: give PATHs or 'paths' in the budget file", file=str(args.budget))
    rows = rows_of(paths, ScanOptions(arch=args.arch, disassembler=args.disassembler), columns=budget.columns())
    doc = check_rows(rows, budget, allow_unanalysed=args.allow_unanalysed)
    if args.json:
        sys.stdout.write(dumps(doc, indent=1, sort_keys=False, default=str))
    else:
        lines = [f"not analysed (allowed)  {e['where']}: {e['error']}"
                 for e in (doc["unanalysed"] if args.allow_unanalysed else ())]
        lines += [f"not measured (allowed)  {u['target']}  {u['kernel']}: {u['metric']} ({u['kind']} {u['limit']:g})"
                  for u in (doc["unmeasured"] if args.allow_unanalysed else ())]
        for v in doc["violations"]:
            if v["metric"] == "error":
                lines.append(f"FAIL  {v['where']}: could not be analysed (--allow-unanalysed to accept): {v['value']}")
            elif v["value"] is None:
                lines.append(f"FAIL  {v['target']}  {v['kernel']}: {v['metric']} not known: the input does not give "
                             f"it ({v['kind']} {v['limit']:g}; --allow-unanalysed to accept)")
            else:
                lines.append(f"FAIL  {v['target']}  {v['kernel']}: {v['metric']} {v['value']:g} "
                             f"({v['kind']} {v['limit']:g})")
        unmeasured = f", {len(doc['unmeasured'])} limit(s) not measurable" if doc["unmeasured"] else ""
        lines.append(f"{doc['kernels']} kernel(s) checked, {len(doc['unanalysed'])} not analysed{unmeasured}, "
                     f"{len(doc['violations'])} budget(s) broken")
        # one line each whatever the rows hold: their names and messages may come from a result someone else made
        sys.stdout.write("".join(printable(line) + "\n" for line in lines))
    return EXIT_FAILED if doc["violations"] else EXIT_OK
