"""The ``isalens query`` command: SQL over a scan result with DuckDB (the table is ``kernels``)."""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from isalens.cli.common import EXIT_OK
from isalens.errors import IsalensError

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``query`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "query", help="SQL over a scan result (table 'kernels') with DuckDB",
        description="Run SQL over a scan result: a .parquet file, a directory of Parquet shards (Dask) or a "
                    ".duckdb database. The table is named 'kernels', e.g. \"select kernel, target, vgpr_requested "
                    "from kernels where occupancy_waves = 1\". The SQL reads only the scan result: other "
                    "files, extensions and network access need --allow-files.",
    )
    p.add_argument("sql", help="the query")
    p.add_argument("--scan", required=True, type=Path, metavar="RESULTS", help="scan result to query")
    p.add_argument("--allow-files", action="store_true",
                   help="let the SQL read and write other files and install extensions (read_text, read_csv, "
                        "COPY ... TO, ATTACH, INSTALL): off by default, so a query (or a result file from "
                        "someone else) cannot read or overwrite files of yours; turn it on only for SQL you wrote")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print a JSON array of row objects")
    fmt.add_argument("--csv", action="store_true", help="print CSV with a header line")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def write_table(names: list[str], batches: Iterable[list[tuple[Any, ...]]], out: TextIO) -> None:
    """Rows as aligned text columns, in bounded memory: aligned columns need every row's width before the first
    line, so the first pass formats each block, keeps the widths and spools the cells to a temporary file; the
    second pass reads the blocks back. (An 80,000-row, 133-column result held as text took 1.9 GB before.)"""
    widths = [len(n) for n in names]
    count = blocks = 0
    with tempfile.TemporaryFile() as spool:
        for rows in batches:
            for start in range(0, len(rows), _SPOOL_ROWS):  # a fetched batch in smaller blocks: less held at once
                cells = [[_cell(v) for v in row] for row in rows[start:start + _SPOOL_ROWS]]
                for row_cells in cells:
                    widths = [max(w, len(c)) for w, c in zip(widths, row_cells, strict=True)]
                count += len(cells)
                pickle.dump(cells, spool, protocol=pickle.HIGHEST_PROTOCOL)
                blocks += 1
        out.write("  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)).rstrip() + "\n")
        out.write("  ".join("-" * w for w in widths) + "\n")
        spool.seek(0)
        for _ in range(blocks):
            block: list[list[str]] = pickle.load(spool)  # our own blocks, written above
            out.write("".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() + "\n"
                              for r in block))
    out.write(f"({count} row{'s' if count != 1 else ''})\n")


#: rows fetched from DuckDB at a time when the output is streamed (CSV, JSON)
_BATCH = 2048
#: rows per block of the text table's spool (formatted cells of a 133-column row: tens of kB)
_SPOOL_ROWS = 256


def _failed(exc: Exception, scan: Path) -> IsalensError:
    """The user's SQL (and the result's pages, read only when fetched) are input: one message."""
    from isalens.scan.store import MEMORY_ENV

    lines = str(exc).splitlines()
    hint = f" (DuckDB's ceiling is set by {MEMORY_ENV})" if type(exc).__name__ == "OutOfMemoryException" else ""
    return IsalensError(f"query failed: {lines[0] if lines else type(exc).__name__}{hint}", file=str(scan),
                        code="sql")


def _batches(cursor: Any, scan: Path) -> Iterator[list[tuple[Any, ...]]]:
    while True:
        try:
            rows = cursor.fetchmany(_BATCH)
        except Exception as exc:  # duckdb.Error, or a value Python cannot hold
            raise _failed(exc, scan) from None
        if not rows:
            return
        yield rows


def run(args: argparse.Namespace) -> int:
    """Run ``isalens query``; returns the exit code."""
    from isalens.scan.store import connect_table

    con = connect_table(args.scan, allow_files=args.allow_files)
    try:
        try:
            cursor = con.execute(args.sql)
        except Exception as exc:
            raise _failed(exc, args.scan) from None
        names = [d[0] for d in cursor.description] if cursor.description else []
        batches = _batches(cursor, args.scan) if names else iter(())
        if args.json:
            from isalens.report.serialize import write_rows

            write_rows(names, (row for rows in batches for row in rows), sys.stdout)
        elif args.csv:
            from isalens.report.csv import SafeWriter  # on use: `isalens --help` imports no report module

            writer = SafeWriter(sys.stdout)  # kernel names come from binaries: no cell may start a formula
            writer.writerow(names)
            for rows in batches:
                writer.writerows(rows)
        else:  # aligned columns: two passes over a spool
            write_table(names, batches, sys.stdout)
    finally:
        con.close()
    return EXIT_OK
