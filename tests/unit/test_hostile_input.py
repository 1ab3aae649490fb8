"""Issue 11's reproducers: careless and hostile input gives a result or one clear line, never a crash or a
blow-up. Forms that exhausted memory or hung run in a child process with a memory ceiling and a generous
timeout (a hang detector, not a speed test: speed is measured in benchmarks/robustness.py)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import isalens
from isalens.cli import main
from isalens.engine.load import load
from isalens.engine.vliw import analyze_vliw, load_vliw
from isalens.errors import InputError
from isalens.isa.amdgcn.syntax import SyntaxProblem, parse_operand
from tests.conftest import ROOT

_LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
from isalens.cli import main
sys.exit(main(sys.argv[1:]))
"""
#: child address-space ceiling: the interpreter and isalens need about 100 MB; the blow-ups wanted gigabytes
_MEMORY_CEILING = 600 * 1024 * 1024
#: a hang detector only: every form here finishes in well under a second (docs/robustness.md)
_HANG_TIMEOUT = 60


def run_limited(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``isalens ARGS`` in a child process with a memory ceiling; a hang fails the test instead of the run."""
    code = _LIMITED.format(mem=_MEMORY_CEILING)
    env = {**os.environ, "PYTHONPATH": str(Path(isalens.__file__).parents[1])}
    try:
        return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                              timeout=_HANG_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"isalens {' '.join(args)} did not finish in {_HANG_TIMEOUT} s")


def one_line_error(result: subprocess.CompletedProcess[str] | tuple[int, str], fragment: str,
                   line: int | None = None) -> str:
    code, err = (result.returncode, result.stderr) if isinstance(result, subprocess.CompletedProcess) else result
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2, err
    assert len(lines) == 1 and "Traceback" not in err and "internal error" not in err, err
    assert fragment in lines[0], lines[0]
    if line is not None:
        assert f":{line}:" in lines[0], lines[0]
    return lines[0]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------------- peak on the last line

def test_pasted_snippet_without_s_endpgm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "snippet.s"
    path.write_text("v_add_f32 v0, v1, v2\n")
    code, out, err = cli(capsys, "livereg", str(path), "--arch", "gfx902", "--json")
    assert code == 0, err
    kernel = json.loads(out)["files"][0]["kernels"][0]
    # |In u Out u Defs| at the only line: v1, v2 read and v0 written -> 3, and that line is the peak
    assert kernel["vgpr"]["peak_live"] == 3
    assert kernel["vgpr"]["peak_lines"] == [1]
    # the values live across the peak (In u Out) are v1 and v2: never written here, read on line 1
    live = {v["reg"]: (v["def_lines"], v["next_use_lines"]) for v in kernel["peak_live_set"]["vgpr"]}
    assert live == {"v1": ([], [1]), "v2": ([], [1])}


# ------------------------------------------------------------------------- blow-ups

@pytest.mark.parametrize("shift", ["0x7fffffff", "-1"])
def test_lds_stride_shift_uses_five_bits(tmp_path: Path, shift: str) -> None:
    (tmp_path / "k.s").write_text(f"v_lshlrev_b32 v1, {shift}, v0\nds_read_b32 v2, v1\ns_endpgm\n")
    result = run_limited("analyze", "k.s", "--arch", "gfx902", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    access = json.loads(result.stdout)["files"][0]["kernels"][0]["stats"]["lds_accesses"][0]
    # the hardware shifts by the amount's low 5 bits: 0x7fffffff & 31 = -1 & 31 = 31, so lane L reads
    # (L << 31) mod 2**32: even lanes dword 0, odd lanes dword 0x20000000, both in bank 0 -> 2 distinct
    # dwords in one bank, one pass -> 2-way
    assert access["lane_stride"] % 2**32 == 2**31
    assert access["bank_conflict_degree"] == 2


@pytest.mark.parametrize("command", ["livereg", "decode"])
def test_huge_register_range_is_rejected_before_allocation(tmp_path: Path, command: str) -> None:
    (tmp_path / "k.s").write_text("v_mov_b32 v[0:9999999999], 0 // 000000000000: 7E000280\ns_endpgm\n")
    args = ["decode", "--file", "k.s"] if command == "decode" else ["livereg", "k.s"]
    result = run_limited(*args, "--arch", "gfx902", cwd=tmp_path)
    one_line_error(result, "out of range", line=1)


def test_index_with_thousands_of_digits(tmp_path: Path) -> None:
    (tmp_path / "k.s").write_text(f"v_mov_b32 v{'9' * 5000}, 0\ns_endpgm\n")
    one_line_error(run_limited("livereg", "k.s", "--arch", "gfx902", cwd=tmp_path), "out of range", line=1)


# ------------------------------------------------------------------------- other crashes

def test_wave32_on_a_wave64_only_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.s"
    path.write_text("v_add_f32 v0, v1, v2\ns_endpgm\n")
    source = tmp_path / "k.cl"  # refused before clang runs: no compiler needed
    source.write_text("__kernel void k(__global float* a) { a[0] = 1.0f; }\n")
    for args in (["livereg", str(path)], ["analyze", str(path)], ["decode", "7E000280"], ["livereg", str(source)]):
        code, _, err = cli(capsys, *args, "--arch", "gfx902", "--wave", "32")
        assert "wave64, not wave32" in one_line_error((code, err), "gfx902")


def test_declared_wave_size_the_target_lacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.s"
    path.write_text(_llvm_file(".wavefront_size: 32"))
    code, _, err = cli(capsys, "livereg", str(path))
    one_line_error((code, err), "wave64, not wave32")


def test_leading_zero_is_octal_as_in_llvm_mc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # llvm-mc-19 -mcpu=gfx902 assembles `s_nop 010` as `s_nop 8` and rejects `09` (test_llvm_mc_agrees below)
    imm = parse_operand("010")
    assert getattr(imm, "value", None) == 8
    with pytest.raises(SyntaxProblem, match="octal"):
        parse_operand("09")
    path = tmp_path / "k.s"
    path.write_text("s_nop 010\ns_endpgm\n")
    code, _, err = cli(capsys, "livereg", str(path), "--arch", "gfx902")
    assert code == 0, err


def test_aco_dialect_forced_on_a_listing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.isa"
    path.write_text("  s_nop 0  // 00000090: BF800000\n  s_endpgm  // 00000094: BF810000\n")
    code, _, err = cli(capsys, "livereg", str(path), "--arch", "gfx902", "--dialect", "aco")
    assert "--dialect listing" in one_line_error((code, err), "k.isa", line=1)


def _llvm_file(metadata: str, target: str = "gfx902") -> str:
    """A minimal clang -S style file for ``target`` with one kernel and ``metadata`` in its YAML entry (with
    the fields llvm-mc-19 requires, so it assembles: test_llvm_mc_accepts_flow_style_metadata)."""
    fields = {".args": "[]", ".group_segment_fixed_size": "0", ".kernarg_segment_align": "8",
              ".kernarg_segment_size": "0", ".max_flat_workgroup_size": "64", ".name": "k",
              ".private_segment_fixed_size": "0", ".sgpr_count": "4", ".symbol": "k.kd", ".vgpr_count": "4",
              ".wavefront_size": "64"}
    key, _, value = metadata.partition(": ")
    fields[key] = value
    entry = "\n".join(f"    {k}: {v}" for k, v in sorted(fields.items())).replace("    .args", "  - .args", 1)
    return (f'\t.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n\t.text\n\t.globl k\n\t.p2align 8\n'
            "\t.type k,@function\nk:\n\tv_add_f32_e32 v1, v2, v3\n\ts_endpgm\n.Lfunc_end0:\n"
            "\t.size k, .Lfunc_end0-k\n\t.amdgpu_metadata\n---\namdhsa.kernels:\n"
            f"{entry}\namdhsa.target: amdgcn-amd-amdhsa--{target}\n"
            "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n")


def test_yaml_flow_sequence_metadata(tmp_path: Path) -> None:
    path = tmp_path / "k.s"
    path.write_text(_llvm_file(".reqd_workgroup_size: [ 8, 8, 1 ]"))
    kernel = load(path).kernels[0]
    assert kernel.ir.declared.workgroup_size == (8, 8, 1)


def test_bad_workgroup_metadata_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.s"
    path.write_text(_llvm_file(".reqd_workgroup_size: [ 8, x, 1 ]"))
    code, _, err = cli(capsys, "livereg", str(path))
    one_line_error((code, err), "reqd_workgroup_size")


# ------------------------------------------------------------------------- strict operand syntax

GARBAGE = {
    "a256": ("v_add_f32 v0, a256, v2", "out of range"),
    "double parentheses": ("v_add_f32 v0, ((v1)), v2", "parentheses"),
    "no operands": ("v_add_f32", "too few operands"),
    "v-1": ("v_add_f32 v0, v-1, v2", "malformed register"),
    "huge range": ("v_mov_b32 v[0:9999999999], 0", "out of range"),
    "stray brackets": ("v_mov_b32 v0, [[[", "cannot read operand"),
    "braces": ("v_add_f32 v0, {v1}, v2", "cannot read operand"),
    # issue 25: llvm-mc-19 says "invalid operand for instruction", its caret on the token named here
    # (tests/unit/test_strict_operands.py checks the caret and every dialect)
    "token after the last operand": ("v_add_f32 v0, v1, v2 v9", "invalid operand for instruction: 'v9'"),
    "one operand too many": ("v_add_f32 v0, v1, v2, v9", "invalid operand for instruction: 'v9'"),
    "two instructions on one line": ("v_mov_b32 v0, v1 v_mov_b32 v2, v3",
                                     "invalid operand for instruction: 'v_mov_b32'"),
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_garbage_operands_are_errors(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, fragment = GARBAGE[name]
    path = tmp_path / "k.s"
    path.write_text(f"s_nop 0\n{text}\ns_endpgm\n")
    code, _, err = cli(capsys, "livereg", str(path), "--arch", "gfx90a")
    one_line_error((code, err), fragment, line=2)


def test_duplicate_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.s"
    path.write_text("x:\nv_add_f32 v0, v1, v2\nx:\ns_endpgm\n")
    code, _, err = cli(capsys, "livereg", str(path), "--arch", "gfx90a")
    one_line_error((code, err), "defined twice", line=3)


def test_ignore_unknown_does_not_excuse_syntax(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.s"
    path.write_text("v_add_f32 v0, a256, v2\ns_endpgm\n")
    code, _, err = cli(capsys, "livereg", str(path), "--arch", "gfx90a", "--ignore-unknown")
    one_line_error((code, err), "out of range", line=1)


def _llvm_mc(source: str, mcpu: str = "gfx90a") -> subprocess.CompletedProcess[str]:
    from tests.conftest import require_tool
    return subprocess.run([require_tool("llvm-mc-19"), "-arch=amdgcn", f"-mcpu={mcpu}", "-show-encoding"],
                          input=source, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_llvm_mc_agrees_the_garbage_is_no_register_operand(name: str) -> None:
    """The oracle: llvm-mc rejects each form, or reads it as a symbol expression (a 32-bit literal with a
    fixup, src0 = 0xff) rather than as the register it resembles."""
    result = _llvm_mc(GARBAGE[name][0] + "\n")
    if result.returncode != 0:
        assert "error:" in result.stderr
        return
    encoding = re.search(r"encoding: \[([^\]]*)\]", result.stdout)
    assert encoding is not None, result.stdout
    assert encoding.group(1).split(",")[0] == "0xff"  # src0 = literal, not VGPR 1 (0x01 in a VOP2's src0)
    assert "fixup A" in result.stdout


def test_llvm_mc_agrees_on_duplicate_labels_and_octal() -> None:
    dup = _llvm_mc("x:\nv_add_f32 v0, v1, v2\nx:\ns_endpgm\n")
    assert dup.returncode != 0 and "already defined" in dup.stderr
    octal = _llvm_mc("s_nop 010\n", "gfx902")
    assert "[0x08,0x00,0x80,0xbf]" in octal.stdout  # SOPP s_nop with simm16 = 8
    assert _llvm_mc("s_nop 09\n", "gfx902").returncode != 0


def test_llvm_mc_accepts_flow_style_metadata(tmp_path: Path) -> None:
    from tests.conftest import require_tool
    llvm_mc = require_tool("llvm-mc-19")
    for metadata, ok in ((".reqd_workgroup_size: [ 8, 8, 1 ]", True), (".reqd_workgroup_size: [ 8, 8", False)):
        path = tmp_path / "k.s"
        path.write_text(_llvm_file(metadata))
        result = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx902", "-filetype=obj", "-o",
                                 os.devnull, str(path)], capture_output=True, text=True, timeout=60)
        assert (result.returncode == 0) is ok, result.stderr


# ------------------------------------------------------------------------- wrong or confusing output

def test_arch_alias_is_not_a_conflict(tmp_path: Path) -> None:
    path = tmp_path / "k.s"
    path.write_text(_llvm_file(".max_flat_workgroup_size: 256"))
    assert load(path, "raven").arch.name == "gfx902"  # raven is gfx902's name (arch data aliases)
    with pytest.raises(Exception, match="conflicts"):
        load(path, "gfx1100")


_CAL_SLOT_CONFLICT = """\
00 ALU: ADDR(32) CNT(2)
      0  x: MOV         R0.x,  R1.x
         x: MOV         R0.y,  R1.y
01 EXP_DONE: PIX0, R0
END_OF_PROGRAM
"""


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_vliw_exit_2_always_says_why_on_stderr(json_flag: list[str], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.isa"
    path.write_text(_CAL_SLOT_CONFLICT)
    code, _, err = cli(capsys, "vliw", str(path), *json_flag)
    assert code == 2
    assert "error" in err and str(path) in err


def test_fetch_bandwidth_must_be_finite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.isa"
    path.write_text(_CAL_SLOT_CONFLICT.replace("x: MOV         R0.y", "y: MOV         R0.y"))
    for value in ("inf", "nan", "-1"):
        with pytest.raises(SystemExit) as stop:  # argparse's usage error
            main(["vliw", str(path), "--fetch-gbs", value, "--json"])
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and "finite" in err and "Infinity" not in out, (value, err)
    with pytest.raises(InputError, match="finite"):
        analyze_vliw(load_vliw(path), None, math.inf)

@pytest.mark.parametrize("command", ["livereg", "advise", "compare", "timing"])
def test_vliw_code_given_to_a_gcn_command_says_which_command_reads_it(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # once answered "the input does not name its target: pass --arch (e.g. --arch gfx902)", and with
    # `--arch cayman` "unknown target architecture 'cayman'", though `isalens vliw` knows both
    path = tmp_path / "k.isa"
    path.write_text(_CAL_SLOT_CONFLICT.replace("x: MOV         R0.y", "y: MOV         R0.y"))
    line = one_line_error(cli(capsys, command, str(path))[::2], "`isalens vliw`")
    assert "VLIW" in line and str(path) in line
    bare = tmp_path / "bare.s"
    bare.write_text("v_mov_b32 v0, 1\ns_endpgm\n")
    line = one_line_error(cli(capsys, command, str(bare), "--arch", "cayman")[::2], "isalens vliw --target cayman")
    assert "VLIW" in line


def test_analyze_reads_vliw_code_for_the_target_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `analyze --arch cayman` on VLIW code once ignored the target and assumed one from the code
    path = tmp_path / "k.isa"
    path.write_text(_CAL_SLOT_CONFLICT.replace("x: MOV         R0.y", "y: MOV         R0.y"))
    code, out, err = cli(capsys, "analyze", str(path), "--arch", "cayman")
    assert code == 0 and "Cayman VLIW4, as given" in out, out + err
    line = one_line_error(cli(capsys, "analyze", str(path), "--arch", "gfx902")[::2], "GCN/CDNA/RDNA target")
    assert "'gfx902'" in line



def test_byte_order_marks(tmp_path: Path) -> None:
    text = "v_add_f32 v0, v1, v2\ns_endpgm\n"
    plain = tmp_path / "plain.s"
    plain.write_text(text)
    expected = load(plain, "gfx902").kernels[0].analyze().pressure.vgpr.peak
    for name, data in (("utf8bom.s", "\ufeff".encode() + text.encode()), ("utf16.s", text.encode("utf-16")),
                       ("utf16be.s", b"\xfe\xff" + text.encode("utf-16-be"))):
        path = tmp_path / name
        path.write_bytes(data)
        assert load(path, "gfx902").kernels[0].analyze().pressure.vgpr.peak == expected, name
    assert expected == 3  # v0 written, v1 and v2 read on the first line


def test_frontends_doc_second_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import require_tool
    require_tool("clang-19")
    doc = (ROOT / "docs" / "frontends.md").read_text()
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    second = block[block.index('module, compiler_stats = load_source("examples/kernels'):]
    second = second.replace('keep_asm="matvec.s"', f'keep_asm={str(tmp_path / "matvec.s")!r}')
    monkeypatch.chdir(ROOT)
    exec("from isalens.engine.sources import load_source\n" + second, {})
    figures = capsys.readouterr().out.split()
    assert len(figures) == 2 and all(f.isdigit() for f in figures), figures
