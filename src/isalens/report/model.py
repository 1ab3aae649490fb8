"""The report model: collected once from analysis results, then handed to renderers that only format.

Objects refer to instructions by index and 1-based source line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from isalens import _core
from isalens._core import listing
from isalens._core.listing import LineColumns
from isalens.analysis.blocks import BlockLiveIn
from isalens.analysis.lifetimes import LiveRange, longest
from isalens.analysis.occupancy import Occupancy
from isalens.analysis.peak import FILE_KEYS, FILES, EntryLiveIns, LiveValue, reg_names
from isalens.analysis.pipeline import KernelAnalysis
from isalens.analysis.source_lines import SourceLine
from isalens.records import dataclass, field

if TYPE_CHECKING:
    from isalens.analysis.advice.model import KernelAdvice
    from isalens.analysis.stats import KernelStats
    from isalens.analysis.timing import KernelTiming
from isalens.ir.diagnostics import Diagnostic
from isalens.ir.program import Kernel
from isalens.ir.registers import SPECIAL_MASK, RegFile, highest_register
from isalens.ir.source import SourceLoc
from isalens.ondemand import OnDemand

#: a live range as the report keeps it: (name, first instruction, last instruction)
_REG_START_END = itemgetter(0, 2, 3)


class _RangeTriples(Sequence[tuple[str, int, int]]):
    """The analysis's live ranges as (name, first instruction, last instruction), made when read (only the
    HTML view reads them all: a kernel with many calls has millions)."""

    __slots__ = ("_ranges",)

    def __init__(self, ranges: Sequence[LiveRange]) -> None:
        self._ranges = ranges

    def __len__(self) -> int:
        return len(self._ranges)

    @overload
    def __getitem__(self, index: int) -> tuple[str, int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[str, int, int], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, int, int] | tuple[tuple[str, int, int], ...]:
        if isinstance(index, slice):
            return tuple(map(_REG_START_END, self._ranges[index]))
        result: tuple[str, int, int] = _REG_START_END(self._ranges[index])
        return result

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        return map(_REG_START_END, self._ranges)

#: 2: one class table (``instruction_classes``, class keys of classes.toml; ``stats.classes`` removed), compact
#: JSON by default; 3: one document for every command (report/document.py); see docs/schema/README.md
SCHEMA_VERSION = 3
__all__ = ["COUNT_COLUMN", "FILES", "FILE_KEYS", "SCHEMA_VERSION", "CfgFigures", "EntryLiveIns", "FileSummary",
           "KernelReport", "LineMasks", "LineRow", "LineRows", "LiveRegReport", "LiveValue", "OccupancyFigures",
           "RangeRow", "RegisterFigures", "kernel_report", "livereg_report", "map_width", "variable_table"]


@dataclass(frozen=True, slots=True)
class FileSummary:
    """Peak, requested, allocated and declared counts of one register file."""

    peak_live: int
    peak_lines: tuple[int, ...]
    peak_indices: tuple[int, ...]
    requested: int
    allocated: int
    declared: int | None
    #: the called function whose registers set ``requested`` (LLVM counts callees), None when this code does
    set_by: str | None = None


class LineMasks(OnDemand[tuple[int, int, int]]):
    """Per instruction (occupied, defs, uses): live in or out, written, read (unit masks), built on demand
    from the liveness result instead of stored: a 1M-instruction listing would keep a million more sets."""

    __slots__ = ("_defs", "_live_in", "_live_out", "_union", "_uses")

    def __init__(self, live_in: Sequence[int], live_out: Sequence[int], defs: Sequence[int],
                 uses: Sequence[int]) -> None:
        self._live_in, self._live_out, self._defs, self._uses = live_in, live_out, defs, uses
        self._union: int | None = None

    def __len__(self) -> int:
        return len(self._live_in)

    def _item(self, i: int) -> tuple[int, int, int]:
        return self._live_in[i] | self._live_out[i], self._defs[i], self._uses[i]

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        for a, b, d, u in zip(self._live_in, self._live_out, self._defs, self._uses, strict=True):
            yield a | b, d, u

    def __reduce__(self) -> tuple[Any, ...]:
        # the sets themselves (not a tuple of rows): union() is still asked of a copy
        return LineMasks, (self._live_in, self._live_out, self._defs, self._uses)

    def union(self) -> int:
        """Every unit any line occupies, writes or reads."""
        if self._union is None:
            total = 0
            for x in (self._live_in, self._live_out, self._defs, self._uses):
                for m in x:
                    total |= m
            self._union = total
        return self._union


class LineRow(NamedTuple):
    """One instruction's row (a named tuple: a listing has one per instruction, 100k and more).

    Its fields are the keys of the JSON line objects, in order; the two name lists are shared between rows
    (read-only) and are lists so that the JSON document built from them equals the parsed JSON text.
    """

    line: int
    index: int  # type: ignore[assignment]  # the instruction index; shadows tuple.index(), which rows never use
    text: str
    labels: list[str]
    live_vgpr: int
    live_sgpr: int
    live_agpr: int
    live_vgpr_halves: int
    vgpr_half_only: int
    live_special: list[str]
    block: int
    loop_depth: int
    #: the source location of the instruction (None: the input names none)
    source: SourceLoc | None = None


#: the LineRow field holding each file's live count
COUNT_COLUMN = {f: LineRow._fields.index(f"live_{key}") for f, key in FILE_KEYS.items()}


class LineRows(OnDemand[LineRow]):
    """The listing's rows, built on demand from the analysis (each iteration builds them again, one at a
    time): a 1M-instruction kernel would otherwise keep a million rows beside the instructions."""

    __slots__ = ("_block_of", "_depth_of", "_kernel", "_labels", "_liveness", "_pressure", "_specials")

    def __init__(self, result: KernelAnalysis, labels: dict[int, list[str]]) -> None:
        self._kernel, self._liveness, self._pressure = result.kernel, result.liveness, result.pressure
        self._block_of, self._depth_of = result.cfg.block_of, result.cfg.loop_depth
        self._labels = labels
        self._specials: dict[int, list[str]] = {}  # few distinct special sets: names computed once each

    def __len__(self) -> int:
        return len(self._kernel.instructions)

    def _item(self, i: int) -> LineRow:
        return next(self._rows(range(i, i + 1)))

    def __iter__(self) -> Iterator[LineRow]:
        return self._rows(range(len(self)))

    def _rows(self, span: range) -> Iterator[LineRow]:
        make = LineRow._make
        for fields in self._fields(span):
            yield make(fields)

    def _fields(self, span: range) -> Iterator[tuple[Any, ...]]:
        """Each row's values in :class:`LineRow`'s field order (one loop for the rows and the JSON objects)."""
        instructions = self._kernel.instructions
        live_in, live_out = self._liveness.live_in, self._liveness.live_out
        press = self._pressure
        vgpr, sgpr, agpr = press.vgpr.counts, press.sgpr.counts, press.agpr.counts
        halves, half_only = press.vgpr_halves, press.vgpr_half_only
        block_of, depth_of, labels_at, specials = self._block_of, self._depth_of, self._labels, self._specials
        sources = self._kernel.source.locs or (None,) * len(instructions)
        no_labels: list[str] = []
        for i in span:
            ins = instructions[i]
            # the units analysis.pressure.touched counts (live in, live out or written), inlined in this hot loop
            special = (live_in[i] | live_out[i] | ins.defs) & SPECIAL_MASK
            names = specials.get(special)
            if names is None:
                names = specials[special] = list(reg_names(special, RegFile.SPECIAL))
            block = block_of[i]
            yield (ins.line, i, ins.text, labels_at.get(i, no_labels), vgpr[i], sgpr[i], agpr[i], halves[i],
                   half_only[i], names, block, depth_of[block], sources[i])

    def columns(self) -> LineColumns:
        """The listing as the columns the core's JSON line writer takes (:mod:`isalens._core.listing`)."""
        press, instructions = self._pressure, self._kernel.instructions
        return LineColumns(instructions, self._liveness.live_in, self._liveness.live_out,
                           (press.vgpr.counts, press.sgpr.counts, press.agpr.counts, press.vgpr_halves,
                            press.vgpr_half_only), self._block_of, self._depth_of, self._labels,
                           self._kernel.source.locs, SPECIAL_MASK, self._special_names, SourceLoc.to_dict)

    def _special_names(self, special: int) -> list[str]:
        names = self._specials.get(special)
        if names is None:
            names = self._specials[special] = list(reg_names(special, RegFile.SPECIAL))
        return names

    def dicts(self) -> Iterator[dict[str, Any]]:
        """The rows as the JSON line objects (keys: :class:`LineRow`'s fields), made directly: a million
        lines are written without first making a million rows and then a million ``dict(zip(...))``."""
        return listing.line_objects(self.columns(), 0, len(self))

    def json_chunks(self) -> Iterator[bytes]:
        """The JSON text of :meth:`dicts` as UTF-8 bytes, chunks of objects joined by commas, from the running
        core."""
        return _core.line_objects_json(self.columns())


@dataclass(frozen=True, slots=True)
class RangeRow:
    """One register's live range in a report: its file, the lines of its definition and last use, and its span."""

    reg: str
    file: str
    def_line: int
    last_use_line: int
    start_index: int
    end_index: int
    span: int


@dataclass(frozen=True, slots=True)
class RegisterFigures:
    """The register files' sizes on the target and what the kernel asks of them, beyond the per-file summaries."""

    vgpr_granule: int
    #: VGPRs one instruction can name (at most 256, AGPRs apart)
    vgpr_addressable_per_wave: int
    #: VGPRs one wave can be given (512 where VGPRs and AGPRs share the file)
    vgpr_file_size: int
    sgpr_addressable: int
    #: VGPRs requested with the AGPRs (LLVM's TotalNumVgprs: what occupancy counts where the file is shared)
    vgprs_with_agprs: int
    #: SGPRs the compiler reserves beyond those the code names (VCC, XNACK mask, flat scratch)
    extra_sgprs: int
    #: RGA's hint: VGPRs to remove to save one allocation granule (0: already on a boundary)
    vgpr_granule_saving: int
    #: a call's target is unknown: requested/allocated follow LLVM's assumption and may be too low
    requested_lower_bound: bool
    #: (most VGPRs, waves per SIMD) per band of the kernel's occupancy as its VGPRs vary, for threshold lines
    vgpr_thresholds: tuple[tuple[int, float], ...]


@dataclass(frozen=True, slots=True)
class CfgFigures:
    """The control-flow graph's size."""

    blocks: int
    loops: int
    max_loop_depth: int
    unreachable_blocks: int


@dataclass(frozen=True, slots=True)
class OccupancyFigures:
    """Occupancy of the kernel's resources (None: they cannot run on the target), and its assumptions."""

    occupancy: Occupancy | None
    workgroup_assumed: bool
    #: waves per SIMD the workgroup shape alone allows (for the JSON "limits")
    workgroup_limit: int
    #: threads per workgroup the figures are for, and where that size comes from (analysis.occupancy
    #: WORKGROUP_SOURCES)
    workgroup_size: int = 0
    workgroup_from: str = "given"
    #: what a 256-thread launch would give, when the size was only an assumed upper bound
    at_256: Occupancy | None = None


@dataclass(frozen=True, slots=True)
class KernelReport:
    """What a livereg/analyze view shows of one kernel: copies of the pass results, grouped per section."""

    name: str
    arch: str
    wave_size: int
    is_kernel: bool
    instructions: int
    vgpr: FileSummary
    sgpr: FileSummary
    agpr: FileSummary
    registers: RegisterFigures
    cfg: CfgFigures
    occupancy: OccupancyFigures
    lines: Sequence[LineRow]
    longest_lived: tuple[RangeRow, ...]
    peak_live_set: dict[str, tuple[LiveValue, ...]]
    entry: EntryLiveIns
    guessed: int
    declared_raw: tuple[tuple[str, str], ...]
    #: per instruction: (live-in-or-out mask, defs mask, uses mask), unit masks
    masks: LineMasks
    labels: dict[int, tuple[str, ...]]
    #: instructions per class key (``valu.fma.f32``, ``ds.read2st64``, ``smem.load`` ...): the one class table
    classes: dict[str, int]
    #: instruction-level statistics (code bytes, modifiers, constants, LDS), when the stats pass ran
    stats: KernelStats | None
    #: the timing model's result (None when not run, or no timing facts for the target: timing_note says)
    timing: KernelTiming | None
    timing_note: str | None
    #: advice items (docs/advice.md), when the advice pass ran
    advice: KernelAdvice | None
    #: every live range (register name, first index, last index), for interactive views
    ranges: Sequence[tuple[str, int, int]]
    #: live-ins per basic block (analysis/blocks.py), the JSON ``blocks`` key
    block_live_ins: tuple[BlockLiveIn, ...] = ()
    #: live VGPRs per instruction (the listing's ``live_vgpr`` column, kept when the listing is dropped)
    vgpr_counts: tuple[int, ...] = ()
    #: the listing's row at the first VGPR peak (kept when the listing is dropped: the text view names it)
    peak_row: LineRow | None = None
    #: ``lines+variables``, ``lines`` or ``none``: what the input says about the programmer's source
    debug_info: str = "none"
    #: the per-source-line table (analysis/source_lines.py), empty without source lines
    source_lines: tuple[SourceLine, ...] = ()
    #: the source text of each (file, line) of ``source_lines`` where the file was found on disk (the engine
    #: reads the files: engine/source_text.py)
    source_text: dict[tuple[str, int], str] = field(default_factory=dict)
    #: source variables and where they live: (name, ((first line, last line, registers), ...))
    variables: tuple[tuple[str, tuple[tuple[int, int, tuple[str, ...]], ...]], ...] = ()
    #: each loop's source lines (``loops.cl:22-26``) by its header's input line
    loop_sources: dict[int, str] = field(default_factory=dict)

    def without_listing(self) -> KernelReport:
        """This report without its per-instruction rows, masks and statistics lines (the figures, summaries
        and ``vgpr_counts`` stay): what ``compare`` keeps of each variant, so that the analysis behind the
        rows can go before the next file is read."""
        from isalens import records

        stats = None if self.stats is None else records.replace(self.stats, lines=())
        return records.replace(self, lines=(), masks=LineMasks((), (), (), ()), stats=stats)

    def summary(self, file: RegFile) -> FileSummary:
        return {RegFile.VGPR: self.vgpr, RegFile.SGPR: self.sgpr, RegFile.AGPR: self.agpr}[file]


@dataclass(frozen=True, slots=True)
class LiveRegReport:
    """The ``livereg`` report of one input file: its kernels, diagnostics and the compiler's own figures."""

    schema: int
    file: str | None
    dialect: str
    kernels: tuple[KernelReport, ...]
    diagnostics: tuple[Diagnostic, ...]
    #: the compiler's own figures when isalens compiled the input (ACO statistics, LLVM comments)
    compiler_stats: dict[str, str | int]


def variable_table(kernel: Kernel) -> tuple[tuple[str, tuple[tuple[int, int, tuple[str, ...]], ...]], ...]:
    """Each source variable with its ranges: (first input line, last input line, register names)."""
    by_name: dict[str, list[tuple[int, int, tuple[str, ...]]]] = {}
    ins = kernel.instructions
    spelled: dict[int, tuple[str, ...]] = {}  # few distinct register sets: each spelled once
    for v in kernel.source.variables:
        names = spelled.get(v.mask)
        if names is None:
            names = spelled[v.mask] = tuple(n for f in FILES for n in reg_names(v.mask, f))
        by_name.setdefault(v.name, []).append((ins[v.start].line, ins[v.end].line, names))
    return tuple((name, tuple(ranges)) for name, ranges in by_name.items())


_DEFS, _USES = attrgetter("defs"), attrgetter("uses")


def kernel_report(result: KernelAnalysis, *, longest_count: int = 10, timing_requested: bool = False) -> KernelReport:
    """Collect everything a livereg view shows for one analysed kernel (copies of the pass results)."""
    kernel, press, live, graph, arch = result.kernel, result.pressure, result.liveness, result.cfg, result.arch
    labels_at: dict[int, list[str]] = {}
    for name, idx in kernel.labels.items():
        # "@0x1c" labels name objdump addresses; "X" beside "label_X" is RGA's alias of one label
        if not name.startswith("@") and kernel.labels.get(f"label_{name}") != idx:
            labels_at.setdefault(idx, []).append(name)
    ranges = tuple(
        RangeRow(r.reg, FILE_KEYS[r.file], kernel.instructions[r.start].line, kernel.instructions[r.end].line,
                 r.start, r.end, r.span)
        for r in longest(result.ranges, longest_count)
    )
    rows = LineRows(result, labels_at)
    return KernelReport(
        name=kernel.name, arch=arch.name, wave_size=kernel.wave_size, is_kernel=kernel.is_kernel,
        instructions=len(kernel.instructions),
        vgpr=_summary(result, RegFile.VGPR), sgpr=_summary(result, RegFile.SGPR), agpr=_summary(result, RegFile.AGPR),
        registers=_register_figures(result), cfg=CfgFigures(len(graph.blocks), len(graph.loops),
                                                           max(graph.loop_depth, default=0), len(graph.unreachable)),
        occupancy=OccupancyFigures(result.occupancy[0] if result.occupancy else None,
                                   bool(result.occupancy and result.occupancy[1].workgroup_assumed),
                                   result.occupancy[0].limit_lds_workgroup if result.occupancy else 0,
                                   result.occupancy[1].workgroup_size if result.occupancy else 0,
                                   result.occupancy[1].workgroup_from if result.occupancy else "given",
                                   result.occupancy_at_256),
        lines=rows, longest_lived=ranges, peak_live_set=result.peak_live_set, entry=result.entry_live_in,
        guessed=kernel.guessed, declared_raw=kernel.declared.raw,
        masks=LineMasks(live.live_in, live.live_out, list(map(_DEFS, kernel.instructions)),
                        list(map(_USES, kernel.instructions))),
        labels={k: tuple(v) for k, v in labels_at.items()},
        # the statistics pass counted the same classes (a walk over every instruction less per kernel)
        classes=dict(result.stats.classes) if result.stats is not None else
        dict(sorted(Counter(ins.facts.klass for ins in kernel.instructions).items())),
        stats=result.stats,
        timing=result.timing,
        timing_note=None if result.timing is not None or not timing_requested else
        f"no timing facts for {arch.name} ({arch.family}): the model covers gfx8, gfx9, CDNA1-3 and gfx10-gfx12",
        advice=result.advice,
        ranges=_RangeTriples(result.ranges),
        block_live_ins=result.block_live_ins,
        vgpr_counts=press.vgpr.counts,
        peak_row=rows[press.vgpr.peak_indices[0]] if press.vgpr.peak_indices else None,
        debug_info=kernel.source.debug_info,
        source_lines=result.source_lines,
        variables=variable_table(kernel),
        loop_sources=result.loop_sources,
    )


def _summary(result: KernelAnalysis, file: RegFile) -> FileSummary:
    fp, fr = result.pressure.of(file), result.resources.of(file)
    prefix = {RegFile.VGPR: "v", RegFile.SGPR: "s", RegFile.AGPR: "a"}[file]
    set_by = next((fn for f, fn in result.resources.callee_limiters if f == prefix), None)
    return FileSummary(fp.peak, tuple(result.kernel.instructions[i].line for i in fp.peak_indices),
                       fp.peak_indices, fr.requested, fr.allocated, fr.declared, set_by)


def _register_figures(result: KernelAnalysis) -> RegisterFigures:
    arch, res, wave = result.arch, result.resources, result.kernel.wave_size
    return RegisterFigures(
        vgpr_granule=arch.vgpr_granule(wave), vgpr_addressable_per_wave=min(arch.addressable_vgprs, 256),
        vgpr_file_size=arch.addressable_vgprs + (arch.agprs if arch.unified_vgpr_file else 0),
        sgpr_addressable=arch.addressable_sgprs, vgprs_with_agprs=res.total_vgprs, extra_sgprs=res.extra_sgprs,
        vgpr_granule_saving=res.total_vgprs % arch.vgpr_granule(wave) if res.total_vgprs else 0,
        requested_lower_bound=res.lower_bound, vgpr_thresholds=result.vgpr_thresholds)


def livereg_report(results: list[KernelAnalysis], *, file: str | None, dialect: str,
                   diagnostics: tuple[Diagnostic, ...], longest_count: int = 10,
                   compiler_stats: dict[str, str | int] | None = None,
                   timing_requested: bool = False) -> LiveRegReport:
    return LiveRegReport(SCHEMA_VERSION, file, dialect,
                         tuple(kernel_report(r, longest_count=longest_count, timing_requested=timing_requested)
                               for r in results), diagnostics, dict(compiler_stats or {}))


def map_width(report: KernelReport, file: RegFile) -> int:
    """Columns of the register map: every register up to the highest one referenced."""
    return highest_register(report.masks.union(), file) + 1
