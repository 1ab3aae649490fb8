"""Line numbers in every GCN text dialect count newlines only (issue 26).

``str.splitlines`` also ends a line at a form feed (and \\v, \\x1c-\\x1e, \\x85, \\u2028/\\u2029): a form feed
on a line of its own moved every later error one line down, and one inside a ``;`` comment made the rest of
the comment an "instruction". The oracle for a line number is the count of ``\\n`` before the line, computed
here from the text itself.
"""

from __future__ import annotations

import pytest

from isalens.engine.load import load
from isalens.errors import ParseError
from isalens.lines import lines_of

#: a form feed alone on a line (page break), the way old sources and some pastes carry one
PAGE = "\f\n"
#: comment text after a form feed: read as a line of its own it fails as an instruction
COMMENT = "; page two\fnot_an_instruction v0 {{\n"
BAD = "v_not_a_real_opcode v0, v1"

# one small input per dialect: "{x}" where a form-feed line, a comment with one and another form-feed line go,
# "{page}" where only a form-feed line goes, "{bad}" where a bad line may go
LLVM = ('\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx902"\n\t.globl k\n\t.p2align 8\n'
        '\t.type k,@function\nk:\n\tv_mov_b32_e32 v0, v1 ; copy\fv_bogus v9\n{x}\t{bad}\n\ts_endpgm\n'
        '.Lfunc_end0:\n')
OBJDUMP = ("\nk.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n0000000000001000 <k>:\n"
           "\tv_mov_b32_e32 v0, v1  // 000000001000: 7E000301\n{x}\t{bad}\n"
           "\ts_endpgm  // 000000001004: BF810000\n")
LISTING = "  v_mov_b32_e32 v0, v1  // 00000000: 7E000301\n{x}  {bad}\n  s_endpgm  // 00000004: BF810000\n"
ACO = "BB0:\n\tv_mov_b32_e32 v0, v1 ; 7e000301\n{x}\t{bad}\n\ts_endpgm ; bf810000\n"
BARE = "v_mov_b32_e32 v0, v1 ; copy\fv_bogus v9\n{x}{bad}\ns_endpgm\n"
# RADV: comments are in its NIR, not in the disassembly (an unindented line there would end the section); the
# bad line is an instruction without ACO's encoding words (a truncated or edited dump)
RADV = ("WARNING: radv is not a conformant Vulkan implementation, testing use only.\n"
        "shader: MESA_SHADER_COMPUTE\nworkgroup-size: 64, 1, 1\n{x}\n"
        "Compute Shader\ndisasm:\nBB0:\n\tv_mov_b32_e32 v0, v1 ; 7e000301\n{page}\t{bad}\n"
        "\ts_endpgm ; bf810000\n")

CASES = {"llvm": (LLVM, "gfx902"), "objdump": (OBJDUMP, "gfx902"), "listing": (LISTING, "gfx902"),
         "aco": (ACO, "gfx902"), "bare": (BARE, "gfx902"), "radv": (RADV, "raven")}
#: a good line in place of the bad one (RADV's disassembly carries every instruction's encoding words)
GOOD = {"radv": "s_nop 0 ; bf800000"}


def _text(template: str, bad: str) -> str:
    return (template.replace("{x}", PAGE + COMMENT.replace("{{", "{") + PAGE).replace("{page}", PAGE)
            .replace("{bad}", bad))


@pytest.mark.parametrize("dialect", sorted(CASES))
def test_form_feeds_keep_the_line_of_a_later_error(dialect: str) -> None:
    template, arch = CASES[dialect]
    text = _text(template, BAD)
    assert "\f" in text
    expected = text[:text.index(BAD)].count("\n") + 1  # the editor's line of the bad instruction
    with pytest.raises(ParseError) as info:
        load(text, arch, dialect=dialect)
    # the error is the bad line's (not the comment's, read as an instruction) and on its line
    assert "v_not_a_real_opcode" in str(info.value) and info.value.line == expected, (info.value, expected)


@pytest.mark.parametrize("dialect", sorted(CASES))
def test_comment_text_after_a_form_feed_is_no_instruction(dialect: str) -> None:
    template, arch = CASES[dialect]
    text = _text(template, GOOD.get(dialect, "s_nop 0"))
    kernel = load(text, arch, dialect=dialect).kernels[0]
    assert [i.mnemonic for i in kernel.instructions] == ["v_mov_b32_e32", "s_nop", "s_endpgm"]
    # each instruction on the line its text starts on, counted in newlines
    lines = [text[:text.index(t)].count("\n") + 1 for t in ("v_mov_b32_e32", "s_nop 0", "s_endpgm")]
    assert [i.line for i in kernel.instructions] == lines


def test_the_splitter_ends_lines_at_newlines_and_carriage_returns_only() -> None:
    text = "a\fb\r\nc\rd\ne\x0bf\x1cg\x85h\u2028i\u2029j\n"
    # expected by hand: the only terminators are \r\n, \r and the two \n
    assert lines_of(text) == ["a\fb", "c", "d", "e\x0bf\x1cg\x85h\u2028i\u2029j"]
    assert lines_of("") == [] and lines_of("x") == ["x"] and lines_of("x\n\n") == ["x", ""]
