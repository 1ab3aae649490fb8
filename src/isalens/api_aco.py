"""Mesa ACO's "Latency" and "Inverse Throughput" statistics, re-computed from ACO's assembly (``--model aco``)."""

from __future__ import annotations

from typing import Any

from isalens.api import LoadedKernel
from isalens.errors import InputError

__all__ = ["aco_statistics"]


def aco_statistics(kernel: LoadedKernel, compiler_stats: dict[str, str | int]) -> dict[str, Any]:
    """The ``timing`` section in ACO mode (not implemented in this increment)."""
    raise InputError("--model aco is not available yet", code="usage")
