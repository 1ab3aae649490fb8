"""The reader's loop over branches to labels (``_core.labelled_rows``): the compiled core gives the reference's
rows, tails, placeholder texts met and positions left, on generated lines (branches to plain and odd labels,
texts decoded before, lines with addresses, rows made already); and the reference makes a branch's row from
its placeholder text's tail with its own text and label (a worked case)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens._core import reading

compiled = pytest.importorskip("isalens._core._compiled", reason="compiled core not built")

_PLACEHOLDER = ".Lisalens_label"


class Item:
    """A drafted line (``DraftInstruction``'s attributes)."""

    __slots__ = ("address", "encoding", "line", "text")

    def __init__(self, line: int, text: str, address: int | None, encoding: tuple[int, ...]) -> None:
        self.line, self.text, self.address, self.encoding = line, text, address, encoding


class Row(NamedTuple):
    position: int
    line: int
    text: str
    mnemonic: str
    operands: tuple[Any, ...]
    modifiers: tuple[str, ...]
    defs: int
    uses: int
    branch: str
    target: str | None
    facts: str


class Label(NamedTuple):
    text: str


_HEADS = ["s_branch", "s_cbranch_scc1", "s_cbranch_execz", "s_cbranch_vccnz", "v_add_f32 v0,", "s_call a::b,",
          "s_nop"]
_LABELS = [".LBB0_1", ".LBB0_0x2", ".L$x.y", ".L", ".", ".Lé", _PLACEHOLDER, "label", "0x10", ".LBB0_3+4"]
_TEXTS = st.one_of(st.tuples(st.sampled_from(_HEADS), st.sampled_from(_LABELS)).map(" ".join),
                   st.sampled_from(["s_nop 0", "s_endpgm", "s_branch"]))


def _tail(text: str) -> tuple[Any, ...]:
    head = text.rpartition(" ")[0]
    return (text, head.split()[0], ("op", Label(text.rpartition(" ")[2])), ("m",), 3, 4, "jump",
            text.rpartition(" ")[2], "facts")


@st.composite
def cases(draw: st.DrawFn) -> tuple[int, list[Item], list[int], dict[str, tuple[Any, ...]], set[str], list[Any]]:
    n = draw(st.integers(0, 25))
    items = [Item(draw(st.integers(1, 9999)), draw(_TEXTS), draw(st.none() | st.none() | st.integers(0, 99)),
                  draw(st.just(()) | st.just(()) | st.tuples(st.integers(0, 9)))) for _ in range(n)]
    known = draw(st.sets(st.sampled_from([*(h + " " + _PLACEHOLDER for h in _HEADS), "s_nop 0", "s_branch .LBB0_1"])))
    tails = {text: _tail(text) for text in known}
    decoded = draw(st.sets(st.sampled_from(["s_branch .LBB0_1", "s_cbranch_scc1 .LBB0_0x2", "s_nop 0"])))
    rows: list[Any] = [draw(st.none() | st.none() | st.just(object())) for _ in range(n)]
    missing = sorted(draw(st.sets(st.integers(0, n - 1)))) if n else []
    return draw(st.integers(0, 1 << 40)), items, missing, tails, decoded, rows


@settings(max_examples=1000, deadline=None)
@given(cases())
def test_compiled_labelled_rows_equal_the_reference(
        case: tuple[int, list[Item], list[int], dict[str, tuple[Any, ...]], set[str], list[Any]]) -> None:
    first, items, missing, tails, decoded, rows = case
    want_rows, got_rows = list(rows), list(rows)
    want_tails, got_tails = dict(tails), dict(tails)
    want_unknown: dict[str, int] = {}
    got_unknown: dict[str, int] = {}
    want = reading.labelled_rows(Row, first, items, missing, want_tails, decoded, want_rows, _PLACEHOLDER, Label,
                                 want_unknown)
    got = compiled.labelled_rows(Row, first, items, missing, got_tails, decoded, got_rows, _PLACEHOLDER, Label,
                                 got_unknown)
    assert got == want
    assert [(type(r), r) for r in got_rows] == [(type(r), r) for r in want_rows]
    assert got_tails == want_tails
    assert list(got_unknown.items()) == list(want_unknown.items())


def test_a_branch_row_is_its_placeholder_tail_with_its_label() -> None:
    """Worked by hand: two branches of one form to two labels, one form without a tail yet, a text decoded
    before (left to the reader), a line with an address (left), a label that is no plain symbol (left)."""
    texts = ["s_branch .LBB0_7", "s_cbranch_scc1 .LBB0_2", "s_branch .LBB0_9", "s_branch .LBB0_1",
             "s_branch .LBB0_3", "s_branch 0x10", "s_cbranch_scc1 .LBB0_5"]
    items = [Item(10 + k, t, 0x40 if k == 4 else None, ()) for k, t in enumerate(texts)]
    generic = "s_branch " + _PLACEHOLDER
    tails = {generic: _tail(generic)}
    rows: list[Any] = [None] * len(items)
    unknown: dict[str, int] = {}
    left = reading.labelled_rows(Row, 100, items, range(len(items)), tails, {"s_branch .LBB0_1"}, rows,
                                 _PLACEHOLDER, Label, unknown)
    assert left == [1, 3, 4, 5, 6]
    assert unknown == {"s_cbranch_scc1 " + _PLACEHOLDER: 1}
    assert rows[0] == Row(100, 10, "s_branch .LBB0_7", "s_branch", ("op", Label(".LBB0_7")), ("m",), 3, 4, "jump",
                          ".LBB0_7", "facts")
    assert rows[2] == Row(102, 12, "s_branch .LBB0_9", "s_branch", ("op", Label(".LBB0_9")), ("m",), 3, 4, "jump",
                          ".LBB0_9", "facts")
    assert tails["s_branch .LBB0_9"] == rows[2][2:]
