"""Advice rendered as JSON-ready dicts and as text."""

from __future__ import annotations

from typing import Any

from isalens.analysis.advice import Advice, KernelAdvice, Value
from isalens.ir.source import SourceLoc
from isalens.names import demangled


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 4)


def _loc(x: SourceLoc | None) -> dict[str, str | int] | None:
    return None if x is None else x.to_dict()


def _value_dict(v: Value, source: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {"reg": v.reg, "def_line": v.def_line, "use_lines": list(v.use_lines), "frees": v.frees,
                           "defined_by": v.defined_by}
    if source:  # only where the input has source lines: the keys say what the mapping gives
        doc.update(variables=list(v.variables), born=_loc(v.born), last_use=_loc(v.last_use))
    return doc


def item_dict(item: Advice) -> dict[str, Any]:
    """One item: ``kind``, ``lines``, ``message``, ``effect`` {figure: [before, after]} and its values; with
    source lines also ``sources`` (of ``lines``), ``loop`` (its source span) and each value's ``variables``,
    ``born`` and ``last_use``."""
    doc: dict[str, Any] = {
        "kind": item.kind, "lines": list(item.lines), "message": item.message,
        "effect": {k: [_number(a), _number(b)] for k, (a, b) in item.effect.items()},
        # the ranking figure (analysis/advice/gain.py); null when no kernel figure improves
        "gain": {"figure": item.gain_figure, "relative": _number(item.gain)} if item.gain_figure else None,
    }
    source = bool(item.sources)
    if item.values:
        doc["values"] = [_value_dict(v, source) for v in item.values]
    if item.facts:
        doc["facts"] = dict(item.facts)
    if source:
        doc["sources"] = [s.to_dict() for s in item.sources]
    if item.loop is not None:
        doc["loop"] = item.loop.to_dict()
    return doc


def advice_dict(advice: KernelAdvice) -> dict[str, Any]:
    """Per kernel: its name, target, ``advice`` items and ``refused`` (why there is no advice, else null)."""
    return {"kernel": advice.kernel, "arch": advice.arch, "refused": advice.refused,
            "advice": [item_dict(i) for i in advice.items]}


def _value_text(v: Value) -> str:
    held = " = " + ", ".join(v.variables) if v.variables else ""
    born = f"born {v.born.short()}" if v.born is not None else "live at entry" if not v.def_line else ""
    last = f"last used {v.last_use.short()}" if v.last_use is not None else ""
    where = ", ".join(x for x in (born, last) if x)
    return f"{v.reg}{held}" + (f" ({where})" if where else "")


def _source_text(item: Advice) -> list[str]:
    out = []
    if item.sources:
        shown = ", ".join(s.short() for s in item.sources[:8]) + (" ..." if len(item.sources) > 8 else "")
        out.append(f"     source: {shown}")
    if item.loop is not None:
        out.append(f"     loop: {item.loop.short()}")
    if item.sources and item.values:
        few = "; ".join(_value_text(v) for v in item.values[:8])
        more = f"; and {len(item.values) - 8} more" if len(item.values) > 8 else ""
        out.append(f"     values in source terms: {few}{more}")
    return out


def advice_kernel_dict(advice: KernelAdvice) -> dict[str, Any]:
    """The kernel object ``advise --json`` prints: the names ``analyze --json`` gives the same sections."""
    doc = advice_dict(advice)
    return {"name": advice.kernel, "kernel_demangled": demangled(advice.kernel), "arch": advice.arch,
            "advice": doc["advice"], "advice_refused": doc["refused"]}


def render_advice_text(advice: KernelAdvice) -> str:
    """A section per kernel: each item's kind, lines, message, source lines (where known) and effect."""
    out = [f"advice for {advice.kernel} ({advice.arch})"]
    if advice.refused:
        out.append(f"  none: {advice.refused}")
    elif not advice.items:
        out.append("  none: no detector found anything to change")
    for n, item in enumerate(advice.items, 1):
        lines = ", ".join(str(x) for x in item.lines[:12]) + (" ..." if len(item.lines) > 12 else "")
        word = "line" if len(item.lines) == 1 else "lines"
        out.append(f"  {n}. [{item.kind}]" + (f" {word} {lines}" if lines else ""))
        out.append(f"     {item.message}")
        out.extend(_source_text(item))
        effect = "; ".join(f"{k} {_number(a)} -> {_number(b)}" for k, (a, b) in item.effect.items())
        out.append(f"     effect: {effect}")
    return "\n".join(out) + "\n"
