"""Where scan rows go: Parquet shards in ``<out>.parts/`` while the scan runs (each holds whole units, so an
interrupted scan keeps what it finished), then one table: ``results.parquet`` or table ``kernels`` in
``results.duckdb``. DuckDB reads the shards as one table (``union_by_name``: shards may differ in columns,
e.g. instruction classes), which is also how Dask's shards are combined.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from isalens.errors import IsalensError
from isalens.scan.rows import METRICS, printable

__all__ = ["Store", "connect_table", "read_rows"]

#: a note of kernels analysed without a row is a few KB; a larger one is not ours and is ignored
_MAX_SEEN = 16 << 20
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


#: column types a scan table holds (rows.py writes only bool, int, float and str; '"NULL"' is a column no row
#: fills); anything else (BLOB, LIST, STRUCT, TIMESTAMP ...) means the file is not one of ours
_NUMBER_TYPES = frozenset({"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
                           "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", '"NULL"'})
_TEXT_TYPES = frozenset({"VARCHAR", '"NULL"'})
_SCALAR_TYPES = _NUMBER_TYPES | _TEXT_TYPES | {"BOOLEAN"}


def _first_line(exc: BaseException) -> str:
    """An exception's first line, printable and short: DuckDB's messages on damaged files can carry raw bytes."""
    lines = str(exc).splitlines()
    text = printable(lines[0] if lines else "")
    return text[:200] or type(exc).__name__


#: DuckDB's own memory ceiling when it reads results (a hostile table must not take the machine; DuckDB spills or
#: stops with "Out of Memory Error" past it), in DuckDB's size syntax
MEMORY_ENV = "ISALENS_RESULTS_MEMORY"
DEFAULT_MEMORY = "1GB"


def _connect(file: str) -> Any:
    """A DuckDB connection as every reader opens one: no extension installed or loaded on demand, a memory
    ceiling, no progress bar on the terminal (it would interleave with `query`'s table)."""
    duckdb, _ = _require()
    config = {"autoload_known_extensions": False, "autoinstall_known_extensions": False,
              "memory_limit": os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY}
    try:
        con = duckdb.connect(config=config)
    except duckdb.Error as exc:  # e.g. ISALENS_RESULTS_MEMORY=lots
        raise IsalensError(f"{MEMORY_ENV}: {_first_line(exc)}", file=file, code="usage") from None
    con.execute("SET enable_progress_bar = false")
    return con


def _damaged(path: Path, exc: BaseException) -> IsalensError:
    if type(exc).__name__ == "OutOfMemoryException":
        limit = os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY
        return IsalensError(f"reading the scan result needs more than {limit} (set by {MEMORY_ENV})",
                            file=str(path), code="scan-memory")
    return IsalensError(f"not a readable scan result: {_first_line(exc)}", file=str(path), code="scan")


def _stat(path: Path) -> os.stat_result:
    try:
        return path.stat()
    except FileNotFoundError:
        raise IsalensError("no such scan result", file=str(path), code="io") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise IsalensError(f"cannot read: {getattr(exc, 'strerror', None) or exc}", file=str(path),
                           code="io") from None


def _result_files(path: Path) -> list[Path]:
    """The resolved files of the scan result at ``path``: itself, or a shard directory's ``*.parquet``.
    Devices and pipes are refused (``/dev/zero`` never ends); in a directory only regular files count, not
    symlinks (as when a scan walks one): a shard directory cannot point DuckDB at a file elsewhere."""
    st = _stat(path)
    if stat.S_ISDIR(st.st_mode):
        shards = []
        for candidate in sorted(path.glob("*.parquet")):
            try:
                if stat.S_ISREG(candidate.lstat().st_mode):
                    shards.append(candidate.resolve())
            except OSError:  # gone since the directory was listed
                continue
        if not shards:
            raise IsalensError("no Parquet shards (*.parquet) in this directory", file=str(path), code="scan")
        return shards
    if not stat.S_ISREG(st.st_mode):
        raise IsalensError("not a scan result: not a regular file (a device, pipe or socket)", file=str(path),
                           code="not-regular")
    return [path.resolve()]


def _lock_down(con: Any, allowed: list[str]) -> None:
    """No file but ``allowed`` can be read or written through ``con`` (no ``read_text``, ``COPY ... TO``,
    ``ATTACH``, ``INSTALL``/``LOAD``): DuckDB's ``allowed_paths`` must be set before external access is turned
    off, and ``lock_configuration`` (set last, by the caller) keeps SQL from turning it back on."""
    con.execute("SET allowed_paths = $1", [allowed])
    con.execute("SET enable_external_access = false")


def _require_base_table(con: Any, catalog: str, file: str) -> None:
    """``<catalog>.main.kernels`` must be a stored table: a view (or macro) the file defines is SQL someone else
    wrote, and running it would read whatever it names (issue 25)."""
    kind = con.execute("SELECT table_type FROM information_schema.tables WHERE table_catalog = $1 "
                       "AND table_schema = 'main' AND table_name = 'kernels'", [catalog]).fetchall()
    if not kind:
        raise IsalensError("not a scan result: no table 'kernels'", file=file, code="scan")
    if kind[0][0] != "BASE TABLE":
        raise IsalensError(f"not a scan result: 'kernels' is a {str(kind[0][0]).lower()}, not a stored table "
                           "(isalens never runs SQL a result file carries)", file=file, code="scan")


def _check_columns(columns: list[tuple[str, str, str]], file: str) -> None:
    """The columns every scan table has, with the types rows.py writes; (name, type, generated) triples."""
    types = {name: kind for name, kind, _ in columns}
    missing = [name for name in _ALWAYS if name not in types]
    if missing:
        raise IsalensError(f"not a scan result: no column {', '.join(missing)}", file=file, code="scan")
    for name, kind, generated in columns:
        shown = printable(name)[:80]
        if generated not in ("NEVER", "", None):
            raise IsalensError(f"not a scan result: column {shown!r} is computed by the file, not stored",
                               file=file, code="scan")
        wanted = _TEXT_TYPES if name in _ALWAYS else _NUMBER_TYPES if name in METRICS else _SCALAR_TYPES
        if kind not in wanted:
            raise IsalensError(f"not a scan result: column {shown!r} has type {kind[:40]}", file=file, code="scan")


def connect_table(path: Path, *, allow_files: bool = False) -> Any:
    """A DuckDB connection with view ``kernels`` over the scan result at ``path`` (a Parquet file, a directory
    of Parquet shards, or a DuckDB database with table ``kernels``).

    A result file is data, never code: a DuckDB database is attached read-only and only its stored table
    ``kernels`` is read (not a view it defines); extensions are neither installed nor loaded on demand; and
    unless ``allow_files`` the connection reads no file but the result's own (``query --allow-files``)."""
    duckdb, _ = _require()
    file = str(path)
    sources = _result_files(path)
    database = not path.is_dir() and _is_duckdb(path)
    con = _connect(file)
    try:
        if not allow_files:
            # a read-only attach still looks for the database's write-ahead log
            _lock_down(con, [str(f) for f in sources] + ([f"{sources[0]}.wal"] if database else []))
        if database:
            con.execute(f"ATTACH {_quote(sources[0])} AS scan (READ_ONLY)")
            _require_base_table(con, "scan", file)
            table = "scan.main.kernels"
            columns = con.execute("SELECT column_name, data_type, is_generated FROM information_schema.columns "
                                  "WHERE table_catalog = 'scan' AND table_schema = 'main' "
                                  "AND table_name = 'kernels' ORDER BY ordinal_position").fetchall()
        else:
            table = f"read_parquet([{', '.join(_quote(f) for f in sources)}], union_by_name = true)"
            columns = [(name, kind, "NEVER") for name, kind, *_ in con.execute(f"DESCRIBE SELECT * FROM {table}")
                       .fetchall()]
        _check_columns(columns, file)
        con.execute(f"CREATE TEMP VIEW kernels AS SELECT * FROM {table}")
        con.execute("SET lock_configuration = true")
    except IsalensError:
        con.close()
        raise
    except duckdb.Error as exc:
        con.close()
        raise _damaged(path, exc) from None
    return con


def read_rows(path: Path, columns: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Every row of a scan result as dicts (only ``columns`` that the table has, when given: a library's 88k
    rows of ~100 columns would otherwise take hundreds of MB for a check that reads five)."""
    duckdb, _ = _require()
    con = connect_table(path)
    try:
        select = "*"
        if columns is not None:
            have = [d[0] for d in con.execute("SELECT * FROM kernels LIMIT 0").description]
            wanted = [c for c in have if c in set(columns)]
            select = ", ".join('"' + c.replace('"', '""') + '"' for c in wanted) or "*"
        cursor = con.execute(f"SELECT {select} FROM kernels")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    except duckdb.Error as exc:  # damage past the footer shows only when the pages are read
        raise _damaged(path, exc) from None
    finally:
        con.close()


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
        con = _connect(str(self.out))
        if self.out.exists() and _is_duckdb(self.out):
            try:
                con.execute(f"ATTACH {_quote(self.out)} AS prev (READ_ONLY)")
                _require_base_table(con, "prev", str(self.out))
            except duckdb.Error as exc:
                con.close()
                raise _damaged(self.out, exc) from None
            except IsalensError:
                con.close()
                raise
        return con

    def previous_keys(self) -> set[tuple[str, str, str]]:
        """(file, source, content hash) of every unit already in the table or a shard."""
        return {key[:3] for key in self.previous_kernels()}

    def previous_kernels(self) -> set[tuple[str, str, str, str | None]]:
        """(file, source, content hash, kernel) of every row already in the table or a shard (kernel None: a row
        for a whole unit, e.g. a code object that could not be read), and of the kernels earlier runs analysed
        without a row (:meth:`remember`)."""
        sources = self._sources()
        found = self._remembered()
        if not sources:
            return found
        con = self._connect()
        try:
            union = " UNION ALL BY NAME ".join(f"SELECT file, source, content_hash, kernel FROM {s}" for s in sources)
            found |= {(str(f), str(s), str(h), None if k is None else str(k))
                      for f, s, h, k in con.execute(f"SELECT DISTINCT * FROM ({union})").fetchall()}
            return found
        except Exception as exc:  # duckdb.Error: an unreadable earlier result must be named, not crash the scan
            raise IsalensError(f"cannot read the earlier scan result: {str(exc).splitlines()[0]}",
                               file=str(self.out), code="scan") from None
        finally:
            con.close()

    def remember(self, keys: Iterable[tuple[str, str, str, str]]) -> None:
        """Record kernels analysed without giving a row (a symbol the listing shows to be a callee), so a resumed
        scan does not analyse them again: one JSON file per call in the shard directory, read by
        :meth:`previous_kernels` (not a ``*.parquet`` shard: ``query`` on the directory never sees it)."""
        listed = [list(k) for k in keys]
        if not listed:
            return
        self.parts.mkdir(parents=True, exist_ok=True)
        final = self.parts / f"seen-{uuid.uuid4().hex}.json"
        tmp = final.with_suffix(".tmp")
        tmp.write_text(json.dumps(listed), encoding="utf-8")
        os.replace(tmp, final)

    def _remembered(self) -> set[tuple[str, str, str, str | None]]:
        found: set[tuple[str, str, str, str | None]] = set()
        if not self.parts.is_dir():
            return found
        for path in sorted(self.parts.glob("seen-*.json")):
            try:
                if not stat.S_ISREG(path.lstat().st_mode) or path.lstat().st_size > _MAX_SEEN:
                    continue
                keys = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):  # a damaged note only costs the work again
                continue
            if isinstance(keys, list):
                found |= {(k[0], k[1], k[2], k[3]) for k in keys
                          if isinstance(k, list) and len(k) == 4 and all(isinstance(x, str) for x in k)}
        return found

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
