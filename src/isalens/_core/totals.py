"""The timing step's per-block sums as columns (the readable reference of the compiled twins): each block's issue
cycles per unit, and a region's issue cycles per instruction line and unit. Callers pass each instruction's unit
as a small code (its position in the caller's list of unit names), its issue cycles and its line; nothing here
knows a unit's name."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from heapq import nsmallest
from operator import neg

__all__ = ["block_issue", "cover_counts", "heaviest", "object_counts", "unit_line_sums"]


def block_issue(starts: Sequence[int], ends: Sequence[int], codes: Sequence[int], issues: Sequence[int],
                width: int) -> array[int]:
    """Block ``b``'s issue cycles on unit code ``u`` at ``[b * width + u]``: the sum of ``issues[i]`` over the
    instructions ``starts[b] <= i < ends[b]`` whose ``codes[i]`` is ``u`` (a code outside ``0 .. width - 1``
    counts nowhere)."""
    out = array("q", bytes(8 * width * len(starts)))
    for b, (lo, hi) in enumerate(zip(starts, ends, strict=True)):
        row = b * width
        for i in range(lo, hi):
            u = codes[i]
            if 0 <= u < width:
                out[row + u] += issues[i]
    return out


def unit_line_sums(starts: Sequence[int], ends: Sequence[int], codes: Sequence[int], issues: Sequence[int],
                   lines: Sequence[int], out: dict[int, dict[int, int]]) -> dict[int, dict[int, int]]:
    """Add each instruction's issue cycles of the ranges ``[starts[k], ends[k])``, in range order, to its line's
    weight in its unit code's dict of ``out`` (a dict made when the code first appears, a line added where it
    first appears, a line of zero cycles kept); returns ``out``."""
    for lo, hi in zip(starts, ends, strict=True):
        for i in range(lo, hi):
            per_line = out.get(codes[i])
            if per_line is None:
                per_line = out[codes[i]] = {}
            line = lines[i]
            per_line[line] = per_line.get(line, 0) + issues[i]
    return out


def object_counts(items: Sequence[object], starts: Sequence[int], ends: Sequence[int]) -> dict[int, int]:
    """How many times each object (by ``id``) stands at the positions of the ranges ``starts[k]``..``ends[k] - 1``
    of ``items``, taken in order: keys in the order first met (``collections.Counter`` of those ids)."""
    if len(starts) != len(ends):
        raise ValueError("starts and ends differ in length")
    counts: dict[int, int] = {}
    for lo, hi in zip(starts, ends, strict=True):
        for i in range(lo, hi):
            key = id(items[i])
            counts[key] = counts.get(key, 0) + 1
    return counts


def cover_counts(columns: Iterable[Sequence[int]], n: int) -> array[int]:
    """How many of ``columns`` hold each position ``0 .. n - 1``: an int32 column of ``n`` counts, each column's
    positions added once per occurrence (a position outside ``-n .. n - 1`` raises IndexError, a negative one
    counts from the end, as an array's index does). The pressure advice's coverage of a set of values: each
    value's column lists the instructions where shortening it frees its register."""
    out = array("i", bytes(4 * n))
    for column in columns:
        for i in column:
            out[i] += 1
    return out


def heaviest(weights: Mapping[int, int], top: int) -> tuple[int, ...]:
    """The ``top`` keys of most weight, heaviest first, ties by key ascending: the keys of ``weights`` sorted by
    (-weight, key) and cut to ``top`` (a region's lines that weigh most on a unit or stall kind; the kernel's
    region holds a line per instruction outside loops). A negative ``top`` raises ValueError."""
    if top < 0:
        raise ValueError("top must be >= 0")
    if len(weights) <= top:
        return tuple(key for key, _w in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))
    # the same cut through heapq.nsmallest on (-weight, key) pairs made in C (no sort of 100k entries)
    return tuple(key for _w, key in nsmallest(top, zip(map(neg, weights.values()), weights, strict=True)))
