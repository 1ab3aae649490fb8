"""Advice in the programmer's terms: each item's evidence lines, and each value's birth and last use, mapped to
source lines where the input carries them (docs/source.md). Detectors reason on instructions; this pass only
adds the source side, so no figure or message changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from isalens.analysis.advice.model import Advice, Value
from isalens.ir.program import Kernel
from isalens.ir.source import SourceLoc

__all__ = ["in_source_terms"]


def in_source_terms(kernel: Kernel, items: Iterable[Advice]) -> list[Advice]:
    """``items`` with ``sources`` and each value's ``born``/``last_use`` filled (unchanged without a source map)."""
    items = list(items)
    if not items or not kernel.source.locs:
        return items
    # an input line names one instruction (the first at that line, for a line holding several)
    index: dict[int, int] = {}
    for i, ins in enumerate(kernel.instructions):
        index.setdefault(ins.line, i)

    def loc(line: int) -> SourceLoc | None:
        i = index.get(line)
        return None if i is None else kernel.source.at(i)

    def value(v: Value) -> Value:
        uses = [index[u] for u in v.use_lines if u in index]
        return dataclasses.replace(
            v, born=v.born or (loc(v.def_line) if v.def_line else None),
            last_use=v.last_use or (kernel.source.at(max(uses)) if uses else None))

    out = []
    for item in items:
        # one per source line (the first column seen): two statements on one line are one line to the reader
        firsts: dict[tuple[str, int], SourceLoc] = {}
        for line in item.lines:
            if (x := loc(line)) is not None:
                firsts.setdefault((x.file, x.line), x)
        sources = tuple(firsts.values())
        out.append(dataclasses.replace(item, sources=sources, values=tuple(value(v) for v in item.values)))
    return out
