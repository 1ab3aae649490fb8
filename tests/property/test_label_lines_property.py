"""The LLVM assembly reader's short way for a line that is a local label alone (``.LBB0_7:``, perhaps with a
comment) reads what the line-by-line way reads: the same text with every such line indented by one blank (a
blank before the label takes the line-by-line way, which strips it) is the oracle. Generated functions mix
instructions, local and block labels, MIR block comments, ``implicit-def`` markers (empty blocks move them),
duplicate labels (an error), directives and lines that only look like labels."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.errors import ParseError
from isalens.isa.amdgcn.drafts import ReadResult
from isalens.isa.amdgcn.llvm_assembly import read_llvm

_LABELS = [".LBB0_1", ".LBB0_2", ".LBB0_0x3", ".Ltmp0", ".L.str", ".LBB1_1", ".Lfunc_end0", ".LBB0_1x"]
_COMMENTS = ["", "   ; =>This Inner Loop Header: Depth=1", "\t; in Loop: Header=BB0_3", ";", " ; .amdgcn_target \"x\""]
_OTHER = ["\ts_nop 0", "\tv_add_f32 v0, v1, v2 ; note", "\ts_branch .LBB0_2", "; %bb.1:", "; %bb.3:",
          "; implicit-def: $vgpr4",
          "\t.p2align 8", "", ".LBB0_9: s_nop 1", ".LBB0_4:x", ".LBB0_5 :", "\t; implicit-def: $sgpr2_sgpr3",
          "\t.section .rodata", "\t.text"]

_LINE = st.one_of(
    st.tuples(st.sampled_from(_LABELS), st.sampled_from(_COMMENTS)).map(lambda t: f"{t[0]}:{t[1]}"),
    st.sampled_from(_OTHER))


def _read(text: str) -> ReadResult | str:
    try:
        return read_llvm(text, "t.s")
    except ParseError as exc:
        return f"{exc.line}: {exc.message}"


def _indented(line: str) -> str:
    return " " + line if line.startswith(".L") else line


@settings(max_examples=1000, deadline=None)
@given(st.lists(_LINE, max_size=30), st.booleans())
def test_a_label_line_reads_as_the_line_by_line_way_reads_it(body: list[str], ended: bool) -> None:
    lines = ["\t.text", "f:", *body, *([".Lfunc_end0:"] if ended else [])]
    fast = _read("\n".join(lines) + "\n")
    slow = _read("\n".join(map(_indented, lines)) + "\n")
    assert fast == slow


def test_the_short_way_keeps_block_numbers_and_duplicate_errors() -> None:
    """Hand-worked: two block labels and a local label, then a label defined twice."""
    text = "\t.text\nf:\n\ts_nop 0\n.LBB0_4:  ; c\n.Ltmp1:\n\ts_nop 1\n.Lfunc_end0:\n"
    draft = read_llvm(text, "t.s").drafts[0]
    assert draft.labels == {".LBB0_4": 1, ".Ltmp1": 1}
    assert draft.blocks == {4: 1}
    assert isinstance(_read("\t.text\nf:\n.LBB0_4:\n\ts_nop 0\n.LBB0_4:\n"), str)
