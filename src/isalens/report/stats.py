"""Rendering of instruction-level statistics (text, and a JSON-ready dict to put under ``stats``) and of
decoded instructions for ``isalens decode``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from isalens.report.serialize import Streamed, array, joined_chunks, json_string

if TYPE_CHECKING:  # types only: livereg's JSON path imports this module without running the stats pass
    from isalens.analysis.stats import BlockStats, BlockStatsRows, KernelStats, LdsAccess


def _access_dict(a: LdsAccess) -> dict[str, Any]:
    return {
        "index": a.index, "line": a.line, "mnemonic": a.mnemonic, "form": a.form, "element_bytes": a.element_bytes,
        "offsets": list(a.offsets), "bytes_per_lane": a.bytes_per_lane, "bytes_per_wave": a.bytes_per_wave,
        "address": a.address, "lane_stride": a.lane_stride, "lane_linear_basis": a.basis,
        "bank_conflict_degree": "unknown" if a.conflict_degree is None else a.conflict_degree,
    }


def _block_object(b: BlockStats) -> dict[str, Any]:
    return {"index": b.index, "start": b.start, "end": b.end, "loop_depth": b.loop_depth,
            "code_bytes": b.code_bytes, "classes": dict(b.classes)}


def _block_chunks(blocks: BlockStatsRows) -> Iterator[bytes]:
    """:func:`_block_object` of each block as JSON text (compact, keys sorted: what the writer's orjson makes of
    the dicts), UTF-8 chunks of objects joined by commas: the dense 100k kernel's 20,794 blocks were made as
    records and dicts only to be written (tests/property/test_json_blocks_text.py compares the text with
    orjson's)."""
    classes = [("{" + ",".join(f"{json_string(name)}:{count}" for name, count in sorted(counts.items())) + "}")
               for counts in blocks.counts]
    return joined_chunks(f'{{"classes":{classes[which]},"code_bytes":{size},"end":{end},"index":{index},'
                         f'"loop_depth":{depth},"start":{start}}}'
                         for index, start, end, depth, size, which in blocks.columns())


def _blocks_array(blocks: Sequence[BlockStats], stream: bool) -> Any:
    from isalens.analysis.stats import BlockStatsRows

    if stream and isinstance(blocks, BlockStatsRows):
        return Streamed(blocks, _block_object, encoded=lambda: _block_chunks(blocks))
    return array(blocks, _block_object, stream=stream)


def stats_dict(s: KernelStats, *, lines: bool = False, stream: bool = False) -> dict[str, Any]:
    """The ``stats`` object of one kernel: stable keys, plain JSON types (``stream``: the per-block array
    is made while it is written, see :class:`isalens.report.serialize.Streamed`)."""
    doc: dict[str, Any] = {
        "instructions": s.instructions,
        "code_bytes": s.code_bytes,
        "code_bytes_exact": s.code_bytes_exact,
        # per-kernel class counts are the kernel's "instruction_classes": one table, not two
        "classes_by_loop_depth": {str(d): dict(c) for d, c in s.classes_by_loop_depth.items()},
        "classes_weighted": dict(s.classes_weighted),
        "loop_weight": s.loop_weight,
        "blocks": _blocks_array(s.blocks, stream),
        "modifiers": {group: dict(counts) for group, counts in s.modifiers.items()},
        "constants": dict(s.constants),
        "literal_values": dict(s.literal_values),
        "lds": dict(s.lds),
        "lds_totals": dict(s.lds_totals),
        "lds_accesses": [_access_dict(a) for a in s.lds_accesses],
    }
    if lines:
        doc["lines"] = [{"index": r.index, "line": r.line, "class": r.klass, "bytes": r.size,
                         "modifiers": list(r.modifiers), "constants": dict(r.constants)} for r in s.lines]
    return doc


def _table(counts: dict[str, int], indent: str = "    ", limit: int | None = None) -> list[str]:
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if limit is not None:
        items = items[:limit]
    width = max((len(k) for k, _ in items), default=0)
    return [f"{indent}{k:{width}s} {v:6d}" for k, v in items]


def render_stats_text(s: KernelStats, *, accesses: int = 20) -> str:
    """A readable summary of one kernel's statistics."""
    exact = "exact, from encoding words" if s.code_bytes_exact else "from encoding rules"
    out = [f"instruction statistics: {s.instructions} instructions, {s.code_bytes} bytes of code ({exact})"]
    out.append(f"  classes (count, weighted by loop depth with {s.loop_weight} per level):")
    width = max((len(k) for k in s.classes), default=0)
    for key, count in sorted(s.classes.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append(f"    {key:{width}s} {count:6d} {s.classes_weighted.get(key, 0):9d}")
    if s.constants:
        out.append("  constants: " + ", ".join(f"{k} {v}" for k, v in sorted(s.constants.items())))
    if s.literal_values:
        top = list(s.literal_values.items())[:8]
        out.append("  literal values: " + ", ".join(f"{k} x{v}" for k, v in top)
                   + (" ..." if len(s.literal_values) > len(top) else ""))
    for group, counts in s.modifiers.items():
        out.append(f"  modifiers ({group}):")
        out.extend(_table(counts, limit=12))
    if s.lds:
        t = s.lds_totals
        out.append(f"  LDS: {t['instructions']} instructions, {t['reads']} reads ({t['read_bytes_per_wave']} bytes per "
                   f"wave), {t['writes']} writes ({t['write_bytes_per_wave']} bytes per wave); bank conflicts: "
                   f"{t['conflict_free']} conflict-free, {t['conflicted']} conflicted, {t['unknown']} unknown")
        out.extend(_table(s.lds))
        shown = s.lds_accesses[:accesses]
        if shown:
            out.append(f"    {'line':>6}  {'instruction':26s} {'offsets (bytes)':18s} {'B/lane':>6} {'stride':>6} "
                       "conflicts")
        for a in shown:
            offsets = ",".join(str(o) for o in a.offsets)
            stride = "-" if a.lane_stride is None else str(a.lane_stride)
            degree = "unknown" if a.conflict_degree is None else f"{a.conflict_degree}-way"
            if a.conflict_degree == 1:
                degree = "none"
            out.append(f"    {a.line:6d}  {a.mnemonic:26s} {offsets:18s} {a.bytes_per_lane:6d} {stride:>6} {degree}")
        if len(s.lds_accesses) > len(shown):
            out.append(f"    ... {len(s.lds_accesses) - len(shown)} more (JSON has all)")
    return "\n".join(out) + "\n"


class _Field(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def value(self) -> int: ...

    @property
    def meaning(self) -> str: ...

    @property
    def bits(self) -> str: ...


class _Decoded(Protocol):
    @property
    def format(self) -> str: ...

    @property
    def words(self) -> tuple[int, ...]: ...

    @property
    def fields(self) -> Sequence[_Field]: ...

    @property
    def size(self) -> int: ...


class _Instruction(Protocol):
    """What the decode renderers need of ``isalens.engine.decode.DecodedInstruction``."""

    @property
    def offset(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def decoded(self) -> _Decoded: ...


def render_decoded_text(items: Sequence[_Instruction], *, explain: bool = False) -> str:
    """``OFFSET: WORDS  text`` per instruction; with ``explain`` every field below it."""
    width = max((len(" ".join(f"{w:08X}" for w in i.decoded.words)) for i in items), default=8)
    out = []
    for item in items:
        words = " ".join(f"{w:08X}" for w in item.decoded.words)
        out.append(f"{item.offset:08x}: {words:{width}s}  {item.text}")
        if explain:
            fields = item.decoded.fields
            out.append(f"    format {item.decoded.format}, {item.decoded.size} bytes"
                       + ("" if fields else " (fields of this format are not decoded)"))
            for f in fields:
                meaning = f"  {f.meaning}" if f.meaning and f.meaning != str(f.value) else ""
                out.append(f"    {f.bits:>9s} {f.name:12s} {f.value:>10d}{meaning}")
    return "\n".join(out) + "\n"


def decoded_dict(items: Sequence[_Instruction]) -> list[dict[str, Any]]:
    """JSON-ready list of decoded instructions with all their fields."""
    return [{"offset": i.offset, "words": [f"{w:08X}" for w in i.decoded.words], "text": i.text,
             "format": i.decoded.format, "bytes": i.decoded.size,
             "fields": [{"name": f.name, "bits": f.bits, "value": f.value, "meaning": f.meaning}
                        for f in i.decoded.fields]} for i in items]
