"""Each advice item's gain: one relative figure that ranks items of different kinds against each other.

The gain is the largest relative improvement among the item's effect figures, each taken over the whole
kernel: more waves per SIMD count as ``after / before - 1``; spill slots, the VGPR peak, LDS conflict degree and
bytes per loop iteration as the fraction removed; figures an item counts only where it applies (VALU issues,
code bytes of the instructions it rewrites, the reads of one LDS pair) as the share of the kernel's
instructions, code bytes or LDS reads they remove. Figures that only say what a change costs or where (the
registers requested, literals, one line's live count) rank nothing.
"""

from __future__ import annotations

import dataclasses

from isalens.analysis.advice.model import Advice
from isalens.analysis.stats import KernelStats

#: figures whose "before" is the whole kernel's (or is the thing removed), improved by going down
_KERNEL_FIGURES = frozenset({"peak_live_vgprs", "vgpr_spill_slots", "sgpr_spill_slots", "lds_conflict_degree",
                             "loop_bytes_per_iteration", "lds_reads"})


def _kernel_total(figure: str, stats: KernelStats) -> int:
    """The kernel's own count for a figure an item counts locally (0: none)."""
    if figure == "valu_instructions":
        return stats.instructions
    if figure == "code_bytes":
        return stats.code_bytes
    if figure == "lds_reads_for_pair":
        return sum(1 for a in stats.lds_accesses if a.form.startswith("read"))
    return 0


def _improvement(figure: str, before: float, after: float, stats: KernelStats) -> float:
    if figure == "waves_per_simd":
        return after / before - 1 if before > 0 and after > before else 0.0
    if after >= before:
        return 0.0
    if figure in _KERNEL_FIGURES:
        return (before - after) / before if before > 0 else 0.0
    total = _kernel_total(figure, stats)
    return (before - after) / max(total, before) if total else 0.0


def with_gain(item: Advice, stats: KernelStats) -> Advice:
    """``item`` with :attr:`Advice.gain` and :attr:`Advice.gain_figure` set (0 and "" when nothing improves)."""
    best, figure = 0.0, ""
    for name, (before, after) in item.effect.items():
        g = _improvement(name, before, after, stats)
        if g > best:
            best, figure = g, name
    return dataclasses.replace(item, gain=best, gain_figure=figure)
