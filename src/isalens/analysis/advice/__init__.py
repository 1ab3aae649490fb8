"""Advice: detectors that turn analysis results into changes to make, each with its effect computed by our
own models. One module per kind; :data:`DETECTORS` runs them in order."""

from __future__ import annotations

from collections.abc import Callable

from isalens.analysis.advice import constants, halves, lds, occupancy, pressure, spills, subdword
from isalens.analysis.advice.gain import with_gain
from isalens.analysis.advice.guard import refusal
from isalens.analysis.advice.model import Advice, AdviceInput, KernelAdvice, Value
from isalens.analysis.advice.source_terms import in_source_terms

__all__ = ["DETECTORS", "KINDS", "Advice", "AdviceInput", "KernelAdvice", "Value", "advise"]

Detector = Callable[[AdviceInput], list[Advice]]

DETECTORS: tuple[tuple[str, Detector], ...] = (
    (occupancy.KIND, occupancy.detect),
    (pressure.KIND, pressure.detect),
    (spills.KIND, spills.detect),
    (halves.KIND, halves.detect),
    (subdword.KIND, subdword.detect),
    (lds.KIND, lds.detect),
    (constants.KIND, constants.detect),
)
KINDS = tuple(kind for kind, _ in DETECTORS)


def advise(inp: AdviceInput) -> KernelAdvice:
    """Every detector's advice for one kernel, or the reason there is none."""
    kernel = inp.analysis.kernel
    reason = refusal(kernel)
    if reason is not None:
        return KernelAdvice(kernel.name, inp.analysis.arch.name, (), reason)
    items: list[Advice] = []
    for _, detect in DETECTORS:
        items.extend(with_gain(item, inp.stats) for item in detect(inp))
    return KernelAdvice(kernel.name, inp.analysis.arch.name, tuple(in_source_terms(kernel, items)))
