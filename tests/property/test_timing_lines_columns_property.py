"""The timing rows kept as compact columns (twenty-third session, 1M memory): :class:`TimingLines` stores its
starts and stalls as int32 (int64 when a value does not fit) and each reason as a byte naming one of the distinct
reasons (the list itself past 256 of them), or, not ``compacted``, the columns as given. Oracle: the row read
straight from the columns it was given, as the class did before
(``LineTiming(i, lines[i], unit, issue, starts[i], stalls[i], reasons[i])``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.timing.model import LineTiming
from isalens.analysis.timing.schedule import TimingLines, compact

_INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_CYCLES = st.one_of(st.integers(min_value=0, max_value=2**31 - 1), _INT64)


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_rows_read_from_the_columns_given(data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=0, max_value=40))
    many = data.draw(st.booleans())  # past 256 distinct reasons: the list kept as it is
    reasons = [f"r{k}" for k in range(300)] if many else data.draw(
        st.lists(st.sampled_from(["", "unit", "dependency", "vmcnt", "hazard"]), min_size=n, max_size=n))
    n = len(reasons)
    starts = data.draw(st.lists(_CYCLES, min_size=n, max_size=n))
    stalls = data.draw(st.lists(_CYCLES, min_size=n, max_size=n))
    lines = list(range(1, n + 1))
    statics = [SimpleNamespace(timing=SimpleNamespace(unit=data.draw(st.sampled_from(["valu", "salu", "vmem"]))),
                               issue=data.draw(st.integers(min_value=1, max_value=64))) for _ in range(n)]
    indices = sorted(data.draw(st.sets(st.integers(min_value=0, max_value=max(n - 1, 0)), max_size=n))) if n else []
    compacted = data.draw(st.booleans())  # the pass compacts from 250,000 instructions only
    got = TimingLines(indices, lines, cast(Any, statics), starts, stalls, reasons, compacted=compacted)
    want = [LineTiming(i, lines[i], statics[i].timing.unit, statics[i].issue, starts[i], stalls[i], reasons[i])
            for i in indices]
    assert list(got) == want
    assert [got[k] for k in range(len(indices))] == want


@given(st.lists(_INT64, max_size=30))
def test_compact_keeps_every_value(values: list[int]) -> None:
    column = compact(values)
    assert list(column) == values
    assert column.itemsize == (4 if all(-(2**31) <= v < 2**31 for v in values) else 8)
