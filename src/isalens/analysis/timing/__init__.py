"""A static timing model for GCN/CDNA/RDNA code: per basic block and per natural loop, per wave, the issue
cycles each unit is busy and an in-order latency pass that honours ``s_waitcnt``, ``s_nop`` and the gfx9
scalar->vector hazard; then, for W waves sharing a SIMD, cycles per iteration, the bottleneck and the lines
that make it; work (flops by precision, bytes to global memory and LDS) and, on a device, the roofs.

The per-wave simulation (:func:`profile`) does not depend on W or the device, so ``--what-if`` re-evaluates
(:func:`evaluate`) without simulating again. Instruction facts arrive as class keys (see ``engine.timing``) and
as the ISA's timing facts (:mod:`isalens.isa.amdgcn.timing_facts`: bytes, flops, waits, hazard facts); unit,
issue and latency per class come from :mod:`isalens.arch.timing`.

Modules: ``model`` (the records), ``costs`` (per-instruction costs), ``schedule`` (one wave's in-order
schedule), ``summary`` (issue, work and stalls per region), ``regions`` (blocks and loops: :func:`profile`),
``evaluation`` (waves and device: :func:`evaluate`).

Model (docs/timing.md): a wave issues in order, at most one instruction per ``issue_interval`` cycles; an
instruction starts when its unit is free, its source registers are ready (producer start + latency), the
counters an ``s_waitcnt`` names have drained to their limit (a memory op completes ``latency`` cycles after
it issued) and hazards are resolved. W waves hide latency: W iterations take
``max(W x busiest unit's issue, one wave's latency)``.
"""

from isalens.analysis.timing.evaluation import evaluate
from isalens.analysis.timing.model import (
    DEFAULT_MEMORY_LEVEL,
    DEFAULT_TRIP_COUNT,
    BlockTiming,
    BlockTimings,
    KernelProfile,
    KernelTiming,
    LineTiming,
    LoopProfile,
    LoopTiming,
    Roofs,
    TimingInputError,
    Work,
)
from isalens.analysis.timing.regions import kernel_profile_on, profile

__all__ = [
    "DEFAULT_MEMORY_LEVEL", "DEFAULT_TRIP_COUNT", "BlockTiming", "BlockTimings", "KernelProfile", "KernelTiming",
    "LineTiming", "LoopProfile", "LoopTiming", "Roofs", "TimingInputError", "Work", "evaluate", "kernel_profile_on",
    "profile",
]
