"""Backward register liveness over the CFG, per instruction, on unit bitsets.

Units are 16-bit halves for VGPRs/AGPRs and 32-bit registers for SGPRs and specials (see
:mod:`isalens.ir.registers`). The dataflow itself is generic and runs in
:mod:`isalens._core` (compiled, or its pure-Python reference); this module decides what flows: the units each
instruction reads and writes (``Instruction.defs``/``uses``, the implicit-def markers), the half lanes, the
edges.

A source half is needed only if the result it feeds is: where an instruction computes the two 16-bit halves
of its VGPR result from different sources (packed 16-bit math, ``v_alignbit_b32 ..., 16``, ``v_pack_b32_f16``,
16-bit shifts; :mod:`isalens.isa.amdgcn.lanes`), a source read only for a result half that is dead below is
not live. Such blocks are stepped instruction by instruction in the fixpoint (their transfer depends on
what is live below them). A half an instruction keeps (D16 loads, ``v_fma_mixlo``) is neither read nor
written: its liveness passes through.

A register counts as live only where it may also hold a value: a forward "maybe defined" pass (entry
= the registers the hardware initialises, when the kernel descriptor says which) removes registers read
before any write. LLVM reads such registers as ``undef`` (a 64-bit pair whose high half was never set)
and does not count them live either. An operand no part of which can hold a value is the exception: the
code expects it from outside, so it is live from the entry to its read, as in LLVM's live-ins. Both kinds
are recorded in ``Liveness.undefined_reads`` for the report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from isalens import _core
from isalens.analysis.cfg import CFG
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.operands import RegOperand
from isalens.ir.program import Kernel
from isalens.ir.registers import AGPR_MASK, VGPR_MASK, iter_bits
from isalens.isa.amdgcn.lanes import HalfLanes, half_lanes
from isalens.records import dataclass, field

#: what flows along an EXEC skip edge: lanes switched off keep their vector registers, while scalar
#: instructions run whatever EXEC is (only a real ``s_cbranch_execz`` skips them, a CFG edge already)
_VECTOR = VGPR_MASK | AGPR_MASK
_BRANCH = attrgetter("branch")


@dataclass(frozen=True, slots=True)
class Liveness:
    """``live_in[i]``/``live_out[i]``: units live before/after instruction ``i``."""

    live_in: tuple[int, ...]
    live_out: tuple[int, ...]
    block_in: tuple[int, ...]
    block_out: tuple[int, ...]
    iterations: int
    #: units read where no write can have reached them along any path of the CFG, and the hardware does
    #: not initialise them (the kernel descriptor says which it does): their value is undefined, so they
    #: are left out of the sets above, except whole operands, live from the entry (see the module text)
    undefined_reads: int = 0
    #: unit of ``undefined_reads`` -> the first instruction (in layout order) that reads it so
    undefined_read_at: dict[int, int] = field(default_factory=dict)

    @property
    def entry(self) -> int:
        """Units live at kernel entry (read before any write on some path)."""
        return self.block_in[0] if self.block_in else 0


#: rounds of ending "else"-only registers (:func:`_else_only`): nested if/else levels settled
_ELSE_ROUNDS = 8


def _edge_ends(kernel: Kernel, live_in: list[int], instructions: Sequence[Instruction]) -> dict[int, int]:
    """Per conditional branch into an empty block with ``; implicit-def:`` markers (``Kernel.edge_undefs``), the
    marked units it does not end yet that are dead where its other way out goes: they end right after it.
    A unit still live there stays live on both ways (the branch's live-out is one set)."""
    ends: dict[int, int] = {}
    n = len(instructions)
    for i, other, units in kernel.edge_undefs:
        if not (i < n and other < n):
            continue  # a kernel cut shorter since it was read (trailing padding): no such branch
        units &= ~live_in[other] & ~instructions[i].undef_after
        if units:
            ends[i] = ends.get(i, 0) | units
    return ends


def _uses(ins: Instruction, lanes: HalfLanes | None, out: int) -> int:
    """Units ``ins`` reads that must hold a value, given what is live after it: a source half read only to
    compute a result half that is dead is not needed (:mod:`isalens.isa.amdgcn.lanes`)."""
    return _core.needed_uses(ins, lanes, out)


def liveness(kernel: Kernel, graph: CFG) -> Liveness:
    """Solve liveness for ``kernel`` on ``graph``."""
    lanes = list(map(half_lanes, kernel.instructions))
    solution = _solve(kernel, graph, lanes, kernel.instructions)
    # a branch into an empty block holding ``; implicit-def:`` markers ends those registers where its other way
    # out does not need them (isalens.isa.amdgcn.parser._empty_block_undefs); ending them can make them dead
    # on another such branch's other way, so again until nothing more ends
    solution, instructions = _end_until_settled(
        kernel, graph, lanes, solution, None, lambda sol, ins: _edge_ends(kernel, sol[0], ins))
    # the "then" lanes' values of registers only the "else" part reads end where the "then" part does; an outer
    # if/else's "else" part can keep a register live at an inner one's endif until the outer "then" part ends
    # it, so another round may end more (one round per level of nesting)
    solution, _ = _end_until_settled(
        kernel, graph, lanes, solution, instructions, lambda sol, ins: _else_only(kernel, graph, sol[0], sol[1]))
    live_in, live_out, block_in, block_out, iterations = solution
    undefined_reads = 0
    undefined_at: dict[int, int] = {}
    if kernel.entry_live_in is not None:
        undefined_reads, undefined_at = _keep_defined(kernel, graph, kernel.entry_live_in, lanes, live_in, live_out,
                                                      block_in, block_out)
    if kernel.reserved:
        live_in, live_out, block_in, block_out = _drop_reserved(kernel.reserved, live_in, live_out, block_in,
                                                                block_out)
    return Liveness(tuple(live_in), tuple(live_out), tuple(block_in), tuple(block_out), iterations,
                    undefined_reads, {u: i for u, i in undefined_at.items() if undefined_reads >> u & 1})


def _end_until_settled(kernel: Kernel, graph: CFG, lanes: list[HalfLanes | None], solution: _core.Solution,
                       instructions: list[Instruction] | None,
                       ends_of: Callable[[_core.Solution, Sequence[Instruction]], dict[int, int]],
                       ) -> tuple[_core.Solution, list[Instruction] | None]:
    """Solve again with the units ``ends_of`` finds ended after their instructions (``undef_after``), until it
    finds none (at most ``_ELSE_ROUNDS`` rounds); the instructions are copied on the first change only."""
    for _round in range(_ELSE_ROUNDS):
        ends = ends_of(solution, instructions or kernel.instructions)
        if not ends:
            break
        if instructions is None:
            instructions = list(kernel.instructions)
        for i, units in ends.items():
            instructions[i] = instructions[i]._replace(undef_after=instructions[i].undef_after | units)
        solution = _solve(kernel, graph, lanes, instructions)
    return solution, instructions


def _solve(kernel: Kernel, graph: CFG, lanes: list[HalfLanes | None],
           instructions: Sequence[Instruction]) -> _core.Solution:
    """The dataflow itself, in the core (compiled or reference): per-instruction and per-block live sets and
    the fixpoint's passes. Blocks are visited in postorder (reverse of RPO) first, then the unreachable ones,
    so most blocks settle in one pass; only vector units flow along EXEC skip edges."""
    blocks = graph.blocks
    skips: list[list[int]] = [[] for _ in blocks]
    for a, b in graph.exec_skip_edges:
        skips[a].append(b)
    order = list(reversed(graph.reverse_postorder)) + list(graph.unreachable)
    return _core.solve_liveness(instructions, lanes, [b.start for b in blocks], [b.end for b in blocks],
                                [b.succs for b in blocks], skips, _VECTOR, kernel.live_at_exit, order)


def _else_only(kernel: Kernel, graph: CFG, live_in: list[int], live_out: list[int]) -> dict[int, int]:
    """Per last instruction of an if/else's "then" part (:class:`isalens.analysis.cfg.ElseRegion`), the vector
    units live there only because the "else" part reads them: they end with the "then" part.

    The lanes that run the "then" part are switched off in the "else" part, so what they leave in a VGPR is
    never read there, and the "else" lanes' values cannot be touched by the "then" part's writes (a VALU
    write only reaches active lanes; the region holds no whole-wave code, :func:`isalens.analysis.cfg.
    _else_regions`). LLVM's SIOptimizeVGPRLiveRange says the same to its register allocator: a VGPR defined
    before the if at its loop level, read in the "else" part, not read in the Flow block and not live at
    the endif is undefined on the way from the "then" part (a PHI with an ``undef`` input, which usually
    shows as ``; implicit-def:`` lines at the end of the "then" part; llc-19 leaves them out when the
    register was rewritten in that part, Rodinia cfd compute_flux on gfx90a: v38 read in the "else" part
    and rewritten in the "then" part is not live after its last read there). The register may then be reused
    in the "then" part. Not ended: a unit a ``v_writelane`` in the "then" part writes (any lane), or that a
    block in a loop nested deeper than the if writes (LLVM only does this for values defined at the if's
    loop level)."""
    regions = graph.else_regions
    if not regions:
        return {}
    instructions = kernel.instructions
    deeper: list[int] | None = None
    done: dict[int, int] = {}
    for region in regions:
        joined = 0
        for j in region.joins:
            joined |= live_in[j]
        flow_reads = 0
        for k in range(region.flow, region.switch + 1):
            flow_reads |= instructions[k].uses
        units = live_in[region.flow] & _VECTOR & ~joined & ~flow_reads
        if not any(units & live_out[e] for e in region.then_exits):
            continue
        if deeper is None:
            deeper = _written_in_deeper_loops(kernel, graph)
        units &= ~deeper[graph.loop_depth[graph.block_of[region.then_start - 1]]]
        for k in range(region.then_start, region.flow):
            if instructions[k].mnemonic.startswith("v_writelane"):
                units &= ~instructions[k].defs
        for e in region.then_exits:
            if units & live_out[e]:
                done[e] = done.get(e, 0) | units
    return done


def _written_in_deeper_loops(kernel: Kernel, graph: CFG) -> list[int]:
    """``[d]``: the units instructions in blocks of loop depth above ``d`` write."""
    top = max(graph.loop_depth, default=0)
    at_depth = [0] * (top + 2)
    for block in graph.blocks:
        written = 0
        for i in range(block.start, block.end):
            written |= kernel.instructions[i].defs
        at_depth[graph.loop_depth[block.index]] |= written
    deeper = [0] * (top + 2)
    for d in range(top, -1, -1):
        deeper[d] = deeper[d + 1] | at_depth[d + 1]
    return deeper


def _keep_defined(kernel: Kernel, graph: CFG, entry_live_in: int, lanes: list[HalfLanes | None],
                  live_in: list[int], live_out: list[int], block_in: list[int],
                  block_out: list[int]) -> tuple[int, dict[int, int]]:
    """Take out of the live sets (in place) the units no write or hardware initialisation (``entry_live_in``)
    can reach; the units read undefined, and for each the first instruction that reads it so.

    The passes over every instruction run in the core; here only the few instructions that read a unit no
    write reaches are looked at (a call's reads are the callee's: its prologue saving a register is not a
    use of the caller's value)."""
    instructions = kernel.instructions
    starts = [b.start for b in graph.blocks]
    ends = [b.end for b in graph.blocks]
    branches = list(map(_BRANCH, instructions))
    # few kernels have calls: one pass to find out
    calls = [b is BranchKind.CALL for b in branches] if BranchKind.CALL in branches else [False] * len(branches)
    order = list(graph.reverse_postorder) + list(graph.unreachable)
    defined = _core.maybe_defined(instructions, starts, ends, [b.preds for b in graph.blocks], order,
                                  entry_live_in)
    reads = _core.undefined_reads(instructions, starts, ends, defined, calls)
    undefined_reads = 0
    undefined_at: dict[int, int] = {}
    inputs = _read_as_inputs(instructions, reads, lanes, live_out)
    if inputs:
        # the code expects these from outside: they are live from the entry to their read (and are
        # still reported below, from the first pass's record)
        undefined_reads = sum(1 << u for u in inputs)
        undefined_at = dict(inputs)
        # as if the entry defined them: they reach every block the entry reaches (no second fixpoint)
        unreachable = set(graph.unreachable)
        defined = [d if b in unreachable else d | undefined_reads for b, d in enumerate(defined)]
        reads = _core.undefined_reads(instructions, starts, ends, defined, calls)
    last_d = None
    outside = 0  # ~(last_d | undefined_reads)
    for i, d in reads:
        # read where no write (and no hardware initialisation) can reach along any path; a source half that
        # only feeds a dead result half is not needed. The needed units are some of ``uses``: a read whose
        # undefined units are all known already adds nothing (a unit read undefined once is often read so at
        # many lines after; reads in a row share ``d``, the compiled core's one int)
        if d is not last_d:
            last_d, outside = d, ~(d | undefined_reads)
        if not instructions[i].uses & outside:
            continue
        bad = _uses(instructions[i], lanes[i], live_out[i]) & ~d
        for unit in iter_bits(bad & ~undefined_reads):
            undefined_at[unit] = i
        undefined_reads |= bad
        outside = ~(d | undefined_reads)
    # only a changed set is a new object (the core shares equal neighbours)
    _core.mask_defined(instructions, starts, ends, defined, live_in, live_out)
    for block in graph.blocks:
        block_in[block.index] &= defined[block.index]
        block_out[block.index] = live_out[block.end - 1] if block.end > block.start else 0
    return undefined_reads & ~kernel.reserved, undefined_at


def _drop_reserved(reserved: int, live_in: list[int], live_out: list[int], block_in: list[int],
                   block_out: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    """The live sets without the ``reserved`` units (never live: LLVM reserves them)."""
    keep = ~reserved
    masked: dict[int, int] = {}  # by id: the sets live_in and live_out share stay shared

    def drop(x: int) -> int:
        if not x & reserved:
            return x
        y = masked.get(id(x))
        if y is None:
            y = masked[id(x)] = x & keep
        return y
    return ([drop(x) for x in live_in], [drop(x) for x in live_out], [x & keep for x in block_in],
            [x & keep for x in block_out])


def _read_as_inputs(instructions: tuple[Instruction, ...], reads: list[tuple[int, int]],
                    lanes: list[HalfLanes | None], live_out: list[int]) -> dict[int, int]:
    """Units of explicit operands *no part* of which any write or hardware initialisation reaches, each
    with the first instruction that reads it so.

    Such an operand is a value the code expects from outside the kernel (clang-19 reads ``s11`` as the
    scratch wave offset of a kernel whose descriptor does not enable it): LLVM lists it live-in and it
    occupies its register from the entry to the read. An operand with some part defined (a 64-bit pair
    whose high half was never set) reads the rest as ``undef`` and stays out of liveness.
    """
    inputs: dict[int, int] = {}
    found = 0  # the units in ``inputs``
    # per operands tuple (instructions of one text share it): the units of its register operands
    operand_units: dict[int, int] = {}
    last_d = None
    outside = 0  # ~(last_d | found)
    for i, d in reads:  # the instructions reading a unit outside ``d``, in block order
        ins = instructions[i]
        ops = ins.operands
        units = operand_units.get(id(ops))
        if units is None:
            units = operand_units[id(ops)] = _operand_units(ops)
        # a unit found here is read (the needed units are some of ``uses``), outside ``d``, in a register
        # operand and not found yet: a read with none such adds nothing (an implicit read, of M0 or VCC
        # say, is in no operand)
        if d is not last_d:
            last_d, outside = d, ~(d | found)
        if not ins.uses & units & outside:
            continue
        need = _uses(ins, lanes[i], live_out[i])
        for op in ops:
            if isinstance(op, RegOperand):
                read = op.mask & need
                if read and not read & d:
                    for unit in iter_bits(read):
                        if unit not in inputs:
                            inputs[unit] = i
                            found |= 1 << unit
                            outside = ~(d | found)
    return inputs


def _operand_units(operands: Sequence[object]) -> int:
    """The units of the register operands among ``operands``."""
    units = 0
    for op in operands:
        if isinstance(op, RegOperand):
            units |= op.mask
    return units
