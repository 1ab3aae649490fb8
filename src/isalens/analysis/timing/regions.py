"""One wave through every block and natural loop of a kernel (:func:`profile`): each block's schedule, then
each loop body in its steady state (the second of two back-to-back iterations) with its inner loops times their
trip counts, then the whole kernel. Independent of the wave count and the device (see ``evaluation``)."""

from __future__ import annotations

import ctypes
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, compress
from operator import attrgetter

from isalens import _core
from isalens.analysis.cfg import CFG, Loop
from isalens.analysis.timing.costs import InstructionCosts, instruction_costs
from isalens.analysis.timing.model import (
    DEFAULT_MEMORY_LEVEL,
    DEFAULT_TRIP_COUNT,
    BlockTimings,
    KernelProfile,
    LoopProfile,
    TimingInputError,
)
from isalens.analysis.timing.schedule import TimingLines, compact, run_schedule
from isalens.analysis.timing.summary import Summary
from isalens.arch.devices import DeviceSpec
from isalens.arch.model import ArchSpec
from isalens.arch.timing import UNITS, TimingTable
from isalens.ir.instruction import Instruction
from isalens.ir.program import Kernel

__all__ = ["kernel_profile_on", "profile"]

#: kernels from this many instructions hand the pass's freed heap back to the system (:func:`_trim_heap`)
_TRIM_FROM = 250_000


def _trim_heap() -> None:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``; nothing elsewhere). The pass frees
    ~120 MiB of temporaries at 1M instructions (the core's schedule columns, the summaries' lists) that glibc
    otherwise keeps mapped: the later passes and the JSON writer then grow the process past them (dense 1M
    ``analyze``: 957 -> 936 MiB peak RSS, docs/performance.md, twenty-third session)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return
    trim(0)


def _ordered(issue: Mapping[str, int]) -> dict[str, int]:
    return {u: issue[u] for u in UNITS if issue.get(u)}


def _loop_header_line(loop: Loop, cfg: CFG, instructions: Sequence[Instruction]) -> int:
    return instructions[cfg.blocks[loop.header].start].line


def _check_trip_counts(trip_counts: Mapping[int, int], header_lines: Mapping[int, Loop]) -> None:
    for line, count in trip_counts.items():
        if line not in header_lines:
            known = ", ".join(str(h) for h in sorted(header_lines)) or "none"
            raise TimingInputError(f"no loop has its header at line {line} (loop header lines: {known})")
        if count < 0:
            raise TimingInputError(f"trip count for the loop at line {line} must be >= 0, not {count}")


@dataclass(slots=True)
class _Kernel:
    """What every region of one kernel shares: its graph, costs, lines, trip counts and block schedules."""

    cfg: CFG
    costs: list[InstructionCosts]
    lines: list[int]
    interval: int
    hazards: bool
    #: trip count by loop header block; the header lines the user gave one for
    trips: dict[int, int]
    given: Mapping[int, int]
    #: whether each region keeps its heaviest lines and each block its critical path (``profile(lines=...)``)
    keep_lines: bool
    loops_by_header: dict[int, Loop] = field(init=False)
    headers: list[int] = field(init=False)  # the loops' header blocks, ascending
    through: dict[int, list[Loop]] = field(init=False)  # block -> the loops containing it
    unreachable: set[int] = field(init=False)
    #: the costs objects by ``id`` (the few thousand distinct ones of a kernel)
    by_id: dict[int, InstructionCosts] = field(init=False)
    #: each block's issue, work and (outside loops) stalls, summed into the region that owns the block: the
    #: innermost loop around it (the deepest; natural loops nest), None for the kernel outside loops
    own_totals: dict[int | None, Summary] = field(default_factory=dict)
    block_end: list[int] = field(default_factory=list)
    regions: dict[int | None, LoopProfile] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.loops_by_header = {loop.header: loop for loop in self.cfg.loops}
        self.headers = sorted(self.loops_by_header)
        self.through = {}
        for loop in self.cfg.loops:
            for b in loop.blocks:
                self.through.setdefault(b, []).append(loop)
        self.unreachable = set(self.cfg.unreachable)
        self.by_id = dict(zip(map(id, self.costs), self.costs, strict=True))


def _critical_path(lo: int, hi: int, stalls: array[int], reasons: list[str], blockers: array[int],
                   lines: Sequence[int]) -> tuple[int, ...]:
    """:func:`~isalens.analysis.timing.schedule.critical_path` of a block's records read from the columns."""
    stalled = sorted((i for i in range(lo, hi) if stalls[i] > 0 and reasons[i] not in ("", "unit")),
                     key=lambda i: -stalls[i])[:4]
    chosen: set[int] = set()
    for i in stalled:
        chosen.add(lines[i])
        if blockers[i] >= 0:
            chosen.add(lines[blockers[i]])
    return tuple(sorted(chosen))


def _schedule_blocks(k: _Kernel) -> tuple[BlockTimings, TimingLines]:
    """Schedule every block on its own (one call of the core for all of them); the blocks' issue cycles per unit
    as one column of the core's, their rows made when read (:class:`BlockTimings`: a 1M-instruction kernel has
    250,000 blocks). Each region's own blocks (the innermost loop around them, None for the kernel outside loops)
    are summed into its total in one pass per region, in block order, as :meth:`Summary.add_block` of each block
    would: a block of more than :data:`~isalens.analysis.timing.summary.TOP` instructions through its own summary
    first, whose per-unit lines are cut to the heaviest (a shorter block cannot have more lines than that on a
    unit, so summing it straight into the region's total is the same sum). Returns the block rows and the
    schedule's rows (of the instructions some block holds)."""
    cfg, costs, lines = k.cfg, k.costs, k.lines
    n = len(costs)
    starts, ends = [b.start for b in cfg.blocks], [b.end for b in cfg.blocks]
    starts_of, stalls, reasons, blockers, lengths = _core.block_schedules(starts, ends, costs, k.interval, k.hazards)
    k.block_end = lengths
    # each instruction's unit as its rank in UNITS (the report's order; a table's unit is one of them), then units
    # met beyond them (hand-made costs), so each block's and region's sums are columns
    names = list(UNITS)
    code_of = {u: r for r, u in enumerate(names)}
    for unit in set(map(attrgetter("unit"), costs)) - code_of.keys():
        code_of[unit] = len(names)
        names.append(unit)
    codes = list(map(code_of.__getitem__, map(attrgetter("unit"), costs)))
    issues = list(map(attrgetter("issue"), costs))
    # only a block holding a stall for a reason other than issue has a critical path (207 of the dense 100k
    # kernel's 20,793 blocks): find those blocks in one pass over the columns, the others' path is empty
    with_path = sorted({cfg.block_of[i] for i in compress(range(n), stalls)
                        if stalls[i] > 0 and reasons[i] not in ("", "unit")}) if cfg.block_of \
        else range(len(cfg.blocks))
    paths = {b: _critical_path(starts[b], ends[b], stalls, reasons, blockers, lines) for b in with_path} \
        if k.keep_lines else {}
    # what the report keeps (the rows read on demand) as int32 columns from _TRIM_FROM instructions (smaller
    # kernels keep the columns they have: the copies would cost more than they save), the lines one column for
    # both; the pass reads its own lists
    compacted = n >= _TRIM_FROM
    issue_rows = _core.block_issue(starts, ends, codes, issues, len(UNITS))
    if compacted:
        issue_rows = compact(issue_rows)  # the core's int64 rows freed at once (the pass's peak is near)
    kept_lines, kept_lengths = (compact(lines), compact(lengths)) if compacted else (lines, lengths)
    rows = BlockTimings(starts, ends, kept_lines, cfg.loop_depth, issue_rows, kept_lengths, paths)
    # each region's own blocks in block order (unreachable blocks count in none)
    innermost = {b: max(around, key=attrgetter("depth")).header for b, around in k.through.items()}
    own: dict[int | None, tuple[list[int], list[int]]] = {}
    for b in range(len(cfg.blocks)):
        if b in k.unreachable:
            continue
        region = own.get(innermost.get(b))
        if region is None:
            region = own[innermost.get(b)] = ([], [])
        region[0].append(starts[b])
        region[1].append(ends[b])
    for region_of, (los, his) in own.items():
        total = k.own_totals[region_of] = Summary(lines=k.keep_lines)
        total.add_ranges(los, his, costs, k.by_id, lines, codes, issues, names)
        if region_of is None:
            # outside loops the kernel is its blocks one after the other: their stalls are the region's (read
            # where the column is not 0)
            total.add_stall_columns(chain.from_iterable(compress(range(lo, hi), stalls[lo:hi])
                                                        for lo, hi in zip(los, his, strict=True)),
                                    stalls, reasons, blockers, costs, lines)
    covered = sum(hi - lo for lo, hi in zip(starts, ends, strict=True))
    if covered == n and all(starts[b] == ends[b - 1] for b in range(1, len(starts))) and (not starts or
                                                                                        starts[0] == 0):
        indices: Sequence[int] = range(n)  # the blocks cover the kernel (as a CFG's do): no list of a million
    else:
        timed = array("b", bytes(n))
        ones = array("b", [1]) * n
        for lo, hi in zip(starts, ends, strict=True):
            timed[lo:hi] = ones[lo:hi]
        indices = list(compress(range(n), timed))
    return rows, TimingLines(indices, kept_lines, costs, starts_of, stalls, reasons, compacted=compacted)


def _inner_loops(k: _Kernel, members: set[int], own_header: int | None) -> list[Loop]:
    """The outermost loops inside a region (deeper ones are inside them)."""
    # their header is a member and all their blocks are (one natural loop per header); looked up through the
    # member headers, not by testing every loop of the kernel
    # (the fewer of the member blocks and the loop headers: the whole kernel has 20,793 blocks on the dense 100k
    # benchmark and 368 loops; either way the headers in block order)
    pool = (h for h in k.headers if h in members) if len(k.headers) < len(members) else sorted(members)
    candidates = [lp for b in pool if b != own_header and (lp := k.loops_by_header.get(b)) is not None
                  and lp.blocks <= members]
    chosen = {lp.header for lp in candidates}
    # a loop strictly containing ``lp`` contains its header, so only the loops through that block need testing
    return [lp for lp in candidates
            if not any(o is not lp and o.header in chosen and lp.blocks < o.blocks for o in k.through[lp.header])]


def _region(k: _Kernel, blocks_in: frozenset[int] | None, own_header: int | None) -> LoopProfile:
    """A loop body (or the whole kernel when ``blocks_in`` is None): inner loops x their trip counts; inner
    loops must be profiled already."""
    if own_header in k.regions:
        return k.regions[own_header]
    cfg = k.cfg
    members = set(range(len(cfg.blocks))) if blocks_in is None else set(blocks_in)
    inner = _inner_loops(k, members, own_header)
    nested: set[int] = set()
    for lp in inner:
        nested |= lp.blocks
    # in block order (the whole kernel's members are every block: no sort of them)
    own = [b for b in (range(len(cfg.blocks)) if blocks_in is None else sorted(members))
           if b not in nested and b not in k.unreachable]
    total = k.own_totals.pop(own_header, None) or Summary(lines=k.keep_lines)  # its own blocks, in block order
    if own_header is not None:
        order = [i for b in own for i in range(cfg.blocks[b].start, cfg.blocks[b].end)]
        _first, second = run_schedule(order, k.costs, k.interval, k.hazards, 2)
        latency = second.end  # steady state: the second iteration
        total.add_stalls(second.starts, k.costs, k.lines)
    else:
        # outside loops the kernel is its blocks one after the other: reuse their schedules
        latency = sum(k.block_end[b] for b in own)
    for lp in inner:
        sub = k.regions[lp.header]
        n = k.trips[lp.header]
        latency += sub.latency_cycles * n
        total.merge(Summary.of_profile(sub), n, stalls=True)
    header_line = k.lines[cfg.blocks[own_header].start] if own_header is not None else 0
    depth = k.loops_by_header[own_header].depth if own_header is not None else 0
    prof = LoopProfile(header_line, depth, k.trips.get(own_header, 1) if own_header is not None else 1,
                       own_header is not None and header_line not in k.given, _ordered(total.issue),
                       latency, total.work(), dict(total.stalls), total.stall_tops(), total.unit_tops())
    k.regions[own_header] = prof
    return prof


def profile(instructions: Sequence[Instruction], cfg: CFG, classes: Sequence[str], table: TimingTable, *,
            wave_size: int, generation: int, simds_per_cu: int, trip_counts: Mapping[int, int] | None = None,
            occupancy_waves: int | None = None, lines: bool = True) -> KernelProfile:
    """Simulate one wave through every block and loop of a kernel (see the module docstring).

    ``trip_counts`` maps a loop's header line to its trip count; other loops get :data:`DEFAULT_TRIP_COUNT`.
    ``lines=False``: the same figures without the lines that weigh most (each region's ``unit_lines`` and
    ``stall_lines`` empty, each block's critical path empty), for a caller that reads none of them (a scan's row).
    """
    trip_counts = dict(trip_counts or {})
    big = len(instructions) >= _TRIM_FROM
    if big:
        _trim_heap()  # what the passes before freed
    line_of = list(map(attrgetter("line"), instructions))
    header_lines = {_loop_header_line(loop, cfg, instructions): loop for loop in cfg.loops}
    _check_trip_counts(trip_counts, header_lines)
    assumptions: list[str] = []
    costs, unknown_classes = instruction_costs(instructions, classes, table, wave_size=wave_size,
                                               generation=generation,
                                               lds_per_simd=table.lds_bytes_per_clk / max(simds_per_cu, 1))
    if unknown_classes:
        assumptions.append("no timing entry (timed as a full-rate VALU op): " + ", ".join(sorted(unknown_classes)))
    trips = {loop.header: trip_counts.get(line, DEFAULT_TRIP_COUNT) for line, loop in header_lines.items()}
    k = _Kernel(cfg, costs, line_of, table.issue_interval, bool(table.hazards), trips, trip_counts, lines)
    blocks, timing_lines = _schedule_blocks(k)
    assumed = sorted(line for line in header_lines if line not in trip_counts)
    if assumed:
        assumptions.append(f"trip count {DEFAULT_TRIP_COUNT} assumed for the loop(s) with header line(s) "
                           f"{', '.join(map(str, assumed))} (pass --trip-count LINE=N)")
    # innermost first, so a loop finds its inner loops' profiles ready: an inner loop is deeper than the
    # loop around it (natural loops nest). No recursion: a recursive closure is a reference cycle, which
    # would keep every block schedule alive while the CLI pauses the garbage collector (cli.main).
    for lp in sorted(cfg.loops, key=lambda lp: -lp.depth):
        _region(k, lp.blocks, lp.header)
    loops = tuple(k.regions[lp.header] for lp in sorted(cfg.loops, key=lambda lp: cfg.blocks[lp.header].start))
    whole = _region(k, None, None)
    _core.release_costs()  # no later schedule of this kernel's costs
    if big:
        _trim_heap()
    distinct = k.by_id.values()  # the kernel's costs objects, each once (instructions of one text share one)
    if any(c.barrier for c in distinct):
        assumptions.append("s_barrier waits for the other waves of the workgroup: not modelled (0 cycles)")
    if any(c.converted for c in distinct):
        assumptions.append("image and format buffer accesses count their register data as global bytes (4 per "
                           "channel, 2 with d16): the memory format is in the resource descriptor, not the code "
                           "(an rgba8 texel is 4 bytes in memory, 16 in registers), so their bytes are approximate")
    return KernelProfile(table.family, wave_size, timing_lines, blocks, loops, whole, occupancy_waves,
                         tuple(assumptions),
                         has_vector_loads=any(c.memory and c.unit == "vmem" and not c.klass.endswith(".store")
                                              for c in distinct))


def kernel_profile_on(kernel: Kernel, arch: ArchSpec, graph: CFG, *, occupancy_waves: int | None = None,
                      trip_counts: Mapping[int, int] | None = None, device: DeviceSpec | None = None,
                      memory_level: str = DEFAULT_MEMORY_LEVEL, scalar_level: bool = False,
                      lines: bool = True) -> KernelProfile | None:
    """:func:`profile` of a whole kernel with its target's timing table (with ``device``'s own rates where they
    differ by product; vector loads at ``memory_level``'s latency, scalar loads too with ``scalar_level``, an
    explicit ``--memory-level``; ``lines``: see :func:`profile`) and the class keys the reader stored; None when
    the target has no timing facts (gfx6/gfx7). The pipeline's pass and the ``timing`` command share it.
    TimingInputError when the level has no figure (no MALL)."""
    from isalens.arch.timing import (
        device_table,
        memory_latency,
        memory_table,
        scalar_level_latency,
        target_table,
        timing_family,
        timing_table,
    )

    family = timing_family(arch)
    if family is None:
        return None
    table = device_table(target_table(timing_table(family), arch.name), device)
    mem = memory_latency(table, device)
    scalar_cycles = scalar_level_latency(table, mem, memory_level) if scalar_level and mem is not None else None
    try:
        table = memory_table(table, mem, memory_level, scalar=scalar_level)
    except ValueError as exc:
        where = f"device {device.name}" if device is not None else f"{family} without --device"
        raise TimingInputError(f"--memory-level {memory_level}: {exc} ({where})") from None
    classes = [ins.facts.klass for ins in kernel.instructions]
    prof = profile(kernel.instructions, graph, classes,
                   table, wave_size=kernel.wave_size, generation=arch.generation,
                   simds_per_cu=arch.simds_per_cu, trip_counts=trip_counts, occupancy_waves=occupancy_waves,
                   lines=lines)
    level_cycles = mem.of(memory_level) if mem is not None else None
    return replace(prof, memory_level=memory_level, memory_cycles=level_cycles, scalar_cycles=scalar_cycles,
                   has_scalar_loads="smem.load" in classes)
