"""W waves per SIMD and a device applied to a one-wave profile: cycles per iteration, the bottleneck and its
lines, FMAs per clock and the roofs (docs/timing.md). ``--what-if`` re-evaluates without simulating again."""

from __future__ import annotations

from collections.abc import Mapping

from isalens.analysis.timing.model import (
    KernelProfile,
    KernelTiming,
    LoopProfile,
    LoopTiming,
    Roofs,
    TimingInputError,
    Work,
)
from isalens.arch.devices import DeviceSpec

__all__ = ["evaluate"]

_UNIT_NAMES = {"valu": "VALU", "trans": "transcendental unit", "matrix": "matrix cores", "salu": "SALU",
               "smem": "SMEM", "vmem": "vector memory", "lds": "LDS", "export": "export/GDS",
               "branch": "branch/message", "sequencer": "sequencer (waits, nops)"}


def _peak(device: DeviceSpec, flops: Mapping[str, int], matrix: bool) -> float | None:
    """The device's peak for the dominant precision: the matrix cores' where the loop issues MFMA/WMMA, the
    packed FP32 rate where the product has one (CDNA2+: the issue model decides whether the code reaches it)."""
    if not flops:
        return None
    main = max(flops, key=lambda k: flops[k])
    if matrix:
        peak = {"i8": device.matrix_int8_gops, "u8": device.matrix_int8_gops, "f16": device.matrix_fp16_gflops,
                "bf16": device.matrix_fp16_gflops}.get(main)
        if peak:
            return peak
    fp32 = max(device.fp32_gflops, device.fp32_packed_gflops or 0.0)
    return {"f64": device.fp64_gflops, "f16": device.fp16_gflops, "bf16": device.fp16_gflops,
            "f32": fp32}.get(main, fp32)


def _roofs(work: Work, cycles_per_iteration: float, waves: int, device: DeviceSpec, simds_per_cu: int,
           matrix: bool) -> Roofs:
    flops = sum(work.flops.values())
    compute = _peak(device, work.flops, matrix)
    intensity = flops / work.bytes_global if work.bytes_global else None
    dram = intensity * device.dram_roof_gbs if intensity is not None else None
    lds = None
    if work.bytes_lds and device.lds_bandwidth_bytes_per_clk_per_cu:
        lds_gbs = device.lds_bandwidth_bytes_per_clk_per_cu * device.compute_units * device.boost_clock_mhz / 1000
        lds = flops / work.bytes_lds * lds_gbs
    model = None
    if cycles_per_iteration > 0 and flops:
        per_clock_per_simd = flops * waves / cycles_per_iteration
        model = per_clock_per_simd * simds_per_cu * device.compute_units * device.boost_clock_mhz / 1000
    candidates = {"compute": compute, "dram bandwidth": dram, "LDS bandwidth": lds, "issue model": model}
    known = {k: v for k, v in candidates.items() if v is not None}
    bound = min(known, key=lambda k: known[k]) if known and flops else "no floating-point work"
    basis = "achievable" if device.achievable_bandwidth_gbs else "nominal"
    return Roofs(compute, dram, lds, model, bound, intensity, device.dram_roof_gbs, basis)


def _evaluate_loop(lp: LoopProfile, waves: int, device: DeviceSpec | None, simds_per_cu: int) -> LoopTiming:
    busiest = max(lp.issue_cycles, key=lambda u: lp.issue_cycles[u]) if lp.issue_cycles else "valu"
    busy = lp.issue_cycles.get(busiest, 0)
    throughput = waves * busy
    cycles = float(max(throughput, lp.latency_cycles))
    if throughput >= lp.latency_cycles and busy:
        bottleneck = f"{_UNIT_NAMES.get(busiest, busiest)} issue"
        lines = lp.unit_lines.get(busiest, ())[:8]
    else:
        stalls = {k: v for k, v in lp.stalls.items() if k != "issue"}
        kind = max(stalls, key=lambda k: stalls[k]) if stalls else "in-order issue latency"
        plural = "wave" if waves == 1 else "waves"
        bottleneck = f"{kind} with {waves} {plural} per SIMD"
        lines = lp.stall_lines.get(kind, ())[:8]
    fma_per_clock = lp.work.fma * waves / cycles * simds_per_cu if cycles else 0.0
    matrix = lp.issue_cycles.get("matrix", 0) > 0
    roofs = _roofs(lp.work, cycles, waves, device, simds_per_cu, matrix) if device is not None else None
    return LoopTiming(lp.header_line, lp.depth, lp.trip_count, lp.trip_assumed, lp.issue_cycles, lp.latency_cycles,
                      waves, cycles, bottleneck, tuple(lines), lp.work, fma_per_clock, roofs)


def evaluate(prof: KernelProfile, *, waves: int | None = None, device: DeviceSpec | None = None,
             simds_per_cu: int = 4) -> KernelTiming:
    """Apply W waves per SIMD (``waves``, else the occupancy model's, else 1) and a device to a profile."""
    assumptions = list(prof.assumptions)
    if waves is not None:
        if waves < 1:
            raise TimingInputError(f"the wave count must be at least 1, not {waves}")
        w, source = waves, "--waves"
    elif prof.occupancy_waves is not None:
        w, source = max(prof.occupancy_waves, 1), "occupancy"
    else:
        w, source = 1, "assumed"
        assumptions.append("1 wave per SIMD assumed: the occupancy is unknown (pass --waves N)")
    loops = tuple(_evaluate_loop(lp, w, device, simds_per_cu) for lp in prof.loops)
    kernel = _evaluate_loop(prof.whole, w, device, simds_per_cu)
    return KernelTiming(prof, w, source, device, loops, kernel, tuple(assumptions))
