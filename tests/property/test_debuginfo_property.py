"""Bad debug information never crashes and never changes an ISA figure (issue 27): random ``.file``, ``.loc`` and
``;DEBUG_VALUE:`` lines (well-formed, damaged, huge numbers, unknown files and registers) put between the
instructions of a kernel give the same per-line live counts, peaks and requested registers as the same text
with those lines blank, and at most warnings."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import isalens

BODY = ["s_load_dwordx2 s[0:1], s[4:5], 0x0", "v_mov_b32 v1, 0", "v_add_f32 v1, v1, v0", "s_waitcnt lgkmcnt(0)",
        "v_mul_f32 v2, v1, v1", "global_store_dword v[0:1], v2, off", "s_endpgm"]
_NUM = st.one_of(st.integers(0, 5), st.integers(0, 10**30))
_NAME = st.text("abcxyz_.[]:$01", min_size=0, max_size=8)
_REG = st.sampled_from(["$vgpr1", "$vgpr0_vgpr1", "$sgpr4", "$vgpr300", "$agpr2", "$vgpr1_lo16", "$foo", "undef",
                        "3", "1.5e+00"])
_DEBUG_LINE = st.one_of(
    st.builds(lambda f, d, n: f'\t.file\t{f} "{d}" "{n}"', _NUM, _NAME, _NAME),
    st.builds(lambda f, n: f'\t.file\t{f} "{n}" md5 0x12', _NUM, _NAME),
    st.builds(lambda f, ln, c, tail: f"\t.loc\t{f} {ln} {c}{tail}", _NUM, _NUM, _NUM,
              st.sampled_from(["", " prologue_end", " is_stmt 0", " discriminator 3", " garbage"])),
    st.builds(lambda v, frag, r: f"\t;DEBUG_VALUE: k:{v} <- [DW_OP_constu 1{frag}] {r}", _NAME,
              st.sampled_from(["", ", DW_OP_LLVM_fragment 32 16", ", DW_OP_deref"]), _REG),
    st.sampled_from(["\t.loc", "\t.file", "\t;DEBUG_VALUE:", "\t;DEBUG_VALUE: x <-", '\t.file\t1 "unterminated']),
)


def _text(debug: list[list[str]], blank: bool) -> str:
    lines = ['\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"', "\t.text", "k:"]
    for ins, extra in zip(BODY, debug, strict=True):
        lines += ["" if blank else d for d in extra]
        lines.append("\t" + ins)
    return "\n".join([*lines, ".Lfunc_end0:"]) + "\n"


def _figures(doc: dict[str, Any]) -> Any:
    (k,) = doc["files"][0]["kernels"]
    return ([(r["line"], r["live_vgpr"], r["live_sgpr"]) for r in k["lines"]], k["vgpr"], k["sgpr"], k["occupancy"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_DEBUG_LINE, max_size=3), min_size=len(BODY), max_size=len(BODY)))
def test_debug_lines_never_change_a_figure(debug: list[list[str]]) -> None:
    with_debug = isalens.analyze(_text(debug, blank=False)).to_dict()
    plain = isalens.analyze(_text(debug, blank=True)).to_dict()
    assert "error" not in with_debug["files"][0], with_debug["files"][0].get("error")
    assert _figures(with_debug) == _figures(plain)
    assert all(d["severity"] != "error" for d in with_debug["files"][0]["diagnostics"])


_PIECE = st.sampled_from([".loc\t0 3 1", ".loc 1 7", ".file\t0 \"/d\" \"k.cl\"", ".file 1 \"h.h\"", ".locx 1 2",
                          "v_mov_b32 v1, 0", "; .loc 0 9", "", "k:", ".p2align 6"])
_SPACE = st.text(" \t\f\v\x85\u2028\x1c", max_size=3)
_END = st.sampled_from(["\n", "\r\n", "\r"])


@given(st.lists(st.tuples(_SPACE, _PIECE, _END), max_size=30))
@settings(max_examples=300, deadline=None)
def test_directive_scan_finds_the_lines_a_line_by_line_reading_finds(parts: list[tuple[str, str, str]]) -> None:
    # the .loc reader finds its directives with one regular-expression scan (benchmarks/source_overhead.py);
    # the oracle is the plain reading: every line of lines_of, left-stripped, starting with .file or .loc,
    # numbered from 1. Mixed line ends and exotic white space must not shift a number or lose a line.
    from isalens.isa.amdgcn.debuginfo import _candidate_lines
    from isalens.lines import lines_of

    text = "".join(space + piece + end for space, piece, end in parts)
    expected = [(n, line.lstrip()) for n, line in enumerate(lines_of(text), start=1)
                if line.lstrip().startswith((".file", ".loc"))]
    assert [(n, line.lstrip()) for n, line in _candidate_lines(text, False)] == expected
