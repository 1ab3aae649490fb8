"""The livereg command end to end: every output format agrees with the analysis it renders."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

import isalens
from isalens.cli import main
from tests.conftest import EXAMPLES, require_tool
from tests.fixtures.build import LlvmOutputs

EXAMPLE = EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["livereg", *args]) == 0
    return capsys.readouterr().out


def test_json_has_the_documented_keys_and_matches_the_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(run_cli(capsys, str(EXAMPLE), "--json"))
    assert doc["schema"] == 3 and doc["command"] == "livereg" and doc["files"][0]["diagnostics"] == []
    kernel = doc["files"][0]["kernels"][0]
    for key in ("name", "arch", "wave_size", "instructions", "vgpr", "sgpr", "agpr", "lines", "longest_lived"):
        assert key in kernel
    for file in ("vgpr", "sgpr", "agpr"):
        assert set(kernel[file]) >= {"peak_live", "peak_lines", "requested", "allocated", "declared"}
    line = kernel["lines"][0]
    assert set(line) >= {"line", "index", "text", "live_vgpr", "live_sgpr", "live_agpr", "live_vgpr_halves"}
    assert set(kernel["longest_lived"][0]) >= {"reg", "def_line", "last_use_line", "span"}

    result = isalens.load(EXAMPLE).kernels[0].analyze()
    assert [x["live_vgpr"] for x in kernel["lines"]] == list(result.pressure.vgpr.counts)
    assert [x["live_sgpr"] for x in kernel["lines"]] == list(result.pressure.sgpr.counts)
    # the compiler's own figures: requested equals .vgpr_count / .sgpr_count of this clang-19 output
    assert kernel["vgpr"]["requested"] == kernel["vgpr"]["declared"]
    assert kernel["sgpr"]["requested"] == kernel["sgpr"]["declared"]
    # the peak is a maximum of the per-line counts, reached at the lines it lists
    assert kernel["vgpr"]["peak_live"] == max(x["live_vgpr"] for x in kernel["lines"])
    at_peak = {x["line"] for x in kernel["lines"] if x["live_vgpr"] == kernel["vgpr"]["peak_live"]}
    assert set(kernel["vgpr"]["peak_lines"]) == at_peak
    # gfx9 allocates VGPRs in granules of 4 (LLVM getVGPRAllocGranule)
    assert kernel["vgpr"]["allocated"] == -(-kernel["vgpr"]["requested"] // 4) * 4
    spans = [r["span"] for r in kernel["longest_lived"]]
    assert spans == sorted(spans, reverse=True)


def test_text_view_lists_every_instruction_and_marks_the_peak(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_cli(capsys, str(EXAMPLE), "--color", "never")
    result = isalens.load(EXAMPLE).kernels[0].analyze()
    marked = [line for line in out.splitlines() if line[8:9] == "*"]
    assert len(marked) == len(result.pressure.vgpr.peak_indices)
    assert "requested" in out and "declared by compiler" in out


def test_summary_and_sgpr_map(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_cli(capsys, str(EXAMPLE), "--summary", "--reg", "sgpr")
    assert "live SGPRs at the first peak" in out


def test_rga_needs_one_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = tmp_path / "two.s"
    two.write_text("a:\n v_mov_b32_e32 v0, v1\n s_endpgm\n")
    out = run_cli(capsys, str(two), "--arch", "gfx900", "--rga")
    assert out.startswith("Legend:")


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("v_mov_b32_e32 v0, v1\ns_endpgm\n"))
    out = run_cli(capsys, "-", "--arch", "gfx1100", "--json")
    assert json.loads(out)["files"][0]["kernels"][0]["instructions"] == 2


@pytest.mark.parametrize("command", ["livereg", "analyze", "timing", "vliw"])
def test_stdin_is_named_stdin(command: str, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """Standard input is reported as ``<stdin>`` (it was ``<text>``, the API's name for a str), and a line that
    happens to be a file name is an instruction error, not advice to pass ``pathlib.Path``."""
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("v_mov_b32_e32 v0, v1\nv_bogus v1\n"))
    arch = ["--target", "rv770"] if command == "vliw" else ["--arch", "gfx1100"]
    assert main([command, "-", *arch]) == 2
    err = capsys.readouterr().err
    assert "<stdin>:" in err and "<text>" not in err
    monkeypatch.setattr("sys.stdin", io.StringIO("kernel.s\n"))
    assert main(["livereg", "-", "--arch", "gfx1100"]) == 2
    err = capsys.readouterr().err
    assert "<stdin>:1: error: cannot read 'kernel.s'" in err and "pathlib" not in err
    monkeypatch.setattr("sys.stdin", io.StringIO("v_mov_b32_e32 v0, v1\ns_endpgm\n"))
    assert json.loads(run_cli(capsys, "-", "--arch", "gfx1100", "--json"))["files"][0]["file"] == "<stdin>"


def test_own_objdump_needs_arch_and_resolves_numeric_branches(own_llvm: LlvmOutputs,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["livereg", str(own_llvm.objdump)]) == 2
    assert "--arch" in capsys.readouterr().err
    doc = json.loads(run_cli(capsys, str(own_llvm.objdump), "--arch", "gfx902", "--json"))
    # LLVM marks each loop of the same kernel's assembly with a "Loop Header: Depth=N" comment
    headers = re.findall(r"Loop Header: Depth=\d+", own_llvm.asm["gfx902"].read_text())
    assert len(headers) >= 2
    assert doc["files"][0]["kernels"][0]["cfg"]["loops"] == len(headers)


def test_own_compare_mixed_architectures_is_allowed_and_labelled(own_llvm: LlvmOutputs,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    _check_compare_mixed(own_llvm.asm["gfx902"], own_llvm.asm["gfx1100"], capsys)


def test_objdump_needs_arch_and_resolves_numeric_branches(samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = samples / "llvm" / "neighborhood_fp16.gfx902.objdump.txt"
    assert main(["livereg", str(dump)]) == 2
    assert "--arch" in capsys.readouterr().err
    doc = json.loads(run_cli(capsys, str(dump), "--arch", "gfx902", "--json"))
    assert doc["files"][0]["kernels"][0]["cfg"]["loops"] == 3


def test_livereg_shows_occupancy_and_the_granule_hint(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_cli(capsys, str(EXAMPLE), "--summary", "--color", "never")
    # clang-19 declares 150 VGPRs; gfx9 allocates in granules of 4: 152, and 150 mod 4 = 2 saves a granule
    assert "150 VGPRs used, 152 allocated out of 256; reduce by 2 to save a granule of 4" in out
    # LLVM's own comment in this file says "; Occupancy: 1"; 256 / 152 -> 1 wave per SIMD
    assert "LLVM's per-wave figure ('; Occupancy:'): 1" in out
    doc = json.loads(run_cli(capsys, str(EXAMPLE), "--json"))
    occ = doc["files"][0]["kernels"][0]["occupancy"]
    assert occ["llvm_occupancy"] == 1 and occ["limited_by"] == ["vgpr"]
    assert doc["files"][0]["kernels"][0]["vgpr_hint"]["reduce_by_to_save_a_granule"] == 2


def test_arch_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arch", "check"]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["arch", "show", "raven"]) == 0
    out = capsys.readouterr().out
    assert "gfx902" in out and "max_waves_per_simd" in out
    assert main(["arch", "show", "gfx9020"]) == 2


def test_analyze_json_csv_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path, png = tmp_path / "lines.csv", tmp_path / "pressure.png"
    args = ["analyze", str(EXAMPLE), "--json", "--csv", str(csv_path)]
    if importlib.util.find_spec("matplotlib"):
        args += ["--plot", str(png)]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    kernel = doc["files"][0]["kernels"][0]
    # every instruction has a class from the semantics table, none unknown, and the counts add up
    assert sum(kernel["instruction_classes"].values()) == kernel["instructions"]
    assert "unknown" not in kernel["instruction_classes"]
    rows = csv_path.read_text().splitlines()
    assert len(rows) == kernel["instructions"] + 1
    assert [int(r.split(",")[3]) for r in rows[1:]] == [x["live_vgpr"] for x in kernel["lines"]]
    if importlib.util.find_spec("matplotlib"):
        assert png.read_bytes().startswith(b"\x89PNG")


def test_analyze_several_files(capsys: pytest.CaptureFixture[str]) -> None:
    other = EXAMPLES / "isa" / "fp16_half3.gfx902.s"
    assert main(["analyze", str(EXAMPLE), str(other), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["kernels"][0]["name"] for f in doc["files"]] == ["resolve_half3_two_uint", "resolve_half3"]


def test_unwritable_output_and_missing_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing_dir = tmp_path / "no" / "such" / "dir"
    for flag in ("--html", "--csv"):
        assert main(["analyze", str(EXAMPLE), flag, str(missing_dir / "out")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("isalens: ") and str(missing_dir) in err[-1] and "Traceback" not in "".join(err)
    assert main(["analyze", str(EXAMPLE), "--kernel", "nope"]) == 2
    assert "no kernel named 'nope'" in capsys.readouterr().err
    assert main(["compare", str(EXAMPLE), "--kernel", "nope"]) == 2
    capsys.readouterr()


def test_compare_mixed_architectures_is_allowed_and_labelled(samples: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    llvm = samples / "llvm"
    _check_compare_mixed(llvm / "neighborhood_fp16.gfx902.s", llvm / "neighborhood_fp16.gfx1100.s", capsys)


def _check_compare_mixed(a: Path, b: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(a), str(b), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [k["arch"] for f in doc["files"] for k in f["kernels"]] == ["gfx902", "gfx1100"]
    assert [[v["label"] for v in p["variants"]] for p in doc["pairs"]] == [[a.name, b.name]]
    assert main(["compare", str(a), str(b)]) == 0
    table = capsys.readouterr().out
    assert "gfx902" in table and "gfx1100" in table


def test_analyze_json_carries_instruction_stats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(EXAMPLE), "--json"]) == 0
    kernel = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]
    stats = kernel["stats"]
    for key in ("code_bytes", "lds", "modifiers", "constants"):
        assert key in stats
    # one class table per kernel (issue 10): the stats carry none of their own
    assert "classes" not in stats
    # every instruction falls in exactly one class
    assert sum(kernel["instruction_classes"].values()) == kernel["instructions"]
    assert sum(stats["classes_weighted"].values()) >= kernel["instructions"]
    # the LDS table counts what the mix counts by mnemonic
    assert sum(stats["lds"].values()) >= 81


def test_decode_command(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("llvm-mc-19")
    # ds_read2st64_b32 v[45:46], v46 offset1:4 as printed in the gcn_1 listing fragment
    assert main(["decode", "D8700400", "2D00002E", "--arch", "gfx902"]) == 0
    assert "ds_read2st64_b32 v[45:46], v46 offset1:4" in capsys.readouterr().out
    assert main(["decode", "D87004", "--arch", "gfx902"]) == 2
    assert "D87004" in capsys.readouterr().err


def test_compiler_figures_are_one_line_per_kernel() -> None:
    """LLVM's metadata names each figure ``kernel/key``: the text groups them per kernel shown, keys without a
    kernel (the compiler's name, ACO's statistics) as before."""
    from isalens.report.text import compiler_stats_lines
    stats: dict[str, object] = {"a/NumVgprs": 6, "a/.sgpr_count": 11, "b/NumVgprs": 5, "compiler": "clang 19"}
    assert compiler_stats_lines(stats, {"a", "b"}) == [
        "compiler's own figures:", "  a: NumVgprs 6, .sgpr_count 11", "  b: NumVgprs 5", "  compiler clang 19"]
    assert compiler_stats_lines(stats, {"b"}) == ["compiler's own figures:", "  b: NumVgprs 5", "  compiler clang 19"]
    assert compiler_stats_lines({"VGPRs": 8, "SGPRs": 128}, {"main"}) == ["compiler's own figures: VGPRs 8, SGPRs 128"]


@pytest.mark.parametrize("args", [
    ["analyze", str(EXAMPLE), "--plot", "{tmp}/chart.txt"],
    ["analyze", str(EXAMPLE), "--html", "{tmp}/missing/report.html"],
    ["analyze", str(EXAMPLE), "--csv", "{tmp}/missing/lines.csv"],
    ["analyze", str(EXAMPLE), str(EXAMPLE), "--html", "{tmp}/report.html"],
    ["compare", str(EXAMPLE), str(EXAMPLE), "--plot", "{tmp}/missing/chart.svg"],
    ["occupancy", "--arch", "gfx902", "--vgprs", "40", "--plot", "{tmp}/chart.pdf"],
    ["sweep", str(EXAMPLES / "kernels" / "control" / "loops.cl"), "--arch", "gfx902", "--plot", "{tmp}/x/c.png"],
])
def test_a_bad_output_file_is_refused_before_the_work(args: list[str], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """An output file with the wrong ending, in a directory that does not exist, or --html of several files: exit
    2 with one line naming it, nothing on stdout (the whole report was printed first, then the error)."""
    assert main([a.replace("{tmp}", str(tmp_path)) for a in args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert re.search(r"(written as \.png or \.svg|no such directory|writes one file's report)", captured.err)
    assert not list(tmp_path.iterdir())


def test_compile_flags_on_isa_text_are_noted(capsys: pytest.CaptureFixture[str]) -> None:
    """-D and -O given with ISA text were ignored without a word: a note names them and the inputs that leave
    them unread (source files read them: not named), the analysis as without them."""
    from isalens.cli.common import note_unused_compile_flags
    from isalens.engine import LoadOptions

    assert main(["livereg", str(EXAMPLE), "--summary", "-O0", "-D", "X=1"]) == 0
    err = capsys.readouterr().err
    assert "note: -D, -O apply to source files" in err and err.rstrip().endswith(f"ignored for {EXAMPLE}")
    note_unused_compile_flags(LoadOptions(debug_info="none"), ["k.cl", "-", "x.s"])
    assert capsys.readouterr().err.rstrip().endswith("--no-debug-info applies to source files isalens compiles "
                                                     "(.cl .hip .ll .comp .frag .vert .hlsl ...); ignored for "
                                                     "<stdin>, x.s")
    note_unused_compile_flags(LoadOptions(defines=("A",)), ["k.cl", "s.comp"])
    note_unused_compile_flags(LoadOptions(), ["x.s"])
    assert capsys.readouterr().err == ""


def test_agpr_column_on_a_target_without_agprs_is_noted(capsys: pytest.CaptureFixture[str]) -> None:
    """``--reg agpr`` on gfx902 printed a column of zeros without a word; the arch data says gfx902 has none."""
    from isalens.arch.loader import get_arch

    assert get_arch("gfx902").agprs == 0 and get_arch("gfx90a").agprs > 0
    assert main(["livereg", str(EXAMPLE), "--reg", "agpr"]) == 0
    assert "note: gfx902 has no AGPRs (CDNA targets have them)" in capsys.readouterr().err
    assert main(["livereg", str(EXAMPLE), "--reg", "vgpr", "--summary"]) == 0
    assert "AGPR" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["analyze", "compare", "advise", "timing"])
def test_keep_asm_of_several_compiled_sources_is_refused(command: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # each compile wrote the one --keep-asm file, the last to finish winning (compare compiles in parallel); with
    # one source among ISA text the file is that source's assembly and stays allowed. Refused before any compile
    # (no compiler is needed here)
    one, two = tmp_path / "a.cl", tmp_path / "b.cl"
    for f in (one, two):
        f.write_text("__kernel void k(__global float *p) { p[0] = 1.0f; }\n")
    kept = tmp_path / "kept.s"
    assert main([command, str(one), str(two), "--arch", "gfx1030", "--keep-asm", str(kept)]) == 2
    err = capsys.readouterr().err
    assert f"{kept}: error: --keep-asm keeps one assembly, and 2 source files are compiled here" in err
    assert err.count("\n") == 1 and not kept.exists()


def test_sweep_table_names_kernels_demangled_and_in_full() -> None:
    from isalens.report.sweep import SweepRow, render_sweep_text

    short, long = "_Z9transposePfPKfi", "_Z6reduceILi256EEvPKfPfiiiS1_"
    rows = [SweepRow({"TILE": "16"}, "gfx90a", short, instructions=88),
            SweepRow({"TILE": "16"}, "gfx90a", long, instructions=90)]
    head, _rule, first, second, *_ = render_sweep_text(rows).splitlines()
    # demangled by hand: transpose(float*, float const*, int) (36 characters, shown whole, not cut at 16), and
    # void reduce<256>(float const*, float*, int, int, int, float*) (61: past 40, shortened with "...")
    assert "transpose(float*, float const*, int) " in first
    assert "void reduce<256>(float const*, float*... " in second  # its first 37 characters and "..."
    # the columns after the name line up with the header's
    end = head.index("instrs") + len("instrs")
    assert (first[end - 2:end], second[end - 2:end]) == ("88", "90")


def test_sweep_notes_variants_that_write_different_numbers_of_values() -> None:
    from isalens.report.sweep import SweepRow, render_sweep_text, sweep_dict

    def row(tile: str, stores: int, instructions: int) -> SweepRow:
        return SweepRow({"TILE": tile}, "gfx90a", "_Z9transposePfPKfi", instructions=instructions,
                        waves_per_simd=8, stores=stores)

    # a transpose tile of TILE x TILE covered by TILE x 8 threads: each work-item writes TILE / 8 values
    differ = [row("16", 2, 88), row("32", 4, 150)]
    text = render_sweep_text(differ)
    assert "store instructions: TILE=16: 2, TILE=32: 4" in text and "compare instructions per store" in text
    assert [k["stores"] for f in sweep_dict(differ)["files"] for k in f["kernels"]] == [2, 4]
    same = [row("16", 2, 88), row("32", 2, 150)]
    assert "note:" not in render_sweep_text(same)
