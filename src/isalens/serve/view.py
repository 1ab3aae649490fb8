"""What the page draws for one compile, made from the engine's ``analyze --json`` document (the same one
``isalens analyze --json`` prints, so the page and the command line never disagree).

Per kernel: the figures the compare view puts deltas on, the listing rows with live counts and the source line of
the edited file, per-loop timing, advice and variables. Source lines of other files (headers) keep their file
name; lines of the edited file are plain numbers the editor can jump to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["kernel_view", "page_view"]


def page_view(doc: Mapping[str, Any], edited: str) -> dict[str, Any]:
    """The whole file's view; ``edited`` is the path the compiled copy of the edited file had."""
    return {
        "kernels": [kernel_view(k, edited) for k in doc.get("kernels", [])],
        "diagnostics": [_diagnostic(d) for d in doc.get("diagnostics", [])],
    }


def kernel_view(k: Mapping[str, Any], edited: str) -> dict[str, Any]:
    lines = k.get("lines", [])
    index_of = {row["line"]: row["index"] for row in lines}
    rows = []
    for row in lines:
        src: Mapping[str, Any] | None = row.get("source") or None
        here = src is not None and src.get("file") == edited
        rows.append([row["line"], row["text"], row["live_vgpr"], row["live_sgpr"],
                     src["line"] if src is not None and here else 0,
                     "" if src is None or here else f"{str(src.get('file', '')).rsplit('/', 1)[-1]}:{src.get('line')}",
                     row.get("loop_depth", 0), " ".join(row.get("labels", []))])
    return {
        "name": k["name"],
        "arch": k.get("arch"),
        "wave_size": k.get("wave_size"),
        "figures": figures(k),
        "lines": rows,
        "peak": [index_of[n] for n in k.get("vgpr", {}).get("peak_lines", []) if n in index_of],
        "loops": _loops(k, index_of, rows),
        "advice": [{"kind": a["kind"], "message": a["message"],
                    "lines": [index_of[n] for n in a.get("lines", []) if n in index_of]}
                   for a in k.get("advice") or []],
        "advice_refused": k.get("advice_refused"),
        "variables": [{"name": v["name"], "ranges": [[index_of.get(r["first_line"], -1),
                                                       index_of.get(r["last_line"], -1), r["registers"]]
                                                      for r in v.get("ranges", [])]}
                      for v in k.get("variables", [])],
    }


def figures(k: Mapping[str, Any]) -> dict[str, Any]:
    """The figures compared against a pinned baseline (None where the input has none)."""
    occ = k.get("occupancy") or {}
    timing = k.get("timing") or {}
    whole = timing.get("kernel") or {}
    stats = k.get("stats") or {}
    step = occ.get("next_step") or {}
    return {
        "vgpr_peak": k["vgpr"]["peak_live"], "vgpr_requested": k["vgpr"]["requested"],
        "vgpr_allocated": k["vgpr"].get("allocated"),
        "sgpr_peak": k["sgpr"]["peak_live"], "sgpr_requested": k["sgpr"]["requested"],
        "agpr_peak": k.get("agpr", {}).get("peak_live", 0),
        "waves_per_simd": occ.get("waves_per_simd"), "max_waves_per_simd": occ.get("max_waves_per_simd"),
        "llvm_occupancy": occ.get("llvm_occupancy"), "limited_by": occ.get("limited_by", []),
        "next_step": {key: value for key, value in step.items() if value is not None},
        "cycles_per_iteration": whole.get("cycles_per_iteration"), "bottleneck": whole.get("bottleneck"),
        "timing_unavailable": timing.get("unavailable"),
        "code_bytes": stats.get("code_bytes"), "instructions": k.get("instructions"),
    }


def _loops(k: Mapping[str, Any], index_of: Mapping[int, int], rows: list[list[Any]]) -> list[dict[str, Any]]:
    out = []
    for lp in (k.get("timing") or {}).get("loops", []):
        i = index_of.get(lp["header_line"], -1)
        out.append({"index": i, "depth": lp["depth"], "cycles_per_iteration": lp["cycles_per_iteration"],
                    "bottleneck": lp["bottleneck"], "trip_count": lp.get("trip_count"),
                    "source_line": rows[i][4] if i >= 0 else 0})
    return out


def _diagnostic(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"severity": d.get("severity"), "line": d.get("line"), "message": d.get("message")}
