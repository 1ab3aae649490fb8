"""The analysis passes over one kernel, as one ordered tuple run by one loop, and the frozen bundle of
their results.

Each pass is a plain function ``(kernel, arch, results so far, options) -> result``; the loop in :func:`run`
stores each result under the pass's name, and :class:`KernelAnalysis` is built from them (the way sqlglot
runs its optimizer rules). A new analysis is one function and one line in :data:`PASSES`; optional passes
(costly ones that not every command shows) are named in :data:`OPTIONAL` and run only when asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from isalens.analysis.blocks import BlockLiveIn, block_live_ins
from isalens.analysis.cfg import CFG, cfg
from isalens.analysis.lifetimes import LiveRange, live_ranges
from isalens.analysis.liveness import Liveness, liveness
from isalens.analysis.occupancy import (
    Occupancy,
    OccupancyInput,
    kernel_occupancy,
    kernel_vgpr_thresholds,
    occupancy_at_typical_launch,
)
from isalens.analysis.peak import EntryLiveIns, LiveValue, entry_live_ins, peak_live_set
from isalens.analysis.pressure import Pressure, pressure
from isalens.analysis.resources import Resources, resources
from isalens.analysis.source_lines import SourceLine, loop_sources, source_lines
from isalens.arch.model import ArchSpec
from isalens.ir.program import Kernel
from isalens.progress import step
from isalens.records import dataclass, field, replace

if TYPE_CHECKING:
    from isalens.analysis.advice.model import KernelAdvice
    from isalens.analysis.stats import KernelStats
    from isalens.analysis.timing import KernelTiming

__all__ = ["OPTIONAL", "PASSES", "STATS_LISTS", "TIMING_LINES", "KernelAnalysis", "PassOptions", "run"]


@dataclass(frozen=True, slots=True)
class PassOptions:
    """Settings some passes take."""

    #: assumed trip count per loop level for the loop-weighted class counts of ``stats``
    loop_weight: int = 10
    #: whether ``stats`` fills its lists a scan's row does not hold (``analysis.stats.stats(lists=...)``);
    #: ``run(leave_out=("stats_lists", ...))`` sets it to False
    stats_lists: bool = True
    #: whether ``timing`` keeps the lines that weigh most per loop and each block's critical path
    #: (``analysis.timing.profile(lines=...)``); ``run(leave_out=("timing_lines", ...))`` sets it to False
    timing_lines: bool = True


@dataclass(frozen=True, slots=True)
class KernelAnalysis:
    """Everything the passes computed for one kernel (optional passes are None when not run)."""

    kernel: Kernel
    arch: ArchSpec
    cfg: CFG
    liveness: Liveness
    pressure: Pressure
    ranges: Sequence[LiveRange]
    #: per file key, the registers live at the file's first peak, with their writes and next reads
    peak_live_set: dict[str, tuple[LiveValue, ...]]
    entry_live_in: EntryLiveIns
    #: live-ins per basic block (the JSON ``blocks`` key)
    block_live_ins: tuple[BlockLiveIn, ...]
    resources: Resources
    #: None when the resources cannot run on the target (e.g. more LDS than a workgroup may use)
    occupancy: tuple[Occupancy, OccupancyInput] | None
    #: (most VGPRs, waves per SIMD) per band of the kernel's occupancy as its VGPRs vary; empty without occupancy
    vgpr_thresholds: tuple[tuple[int, float], ...]
    #: the occupancy a 256-thread launch would give, when the workgroup size was only an assumed upper bound
    occupancy_at_256: Occupancy | None = None
    stats: KernelStats | None = None
    #: cycles per loop iteration and the bottleneck; None when not asked for or the target has no timing facts
    timing: KernelTiming | None = None
    #: what to change and what it buys (docs/advice.md)
    advice: KernelAdvice | None = None
    #: per source line of the programmer's file (empty when the input carries no source lines)
    source_lines: tuple[SourceLine, ...] = ()
    #: each loop named by its source lines (``loops.cl:22-26``), keyed by its header's input line
    loop_sources: dict[int, str] = field(default_factory=dict)


Results = Mapping[str, Any]
Pass = Callable[[Kernel, ArchSpec, Results, PassOptions], Any]


def _cfg(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> CFG:
    return cfg(kernel)


def _liveness(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> Liveness:
    return liveness(kernel, done["cfg"])


def _pressure(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> Pressure:
    return pressure(kernel, done["cfg"], done["liveness"])


def _ranges(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> Sequence[LiveRange]:
    return live_ranges(kernel, done["cfg"], done["liveness"])


def _peak_live_set(kernel: Kernel, arch: ArchSpec, done: Results,
                   opts: PassOptions) -> dict[str, tuple[LiveValue, ...]]:
    return peak_live_set(kernel, done["cfg"], done["liveness"], done["pressure"])


def _entry_live_in(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> EntryLiveIns:
    return entry_live_ins(kernel, done["liveness"])


def _block_live_ins(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> tuple[BlockLiveIn, ...]:
    return block_live_ins(kernel, done["cfg"], done["liveness"])


def _vgpr_thresholds(kernel: Kernel, arch: ArchSpec, done: Results,
                     opts: PassOptions) -> tuple[tuple[int, float], ...]:
    return tuple(kernel_vgpr_thresholds(kernel, arch, done["resources"], done["occupancy"]))


def _resources(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> Resources:
    return resources(kernel, arch)


def _occupancy(kernel: Kernel, arch: ArchSpec, done: Results,
               opts: PassOptions) -> tuple[Occupancy, OccupancyInput] | None:
    return kernel_occupancy(kernel, arch, done["resources"])


def _occupancy_at_256(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> Occupancy | None:
    return occupancy_at_typical_launch(arch, done["occupancy"])


def _stats(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> KernelStats:
    from isalens.analysis.stats import stats  # optional pass: loaded when it runs
    return stats(kernel, done["cfg"], loop_weight=opts.loop_weight, packed_workitem_ids=arch.packed_workitem_ids,
                 lists=opts.stats_lists)


def _timing(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> KernelTiming | None:
    from isalens.analysis.timing import TimingInputError, evaluate, kernel_profile_on

    occ = done["occupancy"]
    waves = max(int(occ[0].waves_per_simd), 1) if occ is not None else None
    try:
        prof = kernel_profile_on(kernel, arch, done["cfg"], occupancy_waves=waves, lines=opts.timing_lines)
    except TimingInputError:
        return None
    # None: gfx6/gfx7 have no sourced timing figures (the report says so)
    return None if prof is None else evaluate(prof, simds_per_cu=arch.simds_per_cu)


def _source_lines(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> tuple[SourceLine, ...]:
    return source_lines(kernel, done["cfg"], done["pressure"], done.get("timing"))


def _loop_sources(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> dict[int, str]:
    return loop_sources(kernel, done["cfg"])


def _advice(kernel: Kernel, arch: ArchSpec, done: Results, opts: PassOptions) -> KernelAdvice:
    from isalens.analysis.advice import advise
    from isalens.analysis.advice.model import AdviceInput
    from isalens.analysis.stats import stats

    stats_ = done.get("stats") or stats(kernel, done["cfg"], loop_weight=opts.loop_weight,
                                        packed_workitem_ids=arch.packed_workitem_ids)
    so_far = KernelAnalysis(kernel=kernel, arch=arch, **{k: v for k, v in done.items() if k != "advice"})
    return advise(AdviceInput(so_far, stats_))


#: (name, pass) in execution order; a pass reads the results of the passes before it by name
PASSES: tuple[tuple[str, Pass], ...] = (
    ("cfg", _cfg),
    ("liveness", _liveness),
    ("pressure", _pressure),
    ("ranges", _ranges),
    ("peak_live_set", _peak_live_set),
    ("entry_live_in", _entry_live_in),
    ("block_live_ins", _block_live_ins),
    ("resources", _resources),
    ("occupancy", _occupancy),
    ("vgpr_thresholds", _vgpr_thresholds),
    ("occupancy_at_256", _occupancy_at_256),
    ("stats", _stats),
    ("timing", _timing),
    ("source_lines", _source_lines),
    ("loop_sources", _loop_sources),
    ("advice", _advice),
)
#: passes that run only when asked for (see :func:`run`)
OPTIONAL = frozenset({"stats", "timing", "advice"})


#: passes a caller may leave out (see :func:`run`), with the empty result that stands in for each: no later pass
#: but advice reads them, and they reach only the report's lists (longest-lived ranges, the peak's live set,
#: per-block live-ins, per-source-line rows, loop names), which a scan's table rows do not hold
LEAVABLE: Mapping[str, Callable[[], Any]] = {"ranges": tuple, "peak_live_set": dict, "block_live_ins": tuple,
                                             "source_lines": tuple, "loop_sources": dict}
#: not a pass but part of one, left out like them: the statistics' lists a row does not hold (PassOptions.stats_lists)
STATS_LISTS = "stats_lists"
#: likewise the timing pass's line lists (the heaviest lines per loop and unit or stall kind, the blocks' critical
#: paths: PassOptions.timing_lines); its figures are the same without them
TIMING_LINES = "timing_lines"
#: what leaves out part of a pass: each is the name of the PassOptions field it sets to False
_PARTS = (STATS_LISTS, TIMING_LINES)

_DEFAULTS = PassOptions()


def run(kernel: Kernel, arch: ArchSpec, *, extra: Collection[str] = (), options: PassOptions = _DEFAULTS,
        leave_out: Collection[str] = (), known: Mapping[str, Any] | None = None) -> KernelAnalysis:
    """Run every pass over ``kernel`` (the optional ones only when named in ``extra``; those named in
    ``leave_out``, a subset of :data:`LEAVABLE`, not at all: their results are empty; :data:`STATS_LISTS` there
    leaves the statistics' lists empty, :data:`TIMING_LINES` the timing pass's line lists; those in ``known``,
    results already computed for this very kernel (the call linking's CFG and liveness), not again)."""
    unknown = set(extra) - OPTIONAL
    if unknown:
        raise ValueError(f"unknown optional pass(es): {', '.join(sorted(unknown))}")
    if set(leave_out) - {*LEAVABLE, *_PARTS} or (leave_out and "advice" in extra):
        # advice reads the peak's live set and the source lines: it would advise on empty ones
        raise ValueError(f"cannot leave out {', '.join(sorted(leave_out))} (of {', '.join([*LEAVABLE, *_PARTS])}; "
                         "none with advice)")
    cleared = {part: False for part in _PARTS if part in leave_out}
    if cleared:
        options = replace(options, **cleared)
    done: dict[str, Any] = {}
    size = f"{len(kernel.instructions):,} instructions"
    for name, fn in PASSES:
        if name in OPTIONAL and name not in extra:
            continue
        if name in leave_out:
            done[name] = LEAVABLE[name]()
            continue
        if known and name in known:
            done[name] = known[name]
            continue
        step(f"{kernel.name} ({size}): {name}")
        done[name] = fn(kernel, arch, done, options)
    return KernelAnalysis(kernel=kernel, arch=arch, **done)
