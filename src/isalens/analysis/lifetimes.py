"""Live ranges: maximal runs of consecutive instructions over which a register stays occupied, and
for chosen registers the instructions that define them and the next ones that read them.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from heapq import nlargest
from operator import itemgetter, sub
from typing import NamedTuple, overload

from isalens import _core
from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.ir.program import Kernel
from isalens.ir.registers import (
    AGPR_BASE,
    HALF_BOTH,
    MAX_AGPRS,
    MAX_SGPRS,
    MAX_VGPRS,
    SGPR_BASE,
    SGPR_MASK,
    SPECIAL_BASE,
    SPECIAL_NAMES,
    VGPR_BASE,
    Reg,
    RegFile,
    iter_bits,
)


class LiveRange(NamedTuple):
    """Register ``reg`` (``v12``, ``s4``, ``a3``) is occupied from instruction ``start`` to ``end``.

    A named tuple, not a frozen dataclass: a kernel with many calls has a range per register per call
    (1.17M in the 100k kernel of ``benchmarks/calls_kernel.py``), and a frozen dataclass's ``__init__``
    made them at 0.6 us each."""

    reg: str
    file: RegFile
    start: int
    end: int

    @property
    def span(self) -> int:
        return self.end - self.start


_START, _END = itemgetter(2), itemgetter(3)


# Whole-register view of a unit mask, without moving bits: VGPR k -> bit 2k, AGPR k -> bit 2(256+k) (either
# 16-bit half occupied), SGPR k stays at its unit. Three big-int operations per line instead of a loop.
_LOW_HALVES_MASK = int("01" * (MAX_VGPRS + MAX_AGPRS), 2) << VGPR_BASE


def _name(bit: int) -> tuple[str, RegFile]:
    if bit < AGPR_BASE:
        return f"v{(bit - VGPR_BASE) >> 1}", RegFile.VGPR
    if bit < SGPR_BASE:
        return f"a{(bit - AGPR_BASE) >> 1}", RegFile.AGPR
    return f"s{bit - SGPR_BASE}", RegFile.SGPR


#: name and file of every bit of the whole-register view, made once
_NAMES = tuple(_name(bit) for bit in range(SGPR_BASE + MAX_SGPRS))
#: each bit's place in the string order of the names (``v10`` before ``v2``), for sorting by name with ints
_NAME_RANK = (lambda order: tuple(order[name] for name, _file in _NAMES))(
    {name: rank for rank, name in enumerate(sorted({name for name, _file in _NAMES}))})
#: each file's bits in the whole-register view (``None``: all)
_FILE_BITS = {None: (0, SGPR_BASE + MAX_SGPRS), RegFile.VGPR: (VGPR_BASE, AGPR_BASE),
              RegFile.AGPR: (AGPR_BASE, SGPR_BASE), RegFile.SGPR: (SGPR_BASE, SGPR_BASE + MAX_SGPRS)}


class LiveRanges(Sequence[LiveRange]):
    """A kernel's live ranges as three int columns (bit, start, end), each :class:`LiveRange` made when it is
    looked at: a kernel with many calls has a range per clobbered register per call, 11.7M at 1M lines of
    ``benchmarks/calls_kernel.py`` (2.3 GB as objects)."""

    __slots__ = ("_bits", "_ends", "_starts")

    def __init__(self, bits: array[int], starts: array[int], ends: array[int]) -> None:
        self._bits, self._starts, self._ends = bits, starts, ends

    def __len__(self) -> int:
        return len(self._bits)

    @overload
    def __getitem__(self, index: int) -> LiveRange: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[LiveRange, ...]: ...

    def __getitem__(self, index: int | slice) -> LiveRange | tuple[LiveRange, ...]:
        if isinstance(index, slice):
            return tuple(self._make(i) for i in range(*index.indices(len(self._bits))))
        if index < 0:
            index += len(self._bits)
        if not 0 <= index < len(self._bits):
            raise IndexError("live range index out of range")
        return self._make(index)

    def __iter__(self) -> Iterator[LiveRange]:
        names, new = _NAMES, tuple.__new__
        for bit, start, end in zip(self._bits, self._starts, self._ends, strict=True):
            yield new(LiveRange, (*names[bit], start, end))

    def _make(self, i: int) -> LiveRange:
        return LiveRange(*_NAMES[self._bits[i]], self._starts[i], self._ends[i])

    def longest(self, count: int, file: RegFile | None = None) -> tuple[LiveRange, ...]:
        """See :func:`longest`."""
        low, high = _FILE_BITS[file]
        return tuple(self._make(i) for i in _core.longest_runs(self._bits, self._starts, self._ends, count, low,
                                                               high))


def live_ranges(kernel: Kernel, graph: CFG, live: Liveness) -> LiveRanges:
    """Every live range of every VGPR, AGPR and SGPR, in layout order: by first line, then by name.

    A register is occupied at a line when it is live in, live out or written there (the RGA count). The walk
    over the lines is the core's (:func:`isalens._core.ranked_runs`: a VGPR or AGPR is the pair of its two
    16-bit halves, an SGPR one unit); only registers that start or stop being occupied come back, which is
    the size of the answer.
    """
    del graph
    return LiveRanges(*_core.ranked_runs(kernel.instructions, live.live_in, live.live_out, _LOW_HALVES_MASK,
                                         SGPR_MASK, _NAME_RANK))


def longest(ranges: Sequence[LiveRange], count: int, file: RegFile | None = None) -> tuple[LiveRange, ...]:
    """The ``count`` longest ranges (optionally of one file), longest first; ranges of one span in
    (start, name) order, the order :func:`live_ranges` gives them in (``ranges`` must be in it)."""
    if isinstance(ranges, LiveRanges):
        return ranges.longest(count, file)
    chosen = list(ranges) if file is None else [r for r in ranges if r.file is file]
    spans = list(map(sub, map(_END, chosen), map(_START, chosen)))
    # nlargest is sorted(..., reverse=True)[:count], which keeps equal spans in their order here
    return tuple([chosen[i] for i in nlargest(count, range(len(chosen)), key=spans.__getitem__)])


# ---------------------------------------------------------------------------------------------- peak queries
# A report asks, for every register live at a pressure peak, where its value was written and where it is read
# next. Walking the CFG once per register costs (registers x blocks); instead one walk answers every register
# at once: the registers still searched for travel as one bitset, a block whose instructions touch none of
# them is passed in one operation, and only hits (the answer itself) are visited one by one.

_HIGH_UNITS = ~((1 << SGPR_BASE) - 1)  # SGPRs and specials: one unit per register


def _fold(units: int) -> int:
    """One bit per register: VGPR/AGPR k at its low-half unit, SGPRs and specials at their unit."""
    return ((units | (units >> 1)) & _LOW_HALVES_MASK) | (units & _HIGH_UNITS)


def _widen(units: int) -> int:
    """Every unit of every register with a unit in ``units``."""
    low = (units | (units >> 1)) & _LOW_HALVES_MASK
    return low | (low << 1) | (units & _HIGH_UNITS)


class _BlockSummary:
    """Per block, the union of what its instructions write and read, and the per-index answers so far."""

    __slots__ = ("defs", "ends", "reaching", "starts", "succs", "touches", "uses_after")

    def __init__(self, kernel: Kernel, graph: CFG) -> None:
        self.starts = [b.start for b in graph.blocks]
        self.ends = [b.end for b in graph.blocks]
        self.succs = [b.succs for b in graph.blocks]
        self.defs, self.touches = _core.block_unions(kernel.instructions, self.starts, self.ends)
        self.reaching: dict[int, dict[int, tuple[int, ...]]] = {}
        self.uses_after: dict[int, dict[int, tuple[int, ...]]] = {}


_ALL_UNITS = (1 << (SPECIAL_BASE + len(SPECIAL_NAMES))) - 1


def _record(found: dict[int, list[int]], hits: int, index: int) -> None:
    for key in iter_bits(_fold(hits)):
        found.setdefault(key, []).append(index)


def _all_reaching(kernel: Kernel, graph: CFG, index: int, block_defs: list[int]) -> dict[int, tuple[int, ...]]:
    """For every register (by its :func:`_fold` bit), the writes that may reach instruction ``index``."""
    instructions = kernel.instructions
    blocks = graph.blocks
    found: dict[int, list[int]] = {}
    visited = [0] * len(blocks)
    work: list[tuple[int, int, int]] = [(graph.block_of[index], index - 1, _ALL_UNITS)]
    while work:
        b, i, pending = work.pop()
        block = blocks[b]
        if i < block.end - 1 or block_defs[b] & pending:  # a partial block, or one that writes a searched reg
            start = block.start
            while i >= start and pending:
                hits = instructions[i].defs & pending
                if hits:
                    _record(found, hits, i)
                    pending &= ~_widen(hits)
                i -= 1
        if not pending:
            continue
        for p in block.preds:
            new = pending & ~visited[p]
            if new:
                visited[p] |= new
                work.append((p, blocks[p].end - 1, new))
    return {key: tuple(sorted(set(v))) for key, v in found.items()}


def _all_next_uses(kernel: Kernel, graph: CFG, index: int, blocks: _BlockSummary,
                   units: int = _ALL_UNITS) -> dict[int, tuple[int, ...]]:
    """For every register of ``units`` (by its :func:`_fold` bit), the first reads at or after ``index`` on some path
    (the walk is the core's, :func:`isalens._core.next_reads`: VGPR/AGPR halves pair into one slot). Each
    register's search ends on its own reads and writes, so asking for fewer changes no answer, and ends sooner."""
    return _core.next_reads(kernel.instructions, blocks.starts, blocks.ends, blocks.succs, blocks.touches,
                            graph.block_of[index], index, units, _LOW_HALVES_MASK, _ALL_UNITS & _HIGH_UNITS)


def _key(reg: Reg) -> int | None:
    """The :func:`_fold` bit of a single whole register, None for runs and half registers."""
    if reg.count != 1 or reg.halves != HALF_BOTH:
        return None
    mask = reg.mask()
    return (mask & -mask).bit_length() - 1


def _cached(table: dict[int, dict[int, tuple[int, ...]]], index: int,
            compute: Callable[[], dict[int, tuple[int, ...]]]) -> dict[int, tuple[int, ...]]:
    answer = table.get(index)
    if answer is None:
        if len(table) >= 8:
            table.clear()
        answer = table[index] = compute()
    return answer


class DefUse:
    """Where the values of one kernel are written and read next: the block summary and the answers (a few
    instruction indices' worth) belong to this object, so they go when the result holding it goes (a report asks
    once per register live at a peak: keep one object for those queries)."""

    __slots__ = ("_graph", "_kernel", "_summary")

    def __init__(self, kernel: Kernel, graph: CFG) -> None:
        self._kernel, self._graph = kernel, graph
        self._summary: _BlockSummary | None = None

    def _blocks(self) -> _BlockSummary:
        if self._summary is None:
            self._summary = _BlockSummary(self._kernel, self._graph)
        return self._summary

    def definitions_reaching(self, index: int, reg: Reg) -> tuple[int, ...]:
        """Instructions whose write to ``reg`` may be the value live at instruction ``index``."""
        kernel, graph = self._kernel, self._graph
        key = _key(reg)
        if key is None:
            return _definitions_reaching_walk(kernel, graph, index, reg)
        blocks = self._blocks()
        return _cached(blocks.reaching, index, lambda: _all_reaching(kernel, graph, index, blocks.defs)).get(key, ())

    def next_uses(self, index: int, reg: Reg) -> tuple[int, ...]:
        """The first instructions at or after ``index`` that read ``reg`` on some path (before a rewrite)."""
        kernel, graph = self._kernel, self._graph
        key = _key(reg)
        if key is None:
            return _next_uses_walk(kernel, graph, index, reg)
        blocks = self._blocks()
        return _cached(blocks.uses_after, index,
                       lambda: _all_next_uses(kernel, graph, index, blocks)).get(key, ())

    def next_uses_of(self, index: int, regs: Sequence[Reg]) -> list[tuple[int, ...]]:
        """:meth:`next_uses` of each of ``regs`` at ``index``, by one walk that follows only those registers (the
        peak's live set: the dense 100k kernel's walk for every register took 12-13 ms per file, for its live
        ones 7-10 ms)."""
        kernel, graph = self._kernel, self._graph
        keys = [_key(reg) for reg in regs]
        units = 0
        for reg, key in zip(regs, keys, strict=True):
            if key is not None:
                units |= reg.mask()
        found: dict[int, tuple[int, ...]] = {}
        if units:
            blocks = self._blocks()
            known = blocks.uses_after.get(index)
            found = known if known is not None else _all_next_uses(kernel, graph, index, blocks, units)
        return [found.get(key, ()) if key is not None else _next_uses_walk(kernel, graph, index, reg)
                for reg, key in zip(regs, keys, strict=True)]


def definitions_reaching(kernel: Kernel, graph: CFG, index: int, reg: Reg) -> tuple[int, ...]:
    """:meth:`DefUse.definitions_reaching` for one query (several at one index: keep a :class:`DefUse`)."""
    return DefUse(kernel, graph).definitions_reaching(index, reg)


def next_uses(kernel: Kernel, graph: CFG, index: int, reg: Reg) -> tuple[int, ...]:
    """:meth:`DefUse.next_uses` for one query (several at one index: keep a :class:`DefUse`)."""
    return DefUse(kernel, graph).next_uses(index, reg)


def _definitions_reaching_walk(kernel: Kernel, graph: CFG, index: int, reg: Reg) -> tuple[int, ...]:
    """:func:`definitions_reaching` for a register run or a half register: one walk for it alone."""
    mask = reg.mask()
    instructions = kernel.instructions
    blocks = graph.blocks
    found: set[int] = set()
    seen_blocks: set[int] = set()
    work: list[tuple[int, int]] = [(graph.block_of[index], index - 1)]
    while work:
        b, i = work.pop()
        start = blocks[b].start
        hit = False
        while i >= start:
            if instructions[i].defs & mask:
                found.add(i)
                hit = True
                break
            i -= 1
        if hit:
            continue
        for p in blocks[b].preds:
            if p not in seen_blocks:
                seen_blocks.add(p)
                work.append((p, blocks[p].end - 1))
    return tuple(sorted(found))


def _next_uses_walk(kernel: Kernel, graph: CFG, index: int, reg: Reg) -> tuple[int, ...]:
    """:func:`next_uses` for a register run or a half register: one walk for it alone."""
    mask = reg.mask()
    instructions = kernel.instructions
    blocks = graph.blocks
    found: set[int] = set()
    seen_blocks: set[int] = set()
    work: list[tuple[int, int]] = [(graph.block_of[index], index)]
    while work:
        b, i = work.pop()
        end = blocks[b].end
        stop = False
        while i < end:
            ins = instructions[i]
            if ins.uses & mask:
                found.add(i)
                stop = True
                break
            if ins.defs & mask and i != index:
                stop = True
                break
            i += 1
        if stop:
            continue
        for s in blocks[b].succs:
            if s not in seen_blocks:
                seen_blocks.add(s)
                work.append((s, blocks[s].start))
    return tuple(sorted(found))
