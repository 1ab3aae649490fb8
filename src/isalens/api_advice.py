"""Wiring for advice: one loaded kernel's analysis and instruction statistics handed to the detectors of
:mod:`isalens.analysis.advice`."""

from __future__ import annotations

from isalens.analysis.advice import AdviceInput, KernelAdvice, advise
from isalens.api import LoadedKernel
from isalens.api_stats import kernel_stats

__all__ = ["kernel_advice"]


def kernel_advice(kernel: LoadedKernel) -> KernelAdvice:
    """Advice for one loaded kernel (its passes and statistics are computed here)."""
    return advise(AdviceInput(kernel.analyze(), kernel_stats(kernel)))
