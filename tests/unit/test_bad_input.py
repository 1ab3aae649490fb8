"""Bad input: one line naming file and line, exit code 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from isalens.cli import main

GOOD = "v_add_f32_e32 v1, v2, v3\ns_endpgm\n"


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, *args: str,
        name: str = "input.s") -> tuple[int, str]:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    code = main(["livereg", str(path), *args])
    err = capsys.readouterr().err
    return code, err


def assert_one_line_error(code: int, err: str, path_fragment: str, line: int | None) -> None:
    assert code == 2
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert path_fragment in lines[0]
    if line is not None:
        assert f":{line}:" in lines[0], lines[0]


def test_good_input_succeeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, GOOD, "--arch", "gfx900")
    assert code == 0, err


def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, "", "--arch", "gfx900")
    assert_one_line_error(code, err, "input.s", 1)
    assert "empty" in err


def test_binary_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, b"\x7fELF\x02\x01\x00\x00garbage\xff\xfe", "--arch", "gfx900")
    # an ELF file is read as a binary (code object or library), and this one is damaged
    assert_one_line_error(code, err, "input.s", None)
    assert "unreadable ELF" in err


def test_no_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, '\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n')
    assert_one_line_error(code, err, "input.s", None)
    assert "no kernel" in err


def test_truncated_instruction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, "v_add_f32_e32 v1, v2, v3\nds_read2_b32 v[10:\n", "--arch", "gfx900")
    assert_one_line_error(code, err, "input.s", 2)


def test_unknown_mnemonic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, "v_add_f32_e32 v1, v2, v3\nv_frobnicate_f32 v1, v2\n", "--arch", "gfx900")
    assert_one_line_error(code, err, "input.s", 2)
    assert "v_frobnicate_f32" in err and "--ignore-unknown" in err


def test_unknown_mnemonic_ignored_is_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(tmp_path, capsys, "v_frobnicate_f32 v1, v2\ns_endpgm\n", "--arch", "gfx900",
                  "--ignore-unknown", "--json")
    assert code == 0


def test_unknown_arch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, GOOD, "--arch", "gfx7777")
    assert_one_line_error(code, err, "input.s", None)
    assert "gfx7777" in err


def test_missing_arch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, GOOD)
    assert_one_line_error(code, err, "input.s", None)
    assert "--arch" in err


def test_conflicting_arch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx902"\n\t.text\nk:\n\ts_endpgm\n.Lfunc_end0:\n')
    code, err = run(tmp_path, capsys, text, "--arch", "gfx1100")
    assert_one_line_error(code, err, "input.s", None)
    assert "conflicts" in err


def test_register_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, "v_mov_b32_e32 v1, v2\nv_mov_b32_e32 v300, v2\n", "--arch", "gfx900")
    assert_one_line_error(code, err, "input.s", 2)
    assert "v300" in err


def test_agpr_on_a_target_without_agprs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, "v_accvgpr_write_b32 a0, v1\n", "--arch", "gfx900")
    assert_one_line_error(code, err, "input.s", 1)


def test_unterminated_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n\t.text\nk:\n\tv_mov_b32_e32 v1, v2\n')
    code, err = run(tmp_path, capsys, text)
    assert_one_line_error(code, err, "input.s", 4)
    assert "not terminated" in err


def test_branch_to_missing_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, "s_branch .LBB9\ns_endpgm\n", "--arch", "gfx900")
    assert_one_line_error(code, err, "input.s", 1)


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["livereg", str(tmp_path / "nope.s"), "--arch", "gfx900"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "nope.s" in err


# what users give by mistake beside the assembly: texts written here in the formats Mesa and RGA print
_PIPELINE_STATS = """Null hardware (RADV RAVEN)
EXE Compute Shader Vulkan Compute Shader 64
  STAT SGPRs 16
  STAT VGPRs 20
  STAT Code size 976
  STAT Subgroups per SIMD 8
"""
_ACO_IR_ONLY = """After Spilling:
ACO shader stage: compute_cs
BB0
/* logical preds: / linear preds: / kind: uniform, top-level, */
\t s2: %1:s[0-1] = p_startpgm
\tp_logical_start
\ts_endpgm
"""
_RGA_REPORT = """Legend:
  ':' means that the register is kept alive, while it is not actively being used by the current instruction
 'Rn': Number of live registers

  Line | Rn  |     | Instruction
--------------------------------------------------------------------------------
     1 |   1 | ^   | v_mov_b32 v0, 0
     2 |   0 |     | s_endpgm

Maximum # VGPR used   1, VGPRs allocated by HW:  24 (1 requested)
"""


@pytest.mark.parametrize(("content", "expected"), [
    (_PIPELINE_STATS, "pipeline statistics (STAT lines) hold no instructions"),
    (_ACO_IR_ONLY, "it holds ACO IR only"),
    (_RGA_REPORT, "RGA's live-register report"),
])
def test_a_report_about_code_is_named_not_read_as_code(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      content: str, expected: str) -> None:
    # each once failed on its first line as "unknown instruction 'null'" / "cannot read 'Legend:'", or
    # (ACO IR) with a message that did not say what the file held
    code, err = run(tmp_path, capsys, content, "--arch", "raven")
    assert_one_line_error(code, err, "input.s", None)
    assert expected in err, err


def test_a_missing_target_is_suggested_from_the_text_or_the_file_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(tmp_path, capsys, GOOD, name="blur.navi21.aco.s")
    assert_one_line_error(code, err, "blur.navi21.aco.s", None)
    assert "pass --arch (the file name says navi21: --arch navi21)" in err
    # a word of the name that is no target is not offered; the generic example stays
    code, err = run(tmp_path, capsys, GOOD, name="blur.final.s")
    assert "(e.g. --arch gfx902)" in err
    # the GPU a text names outside its code comes first; it is still never taken silently
    code, err = run(tmp_path, capsys, "; Null hardware (RADV NAVI21)\n" + GOOD, name="shader.gfx1100.s")
    assert_one_line_error(code, err, "shader.gfx1100.s", None)
    assert "the text names NAVI21: --arch navi21" in err
