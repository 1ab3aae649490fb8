"""The in-order schedule of one wave (docs/timing.md): when each instruction issues, how long it stalled and for
what, given the costs of :mod:`~isalens.analysis.timing.costs`; the schedule as rows read on demand."""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from isalens import _core
from isalens.analysis.timing.costs import InstructionCosts
from isalens.analysis.timing.model import LineTiming
from isalens.ondemand import OnDemand

__all__ = ["SchedulePass", "TimingLines", "compact", "critical_path", "run_schedule", "stall_kind"]

_STALL_KIND = {"vmem": "global-memory latency", "lds": "LDS latency", "smem": "SMEM latency",
               "export": "export latency"}


class TimingLines(OnDemand[LineTiming]):
    """The per-instruction schedule as columns, read as :class:`LineTiming` rows on demand (a million
    instructions would otherwise keep a million rows); a pickled copy is the rows themselves. The columns it
    keeps are compact with ``compacted`` (:func:`compact`: int32 starts and stalls, each reason a byte naming one of
    the few distinct reasons; the pass asks it of large kernels only, where the copies pay): they stay alive as
    long as the report."""

    __slots__ = ("_indices", "_lines", "_names", "_reasons", "_stalls", "_starts", "_statics")

    def __init__(self, indices: Sequence[int], lines: Sequence[int], statics: list[InstructionCosts],
                 starts: Sequence[int], stalls: Sequence[int], reasons: Sequence[str], *,
                 compacted: bool = True) -> None:
        self._indices, self._lines, self._statics = indices, lines, statics
        self._starts, self._stalls = (compact(starts), compact(stalls)) if compacted else (starts, stalls)
        # each instruction's reason as its code in the distinct reasons (a handful: "", "unit", "vmcnt", ...)
        names: Sequence[str] = tuple(dict.fromkeys(reasons)) if compacted else ()
        codes: Sequence[int]
        if compacted and len(names) <= 256:
            code = {r: c for c, r in enumerate(names)}
            codes = bytes(map(code.__getitem__, reasons))
        else:
            names, codes = reasons, range(len(reasons))
        self._reasons, self._names = codes, names

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
                          self._names[self._reasons[i]])


def compact(column: Sequence[int]) -> array[int]:
    """``column`` as an ``array('i')`` (4 bytes a value) when every value fits in 32 bits, else ``array('q')``."""
    try:
        return array("i", column)
    except OverflowError:
        return array("q", column)


#: a dependency stall's kind by the producer's unit (other units: "<UNIT> dependency chain")
_DEPENDENCY_KIND = {"trans": "transcendental latency", "matrix": "matrix-core latency", "salu": "SALU latency"}


def stall_kind(reason: str, blocker: int | None, statics: Sequence[InstructionCosts]) -> str:
    """What a stall is, by its reason and the unit of the instruction it waited for (``blocker``, if any): a
    function of those two alone (Summary._add_stall_sums asks once per pair)."""
    if reason == "dependency" and blocker is not None:
        unit = statics[blocker].timing.unit
        return _DEPENDENCY_KIND.get(unit, f"{unit.upper()} dependency chain")
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
    for). The loop is the core's (:func:`isalens._core.schedule_passes`, compiled when built; its reference is
    ``_core/schedule.py``)."""
    runs = _core.schedule_passes(order, statics, interval, hazards, passes)
    return [SchedulePass(recs, length) for recs, length in runs]


def critical_path(recs: Sequence[tuple[int, int, int, str, int | None]], lines: Sequence[int]) -> tuple[int, ...]:
    """Lines of the instructions that stalled most and of what they waited for (up to 8, in order)."""
    stalled = sorted((r for r in recs if r[2] > 0 and r[3] not in ("", "unit")), key=lambda r: -r[2])[:4]
    chosen: set[int] = set()
    for index, _s, _st, _r, blocker in stalled:
        chosen.add(lines[index])
        if blocker is not None:
            chosen.add(lines[blocker])
    return tuple(sorted(chosen))
