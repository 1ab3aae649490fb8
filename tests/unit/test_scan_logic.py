"""The parts of scan, diff and check that need no compiler: flattening the analyze document, the --fail-on
rules and budgets, on rows written out here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from isalens.errors import IsalensError
from isalens.scan.budget import check_rows, read_budget
from isalens.scan.diff import diff_rows, parse_fail_on
from isalens.scan.rows import rows_from_document


def row(kernel: str, target: str = "gfx90a", **figures: Any) -> dict[str, Any]:
    base = {"file": "/x/a.hipfb", "source": "bundle 0", "target": target, "kernel": kernel, "error": None,
            "vgpr_requested": 10, "sgpr_requested": 20, "occupancy_waves": 8.0, "spills": 0, "code_bytes": 100}
    return {**base, **figures}


def test_rows_flatten_the_document() -> None:
    doc = {"kernels": [
        {"name": "k", "is_kernel": True, "vgpr": {"requested": 12, "peak_lines": [3, 4]},
         "occupancy": {"waves_per_simd": 4.0, "limited_by": ["vgpr", "lds"], "limits": {"vgpr": 4}},
         "declared_raw": {".vgpr_spill_count": "2", ".sgpr_spill_count": "1", ".group_segment_fixed_size": "1024"},
         "stats": {"code_bytes": 64, "classes": {"valu.f32": 3}}, "lines": [{"line": 1}]},
        {"name": "helper", "is_kernel": False},
    ]}
    rows = rows_from_document(doc, file="f", source="s")
    assert len(rows) == 1  # the non-kernel function is not a row
    r = rows[0]
    assert (r["kernel"], r["file"], r["vgpr_requested"], r["occupancy_limits_vgpr"]) == ("k", "f", 12, 4)
    assert (r["occupancy_waves"], r["occupancy_limiter"]) == (4.0, "vgpr,lds")
    assert (r["spills"], r["vgpr_spills"], r["lds_bytes"], r["code_bytes"]) == (3, 2, 1024, 64)
    assert r["stats_classes_valu_f32"] == 3
    assert "lines" not in r and r["vgpr_peak_lines"] == "[3, 4]"


def test_fail_on_rules() -> None:
    base = [row("a"), row("b"), row("c")]
    new = [row("a", vgpr_requested=19), row("b", vgpr_requested=18, occupancy_waves=4.0), row("c", spills=2),
           row("d", spills=1)]
    doc = diff_rows(base, new, parse_fail_on("occupancy<, vgpr>+8, spills>0"))
    assert sorted(k["kernel"] for k in doc["changed"]) == ["a", "b", "c"]
    assert [k["kernel"] for k in doc["added"]] == ["d"]
    # a grew by 9 (> 8), b by 8 (not > 8) but lost occupancy; c and the new d spill
    assert sorted((f["kernel"], f["rule"]) for f in doc["failures"]) == [
        ("a", "vgpr>+8"), ("b", "occupancy<"), ("c", "spills>0"), ("d", "spills>0")]
    assert diff_rows(base, base, parse_fail_on("occupancy<, vgpr>+8, spills>0"))["failures"] == []


def test_one_file_against_several_matches_by_name() -> None:
    """A scan of one file against a scan of it and others: its kernels are the same kernels (they were each added
    and removed: the one-file side keyed them without a file name, the other with it). One file against one file
    still matches whatever the files are called (a renamed build)."""
    base = [row("a", file="/old/x.co"), row("b", file="/old/x.co")]
    new = [row("a", file="/new/x.co"), row("b", file="/new/x.co", vgpr_requested=12), row("c", file="/new/y.co")]
    doc = diff_rows(base, new)
    assert ([k["kernel"] for k in doc["changed"]], [k["kernel"] for k in doc["added"]], doc["removed"],
            doc["unchanged"]) == (["b"], ["c"], [], 1)
    renamed = diff_rows(base, [{**r, "file": "/new/x-1.1.co"} for r in base])
    assert (renamed["added"], renamed["removed"], renamed["unchanged"]) == ([], [], 2)
    assert len(diff_rows(base, [*new[:2], row("a", file="/new/z.co")])["added"]) == 1


@pytest.mark.parametrize("bad", ["vgpr>>3", "speed<", "vgpr 3"])
def test_fail_on_rejects(bad: str) -> None:
    with pytest.raises(IsalensError):
        parse_fail_on(bad)


def test_budget(tmp_path: Path) -> None:
    path = tmp_path / "isalens.toml"
    path.write_text('[defaults]\nspills = 0\n[[budget]]\nkernel = "gemm_*"\nvgpr = 64\noccupancy = 4\n')
    budget = read_budget(path)
    rows = [row("gemm_big", vgpr_requested=80, occupancy_waves=3.0), row("gemm_ok", vgpr_requested=64),
            row("other", vgpr_requested=200, spills=1), {**row("broken"), "error": "corrupt"}]
    doc = check_rows(rows, budget)
    assert sorted((v["kernel"], v["metric"]) for v in doc["violations"]) == [
        ("broken", "error"), ("gemm_big", "occupancy_waves"), ("gemm_big", "vgpr_requested"), ("other", "spills")]
    path.write_text("[[budget]]\nvgpr = 'many'\n")
    with pytest.raises(IsalensError, match="must be a number"):
        read_budget(path)


def test_a_limit_whose_figure_the_input_does_not_give_is_not_kept(tmp_path: Path) -> None:
    """ISA text without metadata gives no LDS size or spill count: such a row has None there, and a limit on it
    was passed silently; now it breaks the budget (value None), or with ``allow_unanalysed`` is listed apart."""
    path = tmp_path / "isalens.toml"
    path.write_text("[defaults]\nspills = 0\nlds = 1024\n")
    budget = read_budget(path)
    rows = [row("text", spills=None, lds_bytes=None), row("meta", lds_bytes=512)]
    doc = check_rows(rows, budget)
    assert sorted((v["kernel"], v["metric"], v["value"]) for v in doc["violations"]) == [
        ("text", "lds_bytes", None), ("text", "spills", None)]
    assert [(u["kernel"], u["metric"]) for u in doc["unmeasured"]] == [("text", "spills"), ("text", "lds_bytes")]
    allowed = check_rows(rows, budget, allow_unanalysed=True)
    assert allowed["violations"] == [] and len(allowed["unmeasured"]) == 2


def test_a_diff_rule_whose_figure_the_input_does_not_give_is_not_kept() -> None:
    """``spills>0`` on kernels without a spill count passed silently (``crossed`` is false without a figure); an
    absolute rule needs the new figure, a rule against the base both."""
    rules = parse_fail_on("spills>0,vgpr>+2,lds<")
    base = [row("a", lds_bytes=None), row("b", lds_bytes=64)]
    new = [row("a", spills=None, lds_bytes=None), row("b", lds_bytes=64), row("c", spills=None)]
    doc = diff_rows(base, new, rules)
    assert sorted((u["kernel"], u["rule"]) for u in doc["unmeasured"]) == [
        ("a", "lds<"), ("a", "spills>0"), ("c", "spills>0")]
    assert sorted((f["kernel"], f["rule"]) for f in doc["failures"] if f.get("measured") is False) == [
        ("a", "lds<"), ("a", "spills>0"), ("c", "spills>0")]
    # "b" has every figure and crosses nothing; allowed, nothing fails
    assert diff_rows(base, new, rules, allow_unanalysed=True)["failures"] == []


def test_radv_statistics_fill_lds_scratch_and_spills() -> None:
    """A RADV dump has no code-object metadata; ACO's statistics give the same figures (Mesa: "LDS size in bytes
    per workgroup", "Private memory in bytes per subgroup", registers "spilled per subgroup")."""
    kernel = {"name": "main", "wave_size": 64, "declared_raw": {
        "LDS size": "5632", "Scratch size": "1024", "Spilled VGPRs": "3", "Spilled SGPRs": "2"}}
    r = rows_from_document({"kernels": [{**kernel, "is_kernel": True}]}, file="f", source="s")[0]
    # 1024 bytes per wave64 / 64 lanes = 16 bytes per work-item
    assert (r["lds_bytes"], r["scratch_bytes"], r["vgpr_spills"], r["sgpr_spills"], r["spills"]) == (5632, 16, 3, 2, 5)


# ------------------------------------------------------------------------------------ the pool's workers


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _error_unit() -> Any:
    from isalens.scan.units import Unit

    return Unit("/x/gone.co", "file", "unreadable", "error", error=("cannot read: gone", "io"))


def test_pool_workers_keep_the_collector_paused() -> None:
    """The workers run with Python's cyclic collector paused (it walked their ~500k cached objects over and over:
    docs/performance.md); the earlier initializer enabled it, so this fails on it."""
    import gc

    from isalens.scan import run, work

    pool = run._Pool(2)
    try:
        rows = pool.submit(_error_unit(), work.ScanOptions()).result()
        assert rows[0]["error_code"] == "io"
        assert [pool.pool.submit(gc.isenabled).result() for _ in range(4)] == [False] * 4
    finally:
        pool.close()


def test_worker_collects_cycles_once_live_objects_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Between units a worker collects reference cycles once the live objects grew past the threshold, and
    not before (a unit's garbage cycles stay bounded without the automatic collector)."""
    import gc
    import weakref

    from isalens.scan import run, work

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        cycle = _Cycle()
        dead = weakref.ref(cycle)
        del cycle
        monkeypatch.setattr(run, "_COLLECT_AFTER_OBJECTS", 10**9)  # far more than this test makes
        run._run_unit(_error_unit(), work.ScanOptions())
        assert dead() is not None  # not collected: below the threshold
        monkeypatch.setattr(run, "_COLLECT_AFTER_OBJECTS", 0)
        run._run_unit(_error_unit(), work.ScanOptions())
        assert dead() is None
    finally:
        if was_enabled:
            gc.enable()


def test_an_error_row_names_the_line(tmp_path: Path) -> None:
    """A text file with an unknown instruction on line 3: its error row says so (``error_line``) and check's
    message names ``file:3``, as every diagnostic does (the row had the message without its line)."""
    from isalens.scan.rows import row_place
    from isalens.scan.units import iter_units
    from isalens.scan.work import ScanOptions, run_unit

    bad = tmp_path / "bad.s"
    bad.write_text("v_mov_b32 v0, v1\ns_nop 0\nv_bogus v1\ns_endpgm\n")
    (unit,) = iter_units([bad])
    (error,) = run_unit(unit, ScanOptions(arch="gfx902"))
    assert error["error_code"] == "unknown-instruction" and error["error_line"] == 3
    assert row_place(error).startswith(f"{bad}:3, target")
    assert diff_rows([], [error])["errors"][0]["line"] == 3
    budget_file = tmp_path / "isalens.toml"
    budget_file.write_text("[defaults]\nspills = 0\n")
    assert check_rows([error], read_budget(budget_file))["unanalysed"][0]["line"] == 3
    assert row_place({**row("k"), "error": "x"}) == "/x/a.hipfb (bundle 0), target gfx90a, kernel k"
    assert row_place({**row("k"), "source": "file", "file": "/x/a.co"}).startswith("/x/a.co, target")
