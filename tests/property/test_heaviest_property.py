"""A region's heaviest lines (``_core.heaviest``): the compiled core gives the reference's keys, and both are by
definition the keys sorted by weight descending, ties by key ascending, cut to ``top`` (that sort is the oracle),
on generated dicts (small weights: many ties; negative and huge keys and weights, which the compiled core leaves
to the reference); a hand-worked case; both refuse a negative ``top``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens._core import totals

compiled = pytest.importorskip("isalens._core._compiled", reason="compiled core not built")

_KEYS = st.integers(-5, 300) | st.integers(-(1 << 70), 1 << 70)
_WEIGHTS = st.integers(-3, 12) | st.integers(-(1 << 70), 1 << 70)


@settings(max_examples=1000, deadline=None)
@given(st.dictionaries(_KEYS, _WEIGHTS, max_size=80), st.integers(0, 40))
def test_compiled_heaviest_equals_the_sorted_cut(weights: dict[int, int], top: int) -> None:
    expected = tuple(k for k, _w in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:top])
    assert totals.heaviest(weights, top) == expected
    assert compiled.heaviest(weights, top) == expected


def test_hand_worked_case() -> None:
    # line 7 weighs 5; lines 3, 9 and 20 weigh 4 (ties by line: 3, 9, 20); line 1 weighs 2
    weights = {9: 4, 1: 2, 7: 5, 20: 4, 3: 4}
    for function in (totals.heaviest, compiled.heaviest):
        assert function(weights, 3) == (7, 3, 9)
        assert function(weights, 4) == (7, 3, 9, 20)
        assert function(weights, 10) == (7, 3, 9, 20, 1)
        assert function(weights, 0) == ()
        assert function({}, 16) == ()


def test_both_refuse_a_negative_top() -> None:
    for function in (totals.heaviest, compiled.heaviest):
        with pytest.raises(ValueError, match="top"):
            function({1: 1}, -1)
