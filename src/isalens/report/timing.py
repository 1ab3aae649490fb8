"""Text and JSON views of the timing model (:class:`~isalens.analysis.timing.KernelTiming`).

The JSON section (``timing`` per kernel) uses the same names as the VLIW loop figures: ``loops`` with
``header_line``, ``depth``, ``issue_cycles`` {unit: n}, ``latency_cycles``, ``waves``, ``cycles_per_iteration``,
``bottleneck``, ``flops``, ``bytes`` {global, lds}, ``roofs``; ``kernel`` with the same fields for the whole
program (loops weighted by their trip counts); ``blocks``; ``assumptions``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from isalens.analysis.source_lines import SourceSpan
from isalens.analysis.timing import BlockTiming, BlockTimings, KernelTiming, LoopTiming, Roofs
from isalens.report.serialize import Streamed, array, joined_chunks, json_string

__all__ = ["memory_dict", "render_timing_text", "render_what_if_text", "timing_dict", "what_if_dict"]


def _r(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def _roofs_dict(r: Roofs | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"compute_gflops": _r(r.compute, 1), "dram_gflops": _r(r.dram, 1), "lds_gflops": _r(r.lds, 1),
            "issue_model_gflops": _r(r.issue_model, 1), "bound": r.bound,
            "arithmetic_intensity": _r(r.arithmetic_intensity, 3), "dram_bandwidth_gbs": _r(r.dram_gbs, 1),
            "dram_bandwidth_basis": r.dram_basis or None, "clock_mhz": _r(r.clock_mhz, 1),
            "clock_basis": r.clock_basis or None,
            "issue_model_gflops_range": ([_r(r.issue_model, 1), _r(r.issue_model_high, 1)]
                                         if r.issue_model_high is not None else None)}


def _loop_dict(lp: LoopTiming, span: SourceSpan | None = None) -> dict[str, Any]:
    out = {
        "header_line": lp.header_line, "depth": lp.depth, "trip_count": lp.trip_count,
        "trip_count_assumed": lp.trip_assumed, "issue_cycles": dict(lp.issue_cycles),
        "latency_cycles": lp.latency_cycles, "waves": lp.waves, "cycles_per_iteration": _r(lp.cycles_per_iteration),
        "bottleneck": lp.bottleneck, "bottleneck_lines": list(lp.bottleneck_lines),
        "flops": dict(sorted(lp.work.flops.items())), "fma": lp.work.fma,
        "bytes": {"global": lp.work.bytes_global, "lds": lp.work.bytes_lds},
        "fma_per_clock_per_cu": _r(lp.fma_per_clock_per_cu, 3), "roofs": _roofs_dict(lp.roofs),
    }
    if span is not None:
        out["source"] = span.to_dict()
    return out


def _block_dict(b: BlockTiming) -> dict[str, Any]:
    return {"index": b.index, "start_line": b.start_line, "end_line": b.end_line, "loop_depth": b.loop_depth,
            "issue_cycles": dict(b.issue_cycles), "latency_cycles": b.latency_cycles,
            "critical_path": list(b.critical_path)}


def _block_chunks(blocks: BlockTimings) -> Iterator[bytes]:
    """:meth:`BlockTimings.dicts`' objects as JSON text (compact, keys sorted: what the writer's orjson makes of
    the dicts), in :class:`Streamed`'s chunks: the dense 100k kernel's 20,794 objects were made as dicts only to be
    written (tests/property/test_timing_block_rows_property.py compares the text with orjson's)."""
    return joined_chunks(_block_texts(blocks))


def _block_texts(blocks: BlockTimings) -> Iterator[str]:
    issues: dict[bytes, str] = {}  # an issue row's object text, made once per distinct row
    for b, start, end, depth, row, latency, path in blocks.columns():
        issue = issues.get(row)
        if issue is None:
            issue = issues[row] = "{" + ",".join(f"{json_string(unit)}:{cycles}" for unit, cycles
                                                 in sorted(blocks.issue_cycles(b).items())) + "}"
        yield (f'{{"critical_path":[{",".join(map(str, path))}],"end_line":{end},"index":{b},'
               f'"issue_cycles":{issue},"latency_cycles":{latency},"loop_depth":{depth},"start_line":{start}}}')


def _blocks(blocks: Sequence[BlockTiming], stream: bool) -> Any:
    if isinstance(blocks, BlockTimings):  # the timing model's columns: each object without a record
        return Streamed(_Dicts(blocks), encoded=lambda: _block_chunks(blocks)) if stream else list(blocks.dicts())
    return array(blocks, _block_dict, stream=stream)


class _Dicts:
    """The blocks' JSON objects, made again each time it is iterated (a :class:`Streamed` array may be)."""

    __slots__ = ("_blocks",)

    def __init__(self, blocks: BlockTimings) -> None:
        self._blocks = blocks

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self._blocks.dicts()


def _range(lo: LoopTiming, hi: LoopTiming | None) -> dict[str, Any] | None:
    """The loop's figures with every vector load hitting L2 and missing to DRAM (the ends of the range)."""
    if hi is None:
        return None
    return {"cycles_per_iteration": {"l2": _r(lo.cycles_per_iteration), "dram": _r(hi.cycles_per_iteration)},
            "bottleneck": {"l2": lo.bottleneck, "dram": hi.bottleneck}}


def memory_dict(t: KernelTiming) -> dict[str, Any]:
    """What was assumed about the memory level: the level, where it came from, its latency; the range's ends."""
    p = t.profile
    out: dict[str, Any] = {"level": p.memory_level, "from": t.memory_level_from, "latency_cycles": p.memory_cycles}
    if t.upper is not None:
        out["range"] = {"levels": ["l2", "dram"], "latency_cycles": [p.memory_cycles, t.upper.profile.memory_cycles]}
    return out


def timing_dict(t: KernelTiming, *, lines: bool = False, stream: bool = False,
                spans: Mapping[int, SourceSpan] | None = None, blocks: bool = True) -> dict[str, Any]:
    """The ``timing`` JSON section of one kernel (``lines``: per-instruction issue/stall too; ``stream``: the
    per-block array is made while it is written, see :class:`isalens.report.serialize.Streamed`; ``spans``: each
    loop's source lines by its header line, given as ``loops[].source`` {file, first_line, last_line});
    ``blocks=False``: the per-block array empty)."""
    kernel = _loop_dict(t.kernel)
    for key in ("header_line", "depth", "trip_count", "trip_count_assumed"):
        del kernel[key]
    out: dict[str, Any] = {
        "model": "isalens", "family": t.profile.family, "wave_size": t.profile.wave_size,
        "waves": t.waves, "waves_from": t.waves_from, "device": t.device.name if t.device else None,
        "blocks": _blocks(t.profile.blocks, stream) if blocks else [],
        "loops": [_loop_dict(lp, (spans or {}).get(lp.header_line)) for lp in t.loops],
        "kernel": kernel,
        "assumptions": list(t.assumptions) + _memory_assumptions(t),
        "memory": memory_dict(t),
    }
    if t.upper is not None:
        for doc, lo, hi in zip(out["loops"], t.loops, t.upper.loops, strict=True):
            doc["memory_range"] = _range(lo, hi)
        kernel["memory_range"] = _range(t.kernel, t.upper.kernel)
    if lines:
        out["lines"] = [{"line": lt.line, "unit": lt.unit, "issue": lt.issue, "start": lt.start, "stall": lt.stall,
                         "reason": lt.reason} for lt in t.profile.lines]
    return out


def _memory_assumptions(t: KernelTiming) -> list[str]:
    p = t.profile
    scalar = []
    if p.scalar_cycles is not None and p.has_scalar_loads:
        scalar = [f"every scalar load misses the scalar cache to {p.memory_level.upper()} ({p.scalar_cycles} cycles: "
                  "the level's vector latency with the scalar cache's hit in place of the vector L1's, --memory-level)"]
    if p.memory_cycles is None or not p.has_vector_loads:
        return scalar
    if t.memory_level_from == "--memory-level":
        return [f"every vector load hits {p.memory_level.upper()} ({p.memory_cycles} cycles, --memory-level)", *scalar]
    text = (f"vector loads hit in L2 ({p.memory_cycles} cycles), as the hit rate is not known statically")
    if t.upper is not None:
        text += (f"; with every load missing to DRAM ({t.upper.profile.memory_cycles} cycles) see each loop's range "
                 "(--memory-level l1|l2|mall|dram picks one)")
    return [text]


def _issue_text(issue: dict[str, int]) -> str:
    return " ".join(f"{u}:{n}" for u, n in issue.items()) or "-"


def _lines_text(lines: Sequence[int]) -> str:
    return ", ".join(str(x) for x in lines[:8]) if lines else "-"


def render_timing_text(t: KernelTiming, *, name: str = "", sources: dict[int, str] | None = None) -> str:
    """A per-loop table (cycles per iteration, bound, bottleneck) and the kernel's figures; ``sources`` names
    each loop by its source lines (header input line -> ``loops.cl:22-26``)."""
    out = []
    head = f"timing{' of ' + name if name else ''}: {t.profile.family}, wave{t.profile.wave_size}, " \
           f"{t.waves} wave{'s' if t.waves != 1 else ''} per SIMD ({t.waves_from})"
    if t.device:
        head += f", device {t.device.name}"
    out.append(head)
    upper_loops = {lp.header_line: lp for lp in t.upper.loops} if t.upper is not None else {}
    if t.loops:
        out.append(f"  {'loop@line':>9} {'depth':>5} {'trips':>7} {'latency':>8} {'cyc/iter':>9}  issue per wave  "
                   "| bottleneck (lines)")
        for lp in t.loops:
            trips = f"{lp.trip_count}{'?' if lp.trip_assumed else ''}"
            out.append(f"  {lp.header_line:>9} {lp.depth:>5} {trips:>7} {lp.latency_cycles:>8} "
                       f"{lp.cycles_per_iteration:>9.0f}  {_issue_text(lp.issue_cycles)}  | {lp.bottleneck} "
                       f"({_lines_text(lp.bottleneck_lines)})")
            if sources and lp.header_line in sources:
                out.append(f"      source: {sources[lp.header_line]}")
            out.extend(_range_lines(lp, upper_loops.get(lp.header_line), "      "))
            out.extend(_work_lines(lp, "      "))
    else:
        out.append("  no loops")
    k = t.kernel
    out.append(f"  kernel: {k.latency_cycles} cycles per wave (latency), issue {_issue_text(k.issue_cycles)}; "
               f"{k.cycles_per_iteration:.0f} cycles for {t.waves} wave(s) on a SIMD; bound: {k.bottleneck} "
               f"({_lines_text(k.bottleneck_lines)})")
    out.extend(_range_lines(k, t.upper.kernel if t.upper is not None else None, "    "))
    out.extend(_work_lines(k, "    "))
    for a in list(t.assumptions) + _memory_assumptions(t):
        out.append(f"  assumed: {a}")
    out.append("  (static estimate: cycles are approximate; see docs/timing.md)")
    return "\n".join(out) + "\n"


def _range_lines(lp: LoopTiming, hi: LoopTiming | None, indent: str) -> list[str]:
    """The all-misses end of the range, where it differs from the L2-hit figures."""
    if hi is None or round(hi.cycles_per_iteration) == round(lp.cycles_per_iteration):
        return []
    return [f"{indent}range: {lp.cycles_per_iteration:.0f} (L2 hits) .. {hi.cycles_per_iteration:.0f} cyc/iter "
            f"(all misses to DRAM: {hi.bottleneck})"]


def _work_lines(lp: LoopTiming, indent: str) -> list[str]:
    parts = []
    if lp.work.flops:
        parts.append("flops " + " ".join(f"{p}:{n}" for p, n in sorted(lp.work.flops.items())))
    if lp.work.bytes_global or lp.work.bytes_lds:
        parts.append(f"bytes global:{lp.work.bytes_global} lds:{lp.work.bytes_lds}")
    if lp.work.fma:
        parts.append(f"{lp.fma_per_clock_per_cu:.1f} FMA/clk per CU")
    out = [indent + "; ".join(parts)] if parts else []
    r = lp.roofs
    if r is not None:
        out.append(indent + _bound_text(r))
    return out


_ROOF_LABELS = {"compute": "compute", "dram bandwidth": "dram", "LDS bandwidth": "lds", "issue model": "issue model"}


def _bound_text(r: Roofs) -> str:
    """The bound first, with its figure; the other roofs after it; where memory bounds the loop, the issue
    model's figure as what it would reach "if memory were free" (issue 31: the headline is the bound)."""
    values = {"compute": r.compute, "dram bandwidth": r.dram, "LDS bandwidth": r.lds, "issue model": r.issue_model}
    bound = values.get(r.bound)
    head = f"bound: {r.bound}" + (f" {bound:.0f} Gflop/s" if bound is not None else "")
    others = [f"{_ROOF_LABELS[k]} {v:.0f}" for k, v in values.items()
              if v is not None and k != r.bound and k != "issue model"]
    ai = f"intensity {r.arithmetic_intensity:.2f} flop/B" if r.arithmetic_intensity is not None else ""
    if ai and r.dram_gbs is not None:
        ai += f" x {r.dram_gbs:g} GB/s {r.dram_basis} DRAM bandwidth"
    detail = "; ".join(x for x in (ai, "roofs: " + ", ".join(others) if others else "") if x)
    text = head + (f" ({detail})" if detail else "")
    if r.bound in ("dram bandwidth", "LDS bandwidth") and r.issue_model is not None:
        text += f"; if memory were free: {r.issue_model:.0f} Gflop/s (issue model)"
    elif r.bound != "issue model" and r.issue_model is not None:
        text += f"; issue model {r.issue_model:.0f} Gflop/s"
    if r.clock_basis.startswith("matrix clock") and r.clock_mhz is not None:
        text += f"; at {r.clock_mhz:.0f} MHz: {r.clock_basis}"
        if r.issue_model_high is not None:
            text += f" (issue model {r.issue_model_high:.0f} Gflop/s with low-toggle data)"
    return text


def what_if_dict(variants: Sequence[KernelTiming]) -> list[dict[str, Any]]:
    return [{"waves": v.waves, "device": v.device.name if v.device else None,
             "loops": [{"header_line": lp.header_line, "cycles_per_iteration": _r(lp.cycles_per_iteration),
                        "bottleneck": lp.bottleneck, "roofs": _roofs_dict(lp.roofs)} for lp in v.loops],
             "kernel": {"cycles_per_iteration": _r(v.kernel.cycles_per_iteration), "bottleneck": v.kernel.bottleneck,
                        "roofs": _roofs_dict(v.kernel.roofs)}} for v in variants]


def render_what_if_text(variants: Sequence[KernelTiming]) -> str:
    out = ["  what-if:"]
    for v in variants:
        label = f"waves={v.waves}" + (f" device={v.device.name}" if v.device else "")
        parts = [f"loop@{lp.header_line} {lp.cycles_per_iteration:.0f} cyc ({lp.bottleneck})" for lp in v.loops]
        parts.append(f"kernel {v.kernel.cycles_per_iteration:.0f} cyc ({v.kernel.bottleneck})")
        r = v.kernel.roofs
        if r is not None:
            parts.append(_bound_text(r))
        out.append(f"    {label:<28} " + "; ".join(parts))
    return "\n".join(out) + "\n"
