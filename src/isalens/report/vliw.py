"""Text and JSON views of a VLIW analysis (:class:`~isalens.analysis.vliw.VliwAnalysis`); both read the same
object, so they cannot disagree. JSON: the schema-3 document, sorted keys, no timestamps."""

from __future__ import annotations

from typing import Any

from isalens.analysis.vliw import ClauseStats, LoopStats, ProgramStats, SlotCounts, VliwAnalysis
from isalens.analysis.vliw_timing import LatencyHiding, Occupancy, Timing
from isalens.ir.diagnostics import Diagnostic
from isalens.report.document import document
from isalens.report.serialize import dumps

__all__ = ["render_vliw_json", "render_vliw_text", "vliw_dict"]

_GENERATION_NAMES = {"r600": "R600", "r700": "R700", "evergreen": "Evergreen", "cayman": "Cayman"}
_DIALECT_NAMES = {"cal": "CAL dump", "llvm": "LLVM r600 assembly"}


def _r(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def _program_dict(p: ProgramStats) -> dict[str, Any]:
    return {
        "name": p.name,
        "groups": p.groups,
        "slot_ops": p.slot_ops,
        "slots_per_group": p.width,
        "utilization_pct": _r(p.utilization_pct),
        "per_slot": p.per_slot.as_dict(),
        "literal_slots": p.literal_slots,
        "gprs": p.gprs,
        "declared_gprs": p.declared_gprs,
        "temps": p.temps,
        "fetches": p.fetches,
        "fetch_bytes": p.fetch_bytes,
        "alu_fetch_ratio": _r(p.alu_fetch_ratio, 3),
        "mads": p.mads,
        "guessed_ops": p.guessed_ops,
        "occupancy": _occupancy_dict(p.occupancy),
        "timing": _timing_dict(p.timing),  # vliw_dict makes it {kernel, loops}
    }


def _clause_dict(c: ClauseStats) -> dict[str, Any]:
    return {
        "kernel": c.kernel, "index": c.index, "line": c.line, "opcode": c.opcode, "kind": c.kind, "flow": c.flow,
        "loop_depth": c.loop_depth, "groups": c.groups, "slot_ops": c.slot_ops, "per_slot": c.per_slot.as_dict(),
        "literal_slots": c.literal_slots, "slots": c.slots, "count": c.count, "declared": c.declared,
        "count_ok": c.count_ok, "utilization_pct": _r(c.utilization_pct), "gprs": c.gprs, "temps": c.temps,
        "fetches": c.fetches, "fetch_bytes": c.fetch_bytes, "mads": c.mads, "guessed_ops": c.guessed_ops,
    }


def _loop_dict(lp: LoopStats) -> dict[str, Any]:
    return {
        "kernel": lp.kernel, "start": lp.start, "end": lp.end, "line": lp.line, "depth": lp.depth,
        "groups": lp.groups, "slot_ops": lp.slot_ops, "mads": lp.mads, "mads_per_clock": _r(lp.mads_per_clock, 3),
        "fetches": lp.fetches, "fetch_bytes": lp.fetch_bytes, "gflops": _r(lp.gflops, 1),
        "fetch_bound_gflops": _r(lp.fetch_bound_gflops, 1), "bound": lp.bound, "guessed_ops": lp.guessed_ops,
        "fetch_clauses": lp.fetch_clauses,
        "latency": None if lp.timing is None else _latency_dict(lp.timing.latency, lp.timing.waves),
    }


def _occupancy_dict(o: Occupancy | None) -> dict[str, Any] | None:
    if o is None:
        return None
    return {
        "gprs": o.gprs, "gpr_file": o.gpr_file, "clause_temps": o.clause_temps, "available_gprs": o.available,
        "gpr_limit": o.gpr_limit, "hardware_limit": o.hardware_limit, "hardware_source": o.hardware_source,
        "wavefronts_per_simd": o.wavefronts, "limiter": o.limiter,
    }


def _latency_dict(h: LatencyHiding, waves: int) -> dict[str, Any]:
    return {
        "fetch_clauses": h.fetch_clauses, "fetch_latency_cycles": h.fetch_latency, "alu_cycles": h.alu_cycles,
        "wavefronts_needed": h.wavefronts_needed, "wavefronts_fit": waves, "hidden": h.hidden,
        "gprs_for_needed": h.gprs_for_needed, "scalars_for_needed": h.scalars_for_needed,
    }


def _timing_dict(t: Timing | None, kernel: str | None = None) -> dict[str, Any] | None:
    """The section names of the GCN timing model (issue 13): one vocabulary for every target. A loop's entry
    also names its ``kernel``; its latency hiding sits beside its bounds in ``loops``."""
    if t is None:
        return None
    roofs = None if t.roofs is None else {
        "alu_gflops": _r(t.roofs.alu_gflops, 1), "fetch_gflops": _r(t.roofs.fetch_gflops, 1),
        "bound": t.roofs.bound, "gflops": _r(t.roofs.gflops, 1),
    }
    return {
        "header_line": t.header_line, "depth": t.depth,
        "issue_cycles": {unit: _r(n) for unit, n in t.issue_cycles.items()},
        "latency_cycles": t.latency_cycles, "waves": t.waves,
        "cycles_per_iteration": _r(t.cycles_per_iteration), "bottleneck": t.bottleneck,
        "flops": t.flops, "bytes": {"global": t.bytes_global, "lds": t.bytes_lds}, "roofs": roofs,
        **({} if kernel is None else {"kernel": kernel}),
    }


def _diag_dict(d: Diagnostic) -> dict[str, Any]:
    return {"severity": d.severity.value, "code": d.code, "message": d.message, "file": d.file, "line": d.line}


def vliw_dict(result: VliwAnalysis) -> dict[str, Any]:
    """The file's entry of the schema-3 document: target and device, the file's ``totals``, then per kernel its
    figures, ``clauses``, ``loops``, ``occupancy`` and ``timing`` {``kernel``, ``loops``} (the GCN names)."""
    device = result.device
    totals = _program_dict(result.total)
    for key in ("name", "occupancy", "timing"):
        del totals[key]
    kernels = []
    for p in result.programs:
        doc = _program_dict(p)
        loops = [lp for lp in result.total.loops if lp.kernel == p.name]
        doc["clauses"] = [_clause_dict(c) for c in result.total.clauses if c.kernel == p.name]
        doc["loops"] = [_loop_dict(lp) for lp in loops]
        doc["timing"] = {"kernel": _timing_dict(p.timing),
                         "loops": [_timing_dict(lp.timing, lp.kernel) for lp in loops]}
        kernels.append(doc)
    return {
        "file": result.file,
        "dialect": result.dialect,
        "generation": result.generation,
        "generation_source": result.generation_source,
        "device": None if device is None else {
            "name": device.name, "marketing_name": device.marketing_name, "simds": device.simds,
            "thread_processors_per_simd": device.thread_processors, "clock_mhz": device.clock_mhz,
            "alus_per_thread_processor": device.alus_per_sp, "peak_gflops": _r(device.peak_gflops, 1),
            "fetch_gbs": device.fetch_gbs, "fetch_gbs_source": device.fetch_gbs_source,
        },
        "totals": totals,
        "kernels": kernels,
        "diagnostics": [_diag_dict(d) for d in result.diagnostics],
    }


def render_vliw_json(result: VliwAnalysis) -> str:
    """``isalens vliw --json``: the schema-3 document with this file's entry."""
    return dumps(document("vliw", files=[vliw_dict(result)]), indent=1)


def _slots(s: SlotCounts, width: int) -> str:
    names = "xyzwt"[:width] if width == 4 and s.t == 0 else "xyzwt"
    return "  ".join(f"{n} {getattr(s, n)}" for n in names)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def _program_text(p: ProgramStats) -> list[str]:
    gprs = f"{p.gprs}"
    if p.declared_gprs is not None:
        gprs += f", compiler declares {p.declared_gprs}"
    ratio = "-" if p.alu_fetch_ratio is None else f"{p.alu_fetch_ratio:.2f} groups per fetch"
    lines = [
        f"program {p.name}",
        f"  instruction groups  {p.groups}",
        f"  slot operations     {p.slot_ops} of {p.groups * p.width} ({_pct(p.utilization_pct)} of "
        f"{p.width} slots per group)",
        f"  per slot            {_slots(p.per_slot, p.width)}",
        f"  literal slots       {p.literal_slots}",
        f"  GPRs                {gprs}; clause temporaries: "
        f"{'none' if not p.temps else f'up to {p.temps} in one clause'}",
        f"  fetches             {p.fetches} ({p.fetch_bytes} bytes per thread); ALU:fetch {ratio}",
        f"  MADs                {p.mads}",
    ]
    if p.guessed_ops:
        lines.append(f"  unknown operations  {p.guessed_ops} (counted in their slot; not MADs; see diagnostics)")
    if (o := p.occupancy) is not None:
        lines.append(f"  occupancy           {_occupancy_text(o)}")
    if p.timing is not None:
        lines.append(f"  timing (kernel)     {_timing_text(p.timing)}")
    return lines


def _occupancy_text(o: Occupancy) -> str:
    hardware = f"hardware limit {o.hardware_limit}" + (" from the device's wavefront slots"
                                                       if o.hardware_source == "device" else "")
    if o.gpr_limit is None:
        return f"{o.wavefronts} wavefronts per SIMD ({hardware}; no GPRs named)"
    limiter = "GPR" if o.limiter == "gprs" else "hardware"
    return (f"{o.wavefronts} wavefronts per SIMD ({limiter}-limited: ({o.gpr_file} - 2 x {o.clause_temps} clause "
            f"temporaries) / {o.gprs} GPRs = {o.gpr_limit}; {hardware})")


def _timing_text(t: Timing) -> str:
    issue = ", ".join(f"{unit} {n:.1f}" for unit, n in t.issue_cycles.items())
    return (f"issue cycles {issue}; cycles per iteration {t.cycles_per_iteration:.1f}; "
            f"bottleneck: {t.bottleneck}")


def _latency_text(h: LatencyHiding, waves: int) -> str:
    if h.fetch_clauses == 0:
        return "latency: no fetch clause to hide"
    plural = "clause" if h.fetch_clauses == 1 else "clauses"
    head = f"latency: {h.fetch_clauses} fetch {plural} x {h.fetch_latency} clocks behind {h.alu_cycles} ALU clocks"
    if h.wavefronts_needed is None:
        return f"{head}: no ALU work to hide it behind"
    verdict = "hidden" if h.hidden else "NOT hidden"
    return (f"{head} needs {h.wavefronts_needed} wavefronts ({waves} fit: {verdict}); {h.wavefronts_needed} "
            f"wavefronts leave {h.gprs_for_needed} GPRs ({h.scalars_for_needed} scalars) per work-item")


def _clause_line(c: ClauseStats) -> str:
    indent = "  " * c.loop_depth
    name = f"{indent}{c.opcode}"
    if c.kind == "cf":
        return f"  {c.index:>3}  {c.line:>5}  {name}"
    check = "" if c.count_ok is None else (" ok" if c.count_ok else f" != {c.slots}")
    count = "-" if c.declared is None else f"{c.declared}{check}"
    if c.kind == "fetch":
        return f"  {c.index:>3}  {c.line:>5}  {name:<20} {'':>6} {c.fetches:>5} {'':>24} {count:>11}  " \
               f"{c.fetch_bytes} bytes fetched"
    s = c.per_slot
    slots = f"{s.x:>4}{s.y:>4}{s.z:>4}{s.w:>4}{s.t:>4}{c.literal_slots:>4}"
    return (f"  {c.index:>3}  {c.line:>5}  {name:<20} {c.groups:>6} {c.slot_ops:>5} {slots} {count:>11} "
            f"{_pct(c.utilization_pct):>7}  MAD {c.mads}, T {c.temps}")


def _loop_text(lp: LoopStats) -> str:
    head = (f"  CF {lp.start:02d}-{lp.end:02d} (line {lp.line}, depth {lp.depth}): {lp.groups} groups, {lp.mads} MADs")
    if lp.mads_per_clock is not None:
        head += f" -> {lp.mads_per_clock:.2f} MAD/clk"
    if lp.gflops is not None:
        head += f" -> ALU bound {lp.gflops:.1f} Gflop/s"
    head += f"; {lp.fetches} fetches, {lp.fetch_bytes} bytes"
    if lp.fetch_bound_gflops is not None:
        head += f" -> fetch bound {lp.fetch_bound_gflops:.1f} Gflop/s"
    if lp.bound is not None:
        head += f"; {lp.bound} bound"
    if lp.guessed_ops:
        head += f" ({lp.guessed_ops} unknown operations: MADs may be undercounted)"
    return head


def render_vliw_text(result: VliwAnalysis) -> str:
    """A human-readable report."""
    source = {"given": "as given", "inferred": "inferred from the code", "default": "assumed; --target to change"}
    gen = _GENERATION_NAMES.get(result.generation, result.generation)
    out = [f"isalens vliw: {result.file} ({_DIALECT_NAMES.get(result.dialect, result.dialect)}, {gen} "
           f"{'VLIW4' if result.width == 4 else 'VLIW5'}, {source.get(result.generation_source, '')})", ""]
    for p in result.programs:
        out += _program_text(p)
        out.append("")
    if len(result.programs) > 1:
        out += _program_text(result.total)
        out.append("")
    out.append("clauses (ops: ALU operations or fetches; CNT: the header's count, 'ok' when the body matches)")
    out.append(f"  {'CF':>3}  {'line':>5}  {'opcode':<20} {'groups':>6} {'ops':>5} "
               f"{'x':>4}{'y':>4}{'z':>4}{'w':>4}{'t':>4}{'lit':>4} {'CNT':>11} {'util':>7}")
    for p in result.programs:
        if len(result.programs) > 1:
            out.append(f"  [{p.name}]")
        out += [_clause_line(c) for c in p.clauses]
    out.append("")
    device = result.device
    if result.total.loops or device is not None:
        if device is not None:
            fetch = "no fetch bandwidth" if device.fetch_gbs is None else \
                f"fetch {device.fetch_gbs:g} GB/s ({device.fetch_gbs_source})"
            out.append(f"loops on {device.marketing_name}: {device.simds} SIMDs x {device.thread_processors} thread "
                       f"processors x {device.alus_per_sp} ALUs at {device.clock_mhz} MHz "
                       f"(peak {device.peak_gflops:.0f} Gflop/s), {fetch}")
        else:
            out.append("loops (give --device for Gflop/s bounds)")
        for lp in result.total.loops:
            out.append(_loop_text(lp))
            if (t := lp.timing) is not None:
                out.append(f"      timing: {_timing_text(t)}")
                out.append(f"      {_latency_text(t.latency, t.waves)}")
                if t.roofs is not None and t.roofs.gflops is not None:
                    out.append(f"      roofs: estimate {t.roofs.gflops:.1f} Gflop/s at {t.cycles_per_iteration:.1f} "
                               "cycles per iteration")
        if not result.total.loops:
            out.append("  none")
        out.append("")
    if result.diagnostics:
        out.append("diagnostics")
        out += [f"  {d.format()}" for d in result.diagnostics]
        out.append("")
    return "\n".join(out)
