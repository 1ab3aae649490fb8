"""Liveness's "maybe defined" masking and its record of undefined reads, on random control flow with kernel
inputs and register operands, against a brute-force definition (searched per instruction over the instruction
graph, no dataflow, no shortcuts):

* a unit *may hold a value* at instruction ``i`` when an implicit-def marker sits right before ``i``, or some
  instruction ``w`` with a path of at least one edge to ``i`` writes it (or carries a marker for it), or it is
  a kernel input and ``i`` is reachable from the entry;
* an *input read*: a register operand of a reading instruction no unit of whose read part may hold a value
  there; its units count as kernel inputs from then on (live from the entry), each recorded with its first
  reader in layout order;
* every other unit read where it may not hold a value is an undefined read, recorded with its first reader;
* the live sets keep only units that may hold a value (before the instruction, then after its writes).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.cfg import cfg
from isalens.analysis.liveness import liveness
from isalens.ir.operands import RegOperand
from isalens.ir.program import Kernel
from isalens.records import replace
from tests.property.test_liveness_property import UNITS, _successors, programs


@st.composite
def kernels_with_inputs(draw: st.DrawFn) -> Kernel:
    """A random program whose instructions name register operands (groups of units, as ``v[0:1]`` names two)
    and whose descriptor says which units the hardware initialises."""
    kernel = draw(programs())
    unit_sets = st.integers(1, 2**UNITS - 1)
    instructions = tuple(
        ins._replace(operands=tuple(RegOperand((), f"r{m}", mask=m) for m in draw(st.lists(unit_sets, max_size=3))))
        for ins in kernel.instructions)
    return replace(kernel, instructions=instructions, entry_live_in=draw(st.integers(0, 2**UNITS - 1)))


def _reach(kernel: Kernel, start: int, min_edges: int) -> set[int]:
    """Instructions reachable from ``start`` along paths of at least ``min_edges`` (0 or 1) edges."""
    seen: set[int] = set()
    stack = [start] if min_edges == 0 else list(_successors(kernel, start))
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            stack.extend(_successors(kernel, i))
    return seen


def _bits(x: int) -> list[int]:
    return [u for u in range(UNITS) if x >> u & 1]


@settings(max_examples=1000, deadline=None)
@given(kernels_with_inputs())
def test_undefined_reads_match_brute_force(kernel: Kernel) -> None:
    instructions = kernel.instructions
    n = len(instructions)
    assert kernel.entry_live_in is not None
    from_entry = _reach(kernel, 0, 0)
    may_hold = []
    for i in range(n):
        d = instructions[i].undef_before | (kernel.entry_live_in if i in from_entry else 0)
        for w in range(n):
            if i in _reach(kernel, w, 1):
                d |= instructions[w].defs | instructions[w].undef_before | instructions[w].undef_after
        may_hold.append(d)
    inputs: dict[int, int] = {}
    for i in range(n):
        for op in instructions[i].operands:
            assert isinstance(op, RegOperand)
            read = op.mask & instructions[i].uses
            if read and not read & may_hold[i]:
                for unit in _bits(read):
                    inputs.setdefault(unit, i)
    given_inputs = sum(1 << u for u in inputs)
    may_hold = [d | (given_inputs if i in from_entry else 0) for i, d in enumerate(may_hold)]
    undefined, first = given_inputs, dict(inputs)
    for i in range(n):
        for unit in _bits(instructions[i].uses & ~may_hold[i]):
            if not undefined >> unit & 1:
                first[unit] = i
            undefined |= 1 << unit

    plain = liveness(replace(kernel, entry_live_in=None), cfg(kernel))
    live = liveness(kernel, cfg(kernel))
    assert live.undefined_reads == undefined
    assert live.undefined_read_at == first
    for i in range(n):
        after = may_hold[i] | instructions[i].defs | instructions[i].undef_after
        assert live.live_in[i] == plain.live_in[i] & may_hold[i], i
        assert live.live_out[i] == plain.live_out[i] & after, i
