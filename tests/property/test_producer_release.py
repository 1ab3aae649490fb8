"""The LLVM release an input names as its producer (``.ident``) is found without splitting the text into lines:
the answer equals the first ``.ident`` line's ``clang version N.`` of a line-by-line reading."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from isalens.analysis.abi import llvm_major_of


def by_lines(text: str) -> int | None:
    """The reading before: every line, the first ``.ident`` line naming a clang release."""
    for line in text.splitlines():
        if ".ident" in line:
            m = re.search(r"\bclang version (\d+)\.", line)
            if m:
                return int(m.group(1))
    return None


_PIECES = st.sampled_from([
    "\t.ident\t\"clang version 19.1.7 (3~deb12u1)\"", "\t.ident\t\"AMD clang version 17.0.0\"",
    ".ident \"GCC\"", "; .ident clang", "clang version 18.1.0", "v_mov_b32 v0, v1", "", "  ", ".identclang version 5.",
    "\t.ident\t\"Debian clang version 16.0.6 (15)\"", "x.ident\"clang version 3.9\""])


@given(st.lists(_PIECES, max_size=12), st.sampled_from(["\n", "\r\n", "\r"]))
def test_the_release_equals_a_line_by_line_reading(pieces: list[str], newline: str) -> None:
    text = newline.join(pieces)
    assert llvm_major_of(text) == by_lines(text)


def test_the_first_naming_line_wins() -> None:
    text = '.ident "GCC"\n\t.ident\t"clang version 19.1.7"\n.ident "clang version 17.0.1"\n'
    assert llvm_major_of(text) == 19
    assert llvm_major_of("v_nop\n") is None
