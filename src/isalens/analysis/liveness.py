"""Backward register liveness over the CFG, per instruction, on unit bitsets.

Units are 16-bit halves for VGPRs/AGPRs and 32-bit registers for SGPRs and specials (see
:mod:`isalens.ir.registers`). A block's transfer function is folded into one ``(kill, gen)`` pair so the
fixpoint iterates over blocks only; per-instruction sets are filled in one final backward sweep.
"""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.cfg import CFG
from isalens.ir.program import Kernel


@dataclass(frozen=True, slots=True)
class Liveness:
    """``live_in[i]``/``live_out[i]``: units live before/after instruction ``i``."""

    live_in: tuple[int, ...]
    live_out: tuple[int, ...]
    block_in: tuple[int, ...]
    block_out: tuple[int, ...]
    iterations: int

    @property
    def entry(self) -> int:
        """Units live at kernel entry (read before any write on some path)."""
        return self.block_in[0] if self.block_in else 0


def _transfer(kernel: Kernel, start: int, end: int) -> tuple[int, int]:
    """(kill, gen) of instructions ``start..end-1`` composed: ``in = (out & ~kill) | gen``."""
    kill = gen = 0
    for ins in reversed(kernel.instructions[start:end]):
        k = ins.undef_after | ins.defs | ins.undef_before
        g = ins.uses & ~ins.undef_before
        gen = (gen & ~k) | g
        kill |= k
    return kill, gen


def liveness(kernel: Kernel, graph: CFG) -> Liveness:
    """Solve liveness for ``kernel`` on ``graph``."""
    nblocks = len(graph.blocks)
    transfer = [_transfer(kernel, b.start, b.end) for b in graph.blocks]
    block_in = [0] * nblocks
    block_out = [0] * nblocks
    # postorder (reverse of RPO) first, then the unreachable blocks, so most blocks settle in one pass
    order = list(reversed(graph.reverse_postorder)) + list(graph.unreachable)
    iterations = 0
    changed = True
    while changed:
        changed = False
        iterations += 1
        for b in order:
            block = graph.blocks[b]
            out = 0
            for s in block.succs:
                out |= block_in[s]
            kill, gen = transfer[b]
            new_in = (out & ~kill) | gen
            block_out[b] = out
            if new_in != block_in[b]:
                block_in[b] = new_in
                changed = True

    n = len(kernel.instructions)
    live_in = [0] * n
    live_out = [0] * n
    instructions = kernel.instructions
    for block in graph.blocks:
        live = block_out[block.index]
        for i in range(block.end - 1, block.start - 1, -1):
            ins = instructions[i]
            out = live & ~ins.undef_after
            live_out[i] = out
            live_in[i] = (out & ~ins.defs) | ins.uses
            live = live_in[i] & ~ins.undef_before
    return Liveness(tuple(live_in), tuple(live_out), tuple(block_in), tuple(block_out), iterations)
