"""The small-document JSON writer (isalens.report.serialize) writes what orjson writes. The oracle is orjson
itself, the writer every command used before and still uses for documents this one declines."""

from __future__ import annotations

import struct
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.report import serialize
from isalens.report.serialize import Streamed, _NotSmall, _small_text, float_text

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _orjson(doc: Any) -> str:
    return orjson.dumps(doc, default=serialize._as_list, option=OPTIONS).decode("utf-8")


@settings(max_examples=20_000, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_every_float_is_written_as_orjson_writes_it(value: float) -> None:
    assert float_text(value) == _orjson(value)


@settings(max_examples=5_000, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 64) - 1))
def test_every_bit_pattern_of_a_double_is_written_as_orjson_writes_it(bits: int) -> None:
    """Every 64-bit pattern, so subnormals, the exponent edges and every exponent are drawn, not only the
    floats hypothesis likes."""
    value = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    assert float_text(value) == _orjson(value)


@pytest.mark.parametrize("value", [1e-5, 2.5e-5, -9.999999999999999e-5, 1e-4, 1e-6, 5e-324, 1e16, 9.999999999999998e15,
                                   1e21, 1e22, -0.0, 0.0, 1.7976931348623157e308, 2.2250738585072014e-308])
def test_the_format_edges(value: float) -> None:
    assert float_text(value) == _orjson(value)


#: JSON documents as the reports hold them (every control character and non-ASCII text included)
_SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
            | st.floats() | st.text())
_DOCS = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=5) | st.lists(inner, max_size=3).map(tuple)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=40)


@settings(max_examples=3_000, deadline=None)
@given(_DOCS)
def test_a_document_is_written_as_orjson_writes_it(doc: Any) -> None:
    assert _small_text(doc, serialize._as_list) == _orjson(doc)


@settings(max_examples=2_000, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=("Cs",))))
def test_every_string_is_escaped_as_orjson_escapes_it(text: str) -> None:
    assert _small_text({text: text}, serialize._as_list) == _orjson({text: text})


@pytest.mark.parametrize("doc", [1 << 64, -(1 << 63) - 1, {1: 2}, {"a": {(1, 2): 3}}, "\ud800", [object()],
                                 {"x": 1.5, "y": [set()]}])
def test_what_it_does_not_write_as_orjson_would_is_left_to_orjson(doc: Any) -> None:
    with pytest.raises(_NotSmall):
        _small_text(doc, serialize._as_list)


def test_a_streamed_array_and_the_written_document_are_orjsons() -> None:
    import io
    doc = {"b": [1, 2.5e-5], "a": Streamed([{"z": 1, "y": "é\n"}, {"k": None}]), "c": Streamed(range(3))}
    out = io.StringIO()
    serialize.write(doc, out)
    assert out.getvalue() == _orjson(doc) + "\n"
    assert serialize.dumps(doc) == _orjson(doc) + "\n"


def test_a_large_document_is_left_to_orjson() -> None:
    with pytest.raises(_NotSmall):
        _small_text([0] * (serialize._SMALL_VALUES + 1), serialize._as_list)
