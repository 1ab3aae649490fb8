"""Scan results and budget files for tools/fuzz.py.

Result seeds are what ``isalens scan`` writes for seed binaries (Parquet and DuckDB), and variants of them made
with pyarrow and duckdb: columns dropped, renamed or of other types, odd values (NaN, 2^63, kernel names that
are spreadsheet formulas), other codecs and row groups, and DuckDB files whose ``kernels`` is a *view* defined by
the file (reading a canary file outside the input's directory, never ending, failing at run time). They are
built in a child process (``python tools/fuzz_results.py build ...``): DuckDB and Arrow start threads, and the
fuzzer's parent process must not hold them when it starts workers. Cases then edit these files' bytes
(Parquet footers, DuckDB headers, cuts).

Budget files are made from their grammar (docstring of ``isalens.scan.budget``) with wrong shapes, deep nesting,
numbers TOML allows but a limit does not (hex past 2^64, NaN, inf, dates), and ``paths`` that leave the budget's
directory (absolute, ``..``, symlinks, devices, a FIFO).
"""

from __future__ import annotations

import random
import struct
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.fuzz_mutate import edge_value, mutate_bytes, mutate_text

__all__ = ["CANARY_TOKEN", "budget_recipe", "build_budget", "build_result", "result_recipe"]

#: the content of the canary file: seen in any output, a file outside the input was disclosed
CANARY_TOKEN = "ISALENS-FUZZ-CANARY-5e3f1a7c"
GOOD_BUDGET = "[defaults]\nspills = 0\nvgpr = 64\n\n[[budget]]\nkernel = \"t*\"\noccupancy = 4\n"

# ----------------------------------------------------------------------------------------------- result seeds

#: kernel names and texts a hostile result may carry (spreadsheet formulas, control characters, HTML)
_ODD_TEXT = ('=HYPERLINK("http://example.invalid/")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", "\tx", "\rx",
             "a\nb", "</script>", "\u202e", "", "x" * 100000, "'; DROP TABLE kernels; --")


def _parquet_variants(base: Any, out: Path) -> None:
    """Parquet files derived from the scan's table ``base`` (a pyarrow Table)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def write(name: str, table: Any, **kw: Any) -> None:
        pq.write_table(table, out / f"{name}.parquet", **kw)

    n = base.num_rows
    names = base.column_names
    write("base", base)
    for column in ("file", "kernel", "target", "error", "vgpr_requested", "occupancy_waves", "spills", "code_bytes",
                   "source", "content_hash"):
        if column in names:
            write(f"without-{column}", base.drop_columns([column]))
    retyped = {
        "strings": lambda c: pa.array([str(v) for v in c.to_pylist()]),
        "nan": lambda c: pa.array([float("nan")] * n),
        "inf": lambda c: pa.array([float("inf"), float("-inf")] * (n // 2) + [float("inf")] * (n % 2)),
        "huge": lambda c: pa.array([(1 << 63) - 1] * n, type=pa.int64()),
        "uint64": lambda c: pa.array([(1 << 64) - 1] * n, type=pa.uint64()),
        "negative": lambda c: pa.array([-(1 << 63)] * n, type=pa.int64()),
        "lists": lambda c: pa.array([[1, 2]] * n),
        "structs": lambda c: pa.array([{"a": 1}] * n),
        "binary": lambda c: pa.array([b"\xff\xfe"] * n, type=pa.binary()),
        "bools": lambda c: pa.array([True] * n),
        "dates": lambda c: pa.array([0] * n, type=pa.timestamp("s")),
        "decimal": lambda c: pa.array([1] * n, type=pa.decimal128(38, 0)),
        "nulls": lambda c: pa.nulls(n),
        "dictionary": lambda c: pa.array([str(v) for v in c.to_pylist()]).dictionary_encode(),
    }
    for column in ("vgpr_requested", "occupancy_waves", "kernel", "target", "error", "file", "spills"):
        if column not in names:
            continue
        for label, make in retyped.items():
            write(f"{column}-{label}", base.set_column(names.index(column), column, make(base.column(column))))
    for i, text in enumerate(_ODD_TEXT):
        if "kernel" in names:
            write(f"kernel-name-{i}", base.set_column(names.index("kernel"), "kernel", pa.array([text] * n)))
    if "error" in names:
        write("error-rows", base.set_column(names.index("error"), "error", pa.array(["=1+1"] * n)))
    write("no-rows", base.slice(0, 0))
    write("many-rows", pa.concat_tables([base] * max(1, 20000 // max(1, n))))
    write("duplicate-column", pa.table([base.column(0), base.column(0)], names=[names[0], names[0]]))
    write("odd-column-names", base.append_column('x"; DROP TABLE kernels; --', pa.array([1] * n))
          .append_column("", pa.array([1] * n)).append_column("ü" * 300, pa.array([1] * n)))
    write("unrelated", pa.table({"x": [1, 2, 3]}))
    write("empty-schema", pa.table({"a": pa.array([], type=pa.int8())}))
    for codec in ("zstd", "gzip", "brotli", "lz4", "none"):
        write(f"codec-{codec}", base, compression=codec)
    write("row-groups", base, row_group_size=1, use_dictionary=False, write_statistics=False,
          data_page_version="2.0")
    write("metadata", base.replace_schema_metadata({b"pandas": b"{" * 10000, b"x" * 1000: b"y" * 100000}))


def _duckdb_variants(out: Path, result_duckdb: Path, canary: Path) -> None:
    """DuckDB files: the scan's own, and ones whose ``kernels`` is a view or a table of the wrong shape."""
    import shutil

    import duckdb

    def quoted(path: Path | str) -> str:
        return "'" + str(path).replace("'", "''") + "'"

    shutil.copyfile(result_duckdb, out / "base.duckdb")
    statements = {
        # a view reading a file outside the result (the disclosure): its first line becomes a kernel name
        "view-read-text": "CREATE VIEW kernels AS SELECT r.* REPLACE (t.content AS kernel, t.content AS file) "
                          f"FROM rows AS r, read_text({quoted(canary)}) AS t",
        "view-read-csv": "CREATE VIEW kernels AS SELECT r.* REPLACE (c.column0 AS kernel) FROM rows AS r, "
                         f"read_csv({quoted(canary)}, header = false, columns = {{'column0': 'VARCHAR'}}) AS c",
        "view-glob": "CREATE VIEW kernels AS SELECT r.* REPLACE (g.file AS kernel) FROM rows AS r, "
                     "glob('/etc/*') AS g",
        "view-stdin": "CREATE VIEW kernels AS SELECT r.* REPLACE (t.content AS kernel) FROM rows AS r, "
                      "read_text('/dev/stdin') AS t",
        "view-endless": "CREATE VIEW kernels AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                        "SELECT r.* FROM rows AS r, n",
        "view-huge": "CREATE VIEW kernels AS SELECT r.* FROM rows AS r, range(100000000)",
        "view-fails": "CREATE VIEW kernels AS SELECT r.* REPLACE (CAST(r.kernel || 'x' AS INTEGER) AS kernel) "
                      "FROM rows AS r",
        "view-error": "CREATE VIEW kernels AS SELECT r.* REPLACE (error('raised by the file') AS kernel) "
                      "FROM rows AS r",
        "macro": "CREATE MACRO secret() AS TABLE SELECT content FROM read_text(" + quoted(canary) + "); "
                 "CREATE VIEW kernels AS SELECT r.* REPLACE (s.content AS kernel) FROM rows AS r, secret() AS s",
        "table-strings": "CREATE TABLE kernels AS SELECT COLUMNS(*)::VARCHAR FROM rows",
        "table-structs": "CREATE TABLE kernels AS SELECT r.* REPLACE ({'a': 1} AS vgpr_requested, [1, 2] AS kernel)"
                         " FROM rows AS r",
        "table-blob": "CREATE TABLE kernels AS SELECT r.* REPLACE ('\\xFF\\xFE'::BLOB AS kernel) FROM rows AS r",
        "table-odd": "CREATE TABLE kernels AS SELECT r.* REPLACE ('nan'::DOUBLE AS occupancy_waves, "
                     "170141183460469231731687303715884105727::HUGEINT AS vgpr_requested, "
                     "'=HYPERLINK(\"x\")' AS kernel, INTERVAL 1 DAY AS spills) FROM rows AS r",
        "table-enum": "CREATE TYPE t AS ENUM ('gfx90a', 'gfx1100'); CREATE TABLE kernels AS SELECT r.* REPLACE "
                      "(TRY_CAST(r.target AS t) AS target) FROM rows AS r",
        "table-many": "CREATE TABLE kernels AS SELECT r.* FROM rows AS r, range(10000)",
        "table-empty": "CREATE TABLE kernels AS SELECT * FROM rows LIMIT 0",
        "table-one-column": "CREATE TABLE kernels (x INTEGER); INSERT INTO kernels VALUES (1)",
        "no-kernels": "CREATE TABLE other AS SELECT * FROM rows",
        "other-schema": "CREATE SCHEMA s; CREATE TABLE s.kernels AS SELECT * FROM rows; "
                        "CREATE VIEW kernels AS SELECT * FROM s.kernels",
    }
    for name, sql in statements.items():
        path = out / f"{name}.duckdb"
        con = duckdb.connect(str(path))
        try:
            con.execute(f"ATTACH {quoted(result_duckdb)} AS scan (READ_ONLY)")
            con.execute("CREATE TABLE rows AS SELECT * FROM scan.kernels")
            con.execute("DETACH scan")
            con.execute(sql)
            if name != "no-kernels" and "TABLE kernels" in sql:
                con.execute("DROP TABLE rows")
            con.execute("CHECKPOINT")
        except duckdb.Error as exc:  # a DuckDB that lacks one function: that variant is left out
            sys.stderr.write(f"fuzz seeds: {name}: {exc}\n")
            con.close()
            path.unlink(missing_ok=True)
            continue
        con.close()


def build_results(out: Path, inputs: list[Path], canary: Path) -> None:
    """Scan ``inputs`` with ``isalens scan`` into ``out/scan.parquet`` and ``out/scan.duckdb``, then write the
    variants under ``out/results``. Runs in a child process (see the module docstring)."""
    import pyarrow.parquet as pq

    from isalens.cli import main

    results = out / "results"
    results.mkdir(parents=True, exist_ok=True)
    for name in ("scan.parquet", "scan.duckdb"):
        code = main(["scan", *map(str, inputs), "--out", str(out / name), "--workers", "1", "--no-progress"])
        if code != 0:
            raise SystemExit(f"isalens scan failed ({code}) making {name}")
    _parquet_variants(pq.read_table(out / "scan.parquet"), results)
    _duckdb_variants(results, out / "scan.duckdb", canary)


# ----------------------------------------------------------------------------------------------- result cases

def result_recipe(rng: random.Random, names: list[str]) -> tuple[tuple[str, int], ...]:
    """The steps of one result input: a variant (by index into ``names``; DuckDB files two times in five, there
    are fewer of them), then byte edits that know the formats."""
    duckdb = [i for i, name in enumerate(names) if name.endswith(".duckdb")]
    parquet = [i for i, name in enumerate(names) if not name.endswith(".duckdb")]
    steps = [("pick result", rng.choice(duckdb if duckdb and (rng.random() < 0.4 or not parquet) else parquet))]
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        steps.append((rng.choices(("parquet footer", "duckdb header", "bytes", "cut", "other suffix"),
                                  (4, 3, 4, 1, 1))[0], rng.getrandbits(32)))
    return tuple(steps)


def build_result(recipe: tuple[tuple[str, int], ...], variants: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """(file name, bytes) ``recipe`` makes from ``variants`` (the same recipe always makes the same file)."""
    name, data = variants[recipe[0][1] % len(variants)]
    for step, seed in recipe[1:]:
        rng = random.Random(seed)
        if step == "parquet footer" and data.endswith(b"PAR1") and len(data) > 12:
            # u32 footer length then PAR1 at the end; the footer (Thrift) before it
            footer = struct.unpack_from("<I", data, len(data) - 8)[0]
            if rng.random() < 0.4:
                data = data[:-8] + struct.pack("<I", edge_value(rng, footer, 32)) + b"PAR1"
            else:
                data = mutate_bytes(data, rng, start=max(0, len(data) - 8 - footer), stop=len(data) - 8)
        elif step == "duckdb header" and name.endswith(".duckdb"):
            data = mutate_bytes(data, rng, start=0, stop=3 * 4096)  # the main header and the two database headers
        elif step == "bytes":
            data = mutate_bytes(data, rng)
        elif step == "cut":
            data = data[:rng.randrange(len(data) + 1)]
        elif step == "other suffix":
            name = name.rsplit(".", 1)[0] + (".parquet" if name.endswith(".duckdb") else ".duckdb")
    return name, data


# ----------------------------------------------------------------------------------------------- budget files

_METRICS = ("vgpr", "sgpr", "agpr", "spills", "scratch", "lds", "code_bytes", "instructions", "occupancy", "waves",
            "VGPR", "vgpr_requested", "occupancy_waves", "size", "vgpr_max", "kernel", "target", '""', '"a b"')
_NUMBERS = ("8", "0", "-1", "1.5", "64", "4", "0x10", "0xffffffffffffffff", "0x" + "f" * 300, "9" * 400, "1e400",
            "-1e400", "nan", "inf", "-inf", "+nan", "1_000", "0o777", "0b101", '"8"', "true", "[1, 2]", "{ a = 1 }",
            "1979-05-27T07:32:00Z", "07:32:00", "1979-05-27", "[]", "5e-324", "1.7976931348623157e308")
_GLOBS = ('"*"', '"t*"', '"saxpy"', '"["', '"[!]"', '"\\\\"', '"' + "*a" * 60 + 'b"', '"' + "a" * 10000 + '"',
          '"gfx90a*"', "5", "[\"a\"]", "{ a = 1 }", "true", '""', '"=cmd"')
#: ``paths`` entries: inside the budget's directory, leaving it (absolute, ``..``, symlinks), devices, a FIFO
_PATHS = ("k.co", "r.parquet", "./k.co", "sub/k.s", "sub/../k.co", "sub", ".", "", "missing.co", "@CANARY@",
          "../outside", "../../../../../../etc/hostname", "/etc/hostname", "/dev/zero", "/dev/stdin", "/dev/null",
          "/proc/self/environ", "escape", "zero", "stdin", "fifo", "up/canary.txt", "k.co\\u0000x", "x" * 5000,
          "~/k.co", "*.co", "sub/k.s\\nmore", "r.duckdb")


def _deep(rng: random.Random) -> str:
    depth = rng.choice((50, 1000, 100000))
    kind = rng.randrange(4)
    if kind == 0:
        return "x = " + "[" * depth + "]" * depth
    if kind == 1:
        return "x = " + "{ a = " * depth + "1" + " }" * depth
    if kind == 2:
        return ".".join(["a"] * depth) + " = 1"
    return "[" + ".".join(["a"] * depth) + "]"


_GOOD_PATHS = ("k.co", "r.parquet", "sub/k.s", "./k.co", "r.duckdb")
_GOOD_METRICS = ("vgpr", "sgpr", "agpr", "spills", "scratch", "lds", "code_bytes", "instructions", "occupancy")


def _good_budget(rng: random.Random) -> list[str]:
    """A budget file as its docstring describes it: paths inside its directory, numbers for limits."""
    lines = ["paths = [" + ", ".join(f'"{p}"' for p in rng.sample(_GOOD_PATHS, rng.choice((1, 1, 2)))) + "]"]
    if rng.random() < 0.7:
        lines += ["", "[defaults]", *(f"{m} = {rng.choice((0, 4, 8, 64, 256))}" for m in
                                      rng.sample(_GOOD_METRICS, rng.choice((1, 2))))]
    for _ in range(rng.choice((0, 1, 2))):
        lines += ["", "[[budget]]", f'kernel = "{rng.choice(("*", "t*", "saxpy", "nope"))}"',
                  *(f"{m} = {rng.choice((0, 1, 16, 1.5))}" for m in rng.sample(_GOOD_METRICS, 1))]
    return lines


def budget_text(rng: random.Random) -> str:
    """A budget file from its grammar: a well-formed one (two in five), or one with wrong shapes and values
    among the right ones."""
    if rng.random() < 0.4:
        return "\n".join(_good_budget(rng)) + "\n"
    lines: list[str] = []
    roll = rng.random()
    if roll < 0.75:
        chosen = rng.sample(_PATHS, rng.choice((1, 1, 2, 3)))
        lines.append("paths = [" + ", ".join(f'"{p}"' for p in chosen) + "]")
    elif roll < 0.85:
        lines.append("paths = " + rng.choice(('"k.co"', "[1]", '[["k.co"]]', "[]", "{ a = 1 }", "5")))

    def limits() -> list[str]:
        return [f"{rng.choice(_METRICS)} = {rng.choice(_NUMBERS)}" for _ in range(rng.choice((0, 1, 2, 3)))]

    if rng.random() < 0.6:
        lines += ["", "[defaults]", *limits()]
    shape = rng.randrange(10)
    if shape < 6:
        for _ in range(rng.choice((1, 1, 2, 5))):
            lines += ["", "[[budget]]", f"kernel = {rng.choice(_GLOBS)}", f"target = {rng.choice(_GLOBS)}", *limits()]
    elif shape == 6:
        lines += ["", "[budget]", *limits()]  # a table where an array of tables belongs
    elif shape == 7:
        lines.insert(0, "budget = " + rng.choice(("5", '"x"', "[1, 2]", "[{ kernel = \"*\", vgpr = 8 }]", "[[1]]")))
    elif shape == 8:
        lines.insert(0, "defaults = " + rng.choice(("5", "[]", '"x"', "{ vgpr = nan }")))
    else:
        lines.insert(0, _deep(rng))
    if rng.random() < 0.1:
        lines.insert(rng.randint(0, len(lines)), rng.choice(("\ufeff", "\r", "a = 1\na = 2", "[defaults]\n[defaults]",
                                                            "key = 'unterminated", "\x00")))
    return "\n".join(lines) + "\n"


_TOML_TOKENS = ("[", "]", "[[", "]]", "=", ".", '"', "'", "'''", '"""', "#", "\n", ",", "{", "}", "nan", "inf",
                "0x", "1e999", "-", "+", "_", "\\u0000", "\\", "\ufeff", "paths", "budget", "defaults", "vgpr",
                "@CANARY@", "../", "/dev/zero", "\udcff")


def budget_recipe(rng: random.Random) -> tuple[tuple[str, int], ...]:
    steps = [("budget", rng.getrandbits(32))]
    steps += [("toml edit", rng.getrandbits(32)) for _ in range(rng.choice((0, 0, 0, 1, 2)))]
    if rng.random() < 0.03:
        steps.append(("not UTF-8", rng.getrandbits(32)))
    return tuple(steps)


def build_budget(recipe: tuple[tuple[str, int], ...]) -> bytes:
    text = ""
    tail = b""
    for step, seed in recipe:
        rng = random.Random(seed)
        if step == "budget":
            text = budget_text(rng)
        elif step == "toml edit":
            text = mutate_text(text, rng, _TOML_TOKENS)
        elif step == "not UTF-8":
            tail = rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80"))
    return text.encode("utf-8", "surrogateescape") + tail


if __name__ == "__main__" and sys.argv[1:2] == ["build"]:
    build_results(Path(sys.argv[2]), [Path(p) for p in sys.argv[4:]], Path(sys.argv[3]))
