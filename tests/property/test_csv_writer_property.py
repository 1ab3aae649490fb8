"""``SafeWriter.writerows`` (blocks through one csv call) writes the same text as ``writerow`` row by row,
and what it writes reads back, through the csv module, as the rows with formula cells quoted."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.report.csv import SafeWriter, safe_row

# cells that exercise every quoting rule: separators, quotes, both line-end characters, formula starts
_TEXT = st.text(alphabet=st.sampled_from(list('ab ,"\r\n\t=+-@\'x;')), max_size=8)
_CELL = st.one_of(_TEXT, st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False), st.none())
_ROWS = st.lists(st.lists(_CELL, min_size=1, max_size=5), max_size=40)


def _row_by_row(rows: list[list[object]]) -> str:
    out = io.StringIO()
    writer = SafeWriter(out)
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


@settings(max_examples=400, deadline=None)
@given(_ROWS)
def test_writerows_equals_writerow_row_by_row(rows: list[list[object]]) -> None:
    out = io.StringIO()
    SafeWriter(out).writerows(rows)
    assert out.getvalue() == _row_by_row(rows)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_TEXT, min_size=1, max_size=5), min_size=1, max_size=40))
def test_text_rows_read_back_with_formulas_quoted(rows: list[list[str]]) -> None:
    out = io.StringIO()
    SafeWriter(out).writerows(rows)
    assert list(csv.reader(io.StringIO(out.getvalue(), newline=""))) == [
        [str(c) for c in safe_row(row)] for row in rows]


def test_many_rows_cross_blocks() -> None:
    # 3,000 rows: many blocks, one of them holding a carriage return (the row-by-row path) -- the oracle is
    # the row-by-row writer, which quotes every cell holding \r
    rows: list[list[object]] = [[i, f"k{i}", "=x" if i % 7 == 0 else "y"] for i in range(3000)]
    rows[1500][1] = "a\rb"
    out = io.StringIO()
    SafeWriter(out).writerows(rows)
    assert out.getvalue() == _row_by_row(rows)
