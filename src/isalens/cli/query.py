"""The ``isalens query`` command: SQL over a scan result with DuckDB (the table is ``kernels``)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

from isalens.errors import IsalensError

__all__ = ["register", "run"]

EXIT_OK = 0
EXIT_INPUT = 2


def register(subparsers: Any) -> None:
    """Add the ``query`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "query", help="SQL over a scan result (table 'kernels') with DuckDB",
        description="Run SQL over a scan result: a .parquet file, a directory of Parquet shards (Dask) or a "
                    ".duckdb database. The table is named 'kernels', e.g. \"select kernel, target, vgpr_requested "
                    "from kernels where occupancy_waves = 1\".",
    )
    p.add_argument("sql", help="the query")
    p.add_argument("--scan", required=True, type=Path, metavar="RESULTS", help="scan result to query")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print a JSON array of row objects")
    fmt.add_argument("--csv", action="store_true", help="print CSV with a header line")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def render_table(names: list[str], rows: list[tuple[Any, ...]]) -> str:
    """Rows as aligned text columns."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    return "\n".join(lines) + f"\n({len(rows)} row{'s' if len(rows) != 1 else ''})\n"


def run(args: argparse.Namespace) -> int:
    """Run ``isalens query``; returns the exit code."""
    from isalens.scan.store import connect_table

    try:
        con = connect_table(args.scan)
        try:
            cursor = con.execute(args.sql)
        except Exception as exc:  # duckdb.Error: the user's SQL is input
            raise IsalensError(f"query failed: {str(exc).splitlines()[0]}", file=str(args.scan),
                               code="sql") from None
        names = [d[0] for d in cursor.description] if cursor.description else []
        rows = cursor.fetchall() if names else []
    except IsalensError as exc:
        sys.stderr.write(f"isalens: {exc}\n")
        return EXIT_INPUT
    if args.json:
        sys.stdout.write(json.dumps([dict(zip(names, r, strict=True)) for r in rows], indent=1, default=str) + "\n")
    elif args.csv:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(names)
        writer.writerows(rows)
        sys.stdout.write(buf.getvalue())
    else:
        sys.stdout.write(render_table(names, rows))
    return EXIT_OK
