"""The reference of live ranges as int columns: the occupied runs sorted for people, and the longest of them.

:func:`isalens._core.lines.occupied_runs` gives one ``(slot, first, last)`` tuple per run, in the order runs end.
A kernel with many calls has a run per clobbered register per call (1.17M in the 100k straight-line kernel of
``benchmarks/calls_kernel.py``, 11.7M at 1M lines: 2.3 GB as tuples and objects), so the analyses keep them as
three ``array('i')`` columns instead and make a range object only when one is looked at
(:class:`isalens.analysis.lifetimes.LiveRanges`). The compiled core builds the columns without a tuple per run
and must give identical answers (tests/property/test_core_differential.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from heapq import nlargest

from isalens._core.lines import occupied_runs
from isalens._core.reference import UnitFacts

__all__ = ["longest_runs", "ranked_runs"]


def ranked_runs(instructions: Sequence[UnitFacts], live_in: Sequence[int], live_out: Sequence[int], pairs: int,
                singles: int, rank: Sequence[int]) -> tuple[array[int], array[int], array[int]]:
    """The occupied runs (see :func:`~isalens._core.lines.occupied_runs`) as columns ``(slots, firsts, lasts)``,
    sorted by first line, then by ``rank[slot]`` (the caller's order of the slots' names), equal keys in
    ``occupied_runs``' order."""
    runs = occupied_runs(instructions, live_in, live_out, pairs, singles)
    runs.sort(key=lambda run: (run[1], rank[run[0]]))
    return (array("i", [run[0] for run in runs]), array("i", [run[1] for run in runs]),
            array("i", [run[2] for run in runs]))


def longest_runs(slots: Sequence[int], firsts: Sequence[int], lasts: Sequence[int], count: int, low: int,
                 high: int) -> list[int]:
    """Positions of the ``count`` runs of slots ``low <= slot < high`` with the most lines after their first
    (``last - first``), most first; equal spans in position order."""
    chosen = [i for i in range(len(slots)) if low <= slots[i] < high]
    return nlargest(count, chosen, key=lambda i: lasts[i] - firsts[i])  # as sorted(reverse=True)[:count]: stable
