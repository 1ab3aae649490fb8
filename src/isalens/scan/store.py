"""Where scan rows go: Parquet shards in ``<out>.parts/`` while the scan runs (each holds whole units, so an
interrupted scan keeps what it finished), then one table: ``results.parquet`` or table ``kernels`` in
``results.duckdb``. DuckDB reads the shards as one table (``union_by_name``: shards may differ in columns,
e.g. instruction classes), which is also how Dask's shards are combined.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from isalens.errors import IsalensError

__all__ = ["Store", "connect_table", "read_rows"]

#: columns every table has, even when no row fills them (a scan with no errors)
_ALWAYS = ("file", "source", "target", "content_hash", "isalens_version", "kernel", "error", "error_code")


def _require() -> tuple[Any, Any]:
    try:
        import duckdb
        import pyarrow
    except ImportError as exc:
        raise IsalensError(f"scans need {exc.name}: pip install 'isalens[scan]' (duckdb, pyarrow, tqdm)",
                           code="scan-extra") from None
    return duckdb, pyarrow


def _is_duckdb(path: Path) -> bool:
    return path.suffix.lower() in (".duckdb", ".db")


def _quote(path: Path | str) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def connect_table(path: Path) -> Any:
    """A DuckDB connection with view ``kernels`` over the scan result at ``path`` (a Parquet file, a directory
    of Parquet shards, or a DuckDB database with table ``kernels``)."""
    duckdb, _ = _require()
    if not path.exists():
        raise IsalensError("no such scan result", file=str(path), code="io")
    con = duckdb.connect()
    try:
        if path.is_dir():
            con.execute("CREATE VIEW kernels AS SELECT * FROM read_parquet("
                        f"{_quote(path / '*.parquet')}, union_by_name = true)")
        elif _is_duckdb(path):
            con.execute(f"ATTACH {_quote(path)} AS scan (READ_ONLY)")
            con.execute("CREATE VIEW kernels AS SELECT * FROM scan.kernels")
        else:
            con.execute(f"CREATE VIEW kernels AS SELECT * FROM read_parquet({_quote(path)})")
    except duckdb.Error as exc:
        raise IsalensError(f"not a scan result: {str(exc).splitlines()[0]}", file=str(path), code="scan") from None
    return con


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Every row of a scan result as dicts."""
    con = connect_table(path)
    cursor = con.execute("SELECT * FROM kernels")
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


class Store:
    """The shards and final table of one ``--out``."""

    def __init__(self, out: Path) -> None:
        _require()
        self.out = out
        self.parts = out.with_name(out.name + ".parts")
        self.written = 0

    def _sources(self) -> list[str]:
        """SQL table expressions for what earlier runs left: the final table and stray shards."""
        found = []
        if self.out.exists():
            if _is_duckdb(self.out):
                found.append("prev.kernels")
            else:
                found.append(f"read_parquet({_quote(self.out)})")
        if self.parts.is_dir() and any(self.parts.glob("*.parquet")):
            found.append(f"read_parquet({_quote(self.parts / '*.parquet')}, union_by_name = true)")
        return found

    def _connect(self) -> Any:
        duckdb, _ = _require()
        con = duckdb.connect()
        if self.out.exists() and _is_duckdb(self.out):
            con.execute(f"ATTACH {_quote(self.out)} AS prev (READ_ONLY)")
        return con

    def previous_keys(self) -> set[tuple[str, str, str]]:
        """(file, source, content hash) of every unit already in the table or a shard."""
        sources = self._sources()
        if not sources:
            return set()
        con = self._connect()
        try:
            union = " UNION ALL BY NAME ".join(f"SELECT file, source, content_hash FROM {s}" for s in sources)
            return {(str(f), str(s), str(h)) for f, s, h in con.execute(f"SELECT DISTINCT * FROM ({union})").fetchall()}
        except Exception as exc:  # duckdb.Error: an unreadable earlier result must be named, not crash the scan
            raise IsalensError(f"cannot read the earlier scan result: {str(exc).splitlines()[0]}",
                               file=str(self.out), code="scan") from None
        finally:
            con.close()

    def write_shard(self, rows: list[dict[str, Any]]) -> Path | None:
        """Write ``rows`` (whole units) as one Parquet shard."""
        if not rows:
            return None
        _, pa = _require()
        import pyarrow.parquet as pq

        self.parts.mkdir(parents=True, exist_ok=True)
        names: dict[str, None] = {}
        for row in rows:  # every row's columns (Table.from_pylist would take only the first row's)
            names.update(dict.fromkeys(row))
        table = pa.table({name: [row.get(name) for row in rows] for name in names})
        final = self.parts / f"shard-{uuid.uuid4().hex}.parquet"
        tmp = final.with_suffix(".tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, final)  # a shard is there whole or not at all
        self.written += len(rows)
        return final

    @staticmethod
    def _without_empty_columns(con: Any, query: str) -> str:
        """``query`` keeping only columns some row fills: rows replaced by a rescan leave none of theirs behind."""
        con.execute(f"CREATE TEMP TABLE combined AS {query}")
        names = [d[0] for d in con.execute("SELECT * FROM combined LIMIT 0").description]
        counts = con.execute("SELECT " + ", ".join(f'count("{n}")' for n in names) + " FROM combined").fetchone()
        keep = [n for n, c in zip(names, counts, strict=True) if c or n in _ALWAYS]
        return "SELECT " + ", ".join(f'"{n}"' for n in keep) + " FROM combined ORDER BY file, source, kernel"

    def finish(self, scanned_files: Iterable[str], current_keys: Iterable[tuple[str, str, str]]) -> int:
        """Combine the earlier table and every shard into the final table: rows of files this scan walked are kept
        only for units it still found (changed or removed code objects drop out), other files' rows stay.
        Returns the number of rows."""
        sources = self._sources()
        con = self._connect()
        _, pa = _require()
        text = pa.string()
        files = pa.table({"file": pa.array(sorted(set(scanned_files)), type=text)})
        keys = list(set(current_keys))
        key_table = pa.table({"file": pa.array([k[0] for k in keys], type=text),
                              "source": pa.array([k[1] for k in keys], type=text),
                              "content_hash": pa.array([k[2] for k in keys], type=text)})
        con.register("scanned_files", files)
        con.register("current_keys", key_table)
        if not sources:
            con.close()
            return 0
        union = " UNION ALL BY NAME ".join(f"SELECT * FROM {s}" for s in sources)
        query = (f"SELECT DISTINCT r.* FROM ({union}) AS r WHERE r.file NOT IN (SELECT file FROM scanned_files) "
                 "OR EXISTS (SELECT 1 FROM current_keys AS k WHERE k.file = r.file AND k.source = r.source "
                 "AND k.content_hash = r.content_hash)")
        query = self._without_empty_columns(con, query)
        if _is_duckdb(self.out):
            tmp = self.out.with_name(self.out.name + ".tmp")
            tmp.unlink(missing_ok=True)
            con.execute(f"ATTACH {_quote(tmp)} AS fresh")
            con.execute(f"CREATE TABLE fresh.kernels AS {query}")
            count = int(con.execute("SELECT count(*) FROM fresh.kernels").fetchone()[0])
        else:
            tmp = self.out.with_name(self.out.name + ".tmp")
            con.execute(f"COPY ({query}) TO {_quote(tmp)} (FORMAT parquet)")
            count = int(con.execute(f"SELECT count(*) FROM read_parquet({_quote(tmp)})").fetchone()[0])
        con.close()
        os.replace(tmp, self.out)
        shutil.rmtree(self.parts, ignore_errors=True)
        return count
