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


def _compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=20), st.integers(1, 5), st.text(max_size=4))
def test_encoded_bytes_chunks_written_in_order(texts: list[str], size: int, tail: str) -> None:
    """A stream's UTF-8 chunks (the compiled listing writer's) go to a UTF-8 text file's byte stream after the
    text before them and before the text after them, and are decoded for any other writer: the same text as
    json.dumps of the plain document either way."""
    texts = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]  # no lone surrogates (orjson refuses)
    items = [{"t": t} for t in texts]
    # empty chunks among them, as a listing of no lines gives
    chunks = [_compact(items[i:i + size])[1:-1].encode("utf-8") for i in range(0, len(items), size)] + [b""]
    plain = {"a": tail, "lines": items, "z": tail}
    expected = _compact(plain) + "\n"
    for make in (io.StringIO, lambda: io.TextIOWrapper(io.BytesIO(), encoding="utf-8")):
        out = make()
        write({"a": tail, "lines": Streamed(items, encoded=lambda: iter(chunks)), "z": tail}, out)
        out.flush()
        got = out.getvalue() if isinstance(out, io.StringIO) else out.buffer.getvalue().decode("utf-8")
        assert got == expected
