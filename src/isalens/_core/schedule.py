"""The reference of the timing step's in-order schedule of one wave (docs/timing.md), on per-instruction costs.

``analysis/timing/costs.py`` computes each instruction's costs (unit, issue cycles, latency, the register units
it reads and writes, the counters it waits on or increments, the hazard rules it checks);
``analysis/timing/schedule.run_schedule`` asks this loop when each instruction of a block or loop body issues,
how long it stalled and for what. Nothing here knows an instruction set: units are ints, counters and
execution units are names. The compiled core (``_compiled.pyx``) runs the same loop on C arrays and must give
identical records (tests/property/test_core_differential.py).
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

__all__ = ["BlockSchedules", "Record", "ScheduleCosts", "block_schedules", "keyed_costs", "schedule_passes"]

#: (index, start from the pass's beginning, stall, reason, index waited for)
Record = tuple[int, int, int, str, int | None]


class _Counters(Protocol):
    @property
    def counters(self) -> tuple[str, ...]: ...


class ScheduleCosts(Protocol):
    """What the schedule reads of an instruction (``analysis.timing.costs.InstructionCosts`` has these)."""

    @property
    def unit(self) -> str: ...
    @property
    def issue(self) -> int: ...
    @property
    def latency(self) -> int: ...
    @property
    def uses(self) -> tuple[int, ...]: ...
    @property
    def defs(self) -> tuple[int, ...]: ...
    @property
    def waits(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def hazard_checks(self) -> tuple[tuple[int, str, tuple[int, ...]], ...]: ...
    @property
    def producer(self) -> str: ...
    @property
    def memory(self) -> bool: ...
    @property
    def nop(self) -> bool: ...
    @property
    def timing(self) -> _Counters: ...


def schedule_passes(order: Sequence[int], statics: Sequence[ScheduleCosts], interval: int, hazards: bool,
             passes: int) -> list[tuple[list[Record], int]]:
    """Simulate one wave's in-order schedule through ``order``, ``passes`` times back to back (a loop's
    iterations): per pass its records and its length in cycles. The step is written out in this loop, state in
    locals: it runs a few times per instruction."""
    next_issue = end = wait_states = 0  # earliest cycle of the next issue; schedule end; wait states so far
    unit_free: dict[str, int] = {}
    ready: dict[int, int] = {}  # register unit -> cycle its value is ready
    producer: dict[int, int] = {}  # register unit -> index of the instruction that wrote it
    queues: dict[str, deque[tuple[int, int]]] = {}  # counter -> (completion cycle, index) in issue order
    #: (producer kind, register unit) -> wait-state count when it was last written (hazard rules)
    written: dict[tuple[str, int], int] = {}
    out: list[tuple[list[Record], int]] = []
    for _ in range(passes):
        begin = end
        recs: list[Record] = []
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
        out.append((recs, end - begin))
    return out


# --- dtime (eighteenth session): every block's schedule in one call ----------------------------------------------

#: per instruction (indexed as ``statics``) its start from its block's beginning, its stall, its reason and the
#: index it waited for (-1: none); per block its length in cycles
BlockSchedules = tuple["array[int]", "array[int]", list[str], "array[int]", list[int]]


def block_schedules(starts: Sequence[int], ends: Sequence[int], statics: Sequence[ScheduleCosts], interval: int,
                    hazards: bool) -> BlockSchedules:
    """Each block ``[starts[b], ends[b])`` scheduled on its own from an empty state, as
    ``schedule_passes(range(starts[b], ends[b]), statics, interval, hazards, 1)`` does, in one call: the timing
    step schedules every block of a kernel (a dense 100k-instruction kernel has 20,793), and one call per block
    cost more than its schedule. Records come back as columns indexed by instruction (one that is in no block
    keeps 0, 0, "", -1; a later block overwrites an earlier one's records of an index both hold)."""
    n = len(statics)
    start_of = array("q", bytes(8 * n))
    stall_of = array("q", bytes(8 * n))
    reason_of = [""] * n
    blocker_of = array("q", [-1]) * n
    lengths: list[int] = []
    for lo, hi in zip(starts, ends, strict=True):
        ((recs, length),) = schedule_passes(range(lo, hi), statics, interval, hazards, 1)
        for i, start, stall, reason, blocker in recs:
            start_of[i], stall_of[i], reason_of[i] = start, stall, reason
            blocker_of[i] = -1 if blocker is None else blocker
        lengths.append(length)
    return start_of, stall_of, reason_of, blocker_of, lengths


def keyed_costs(instructions: Sequence[tuple[Any, ...]], classes: Sequence[str], memo: Mapping[tuple[Any, ...], Any],
                costs: list[Any]) -> tuple[list[int], list[int]]:
    """Fill ``costs[i]`` with ``memo[(text, classes[i], uses, defs)]`` of each instruction (items 2, 7 and 6 of
    its tuple: ``Instruction.text``, ``uses``, ``defs``) that the memo holds; return the first position of each
    key the memo does not hold, and the positions filled with costs whose ``untimed`` is true, each in order.
    ``costs`` is as long as ``instructions`` and ``classes``."""
    if not len(instructions) == len(classes) == len(costs):
        raise ValueError("instructions, classes and costs differ in length")
    missing: list[int] = []
    untimed: list[int] = []
    asked: set[tuple[Any, ...]] = set()
    for i, ins in enumerate(instructions):
        key = (ins[2], classes[i], ins[7], ins[6])
        st = memo.get(key)
        if st is None:
            if key not in asked:
                asked.add(key)
                missing.append(i)
            continue
        costs[i] = st
        if st.untimed:
            untimed.append(i)
    return missing, untimed


def release_costs() -> None:
    """Forget the costs the compiled schedule keeps in C arrays for the next block of the same kernel (the timing
    step calls it once a kernel's schedules are made: a 1M-instruction kernel's arrays would stay until the next
    kernel's). The reference keeps nothing."""


def costs_held() -> int:
    """Distinct costs objects the compiled schedule keeps as rows shared by every kernel (a scan worker bounds
    them with its other caches: isalens.scan.caches). The reference keeps none."""
    return 0


def forget_costs() -> None:
    """Let the compiled schedule's shared rows of costs objects go (the objects too). The reference keeps none."""
