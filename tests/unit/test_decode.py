"""`isalens decode` and the field decoder: hand-decoded words, instruction lengths, bad input.

Field values below are worked out by hand from the bit positions of AMD's ISA guides (comments show the
arithmetic); the instruction text comes from llvm-mc (tests needing it skip when it is absent).
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from isalens.cli import main
from isalens.engine.decode import parse_words
from isalens.errors import InputError
from isalens.isa.amdgcn.fields import DecodeError, decode, split_words
from tests.conftest import FIXTURES, require_tool


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["decode", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# ---------------------------------------------------------------------------------------------- fields


def test_ds_read2st64_fields_by_hand() -> None:
    # D8700400: bits 31:26 = 0xD8700400 >> 26 = 0x36 (DS); OP = (0xD8700400 >> 17) & 0xFF = 0x6C38 & 0xFF = 56;
    # GDS = bit 16 = 0; OFFSET1 = bits 15:8 = 0x04; OFFSET0 = 0x00.
    # 3B00002A: VDST = 0x3B = 59, DATA1 = 0, DATA0 = 0, ADDR = 0x2A = 42
    d = decode([0xD8700400, 0x3B00002A], 9, "gfx9")
    assert d.format == "DS" and d.size == 8
    assert [(n, d.value(n)) for n in ("OP", "GDS", "OFFSET1", "OFFSET0", "VDST", "ADDR")] == [
        ("OP", 56), ("GDS", 0), ("OFFSET1", 4), ("OFFSET0", 0), ("VDST", 59), ("ADDR", 42)]
    assert d.get("VDST").meaning == "v59"  # type: ignore[union-attr]


def test_sdwa_fields_by_hand() -> None:
    # 3E0A04F9: VOP2 (bit 31 = 0); SRC0 field = 0xF9 = SDWA; VSRC1 = (0x3E0A04F9 >> 9) & 0xFF = 2;
    # VDST = (0x3E0A04F9 >> 17) & 0xFF = 5; OP = 0x3E0A04F9 >> 25 = 31.
    # SDWA dword 05851501: SRC0 = 0x01, DST_SEL = 0x15 & 7 = 5 (WORD_1), DST_UNUSED = (0x15 >> 3) & 3 = 2
    # (UNUSED_PRESERVE), CLAMP = 0, SRC0_SEL = 0x85 & 7 = 5, S0 = 0x85 >> 7 = 1 (s1), SRC1_SEL = 0x05 & 7 = 5
    d = decode([0x3E0A04F9, 0x05851501], 9, "gfx9")
    expect = {"OP": (31, ""), "VDST": (5, "v5"), "SRC0": (1, "s1"), "SRC1": (2, "v2"), "DST_SEL": (5, "WORD_1"),
              "DST_UNUSED": (2, "UNUSED_PRESERVE"), "SRC0_SEL": (5, "WORD_1"), "SRC1_SEL": (5, "WORD_1"),
              "S0": (1, "on"), "CLAMP": (0, "off"), "SRC0_NEG": (0, "off"), "SRC1_ABS": (0, "off")}
    assert d.format == "SDWA"
    assert {n: (d.value(n), d.get(n).meaning) for n in expect} == expect  # type: ignore[union-attr]


def test_vop3p_fields_by_hand() -> None:
    # v_pk_mul_f16 v51, v33, s15 op_sel:[1,0] op_sel_hi:[0,0] (gcn_1 listing): D3900833 00001F21.
    # 0xD3900833 >> 23 = 0x1A7 (VOP3P on gfx9); OP = 0xD390 & 0x7F = 16; OP_SEL = (0x0833 >> 11) & 7 = 1;
    # VDST = 0x33 = 51; SRC0 = 0x1F21 & 0x1FF = 0x121 = 256 + 33; SRC1 = 0x1F21 >> 9 = 15; OP_SEL_HI = 0
    d = decode([0xD3900833, 0x00001F21], 9, "gfx9")
    assert d.format == "VOP3P"
    got = {n: d.get(n).meaning or d.value(n) for n in ("OP", "OP_SEL", "VDST", "SRC0", "SRC1", "OP_SEL_HI")}  # type: ignore[union-attr]
    assert got == {"OP": 16, "OP_SEL": "[1,0,0]", "VDST": "v51", "SRC0": "v33", "SRC1": "s15", "OP_SEL_HI": "[0,0]"}


def test_dpp_control_names() -> None:
    # 7E0002FA 35055301 (gfx10): DPP_CTRL = (0x35055301 >> 8) & 0x1FF = 0x153 = row_share:3; FI = bit 18 = 1;
    # BANK_MASK = 5, ROW_MASK = 3
    d = decode([0x7E0002FA, 0x35055301], 10, "gfx10")
    assert d.format == "DPP"
    assert (d.get("DPP_CTRL").meaning, d.value("FI"), d.value("BANK_MASK"), d.value("ROW_MASK")) == (  # type: ignore[union-attr]
        "row_share:3", 1, 5, 3)
    # on gfx9 0x150-0x15F are gfx90a's row_newbcast; (0xFF00E401 >> 8) & 0x1FF = 0xE4 = lanes 0,1,2,3 (2 bits each)
    assert decode([0x7E0002FA, 0x35055301], 9, "gfx9").get("DPP_CTRL").meaning == "row_newbcast:3"  # type: ignore[union-attr]
    assert decode([0x7E0002FA, 0xFF00E401], 9, "gfx9").get("DPP_CTRL").meaning == "quad_perm:[0,1,2,3]"  # type: ignore[union-attr]


@pytest.mark.parametrize(("words", "generation", "fmt", "size"), [
    ([0x6868D2FF, 0x00000090], 9, "VOP2", 8),        # SRC0 = 0xFF: a literal dword follows
    ([0x2E000501, 0x41000000], 9, "VOP2", 8),        # v_madmk_f32 (VOP2 op 23) always has its literal
    ([0xBF8CC67F], 9, "SOPP", 4),                    # s_waitcnt
    ([0xB0103620], 9, "SOPK", 4),                    # s_movk_i32: the immediate is inside the instruction
    ([0xBA00F801, 0x00001234], 9, "SOPK", 8),        # s_setreg_imm32_b32 (gfx9 SOPK op 20)
    ([0xF4080204, 0xFA000000], 10, "SMEM", 8),
    # MIMG NSA on gfx10: bits 2:1 of 0xF1989F07 = 3 extra dwords
    ([0xF1989F07, 0x00010409, 0x0D0C0B0A, 0x11100F0E, 0x00001312], 10, "MIMG", 20),
    ([0xD6130000, 0x040E04FA, 0xFF00E401], 11, "VOP3_DPP", 12),  # VOP3 with SRC0 = 0xFA on gfx11
    ([0xC8480501, 0x00020B04, 0x41000000], 11, "VOPD", 12),       # OPX = 1 (fmaak): a literal follows
    ([0xEE050004, 0x00000001, 0x00001002], 12, "VGLOBAL", 12),
])
def test_instruction_lengths(words: list[int], generation: int, fmt: str, size: int) -> None:
    d = decode(words, generation, f"gfx{generation}")
    assert (d.format, d.size) == (fmt, size)


def test_split_words_walks_a_stream() -> None:
    # s_waitcnt (4) + v_add_u32 with literal (8) + ds_read2st64_b32 (8)
    stream = [0xBF8CC67F, 0x6868D2FF, 0x00000090, 0xD8700400, 0x3B00002A]
    assert [d.format for d in split_words(stream, 9, "gfx9")] == ["SOPP", "VOP2", "DS"]


def test_decoder_errors_name_the_word() -> None:
    with pytest.raises(DecodeError, match=r"D8700400.*needs 2 dwords"):
        decode([0xD8700400], 9, "gfx9")
    with pytest.raises(DecodeError, match="FFFFFFFF"):
        decode([0xFFFFFFFF], 9, "gfx9")


@pytest.mark.parametrize(("words", "generation", "fmt"), [
    # llvm-mc-19 -show-encoding: each is the first dword(s) of an instruction whose source field says 255
    # (a literal follows), cut before the literal dword
    ([0x6868D2FF], 9, "VOP2"),                 # v_add_u32_e32 v52, 0x90, v105 (src0 = 0xFF)
    ([0x8000FF01], 10, "SOP2"),                # s_add_u32 s0, s1, 0x12345 (ssrc1 = 0xFF)
    ([0xD54B0000, 0x0409FF01], 10, "VOP3"),    # v_fma_f32 v0, v1, 0x40490fdb, v2 (src1 = 0xFF)
])
def test_a_missing_literal_dword_is_an_error(words: list[int], generation: int, fmt: str) -> None:
    """The literal is one dword more than the format's base dwords: without it the decoder must say so
    (without the check it took the last base dword as the literal)."""
    with pytest.raises(DecodeError, match=rf"{words[0]:08X}: a {fmt} instruction needs {len(words) + 1} dwords, "
                                          rf"got {len(words)}"):
        decode(words, generation, f"gfx{generation}")
    # with the literal it decodes, and the LITERAL field is the last dword
    d = decode([*words, 0x12345678], generation, f"gfx{generation}")
    assert (d.format, d.size) == (fmt, 4 * (len(words) + 1))
    assert [f.value for f in d.fields if f.name == "LITERAL"] == [0x12345678]


def test_cli_reports_a_missing_literal_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decode", "--arch", "gfx900", "6868D2FF"]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("word 1: 6868D2FF: a VOP2 instruction needs 2 dwords, got 1"), err


# ---------------------------------------------------------------------------------------------- words


def test_parse_words() -> None:
    assert parse_words(["D8700400", "0x3b00002a"]) == [0xD8700400, 0x3B00002A]
    assert parse_words(["D87004003B00002A"]) == [0xD8700400, 0x3B00002A]


@pytest.mark.parametrize(("token", "message"), [
    ("D870040", "odd number of hex digits"), ("D87004", "a dword is 8"), ("D87G0400", "not a hexadecimal word"),
])
def test_parse_words_errors_name_the_word(token: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_words(["BF8CC67F", token])
    assert token in str(info.value)


# ---------------------------------------------------------------------------------------------- CLI


@pytest.mark.parametrize(("argv", "fragments"), [
    (["D870040", "--arch", "gfx902"], ["'D870040'", "odd number"]),
    (["XYZ", "--arch", "gfx902"], ["'XYZ'", "hexadecimal"]),
    (["D8700400", "3B00002A"], ["--arch"]),
    ([], ["nothing to decode"]),
    (["D8700400", "--arch", "gfx902"], ["D8700400", "2 dwords"]),
    (["D8700400", "3B00002A", "--arch", "gfx9999"], ["gfx9999"]),
])
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]) -> None:
    code, out, err = _run(capsys, *argv)
    _one_line_error(code, err, *fragments)
    assert out == ""


def test_cli_without_llvm_mc(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISALENS_LLVM_MC", "no-such-llvm-mc-binary")
    code, _, err = _run(capsys, "D8700400", "3B00002A", "--arch", "gfx902")
    _one_line_error(code, err, "llvm-mc not found")


def test_cli_decodes_and_explains(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("llvm-mc-19")
    code, out, err = _run(capsys, "D8700400", "3B00002A", "--arch", "gfx902", "--explain")
    assert code == 0, err
    lines = out.splitlines()
    # the text is LLVM's; VDST 0x3B = v59..v60, ADDR 0x2A = v42, OFFSET1 = 4
    assert lines[0] == "00000000: D8700400 3B00002A  ds_read2st64_b32 v[59:60], v42 offset1:4"
    assert "format DS, 8 bytes" in lines[1]
    assert any("OFFSET1" in line and line.split()[-1] == "4" for line in lines)
    assert any("ADDR" in line and line.endswith("v42") for line in lines)


def test_cli_word_llvm_cannot_decode(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("llvm-mc-19")
    # a VOP1 word (bits 31:25 = 0x3F) whose opcode 0x7F (bits 16:9 of 0x7E00FE00) gfx9 does not define
    code, _, err = _run(capsys, "BF8CC67F", "7E00FE00", "--arch", "gfx902")
    _one_line_error(code, err, "7E00FE00", "LLVM cannot decode")


def test_cli_word_isalens_cannot_split(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "FFFFFFFF", "--arch", "gfx902")
    _one_line_error(code, err, "FFFFFFFF")


def _elf(words: list[int]) -> bytes:
    """A minimal little-endian ELF64 file: a null section, .text holding ``words`` and .shstrtab."""
    text = b"".join(w.to_bytes(4, "little") for w in words)
    names = b"\0.text\0.shstrtab\0"
    text_off = 64
    names_off = text_off + len(text)
    shoff = names_off + len(names)
    header = b"\x7fELF" + bytes([2, 1, 1, 64]) + bytes(8)
    header += struct.pack("<HHIQQQIHHHHHH", 1, 224, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2)
    sections = bytes(64)
    sections += struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0, text_off, len(text), 0, 0, 4, 0)
    sections += struct.pack("<IIQQQQIIQQ", 7, 3, 0, 0, names_off, len(names), 0, 0, 1, 0)
    return header + text + names + sections


def test_cli_decodes_a_code_object(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    require_tool("llvm-mc-19")
    path = tmp_path / "kernel.o"
    # s_waitcnt lgkmcnt(6) (listing word BF8CC67F), v_add_u32 v52, 0x90, v105, s_endpgm (SOPP op 1: BF810000)
    path.write_bytes(_elf([0xBF8CC67F, 0x6868D2FF, 0x00000090, 0xBF810000]))
    code, out, err = _run(capsys, "--file", str(path), "--arch", "gfx902")
    assert code == 0, err
    texts = [re.sub(r"^\w+: (?:[0-9A-F]{8} )+\s*", "", line) for line in out.splitlines()]
    assert texts == ["s_waitcnt lgkmcnt(6)", "v_add_u32_e32 v52, 0x90, v105", "s_endpgm"]
    assert out.splitlines()[1].startswith("00000004: 6868D2FF 00000090")


def test_cli_decodes_own_listing_trailers(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("llvm-mc-19")
    code, out, err = _run(capsys, "--file", str(FIXTURES / "listing" / "fp16_reads.isa"), "--arch", "gfx902")
    assert code == 0, err
    lines = [" ".join(line.split()) for line in out.splitlines()]
    # 18 instructions, the last cut before its trailer: 17 decoded; the first is s_movk_i32 at byte 0x100 as
    # the listing says, the second the ds_read2st64_b32 at 0x104 (texts: llvm-mc-19's, words: the listing's)
    assert len(lines) == 17
    assert lines[0].startswith("00000100: B0023C00 s_movk_i32 s2, 0x3c00")
    assert lines[1].startswith("00000104: D8700400 0A000002 ds_read2st64_b32 v[10:11], v2 offset1:4")


def test_cli_decodes_listing_trailers(capsys: pytest.CaptureFixture[str], samples: Path) -> None:
    require_tool("llvm-mc-19")
    listing = samples / "gcn_listing" / "gcn_1_fp16_neighborhood_a.isa"
    code, out, err = _run(capsys, "--file", str(listing), "--arch", "gfx902")
    assert code == 0, err
    lines = out.splitlines()
    # 36 instructions, all with trailers; the first is at byte 0x514 as the listing says
    assert len(lines) == 36
    assert lines[0].startswith("00000514: D8700400 2D00002E  ds_read2st64_b32 v[45:46], v46 offset1:4")


def test_cli_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "--file", str(tmp_path / "missing.o"), "--arch", "gfx902")
    _one_line_error(code, err, "missing.o", "cannot read")
    bad = tmp_path / "bad.o"
    bad.write_bytes(b"\x7fELF\x02\x01" + bytes(10))
    code, _, err = _run(capsys, "--file", str(bad), "--arch", "gfx902")
    _one_line_error(code, err, "bad.o", "malformed ELF")


def test_decode_takes_target_as_every_command_reading_binaries_does(capsys: pytest.CaptureFixture[str]) -> None:
    """A binary of several targets asks for ``--target`` (engine.binary); decode had only ``--arch`` and refused
    the option its own error named."""
    assert main(["decode", "--target", "gfx1030", "7e000280"]) == 0
    assert "v_mov_b32_e32 v0, 0" in capsys.readouterr().out
