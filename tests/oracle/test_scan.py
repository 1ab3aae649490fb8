"""isalens scan, query, diff and check on two builds of tests/data/binaries/kernels.hip (the second with
-DN=64, which makes ``heavy`` keep 64 values live) and on bad binaries; expected figures come from the
compiler's own metadata (``isalens list``, checked against llvm-readelf in test_binaries.py)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.oracle.hipbuild import build, build_all

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")
pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

from isalens.scan.run import scan  # noqa: E402
from isalens.scan.store import read_rows  # noqa: E402
from isalens.scan.work import ScanOptions  # noqa: E402


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("builds")
    (root / "v1").mkdir()
    (root / "v2").mkdir()
    out = build_all(root)
    one = build(root / "v1" / "kernels.hipfb", "--cuda-device-only")
    two = build(root / "v2" / "kernels.hipfb", "--cuda-device-only", defines=("N=64",))
    bad = root / "bad"
    bad.mkdir()
    plain = one.read_bytes()
    (bad / "truncated.hipfb").write_bytes(plain[: len(plain) // 2])
    compressed = bytearray(out["compressed"].read_bytes())
    for i in range(40, 80):
        compressed[i] ^= 0x5A
    (bad / "corrupt.hipfb").write_bytes(bytes(compressed))
    host = b"__CLANG_OFFLOAD_BUNDLE__" + (1).to_bytes(8, "little") + (51).to_bytes(8, "little") + \
        (0).to_bytes(8, "little") + (11).to_bytes(8, "little") + b"host-x86_64"
    (bad / "hostonly.hipfb").write_bytes(host)
    shutil.copy(sys.executable, bad / "notgpu.co")
    return {"v1": one, "v2": two, "bad": bad, **out}


def metadata(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[tuple[str, str], dict[str, Any]]:
    assert main(["list", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {(co["target"], k["name"]): {**k, **k["metadata"]} for co in doc["files"] for k in co["kernels"]}


def table(path: Path) -> list[dict[str, Any]]:
    return sorted(read_rows(path), key=lambda r: (r["file"], r["source"], str(r["kernel"])))


def test_scan_rows_and_error_rows(builds: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.parquet"
    bad = sorted(builds["bad"].iterdir())
    assert main(["scan", str(builds["v1"]), *map(str, bad), "--out", str(out), "--workers", "2"]) == 0
    summary = capsys.readouterr().err
    # units: the build's two code objects and the four bad files; rows: 2 x 3 kernels and 4 errors
    assert "6 unit(s)" in summary and "6 kernel row(s), 4 error row(s)" in summary
    rows = table(out)
    meta = metadata(builds["v1"], capsys)
    good = [r for r in rows if not r["error"]]
    assert sorted((r["target"], r["kernel"]) for r in good) == sorted(meta)
    for r in good:
        m = meta[(r["target"], r["kernel"])]
        assert (r["vgpr_requested"], r["vgpr_declared"], r["lds_bytes"], r["wave_size"]) == (
            m["vgpr_count"], m["vgpr_count"], m["lds_bytes"], m["wave_size"])
        assert r["isalens_version"] and len(r["content_hash"]) == 64
    errors = {Path(r["file"]).name: r["error"] for r in rows if r["error"]}
    assert sorted(errors) == ["corrupt.hipfb", "hostonly.hipfb", "notgpu.co", "truncated.hipfb"]
    assert "truncated" in errors["truncated.hipfb"]
    assert "corrupt zstd payload" in errors["corrupt.hipfb"]
    assert "no AMDGPU entry" in errors["hostonly.hipfb"]
    assert "not AMDGPU" in errors["notgpu.co"]


def test_query_text_json_csv(builds: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.duckdb"
    assert main(["scan", str(builds["v1"]), "--out", str(out), "--workers", "1"]) == 0
    capsys.readouterr()
    sql = "select target, kernel, vgpr_requested from kernels where kernel = 'heavy' order by target"
    assert main(["query", sql, "--scan", str(out), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    meta = metadata(builds["v1"], capsys)
    assert got == [{"target": t, "kernel": "heavy", "vgpr_requested": meta[(t, "heavy")]["vgpr_count"]}
                   for t in ("gfx1100", "gfx90a")]
    assert main(["query", sql, "--scan", str(out), "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "target,kernel,vgpr_requested"
    assert main(["query", sql, "--scan", str(out)]) == 0
    assert "(2 rows)" in capsys.readouterr().out
    assert main(["query", "select nonsense from kernels", "--scan", str(out)]) == 2
    err = capsys.readouterr().err
    assert "query failed" in err and len(err.strip().splitlines()) == 1


def test_diff_names_exactly_the_changed_kernels(builds: dict[str, Path], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.parquet", tmp_path / "b.duckdb"
    assert main(["scan", str(builds["v1"]), "--out", str(a), "--workers", "1"]) == 0
    assert main(["scan", str(builds["v2"]), "--out", str(b), "--workers", "1"]) == 0
    capsys.readouterr()
    one, two = metadata(builds["v1"], capsys), metadata(builds["v2"], capsys)
    # oracle: the kernels whose compiler-declared VGPRs or code changed between the builds
    expected = sorted(k for k in one if one[k] != two[k])
    assert expected == [("gfx1100", "heavy"), ("gfx90a", "heavy")]
    assert main(["diff", str(a), str(b), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted((k["target"], k["kernel"]) for k in doc["changed"]) == expected
    assert doc["added"] == [] and doc["removed"] == [] and doc["unchanged"] == 4
    grew = {k["target"]: k["metrics"]["vgpr_requested"]["delta"] for k in doc["changed"]}
    assert grew == {t: two[(t, "heavy")]["vgpr_count"] - one[(t, "heavy")]["vgpr_count"] for t, _ in expected}
    most = int(max(grew.values()))
    # a threshold at the largest growth is not crossed, one below it is
    assert main(["diff", str(a), str(b), "--fail-on", f"vgpr>+{most}"]) == 0
    assert main(["diff", str(a), str(b), "--fail-on", f"occupancy<, vgpr>+{most - 1}"]) == 1
    out = capsys.readouterr().out
    assert f"FAIL     vgpr>+{most - 1}" in out
    # the same diff straight from the two binaries
    assert main(["diff", str(builds["v1"]), str(builds["v2"]), "--json"]) == 0
    direct = json.loads(capsys.readouterr().out)
    assert sorted((k["target"], k["kernel"]) for k in direct["changed"]) == expected
    assert main(["diff", str(a), str(b), "--fail-on", "vgpr>>3"]) == 2
    assert "cannot read 'vgpr>>3'" in capsys.readouterr().err


def test_check_budget(builds: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = metadata(builds["v2"], capsys)
    heavy = max(two[(t, "heavy")]["vgpr_count"] for t in ("gfx90a", "gfx1100"))
    budget = tmp_path / "isalens.toml"
    (tmp_path / "build").mkdir()
    shutil.copy(builds["v2"], tmp_path / "build" / "kernels.hipfb")  # a budget's paths lie in its own tree
    budget.write_text('paths = ["build/kernels.hipfb"]\n[defaults]\nspills = 0\n'
                      f'[[budget]]\nkernel = "heavy"\nvgpr = {heavy - 1}\n')
    assert main(["check", "--budget", str(budget), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["kernels"] == 6
    assert [(v["kernel"], v["metric"]) for v in doc["violations"]] == [("heavy", "vgpr_requested")]
    budget.write_text(f'paths = ["build/kernels.hipfb"]\n[[budget]]\nkernel = "heavy"\nvgpr = {heavy}\n')
    assert main(["check", "--budget", str(budget)]) == 0
    budget.write_text('[[budget]]\nkernel = "heavy"\nvgprs_max = 3\n')
    assert main(["check", str(builds["v2"]), "--budget", str(budget)]) == 2
    assert "unknown limit 'vgprs_max'" in capsys.readouterr().err


def test_interrupted_scan_resumes(builds: dict[str, Path], tmp_path: Path) -> None:
    paths = [str(builds["v1"]), str(builds["v2"]), str(builds["compressed"])]
    out = tmp_path / "r.parquet"
    seen: list[str] = []

    def stop_after_two(unit: Any) -> None:
        seen.append(unit.source + unit.file)
        if len(seen) == 3:
            raise KeyboardInterrupt

    first = scan(paths, out, workers=1, on_unit=stop_after_two, progress=False)
    assert first.interrupted and first.analysed == 2
    assert not out.exists() and any(out.with_name(out.name + ".parts").glob("*.parquet"))
    again: list[str] = []
    second = scan(paths, out, workers=1, on_unit=lambda u: again.append(u.source + u.file), progress=False)
    assert second.skipped == 2 and second.analysed == 4 and not second.interrupted
    assert not set(again) & set(seen[:2])
    fresh = tmp_path / "fresh.parquet"
    scan(paths, fresh, workers=1, progress=False)
    assert table(out) == table(fresh)


def test_rescan_skips_unchanged_and_replaces_changed(builds: dict[str, Path], tmp_path: Path) -> None:
    work = tmp_path / "w"
    work.mkdir()
    target = work / "kernels.hipfb"
    shutil.copy(builds["v1"], target)
    out = tmp_path / "r.duckdb"
    scan([str(work)], out, workers=1, progress=False)
    assert scan([str(work)], out, workers=1, progress=False).skipped == 2
    shutil.copy(builds["v2"], target)
    third = scan([str(work)], out, workers=1, progress=False)
    assert third.analysed == 2 and third.skipped == 0
    rows = table(out)
    assert len(rows) == 6  # the old build's rows are gone
    fresh = tmp_path / "fresh.duckdb"
    scan([str(work)], fresh, workers=1, progress=False)
    assert rows == table(fresh)


def test_dask_local_cluster_gives_the_same_table(builds: dict[str, Path], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from isalens.scan import dask_engine as engine_module
    from isalens.scan.dask_engine import dask_engine

    monkeypatch.setattr(engine_module, "_INLINE_BYTES", 0)  # every unit is scattered, as large ones are

    paths = [str(builds["v1"]), str(builds["v2"]), str(builds["shared"]), str(builds["bad"])]
    local, remote = tmp_path / "local.parquet", tmp_path / "dask.parquet"
    scan(paths, local, workers=2, progress=False)
    engine = dask_engine(None, workers=2)
    try:
        assert engine.slots == 2
        summary = scan(paths, remote, engine=engine, progress=False, options=ScanOptions())
    finally:
        engine.close()
    # 2 + 2 + 2 code objects and 3 bad bundles; the host program without GPU code in the walked directory is
    # not an input (named on the command line it is an error row, see test_scan_rows_and_error_rows)
    assert summary.analysed == 9
    assert table(remote) == table(local)


def test_compressed_and_concatenated_give_the_same_analysis(builds: dict[str, Path], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    for other in (builds["compressed"], builds["object"], builds["shared"]):
        assert main(["diff", str(builds["plain"]), str(other), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert (doc["changed"], doc["added"], doc["removed"], doc["unchanged"]) == ([], [], [], 6), other.name
    # three bundles one after another: every kernel of each, analysed as in its own file
    blob = b""
    for part in (builds["plain"], builds["compressed"], builds["heavy"]):
        data = part.read_bytes()
        blob += data + bytes(-len(data) % 4096)
    three = tmp_path / "three.hipfb"
    three.write_bytes(blob)
    out = tmp_path / "three.parquet"
    scan([str(three)], out, workers=1, progress=False)
    rows = table(out)
    assert len(rows) == 18 and not any(r["error"] for r in rows)
    by_bundle = {}
    for r in rows:
        by_bundle.setdefault(r["source"].split()[1], {})[(r["target"], r["kernel"])] = r["vgpr_requested"]
    assert by_bundle["0"] == by_bundle["1"] != by_bundle["2"]


def test_kernel_units_give_the_same_table(builds: dict[str, Path], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """One unit per kernel (both cores busy on one large code object) gives the table one unit per code object
    gives: the oracle is the whole-code-object path, which the split must not change."""
    from isalens.scan import split

    paths = [str(builds["v1"]), str(builds["shared"])]
    monkeypatch.setattr(split, "KERNELS_PER_UNIT", 10_000)
    whole_units: list[Any] = []
    scan(paths, tmp_path / "whole.parquet", workers=1, on_unit=whole_units.append, progress=False)
    monkeypatch.setattr(split, "KERNELS_PER_UNIT", 1)
    units: list[Any] = []
    summary = scan(paths, tmp_path / "kernels.parquet", workers=2, on_unit=units.append, progress=False)
    # 2 files x 2 code objects (gfx90a, gfx1100) x 3 kernels: one unit per code object, then one per kernel
    assert len(whole_units) == 4 and len(units) == summary.analysed == 12
    assert all(u.kernels is not None and len(u.kernels) == 1 for u in units)
    assert table(tmp_path / "kernels.parquet") == table(tmp_path / "whole.parquet")


def test_analysis_passes_give_the_same_table(builds: dict[str, Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker analyses a unit's kernels in passes (scan.split.analysis_passes) to bound its memory; passes of
    one kernel each give the table one pass per unit gives: the oracle is the one-pass path, which the passes must
    not change (line numbers, DWARF and metadata are shared by the passes of one code object)."""
    from isalens.scan import split, work

    paths = [str(builds["v1"]), str(builds["shared"])]
    scan(paths, tmp_path / "one.parquet", workers=1, progress=False)
    loads: list[Any] = []
    real = work.load_code_object

    def counted(*args: Any, **kwargs: Any) -> Any:
        loads.append(kwargs["symbols"])
        return real(*args, **kwargs)

    monkeypatch.setattr(work, "load_code_object", counted)
    monkeypatch.setattr(split, "KERNELS_PER_PASS", 1)
    scan(paths, tmp_path / "passes.parquet", workers=1, progress=False)
    # 2 files x 2 code objects x 3 kernels, each unit's kernels in passes of one: 12 passes of one symbol
    assert len(loads) == 12 and all(len(symbols) == 1 for symbols in loads)
    assert table(tmp_path / "passes.parquet") == table(tmp_path / "one.parquet")


def test_progress_counts_kernels(builds: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bar's total is the kernels to analyse (2 code objects x 3 kernels, as `list` counts them), with a rate."""
    meta = metadata(builds["v1"], capsys)
    scan([str(builds["v1"])], tmp_path / "r.parquet", workers=1, progress=True)
    last = capsys.readouterr().err.split("\r")[-1]
    assert f"{len(meta)}/{len(meta)}" in last and "kernels/s" in last, last


def test_resume_is_per_kernel_and_remembers(builds: dict[str, Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted inside a code object, the next run analyses only its kernels not yet in a shard; a kernel that
    gave no row, and kernels --kernel leaves out, are not analysed again either."""
    from isalens.scan import split, work

    monkeypatch.setattr(split, "KERNELS_PER_UNIT", 1)
    paths = [str(builds["v1"])]
    out = tmp_path / "r.parquet"
    seen: list[tuple[str, tuple[str, ...]]] = []

    def stop_after_four(unit: Any) -> None:
        seen.append((unit.source, unit.kernels))
        if len(seen) == 5:
            raise KeyboardInterrupt

    first = scan(paths, out, workers=1, on_unit=stop_after_four, progress=False)
    assert first.interrupted and first.analysed == 4  # the first code object's 3 kernels and one of the second
    # the second run analyses the second code object's heavy, made to give no row, and is interrupted
    real = work.run_unit
    monkeypatch.setattr(work, "run_unit", lambda u, o: [r for r in real(u, o) if r["kernel"] != "heavy"])
    again: list[Any] = []

    def stop_at_second(unit: Any) -> None:
        again.append((unit.source, unit.kernels))
        if len(again) == 2:
            raise KeyboardInterrupt

    second = scan(paths, out, workers=1, on_unit=stop_at_second, progress=False)
    assert second.interrupted and second.analysed == 1 and second.skipped == 1
    assert again[0] == (seen[4][0], ("heavy",)) and again[0] not in seen[:4]
    monkeypatch.setattr(work, "run_unit", real)
    # the third: only lds is left; heavy, analysed without a row, is remembered in the shard directory
    third: list[Any] = []
    summary = scan(paths, out, workers=1, on_unit=third.append, progress=False)
    assert [u.kernels for u in third] == [("_Z3ldsPf",)] and not summary.interrupted
    assert len(table(out)) == 5
    # the memory lives with the shards: once the table is whole, the next run tries heavy again
    fourth: list[Any] = []
    scan(paths, out, workers=1, on_unit=fourth.append, progress=False)
    assert [u.kernels for u in fourth] == [("heavy",)]
    fresh = tmp_path / "fresh.parquet"
    scan(paths, fresh, workers=1, progress=False)
    assert table(out) == table(fresh)
    # --kernel: the code objects' other kernels never become units
    chosen: list[Any] = []
    scan(paths, tmp_path / "k.parquet", workers=1, on_unit=chosen.append, progress=False,
         options=ScanOptions(kernel="heavy"))
    assert [u.kernels for u in chosen] == [("heavy",), ("heavy",)]


def test_rows_of_a_debug_build_equal_those_of_the_whole_document(tmp_path: Path) -> None:
    # the scan reads no DWARF inlining entries (scan.work._ROWS_SHOW_INLINES) and runs no pass whose results
    # reach only lists (scan.work.ROWLESS_PASSES): its rows must equal those of the analyze document built with
    # every DWARF part read and every pass run
    from isalens.binary.codeobject import read_code_object
    from isalens.engine.binary import load_code_object
    from isalens.scan.rows import rows_from_document
    from isalens.scan.work import analyze_document
    from tests.conftest import EXAMPLES
    from tests.oracle.test_source_lines import _build

    path = _build(EXAMPLES / "kernels" / "source" / "inlined.cl", "gfx90a", tmp_path / "full.co", "-g")
    module = load_code_object(read_code_object(path.read_bytes(), file=str(path), source="code object"),
                              file=str(path))
    kernels = module.ir.kernels
    # the build really has what the scan skips (inlined call chains) and what it keeps (variables)
    assert any(f.inlined_at for k in kernels for f in k.source.frames)
    assert any(k.source.variables for k in kernels)
    expected = {r["kernel"]: r for r in rows_from_document(analyze_document(module, leave_out=()))}
    out = tmp_path / "r.parquet"
    assert main(["scan", str(path), "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    rows = {r["kernel"]: r for r in read_rows(out)}
    assert sorted(rows) == sorted(expected) and expected
    for name, row in expected.items():
        assert {key: rows[name].get(key) for key in row} == row, name
