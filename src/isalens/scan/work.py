"""One unit -> its rows. The same function runs in the local process pool and on Dask workers, so it takes
and returns only plain, picklable values and never raises for bad input (that becomes an error row)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from isalens import __version__
from isalens.engine import report_of
from isalens.engine.binary import load_code_object, read_all, select_kernels
from isalens.engine.code_listing import CodeReading
from isalens.engine.load import LoadedModule, load, with_launch_size
from isalens.engine.sources import load_source
from isalens.errors import IsalensError
from isalens.names import name_matches
from isalens.report.json import render_json
from isalens.scan.rows import error_row, rows_from_kernels
from isalens.scan.split import analysis_passes
from isalens.scan.units import Unit

if TYPE_CHECKING:
    from isalens.binary.codeobject import CodeObject

__all__ = ["ROWLESS_PASSES", "ScanOptions", "analyze_document", "analyze_rows", "preload", "run_unit", "run_unit_on"]


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """What applies to every unit: target and kernel choice, the target of text without one, source flags."""

    target: str | None = None
    kernel: str | None = None
    arch: str | None = None
    ignore_unknown: bool = False
    #: ``ours`` or ``llvm`` (isalens.engine.code_listing)
    disassembler: str = "ours"
    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    opt: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    #: the launch's workgroup size (``--wg``), for occupancy where the code requires none
    workgroup: tuple[int, int, int] | None = None


#: the analysis passes whose results reach only lists a row leaves out (scan.rows: longest_lived, peak_live_set,
#: blocks, source_lines; loop names reach only the HTML view): not run for a scan (about a tenth of its CPU time
#: on librocsparse's gfx1030 code objects, docs/performance.md); and the statistics' lists rows skip (stats.blocks,
#: stats.modifiers ...: analysis.pipeline.STATS_LISTS) and the timing pass's (the heaviest lines per loop, the
#: blocks' critical paths: analysis.pipeline.TIMING_LINES), lists a row does not hold either
ROWLESS_PASSES = ("ranges", "peak_live_set", "block_live_ins", "source_lines", "loop_sources", "stats_lists",
                  "timing_lines")


def analyze_document(module: LoadedModule, compiler_stats: dict[str, str | int] | None = None, *,
                     workgroup: tuple[int, int, int] | None = None,
                     leave_out: tuple[str, ...] = ROWLESS_PASSES) -> dict[str, Any]:
    """The ``analyze --json`` document of ``module`` as rows need it (the same passes as ``analyze`` but
    ``leave_out``, whose lists are empty; per-line listings left out; advice, which is prose, too: a scan row
    holds figures); ``workgroup``: the launch size (``--wg``)."""
    if workgroup is not None:
        module = with_launch_size(module, workgroup)
    report = report_of(module, module.kernels, compiler_stats or {}, extra=("stats", "timing"),
                       leave_out=leave_out)
    # through JSON text, so a row holds exactly the values ``analyze --json`` prints (keys as strings)
    doc: dict[str, Any] = orjson.loads(render_json(report, lines=False))
    return doc


def analyze_rows(module: LoadedModule, compiler_stats: dict[str, str | int] | None = None, *,
                 workgroup: tuple[int, int, int] | None = None, kernel: str | None = None,
                 **identity: Any) -> list[dict[str, Any]]:
    """``rows_from_document(analyze_document(module, ...), **identity)`` (only the kernels matching ``kernel``,
    when given), made from the report's kernel objects without writing the document as JSON text and parsing
    it back (scan.rows.rows_from_kernels): the same rows."""
    if workgroup is not None:
        module = with_launch_size(module, workgroup)
    report = report_of(module, module.kernels, compiler_stats or {}, extra=("stats", "timing"),
                       leave_out=ROWLESS_PASSES)
    kernels = report.kernels if not kernel else [k for k in report.kernels if name_matches(kernel, k.name)]
    return rows_from_kernels(kernels, **identity)


def _identity(unit: Unit, target: str | None) -> dict[str, Any]:
    if target is None and unit.triple and "--" in unit.triple:
        # a code object that could not be read still has its bundle entry's target: hipv4-amdgcn-amd-amdhsa--gfx90a
        target = unit.triple.rsplit("--", 1)[-1] or None
    return {"file": unit.file, "source": unit.source, "target": target, "content_hash": unit.content_hash,
            "isalens_version": __version__}


#: the code objects a worker parsed last, by content hash: the units of one code object tend to come to the same
#: worker one after another (its metadata and symbols are read once, not once per unit)
_PARSED: dict[str, CodeObject] = {}
_PARSED_KEEP = 2


def _parsed(unit: Unit, read: Callable[..., CodeObject]) -> CodeObject:
    co = _PARSED.get(unit.content_hash)
    if co is None or co.source != unit.source:
        assert unit.data is not None
        co = read(unit.data, file=unit.file, source=unit.source)
        while len(_PARSED) >= _PARSED_KEEP:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[unit.content_hash] = co
    return co


_LISTINGS: dict[tuple[str, str, str], CodeReading] = {}

#: whether a row holds anything the DWARF inlining entries decide: no, they reach only the ``source_lines`` list
#: of the document (each line's function and call chain), which rows leave out (scan.rows); reading them was a
#: third of a scan of librocsparse's -g code objects (pyelftools' DIE parsing, attaching them per kernel). The
#: variables stay: a kernel's ``debug_info`` column says whether any covers it.
#: tests/oracle/test_scan.py checks a -g build's rows equal those of the whole analyze document. The same holds
#: of the per-instruction source lines (``load_code_object(locations=False)``): a row shows only ``debug_info``
_ROWS_SHOW_INLINES = False


def _listing(unit: Unit, co: CodeObject, disassembler: str) -> CodeReading:
    key = (unit.content_hash, unit.source, disassembler)
    reading = _LISTINGS.get(key)
    if reading is None:
        _LISTINGS.clear()  # one: a listing is megabytes of text (or drafts)
        reading = _LISTINGS[key] = read_all(co, unit.file, disassembler)
    return reading


def _code_object_rows(unit: Unit, options: ScanOptions) -> list[dict[str, Any]]:
    from isalens.binary.codeobject import read_code_object
    from isalens.frontends.objdump import DisassemblyUnsupported, check_disassemblable
    from isalens.isa.amdgcn.decoder.tables import family_of

    assert unit.data is not None
    co = _parsed(unit, read_code_object)
    if options.target and co.processor != options.target.split(":", 1)[0]:
        return []
    identity = _identity(unit, co.target)
    symbols = select_kernels(co, options.kernel) if unit.kernels is None else list(unit.kernels)
    try:
        # our decoder reads targets LLVM 19 does not know (gfx1150-gfx1153 from their own table): ask LLVM's
        # opinion only where llvm-objdump is the disassembler, or the one our decoder would fall back to
        if options.disassembler != "ours" or family_of(co.processor) is None:
            check_disassemblable(co.processor, file=unit.file, source=unit.source)
    except DisassemblyUnsupported as exc:
        # what the code object says is still worth a row per kernel
        by_symbol = {k.symbol: k for k in co.kernels}
        return [{**error_row(exc.message, exc.code, kernel=by_symbol[s].name, line=exc.line, **identity),
                 **{f"declared_{key}": value for key, value in by_symbol[s].summary().items() if key != "name"}}
                for s in symbols]
    def each_failed(exc: IsalensError) -> list[dict[str, Any]]:  # llvm-objdump itself failed
        return [error_row(exc.message, exc.code, kernel=symbol, line=exc.line, **identity) for symbol in symbols]

    # all at once: one llvm-objdump run (no symbol list, which for hundreds of long C++ names could pass the
    # kernel's limit on one argument; with --kernel, its symbols, numbered as `livereg --kernel` numbers them);
    # rows_from_document keeps only kernels. A unit of some kernels cuts them from the whole listing, kept for
    # the code object's next unit: their lines keep the numbers they have in it (peak lines), as if unsplit
    whole: CodeReading | None = None
    try:
        if options.kernel is None:
            whole = _listing(unit, co, options.disassembler)
    except IsalensError as exc:
        return each_failed(exc)
    try:
        chosen = None if options.kernel is None and unit.kernels is None else symbols
        # a unit's kernels in passes of a bounded size (scan.split.analysis_passes): one pass's instructions and
        # analyses are let go before the next is built, while the listing and the DWARF serve them all
        passes: list[list[str] | None] = [None] if chosen is None else [*analysis_passes(co.functions, chosen)]
        rows: list[dict[str, Any]] = []
        for part in passes:
            module = load_code_object(co, file=unit.file, symbols=part, ignore_unknown=options.ignore_unknown,
                                      disassembly=whole, disassembler=options.disassembler,
                                      inlines=_ROWS_SHOW_INLINES, locations=_ROWS_SHOW_INLINES)
            rows += analyze_rows(module, workgroup=options.workgroup, **identity)
            del module
        return rows
    except IsalensError:
        pass
    try:
        whole = whole or read_all(co, unit.file, options.disassembler)
    except IsalensError as exc:
        return each_failed(exc)
    # one kernel spoils the code object: analyse them one by one, so only that one becomes an error row (cut
    # from the one disassembly: metadata may list thousands of kernels, and a process each took minutes)
    rows = []
    for symbol in symbols:
        try:
            module = load_code_object(co, file=unit.file, symbols=[symbol], ignore_unknown=options.ignore_unknown,
                                      disassembly=whole, inlines=_ROWS_SHOW_INLINES,
                                      locations=_ROWS_SHOW_INLINES)
            rows += analyze_rows(module, workgroup=options.workgroup, **identity)
        except IsalensError as exc:
            rows.append(error_row(exc.message, exc.code, kernel=symbol, line=exc.line, **identity))
    return rows


def _rows(unit: Unit, options: ScanOptions) -> list[dict[str, Any]]:
    if unit.kind == "error":
        assert unit.error is not None
        return [error_row(unit.error[0], unit.error[1], **_identity(unit, None))]
    if unit.kind == "code-object":
        return _code_object_rows(unit, options)
    if unit.kind == "source":
        module, stats = load_source(Path(unit.file), options.arch, defines=options.defines,
                                    include_dirs=options.include_dirs, opt=options.opt,
                                    ignore_unknown=options.ignore_unknown)
        return analyze_rows(module, stats, workgroup=options.workgroup, kernel=options.kernel,
                            **_identity(unit, module.arch.name))
    else:
        assert unit.data is not None
        try:
            text = unit.data.decode("utf-8")
        except UnicodeDecodeError:
            raise IsalensError("not UTF-8 text: expected ISA text", file=unit.file, code="binary") from None
        module = load(text, options.arch, ignore_unknown=options.ignore_unknown)
        return analyze_rows(module, workgroup=options.workgroup, kernel=options.kernel,
                            **_identity(unit, module.arch.name))


def run_unit(unit: Unit, options: ScanOptions) -> list[dict[str, Any]]:
    """The rows of ``unit``: one per kernel, or error rows; never raises for bad input."""
    try:
        return _rows(unit, options)
    except IsalensError as exc:
        return _failed(unit, exc.message, exc.code, exc.line)
    except Exception as exc:  # a bug must not stop a scan of 80,000 kernels: it is recorded like bad input
        return _failed(unit, f"internal error: {type(exc).__name__}: {exc}", "internal")


def _failed(unit: Unit, message: str, code: str, line: int | None = None) -> list[dict[str, Any]]:
    """The error rows of a unit that failed as a whole: one per kernel when it names its kernels (a row without
    a kernel would mark every kernel of the code object as done for a resumed scan)."""
    identity = _identity(unit, None)
    if unit.kernels:
        return [error_row(message, code, kernel=k, line=line, **identity) for k in unit.kernels]
    return [error_row(message, code, line=line, **identity)]


#: modules a unit imports on first use
_FIRST_USE = ("isalens.analysis.stats", "isalens.analysis.timing", "isalens.binary.dwarf_lines",
              "isalens.binary.dwarf_variables", "isalens.binary.sections", "isalens.report.timing")


def preload(unit: Unit | None = None) -> None:
    """Import what :func:`run_unit` imports on first use (the optional passes, the DWARF readers, the
    demangler) and load the tables of ``unit``'s target (its opcode and timing tables): a process pool forks
    its workers after this, so each starts with them instead of importing and reading them again (about half
    a second of CPU per worker, docs/performance.md). Never raises: a failure here is met again, and
    reported, where the unit runs."""
    try:
        import importlib

        from isalens.names import demangled

        for name in _FIRST_USE:
            importlib.import_module(name)

        demangled("_Z1fv")  # imports the demangler
        target = unit.triple.rsplit("--", 1)[-1].split(":", 1)[0] if unit and unit.triple else None
        if target:
            from isalens.arch.timing import timing_family, timing_table
            from isalens.engine.target import resolve_arch
            from isalens.isa.amdgcn.decoder.tables import family_of, opcode_table

            table_family = family_of(target)
            if table_family is not None:
                opcode_table(table_family)
            family = timing_family(resolve_arch(target))
            if family is not None:
                timing_table(family)
    except Exception:  # only a head start: the unit's own run reports what fails
        pass


def run_unit_on(unit: Unit, data: bytes, options: ScanOptions) -> list[dict[str, Any]]:
    """:func:`run_unit` of ``unit`` with its bytes given apart (a Dask engine sends a code object's bytes to the
    cluster once for all the units of its kernels)."""
    return run_unit(dataclasses.replace(unit, data=data), options)
