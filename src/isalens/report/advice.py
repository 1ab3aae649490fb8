"""Advice rendered as JSON-ready dicts and as text."""

from __future__ import annotations

from typing import Any

from isalens.analysis.advice import Advice, KernelAdvice


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 4)


def item_dict(item: Advice) -> dict[str, Any]:
    """One item: ``kind``, ``lines``, ``message``, ``effect`` {figure: [before, after]} and its values."""
    doc: dict[str, Any] = {
        "kind": item.kind, "lines": list(item.lines), "message": item.message,
        "effect": {k: [_number(a), _number(b)] for k, (a, b) in item.effect.items()},
    }
    if item.values:
        doc["values"] = [{"reg": v.reg, "def_line": v.def_line, "use_lines": list(v.use_lines), "frees": v.frees,
                          "defined_by": v.defined_by} for v in item.values]
    if item.facts:
        doc["facts"] = dict(item.facts)
    return doc


def advice_dict(advice: KernelAdvice) -> dict[str, Any]:
    """Per kernel: its name, target, ``advice`` items and ``refused`` (why there is no advice, else null)."""
    return {"kernel": advice.kernel, "arch": advice.arch, "refused": advice.refused,
            "advice": [item_dict(i) for i in advice.items]}


def render_advice_text(advice: KernelAdvice) -> str:
    """A section per kernel: each item's kind, lines, message and effect."""
    out = [f"advice for {advice.kernel} ({advice.arch})"]
    if advice.refused:
        out.append(f"  none: {advice.refused}")
    elif not advice.items:
        out.append("  none: no detector found anything to change")
    for n, item in enumerate(advice.items, 1):
        lines = ", ".join(str(x) for x in item.lines[:12]) + (" ..." if len(item.lines) > 12 else "")
        out.append(f"  {n}. [{item.kind}]" + (f" lines {lines}" if lines else ""))
        out.append(f"     {item.message}")
        effect = "; ".join(f"{k} {_number(a)} -> {_number(b)}" for k, (a, b) in item.effect.items())
        out.append(f"     effect: {effect}")
    return "\n".join(out) + "\n"
