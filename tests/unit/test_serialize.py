"""Streamed JSON writing gives the same bytes as the one-shot encoder (the CLI streams per-line arrays)."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.report import serialize
from isalens.report.serialize import Streamed, dumps, write


def _doc(a: list[int], b: list[int]) -> tuple[dict[str, object], dict[str, object]]:
    streamed = {"z": 1, "files": [{"lines": Streamed(a, lambda x: {"n": x, "t": f"v{x}"})},
                                  {"lines": Streamed(b, lambda x: [x, None])}], "a": "\u0000"}
    plain = {"z": 1, "files": [{"lines": [{"n": x, "t": f"v{x}"} for x in a]},
                               {"lines": [[x, None] for x in b]}], "a": "\u0000"}
    return streamed, plain


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=30), st.lists(st.integers(0, 2**64 - 1), max_size=30),
       st.integers(1, 7))
def test_streamed_writing_equals_one_shot_encoding(a: list[int], b: list[int], chunk: int) -> None:
    streamed, plain = _doc(a, b)
    old = serialize._CHUNK
    serialize._CHUNK = chunk  # small chunks, so several chunk joins happen
    try:
        out = io.StringIO()
        write(streamed, out)
    finally:
        serialize._CHUNK = old
    expected = json.dumps(plain, sort_keys=True, separators=(",", ":")) + "\n"
    assert out.getvalue() == expected
    assert dumps(_doc(a, b)[0]) == expected
    pretty = io.StringIO()
    write(_doc(a, b)[0], pretty, pretty=True)
    assert json.loads(pretty.getvalue()) == plain
