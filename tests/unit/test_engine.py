"""The orchestrator's promises: the Python API returns what the CLI prints, several files run side by side
and one bad file does not stop the others, and the CLI starts without loading the heavy layers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import isalens
from isalens.cli import main
from isalens.cli.common import DIALECTS
from isalens.cli.vliw import DIALECTS as VLIW_DIALECTS
from tests.conftest import ROOT

EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))


def test_api_analyze_equals_the_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES[0]
    assert main(["analyze", str(path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert isalens.analyze(path).to_dict() == printed
    # several files: the same, file by file, under "files"
    assert main(["analyze", *map(str, EXAMPLES), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert isalens.analyze(EXAMPLES, jobs=1).to_dict() == printed
    assert [f["file"] for f in printed["files"]] == [str(p) for p in EXAMPLES]


def test_a_file_without_a_kernel_does_not_stop_the_others(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "notes.s"
    empty.write_text("; only a comment\n")
    good = EXAMPLES[0]
    code = main(["analyze", str(good), str(empty), str(good), "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    doc = json.loads(out)
    assert [("error" in f) for f in doc["files"]] == [False, True, False]
    assert doc["files"][0]["kernels"] and doc["files"][2]["kernels"]
    # the failed file's one line names it
    lines = [line for line in err.splitlines() if "notes.s" in line]
    assert len(lines) == 1 and "error" in lines[0]
    # text output too: the good files are printed
    assert main(["analyze", str(empty), str(good)]) == 2
    out, _ = capsys.readouterr()
    assert f"== {good}" in out and "VGPR" in out


def test_files_in_parallel_equal_files_one_by_one() -> None:
    serial = isalens.analyze(EXAMPLES, jobs=1).to_dict()
    parallel = isalens.analyze(EXAMPLES, jobs=2).to_dict()
    assert serial == parallel


def test_files_without_listing_render_the_same_text(capsys: pytest.CaptureFixture[str]) -> None:
    """The text view (no listing) has its workers leave the rows out; what it prints is what the full
    reports print, and the row it names at the VGPR peak is the listing's."""
    from isalens.ir.registers import RegFile
    from isalens.report.text import render_text

    full = isalens.analyze(EXAMPLES, jobs=1)
    lean = isalens.analyze(EXAMPLES, jobs=2, listing=False)
    for a, b in zip(full.files, lean.files, strict=True):
        assert a.report is not None and b.report is not None
        for ka, kb in zip(a.report.kernels, b.report.kernels, strict=True):
            assert len(ka.lines) == ka.instructions and len(kb.lines) == 0
            assert kb.peak_row == ka.lines[ka.vgpr.peak_indices[0]]
        assert render_text(b.report, RegFile.VGPR, color=False, listing=False) == \
            render_text(a.report, RegFile.VGPR, color=False, listing=False)
        assert "VGPRs of data in 16-bit halves" in render_text(b.report, RegFile.VGPR, color=False, listing=False)


def test_compare_variants_in_parallel_equal_one_by_one(tmp_path: Path) -> None:
    from isalens.engine import compare_variants
    from isalens.report.compare import Build, compare_dict

    files = EXAMPLES[:3]
    serial = compare_variants(files, jobs=1)
    parallel = compare_variants(files, jobs=2)  # two worker processes: each variant is pickled back
    assert compare_dict([Build(f.name, str(f), ks) for f, ks in zip(files, parallel, strict=True)]) == \
        compare_dict([Build(f.name, str(f), ks) for f, ks in zip(files, serial, strict=True)])
    assert [k.vgpr_counts for ks in parallel for k in ks] == [k.vgpr_counts for ks in serial for k in ks]
    # the first failing file, in the order given, is the one reported
    bad = tmp_path / "bad.s"
    bad.write_text("v_add_f32 v0, v1\n")
    with pytest.raises(isalens.IsalensError, match=r"bad\.s"):
        compare_variants([files[0], bad, files[1]], jobs=2)


def test_load_options_come_as_keywords_or_as_an_object() -> None:
    with pytest.raises(TypeError):
        isalens.analyze(EXAMPLES[0], isalens.LoadOptions(), arch="gfx902")
    doc = isalens.analyze(EXAMPLES[0], arch="gfx902").to_dict()
    assert doc["files"][0]["kernels"][0]["arch"] == "gfx902"


def test_cli_dialect_lists_equal_the_readers() -> None:
    from isalens.isa import r600
    from isalens.isa.registry import DIALECTS as READERS
    assert DIALECTS == READERS
    assert VLIW_DIALECTS == r600.DIALECTS


def test_help_does_not_import_the_heavy_layers() -> None:
    # the CLI's own modules only: front ends, plotting, readers and analyses load when a command runs
    code = ("import sys; from isalens.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith(('isalens.frontends', 'isalens.isa', "
            "'isalens.analysis', 'isalens.report', 'isalens.engine', 'matplotlib'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("name", "code"), [("fp16_half3.gfx902.s", 0), ("missing.s", 2)])
def test_the_command_flushes_runs_exit_handlers_and_exits_with_mains_code(name: str, code: int) -> None:
    """``isalens`` ends with ``os._exit`` (no interpreter teardown): its output must still be complete, the
    exit handlers must still run (RADV's runtime directory is removed by one) and the code is main's. The
    cyclic collector is still paused when they run (resumed, its first pass would walk every object the command
    made, for nothing)."""
    path = ROOT / "examples" / "isa" / name
    script = ("import atexit, gc, sys; atexit.register(lambda: print('handler ran', gc.isenabled())); "
              f"sys.argv = ['isalens', 'livereg', '--json', {str(path)!r}]; "
              "from isalens.cli import run; run()")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as for most users
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, env=env)
    assert proc.returncode == code
    assert proc.stdout.endswith("handler ran False\n")
    if code == 0:
        doc = json.loads(proc.stdout.removesuffix("handler ran False\n"))
        assert doc["files"][0]["kernels"][0]["instructions"] > 100
    else:
        assert proc.stderr.count("\n") == 1 and "missing.s" in proc.stderr


def test_analyze_carries_timing_and_advice(capsys: pytest.CaptureFixture[str]) -> None:
    doc = isalens.analyze(ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s").to_dict()
    (kernel,) = doc["files"][0]["kernels"]
    assert {"loops", "kernel"} <= set(kernel["timing"]) and kernel["timing"]["loops"]
    assert all({"kind", "lines", "message", "effect"} <= set(a) for a in kernel["advice"])
    assert "occupancy" in {a["kind"] for a in kernel["advice"]}
    assert main(["analyze", str(ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s")]) == 0
    out = capsys.readouterr().out
    assert "timing of resolve_half3_two_uint" in out and "advice for resolve_half3_two_uint" in out


def test_analyze_says_when_a_target_has_no_timing_facts() -> None:
    doc = isalens.analyze("v_add_f32 v0, v1, v2\ns_endpgm\n", arch="gfx700").to_dict()
    (kernel,) = doc["files"][0]["kernels"]
    assert "no timing facts for gfx700" in kernel["timing"]["unavailable"]


def test_a_report_sent_to_another_process_renders_the_same() -> None:
    """analyze's process pool pickles each file's result: the listing rows, built on demand from the
    kernel's analysis, travel as plain rows and render to the same JSON document."""
    import pickle

    from isalens.engine import analyze_file
    from isalens.report.json import report_dict

    result = analyze_file(Path(__file__).resolve().parents[2] / "examples" / "isa" / "fp16_half3.gfx902.s")
    assert result.report is not None
    copy = pickle.loads(pickle.dumps(result))
    assert copy.report is not None
    assert report_dict(copy.report) == report_dict(result.report)
    assert len(copy.report.kernels[0].lines) == result.report.kernels[0].instructions > 100
    # the statistics and timing rows, also made on demand, travel as their rows
    old, new = result.report.kernels[0], copy.report.kernels[0]
    assert old.stats is not None and new.stats is not None and old.timing is not None and new.timing is not None
    assert tuple(new.stats.lines) == tuple(old.stats.lines) and len(old.stats.lines) == old.instructions
    assert tuple(new.timing.profile.lines) == tuple(old.timing.profile.lines) and len(old.timing.profile.lines) > 100


def test_analyses_leave_no_reference_cycles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI pauses the cyclic garbage collector for a command (cli.main), so an object graph with a
    cycle would stay in memory until the process ends: a recursive closure in the timing model kept every
    block schedule of a kernel alive that way. Every analysis of the ISA examples (loops, every optional
    pass), as JSON, HTML and text, must leave nothing only the collector could free."""
    import argparse
    import gc

    nested = ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s"
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in EXAMPLES:
            isalens.analyze(path).to_dict()
        for args in (["timing", str(nested), "--lines", "--json"],
                     ["analyze", str(nested), "--html", str(tmp_path / "r.html")],
                     ["advise", str(nested)], ["compare", str(nested), str(nested)]):
            assert main(args) == 0
        capsys.readouterr()
        gc.collect()
        # the argument parser's own cycles (sub-parsers, their parent and their actions, our --version action
        # among them; a help formatter and its root section, our examples formatter among them) are made
        # once per parser
        ours = [type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith("isalens")
                and not isinstance(o, argparse.ArgumentParser | argparse.Action | argparse.HelpFormatter)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert ours == []


def test_a_finished_report_keeps_no_query_cache_alive() -> None:
    """The peak pass's reaching-definition queries keep a block summary and their answers; they belong to the
    pass's own query object, so nothing of them outlives the analysis (compare analyses one file after another
    and must not carry the first's)."""
    import gc

    from isalens.analysis import lifetimes

    report = isalens.analyze(EXAMPLES[0])
    assert report.files[0].report is not None and report.files[0].report.kernels[0].peak_live_set["vgpr"]
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, lifetimes._BlockSummary)]
