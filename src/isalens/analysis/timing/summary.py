"""Issue cycles, work and stalls of a block, a loop body or the whole kernel, with the lines that weigh most;
summaries merge (inner loops times their trip counts) into the region around them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from isalens import _core
from isalens.analysis.timing.costs import InstructionCosts
from isalens.analysis.timing.model import LoopProfile, Work
from isalens.analysis.timing.schedule import stall_kind

__all__ = ["TOP", "Summary"]

#: lines kept per unit and per stall kind
TOP = 16


@dataclass(slots=True)
class Summary:
    """Issue, work and stalls of some instructions, with the lines that weigh most (merged by region)."""

    issue: dict[str, int] = field(default_factory=dict)
    unit_lines: dict[str, dict[int, int]] = field(default_factory=dict)
    flops: dict[str, int] = field(default_factory=dict)
    bytes_global: int = 0
    bytes_lds: int = 0
    fma: int = 0
    stalls: dict[str, int] = field(default_factory=dict)
    stall_lines: dict[str, dict[int, int]] = field(default_factory=dict)
    #: whether the lines that weigh most are kept (``unit_lines``, ``stall_lines``); without them the sums are
    #: the same and the lines stay empty (a scan's row holds no line lists: ``profile(lines=False)``)
    lines: bool = True

    @staticmethod
    def of_block(indices: range, statics: Sequence[InstructionCosts], lines: Sequence[int]) -> Summary:
        out = Summary()
        issue, unit_lines, flops = out.issue, out.unit_lines, out.flops
        for i in indices:
            st = statics[i]
            unit = st.timing.unit
            issue[unit] = issue.get(unit, 0) + st.issue
            costs = unit_lines.setdefault(unit, {})
            costs[lines[i]] = costs.get(lines[i], 0) + st.issue
            w = st.work
            if w.flops:
                for k, v in w.flops.items():
                    flops[k] = flops.get(k, 0) + v
                out.fma += w.fma
            out.bytes_global += w.bytes_global
            out.bytes_lds += w.bytes_lds
        for unit, costs in unit_lines.items():
            unit_lines[unit] = _cut(costs)
        return out

    def add_block(self, lo: int, hi: int, statics: Sequence[InstructionCosts], lines: Sequence[int],
                  issue: dict[str, int]) -> None:
        """Add instructions ``lo``..``hi - 1`` as ``merge(Summary.of_block(range(lo, hi), ...), 1, ...)`` would
        when they are at most :data:`TOP` (no unit's lines to cut), without the block's own summary; their issue
        cycles per unit are also summed into ``issue`` (the block's own, for its row)."""
        own, unit_lines, flops = self.issue, self.unit_lines, self.flops
        fma = bytes_global = bytes_lds = 0  # summed in locals, added once (an attribute update per line costs)
        for i in range(lo, hi):
            st = statics[i]
            unit, cycles = st.unit, st.issue
            issue[unit] = issue.get(unit, 0) + cycles
            own[unit] = own.get(unit, 0) + cycles
            costs = unit_lines.get(unit)
            if costs is None:
                costs = unit_lines[unit] = {}
            line = lines[i]
            costs[line] = costs.get(line, 0) + cycles
            w = st.work
            if w.flops:
                for k, v in w.flops.items():
                    flops[k] = flops.get(k, 0) + v
                fma += w.fma
            bytes_global += w.bytes_global
            bytes_lds += w.bytes_lds
        self.fma += fma
        self.bytes_global += bytes_global
        self.bytes_lds += bytes_lds

    def add_ranges(self, los: Sequence[int], his: Sequence[int], statics: Sequence[InstructionCosts],
                   by_id: Mapping[int, InstructionCosts], lines: Sequence[int], codes: Sequence[int],
                   issues: Sequence[int], names: Sequence[str]) -> None:
        """Add the instructions of each range ``los[k]``..``his[k] - 1`` in order, as :meth:`add_block` of a
        range of at most :data:`TOP` instructions and ``merge(Summary.of_block(...), 1, stalls=False)`` of a
        longer one would (``codes``/``issues``: each instruction's unit, as its position in ``names``, and issue
        cycles; ``by_id``: the costs objects by ``id``): the same values, and the same keys in the same order.

        Issue per unit, flops, FMA and bytes are summed per distinct costs object (instructions of one text share
        one), times its count, in the order the objects are first met: the same sums as instruction by
        instruction, and each key first met where it would be. Each unit's lines are summed by the core
        (:func:`isalens._core.unit_line_sums`) over each run of short ranges; a longer range's are cut to its
        heaviest first, as ``of_block`` does."""
        issue, flops = self.issue, self.flops
        fma = bytes_global = bytes_lds = 0
        # the costs objects' ids counted by the core's loop (_core.object_counts, compiled when built)
        for key, count in _core.object_counts(statics, los, his).items():
            st = by_id[key]
            issue[st.unit] = issue.get(st.unit, 0) + st.issue * count
            w = st.work
            if w.flops:
                for k, v in w.flops.items():
                    flops[k] = flops.get(k, 0) + v * count
                fma += w.fma * count
            bytes_global += w.bytes_global * count
            bytes_lds += w.bytes_lds * count
        self.fma += fma
        self.bytes_global += bytes_global
        self.bytes_lds += bytes_lds
        if not self.lines:
            return
        # each unit's lines: runs of short ranges summed by the core, a long range's lines cut first, in order
        by_code: dict[int, dict[int, int]] = {}
        run_lo: list[int] = []
        run_hi: list[int] = []
        for lo, hi in zip(los, his, strict=True):
            if hi - lo <= TOP:
                run_lo.append(lo)
                run_hi.append(hi)
                continue
            _core.unit_line_sums(run_lo, run_hi, codes, issues, lines, by_code)
            run_lo, run_hi = [], []
            # the long range's own lines per unit code (in the order of_block meets its units), each cut to its
            # heaviest as of_block cuts them: only the lines, not of_block's sums (counted above per object)
            for code, costs in _core.unit_line_sums([lo], [hi], codes, issues, lines, {}).items():
                mine = by_code.setdefault(code, {})
                for ln, c in _cut(costs).items():
                    mine[ln] = mine.get(ln, 0) + c
        _core.unit_line_sums(run_lo, run_hi, codes, issues, lines, by_code)
        unit_lines = self.unit_lines
        for code, per_line in by_code.items():
            held = unit_lines.get(names[code])
            if held is None:
                unit_lines[names[code]] = per_line
            else:
                for ln, c in per_line.items():
                    held[ln] = held.get(ln, 0) + c

    def add_stall_columns(self, indices: Iterable[int], stalls: Sequence[int], reasons: Sequence[str],
                          blockers: Sequence[int], statics: Sequence[InstructionCosts], lines: Sequence[int]) -> None:
        """:meth:`add_stalls` of the records of ``indices`` read from the schedule's columns (blocker -1: none)."""
        if not self.lines:
            self._add_stall_sums(((stalls[i], reasons[i], None if blockers[i] < 0 else blockers[i]) for i in indices),
                                 statics)
            return
        for i in indices:
            stall = stalls[i]
            if stall <= 0:
                continue
            b = blockers[i]
            blocker = None if b < 0 else b
            kind = stall_kind(reasons[i], blocker, statics)
            self.stalls[kind] = self.stalls.get(kind, 0) + stall
            per_line = self.stall_lines.get(kind)
            if per_line is None:
                per_line = self.stall_lines[kind] = {}
            per_line[lines[i]] = per_line.get(lines[i], 0) + stall
            if blocker is not None:
                per_line[lines[blocker]] = per_line.get(lines[blocker], 0) + stall

    @staticmethod
    def of_profile(p: LoopProfile) -> Summary:
        out = Summary(dict(p.issue_cycles), {u: dict.fromkeys(lns, 1) for u, lns in p.unit_lines.items()},
                       dict(p.work.flops), p.work.bytes_global, p.work.bytes_lds, p.work.fma, dict(p.stalls),
                       {k: dict.fromkeys(lns, 1) for k, lns in p.stall_lines.items()})
        return out

    def add_stalls(self, recs: Sequence[tuple[int, int, int, str, int | None]], statics: Sequence[InstructionCosts],
                   lines: Sequence[int]) -> None:
        if not self.lines:
            self._add_stall_sums(((stall, reason, blocker) for _i, _s, stall, reason, blocker in recs), statics)
            return
        for i, _s, stall, reason, blocker in recs:
            if stall <= 0:
                continue
            kind = stall_kind(reason, blocker, statics)
            self.stalls[kind] = self.stalls.get(kind, 0) + stall
            per_line = self.stall_lines.setdefault(kind, {})
            per_line[lines[i]] = per_line.get(lines[i], 0) + stall
            if blocker is not None:
                per_line[lines[blocker]] = per_line.get(lines[blocker], 0) + stall

    def _add_stall_sums(self, recs: Iterable[tuple[int, str, int | None]], statics: Sequence[InstructionCosts]) -> None:
        """The stall cycles per kind of :meth:`add_stalls` (records of stall, reason, blocker), without the lines."""
        own = self.stalls
        # the kind is a function of the reason and the blocker's unit (stall_kind): asked once per pair here (a
        # scan's kernels have ~400k stalled records on the 24 gfx1030 code objects of docs/performance.md)
        kinds: dict[tuple[str, str | None], str] = {}
        for stall, reason, blocker in recs:
            if stall > 0:
                key = (reason, None if blocker is None else statics[blocker].timing.unit)
                kind = kinds.get(key)
                if kind is None:
                    kind = kinds[key] = stall_kind(reason, blocker, statics)
                own[kind] = own.get(kind, 0) + stall

    def merge(self, other: Summary, times: int, *, stalls: bool) -> None:
        for u, c in other.issue.items():
            self.issue[u] = self.issue.get(u, 0) + c * times
        for u, costs in other.unit_lines.items() if self.lines else ():
            mine = self.unit_lines.setdefault(u, {})
            for ln, c in costs.items():
                mine[ln] = mine.get(ln, 0) + c * times
        for k, v in other.flops.items():
            self.flops[k] = self.flops.get(k, 0) + v * times
        self.bytes_global += other.bytes_global * times
        self.bytes_lds += other.bytes_lds * times
        self.fma += other.fma * times
        if stalls:
            for kind, c in other.stalls.items():
                self.stalls[kind] = self.stalls.get(kind, 0) + c * times
                if not self.lines:
                    continue
                mine = self.stall_lines.setdefault(kind, {})
                for ln, c2 in other.stall_lines.get(kind, {}).items():
                    mine[ln] = mine.get(ln, 0) + c2 * times

    def work(self) -> Work:
        return Work(dict(self.flops), self.bytes_global, self.bytes_lds, self.fma)

    def unit_tops(self) -> dict[str, tuple[int, ...]]:
        return {u: _top(costs) for u, costs in self.unit_lines.items()}

    def stall_tops(self) -> dict[str, tuple[int, ...]]:
        return {k: _top(v) for k, v in self.stall_lines.items()}


def _cut(costs: dict[int, int]) -> dict[int, int]:
    """A block's lines per unit cut to the :data:`TOP` heaviest (ties in the order met), or all of them when fewer:
    what a block longer than TOP keeps of its own lines before its region sums them."""
    if len(costs) <= TOP:
        return costs
    return dict(sorted(costs.items(), key=lambda kv: -kv[1])[:TOP])


def _top(weights: dict[int, int]) -> tuple[int, ...]:
    """The :data:`TOP` lines of most weight, heaviest first, ties by line: ``sorted`` by (-weight, line) cut to
    TOP, by the core's one pass over the dict (:func:`isalens._core.heaviest`; the kernel's region holds a line
    per instruction outside loops: 100k on the dense benchmark)."""
    return _core.heaviest(weights, TOP)
