"""The reference of the per-line passes after liveness: occupied runs, per-line counts, per-block unions.

Liveness leaves two unit bitsets per line (``live_in``, ``live_out``: non-negative ints, consecutive equal sets
one int). Four analyses then walk every line once more: live ranges (:mod:`isalens.analysis.lifetimes`: the
runs of lines over which each register is occupied), pressure (:mod:`isalens.analysis.pressure`: how many
registers each line holds), the def-use queries at a peak (a block's writes and reads, to pass a block in one
step) and the pressure advice (:mod:`isalens.analysis.advice.pressure`: where each value live at the peak is
read, and where shortening it would free its register). Each is a few bitset operations per line; the compiled
core (``_compiled.pyx``) does them on word arrays, converting each distinct set once (the instructions' sets
through the table the "maybe defined" passes keep, which reads all of
:class:`~isalens._core.reference.UnitFacts`), and must give identical answers
(tests/property/test_core_differential.py).

Nothing here knows a register file: callers pass the unit masks. A *pair* is units ``2k`` and ``2k + 1`` (a
VGPR's two 16-bit halves); its slot is unit ``2k``.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Sequence

from isalens._core.reference import UnitFacts

__all__ = ["COUNT_PAIRS", "COUNT_SPLIT_PAIRS", "COUNT_UNITS", "ValueLines", "block_unions", "iter_bits", "line_counts",
           "next_reads", "occupied_runs", "value_lines"]


def iter_bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending (``ir.registers`` re-exports it: one definition)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def occupied_runs(instructions: Sequence[UnitFacts], live_in: Sequence[int], live_out: Sequence[int], pairs: int,
                  singles: int) -> list[tuple[int, int, int]]:
    """``(slot, first, last)`` for every maximal run of lines ``first..last`` over which a slot is occupied.

    Line ``i`` occupies ``m = live_in[i] | live_out[i] | instructions[i].defs``; its slots are
    ``((m | m >> 1) & pairs) | (m & singles)`` (a pair's slot when either of its units is in ``m``). Runs that
    end at a line come in ascending slot order, after those ending earlier; runs still open at the last line
    come last, by first line and then slot.
    """
    runs: list[tuple[int, int, int]] = []
    open_since: dict[int, int] = {}
    previous = 0
    for i, ins in enumerate(instructions):
        m = live_in[i] | live_out[i] | ins.defs
        now = ((m | (m >> 1)) & pairs) | (m & singles)
        changed = now ^ previous
        if not changed:
            continue
        for slot in iter_bits(changed & previous):
            runs.append((slot, open_since.pop(slot), i - 1))
        for slot in iter_bits(changed & now):
            open_since[slot] = i
        previous = now
    last = len(instructions) - 1
    runs.extend((slot, first, last) for slot, first in open_since.items())
    return runs


#: a count column's kinds (``(kind, mask)`` in :func:`line_counts`; ``p`` is the line's set within ``mask``)
COUNT_UNITS = 0  # units of p
COUNT_PAIRS = 1  # pairs with any unit in p
COUNT_SPLIT_PAIRS = 2  # pairs with exactly one unit in p

#: distinct line sets whose counts are remembered (replicated code repeats them); bounded
_MEMO_LIMIT = 1 << 16


def _count(kind: int, p: int, evens: int) -> int:
    """A column's count of ``p`` (the line's set within the column's mask; ``evens``: the mask's even units)."""
    if kind == COUNT_UNITS:
        return p.bit_count()
    return ((p | (p >> 1) if kind == COUNT_PAIRS else p ^ (p >> 1)) & evens).bit_count()


def line_counts(instructions: Sequence[UnitFacts], live_in: Sequence[int], live_out: Sequence[int],
                uncounted: Collection[int], columns: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Per column ``(kind, mask)`` the count of each line's set ``live_in[i] | live_out[i] | defs`` (the line's
    writes left out where ``i`` is in ``uncounted``) within ``mask`` (:data:`COUNT_UNITS`, :data:`COUNT_PAIRS`,
    :data:`COUNT_SPLIT_PAIRS`); a mask holds whole pairs for the pair kinds."""
    out: list[list[int]] = [[] for _ in columns]
    spec = [(kind, mask, mask & int("01" * (mask.bit_length() // 2 + 1), 2)) for kind, mask in columns]
    seen: dict[int, tuple[int, ...]] = {}
    for i, ins in enumerate(instructions):
        m = live_in[i] | live_out[i] | (0 if i in uncounted else ins.defs)
        counts = seen.get(m)
        if counts is None:
            if len(seen) >= _MEMO_LIMIT:
                seen.clear()
            counts = seen[m] = tuple(_count(kind, m & mask, evens) for kind, mask, evens in spec)
        for column, c in zip(out, counts, strict=True):
            column.append(c)
    return out


def block_unions(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int]) -> tuple[list[int],
                                                                                                  list[int]]:
    """Per block (instructions ``starts[b]..ends[b]-1``) the union of their writes, and of writes and reads."""
    defs: list[int] = []
    touches: list[int] = []
    for start, end in zip(starts, ends, strict=True):
        d = u = 0
        for i in range(start, end):
            ins = instructions[i]
            d |= ins.defs
            u |= ins.uses
        defs.append(d)
        touches.append(d | u)
    return defs, touches


#: per mask: the last write at or before the line asked about (None: no write), the next write after it (else
#: the last line), the lines reading the mask in between, and the region's lines it frees (ascending)
ValueLines = tuple[int | None, int, list[int], "array[int]"]


def value_lines(instructions: Sequence[UnitFacts], live_in: Sequence[int], live_out: Sequence[int],
                masks: Sequence[int], at: int, region: Collection[int]) -> list[ValueLines]:
    """For each mask (one register's units), the value it holds at line ``at`` (``0 <= at <`` the number of
    lines): ``(d, end, reads, frees)``. ``d`` is the last line at or before ``at`` writing the mask (None:
    none), ``end`` the first line after ``at`` writing it (else the last line). Of the lines from ``d + 1``
    (from 0 without ``d``) to ``end`` where the mask is live in, live out or written, ``reads`` are those
    reading it, ``frees`` those in ``region`` neither reading nor writing it (where a shorter value would free
    the register)."""
    n = len(instructions)
    out: list[ValueLines] = []
    for mask in masks:
        d = next((i for i in range(at, -1, -1) if instructions[i].defs & mask), None)
        end = next((j for j in range(at + 1, n) if instructions[j].defs & mask), n - 1)
        reads: list[int] = []
        frees = array("q")
        for i in range((0 if d is None else d + 1), end + 1):
            ins = instructions[i]
            if not (live_in[i] & mask or live_out[i] & mask or ins.defs & mask):
                continue
            if ins.uses & mask:
                reads.append(i)
            elif i in region and not ins.defs & mask:
                frees.append(i)
        out.append((d, end, reads, frees))
    return out


def _fold(units: int, pairs: int, singles: int) -> int:
    """One bit per slot: a pair's slot where either of its units is in ``units``, the singles as they are."""
    return ((units | (units >> 1)) & pairs) | (units & singles)


def _widen(units: int, pairs: int, singles: int) -> int:
    """Both units of every pair with a unit in ``units``, and the singles in it."""
    low = (units | (units >> 1)) & pairs
    return low | (low << 1) | (units & singles)


def next_reads(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
               succs: Sequence[Sequence[int]], touches: Sequence[int], first: int, index: int, pending: int,
               pairs: int, singles: int) -> dict[int, tuple[int, ...]]:
    """For each slot of ``pending`` (see :func:`_fold`), the first lines at or after line ``index`` (in block
    ``first``) reading it on some path through the blocks (``starts``/``ends``/``succs``), ascending. A read
    or a write (other than at ``index`` itself) ends the search for its whole slot on that path; a block whose
    ``touches`` (its reads and writes) meet none of the slots still searched is passed in one step. All the
    slots travel together as one set, so one walk answers them all."""
    found: dict[int, list[int]] = {}
    visited = [0] * len(starts)
    work: list[tuple[int, int, int]] = [(first, index, pending)]
    while work:
        b, i, pend = work.pop()
        if i == index or touches[b] & pend:  # the first block, or one that touches a searched slot
            end = ends[b]
            while i < end and pend:
                ins = instructions[i]
                hits = ins.uses & pend
                if hits:
                    for slot in iter_bits(_fold(hits, pairs, singles)):
                        found.setdefault(slot, []).append(i)
                    pend &= ~_widen(hits, pairs, singles)
                if i != index:
                    killed = ins.defs & pend
                    if killed:
                        pend &= ~_widen(killed, pairs, singles)
                i += 1
        if not pend:
            continue
        for s in succs[b]:
            new = pend & ~visited[s]
            if new:
                visited[s] |= new
                work.append((s, starts[s], new))
    return {slot: tuple(sorted(set(v))) for slot, v in found.items()}
