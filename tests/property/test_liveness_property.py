"""Liveness on random control flow against an independent brute-force definition.

Brute force: unit ``u`` is live after instruction ``i`` iff some path from a successor of ``i``
reaches an instruction that reads ``u`` before any instruction writes it (searched per unit over the
instruction graph, no dataflow equations).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.cfg import cfg
from isalens.analysis.liveness import liveness
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.program import Kernel

UNITS = 6


@st.composite
def programs(draw: st.DrawFn) -> Kernel:
    n = draw(st.integers(min_value=1, max_value=14))
    labels: dict[str, int] = {f"L{i}": i for i in range(n)}
    instructions = []
    for i in range(n):
        kind = draw(st.sampled_from([BranchKind.NONE] * 4 + [BranchKind.JUMP, BranchKind.COND, BranchKind.END]))
        if i == n - 1 and kind is BranchKind.NONE:
            kind = BranchKind.END
        target = f"L{draw(st.integers(0, n - 1))}" if kind in (BranchKind.JUMP, BranchKind.COND) else None
        defs = draw(st.integers(0, 2**UNITS - 1))
        uses = draw(st.integers(0, 2**UNITS - 1))
        undef = draw(st.sampled_from([0, 0, 0, draw(st.integers(0, 2**UNITS - 1))]))
        instructions.append(Instruction(
            index=i, line=i + 1, text=f"op{i}", mnemonic="op", operands=(), modifiers=(),
            defs=defs, uses=uses, branch=kind, target=target, undef_before=undef,
        ))
    return Kernel("k", "gfx900", 64, tuple(instructions), labels)


def _successors(kernel: Kernel, i: int) -> list[int]:
    ins = kernel.instructions[i]
    n = len(kernel.instructions)
    out = []
    if ins.branch in (BranchKind.JUMP, BranchKind.COND) and ins.target is not None:
        out.append(kernel.labels[ins.target])
    if ins.branch in (BranchKind.NONE, BranchKind.COND) and i + 1 < n:
        out.append(i + 1)
    return out


def _brute_live_before(kernel: Kernel, start: int, unit: int) -> bool:
    """Is ``unit`` read on some path starting at instruction ``start`` before being written?"""
    bit = 1 << unit
    seen = set()
    stack = [start]
    first = True
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        ins = kernel.instructions[i]
        if ins.undef_before & bit and not first:
            continue  # an undef marker cuts the path before the instruction executes
        first = False
        if ins.uses & bit:
            return True
        if ins.defs & bit:
            continue
        stack.extend(_successors(kernel, i))
    return False


@settings(max_examples=300, deadline=None)
@given(programs())
def test_liveness_matches_brute_force(kernel: Kernel) -> None:
    graph = cfg(kernel)
    live = liveness(kernel, graph)
    for i, ins in enumerate(kernel.instructions):
        for u in range(UNITS):
            bit = 1 << u
            expected_out = any(
                _brute_live_before(kernel, s, u) and not (kernel.instructions[s].undef_before & bit)
                for s in _successors(kernel, i)
            )
            assert bool(live.live_out[i] & bit) == expected_out, (i, u)
            expected_in = bool(ins.uses & bit) or (expected_out and not ins.defs & bit)
            assert bool(live.live_in[i] & bit) == expected_in, (i, u)
