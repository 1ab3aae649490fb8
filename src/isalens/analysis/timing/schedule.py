"""The in-order schedule of one wave (docs/timing.md): when each instruction issues, how long it stalled and for
what, given the costs of :mod:`~isalens.analysis.timing.costs`; the schedule as rows read on demand."""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from isalens.analysis.timing.costs import InstructionCosts
from isalens.analysis.timing.model import LineTiming
from isalens.ondemand import OnDemand

__all__ = ["SchedulePass", "TimingLines", "critical_path", "run_schedule", "stall_kind"]

_STALL_KIND = {"vmem": "global-memory latency", "lds": "LDS latency", "smem": "SMEM latency",
               "export": "export latency"}


class TimingLines(OnDemand[LineTiming]):
    """The per-instruction schedule as columns, read as :class:`LineTiming` rows on demand (a million
    instructions would otherwise keep a million rows); a pickled copy is the rows themselves."""

    __slots__ = ("_indices", "_lines", "_reasons", "_stalls", "_starts", "_statics")

    def __init__(self, indices: list[int], lines: list[int], statics: list[InstructionCosts], starts: array[int],
                 stalls: array[int], reasons: list[str]) -> None:
        self._indices, self._lines, self._statics = indices, lines, statics
        self._starts, self._stalls, self._reasons = starts, stalls, reasons

    def __len__(self) -> int:
        return len(self._indices)

    def _item(self, k: int) -> LineTiming:
        return self._row(self._indices[k])

    def __iter__(self) -> Iterator[LineTiming]:
        return (self._row(i) for i in self._indices)

    def issue_and_stall(self) -> Iterator[tuple[int, int, int]]:
        """(index, issue cycles, stall cycles) of each instruction, without making its row (the per-source-line
        table reads only these two columns)."""
        statics, stalls = self._statics, self._stalls
        return ((i, statics[i].issue, stalls[i]) for i in self._indices)

    def _row(self, i: int) -> LineTiming:
        st = self._statics[i]
        return LineTiming(i, self._lines[i], st.timing.unit, st.issue, self._starts[i], self._stalls[i],
                          self._reasons[i])


def stall_kind(reason: str, blocker: int | None, statics: Sequence[InstructionCosts]) -> str:
    if reason == "dependency" and blocker is not None:
        unit = statics[blocker].timing.unit
        return {"trans": "transcendental latency", "matrix": "matrix-core latency",
                "salu": "SALU latency"}.get(unit, f"{unit.upper()} dependency chain")
    if reason in ("unit", ""):
        return "issue"
    if reason == "hazard":
        return "hazard wait states"
    if blocker is not None:
        return _STALL_KIND.get(statics[blocker].timing.unit, f"{reason} wait")
    return f"{reason} wait"


@dataclass(slots=True)
class SchedulePass:
    starts: list[tuple[int, int, int, str, int | None]]
    end: int


def run_schedule(order: Sequence[int], statics: Sequence[InstructionCosts], interval: int, hazards: bool,
                 passes: int) -> list[SchedulePass]:
    """Simulate one wave's in-order schedule through ``order``, ``passes`` times back to back (a loop's
    iterations), one record per pass: (index, start from the pass's beginning, stall, reason, index waited
    for). The step is written out in this loop, state in locals: it runs a few times per instruction."""
    next_issue = end = wait_states = 0  # earliest cycle of the next issue; schedule end; wait states so far
    unit_free: dict[str, int] = {}
    ready: dict[int, int] = {}  # register unit -> cycle its value is ready
    producer: dict[int, int] = {}  # register unit -> index of the instruction that wrote it
    queues: dict[str, deque[tuple[int, int]]] = {}  # counter -> (completion cycle, index) in issue order
    #: (producer kind, register unit) -> wait-state count when it was last written (hazard rules)
    written: dict[tuple[str, int], int] = {}
    out = []
    for _ in range(passes):
        begin = end
        recs: list[tuple[int, int, int, str, int | None]] = []
        append = recs.append
        for i in order:
            st = statics[i]
            earliest = start = next_issue
            reason, blocker = "", None
            unit = st.unit
            free = unit_free.get(unit, 0)
            if free > start:
                start, reason = free, "unit"
            for u in st.uses:
                t = ready.get(u, 0)
                if t > start:
                    start, reason, blocker = t, "dependency", producer.get(u)
            if st.waits:
                for counter, limit in st.waits:
                    q = queues.get(counter)
                    while q is not None and len(q) > limit:
                        done, who = q.popleft()
                        if done > start:
                            start, reason, blocker = done, counter, who
            if st.hazard_checks:
                for needed, kind, units in st.hazard_checks:
                    for u in units:
                        at = written.get((kind, u))
                        if at is not None and wait_states - at < needed:
                            # the data hazard table of the ISA guide: leave ``needed`` after the producer
                            start, reason, blocker = start + needed - (wait_states - at), "hazard", None
            issue = st.issue
            unit_free[unit] = start + issue
            defs = st.defs
            if defs:
                done = start + (issue if st.memory else st.latency)
                for u in defs:
                    ready[u] = done
                    producer[u] = i
            if st.memory:
                for counter in st.timing.counters:
                    q = queues.get(counter)
                    if q is None:
                        q = queues[counter] = deque()
                    q.append((start + st.latency, i))
            if hazards:
                wait_states += issue if st.nop else 1
                if st.producer:
                    for u in defs:
                        written[(st.producer, u)] = wait_states
            # s_nop holds the wave for its wait states; anything else lets the next instruction follow
            next_issue = start + (issue if st.nop else interval)
            finish = start + (issue if issue > interval else interval)
            if finish > end:
                end = finish
            append((i, start - begin, start - earliest, reason, blocker))
        out.append(SchedulePass(recs, end - begin))
    return out


def critical_path(recs: Sequence[tuple[int, int, int, str, int | None]], lines: Sequence[int]) -> tuple[int, ...]:
    """Lines of the instructions that stalled most and of what they waited for (up to 8, in order)."""
    stalled = sorted((r for r in recs if r[2] > 0 and r[3] not in ("", "unit")), key=lambda r: -r[2])[:4]
    chosen: set[int] = set()
    for index, _s, _st, _r, blocker in stalled:
        chosen.add(lines[index])
        if blocker is not None:
            chosen.add(lines[blocker])
    return tuple(sorted(chosen))
