"""Wiring for advice: one loaded kernel's analysis and instruction statistics handed to the detectors of
:mod:`isalens.analysis.advice`."""

from __future__ import annotations

from isalens.analysis.advice import AdviceInput, KernelAdvice, advise
from isalens.engine.decode import kernel_stats
from isalens.engine.load import LoadedKernel

__all__ = ["kernel_advice"]


def kernel_advice(kernel: LoadedKernel) -> KernelAdvice:
    """Advice for one loaded kernel (its passes and statistics are computed here)."""
    return advise(AdviceInput(kernel.analyze(), kernel_stats(kernel)))
