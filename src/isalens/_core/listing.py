"""The reference listing writer: each instruction's JSON line object, in plain Python (orjson writes the text).

The report layer (:class:`isalens.report.model.LineRows`) hands over the listing as columns
(:class:`LineColumns`: the instructions, their live sets, the per-line counts, blocks and loop depths, labels
and source locations) and two callables for what needs register or source knowledge (the names of the special
registers in a set, a location's object). :func:`line_objects` makes the dicts; :func:`line_objects_json`
their JSON text, a chunk of lines at a time, as ``orjson.dumps`` with sorted keys writes it. The compiled core
(``_compiled.pyx``) writes the same text without a dict per line and must give identical bytes
(tests/property/test_core_differential.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

__all__ = ["LINE_CHUNK", "LineColumns", "LineFacts", "line_objects", "line_objects_bytes", "line_objects_json",
           "line_objects_text"]

#: line objects per chunk of text (a million-line listing is never one string)
LINE_CHUNK = 4096


class LineFacts(Protocol):
    """What a line object reads of an instruction (``isalens.ir.instruction.Instruction`` has these)."""

    @property
    def line(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def defs(self) -> int: ...


class LineColumns(NamedTuple):
    """The listing, column by column (index ``i`` of each sequence is instruction ``i``)."""

    instructions: Sequence[LineFacts]
    live_in: Sequence[int]
    live_out: Sequence[int]
    #: live VGPRs, SGPRs, AGPRs, live VGPR halves, VGPRs with only one half live
    counts: tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int], Sequence[int]]
    block_of: Sequence[int]
    #: per block
    depth_of: Sequence[int]
    labels_at: Mapping[int, list[str]]
    #: each instruction's source location, or None (an empty sequence: none has one)
    sources: Sequence[Any]
    #: the units of the special registers (``live_special`` names those live in, live out or written)
    special_mask: int
    special_names: Callable[[int], list[str]]
    #: a source location's JSON object
    source_dict: Callable[[Any], dict[str, str | int]]


def line_objects(cols: LineColumns, start: int, stop: int) -> Iterator[dict[str, Any]]:
    """The JSON line objects of instructions ``start`` .. ``stop - 1``."""
    instructions, live_in, live_out = cols.instructions, cols.live_in, cols.live_out
    vgpr, sgpr, agpr, halves, half_only = cols.counts
    specials: dict[int, list[str]] = {}  # few distinct special sets: names computed once each
    # a location's object made once and shared, found by identity (the locations are kept alive by the
    # kernel's source map; hashing a SourceLoc for each of a million lines costs more than the lookup)
    objects: dict[int, dict[str, str | int]] = {}
    no_labels: list[str] = []
    for i in range(start, stop):
        ins = instructions[i]
        special = (live_in[i] | live_out[i] | ins.defs) & cols.special_mask
        names = specials.get(special)
        if names is None:
            names = specials[special] = cols.special_names(special)
        where = None
        src = cols.sources[i] if cols.sources else None
        if src is not None:
            where = objects.get(id(src))
            if where is None:
                where = objects[id(src)] = cols.source_dict(src)
        block = cols.block_of[i]
        yield {"line": ins.line, "index": i, "text": ins.text, "labels": cols.labels_at.get(i, no_labels),
               "live_vgpr": vgpr[i], "live_sgpr": sgpr[i], "live_agpr": agpr[i], "live_vgpr_halves": halves[i],
               "vgpr_half_only": half_only[i], "live_special": names, "block": block,
               "loop_depth": cols.depth_of[block], "source": where}


def line_objects_text(cols: LineColumns, start: int, stop: int) -> str:
    """The line objects of ``start`` .. ``stop - 1`` as JSON text joined by commas (no brackets)."""
    return line_objects_bytes(cols, start, stop).decode("utf-8")


def line_objects_bytes(cols: LineColumns, start: int, stop: int) -> bytes:
    """:func:`line_objects_text` as UTF-8 bytes (what orjson makes)."""
    import orjson  # here: importing it costs a small run ~20 ms, and the compiled core writes this text itself
    options = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    text: bytes = orjson.dumps(list(line_objects(cols, start, stop)), option=options)
    return text[1:-1]


def line_objects_json(cols: LineColumns) -> Iterator[bytes]:
    """The whole listing's line objects as :func:`line_objects_bytes` chunks of :data:`LINE_CHUNK` lines (UTF-8
    bytes: the JSON writer puts them on the output's byte stream without decoding them)."""
    n = len(cols.instructions)
    for start in range(0, n, LINE_CHUNK):
        yield line_objects_bytes(cols, start, min(start + LINE_CHUNK, n))
