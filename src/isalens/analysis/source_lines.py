"""The per-source-line table: what each line of the programmer's own file costs in the machine code.

Rows group a kernel's instructions by their source location (:class:`~isalens.ir.source.SourceMap`; line 0 is
already attributed to the line before it) and add up instructions, code bytes, the timing model's issue and
stall cycles (one execution of each instruction, from the single-wave schedule: loop trip counts are not
applied, the ``timing`` section has them per loop), the most VGPRs/SGPRs live at any of the line's
instructions, and its spill/reload, LDS and global-memory instructions.

Left out: instructions in unreachable blocks (they never run), and the assembler's alignment padding in a
code object: where the assembly says ``.p2align 6`` before a loop label (LLVM aligns gfx10+ loop headers to
64 bytes), the code object holds a run of ``s_nop 0`` that the assembly does not (:func:`alignment_padding`).
The assembly and the code object built from it so give the same table; the padding stays in every ISA figure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from isalens import records
from isalens.analysis.cfg import CFG, Loop
from isalens.analysis.pressure import Pressure
from isalens.ir.program import Kernel
from isalens.ir.source import SourceLoc
from isalens.records import dataclass

if TYPE_CHECKING:
    from isalens.analysis.timing import KernelTiming

__all__ = ["SourceLine", "SourceSpan", "alignment_padding", "loop_sources", "loop_span", "source_lines"]

#: instructions that move a spilled value: scratch memory, and SGPRs parked in VGPR lanes
_SPILL_MNEMONICS = ("v_writelane_b32", "v_readlane_b32")
_GLOBAL_PREFIXES = ("vmem.", "flat.", "global.", "image.")


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One source line's share of a kernel (``first_index``: its first instruction, for ordering and links)."""

    file: str
    line: int
    first_index: int
    instructions: int
    code_bytes: int
    issue_cycles: int | None
    stall_cycles: int | None
    max_live_vgpr: int
    max_live_sgpr: int
    spill_ops: int
    lds_ops: int
    global_ops: int
    #: the function the line's code belongs to and the call sites that inlined its first instruction
    #: (innermost first); None / empty where the input does not say (assembly: final locations only)
    function: str | None = None
    inlined_at: tuple[SourceLoc, ...] = ()
    #: every distinct call chain among the line's instructions (a helper inlined at two call sites has two)
    call_chains: tuple[tuple[SourceLoc, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """Lines ``first_line``..``last_line`` of one file: how a loop is named in source terms."""

    file: str
    first_line: int
    last_line: int

    def short(self) -> str:
        """``loops.cl:22-26`` (``loops.cl:22`` for one line)."""
        name = self.file.rsplit("/", 1)[-1]
        return f"{name}:{self.first_line}" if self.first_line == self.last_line \
            else f"{name}:{self.first_line}-{self.last_line}"

    def to_dict(self) -> dict[str, str | int]:
        return {"file": self.file, "first_line": self.first_line, "last_line": self.last_line}


#: LLVM's loop alignment on AMDGPU (``.p2align 6``): the padding before a loop header ends at a multiple of it
_LOOP_ALIGN = 64


def alignment_padding(kernel: Kernel) -> set[int]:
    """Indices of ``s_nop 0`` runs that end right before a labelled instruction at an address aligned to
    64 bytes: the assembler's padding for ``.p2align`` (only a code object has addresses, and padding)."""
    targets = set(kernel.labels.values())
    found: set[int] = set()
    run: list[int] = []
    for i, ins in enumerate(kernel.instructions):
        if ins.mnemonic == "s_nop" and ins.text.split()[1:] == ["0"]:
            run.append(i)
            continue
        if run and i in targets and ins.address is not None and ins.address % _LOOP_ALIGN == 0:
            found.update(run)
        run = []
    return found


def source_lines(kernel: Kernel, graph: CFG, pressure: Pressure,
                 timing: KernelTiming | None = None) -> tuple[SourceLine, ...]:
    """The rows of ``kernel``, in order of each line's first instruction; empty without a source map."""
    locs = kernel.source.locs
    if not locs:
        return ()
    instructions = kernel.instructions
    skipped = alignment_padding(kernel) if instructions and instructions[0].address is not None else set()
    for b in graph.unreachable:
        skipped.update(range(graph.blocks[b].start, graph.blocks[b].end))
    # the instructions of each source line, in order; one dict lookup per distinct location object (a reader
    # shares one object among the instructions of a .loc or line-table row: a 100k kernel has ~50k of them)
    groups: dict[tuple[str, int], list[int]] = {}
    by_object: dict[int, list[int]] = {}
    for i, loc in enumerate(locs):
        if loc is None:
            continue
        group = by_object.get(id(loc))
        if group is None:
            group = by_object[id(loc)] = groups.setdefault((loc.file, loc.line), [])
        group.append(i)
    if skipped:
        groups = {key: kept for key, g in groups.items() if (kept := [i for i in g if i not in skipped])}
        groups = dict(sorted(groups.items(), key=lambda kv: kv[1][0]))
    if timing is not None:
        from isalens.analysis.timing.schedule import TimingLines

        timed = timing.profile.lines
        issue = [0] * len(instructions)
        stall = [0] * len(instructions)
        columns = timed.issue_and_stall() if isinstance(timed, TimingLines) else (
            (row.index, row.issue, row.stall) for row in timed)  # a pickled profile holds the rows themselves
        for i, issued, waited in columns:
            issue[i], stall[i] = issued, waited
    vgpr, sgpr = pressure.vgpr.counts, pressure.sgpr.counts
    kinds: dict[str, tuple[bool, bool, bool]] = {}  # class -> (scratch, LDS, global memory): few distinct
    rows = []
    for (file, line), g in groups.items():
        code_bytes = spill = lds = glob = 0
        for i in g:
            ins = instructions[i]
            facts = ins.facts
            code_bytes += facts.size
            kind = kinds.get(facts.klass)
            if kind is None:
                klass = facts.klass
                kind = kinds[klass] = (klass.startswith("scratch."), klass.startswith("ds."),
                                       klass.startswith(_GLOBAL_PREFIXES))
            spill += kind[0] or ins.mnemonic in _SPILL_MNEMONICS
            lds += kind[1]
            glob += kind[2]
        cycles = (sum(issue[i] for i in g), sum(stall[i] for i in g)) if timing is not None else (None, None)
        rows.append(SourceLine(file, line, g[0], len(g), code_bytes, cycles[0], cycles[1],
                               max(vgpr[i] for i in g), max(sgpr[i] for i in g), spill, lds, glob))
    table = tuple(rows)
    if not kernel.source.frames:
        return table
    return _with_frames(kernel, table, skipped)


def _with_frames(kernel: Kernel, table: tuple[SourceLine, ...], skipped: set[int]) -> tuple[SourceLine, ...]:
    """The rows with their function (of the first instruction) and every call chain among their instructions
    (``skipped``: the instructions the rows leave out)."""
    chains: dict[tuple[str, int], dict[tuple[SourceLoc, ...], None]] = {}
    for i, (frame, loc) in enumerate(zip(kernel.source.frames, kernel.source.locs, strict=False)):
        if frame is not None and loc is not None and i not in skipped:
            chains.setdefault((loc.file, loc.line), {})[frame.inlined_at] = None
    out = []
    for r in table:
        frame = kernel.source.frame_at(r.first_index)
        out.append(r if frame is None else records.replace(
            r, function=frame.function, inlined_at=frame.inlined_at, call_chains=tuple(chains[(r.file, r.line)])))
    return tuple(out)


def loop_span(kernel: Kernel, graph: CFG, loop: Loop) -> SourceSpan | None:
    """The source lines of one natural loop: the lines of its header's file that the loop's instructions come
    from (None: the header names no source line). Where a binary's DWARF says which code is an inlined helper,
    the helper's lines count as the line that called it (``tap``'s body as ``acc += w * tap(...)``): the
    loop's own level is the least inlined of its instructions. Assembly cannot tell helpers apart, so there a
    helper defined in the same file widens the span."""
    source = kernel.source
    body = [i for b in loop.blocks for i in range(graph.blocks[b].start, graph.blocks[b].end)]
    header = graph.blocks[loop.header]
    first = next((i for i in range(header.start, header.end) if source.at(i) is not None), None)
    if first is None:
        return None
    if not source.frames:  # assembly, or no DWARF entries: the lines as the locations name them
        first_loc = source.at(first)
        assert first_loc is not None
        lines = {loc.line for i in body if (loc := source.locs[i]) is not None and loc.file == first_loc.file}
        return SourceSpan(first_loc.file, min(lines), max(lines))
    depth = min((len(f.inlined_at) for i in body if (f := source.frame_at(i)) is not None), default=0)

    def at_loop_level(i: int) -> SourceLoc | None:
        frame = source.frame_at(i)
        if frame is not None and len(frame.inlined_at) > depth:
            return frame.inlined_at[len(frame.inlined_at) - depth - 1]  # the call made at the loop's level
        return source.at(i)
    first_loc = at_loop_level(first)
    if first_loc is None:
        return None
    lines = {loc.line for i in body if (loc := at_loop_level(i)) is not None and loc.file == first_loc.file}
    return SourceSpan(first_loc.file, min(lines), max(lines))


def loop_sources(kernel: Kernel, graph: CFG) -> dict[int, str]:
    """Each natural loop named by its source lines, keyed by its header's input line: ``loops.cl:22-26``
    (:func:`loop_span`); empty without source lines."""
    if not kernel.source.locs:
        return {}
    out: dict[int, str] = {}
    for loop in graph.loops:
        span = loop_span(kernel, graph, loop)
        if span is not None:
            out[kernel.instructions[graph.blocks[loop.header].start].line] = span.short()
    return out
