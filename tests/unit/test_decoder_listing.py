"""Our decoder's objdump-style listing (``isa/amdgcn/decoder/listing.py``) on hand-made sections: the rules
llvm-objdump 19 follows (``llvm-objdump.cpp``) where the compiled examples do not reach them. Whole code objects
are compared with llvm-objdump itself in ``tests/oracle/test_decoder_objdump.py``."""

from __future__ import annotations

import struct
from dataclasses import dataclass

import pytest

from isalens.isa.amdgcn.decoder.listing import NotDecoded, objdump_listing

S_ENDPGM_GFX11 = 0xBFB00000  # s_endpgm on gfx11 (SOPP opcode 48)
S_ENDPGM_GFX9 = 0xBF810000  # s_endpgm on gfx9/gfx10 (SOPP opcode 1)
S_NOP_0 = 0xBF800000
#: gfx10 v_add_co_u32 v8, s10, s0, v0 (VOP3B opcode 0x30f) with the unused SRC2 (bits 58:50) = v1: issue 28's word
ISSUE_WORDS = (0xD70F0A08, 0x04060000)


@dataclass(frozen=True)
class _Section:
    name: str
    address: int
    data: bytes
    symbols: tuple[tuple[int, str, str], ...]


def _section(words: list[int], symbols: tuple[tuple[int, str, str], ...] = ((0x1000, "k", "STT_FUNC"),)
             ) -> _Section:
    return _Section(".text", 0x1000, struct.pack(f"<{len(words)}I", *words), symbols)


def _code(text: str) -> list[str]:
    """The listing after its file-format line."""
    return text.split("\n")[2:]


def test_two_zero_dwords_are_one_ellipsis_line_one_is_an_instruction() -> None:
    # objdump skips a run of >= 8 zero bytes (two dwords) as one "\t\t..." line; one zero dword is decoded
    # (0x00000000 on gfx9 is v_cndmask_b32_e32 v0, s0, v0, vcc: llvm-mc-19 --disassemble -mcpu=gfx90a)
    text = objdump_listing([_section([S_NOP_0, 0, 0, 0, S_NOP_0, 0, S_ENDPGM_GFX9])], "gfx90a").text
    lines = _code(text)
    assert lines[:3] == ["", "Disassembly of section .text:", ""]
    assert lines[3] == "0000000000001000 <k>:"
    assert lines[4].startswith("\ts_nop 0") and lines[5] == "\t\t..."
    assert "// 000000001010: BF800000" in lines[6]
    assert lines[7].startswith("\tv_cndmask_b32_e32 v0, s0, v0, vcc ") and "// 000000001014: 00000000" in lines[7]
    assert lines[8].startswith("\ts_endpgm")


def test_section_start_without_symbol_gets_the_section_name_and_symbols_filter_blocks() -> None:
    words = [S_NOP_0, S_ENDPGM_GFX11, S_ENDPGM_GFX11]
    syms = ((0x1004, "a", "STT_FUNC"), (0x1008, "b", "STT_FUNC"))
    lines = _code(objdump_listing([_section(words, syms)], "gfx1100").text)
    headers = [line for line in lines if line.endswith(">:")]
    assert headers == ["0000000000001000 <.text>:", "0000000000001004 <a>:", "0000000000001008 <b>:"]
    only_b = _code(objdump_listing([_section(words, syms)], "gfx1100", symbols={"b"}).text)
    assert [line for line in only_b if line.endswith(">:")] == ["0000000000001008 <b>:"]
    assert len([line for line in only_b if "//" in line]) == 1


def test_branch_comment_names_the_target() -> None:
    # s_branch 1 (gfx11 SOPP opcode 32) at 0x1000 jumps to 0x1000 + 4 + 4 * 1 = 0x1008
    lines = _code(objdump_listing([_section([0xBFA00001, S_NOP_0, S_ENDPGM_GFX11])], "gfx1100").text)
    assert lines[4].startswith("\ts_branch 1") and lines[4].endswith("BFA00001 <k+0x8>")


def test_encoding_llvm_rejects_is_read_as_the_hardware_does_with_a_note() -> None:
    listing = objdump_listing([_section([*ISSUE_WORDS, S_ENDPGM_GFX9])], "gfx1030")
    lines = _code(listing.text)
    assert lines[4].startswith("\tv_add_co_u32 v8, s10, s0, v0") and lines[4].endswith("D70F0A08 04060000")
    assert len(listing.notes) == 1 and "v_add_co_u32" in listing.notes[0] and "SRC2" in listing.notes[0]


@pytest.mark.parametrize(("words", "symbols", "reason"), [
    ([0xFFFFFFFF], ((0x1000, "k", "STT_FUNC"),), "0x1000"),  # a word the decoder gives a diagnostic for
    ([S_ENDPGM_GFX11], ((0x1000, "table", "STT_OBJECT"),), "STT_OBJECT"),  # objdump prints data differently
    ([S_ENDPGM_GFX11], ((0x1000, "k", "STT_FUNC"), (0x1000, ".LBB0_1", "STT_NOTYPE")), "STT_NOTYPE"),
])
def test_what_objdump_would_print_differently_is_not_decoded(
        words: list[int], symbols: tuple[tuple[int, str, str], ...], reason: str) -> None:
    with pytest.raises(NotDecoded, match=reason):
        objdump_listing([_section(words, symbols)], "gfx1100")
