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

__all__ = ["MATRIX_DATA", "evaluate"]

#: the data a matrix loop multiplies (``--matrix-data``), which sets the engine clock on devices that have the
#: measured figures (devices.toml ``matrix_clock_*_mhz``): random operands, or low-toggle ones (zeros, constants)
MATRIX_DATA = ("random", "low-toggle")

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


def _clock(device: DeviceSpec, matrix: bool, matrix_data: str | None) -> tuple[float, str, float | None]:
    """The engine clock a loop's rates use, what it is, and the range's other end (None: no range).

    A loop issuing matrix instructions on a device with measured matrix clocks runs at the clock AMD measured
    for a dense GEMM: ``--matrix-data`` picks random or low-toggle data; without it random (representative data,
    as AMD measures its achievable rates) with the low-toggle clock as the range's other end. Every other loop
    runs at the peak engine clock: no clock under vector load is published (docs/timing.md, "Clocks")."""
    if matrix and device.matrix_clock_random_mhz is not None and device.matrix_clock_low_toggle_mhz is not None:
        if matrix_data == "low-toggle":
            return device.matrix_clock_low_toggle_mhz, "matrix clock for low-toggle data, --matrix-data", None
        if matrix_data == "random":
            return device.matrix_clock_random_mhz, "matrix clock for random data, --matrix-data", None
        return (device.matrix_clock_random_mhz, "matrix clock for random data, assumed",
                device.matrix_clock_low_toggle_mhz)
    return device.boost_clock_mhz, "peak engine clock", None


def _roofs(work: Work, cycles_per_iteration: float, waves: int, device: DeviceSpec, simds_per_cu: int,
           matrix: bool, matrix_data: str | None) -> Roofs:
    flops = sum(work.flops.values())
    compute = _peak(device, work.flops, matrix)
    intensity = flops / work.bytes_global if work.bytes_global else None
    dram = intensity * device.dram_roof_gbs if intensity is not None else None
    mhz, basis_of_clock, high_mhz = _clock(device, matrix, matrix_data)
    lds = None
    if work.bytes_lds and device.lds_bandwidth_bytes_per_clk_per_cu:
        lds_gbs = device.lds_bandwidth_bytes_per_clk_per_cu * device.compute_units * mhz / 1000
        lds = flops / work.bytes_lds * lds_gbs
    model = high = None
    if cycles_per_iteration > 0 and flops:
        per_clock_per_simd = flops * waves / cycles_per_iteration
        model = per_clock_per_simd * simds_per_cu * device.compute_units * mhz / 1000
        if high_mhz is not None:
            high = model * high_mhz / mhz
    candidates = {"compute": compute, "dram bandwidth": dram, "LDS bandwidth": lds, "issue model": model}
    known = {k: v for k, v in candidates.items() if v is not None}
    bound = min(known, key=lambda k: known[k]) if known and flops else "no floating-point work"
    basis = "achievable" if device.achievable_bandwidth_gbs else "nominal"
    return Roofs(compute, dram, lds, model, bound, intensity, device.dram_roof_gbs, basis, mhz, basis_of_clock, high)


def _evaluate_loop(lp: LoopProfile, waves: int, device: DeviceSpec | None, simds_per_cu: int,
                   matrix_data: str | None) -> LoopTiming:
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
    roofs = _roofs(lp.work, cycles, waves, device, simds_per_cu, matrix, matrix_data) if device is not None else None
    return LoopTiming(lp.header_line, lp.depth, lp.trip_count, lp.trip_assumed, lp.issue_cycles, lp.latency_cycles,
                      waves, cycles, bottleneck, tuple(lines), lp.work, fma_per_clock, roofs)


def evaluate(prof: KernelProfile, *, waves: int | None = None, device: DeviceSpec | None = None,
             simds_per_cu: int = 4, matrix_data: str | None = None) -> KernelTiming:
    """Apply W waves per SIMD (``waves``, else the occupancy model's, else 1) and a device to a profile
    (``matrix_data``: the data matrix loops multiply, one of :data:`MATRIX_DATA`; see :func:`_clock`)."""
    if matrix_data is not None and matrix_data not in MATRIX_DATA:
        raise TimingInputError(f"--matrix-data must be one of {', '.join(MATRIX_DATA)}, not {matrix_data!r}")
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
    loops = tuple(_evaluate_loop(lp, w, device, simds_per_cu, matrix_data) for lp in prof.loops)
    kernel = _evaluate_loop(prof.whole, w, device, simds_per_cu, matrix_data)
    clocked = [r for r in (kernel.roofs, *(lp.roofs for lp in loops))
               if r is not None and r.clock_basis != "peak engine clock"]
    if clocked and device is not None:
        assumptions.append(_matrix_clock_note(device, matrix_data))
    return KernelTiming(prof, w, source, device, loops, kernel, tuple(assumptions))


def _matrix_clock_note(device: DeviceSpec, matrix_data: str | None) -> str:
    """The assumption a matrix loop's clock states (as :func:`_clock` chose it): which data, both measured clocks
    and the peak."""
    rnd, low = device.matrix_clock_random_mhz, device.matrix_clock_low_toggle_mhz
    if matrix_data == "low-toggle":
        chosen, other = f"low-toggle data (--matrix-data), {low} MHz", f"{rnd} MHz with random data"
    else:
        how = "--matrix-data" if matrix_data == "random" else "assumed"
        chosen = f"random data ({how}), {rnd} MHz"
        other = f"{low} MHz with low-toggle data such as zeros or constants: --matrix-data low-toggle"
    return (f"matrix loops run at the engine clock AMD measured for dense GEMMs on the {device.marketing_name} "
            f"with {chosen} ({other}; peak {device.boost_clock_mhz} MHz)")
