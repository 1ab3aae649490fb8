"""``serialize.write_rows`` (``query --json``, streamed) writes what Python's json module writes for the same
rows as a list of dicts with ``indent=1`` (the oracle: the standard library)."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from isalens.report.serialize import write_rows

_values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                    st.lists(st.integers(), max_size=3),
                    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@given(st.lists(st.text(max_size=6), max_size=4, unique=True).flatmap(
    lambda names: st.tuples(st.just(names), st.lists(st.tuples(*[_values for _ in names]), max_size=4))))
@example((["f", "b", "n", "s", "l"], [(float("inf"), True, None, "\u00e9\"\n", [1, {"k": -0.0}]),
                                     (float("-inf"), False, float("nan"), "", []), (1e300, 0, -5, "x", {})]))
def test_write_rows_equals_json_dumps(case: tuple[list[str], list[tuple[Any, ...]]]) -> None:
    names, rows = case
    out = io.StringIO()
    write_rows(names, rows, out)
    expected = json.dumps([dict(zip(names, row, strict=True)) for row in rows], indent=1, default=str) + "\n"
    assert out.getvalue() == expected
