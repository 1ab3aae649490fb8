"""Rows from whatever ``diff`` and ``check`` are given: a scan result, or files analysed here and now."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from isalens.scan.store import read_rows
from isalens.scan.units import iter_units
from isalens.scan.work import ScanOptions, run_unit

__all__ = ["is_scan_result", "rows_of"]


def is_scan_result(path: Path) -> bool:
    """A ``.parquet``/``.duckdb`` file or a directory of Parquet shards."""
    if path.is_dir():
        return any(path.glob("*.parquet"))
    return path.suffix.lower() in (".parquet", ".duckdb", ".db")


def rows_of(paths: list[Path], options: ScanOptions | None = None,
            columns: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Every row of the scan results among ``paths`` (only ``columns``, when given) and of the other files
    analysed in this process."""
    rows: list[dict[str, Any]] = []
    files = []
    for path in paths:
        if is_scan_result(path):
            rows += read_rows(path, columns)
        else:
            files.append(path)
    for unit in iter_units(files, target=options.target if options else None):
        rows += run_unit(unit, options or ScanOptions())
    return rows
