"""A timing region's sums count each costs object over the region's ranges (``_core.object_counts``): the compiled
core gives the reference's counts in the reference's order, and the reference is ``collections.Counter`` of the
ids met position by position (its definition), on generated lists of shared objects and ranges (empty, repeated,
overlapping, negative positions as Python indexes them); and both refuse ranges past the end alike."""

from __future__ import annotations

from collections import Counter
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens._core import totals

compiled = pytest.importorskip("isalens._core._compiled", reason="compiled core not built")

_OBJECTS = [object() for _ in range(5)]


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[object], list[int], list[int]]:
    items = draw(st.lists(st.sampled_from(_OBJECTS), max_size=40))
    n = len(items)
    ranges = draw(st.lists(st.tuples(st.integers(-n, n), st.integers(-n, n)), max_size=8))
    return items, [lo for lo, _ in ranges], [hi for _, hi in ranges]


@settings(max_examples=1000, deadline=None)
@given(cases())
def test_compiled_object_counts_equal_the_reference(case: tuple[list[object], list[int], list[int]]) -> None:
    items, starts, ends = case
    want = totals.object_counts(items, starts, ends)
    got = compiled.object_counts(items, starts, ends)
    assert list(got.items()) == list(want.items())
    defined = Counter(map(id, map(items.__getitem__, chain.from_iterable(map(range, starts, ends)))))
    assert list(want.items()) == list(defined.items())


def test_both_refuse_what_indexing_refuses() -> None:
    for function in (totals.object_counts, compiled.object_counts):
        with pytest.raises(IndexError):
            function([object()], [0], [2])
        with pytest.raises(ValueError, match="differ in length"):
            function([object()], [0], [])
