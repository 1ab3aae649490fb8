"""Readable terminal view of the livereg report."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping

from isalens.analysis.source_lines import SourceLine
from isalens.ir.registers import RegFile
from isalens.ir.source import SourceLoc
from isalens.names import demangled
from isalens.report.diagnostics import diagnostic_lines
from isalens.report.model import COUNT_COLUMN, FILE_KEYS, FileSummary, KernelReport, LiveRegReport, map_width
from isalens.report.occupancy import at_typical_launch_line, render_occupancy_text, workgroup_note
from isalens.report.regmap import register_map

_BOLD = "\033[1m"
_RED = "\033[31m"
_DIM = "\033[2m"
_RESET = "\033[0m"


class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, *codes: str) -> str:
        if not self.color or not codes:
            return text
        return "".join(codes) + text + _RESET


def _summary_line(name: str, s: FileSummary) -> str:
    declared = "-" if s.declared is None else str(s.declared)
    lines = ", ".join(str(x) for x in s.peak_lines[:8]) + (" ..." if len(s.peak_lines) > 8 else "")
    where = f" at line {lines}" if s.peak_lines else ""
    set_by = f" (set by callee {s.set_by})" if s.set_by else ""
    return (f"  {name:5s} peak live {s.peak_live:4d}{where}\n"
            f"        requested {s.requested:4d}{set_by}   allocated {s.allocated:4d}   "
            f"declared by compiler {declared}")


def _source_label(k: KernelReport, loc: SourceLoc) -> str:
    text = k.source_text.get((loc.file, loc.line))
    return f"{loc.short()}" + (f": {text.strip()}" if text else "")


def peak_holders(k: KernelReport) -> str:
    """The VGPRs live at the first peak in source terms: each variable with its register count, then the
    temporaries (registers holding no named variable) by the source line that wrote them."""
    values = k.peak_live_set.get("vgpr", ())
    if k.debug_info == "none" or not values:
        return ""
    named: dict[str, int] = {}
    temporaries: dict[str, int] = {}
    for v in values:
        for name in v.variables:
            named[name] = named.get(name, 0) + 1
        if not v.variables:
            where = v.def_sources[0].short() if v.def_sources else "kernel entry"
            temporaries[where] = temporaries.get(where, 0) + 1
    parts = [f"{name}: {n} VGPR{'s' if n != 1 else ''}" for name, n in sorted(named.items(), key=lambda x: -x[1])]
    parts += [f"{n} temporar{'ies' if n != 1 else 'y'} of {where}"
              for where, n in sorted(temporaries.items(), key=lambda x: -x[1])]
    return "; ".join(parts)


def _n(count: int, word: str) -> str:
    """``count`` and ``word``, plural but for one: "1 loop", "3 loops"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def source_table(k: KernelReport, limit: int | None) -> Iterator[str]:
    """The per-source-line table, costliest first (issue cycles where the timing model ran, else instructions)."""
    rows = sorted(k.source_lines, key=lambda r: (-(r.issue_cycles if r.issue_cycles is not None else 0),
                                                 -r.instructions, r.first_index))
    shown = rows if limit is None else rows[:limit]
    more = f", {len(rows) - len(shown)} more with --by-source" if len(shown) < len(rows) else ""
    yield (f"source lines by cost  ({_n(len(rows), 'line')}{more}; issue/stall cycles: one execution of each "
           "instruction, before trip counts)")
    wheres = [f"{r.file.rsplit('/', 1)[-1]}:{r.line}" for r in shown]
    w = max([18, *map(len, wheres)])  # a header's name (amd_device_functions.h:891) widens the column
    yield f"  {'line':>{w}} {'instr':>5} {'bytes':>6} {'issue':>6} {'stall':>6} {'vgpr':>4} {'lds':>4} {'glob':>4} " \
          f"{'spill':>5}  source"
    for r, where in zip(shown, wheres, strict=True):
        issue = "-" if r.issue_cycles is None else str(r.issue_cycles)
        stall = "-" if r.stall_cycles is None else str(r.stall_cycles)
        text = (k.source_text.get((r.file, r.line)) or "").strip()
        yield (f"  {where:>{w}} {r.instructions:5d} {r.code_bytes:6d} {issue:>6} {stall:>6} {r.max_live_vgpr:4d} "
               f"{r.lds_ops:4d} {r.global_ops:4d} {r.spill_ops:5d}  {text}")


def _chain_text(chain: tuple[SourceLoc, ...]) -> str:
    return " <- ".join(c.short() for c in chain)


def function_table(k: KernelReport) -> Iterator[str]:
    """The source lines grouped by the function their code belongs to (a binary's DWARF says which, and where
    each inlined helper was called from), each group's lines in source order."""
    groups: dict[str, list[SourceLine]] = {}
    for r in k.source_lines:
        groups.setdefault(r.function or "?", []).append(r)
    yield "source lines by function  (inlined helpers: where they were called from, innermost call first)"
    w = max([18, *(len(f"{r.file.rsplit('/', 1)[-1]}:{r.line}") for r in k.source_lines)])
    for function, rows in sorted(groups.items(), key=lambda g: -sum(r.issue_cycles or r.instructions
                                                                     for r in g[1])):
        chains = list(dict.fromkeys(c for r in rows for c in r.call_chains if c))
        issue = sum(r.issue_cycles or 0 for r in rows)
        called = f"  inlined at {'; '.join(_chain_text(c) for c in chains)}" if chains else ""
        yield (f"  {function}: {_n(len(rows), 'line')}, {_n(sum(r.instructions for r in rows), 'instruction')}, "
               f"{sum(r.code_bytes for r in rows)} bytes, {issue} issue cycles{called}")
        for r in sorted(rows, key=lambda r: (r.file, r.line)):
            text = (k.source_text.get((r.file, r.line)) or "").strip()
            where = f"{r.file.rsplit('/', 1)[-1]}:{r.line}"
            yield f"    {where:>{w}} {r.instructions:5d} {r.code_bytes:6d}  {text}"


def kernel_lines(k: KernelReport, file: RegFile, *, color: bool, listing: bool = True, source: bool = False,
                 by_source: bool = False) -> Iterator[str]:
    """The lines of one kernel's view, made one at a time (a listing may have a million); ``source``
    interleaves the source lines with their instructions, ``by_source`` lists every source line's cost."""
    style = _Style(color)
    kind = "kernel" if k.is_kernel else "function"
    readable = demangled(k.name)
    title = readable if readable == k.name else f"{readable}  [{k.name}]"
    yield (style(f"{kind} {title}", _BOLD) + f"  ({k.arch}, wave{k.wave_size}, {_n(k.instructions, 'instruction')}, "
           f"{_n(k.cfg.blocks, 'block')}, {_n(k.cfg.loops, 'loop')})")
    if listing:
        width = map_width(k, file)
        summary = k.summary(file)
        peak = set(summary.peak_indices)
        half_col = file is RegFile.VGPR
        halves_head = f" {'halves':>6} |" if half_col else ""
        header = f"{'line':>6} | {'live':>4} |{halves_head} {'':{width}} | instruction"
        yield style(header, _DIM)
        column = COUNT_COLUMN[file]
        memo: dict[tuple[int, int] | int, int] = {}
        half_cells: dict[int, str] = {}
        last_loc: tuple[str, int] | None = None
        for row, (occupied, defs, uses) in zip(k.lines, k.masks, strict=True):
            if source and row.source is not None and (row.source.file, row.source.line) != last_loc:
                last_loc = (row.source.file, row.source.line)
                yield style(f"{'':>6} ; {_source_label(k, row.source)}", _DIM)
            for label in row.labels:
                yield style(f"{'':>6} | {'':>4} |" + (f" {'':>6} |" if half_col else "")
                            + f" {'':{width}} | {label}:", _DIM)
            count = row[column]
            cells = register_map(occupied, defs, uses, file, width, memo)
            halves = ""
            if half_col:  # a few hundred distinct counts in 100k lines: each formatted once
                halves = half_cells.get(row.live_vgpr_halves) or half_cells.setdefault(
                    row.live_vgpr_halves, f" {row.live_vgpr_halves / 2:6.1f} |")
            mark = "*" if row.index in peak else " "
            text = f"{row.line:6d} |{mark}{count:4d} |{halves} {cells} | {row.text}"
            yield style(text, _BOLD, _RED) if row.index in peak else text
        yield ""
    yield from _register_lines(k, style)
    peak_row = k.peak_row
    if peak_row is not None:
        yield (f"  at the VGPR peak (line {peak_row.line}): {peak_row.live_vgpr_halves / 2:.1f} VGPRs of data in "
               f"16-bit halves; {peak_row.vgpr_half_only} VGPRs hold one live half (the other is wasted)")
        if peak_row.source is not None:
            yield f"  the VGPR peak is in source line {_source_label(k, peak_row.source)}"
        holders = peak_holders(k)
        if holders:
            yield f"  held there: {holders}"
    key = FILE_KEYS[file]
    values = k.peak_live_set.get(key, ())
    if values:
        yield ""
        yield style(f"live {key.upper()}s at the first peak", _BOLD) + "  (register: written at -> next read at)"
        for v in values:
            written = ", ".join(str(x) for x in v.def_lines) or "kernel entry"
            read = ", ".join(str(x) for x in v.next_use_lines) or "-"
            yield f"  {v.reg:>5}: line {written} -> {read}"
    if k.source_lines:
        yield ""
        yield from source_table(k, None if by_source else 10)
        if by_source and any(r.function for r in k.source_lines):
            yield ""
            yield from function_table(k)
    elif by_source or source:  # asked for: say why nothing of the source is shown
        yield ""
        yield ("source lines: the input carries none (compile with -gline-tables-only or -g; a listing of "
               "llvm-objdump needs -l: -S alone prints the source text without its file and line; see "
               "docs/source.md)")
    if k.classes:
        yield ""
        by_count = sorted(k.classes.items(), key=lambda item: -item[1])
        yield style("instructions by class", _BOLD) + "  " + ", ".join(f"{c} {n}" for c, n in by_count)
    if k.longest_lived:
        yield ""
        yield style("longest live ranges", _BOLD) + "  (instructions from write to last read)"
        for r in k.longest_lived:
            yield f"  {r.reg:>5}: {r.span:6d} {'instruction, ' if r.span == 1 else 'instructions,'} line " \
                  f"{r.def_line} -> {r.last_use_line}"
    entry = [n for f in ("vgpr", "sgpr") for n in k.entry.names.get(f, ())]
    if entry:
        yield ""
        yield f"live at entry (hardware-initialised or read before written): {', '.join(entry)}"
    if k.entry.unexpected:
        reads = ", ".join(f"{name} (line {line})" if line else name
                          for name, line in zip(k.entry.unexpected, k.entry.unexpected_lines, strict=True))
        yield style(f"  read before written and not initialised by hardware: {reads}", _RED)
    if k.guessed:
        yield style(f"  {k.guessed} unknown instruction(s) were treated positionally: figures may be wrong",
                    _RED)


def _register_lines(k: KernelReport, style: _Style) -> Iterator[str]:
    """The register files' figures and the occupancy they allow."""
    yield style("registers", _BOLD) + "  (live counts follow RGA: live in, live out or written)"
    yield _summary_line("VGPR", k.vgpr)
    if k.agpr.requested or k.agpr.declared:
        yield _summary_line("AGPR", k.agpr)
    yield _summary_line("SGPR", k.sgpr)
    if k.registers.requested_lower_bound:
        yield style("        requested figures are a lower bound: a call's target is unknown (see the warning)",
                    _RED)
    regs = k.registers
    yield (f"        (SGPR requested includes {regs.extra_sgprs} reserved by the compiler: VCC/XNACK/flat scratch;"
           " VCC, EXEC, SCC and M0 are tracked separately)")
    saving = (f"; reduce by {regs.vgpr_granule_saving} to save a granule of {regs.vgpr_granule}"
              if regs.vgpr_granule_saving else "")
    yield (f"        {regs.vgprs_with_agprs} VGPRs used, {k.vgpr.allocated} allocated out of {regs.vgpr_file_size}"
           f"{saving}")
    if k.occupancy.occupancy is not None:
        yield ""
        yield render_occupancy_text(k.occupancy.occupancy, title=style("occupancy", _BOLD)
                                    + workgroup_note(k.occupancy)).rstrip("\n")
        if k.occupancy.at_256 is not None:
            yield at_typical_launch_line(k.occupancy.at_256)


def render_kernel(k: KernelReport, file: RegFile, *, color: bool, listing: bool = True) -> str:
    return "\n".join(kernel_lines(k, file, color=color, listing=listing))


def compiler_stats_lines(stats: Mapping[str, object], kernels: Collection[str]) -> list[str]:
    """The compiler's own figures: one line, or one per kernel where they are named ``kernel/key`` (LLVM's
    metadata of a many-kernel file: 25 figures per kernel on one line was unreadable), only for the ``kernels``
    shown (``--kernel`` picks some)."""
    by_kernel: dict[str, list[str]] = {}
    for key, value in stats.items():
        kernel, slash, name = key.rpartition("/")
        if not slash or kernel in kernels:
            by_kernel.setdefault(kernel, []).append(f"{name} {value}")
    if list(by_kernel) == [""]:
        return ["compiler's own figures: " + ", ".join(by_kernel[""])]
    return ["compiler's own figures:"] + [f"  {kernel + ': ' if kernel else ''}" + ", ".join(items)
                                         for kernel, items in by_kernel.items()]


def text_chunks(report: LiveRegReport, file: RegFile = RegFile.VGPR, *, color: bool = False,
                listing: bool = True, source: bool = False, by_source: bool = False,
                verbose: bool = False) -> Iterator[str]:
    """:func:`render_text` in pieces, for writing as they are made (``verbose``: every diagnostic, not one line
    per distinct message)."""
    parts: list[Iterable[str]] = [kernel_lines(k, file, color=color, listing=listing, source=source,
                                               by_source=by_source) for k in report.kernels]
    if report.compiler_stats:
        parts.append(compiler_stats_lines(report.compiler_stats, {k.name for k in report.kernels}))
    if report.diagnostics:
        parts.append(diagnostic_lines(report.diagnostics, verbose=verbose))
    for n, lines in enumerate(parts):
        if n:
            yield "\n\n"
        sep = ""
        for line in lines:
            yield sep + line
            sep = "\n"
    yield "\n"


def render_text(report: LiveRegReport, file: RegFile = RegFile.VGPR, *, color: bool = False,
                listing: bool = True, source: bool = False, by_source: bool = False, verbose: bool = False) -> str:
    return "".join(text_chunks(report, file, color=color, listing=listing, source=source, by_source=by_source,
                               verbose=verbose))
