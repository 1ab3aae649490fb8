"""The reference block graph: basic blocks, edges, reverse postorder, dominators and natural loops, in plain
Python, from what each instruction does to control flow.

Nothing here knows an instruction set: :func:`block_graph` takes, per instruction, the index its jump goes to
(-1: none, or a target past the end), whether it ends a block and whether control falls through it, plus extra
block starts the caller needs (isalens.analysis.cfg: where lanes switched off by EXEC join again). The compiled
core (``_compiled.pyx``) implements the same function on C arrays and must give identical answers
(tests/property/test_core_differential.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

__all__ = ["ENDS", "FALLS", "JUMPS", "STOPS", "Flow", "Graph", "block_graph", "control_flow", "natural_loops",
           "rows_masked", "rows_prefixed"]


class Graph(NamedTuple):
    """Blocks ``b`` hold instructions ``starts[b]`` .. ``ends[b] - 1``."""

    starts: list[int]
    ends: list[int]
    block_of: list[int]
    succs: list[list[int]]
    preds: list[list[int]]
    #: reverse postorder of the blocks reachable from block 0
    rpo: list[int]
    unreachable: list[int]
    #: (header, body blocks) per natural loop, by header
    loops: list[tuple[int, list[int]]]
    #: per block, how many loops hold it
    depth: list[int]


def block_graph(jump_to: Sequence[int], ends_block: Sequence[bool], falls_through: Sequence[bool],
                extra_starts: Iterable[int]) -> Graph:
    """The block graph of ``len(jump_to)`` instructions: a block starts at 0, at every jump target, after every
    instruction that ends a block and at ``extra_starts``; a block's successors are its last instruction's
    jump target's block, then the next block when control falls through (each once)."""
    n = len(jump_to)
    if not n:
        raise ValueError("a block graph needs at least one instruction")
    # Blocks start only where control can arrive from elsewhere: labels nobody branches to do not split blocks
    leaders = {0}
    for i in range(n):
        if jump_to[i] >= n:
            raise ValueError(f"jump target {jump_to[i]} outside the {n} instructions")
        if jump_to[i] >= 0:
            leaders.add(jump_to[i])
        if ends_block[i] and i + 1 < n:
            leaders.add(i + 1)
    for i in extra_starts:
        if not 0 <= i < n:
            raise ValueError(f"block start {i} outside the {n} instructions")
        leaders.add(i)
    starts = sorted(leaders)
    ends = [*starts[1:], n]
    block_of = [0] * n
    for b, start in enumerate(starts):
        for i in range(start, ends[b]):
            block_of[i] = b
    succs: list[list[int]] = []
    for b, end in enumerate(ends):
        out: list[int] = []
        if jump_to[end - 1] >= 0:
            out.append(block_of[jump_to[end - 1]])
        if falls_through[end - 1] and b + 1 < len(starts) and (b + 1) not in out:
            out.append(b + 1)
        succs.append(out)
    preds: list[list[int]] = [[] for _ in starts]
    for b, out in enumerate(succs):
        for s in out:
            preds[s].append(b)
    rpo, seen = _reverse_postorder(succs)
    unreachable = [b for b in range(len(starts)) if not seen[b]]
    loops, depth = natural_loops(rpo, succs, preds, len(starts))
    return Graph(starts, ends, block_of, succs, preds, rpo, unreachable, loops, depth)


def _reverse_postorder(succs: list[list[int]]) -> tuple[list[int], list[bool]]:
    """Reverse postorder from block 0 (iterative depth-first walk, successors in order) and which blocks it
    reached."""
    seen = [False] * len(succs)
    order: list[int] = []
    stack: list[tuple[int, int]] = [(0, 0)] if succs else []
    if succs:
        seen[0] = True
    while stack:
        b, k = stack[-1]
        if k < len(succs[b]):
            stack[-1] = (b, k + 1)
            s = succs[b][k]
            if not seen[s]:
                seen[s] = True
                stack.append((s, 0))
        else:
            stack.pop()
            order.append(b)
    return order[::-1], seen


def _dominators(rpo: list[int], preds: list[list[int]], count: int) -> list[int]:
    """Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm); -1 = none."""
    position = {b: i for i, b in enumerate(rpo)}
    idom = [-1] * count
    if not rpo:
        return idom
    idom[rpo[0]] = rpo[0]
    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            new = -1
            for p in preds[b]:
                if idom[p] == -1:
                    continue
                if new == -1:
                    new = p
                    continue
                a, c = p, new
                while a != c:
                    while position[a] > position[c]:
                        a = idom[a]
                    while position[c] > position[a]:
                        c = idom[c]
                new = a
            if new != idom[b]:
                idom[b] = new
                changed = True
    return idom


def _dominator_intervals(idom: list[int]) -> tuple[list[int], list[int]]:
    """Entry and exit numbers of a depth-first walk of the dominator tree: ``a`` dominates ``b`` exactly when
    ``b``'s interval lies inside ``a``'s. One walk instead of climbing the tree per question, which was
    quadratic on long chains of blocks (20,000-block kernels)."""
    children: list[list[int]] = [[] for _ in idom]
    roots = []
    for b, parent in enumerate(idom):
        if parent == -1:
            continue
        if parent == b:
            roots.append(b)
        else:
            children[parent].append(b)
    enter = [-1] * len(idom)
    leave = [-1] * len(idom)
    clock = 0
    for root in roots:
        stack = [(root, 0)]
        enter[root] = clock
        clock += 1
        while stack:
            b, k = stack[-1]
            if k < len(children[b]):
                stack[-1] = (b, k + 1)
                c = children[b][k]
                enter[c] = clock
                clock += 1
                stack.append((c, 0))
            else:
                stack.pop()
                leave[b] = clock
                clock += 1
    return enter, leave


def natural_loops(rpo: list[int], succs: list[list[int]], preds: list[list[int]],
                  count: int) -> tuple[list[tuple[int, list[int]]], list[int]]:
    """The natural loops (header, sorted body) by header, and each block's loop depth: a back edge ``b -> s``
    is one whose target dominates its source; its loop is ``s`` and every block reaching ``b`` without passing
    ``s`` (unreachable blocks left out)."""
    idom = _dominators(rpo, preds, count)
    enter, leave = _dominator_intervals(idom)
    bodies: dict[int, set[int]] = {}
    for b in rpo:
        for s in succs[b]:
            # s dominates b: a back edge b -> s
            if idom[s] != -1 and enter[s] <= enter[b] and leave[b] <= leave[s]:
                body = bodies.setdefault(s, {s})
                work = [b]
                while work:
                    x = work.pop()
                    if x not in body:
                        body.add(x)
                        work.extend(p for p in preds[x] if idom[p] != -1)
    depth = [0] * count
    for body in bodies.values():
        for b in body:
            depth[b] += 1
    return [(h, sorted(body)) for h, body in sorted(bodies.items())], depth


#: what a kind of instruction does to control flow: the bits ``control_flow``'s ``flags`` map each kind to
JUMPS = 1  # goes to the instruction its target names (when it names one)
FALLS = 2  # control may go on to the next instruction (with JUMPS: a conditional branch)
ENDS = 4  # ends its block
STOPS = 8  # control goes nowhere in the kernel after it (program end, return, computed jump)


class Flow(NamedTuple):
    """Per instruction, where control goes (:func:`control_flow`)."""

    #: the instruction its jump goes to; -1: no jump, or a target past the last instruction (it leaves)
    jump_to: list[int]
    ends_block: list[bool]
    falls_through: list[bool]
    #: the instructions that transfer control (a jump with a target, or one that stops), each with its
    #: successors in the kernel: the jump's target, then the next instruction when it may fall through
    successors: dict[int, list[int]]


def control_flow(rows: Sequence[Sequence[Any]], kind_at: int, target_at: int, flags: Mapping[Any, int],
                 labels: Mapping[str, int]) -> Flow:
    """Where control goes from each of ``rows`` (instruction ``i`` is ``rows[i]``): ``flags[rows[i][kind_at]]``
    says what its kind does (:data:`JUMPS`, :data:`FALLS`, :data:`ENDS`, :data:`STOPS`), ``rows[i][target_at]``
    names its target (None: none), ``labels`` maps a target name to the index of the instruction it labels
    (a name missing from it is a ``KeyError``). The block graph's inputs (:func:`block_graph`) and the
    successors of the instructions that transfer control, in one walk."""
    n = len(rows)
    jump_to = [-1] * n
    ends_block = [False] * n
    falls_through = [False] * n
    successors: dict[int, list[int]] = {}
    for i, row in enumerate(rows):
        kind = flags[row[kind_at]]
        ends_block[i] = bool(kind & ENDS)
        falls_through[i] = bool(kind & FALLS)
        target = row[target_at]
        if kind & JUMPS and target is not None:
            at = labels[target]
            out = [at]
            if at < n:
                jump_to[i] = at
            if kind & FALLS and i + 1 < n:
                out.append(i + 1)
            successors[i] = [t for t in out if t < n]
        elif kind & STOPS:
            successors[i] = []
    return Flow(jump_to, ends_block, falls_through, successors)


def rows_masked(rows: Sequence[Sequence[Any]], at: int, mask: int) -> list[int]:
    """The positions ``i`` of the rows whose field ``at`` (an int) shares a bit with ``mask``, in order (the
    instructions that write EXEC, say, before a search looks at each)."""
    return [i for i, row in enumerate(rows) if row[at] & mask]


def rows_prefixed(rows: Sequence[Sequence[Any]], at: int, prefixes: tuple[str, ...]) -> list[int]:
    """The positions ``i`` of the rows whose field ``at`` (a str) starts with one of ``prefixes``, in order."""
    return [i for i, row in enumerate(rows) if row[at].startswith(prefixes)]


# --- live6 (twenty-second session): where a saved lane mask is restored -----------------------------------------

def mask_restores(rows: Sequence[Sequence[Any]], defs_at: int, uses_at: int, mnemonic_at: int, start: int,
                  saved: int, exec_units: int, flag_units: int, copies: tuple[str, ...], moves: tuple[str, ...],
                  succs_of: Mapping[int, Sequence[int]]) -> set[int]:
    """The rows that may restore a lane mask held in the registers ``saved`` first on some path from row ``start``:
    a row writing ``exec_units`` while reading a register that carries the mask. Rows are followed by control
    flow (``succs_of``: a row's successor rows where it transfers control; other rows fall through).

    The mask travels by data flow: a row that writes neither ``exec_units`` and reads a carrier adds its written
    registers (but ``flag_units``) to the carriers when it is a move, by mnemonic prefix: one of ``copies`` that
    reads only carriers, or another of ``moves`` that reads only carriers and ``exec_units`` and some of the
    latter. A row that writes a carrier without reading one takes those registers out. A path ends at a restore
    or when no carrier is left. ``rows``: each row's ``defs``/``uses`` (unit bitsets) and mnemonic by position."""
    n = len(rows)
    found: set[int] = set()
    seen: set[tuple[int, int]] = set()
    work = [(start, saved)]
    while work:
        i, carriers = work.pop()
        while i < n:
            row = rows[i]
            defs, uses = row[defs_at], row[uses_at]
            if defs & exec_units and uses & carriers:
                found.add(i)
                break
            moved = 0
            if not defs & exec_units and uses & carriers and row[mnemonic_at].startswith(moves):
                sources = uses & ~flag_units
                if row[mnemonic_at].startswith(copies):
                    moved = defs & ~flag_units if not sources & ~carriers else 0
                elif sources & exec_units and not sources & ~(carriers | exec_units):
                    moved = defs & ~flag_units
            if moved:
                carriers |= moved
            elif defs & carriers and not uses & carriers:
                carriers &= ~defs
            if not carriers:
                break
            nexts = succs_of.get(i)
            if nexts is None:
                i += 1
                continue
            for s in nexts:
                if (s, carriers) not in seen:
                    seen.add((s, carriers))
                    work.append((s, carriers))
            break
    return found
