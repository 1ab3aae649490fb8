"""The inline view of an analysis in a notebook (``_repr_html_``): a summary table per file and, per kernel, its
live VGPRs per instruction as a small SVG chart with axes, the requested and allocated VGPR lines."""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["analysis_html"]

_W, _H, _LEFT, _BOTTOM = 640, 160, 44, 24


def _chart(kernel: dict[str, Any]) -> str:
    live = [line["live_vgpr"] for line in kernel.get("lines", ())]
    if not live:
        return ""
    vgpr = kernel["vgpr"]
    top = float(max([*live, vgpr["requested"], vgpr["allocated"], 1]))
    n = len(live)
    step = max(1, n // 1000)  # at most ~1000 points: a notebook cell stays small

    def x(i: int) -> float:
        return _LEFT + (_W - _LEFT - 8) * (i / max(n - 1, 1))

    def y(v: float) -> float:
        return 8 + (_H - _BOTTOM - 8) * (1 - v / top)

    points = " ".join(f"{x(i):.1f},{y(live[i]):.1f}" for i in range(0, n, step))
    parts = [f'<svg width="{_W}" height="{_H}" xmlns="http://www.w3.org/2000/svg" role="img" '
             f'aria-label="live VGPRs per instruction">',
             f'<line x1="{_LEFT}" y1="{y(0):.1f}" x2="{_W - 8}" y2="{y(0):.1f}" stroke="#555"/>',
             f'<line x1="{_LEFT}" y1="8" x2="{_LEFT}" y2="{y(0):.1f}" stroke="#555"/>',
             f'<text x="{_LEFT - 4}" y="{y(top) + 4:.1f}" text-anchor="end" font-size="10">{top:g}</text>',
             f'<text x="{_LEFT - 4}" y="{y(0):.1f}" text-anchor="end" font-size="10">0</text>',
             f'<text x="{_W - 8}" y="{_H - 6}" text-anchor="end" font-size="10">instruction {n - 1}</text>',
             f'<text x="{_LEFT}" y="{_H - 6}" font-size="10">0</text>']
    for value, label, colour in ((vgpr["requested"], "requested", "#dc2626"),
                                 (vgpr["allocated"], "allocated", "#16a34a")):
        parts.append(f'<line x1="{_LEFT}" y1="{y(value):.1f}" x2="{_W - 8}" y2="{y(value):.1f}" '
                     f'stroke="{colour}" stroke-dasharray="4 3"><title>{label} {value}</title></line>')
    parts.append(f'<polyline points="{points}" fill="none" stroke="#2563eb"/></svg>')
    return "".join(parts)


def analysis_html(doc: dict[str, Any]) -> str:
    """HTML for a notebook cell: per file a table of its kernels' key figures, per kernel its pressure chart."""
    out = ['<div class="isalens">']
    for entry in doc["files"]:
        out.append(f"<h4>{escape(str(entry['file']))}</h4>")
        if entry.get("error"):
            out.append(f"<p>error: {escape(entry['error']['message'])}</p>")
            continue
        out.append("<table><tr><th>kernel</th><th>arch</th><th>instructions</th><th>VGPR peak</th>"
                   "<th>requested</th><th>allocated</th><th>waves per SIMD</th></tr>")
        for k in entry["kernels"]:
            occ = k.get("occupancy")
            waves = "-" if not occ or "waves_per_simd" not in occ else f"{occ['waves_per_simd']:g}"
            vgpr = k.get("vgpr", {})
            out.append(f"<tr><td>{escape(str(k['name']))}</td><td>{escape(str(k.get('arch')))}</td>"
                       f"<td>{k.get('instructions', '-')}</td><td>{vgpr.get('peak_live', '-')}</td>"
                       f"<td>{vgpr.get('requested', '-')}</td><td>{vgpr.get('allocated', '-')}</td>"
                       f"<td>{waves}</td></tr>")
        out.append("</table>")
        for k in entry["kernels"]:
            chart = _chart(k) if "vgpr" in k else ""
            if chart:
                out.append(f"<p>{escape(str(k['name']))}: live VGPRs per instruction "
                           f"(dashed: requested, allocated)</p>{chart}")
    out.append("</div>")
    return "".join(out)
