"""What an advice item is, and the analysis results every detector reads."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from isalens.analysis.occupancy import OccupancyInput
from isalens.analysis.pipeline import KernelAnalysis
from isalens.analysis.stats import KernelStats


@dataclass(frozen=True, slots=True)
class Value:
    """One register's value named by pressure attribution or spill advice."""

    reg: str
    def_line: int
    use_lines: tuple[int, ...]
    #: registers shortening this value frees over the high-pressure region
    frees: int = 1
    #: mnemonic of the defining instruction (``v_pk_fma_f16``), for the message
    defined_by: str = ""


@dataclass(frozen=True, slots=True)
class Advice:
    """One suggested change: a stable ``kind`` key, the evidence lines, the change in words, and its effect
    ``{figure: (before, after)}`` computed by our own models."""

    kind: str
    lines: tuple[int, ...]
    message: str
    effect: dict[str, tuple[float, float]]
    values: tuple[Value, ...] = ()
    #: extra facts for JSON (e.g. the minimality proof of pressure attribution)
    facts: dict[str, int | str | bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AdviceInput:
    """The results detectors reason on: every pass over the kernel and its instruction statistics."""

    analysis: KernelAnalysis
    stats: KernelStats


@dataclass(frozen=True, slots=True)
class KernelAdvice:
    """Advice for one kernel, or why there is none (``refused``: the code is beyond what we can reason on)."""

    kernel: str
    arch: str
    items: tuple[Advice, ...]
    refused: str | None = None


def with_resource(inp: OccupancyInput, field: str, value: int) -> OccupancyInput:
    """``inp`` with one resource (``vgprs``, ``sgprs``, ``lds_bytes`` or ``workgroup_size``) changed."""
    if field == "vgprs":
        return dataclasses.replace(inp, vgprs=value)
    if field == "sgprs":
        return dataclasses.replace(inp, sgprs=value)
    if field == "lds_bytes":
        return dataclasses.replace(inp, lds_bytes=value)
    if field == "workgroup_size":
        return dataclasses.replace(inp, workgroup_size=value)
    raise KeyError(field)
