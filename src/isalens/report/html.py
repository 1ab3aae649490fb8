"""Self-contained interactive HTML report: one file, works offline, assets inlined from the package.

The page renders only the rows on screen, so 100,000-instruction kernels stay responsive; the data is
embedded once as JSON (lines, live ranges, per-line writes and reads).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from typing import IO, Any

import orjson

from isalens.analysis.advice import Advice
from isalens.analysis.stats import KernelStats
from isalens.analysis.timing import KernelTiming
from isalens.ir.registers import RegFile, registers_in
from isalens.names import demangled
from isalens.report.advice import item_dict
from isalens.report.model import KernelReport, LineRow, LiveRegReport, map_width
from isalens.report.serialize import Streamed, write

_PREFIX = {RegFile.VGPR: "v", RegFile.SGPR: "s", RegFile.AGPR: "a"}


def _asset(name: str) -> str:
    return (resources.files("isalens.report") / "assets" / name).read_text("utf-8")


def _names(mask: int) -> list[str]:
    return [f"{_PREFIX[f]}{r}" for f in (RegFile.VGPR, RegFile.SGPR, RegFile.AGPR) for r in registers_in(mask, f)]


def _name_lists(masks: Iterable[int]) -> Streamed:
    """Register names per mask, made while written; masks repeat with the instruction texts, so each distinct
    one is named once and its (read-only) list shared."""
    seen: dict[int, list[str] | None] = {}

    def names(m: int) -> list[str] | None:
        if m in seen:
            return seen[m]
        found = seen[m] = _names(m) or None
        return found
    return Streamed(masks, names)


def _line_row(r: LineRow) -> list[Any]:
    return [r.line, r.text, r.live_vgpr, r.live_sgpr, r.block, r.loop_depth, " ".join(r.labels)]


def kernel_data(k: KernelReport) -> dict[str, Any]:
    """The JSON the page reads for one kernel (rows as compact arrays, per-line ones made while written)."""
    occ = k.occupancy.occupancy
    cards = [
        ["kernel", f"{demangled(k.name)} ({k.arch}, wave{k.wave_size})"],
        ["instructions", str(k.instructions)],
        ["VGPR peak / requested / allocated", f"{k.vgpr.peak_live} / {k.vgpr.requested} / {k.vgpr.allocated}"],
        ["SGPR peak / requested", f"{k.sgpr.peak_live} / {k.sgpr.requested}"],
        ["occupancy (waves/SIMD)", "n/a" if occ is None else
         f"{occ.waves_per_simd:g} of {occ.max_waves_per_simd} (LLVM {occ.llvm_occupancy})"],
        ["limited by", "n/a" if occ is None else ", ".join(occ.limited_by)],
    ]
    if k.agpr.requested:
        cards.insert(4, ["AGPR peak / requested", f"{k.agpr.peak_live} / {k.agpr.requested}"])
    return {
        "name": demangled(k.name),
        "cards": cards,
        "lines": Streamed(k.lines, _line_row),
        "defs": _name_lists(d for _occ, d, _u in k.masks),
        "uses": _name_lists(u for _occ, _d, u in k.masks),
        "ranges": [list(r) for r in k.ranges],
        "map_width": {"vgpr": map_width(k, RegFile.VGPR), "sgpr": map_width(k, RegFile.SGPR)},
        "peak": {"vgpr": k.vgpr.peak_live, "sgpr": k.sgpr.peak_live},
        "peak_indices": {"vgpr": list(k.vgpr.peak_indices), "sgpr": list(k.sgpr.peak_indices)},
        # (most VGPRs, waves per SIMD) per occupancy band, from the model of the text report's occupancy
        "thresholds": [list(t) for t in k.registers.vgpr_thresholds],
        "registers": {"requested": k.vgpr.requested, "allocated": k.vgpr.allocated},
        **_timing_data(k),
        **_advice_data(k),
        **_source_data(k),
    }


def _source_keys(k: KernelReport) -> dict[tuple[str, int], int]:
    """Each (file, line) of the source pane and its row index there (by file and line)."""
    found = sorted({(r.source.file, r.source.line) for r in k.lines if r.source is not None}
                   | {(r.file, r.line) for r in k.source_lines})
    return {key: n for n, key in enumerate(found)}


def _source_data(k: KernelReport) -> dict[str, Any]:
    """The source pane: one row per source line ([file name, line, text, instructions, issue, stall, most live
    VGPRs], by file and line) and, per listing row, the index of its source row (-1: none); the source
    variables' input line ranges (the chart's hover names those live at a line); advice items' and loops'
    source lines as pane rows."""
    if k.debug_info == "none":
        return {}
    keys = _source_keys(k)
    rows: list[list[Any]] = []
    costs = {(r.file, r.line): r for r in k.source_lines}
    for file, line in keys:
        c = costs.get((file, line))
        rows.append([file.rsplit("/", 1)[-1], line, k.source_text.get((file, line), ""),
                     c.instructions if c else 0, c.issue_cycles if c else None, c.stall_cycles if c else None,
                     c.max_live_vgpr if c else 0])
    data: dict[str, Any] = {
        "source": rows, "src_of": Streamed(k.lines, lambda r: -1 if r.source is None
                                           else keys.get((r.source.file, r.source.line), -1))}
    if k.variables:
        data["variables"] = [[name, [[first, last] for first, last, _regs in ranges]] for name, ranges in k.variables]
    if k.advice is not None:
        data["advice_src"] = [[[s.short(), keys.get((s.file, s.line), -1)] for s in a.sources]
                              for a in _ranked(k.advice.items)]
    if k.loop_sources:
        by_name = {(f.rsplit("/", 1)[-1], n): i for (f, n), i in keys.items()}
        data["loop_src"] = {str(line): [span, by_name.get(_span_start(span), -1)]
                            for line, span in k.loop_sources.items()}
    return data


def _span_start(span: str) -> tuple[str, int]:
    """``loops.cl:22-26`` -> (``loops.cl``, 22)."""
    name, _, lines = span.rpartition(":")
    return name, int(lines.split("-", 1)[0])


def _timing_data(k: KernelReport) -> dict[str, Any]:
    """Per-loop rows (header line, depth, cycles per iteration, bottleneck) and per-instruction (issue, stall)."""
    if k.timing is None:
        return {"timing_note": k.timing_note} if k.timing_note else {}
    from isalens.report.timing import timing_dict
    doc = timing_dict(k.timing, stream=True)  # its per-block array is not read here: never made
    loops = [[lp["header_line"], lp["depth"], lp["cycles_per_iteration"], lp["bottleneck"]] for lp in doc["loops"]]
    return {"loops": loops, "cost": Streamed(_cost_rows(k.timing, len(k.lines)), list),
            "timing_kernel": [doc["kernel"].get("cycles_per_iteration"), doc["kernel"].get("bottleneck")]}


def _cost_rows(t: KernelTiming, n: int) -> Iterator[tuple[int, int]]:
    """(issue, stall) cycles of each of the ``n`` lines, 0 for a line no block schedule timed (the timing
    rows come in index order; a dict of a million of them was 150 MB)."""
    rows = iter(t.profile.lines)
    row = next(rows, None)
    for i in range(n):
        if row is not None and row.index == i:
            yield row.issue, row.stall
            row = next(rows, None)
        else:
            yield 0, 0


def _ranked(items: Iterable[Advice]) -> list[Advice]:
    """Advice by gain, largest first (items of equal gain in the detectors' order)."""
    return sorted(items, key=lambda a: -a.gain)


def _advice_data(k: KernelReport) -> dict[str, Any]:
    """Advice items ranked by gain as [kind, message, evidence lines, effect [[figure, before, after]...],
    gain {figure, relative} or null] (the advice JSON's figures), or why there is none."""
    if k.advice is None:
        return {}
    rows = []
    for a in _ranked(k.advice.items):
        doc = item_dict(a)
        rows.append([a.kind, a.message, list(a.lines), [[f, *ba] for f, ba in doc["effect"].items()], doc["gain"]])
    return {"advice": rows, "advice_refused": k.advice.refused}


def _stats_cards(stats: KernelStats) -> list[list[str]]:
    top = sorted(stats.classes.items(), key=lambda item: -item[1])[:4]
    exact = "" if stats.code_bytes_exact else " (by encoding rules)"
    return [["code bytes", f"{stats.code_bytes}{exact}"],
            ["top classes", ", ".join(f"{c} {n}" for c, n in top)]]


def render_html(report: LiveRegReport) -> str:
    """The whole page as one string."""
    out = io.StringIO()
    write_html(report, out)
    return out.getvalue()


def write_html(report: LiveRegReport, out: IO[str]) -> None:
    """Write the page to ``out``, its data as it is made: a 1M-instruction kernel's page is hundreds of MB,
    which is never held as one string (nor as a list per line)."""
    kernels = [kernel_data(k) for k in report.kernels]
    for kernel, k in zip(kernels, report.kernels, strict=True):
        if k.stats is not None:
            kernel["cards"] += _stats_cards(k.stats)
    data = {"schema": 1, "file": report.file, "kernels": kernels}
    title = report.file or "ISA"
    page = _asset("report.html")
    # the JSON goes in last so no placeholder text inside the data is ever replaced
    for key, value in (("{{TITLE}}", _escape(title)), ("{{CSS}}", _asset("report.css")),
                       ("{{JS}}", _asset("report.js"))):
        page = page.replace(key, value)
    head, tail = page.split("{{DATA}}", 1)
    out.write(head)
    write(data, _ScriptEscaping(out.write), end="")
    out.write(tail)


class _ScriptEscaping:
    """A text sink that applies :func:`script_json`'s escapes to every piece (each escaped character is one
    character, and no escape contains one, so escaping piece by piece equals escaping the whole)."""

    def __init__(self, sink: Callable[[str], object]) -> None:
        self._sink = sink

    def write(self, text: str) -> int:
        self._sink(_script_escape(text))
        return len(text)


def script_json(data: Any) -> str:
    """JSON that is inert inside ``<script type="application/json">``: no input string can end the element
    (``</script>``), open a comment or a nested script (``<!--``, ``<script``: the HTML tokenizer's "double
    escaped" state, which swallows the rest of the page) or break a line in older JavaScript (U+2028/9).

    Every ``<``, ``>`` and ``&`` becomes a JSON escape (WHATWG HTML, "Restrictions for contents of script
    elements"); ``JSON.parse`` turns them back into the same characters.
    """
    return _script_escape(orjson.dumps(data).decode("utf-8"))  # compact; non-ASCII stays UTF-8 (the page is)


def _script_escape(text: str) -> str:
    for char, escape in _SCRIPT_ESCAPES:
        if char in text:
            text = text.replace(char, escape)
    return text


#: characters escaped in embedded JSON (see script_json), as JSON escapes JSON.parse reads back
_SCRIPT_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                   ("\u2029", "\\u2029"))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
