"""JSON text from report dicts: compact and fast by default (orjson), indented for people with ``pretty``.

Keys are sorted and there are no timestamps, so the same input always gives the same bytes. A small compact
document (a small kernel's report: its line listing is written by the core) is written here in Python, byte
for byte as orjson writes it, and orjson is imported only for the others: its import costs a small run ~20 ms.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any, Protocol

try:  # the C string encoders json.encoder itself takes: importing json (and its decoder and scanner) was ~1.3 ms
    # of a small run's start-up (docs/performance.md, twenty-first session); json is imported where it is used
    from _json import encode_basestring as _encode_str
    from _json import encode_basestring_ascii
except ImportError:  # an interpreter without json's accelerator: json's own (pure-Python) encoders
    from json.encoder import encode_basestring as _encode_str
    from json.encoder import encode_basestring_ascii

__all__ = ["Streamed", "dumps", "float_text", "joined_chunks", "json_string", "write", "write_rows"]

#: a str as JSON text, as orjson writes it (non-ASCII as is; tests/property/test_json_small.py)
json_string: Callable[[str], str] = _encode_str

#: values serialised per orjson call when a list is streamed
_CHUNK = 4096


class Streamed:
    """A JSON array whose items are made while it is written (:func:`write`), so a listing of a million
    lines never exists as a million dicts at once; :func:`dumps` writes it like a list."""

    __slots__ = ("_encoded", "_items", "_make")

    def __init__(self, items: Iterable[Any], make: Callable[[Any], Any] | None = None, *,
                 encoded: Callable[[], Iterable[bytes]] | None = None) -> None:
        self._items, self._make = items, make  # no ``make``: the items are the values
        # the items' JSON text already made (UTF-8 chunks of compact, key-sorted objects joined by commas), which
        # :func:`write` takes instead of serialising the items (the compiled listing writer, isalens._core)
        self._encoded = encoded

    def __iter__(self) -> Any:
        make = self._make
        return iter(self._items) if make is None else (make(x) for x in self._items)


def joined_chunks(texts: Iterable[str], size: int = _CHUNK) -> Iterator[bytes]:
    """JSON texts as :class:`Streamed`'s ``encoded`` chunks: UTF-8, ``size`` texts at a time joined by commas."""
    parts: list[str] = []
    for text in texts:
        parts.append(text)
        if len(parts) == size:
            yield ",".join(parts).encode()
            parts = []
    if parts:
        yield ",".join(parts).encode()


def array(items: Iterable[Any], make: Callable[[Any], Any], *, stream: bool) -> Any:
    """A JSON array of ``make(x)`` for each item: :class:`Streamed` when ``stream``, else a list."""
    return Streamed(items, make) if stream else [make(x) for x in items]


def _orjson() -> ModuleType:
    """orjson, imported when a document is not small (:func:`_small_text`)."""
    import orjson
    return orjson


def _options(orjson: Any) -> int:
    return orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS  # type: ignore[no-any-return]


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
        import json
        return json.dumps(doc, indent=indent, sort_keys=sort_keys, default=default or _as_list) + "\n"
    if sort_keys and not pretty:
        try:
            return _small_text(doc, default or _as_list) + "\n"
        except _NotSmall:
            pass
    orjson = _orjson()
    option = (_options(orjson) if sort_keys else orjson.OPT_NON_STR_KEYS) | (orjson.OPT_INDENT_2 if pretty else 0)
    text: str = orjson.dumps(doc, default=default or _as_list, option=option).decode("utf-8")
    return text + "\n"


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

    try:
        text = _small_text(doc, mark)
    except _NotSmall:
        streams.clear()  # marked again by orjson
        text = _orjson().dumps(doc, default=mark, option=_options(_orjson())).decode("utf-8")
    # the text between the streams written as slices: splitting off each head copied the rest of the text once
    # per stream (the diagnostics come after the kernels' streams: the unknown-call warnings of the 100k kernel
    # of benchmarks/calls_kernel.py are 4.6 MB of text, ten times that at 1M)
    pos = 0
    for n, stream in enumerate(streams):
        marker = f'"\\u0000{n}\\u0000"'
        at = text.index(marker, pos)
        out.write(text[pos:at])
        pos = at + len(marker)
        out.write("[")
        first = True
        if stream._encoded is not None:
            put = _bytes_writer(out)
            for part in stream._encoded():
                if part:
                    if not first:
                        put(b",")
                    put(part)
                    first = False
            out.write("]")
            continue
        chunk: list[Any] = []
        for item in stream:
            chunk.append(item)
            if len(chunk) == _CHUNK:
                out.write(("" if first else ",") + _chunk_text(chunk, small=False))
                first, chunk = False, []
        if chunk:  # a stream of fewer items than a chunk may be small
            out.write(("" if first else ",") + _chunk_text(chunk, small=first))
        out.write("]")
    if pos:
        out.write(text[pos:])  # the rest written once, not copied with ``end`` first
        out.write(end)
    else:
        out.write(text + end)


def _bytes_writer(out: Writer) -> Callable[[bytes], object]:
    """A writer of UTF-8 bytes to ``out``: its byte stream when ``out`` is a UTF-8 text file (after flushing the
    text written so far, so the order holds), else each piece decoded. The compiled listing writer's 29 MB for
    the dense 100k kernel are no longer decoded to ``str`` and encoded again by the text file (measured nearly
    free, not the tenth of ``livereg --json`` once estimated: docs/performance.md, twenty-fourth session)."""
    if type(out) is io.TextIOWrapper and codecs.lookup(out.encoding).name == "utf-8":
        out.flush()
        return out.buffer.write  # type: ignore[no-any-return]
    return lambda part: out.write(part.decode("utf-8"))


def _chunk_text(chunk: list[Any], *, small: bool) -> str:
    """A chunk of a streamed array's items as JSON text without its brackets."""
    if small:
        try:
            return _small_text(chunk, _as_list)[1:-1]
        except _NotSmall:
            pass
    orjson = _orjson()
    text: str = orjson.dumps(chunk, option=_options(orjson)).decode("utf-8")
    return text[1:-1]


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
        import json
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
    import json

    keys = [f"{json.dumps(name)}: " for name in names]
    first = True
    for row in rows:
        out.write(("[\n " if first else ",\n ") + _row_object(keys, row))
        first = False
    out.write("[]\n" if first else "\n]\n")


# --- small documents without orjson: importing orjson imports dataclasses (with inspect), json, uuid, datetime
# and platform, ~20 ms of a small run's ~0.15 s (docs/performance.md, nineteenth session); a small document is
# written here byte for byte as orjson writes it with OPT_SORT_KEYS (tests/property/test_json_small.py proves
# floats, strings and ints against orjson itself), anything else by orjson ---

#: values (of any kind) a document may hold to be written here; a larger one is orjson's (its import is then
#: small against the writing)
_SMALL_VALUES = 50_000
#: orjson's own nesting limit (it refuses deeper documents)
_MAX_DEPTH = 254


class _NotSmall(Exception):
    """The document holds something :func:`_small_text` does not write as orjson would: orjson writes it."""


def float_text(value: float) -> str:
    """A float as orjson writes it: ``repr`` but for exponents -5 written out (``0.000025``) and negative
    exponents without leading zeros (``1e-7``); NaN and the infinities ``null``."""
    if value != value or value in (_INF, -_INF):
        return "null"
    text = float.__repr__(value)
    if "e-0" in text:
        text = text.replace("e-0", "e-")
        if text.endswith("e-5"):  # 2.5e-05 -> 0.000025
            mantissa = text[:-3]
            sign = "-" if mantissa[0] == "-" else ""
            text = f"{sign}0.0000{mantissa.lstrip('-').replace('.', '')}"
    return text


_INF = float("inf")
_I64_MIN, _U64_MAX = -(1 << 63), (1 << 64) - 1


def _small_text(doc: Any, default: Callable[[Any], Any]) -> str:
    """``doc`` as compact JSON with sorted keys, as ``orjson.dumps(doc, default=default, option=_OPTIONS)``
    writes it, or :class:`_NotSmall`. ``default`` is asked for :class:`Streamed` values only."""
    parts: list[str] = []
    _put(doc, 0, parts.append, [_SMALL_VALUES], default)
    text = "".join(parts)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: orjson refuses it, with its own message
        raise _NotSmall from None
    return text


def _put(value: Any, depth: int, add: Callable[[str], None], budget: list[int],
         default: Callable[[Any], Any]) -> None:
    """``value``'s JSON text to ``add``; ``budget[0]`` the values still allowed. A function of the module, not a
    closure in :func:`_small_text`: a recursive closure is a reference cycle, which would keep ``default`` (and
    through it a document's streamed items) alive until the cyclic collector runs, and the CLI pauses it."""
    kind = type(value)
    if kind is str:
        add(_encode_str(value))
    elif kind is int:
        if not _I64_MIN <= value <= _U64_MAX:
            raise _NotSmall
        add(int.__repr__(value))
    elif kind is float:
        add(float_text(value))
    elif value is None:
        add("null")
    elif kind is bool:
        add("true" if value else "false")
    elif kind is dict:
        _enter(len(value), depth, budget)
        if not value:
            add("{}")
            return
        for key in value:
            if type(key) is not str:
                raise _NotSmall
        first = True
        for key in sorted(value):
            add(("{" if first else ",") + _encode_str(key) + ":")
            first = False
            _put(value[key], depth + 1, add, budget, default)
        add("}")
    elif kind is list or kind is tuple:
        _enter(len(value), depth, budget)
        if not value:
            add("[]")
            return
        first = True
        for item in value:
            add("[" if first else ",")
            first = False
            _put(item, depth + 1, add, budget, default)
        add("]")
    elif kind is Streamed:
        _put(default(value), depth, add, budget, default)
    else:
        raise _NotSmall


def _enter(count: int, depth: int, budget: list[int]) -> None:
    """A container of ``count`` values at ``depth``, charged to ``budget[0]``: :class:`_NotSmall` when it is
    nested deeper than orjson writes or the document holds more values than a small one."""
    if depth > _MAX_DEPTH:
        raise _NotSmall
    budget[0] -= count
    if budget[0] < 0:
        raise _NotSmall
