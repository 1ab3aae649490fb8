"""JSON text from report dicts: compact and fast by default (orjson), indented for people with ``pretty``.

Keys are sorted and there are no timestamps, so the same input always gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from json.encoder import encode_basestring_ascii
from typing import Any, Protocol

import orjson

__all__ = ["Streamed", "dumps", "write", "write_rows"]

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
#: values serialised per orjson call when a list is streamed
_CHUNK = 4096


class Streamed:
    """A JSON array whose items are made while it is written (:func:`write`), so a listing of a million
    lines never exists as a million dicts at once; :func:`dumps` writes it like a list."""

    __slots__ = ("_encoded", "_items", "_make")

    def __init__(self, items: Iterable[Any], make: Callable[[Any], Any] | None = None, *,
                 encoded: Callable[[], Iterable[str]] | None = None) -> None:
        self._items, self._make = items, make  # no ``make``: the items are the values
        # the items' JSON text already made (chunks of compact, key-sorted objects joined by commas), which
        # :func:`write` takes instead of serialising the items (the compiled listing writer, isalens._core)
        self._encoded = encoded

    def __iter__(self) -> Any:
        make = self._make
        return iter(self._items) if make is None else (make(x) for x in self._items)


def array(items: Iterable[Any], make: Callable[[Any], Any], *, stream: bool) -> Any:
    """A JSON array of ``make(x)`` for each item: :class:`Streamed` when ``stream``, else a list."""
    return Streamed(items, make) if stream else [make(x) for x in items]


def _as_list(obj: Any) -> Any:
    if isinstance(obj, Streamed):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def dumps(doc: Any, *, pretty: bool = False, indent: int | None = None, sort_keys: bool = True,
          default: Callable[[Any], Any] | None = None) -> str:
    """``doc`` as JSON text ending in a newline: every command's JSON comes from here.

    Compact, or indented by two with ``pretty``, through orjson (non-finite floats become null, as JSON has no
    such numbers). With ``indent``, the layout of Python's json module instead: the commands whose ``--json``
    has always been indented by one space keep it byte for byte. Keys are sorted unless ``sort_keys`` is false
    (a query's columns keep their order); ``default`` turns a value JSON has no type for into one it has.
    """
    if indent is not None:
        return json.dumps(doc, indent=indent, sort_keys=sort_keys, default=default or _as_list) + "\n"
    option = (_OPTIONS if sort_keys else orjson.OPT_NON_STR_KEYS) | (orjson.OPT_INDENT_2 if pretty else 0)
    return orjson.dumps(doc, default=default or _as_list, option=option).decode("utf-8") + "\n"


class Writer(Protocol):
    """Anything text can be written to: an open file, ``io.StringIO``, an escaping filter."""

    def write(self, text: str, /) -> int: ...


def write(doc: Any, out: Writer, *, pretty: bool = False, end: str = "\n") -> None:
    """Write ``dumps(doc)`` to ``out`` (anything with ``write(str)``), ending in ``end`` instead of a newline;
    compact output streams each :class:`Streamed` array in chunks."""
    if pretty:
        out.write(dumps(doc, pretty=True)[:-1] + end)
        return
    streams: list[Streamed] = []

    def mark(obj: Any) -> Any:
        if isinstance(obj, Streamed):
            streams.append(obj)
            return f"\x00{len(streams) - 1}\x00"  # a string no report holds: orjson writes it as "\u0000N\u0000"
        raise TypeError(f"not JSON serialisable: {type(obj).__name__}")

    text = orjson.dumps(doc, default=mark, option=_OPTIONS).decode("utf-8")
    for n, stream in enumerate(streams):
        head, text = text.split(f'"\\u0000{n}\\u0000"', 1)
        out.write(head)
        out.write("[")
        first = True
        if stream._encoded is not None:
            for part in stream._encoded():
                if part:
                    out.write(part if first else "," + part)
                    first = False
            out.write("]")
            continue
        chunk: list[Any] = []
        for item in stream:
            chunk.append(item)
            if len(chunk) == _CHUNK:
                out.write(("" if first else ",") + orjson.dumps(chunk, option=_OPTIONS).decode("utf-8")[1:-1])
                first, chunk = False, []
        if chunk:
            out.write(("" if first else ",") + orjson.dumps(chunk, option=_OPTIONS).decode("utf-8")[1:-1])
        out.write("]")
    out.write(text + end)


def _float_text(value: float) -> str:
    """A float as json.dumps writes it (NaN and the infinities by name, as JavaScript spells them)."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


#: each scalar type's JSON text as json.dumps writes it, by exact type: 10 million cells (an 80,000-row result
#: of 133 columns) took 30 s through json.dumps per cell and ~3x less this way (the string encoder is the C
#: function json.dumps itself calls)
_SCALAR_TEXT: dict[type, Callable[[Any], str]] = {
    str: encode_basestring_ascii, int: int.__repr__, float: _float_text,
    bool: lambda value: "true" if value else "false", type(None): lambda _: "null"}


def _value_text(value: Any) -> str:
    """Any other value (a list, struct or date column, or a subclass of a scalar) as json.dumps lays it out
    one level deeper."""
    if isinstance(value, (str, int, float, bool)):
        return json.dumps(value)
    return dumps(value, indent=1, sort_keys=False, default=str)[:-1].replace("\n", "\n  ")


def _row_object(keys: Sequence[str], row: Sequence[Any]) -> str:
    """One row object laid out as an item of ``dumps(rows, indent=1, sort_keys=False)`` (``keys``: each column
    name already written as ``"name": ``), made by hand: json's indented encoder builds a reference cycle per
    call, and the CLI pauses the cyclic collector (80,000 rows of 100 columns kept 390 MB of them)."""
    if not keys:
        return "{}"
    text = _SCALAR_TEXT.get
    return "{\n  " + ",\n  ".join([key + (encode(value) if (encode := text(type(value))) is not None
                                          else _value_text(value))
                                    for key, value in zip(keys, row, strict=True)]) + "\n }"


def write_rows(names: Sequence[str], rows: Iterable[Sequence[Any]], out: Writer) -> None:
    """Rows as a JSON array of objects (columns in order), byte for byte what ``dumps`` with ``indent=1``,
    ``sort_keys=False`` and ``default=str`` gives for the list of dicts, written row by row (``query --json``
    on a library's 88k rows never holds them all)."""
    keys = [f"{json.dumps(name)}: " for name in names]
    first = True
    for row in rows:
        out.write(("[\n " if first else ",\n ") + _row_object(keys, row))
        first = False
    out.write("[]\n" if first else "\n]\n")
