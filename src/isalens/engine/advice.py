"""Wiring for advice: one loaded kernel's passes, with the ``stats`` and ``advice`` passes, run once."""

from __future__ import annotations

from isalens.analysis.advice import KernelAdvice
from isalens.engine.load import LoadedKernel

__all__ = ["kernel_advice"]


def kernel_advice(kernel: LoadedKernel) -> KernelAdvice:
    """Advice for one loaded kernel (the core passes run once, with the statistics the detectors read)."""
    advice = kernel.analyze(extra=("stats", "advice")).advice
    assert advice is not None  # asked for: the pass always returns advice or its refusal
    return advice
