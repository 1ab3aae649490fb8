"""Occupancy, latency hiding and per-loop timing of VLIW5/VLIW4 programs (domain.md §1.4).

**Wavefronts per SIMD.** A SIMD's register file holds ``gpr_file`` 128-bit GPRs per lane slot (256 on
R600-Cayman flagships), of which 2 x 4 are clause temporaries; a program that allocates G GPRs per
work-item fits ``floor((gpr_file - 8) / G)`` wavefronts (AMD's OpenCL guide: 1 GPR -> 248, 30 -> 8),
at most 32 per SIMD, and never more than the chip's wavefront slots divided by its SIMDs.

**Latency hiding.** A wavefront of 64 covers a SIMD's 16 thread processors in 4 clocks, so one
iteration keeps the ALUs busy ``alu = 4 x groups`` clocks. Each fetch clause then waits ``L`` clocks
(180 for the seed's L1 hit) while other wavefronts run their ALU clauses: W wavefronts complete W
iterations per ``alu + F x L`` clocks, which hides the latency when ``(W - 1) x alu >= F x L``, i.e.
``W >= 1 + ceil(F x L / alu)``; that W leaves ``floor((gpr_file - 8) / W)`` GPRs (four scalars each).

**Timing.** Per wavefront-iteration on one SIMD: issue cycles per unit (ALU: ``alu``; fetch: the bytes
64 work-items fetch over the fetch path's bytes per clock per SIMD), the latency term
``(alu + F x L) / W``, and cycles per iteration = the largest, which names the bottleneck. These are the
loop bounds of :mod:`isalens.analysis.vliw` restated in clocks: the ALU and fetch roofs are unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from isalens.arch.vliw_occupancy import OccupancyFacts

__all__ = ["DEFAULT_FETCH_LATENCY", "LatencyHiding", "Occupancy", "Roofs", "Timing", "latency_hiding", "occupancy",
           "timing"]

#: clocks of an L1 texture-cache hit on RV770 as the SGEMM seed reasons (domain.md §1.4)
DEFAULT_FETCH_LATENCY = 180
#: each GPR holds four 32-bit values (x, y, z, w)
SCALARS_PER_GPR = 4


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Wavefronts per SIMD for one program."""

    gprs: int                        # GPRs per work-item the program allocates
    gpr_file: int                    # GPRs per SIMD lane slot
    clause_temps: int                # clause temporaries, reserved twice
    available: int                   # gpr_file - 2 x clause_temps
    gpr_limit: int | None            # floor(available / gprs); None when the program names no GPR
    hardware_limit: int              # 32, or fewer when the chip's wavefront slots run out first
    hardware_source: str             # "generation" or "device"
    wavefronts: int
    limiter: str                     # "gprs" or "hardware"


@dataclass(frozen=True, slots=True)
class LatencyHiding:
    """What hiding the fetch latency of one iteration takes."""

    fetch_clauses: int
    fetch_latency: int               # clocks each fetch clause waits
    alu_cycles: int                  # ALU clocks per wavefront per iteration
    wavefronts_needed: int | None    # None: fetches but no ALU work to hide them behind
    gprs_for_needed: int | None      # the most GPRs per work-item that still let that many fit
    scalars_for_needed: int | None
    hidden: bool | None              # the wavefronts that fit are enough


@dataclass(frozen=True, slots=True)
class Timing:
    """One loop iteration (or the whole kernel, every clause once) in SIMD clocks per wavefront."""

    header_line: int
    depth: int | None                # None for the kernel
    issue_cycles: dict[str, float]   # "alu", and "fetch" when the fetch bandwidth is known
    latency_cycles: int              # F x L: clocks one wavefront waits on its fetch clauses
    waves: int                       # wavefronts per SIMD that share the work
    cycles_per_iteration: float
    bottleneck: str
    flops: int                       # per work-item: 2 per MAD
    bytes_global: int                # fetched per work-item
    bytes_lds: int | None            # 0 without LDS operations; None when LDS is used (widths unknown)
    latency: LatencyHiding
    roofs: Roofs | None = None       # with a device


@dataclass(frozen=True, slots=True)
class Roofs:
    """The device's bounds for this work, in Gflop/s (``alu`` and ``fetch`` are the loop bounds of
    :mod:`isalens.analysis.vliw`); ``gflops`` is what ``cycles_per_iteration`` gives, latency included."""

    alu_gflops: float | None
    fetch_gflops: float | None
    bound: str | None                # "alu" or "fetch": the lower roof
    gflops: float | None


def occupancy(facts: OccupancyFacts, generation: str, gprs: int, *, chip: str | None = None,
              simds: int | None = None, chip_wavefronts: int | None = None) -> Occupancy:
    """Wavefronts per SIMD for a program of ``gprs`` GPRs per work-item on ``generation`` (``chip``)."""
    available = facts.gprs_available(generation, chip)
    file = facts.file_size(generation, chip)
    hardware, source = facts.max_wavefronts_per_simd, "generation"
    if chip_wavefronts is not None and simds:
        per_simd = chip_wavefronts // simds
        if per_simd < hardware:
            hardware, source = per_simd, "device"
    gpr_limit = available // gprs if gprs > 0 else None
    if gpr_limit is not None and gpr_limit < hardware:
        waves, limiter = max(gpr_limit, 0), "gprs"
    else:
        waves, limiter = hardware, "hardware"
    return Occupancy(gprs=gprs, gpr_file=file, clause_temps=facts.clause_temps[generation], available=available,
                     gpr_limit=gpr_limit, hardware_limit=hardware, hardware_source=source, wavefronts=waves,
                     limiter=limiter)


def latency_hiding(occ: Occupancy, *, groups: int, fetch_clauses: int, fetch_latency: int,
                   clocks_per_group: int) -> LatencyHiding:
    """Wavefronts needed to hide ``fetch_clauses`` waits of ``fetch_latency`` behind ``groups`` ALU groups."""
    alu = groups * clocks_per_group
    needed: int | None
    if fetch_clauses == 0 or fetch_latency == 0:
        needed = 1
    elif alu == 0:
        needed = None
    else:
        needed = 1 + math.ceil(fetch_clauses * fetch_latency / alu)
    gprs = occ.available // needed if needed is not None else None
    return LatencyHiding(
        fetch_clauses=fetch_clauses, fetch_latency=fetch_latency, alu_cycles=alu, wavefronts_needed=needed,
        gprs_for_needed=gprs, scalars_for_needed=None if gprs is None else gprs * SCALARS_PER_GPR,
        hidden=None if needed is None else occ.wavefronts >= needed,
    )


def timing(hiding: LatencyHiding, occ: Occupancy, *, header_line: int, depth: int | None, mads: int,
           fetch_bytes: int, lds_ops: int, wavefront_size: int,
           fetch_bytes_per_clock: float | None) -> Timing:
    """Cycles per iteration and the bottleneck; ``fetch_bytes_per_clock`` is the fetch path per SIMD."""
    alu = float(hiding.alu_cycles)
    issue: dict[str, float] = {"alu": alu}
    if fetch_bytes_per_clock is not None and fetch_bytes_per_clock > 0:
        issue["fetch"] = fetch_bytes * wavefront_size / fetch_bytes_per_clock
    latency = hiding.fetch_clauses * hiding.fetch_latency
    waves = max(occ.wavefronts, 1)
    candidates: list[tuple[float, str]] = [(alu, "ALU issue")]
    if "fetch" in issue:
        candidates.append((issue["fetch"], "fetch bandwidth"))
    if latency:
        plural = "wavefront" if waves == 1 else "wavefronts"
        candidates.append(((alu + latency) / waves, f"fetch latency with {waves} {plural} per SIMD"))
    cycles, bottleneck = max(candidates, key=lambda c: c[0])  # ties keep the earlier (ALU, then fetch)
    return Timing(
        header_line=header_line, depth=depth, issue_cycles=issue, latency_cycles=latency, waves=waves,
        cycles_per_iteration=cycles, bottleneck=bottleneck, flops=2 * mads, bytes_global=fetch_bytes,
        bytes_lds=0 if lds_ops == 0 else None, latency=hiding,
    )
