"""JSON rendering of the livereg report: one file's entry of the schema-3 document (stable keys, sorted; no
timestamps); :func:`livereg_document` wraps it in the envelope every command prints (report/document.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from isalens.analysis.blocks import BlockLiveIn
from isalens.analysis.source_lines import SourceLine
from isalens.names import demangled
from isalens.report.document import diagnostic_dict, document
from isalens.report.model import FileSummary, KernelReport, LineRow, LineRows, LiveRegReport
from isalens.report.occupancy import occupancy_dict
from isalens.report.serialize import Streamed, array, dumps
from isalens.report.stats import stats_dict

_LINE_KEYS = LineRow._fields


def _file(summary: FileSummary) -> dict[str, Any]:
    return {
        "peak_live": summary.peak_live,
        "peak_lines": list(summary.peak_lines),
        "peak_indices": list(summary.peak_indices),
        "requested": summary.requested,
        "allocated": summary.allocated,
        "declared": summary.declared,
        "set_by": summary.set_by,
    }


def _line_object(row: LineRow) -> dict[str, Any]:
    doc: dict[str, Any] = dict(zip(_LINE_KEYS, row, strict=True))
    doc["source"] = None if row.source is None else row.source.to_dict()
    return doc


class _LineObjects:
    """The listing's JSON line objects, each time it is iterated: made straight from the analysis when the
    rows are still built on demand (:meth:`LineRows.dicts`), else from the rows (a copy sent between
    processes holds plain rows)."""

    __slots__ = ("_lines",)

    def __init__(self, lines: Sequence[LineRow]) -> None:
        self._lines = lines

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if isinstance(self._lines, LineRows):
            return self._lines.dicts()
        return (_line_object(r) for r in self._lines)

    def json_chunks(self) -> Callable[[], Iterator[bytes]] | None:
        """What makes the objects' JSON text (UTF-8) directly (:meth:`LineRows.json_chunks`), when there is one."""
        return self._lines.json_chunks if isinstance(self._lines, LineRows) else None


def _block_object(b: BlockLiveIn) -> dict[str, Any]:
    return {"index": b.index, "labels": list(b.labels), "first_line": b.first_line, "loop_depth": b.loop_depth,
            "live_in": list(b.live_in)}


def kernel_dict(k: KernelReport, *, lines: bool = True, stream: bool = False, blocks: bool = True) -> dict[str, Any]:
    """The JSON object of one kernel (``stream``: its lines as a :class:`Streamed` array, for writing;
    ``blocks=False``: the timing section's per-block array left empty, for a scan's row, which reads no list:
    one object per block, a gfx1030 sample's 106,499, made and dropped)."""
    listing: Any = []
    if lines:
        # LineRow's fields are the line keys, in order
        objects = _LineObjects(k.lines)
        listing = Streamed(objects, encoded=objects.json_chunks()) if stream else list(objects)
    return {
        "name": k.name,
        "kernel_demangled": demangled(k.name),
        "arch": k.arch,
        "wave_size": k.wave_size,
        "is_kernel": k.is_kernel,
        "requested_is_lower_bound": k.registers.requested_lower_bound,
        "instructions": k.instructions,
        "vgpr": {**_file(k.vgpr), "granule": k.registers.vgpr_granule,
                 "total_with_agprs": k.registers.vgprs_with_agprs},
        "sgpr": {**_file(k.sgpr), "extra_reserved": k.registers.extra_sgprs},
        "agpr": _file(k.agpr),
        "lines": listing,
        "longest_lived": [
            {"reg": r.reg, "file": r.file, "def_line": r.def_line, "last_use_line": r.last_use_line,
             "start_index": r.start_index, "end_index": r.end_index, "span": r.span}
            for r in k.longest_lived
        ],
        "peak_live_set": {
            file: [{"reg": v.reg, "def_lines": list(v.def_lines), "next_use_lines": list(v.next_use_lines),
                    "variables": list(v.variables)}
                   for v in values]
            for file, values in k.peak_live_set.items()
        },
        "entry_live_in": {f: list(v) for f, v in k.entry.names.items()},
        "unexpected_live_in": list(k.entry.unexpected),
        "unexpected_live_in_lines": list(k.entry.unexpected_lines),
        "blocks": array(k.block_live_ins, _block_object, stream=stream),
        "cfg": {"blocks": k.cfg.blocks, "loops": k.cfg.loops, "max_loop_depth": k.cfg.max_loop_depth,
                "unreachable_blocks": k.cfg.unreachable_blocks},
        "guessed_instructions": k.guessed,
        "instruction_classes": k.classes,
        "occupancy": None if k.occupancy.occupancy is None else {
            **occupancy_dict(k.occupancy.occupancy, workgroup_limit=k.occupancy.workgroup_limit),
            "workgroup_size_assumed": k.occupancy.workgroup_assumed,
            "workgroup_size": k.occupancy.workgroup_size,
            "workgroup_size_from": k.occupancy.workgroup_from,
            "at_256_threads": None if k.occupancy.at_256 is None else {
                "waves_per_simd": k.occupancy.at_256.waves_per_simd,
                "llvm_occupancy": k.occupancy.at_256.llvm_occupancy,
                "workgroups_per_cu": k.occupancy.at_256.workgroups_per_cu},
        },
        "vgpr_hint": {"used": k.registers.vgprs_with_agprs, "allocated": k.vgpr.allocated,
                      "file": k.registers.vgpr_file_size,
                      "reduce_by_to_save_a_granule": k.registers.vgpr_granule_saving},
        "declared_raw": {key: value for key, value in k.declared_raw},
        "debug_info": k.debug_info,
        "variables": [{"name": name, "ranges": [{"first_line": a, "last_line": b, "registers": list(regs)}
                                                for a, b, regs in ranges]} for name, ranges in k.variables],
        "source_lines": [_source_line(r, k.source_text.get((r.file, r.line)), framed)
                         for framed in (any(r.function for r in k.source_lines),) for r in k.source_lines],
        **({} if k.stats is None else {"stats": stats_dict(k.stats, stream=stream)}),
        **_timing(k, stream, blocks),
        **_advice(k),
    }


def _source_line(r: SourceLine, text: str | None, framed: bool) -> dict[str, Any]:
    row = {"file": r.file, "line": r.line, "text": text, "instructions": r.instructions,
           "code_bytes": r.code_bytes, "issue_cycles": r.issue_cycles, "stall_cycles": r.stall_cycles,
           "max_live": {"vgpr": r.max_live_vgpr, "sgpr": r.max_live_sgpr}, "spill_ops": r.spill_ops,
           "lds_ops": r.lds_ops, "global_ops": r.global_ops, "function": r.function}
    if framed:  # the input says which function each line's code is (a binary's DWARF): the call chain too
        row["inlined_at"] = [{"file": c.file, "line": c.line} for c in r.inlined_at]
    return row


def _timing(k: KernelReport, stream: bool, blocks: bool = True) -> dict[str, Any]:
    if k.timing is not None:
        from isalens.report.timing import timing_dict
        return {"timing": timing_dict(k.timing, stream=stream, blocks=blocks)}
    return {"timing": {"unavailable": k.timing_note}} if k.timing_note else {}


def _advice(k: KernelReport) -> dict[str, Any]:
    if k.advice is None:
        return {}
    from isalens.report.advice import advice_dict
    doc = advice_dict(k.advice)
    return {"advice": doc["advice"], "advice_refused": doc["refused"]}


def report_dict(report: LiveRegReport, *, lines: bool = True, stream: bool = False) -> dict[str, Any]:
    """One file's entry of the document (``files[i]`` of ``livereg --json`` and ``analyze --json``);
    ``stream``: line arrays made while :func:`isalens.report.serialize.write` writes them."""
    kernels = [kernel_dict(k, lines=lines, stream=stream) for k in report.kernels]
    return {
        "file": report.file,
        "dialect": report.dialect,
        "kernels": kernels,
        "compiler_stats": report.compiler_stats or None,
        "diagnostics": [diagnostic_dict(d) for d in report.diagnostics],
    }


def livereg_document(report: LiveRegReport, command: str = "livereg", *, stream: bool = False) -> dict[str, Any]:
    """The whole ``livereg --json`` document: the envelope around the one file's entry."""
    return document(command, files=[report_dict(report, stream=stream)])


def render_json(report: LiveRegReport, *, lines: bool = True, pretty: bool = False) -> str:
    """One file's entry as JSON text (a scan row is made from it)."""
    return dumps(report_dict(report, lines=lines), pretty=pretty)
