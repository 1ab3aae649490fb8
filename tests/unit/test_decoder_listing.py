"""Our decoder's objdump-style listing (``isa/amdgcn/decoder/listing.py``) on hand-made sections: the rules
llvm-objdump 19 follows (``llvm-objdump.cpp``) where the compiled examples do not reach them. Whole code objects
are compared with llvm-objdump itself in ``tests/oracle/test_decoder_objdump.py``."""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass

import pytest

from isalens.frontends.objdump import only_functions, tidy
from isalens.isa.amdgcn.decoder.listing import NotDecoded, objdump_drafts, objdump_listing
from isalens.isa.amdgcn.decoder.text import Text, decode_text
from isalens.isa.amdgcn.drafts import ReadResult
from isalens.isa.amdgcn.trailer_listing import read_trailer_listing
from tests.conftest import EXAMPLES

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


def _read_back(sections: list[_Section], target: str, symbols: set[str] | None,
               extents: dict[str, tuple[int, int]]) -> ReadResult:
    """What the ``objdump`` reader reads from the tidied listing text: the reference ``objdump_drafts`` must equal."""
    return read_trailer_listing(tidy(objdump_listing(sections, target, symbols=symbols).text, extents),
                                "code-object.elf", objdump=True)


#: gfx11 s_cbranch_scc0 +1 (SOPP opcode 33, SIMM16 1): a branch whose comment names its target symbol
S_CBRANCH_SCC0_1 = 0xBFA10001


@pytest.mark.parametrize(("words", "symbols", "chosen", "extents"), [
    # a zero run ("\t\t..."), a dummy block named after the section (blanked by tidy), two functions
    ([S_NOP_0, 0, 0, S_ENDPGM_GFX11, S_CBRANCH_SCC0_1, S_NOP_0, S_ENDPGM_GFX11],
     ((0x100C, "a", "STT_FUNC"), (0x1010, "b", "STT_FUNC")), None, {}),
    # padding past a symbol's size is dropped (extents), a size 0 keeps everything, --disassemble-symbols
    ([S_NOP_0, S_ENDPGM_GFX11, S_NOP_0, S_NOP_0, S_CBRANCH_SCC0_1, S_ENDPGM_GFX11, S_NOP_0],
     ((0x1000, "a", "STT_FUNC"), (0x1010, "b", "STT_FUNC")), None, {"a": (0x1000, 8), "b": (0x1010, 0)}),
    ([S_NOP_0, S_ENDPGM_GFX11, S_NOP_0, S_NOP_0, S_CBRANCH_SCC0_1, S_ENDPGM_GFX11, S_NOP_0],
     ((0x1000, "a", "STT_FUNC"), (0x1010, "b", "STT_FUNC")), {"b"}, {"a": (0x1000, 8), "b": (0x1010, 8)}),
    # two names at one address (the instructions belong to the last), one starting with "." (tidy blanks it)
    ([S_NOP_0, S_ENDPGM_GFX11, S_NOP_0, S_ENDPGM_GFX11],
     ((0x1000, "a", "STT_FUNC"), (0x1000, "a2", "STT_FUNC"), (0x1008, "c", "STT_FUNC"), (0x1008, ".c", "STT_FUNC")),
     None, {}),
])
def test_drafts_equal_the_reader_of_the_tidied_listing(
        words: list[int], symbols: tuple[tuple[int, str, str], ...], chosen: set[str] | None,
        extents: dict[str, tuple[int, int]]) -> None:
    # reading the listing's text back cost as much as decoding it (docs/performance.md, issue 28): the drafts are
    # made from the decoded instructions, and must be what the reader makes of the text, line numbers included
    sections = [_section(words, symbols)]
    drafted = objdump_drafts(sections, "gfx1100", symbols=chosen, extents=extents)
    assert drafted is not None
    expected = _read_back(sections, "gfx1100", chosen, extents)
    assert drafted.result == expected
    assert sum(len(d.items) for d in expected.drafts) > 0
    text = tidy(objdump_listing(sections, "gfx1100", symbols=chosen).text, extents)
    needles = ("s_nop", "s_endpgm", "s_cbranch_scc0", "a2", "s_swappc_b64", "section", "format", "text", "object")
    for needle in needles:
        assert drafted.mentions([needle]) == (needle in text), needle
    # a scan cuts each unit's kernels from the whole listing (only_functions): the drafts the same way
    for name in {d.name for d in expected.drafts}:
        cut = only_functions(text, [name])
        alone = drafted.only({name})
        assert alone.result == read_trailer_listing(cut, "code-object.elf", objdump=True)
        for needle in needles:
            assert alone.mentions([needle]) == (needle in cut), (name, needle)


@pytest.mark.parametrize("name", ["two\nlines", "carriage\rreturn", "", "a//b", "file format x"])
def test_a_name_that_would_not_read_back_gives_no_drafts(name: str) -> None:
    # the text's reader would cut such a line (or skip it): the caller reads the text instead
    sections = [_section([S_NOP_0, S_ENDPGM_GFX11], ((0x1000, "k", "STT_FUNC"), (0x1004, name, "STT_FUNC")))]
    assert objdump_drafts(sections, "gfx1100") is None


@pytest.mark.parametrize("target", ["gfx803", "gfx90a", "gfx1030", "gfx1100", "gfx1200"])
def test_a_one_dword_instruction_does_not_depend_on_the_next_dword(target: str) -> None:
    # the listing remembers one-dword instructions by their dword alone (_decoded): brute force over random first
    # dwords, each decoded before three different next dwords, must agree whenever one of them is one dword long
    rng = random.Random(28)
    nexts = (0, 0xFFFFFFFF, 0x000000FF)
    one_dword = 0
    for _ in range(3000):
        first = rng.getrandbits(32)
        results = [decode_text([first, nxt, 0, 0], target, hardware=True) for nxt in nexts]
        texts = [r for r in results if isinstance(r, Text) and r.size == 4]
        if texts:
            one_dword += 1
            assert all(r == texts[0] for r in results), (hex(first), results)
    assert one_dword > 300


@pytest.mark.parametrize("source", ["listing", *sorted(p.name for p in (EXAMPLES / "isa").glob("*.s"))])
def test_instructions_built_in_a_batch_equal_those_built_one_at_a_time(source: str) -> None:
    # the reader's batch (build_instructions, its common case inline and each tuple made directly) against the
    # one-instruction builder it stands for; the listing has encoding words and branches, the examples neither
    from isalens.engine.target import resolve_arch, target_info
    from isalens.isa.amdgcn.dialects import read
    from isalens.isa.amdgcn.instructions import ReadContext, build_instruction, build_instructions

    if source == "listing":
        words = [S_NOP_0, S_CBRANCH_SCC0_1, S_NOP_0, 0xBFA0FFFD, S_ENDPGM_GFX11]  # s_branch -3: back to 0x1000
        text, dialect, arch = objdump_listing([_section(words)], "gfx1100").text, "objdump", "gfx1100"
    else:
        text, dialect, arch = (EXAMPLES / "isa" / source).read_text(), "llvm", source.split(".")[1]
    target = target_info(resolve_arch(arch, file=source), None)
    drafts = [d for d in read(text, source, dialect).drafts if d.items]
    assert drafts
    for draft in drafts:
        ctx = ReadContext(source, target, 64, False, [])
        one_by_one = [build_instruction(i, item, draft, ctx) for i, item in enumerate(draft.items)]
        batch = build_instructions(draft.items, 0, draft, ctx)  # every text decoded now: the inline path
        assert batch == one_by_one
        assert [type(x) for x in batch] == [type(x) for x in one_by_one]
