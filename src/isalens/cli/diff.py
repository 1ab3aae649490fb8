"""The ``isalens diff`` command: kernels whose registers, occupancy, spills or size changed between two scans
(or two binaries or ISA files), with ``--fail-on`` thresholds for CI.

Exit codes: 0 no threshold crossed, 1 a ``--fail-on`` threshold crossed, 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from isalens.cli.common import EXIT_OK, add_disassembler_option

__all__ = ["register", "render_diff_text", "run"]

EXIT_FAILED = 1


def register(subparsers: Any) -> None:
    """Add the ``diff`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "diff", help="kernels whose registers, occupancy, spills or code size changed; a CI gate",
        description="Compare two scan results (.parquet, .duckdb, a shard directory) or two binaries/ISA files "
                    "kernel by kernel. --fail-on takes comma-separated rules: 'occupancy<' (dropped), 'vgpr>+8' "
                    "(grew by more than 8), 'spills>0' (new value above 0); exit code 1 when one is crossed.",
    )
    p.add_argument("base", type=Path, help="the reference: scan result, binary or ISA file")
    p.add_argument("new", type=Path, help="the candidate")
    p.add_argument("--fail-on", default="", metavar="RULES", help="e.g. \"occupancy<, vgpr>+8, spills>0\"")
    p.add_argument("--target", help="only code objects for this processor")
    p.add_argument("--kernel", help="only kernels matching this name or glob")
    p.add_argument("--arch", help="target of ISA text that does not name one")
    p.add_argument("--allow-unanalysed", action="store_true",
                   help="a kernel that could not be analysed is listed, not a failure (default: exit code 1)")
    p.add_argument("--json", action="store_true", help="print the diff as JSON")
    add_disassembler_option(p)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def render_diff_text(doc: dict[str, Any]) -> str:
    from isalens.scan.diff import UNANALYSED
    from isalens.scan.rows import printable

    lines = []
    for k in doc["changed"]:
        parts = [f"{m} {_fmt(v['base'])} -> {_fmt(v['new'])}" for m, v in k["metrics"].items()]
        lines.append(f"changed  {k['target']}  {k['kernel']}: " + ", ".join(parts))
    lines += [f"added    {k['target']}  {k['kernel']}" for k in doc["added"]]
    lines += [f"removed  {k['target']}  {k['kernel']}" for k in doc["removed"]]
    lines += [f"error    {e['side']}: {e['where']}: {e['error']}" for e in doc["errors"]]
    for f in doc["failures"]:
        if f["rule"] == UNANALYSED:
            lines.append(f"FAIL     {f['side']}: {f['where']}: could not be analysed (--allow-unanalysed to accept)")
        elif f.get("measured") is False:
            lines.append(f"FAIL     {f['rule']}: {f['target']}  {f['kernel']}: {f['metric']} not known: the input "
                         "does not give it (--allow-unanalysed to accept)")
        else:
            lines.append(f"FAIL     {f['rule']}: {f['target']}  {f['kernel']} ({_fmt(f['base'])} -> {_fmt(f['new'])})")
    if doc.get("unmeasured"):
        allowed = not any(f.get("measured") is False for f in doc["failures"])
        lines += [f"not measured (allowed)  {u['rule']}: {u['target']}  {u['kernel']}: {u['metric']}"
                  for u in (doc["unmeasured"] if allowed else ())]
    lines.append(f"{len(doc['changed'])} changed, {len(doc['added'])} added, {len(doc['removed'])} removed, "
                 f"{doc['unchanged']} unchanged; {len(doc['failures'])} threshold(s) crossed")
    # one line each whatever the rows hold: their names and messages may come from a result someone else made
    return "".join(printable(line) + "\n" for line in lines)


def run(args: argparse.Namespace) -> int:
    """Run ``isalens diff``; returns the exit code."""
    from isalens.report.serialize import dumps
    from isalens.scan.diff import COLUMNS, diff_rows, parse_fail_on
    from isalens.scan.inputs import rows_of
    from isalens.scan.work import ScanOptions

    rules = parse_fail_on(args.fail_on)
    options = ScanOptions(target=args.target, kernel=args.kernel, arch=args.arch, disassembler=args.disassembler)
    base, new = rows_of([args.base], options, COLUMNS), rows_of([args.new], options, COLUMNS)
    doc = diff_rows(base, new, rules, allow_unanalysed=args.allow_unanalysed)
    doc["base"], doc["new"] = str(args.base), str(args.new)
    sys.stdout.write(dumps(doc, indent=1, sort_keys=False, default=str) if args.json else render_diff_text(doc))
    return EXIT_FAILED if doc["failures"] else EXIT_OK
