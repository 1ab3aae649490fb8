"""Pressure attribution: the smallest set of values live at the VGPR peak whose shortening reaches the next
occupancy level.

Model. Requested VGPRs ``R`` exceed the peak live count ``P`` by the allocator's slack; reaching the next level
takes ``cut`` fewer VGPRs (:class:`~isalens.analysis.occupancy.NextStep`), so, slack unchanged, every
instruction must have at most ``budget = P - cut`` live registers. The instructions above that form the
high-pressure region ``H``. A value *shortened* (recomputed at its use, loaded later, or stored earlier) stays
live only where an instruction touches its register, so it frees one register at every instruction of ``H``
it spans without touching. Choosing the fewest values so that every ``i`` in ``H`` loses ``count[i] - budget``
registers is a set multicover: greedy with the preferred order (values unused inside ``H`` first, then the
longest), pruned, then proven minimal against the lower bound ``max(count[i] - budget)`` or by exhaustive search
when that is small enough.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import operator
from array import array
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from itertools import compress, repeat
from operator import lt, sub

from isalens import _core
from isalens.analysis.advice.model import Advice, AdviceInput, PassResults, Value
from isalens.analysis.occupancy import OccupancyInputError, occupancy
from isalens.analysis.pressure import touched
from isalens.ir.registers import Reg, RegFile, registers_in

KIND = "pressure"
#: combinations tried at most when the greedy set is not provably minimal
SEARCH_LIMIT = 200_000


@dataclass(frozen=True, slots=True)
class Candidate:
    """A value live at the peak: its register, definition (None: live at entry), uses and where it frees one."""

    reg: int
    def_index: int | None
    uses: tuple[int, ...]
    #: ascending instruction indices (an array: ~8 bytes each, not a set's ~60; a dense kernel's region
    #: spans most of it, for each of ~200 values)
    frees_at: array[int]
    used_in_region: bool
    #: instructions between the last touch before the peak and the next use after it (how long it idles)
    idle: int = 0

    @property
    def span(self) -> int:
        return len(self.frees_at)


@dataclass(frozen=True, slots=True)
class Attribution:
    """The chosen values for a cut of ``cut`` VGPRs, or why none exists (``blocked_at``: an instruction still
    above budget after shortening every candidate)."""

    peak_index: int
    budget: int
    #: the instructions above ``budget``, ascending
    region: array[int]
    chosen: tuple[Candidate, ...]
    candidates: tuple[Candidate, ...]
    proven_minimal: bool
    new_peak: int
    blocked_at: int | None = None


class Region:
    """The high-pressure region: its instruction indices ascending (an int32 array, 4 bytes each) and a byte
    per instruction saying whether it is inside. A dense 1M-instruction kernel's region is most of it: as a
    tuple, a frozenset and dicts of its demand it was ~146 MiB of Python objects at once, the peak of
    ``analyze --json`` (docs/performance.md, twenty-second session, 1M memory)."""

    __slots__ = ("_inside", "indices")

    def __init__(self, indices: array[int], n: int) -> None:
        self.indices = indices
        inside = bytearray(n)
        for i in indices:
            inside[i] = 1
        self._inside = inside

    def __len__(self) -> int:
        return len(self.indices)

    def __iter__(self) -> Iterator[int]:
        return iter(self.indices)

    def __contains__(self, i: object) -> bool:
        return type(i) is int and 0 <= i < len(self._inside) and bool(self._inside[i])


def candidates(result: PassResults, peak: int, region: Collection[int]) -> list[Candidate]:
    """Every VGPR value live at instruction ``peak``, with the instructions of ``region`` where shortening it
    frees its register (layout order: the value runs from its last write at or before ``peak`` to the next
    write after it)."""
    ins = result.kernel.instructions
    regs = registers_in(touched(result.kernel, result.liveness, peak), RegFile.VGPR)
    # the walk over each value's lines is the core's (isalens._core.value_lines): ~200 values over most of a
    # dense kernel's lines
    values = _core.value_lines(ins, result.liveness.live_in, result.liveness.live_out,
                               [Reg(RegFile.VGPR, reg).mask() for reg in regs], peak, region)
    out = []
    for reg, (d, end, uses, frees) in zip(regs, values, strict=True):
        start = 0 if d is None else d
        before = max([start, *(u for u in uses if u <= peak)])
        after = min([end, *(u for u in uses if u > peak)])
        out.append(Candidate(reg, d, tuple(uses), frees, any(u in region for u in uses), after - before))
    return out


def _preference(c: Candidate) -> tuple[bool, int, int, int]:
    # unused inside the high-pressure region first, then the widest coverage, then the longest idle
    return (c.used_in_region, -c.span, -c.idle, c.reg)


def _covers(chosen: tuple[Candidate, ...] | list[Candidate], need: array[int], region: array[int]) -> bool:
    """Whether ``chosen`` frees at every instruction of ``region`` at least its ``need`` (a column over every
    instruction)."""
    got = _core.cover_counts([c.frees_at for c in chosen], len(need))
    return all(map(operator.ge, map(got.__getitem__, region), map(need.__getitem__, region)))


def _greedy(cands: list[Candidate], need: array[int], region: array[int]) -> list[Candidate] | None:
    residual = array("i", need)  # a copy; <= 0 outside the region, and it only goes down
    left = len(region)  # the region's instructions still above budget
    chosen: list[Candidate] = []
    pool = sorted(cands, key=_preference)
    while left:
        best, gain = None, 0
        for c in pool:
            g = sum(1 for i in c.frees_at if residual[i] > 0)
            if g > gain:
                best, gain = c, g
        if best is None:
            return None
        chosen.append(best)
        pool.remove(best)
        for i in best.frees_at:
            residual[i] -= 1
            if residual[i] == 0:
                left -= 1
    for c in reversed(list(chosen)):  # drop what later picks made redundant
        rest = [x for x in chosen if x is not c]
        if _covers(rest, need, region):
            chosen = rest
    return chosen


def attribute(result: PassResults, cut: int) -> Attribution:
    """The fewest values at the VGPR peak whose shortening lowers every instruction's live count by what
    removing ``cut`` VGPRs needs."""
    counts = result.pressure.vgpr.counts
    peak_value = result.pressure.vgpr.peak
    peak = result.pressure.vgpr.peak_indices[0]
    budget = peak_value - cut
    # per-instruction int32 columns made in C calls (map/compress), not tuples, sets and dicts of ints: the
    # region is most of a dense kernel's instructions
    region = array("i", compress(range(len(counts)), map(budget.__lt__, counts)))
    need = array("i", map(sub, counts, repeat(budget)))  # what each instruction must lose (> 0: in the region)
    cands = candidates(result, peak, Region(region, len(counts)))
    # how many candidates free at each instruction: the core's pass over their columns (_core.cover_counts)
    have = _core.cover_counts([c.frees_at for c in cands], len(counts))
    blocked = next(compress(region, map(lt, map(have.__getitem__, region), map(need.__getitem__, region))), None)
    del have
    chosen = None if blocked is not None else _greedy(cands, need, region)
    if chosen is None:
        return Attribution(peak, budget, region, (), tuple(cands), False, peak_value,
                           blocked if blocked is not None else peak)
    lower = max(need) if region else 0
    proven = len(chosen) <= lower
    if not proven:
        useful = [c for c in sorted(cands, key=_preference) if c.frees_at]
        work = sum(math.comb(len(useful), k) for k in range(lower, len(chosen)))
        if work <= SEARCH_LIMIT:
            proven = True
            for k in range(lower, len(chosen)):
                found = next((s for s in itertools.combinations(useful, k) if _covers(s, need, region)), None)
                if found is not None:
                    chosen = list(found)
                    break
    del need
    covered = _core.cover_counts([c.frees_at for c in chosen], len(counts))
    new_peak = max(map(sub, counts, covered), default=0)
    ordered = tuple(sorted(chosen, key=_preference))
    return Attribution(peak, budget, region, ordered, tuple(cands), proven, new_peak)


def detect(inp: AdviceInput) -> list[Advice]:
    """Fires when fewer VGPRs alone reach the next occupancy level and shortening values at the peak gets there."""
    result = inp.analysis
    if result.occupancy is None or not result.pressure.vgpr.peak_indices:
        return []
    occ, occ_in = result.occupancy
    step = occ.next_step
    if step is None or not step.vgprs_to_remove or "vgpr" not in occ.limited_by:
        return []
    cut = step.vgprs_to_remove
    att = attribute(result, cut)
    ins = result.kernel.instructions
    requested = result.resources.vgpr.requested
    if not att.chosen:
        return []
    try:
        after = occupancy(result.arch, dataclasses.replace(occ_in, vgprs=requested - cut))
    except OccupancyInputError:
        return []
    peak_line = ins[att.peak_index].line

    def next_use(c: Candidate) -> int:
        return next((ins[u].line for u in c.uses if u > att.peak_index), 0)

    held = result.kernel.source.variables_at(att.peak_index)  # the source variables in registers at the peak
    values = tuple(Value(
        reg=f"v{c.reg}",
        def_line=ins[c.def_index].line if c.def_index is not None else 0,
        use_lines=tuple(ins[u].line for u in c.uses),
        frees=1,
        defined_by=ins[c.def_index].mnemonic if c.def_index is not None else "kernel entry",
        variables=tuple(dict.fromkeys(v.name for v in held if v.mask & Reg(RegFile.VGPR, c.reg).mask())),
    ) for c in att.chosen)
    unused = sum(1 for c in att.chosen if not c.used_in_region)
    first, last = ins[att.region[0]].line, ins[att.region[-1]].line
    by_def: dict[str, int] = {}
    for v in values:
        by_def[v.defined_by] = by_def.get(v.defined_by, 0) + 1
    kinds = ", ".join(f"{n} {m}" for m, n in sorted(by_def.items(), key=lambda x: (-x[1], x[0])))
    names = ", ".join(f"{v.reg} ({v.defined_by} line {v.def_line}, next used line {next_use(c)})"
                      for v, c in list(zip(values, att.chosen, strict=True))[:8])
    more = f" and {len(values) - 8} more" if len(values) > 8 else ""
    # computed results (not loads or copies) are the ones to recompute or store early: name them all
    computed = [f"{v.reg} ({v.defined_by} line {v.def_line}, next used line {next_use(c)})"
                for v, c in zip(values, att.chosen, strict=True)
                if v.defined_by.startswith("v_") and not v.defined_by.startswith("v_mov")]
    if computed:
        more += (f"; computed results among them (shortening these frees {len(computed)} VGPR(s)): "
                 f"{', '.join(computed)}")
    slack = requested - result.pressure.vgpr.peak
    message = (f"{len(values)} value(s) live at the VGPR peak (line {peak_line}) keep lines {first}-{last} above "
               f"{att.budget} live VGPRs; {unused} of them are not used there (defined by {kinds}). Shorten them "
               f"(recompute at the use, load later or store earlier), longest idle first: {names}{more}. Each "
               f"frees 1 VGPR across the region, so {requested} -> {requested - cut} VGPRs requested (allocator "
               f"slack of {slack} kept) and {occ.waves_per_simd:g} -> {after.waves_per_simd:g} waves per SIMD")
    effect = {"peak_live_vgprs": (float(result.pressure.vgpr.peak), float(att.new_peak)),
              "vgprs": (float(requested), float(requested - cut)),
              "waves_per_simd": (occ.waves_per_simd, after.waves_per_simd)}
    lines = tuple(sorted({peak_line, *(v.def_line for v in values if v.def_line)}))
    return [Advice(KIND, lines, message, effect, values,
                   {"budget": att.budget, "region_first_line": first, "region_last_line": last,
                    "proven_minimal": att.proven_minimal, "unused_in_region": unused})]
