"""The reference core: the generic backward liveness dataflow on unit bitsets, in plain Python.

Nothing here knows what a register or an instruction means. The analysis layer (:mod:`isalens.analysis.liveness`)
hands over, per instruction, the units it writes and reads and the implicit-def markers around it (``defs``,
``uses``, ``undef_before``, ``undef_after``), optional half-lane facts (which result half each source half
feeds), and the CFG as block spans and successor lists. The compiled core (``_compiled.pyx``) implements the
same functions on fixed-size word arrays and must give identical answers (tests/property/test_core_differential.py).

A block's transfer function is folded into one ``(kill, gen)`` pair so the fixpoint iterates over blocks only;
blocks holding an instruction with lane facts are stepped instruction by instruction instead (their transfer
depends on what is live below them). Per-instruction sets are filled in one final backward sweep.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

NAME = "pure-python"


class UnitFacts(Protocol):
    """What an instruction does to the unit bitsets (``isalens.ir.instruction.Instruction`` has these)."""

    @property
    def defs(self) -> int: ...
    @property
    def uses(self) -> int: ...
    @property
    def undef_before(self) -> int: ...
    @property
    def undef_after(self) -> int: ...


class LaneFacts(Protocol):
    """Result halves and the source units each is computed from (``isalens.isa.amdgcn.lanes.HalfLanes``)."""

    @property
    def lo_def(self) -> int: ...
    @property
    def hi_def(self) -> int: ...
    @property
    def lo_uses(self) -> int: ...
    @property
    def hi_uses(self) -> int: ...
    @property
    def sources(self) -> int: ...


#: (live_in, live_out) per instruction, (block_in, block_out) per block, fixpoint passes
Solution = tuple[list[int], list[int], list[int], list[int], int]


def needed_uses(ins: UnitFacts, lanes: LaneFacts | None, out: int) -> int:
    """Units ``ins`` reads that must hold a value, given ``out`` live after it: a source half read only to
    compute a result half that is dead is not needed."""
    if lanes is None or out & ins.defs & ~(lanes.lo_def | lanes.hi_def):
        return ins.uses
    uses = ins.uses & ~lanes.sources
    if out & lanes.lo_def:
        uses |= lanes.lo_uses & ins.uses
    if out & lanes.hi_def:
        uses |= lanes.hi_uses & ins.uses
    return uses


def _transfer(instructions: Sequence[UnitFacts], start: int, end: int) -> tuple[int, int]:
    """(kill, gen) of instructions ``start..end-1`` composed: ``in = (out & ~kill) | gen``."""
    kill = gen = 0
    for i in range(end - 1, start - 1, -1):
        ins = instructions[i]
        k = ins.undef_after | ins.defs | ins.undef_before
        g = ins.uses & ~ins.undef_before
        gen = (gen & ~k) | g
        kill |= k
    return kill, gen


#: a stepped block's transfer, bottom to top: folded runs of plain instructions ``(kill, gen)`` and, for an
#: instruction with lanes, its index
_Segment = tuple[int, int] | int


def _segments(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], start: int,
              end: int) -> list[_Segment]:
    out: list[_Segment] = []
    run_end = end
    for i in range(end - 1, start - 1, -1):
        if lanes[i] is not None:
            if run_end > i + 1:
                out.append(_transfer(instructions, i + 1, run_end))
            out.append(i)
            run_end = i
    if run_end > start:
        out.append(_transfer(instructions, start, run_end))
    return out


def _step_block(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], segments: list[_Segment],
                live: int) -> int:
    """Live units at the top of a block made of ``segments`` given ``live`` at the bottom."""
    for seg in segments:
        if isinstance(seg, int):
            ins = instructions[seg]
            out = live & ~ins.undef_after
            live = ((out & ~ins.defs) | needed_uses(ins, lanes[seg], out)) & ~ins.undef_before
        else:
            kill, gen = seg
            live = (live & ~kill) | gen
    return live


def solve_liveness(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], starts: Sequence[int],
                   ends: Sequence[int], succs: Sequence[Sequence[int]], skips: Sequence[Sequence[int]],
                   skip_mask: int, exit_live: int, order: Sequence[int]) -> Solution:
    """Backward liveness: block ``b`` holds instructions ``starts[b]..ends[b]-1``; ``succs[b]`` are its CFG
    successors, ``skips[b]`` blocks whose live-in flows into it only through ``skip_mask``; a block without
    successors has ``exit_live`` live at its bottom; ``order`` is the order blocks are visited in each pass."""
    block_in, block_out, iterations = _solve_blocks(instructions, lanes, starts, ends, succs, skips, skip_mask,
                                                    exit_live, order)
    live_in, live_out = _per_instruction(instructions, lanes, starts, ends, block_out)
    return live_in, live_out, block_in, block_out, iterations


def _solve_blocks(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], starts: Sequence[int],
                  ends: Sequence[int], succs: Sequence[Sequence[int]], skips: Sequence[Sequence[int]],
                  skip_mask: int, exit_live: int, order: Sequence[int]) -> tuple[list[int], list[int], int]:
    nblocks = len(starts)
    stepped: list[list[_Segment] | None] = [
        _segments(instructions, lanes, starts[b], ends[b])
        if any(lanes[i] is not None for i in range(starts[b], ends[b])) else None for b in range(nblocks)]
    transfer = [_transfer(instructions, starts[b], ends[b]) if stepped[b] is None else (0, 0)
                for b in range(nblocks)]
    block_in = [0] * nblocks
    block_out = [exit_live if not succs[b] else 0 for b in range(nblocks)]
    iterations = 0
    changed = True
    while changed:
        changed = False
        iterations += 1
        for b in order:
            out = 0 if succs[b] else exit_live
            for s in succs[b]:
                out |= block_in[s]
            for s in skips[b]:
                out |= block_in[s] & skip_mask
            segments = stepped[b]
            if segments is not None:
                new_in = _step_block(instructions, lanes, segments, out)
            else:
                kill, gen = transfer[b]
                new_in = (out & ~kill) | gen
            block_out[b] = out
            if new_in != block_in[b]:
                block_in[b] = new_in
                changed = True
    return block_in, block_out, iterations


def _per_instruction(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], starts: Sequence[int],
                     ends: Sequence[int], block_out: list[int]) -> tuple[list[int], list[int]]:
    """Live units before and after each instruction, walking each block up from its live-out set."""
    n = len(instructions)
    live_in = [0] * n
    live_out = [0] * n
    for b in range(len(starts)):
        live = block_out[b]
        for i in range(ends[b] - 1, starts[b] - 1, -1):
            ins = instructions[i]
            # one int per line where nothing is undefined between two lines: live_out[i] *is* live_in[i + 1]
            # (a 1M-instruction kernel keeps two million of these sets)
            out = live & ~ins.undef_after if ins.undef_after else live
            live_out[i] = out
            live = live_in[i] = (out & ~ins.defs) | needed_uses(ins, lanes[i], out)
            if ins.undef_before:
                live &= ~ins.undef_before
    return live_in, live_out


def maybe_defined(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
                  preds: Sequence[Sequence[int]], order: Sequence[int], entry: int) -> list[int]:
    """Forward "may hold a value" sets at each block entry: block 0 starts with ``entry``, a block's writes and
    implicit-def markers reach its successors, nothing becomes undefined again (a union fixpoint)."""
    nblocks = len(starts)
    gen = [0] * nblocks
    for b in range(nblocks):
        g = 0
        for i in range(starts[b], ends[b]):
            ins = instructions[i]
            g |= ins.defs | ins.undef_before | ins.undef_after
        gen[b] = g
    defined_in = [0] * nblocks
    if nblocks:
        defined_in[0] = entry
    changed = True
    while changed:
        changed = False
        for b in order:
            new = entry if b == 0 else 0
            for p in preds[b]:
                new |= defined_in[p] | gen[p]
            if new != defined_in[b]:
                defined_in[b] = new
                changed = True
    return defined_in


def undefined_reads(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
                    defined: Sequence[int], skip: Sequence[bool]) -> list[tuple[int, int]]:
    """``(i, d)`` for each instruction ``i`` (not ``skip[i]``) reading a unit outside ``d``, the units that may
    hold a value where it reads (``defined`` at its block's entry, then the writes and implicit-def markers
    above it), in block order."""
    found: list[tuple[int, int]] = []
    for b in range(len(starts)):
        d = defined[b]
        for i in range(starts[b], ends[b]):
            ins = instructions[i]
            d |= ins.undef_before
            if ins.uses & ~d and not skip[i]:
                found.append((i, d))
            d |= ins.defs | ins.undef_after
    return found


def mask_defined(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
                 defined: Sequence[int], live_in: list[int], live_out: list[int]) -> None:
    """Keep in ``live_in``/``live_out`` (in place) only units that may hold a value there (see
    :func:`undefined_reads` for ``d``); an unchanged set stays the same object."""
    for b in range(len(starts)):
        d = defined[b]
        for i in range(starts[b], ends[b]):
            ins = instructions[i]
            d |= ins.undef_before
            x = live_in[i]
            if x & ~d:
                live_in[i] = x & d
            d |= ins.defs | ins.undef_after
            x = live_out[i]
            if x & ~d:
                live_out[i] = x & d
