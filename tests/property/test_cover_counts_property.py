"""The pressure advice's coverage column (``_core.cover_counts``: how many values free at each instruction): the
compiled core gives the reference's column, and the reference is ``collections.Counter`` of the positions met
(negative ones counted from the end, as an array indexes them), on generated columns (int64 arrays as the advice's
``frees_at``, lists, empty ones, repeats); a hand-worked case; and both refuse a position outside the column."""

from __future__ import annotations

from array import array
from collections import Counter
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens._core import totals

compiled = pytest.importorskip("isalens._core._compiled", reason="compiled core not built")


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[array[int] | list[int]], int]:
    n = draw(st.integers(0, 40))
    columns: list[array[int] | list[int]] = []
    for _ in range(draw(st.integers(0, 6))):
        column = draw(st.lists(st.integers(-n, n - 1), max_size=50)) if n else []
        columns.append(array("q", column) if draw(st.booleans()) else column)
    return columns, n


@settings(max_examples=1000, deadline=None)
@given(cases())
def test_compiled_cover_counts_equal_the_reference(case: tuple[list[array[int] | list[int]], int]) -> None:
    columns, n = case
    want = totals.cover_counts(columns, n)
    got = compiled.cover_counts(columns, n)
    assert got.typecode == want.typecode == "i"
    assert got == want
    met = Counter(i % n for i in chain.from_iterable(columns)) if n else Counter()
    assert list(want) == [met[i] for i in range(n)]


def test_hand_worked_case() -> None:
    # positions 0, 2, 2 and 3 (-1 of 4) in the first column, 1 and 3 in the second, none in the third
    columns = [array("q", [0, 2, 2, -1]), [1, 3], array("q")]
    for function in (totals.cover_counts, compiled.cover_counts):
        assert list(function(columns, 4)) == [1, 1, 2, 2]
        assert list(function(iter(columns), 5)) == [1, 1, 2, 1, 1]  # -1 of 5 is 4


def test_both_refuse_what_indexing_refuses() -> None:
    for function in (totals.cover_counts, compiled.cover_counts):
        for bad in ([array("q", [4])], [[-5]], [array("q", [1 << 40])], [[1 << 70]], [[-(1 << 70)]]):
            with pytest.raises(IndexError):
                function(bad, 4)
