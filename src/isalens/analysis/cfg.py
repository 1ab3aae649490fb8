"""Control-flow graph: basic blocks, edges, dominators, natural loops and unreachable blocks."""

from __future__ import annotations

from isalens import _core
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.operands import ImmOperand, RegOperand
from isalens.ir.program import Kernel
from isalens.ir.registers import special, special_pair
from isalens.records import dataclass


@dataclass(frozen=True, slots=True)
class Block:
    """Instructions ``start`` .. ``end - 1`` of the kernel."""

    index: int
    start: int
    end: int
    succs: tuple[int, ...]
    preds: tuple[int, ...]
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Loop:
    """A natural loop: its header block, body blocks and nesting depth (1 = outermost)."""

    header: int
    blocks: frozenset[int]
    depth: int


@dataclass(frozen=True, slots=True)
class ElseRegion:
    """An if/else as LLVM lowers it: instructions ``then_start`` .. ``flow - 1`` are the "then" part, run
    by the "then" lanes only, which leave it only into the "Flow" block at ``flow`` (through
    ``then_exits``: a fall-through or a jump there); in that block a restore switches every lane on again
    and ``switch`` (the same instruction, or later in the block) switches to the "else" lanes; ``joins``
    switch the "then" lanes back on after the "else" part (the endif)."""

    then_start: int
    flow: int
    switch: int
    joins: tuple[int, ...]
    then_exits: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CFG:
    """The control-flow graph of one kernel: its blocks, each instruction's block, loops and their depth, the blocks no
    entry reaches, a reverse postorder, and the EXEC-skip edges and if/else regions liveness needs."""

    blocks: tuple[Block, ...]
    block_of: tuple[int, ...]
    loops: tuple[Loop, ...]
    loop_depth: tuple[int, ...]
    unreachable: tuple[int, ...]
    reverse_postorder: tuple[int, ...]
    #: (from block, to block) edges where lanes switched off by EXEC skip a divergent region: VGPR and
    #: AGPR values flow along them (see :func:`_exec_skips`); not part of ``succs``/``preds``
    exec_skip_edges: tuple[tuple[int, int], ...] = ()
    #: the if/else regions whose "then" part leaves only into its "Flow" block (see :func:`_else_regions`)
    else_regions: tuple[ElseRegion, ...] = ()


_EXEC = special_pair("exec").mask() | special("exec_lo").mask()
_SCC = special("scc").mask()
_LANE_DISABLING = ("s_and_saveexec_", "s_andn2_saveexec_", "s_and_not1_saveexec_", "s_and_b", "s_andn2_b",
                   "s_and_not1_b", "s_xor_b")


def _saved_mask(ins: Instruction) -> int:
    """For an instruction that may switch lanes off, the SGPRs holding the mask that will restore them."""
    if not ins.defs & _EXEC or not ins.mnemonic.startswith(_LANE_DISABLING):
        return 0
    regs = [op for op in ins.operands if isinstance(op, RegOperand)]
    if "saveexec" in ins.mnemonic:
        return regs[0].mask & ~_EXEC if regs else 0
    saved = 0
    for op in regs[1:]:
        saved |= op.mask
    return saved & ~_EXEC


def _copied_mask(kernel: Kernel, w: Instruction) -> int:
    """For a ``v_cmpx`` that writes EXEC, the SGPRs an ``s_mov_b32/b64 sN, exec`` copied EXEC into just
    before it (gfx10+ code saves the mask this way: ``s_mov_b32 s9, exec_lo`` / ``v_cmpx_eq_u16 16, v6`` /
    ... / ``s_or_b32 exec_lo, exec_lo, s9``); 0 when no such copy precedes it in its block within 15
    instructions, or the copy is overwritten before it."""
    if not w.defs & _EXEC or not w.mnemonic.startswith("v_cmpx"):
        return 0
    instructions = kernel.instructions
    written = 0  # registers written between the copy and the v_cmpx: a copy overwritten since saves nothing
    for k in range(w.index - 1, max(w.index - 16, -1), -1):
        ins = instructions[k]
        if ins.branch is not BranchKind.NONE or ins.defs & _EXEC:
            return 0
        if ins.mnemonic.startswith("s_mov_b") and ins.uses & _EXEC:
            copy = ins.defs & ~_EXEC
            return 0 if copy & written else copy
        written |= ins.defs
    return 0


#: an if/else's switch from the "then" to the "else" lanes in one instruction (LLVM's SI_ELSE, folded)
_ELSE_SWITCHES = ("s_andn2_saveexec_", "s_and_not1_saveexec_")

#: instructions that move a saved EXEC mask to other SGPRs without touching EXEC: a copy, the "else" mask
#: of an if/else (``s_xor_b64 s[4:5], exec, s[2:3]``: the lanes the saved mask has and EXEC has not), the
#: mask ``s_and_b64 s[4:5], exec, s[2:3]`` that an else part saves (LLVM's SILowerControlFlow emitIf/emitElse)
_MASK_MOVES = ("s_mov_b32", "s_mov_b64", "s_xor_b32", "s_xor_b64", "s_and_b32", "s_and_b64")


#: the mask moves of :data:`_MASK_MOVES` that are plain copies (they read nothing but the mask)
_MASK_COPIES = ("s_mov_b",)


def _moves_mask(ins: Instruction, carriers: int) -> int:
    """The SGPRs ``ins`` moves a mask held in ``carriers`` to (0 when it does not): a copy reads only the
    mask, an else mask or an else part's saved mask combines it with EXEC and nothing else."""
    if ins.defs & _EXEC or not ins.uses & carriers or not ins.mnemonic.startswith(_MASK_MOVES):
        return 0
    sources = ins.uses & ~_SCC
    if ins.mnemonic.startswith(_MASK_COPIES):
        return ins.defs & ~_SCC if not sources & ~carriers else 0
    return ins.defs & ~_SCC if sources & _EXEC and not sources & ~(carriers | _EXEC) else 0


def _restores(kernel: Kernel, start: int, saved: int, succs_of: dict[int, list[int]]) -> set[int]:
    """Instructions that may switch lanes back on from ``saved`` first on some path from ``start``,
    following control flow (branch targets and fall-through), not listing order.

    The mask is followed by its data flow, not by register names: LLVM moves it to another pair between
    the parts of an if/else (``s_and_saveexec_b64 s[2:3], s[0:1]`` / ``s_xor_b64 s[4:5], exec, s[2:3]`` /
    ... / ``s_or_saveexec_b64 s[2:3], s[4:5]``, llc-19 int64.cl divmod64), so every register a copy or an
    else mask writes from it carries it too. A path ends at a restore (an EXEC write reading a carrier),
    or where every carrier is overwritten without being read."""
    # the walk is the running core's (isalens._core.mask_restores, compiled when built): 4,784 walks over 38k
    # instructions in the dense 100k benchmark (docs/performance.md, twenty-second session)
    return _core.mask_restores(kernel.instructions, _DEFS_AT, _USES_AT, _MNEMONIC_AT, start, saved, _EXEC, _SCC,
                               _MASK_COPIES, _MASK_MOVES, succs_of)


def _carried(ins: Instruction, carriers: int) -> int:
    """The registers holding a saved mask after ``ins``: more where it copies the mask, fewer where it
    overwrites a holder without reading the mask (0: the mask is gone)."""
    moved = _moves_mask(ins, carriers)
    if moved:
        return carriers | moved
    if ins.defs & carriers and not ins.uses & carriers:
        return carriers & ~ins.defs
    return carriers


def _else_switch(kernel: Kernel, j: int, targets: set[int]) -> int | None:
    """For a restore ``j`` that switches every lane on and saves the mask (``s_or_saveexec_b64 s[2:3],
    s[4:5]``), the instruction after it in its block that switches the "then" lanes off again with that
    mask (``s_xor_b64 exec, exec, s[2:3]``, maybe after ``s_and_b64 s[6:7], exec, s[2:3]``), else None.

    LLVM's else lowering puts the two at the start and the end of the "Flow" block; only when nothing lies
    between them are they folded into one ``s_andn2_saveexec`` (SIOptimizeExecMasking), so a scalar load,
    a copy or a spill between them leaves the pair apart. ``targets``: the instructions branches go to (the
    block ends there)."""
    instructions = kernel.instructions
    restore = instructions[j]
    if not restore.mnemonic.startswith("s_or_saveexec_b"):
        return None
    carriers = restore.defs & ~_EXEC & ~_SCC
    for k in range(j + 1, len(instructions)):
        ins = instructions[k]
        if ins.defs & _EXEC:
            return k if ins.mnemonic.startswith("s_xor_b") and ins.uses & carriers else None
        if ins.branch is not BranchKind.NONE or k in targets:
            return None
        carriers = _carried(ins, carriers)
        if not carriers:
            return None
    return None


def _exec_skips(kernel: Kernel) -> list[tuple[int, int]]:
    """(W, J) instruction pairs: W switches lanes off, J switches them back on from the mask W saved.

    Lanes off between them keep their VGPR values, so those values flow from W to J around the region
    even when the compiler removed its ``s_cbranch_execz`` (LLVM's CFG keeps that edge). When W is
    followed in its block by an ``s_cbranch_execz``, the region's join is that branch's target and the
    CFG already has the edge: no pair. Otherwise J is found by following control flow from W; in a
    rotated loop the restore next in listing order may belong to another loop.
    """
    instructions = kernel.instructions
    n = len(instructions)
    succs_of = _control_successors(kernel)
    targets = {t for out in succs_of.values() for t in out}
    pairs: list[tuple[int, int]] = []
    for k in _core.rows_masked(instructions, _DEFS_AT, _EXEC):
        w = instructions[k]
        saved = _saved_mask(w) or _copied_mask(kernel, w)
        if not saved or _guarded_by_execz(kernel, w.index):
            continue
        for j in sorted(_restores(kernel, w.index + 1, saved, succs_of)):
            # an if/else: the restore switches the "else" lanes on and the others off again (``s_andn2_saveexec``
            # of the saved mask). Lanes that skipped the "then" arm run the "else" arm, so their edge ends
            # after that switch; ending at it would let them skip the "else" arm too through its own edge,
            # a path no lane takes (a value written in both arms would look live across both).
            header = _waterfall_header(kernel, w.index, j)
            if header is not None:
                pairs.append((w.index, header))
                continue
            restore = instructions[j]
            switch = j if restore.mnemonic.startswith(_ELSE_SWITCHES) else _else_switch(kernel, j, targets)
            if switch is not None and switch + 1 < n:
                # the "else" lanes are on from the restore and run the "else" part after the switch (the same
                # instruction, or apart: see _else_switch); ending the edge before the switch would let these
                # lanes take the switch's own edge too
                pairs.append((w.index, _else_start(kernel, switch + 1)))
                continue
            pairs.append((w.index, j + 1 if j + 1 < n and _saved_mask(restore) else j))
    return pairs


def _control_successors(kernel: Kernel) -> dict[int, list[int]]:
    """Successor instructions of every instruction that transfers control (the rest fall through)."""
    return _flow(kernel).successors


#: what each branch kind does to control flow (isalens._core.graph.control_flow's flags)
_FLOW_FLAGS = {
    BranchKind.NONE: _core.FALLS,
    BranchKind.JUMP: _core.JUMPS | _core.ENDS,
    BranchKind.COND: _core.JUMPS | _core.FALLS | _core.ENDS,
    BranchKind.END: _core.ENDS | _core.STOPS,
    BranchKind.RETURN: _core.ENDS | _core.STOPS,
    BranchKind.INDIRECT: _core.ENDS | _core.STOPS,
    BranchKind.CALL: _core.FALLS,
}
_BRANCH_AT = Instruction._fields.index("branch")
_DEFS_AT = Instruction._fields.index("defs")
_USES_AT = Instruction._fields.index("uses")
_MNEMONIC_AT = Instruction._fields.index("mnemonic")
_TARGET_AT = Instruction._fields.index("target")
#: the last kernel's flow, with the instruction tuple it was made from: the CFG and its two EXEC searches
#: each ask for it (a kernel's instructions are an immutable tuple, so the same tuple has the same flow)
_last_flow: tuple[tuple[Instruction, ...], dict[str, int], object, _core.Flow] | None = None


def _flow(kernel: Kernel) -> _core.Flow:
    """Where control goes from each instruction (jump targets, block ends, fall-through, successors), made by
    the running core in one walk over the instructions."""
    global _last_flow
    last = _last_flow
    made_by = _core.control_flow  # a test swapping the core must not get the other core's answer
    if last is not None and last[0] is kernel.instructions and last[1] is kernel.labels and last[2] is made_by:
        return last[3]
    flow = made_by(kernel.instructions, _BRANCH_AT, _TARGET_AT, _FLOW_FLAGS, kernel.labels)
    _last_flow = (kernel.instructions, kernel.labels, made_by, flow)
    return flow


def _else_regions(kernel: Kernel) -> list[ElseRegion]:
    """The if/else regions of ``kernel`` (:class:`ElseRegion`): ``s_and_saveexec sA, ...`` whose saved mask
    becomes the "else" mask (``s_xor sB, exec, sA``) and reaches an else switch (``s_or_saveexec`` +
    ``s_xor exec``, or one ``s_andn2_saveexec``) at the start of a block, with a "then" part in between that
    the switch's block is the only way out of, no other code enters, holds no call and never switches lanes
    on from a constant (whole-wave code, ``s_or_saveexec_b64 s[8:9], -1``, would write the "else" lanes
    too)."""
    instructions = kernel.instructions
    n = len(instructions)
    ifs = [(w, x) for w in map(instructions.__getitem__, _core.rows_prefixed(instructions, _MNEMONIC_AT,
                                                                            ("s_and_saveexec_b",)))
           if (x := _else_mask_at(kernel, w)) is not None]
    if not ifs:
        return []
    succs_of = _control_successors(kernel)
    targets = {t for out in succs_of.values() for t in out}
    entered_from: dict[int, list[int]] = {}  # branch target -> the branches to it
    for i, out in succs_of.items():
        for t in out:
            if t != i + 1:
                entered_from.setdefault(t, []).append(i)
    regions: list[ElseRegion] = []
    for w, xor in ifs:
        saved = _saved_mask(w)
        restores = _restores(kernel, w.index + 1, saved, succs_of) if saved else set()
        if len(restores) != 1:
            continue
        (j,) = restores
        restore = instructions[j]
        switch = j if restore.mnemonic.startswith(_ELSE_SWITCHES) else _else_switch(kernel, j, targets)
        if switch is None or switch + 1 >= n:
            continue
        execz = _execz_after(kernel, w.index)
        flow = j
        if execz is not None:
            # the lanes skipping the "then" part go to the Flow block, which may hold a wait or a copy before
            # the restore (``.LBB3_39: s_waitcnt lgkmcnt(0)`` / ``s_andn2_saveexec_b64 s[4:5], s[0:1]``)
            flow = succs_of[execz][0]
            if not flow <= j or any(instructions[k].branch is not BranchKind.NONE or instructions[k].defs & _EXEC
                                    or (k > flow and k in targets) for k in range(flow, j)):
                continue
        start = max(xor, execz if execz is not None else xor) + 1  # after the if's own instructions
        exits = _then_exits(kernel, start, flow, succs_of, entered_from)
        if not exits:
            continue
        joins = _restores(kernel, switch + 1, restore.defs & ~_EXEC & ~_SCC, succs_of)
        if joins:
            regions.append(ElseRegion(start, flow, switch, tuple(sorted(joins)), exits))
    return regions


def _else_mask_at(kernel: Kernel, w: Instruction) -> int | None:
    """When ``w`` (an ``s_and_saveexec``) opens an if with an "else" part, the instruction that makes its saved
    mask the "else" mask before EXEC changes again or control leaves (``s_xor_b64 s[0:1], exec, s[0:1]``;
    LLVM's emitIf makes none for an if without "else"), else None."""
    instructions = kernel.instructions
    saved = -1  # looked up past the first instruction: most ifs without "else" go on with s_cbranch_execz
    for k in range(w.index + 1, min(w.index + 8, len(instructions))):
        ins = instructions[k]
        if ins.branch is not BranchKind.NONE or ins.defs & _EXEC:
            return None
        if saved == -1:
            saved = _saved_mask(w)
        if ins.mnemonic.startswith("s_xor_b") and ins.uses & saved and ins.uses & _EXEC:
            return k
        if ins.defs & saved:
            return None
    return None


def _then_exits(kernel: Kernel, start: int, flow: int, succs_of: dict[int, list[int]],
                entered_from: dict[int, list[int]]) -> tuple[int, ...]:
    """The instructions of ``start`` .. ``flow - 1`` that go on to ``flow`` when those instructions form a
    "then" part (:func:`_else_regions`), else ()."""
    instructions = kernel.instructions
    if start >= flow:
        return ()
    written = 0
    for i in range(start, flow):
        written |= instructions[i].defs
    exits: list[int] = []
    for i in range(start, flow):
        ins = instructions[i]
        if ins.branch in (BranchKind.CALL, BranchKind.END, BranchKind.RETURN, BranchKind.INDIRECT):
            return ()
        if ins.defs & _EXEC and not _keeps_lanes_off(ins, written):
            return ()
        if any(not start <= k < flow for k in entered_from.get(i, ())):
            return ()  # entered from outside
        out = succs_of.get(i, [i + 1])
        if any(not start <= t <= flow for t in out):
            return ()  # leaves elsewhere
        if flow in out:
            if len(out) > 1:
                return ()  # a conditional way out: the other way may need what the Flow block needs
            exits.append(i)
    return tuple(exits)


#: EXEC writes that can only switch lanes off (a lane off stays off)
_LANES_OFF = ("s_and_saveexec_", "s_andn2_saveexec_", "s_and_not1_saveexec_", "v_cmpx")
#: the same when they read EXEC too (``s_andn2_b64 exec, exec, s[8:9]`` in a loop)
_LANES_OFF_WITH_EXEC = ("s_and_b", "s_andn2_b", "s_and_not1_b")
#: EXEC writes that switch lanes on again from a mask (``s_or_b64 exec, exec, s[6:7]``, a nested else switch)
_LANES_BACK = ("s_or_b", "s_or_saveexec_b", "s_xor_b", "s_mov_b")


def _keeps_lanes_off(ins: Instruction, written: int) -> bool:
    """``ins`` (an EXEC write in a "then" part whose instructions write ``written``) switches on no lane that
    was off when the part began: it only switches lanes off, or back on from masks the part itself saved."""
    if ins.mnemonic.startswith(_LANES_OFF):
        return True
    if ins.mnemonic.startswith(_LANES_OFF_WITH_EXEC):
        return bool(ins.uses & _EXEC)
    if not ins.mnemonic.startswith(_LANES_BACK) or any(isinstance(op, ImmOperand) for op in ins.operands):
        return False
    masks = ins.uses & ~_EXEC & ~_SCC
    return bool(masks) and not masks & ~written


def _else_start(kernel: Kernel, k: int) -> int:
    """Where the lanes an if/else switches to its "else" part go on at instruction ``k`` (just after the
    switch): past an ``s_cbranch_execz`` (taken only when there are none of them), to the target of an
    ``s_cbranch_execnz`` (taken whenever there are some), else ``k``."""
    ins = kernel.instructions[k]
    if ins.mnemonic == "s_cbranch_execz" and k + 1 < len(kernel.instructions):
        return k + 1
    if ins.mnemonic == "s_cbranch_execnz" and ins.target is not None:
        target = kernel.labels.get(ins.target)
        if target is not None and target < len(kernel.instructions):
            return target
    return k


def _waterfall_header(kernel: Kernel, w: int, j: int) -> int | None:
    """The loop header when W..J is the body of a waterfall loop, else None.

    A waterfall loop (``v_readfirstlane`` of a divergent value, ``v_cmpx``/``s_and_saveexec`` for the lanes
    that share it, the body, ``s_xor exec, exec, saved`` + ``s_cbranch_execnz`` back to the header) runs
    the body once per distinct value: the lanes J switches back on are the ones not yet handled, and they
    go round the loop again, so no lane leaves it without running the body. Their values skip the body to
    the header, not to the loop's exit (llc-19's MIR: a register the body writes and the exit reads is not
    live into the loop; examples/kernels/liveness/calls_conv.cl call_through)."""
    instructions = kernel.instructions
    restore = instructions[j]
    if not restore.mnemonic.startswith("s_xor_b") or j + 1 >= len(instructions):
        return None
    branch = instructions[j + 1]
    if branch.mnemonic != "s_cbranch_execnz" or branch.target is None:
        return None
    header = kernel.labels.get(branch.target)
    return header if header is not None and header <= w else None


def _guarded_by_execz(kernel: Kernel, index: int) -> bool:
    """An ``s_cbranch_execz`` follows instruction ``index`` before EXEC changes again or control leaves."""
    return _execz_after(kernel, index) is not None


def _execz_after(kernel: Kernel, index: int) -> int | None:
    """The ``s_cbranch_execz`` that follows instruction ``index`` before EXEC changes again or control
    leaves, or None."""
    instructions = kernel.instructions
    for k in range(index + 1, len(instructions)):  # by index: a slice would copy the rest of the kernel each time
        ins = instructions[k]
        if ins.mnemonic == "s_cbranch_execz":
            return k
        if ins.defs & _EXEC or ins.branch is not BranchKind.NONE:
            return None
    return None


def cfg(kernel: Kernel) -> CFG:
    """Build the CFG of ``kernel``."""
    n = len(kernel.instructions)
    # a target past the last instruction (a pasted snippet's exit) has no block: it leaves (jump_to -1)
    flow = _flow(kernel)
    skips = _exec_skips(kernel)
    extra = {j for _w, j in skips} | {w + 1 for w, _j in skips if w + 1 < n}
    g = _core.block_graph(flow.jump_to, flow.ends_block, flow.falls_through, sorted(extra))
    block_of = g.block_of
    # skip edges stay apart from ``succs``: only VGPR/AGPR values flow along them (scalar instructions
    # run whatever EXEC is), and they are not control flow for dominators and loops
    skip_edges = sorted({(block_of[w], block_of[j]) for w, j in skips} - {
        (a, b) for a, out in enumerate(g.succs) for b in out})
    label_at = {i: name for name, i in sorted(kernel.labels.items(), key=lambda kv: kv[0], reverse=True)}
    blocks = tuple(Block(b, s, e, tuple(g.succs[b]), tuple(g.preds[b]), label_at.get(s))
                   for b, (s, e) in enumerate(zip(g.starts, g.ends, strict=True)))
    loops = tuple(Loop(h, frozenset(body), g.depth[h]) for h, body in g.loops)
    graph = CFG(blocks, tuple(block_of), loops, tuple(g.depth), tuple(g.unreachable), tuple(g.rpo),
                tuple(skip_edges), tuple(_else_regions(kernel)))
    _forget_flow()
    return graph


def _forget_flow() -> None:
    """Drop the kept flow once the CFG is made: no later pass asks for it (a later call makes it again), and a
    million-instruction kernel's three lists and successors held 50-60 MB to the end of the command."""
    global _last_flow
    _last_flow = None


def _natural_loops(rpo: list[int], succs: list[list[int]], preds: list[list[int]],
                   count: int) -> tuple[tuple[Loop, ...], tuple[int, ...]]:
    """The natural loops and loop depths of a block graph (isalens._core.graph, the running core)."""
    loops, depth = _core.natural_loops(rpo, succs, preds, count)
    return tuple(Loop(h, frozenset(body), depth[h]) for h, body in loops), tuple(depth)
