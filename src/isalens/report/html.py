"""Self-contained interactive HTML report: one file, works offline, assets inlined from the package.

The page renders only the rows on screen, so 100,000-instruction kernels stay responsive; the data is
embedded once as JSON (lines, live ranges, per-line writes and reads).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from isalens.analysis.stats import KernelStats
from isalens.ir.registers import RegFile, registers_in
from isalens.report.model import KernelReport, LiveRegReport, map_width

_PREFIX = {RegFile.VGPR: "v", RegFile.SGPR: "s", RegFile.AGPR: "a"}


def _asset(name: str) -> str:
    return (resources.files("isalens.report") / "assets" / name).read_text("utf-8")


def _names(mask: int) -> list[str]:
    return [f"{_PREFIX[f]}{r}" for f in (RegFile.VGPR, RegFile.SGPR, RegFile.AGPR) for r in registers_in(mask, f)]


def kernel_data(k: KernelReport) -> dict[str, Any]:
    """The JSON the page reads for one kernel (rows as compact arrays)."""
    occ = k.occupancy
    cards = [
        ["kernel", f"{k.name} ({k.arch}, wave{k.wave_size})"],
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
        "name": k.name,
        "cards": cards,
        "lines": [[r.line, r.text, r.live_vgpr, r.live_sgpr, r.block, r.loop_depth, " ".join(r.labels)]
                  for r in k.lines],
        "defs": [_names(d) or None for _occ, d, _u in k.masks],
        "uses": [_names(u) or None for _occ, _d, u in k.masks],
        "ranges": [list(r) for r in k.ranges],
        "map_width": {"vgpr": map_width(k, RegFile.VGPR), "sgpr": map_width(k, RegFile.SGPR)},
        "peak": {"vgpr": k.vgpr.peak_live, "sgpr": k.sgpr.peak_live},
        "peak_indices": {"vgpr": list(k.vgpr.peak_indices), "sgpr": list(k.sgpr.peak_indices)},
        "thresholds": [list(t) for t in k.vgpr_thresholds if t[1] > 1],
    }


def _stats_cards(stats: KernelStats) -> list[list[str]]:
    top = sorted(stats.classes.items(), key=lambda item: -item[1])[:4]
    exact = "" if stats.code_bytes_exact else " (by encoding rules)"
    return [["code bytes", f"{stats.code_bytes}{exact}"],
            ["top classes", ", ".join(f"{c} {n}" for c, n in top)]]


def render_html(report: LiveRegReport) -> str:
    """The whole page as one string."""
    kernels = [kernel_data(k) for k in report.kernels]
    for kernel, k in zip(kernels, report.kernels, strict=True):
        if k.stats is not None:
            kernel["cards"] += _stats_cards(k.stats)
    data = {"schema": 1, "file": report.file, "kernels": kernels}
    payload = script_json(data)
    title = report.file or "ISA"
    page = _asset("report.html")
    # the JSON goes in last so no placeholder text inside the data is ever replaced
    for key, value in (("{{TITLE}}", _escape(title)), ("{{CSS}}", _asset("report.css")),
                       ("{{JS}}", _asset("report.js"))):
        page = page.replace(key, value)
    return page.replace("{{DATA}}", payload)


def script_json(data: Any) -> str:
    """JSON that is inert inside ``<script type="application/json">``: no input string can end the element
    (``</script>``), open a comment or a nested script (``<!--``, ``<script``: the HTML tokenizer's "double
    escaped" state, which swallows the rest of the page) or break a line in older JavaScript (U+2028/9).

    Every ``<``, ``>`` and ``&`` becomes a JSON escape (WHATWG HTML, "Restrictions for contents of script
    elements"); ``JSON.parse`` turns them back into the same characters.
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
