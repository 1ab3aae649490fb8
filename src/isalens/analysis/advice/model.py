"""What an advice item is, and the analysis results every detector reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.analysis.occupancy import Occupancy, OccupancyInput
from isalens.analysis.pressure import Pressure
from isalens.analysis.resources import Resources
from isalens.analysis.source_lines import SourceSpan
from isalens.analysis.stats import KernelStats
from isalens.arch.model import ArchSpec
from isalens.ir.program import Kernel
from isalens.ir.source import SourceLoc


class PassResults(Protocol):
    """The pass results detectors read (``pipeline.KernelAnalysis`` has them): named here, so that advice
    depends on the results and not on the pass runner that also runs advice."""

    @property
    def kernel(self) -> Kernel: ...
    @property
    def arch(self) -> ArchSpec: ...
    @property
    def cfg(self) -> CFG: ...
    @property
    def liveness(self) -> Liveness: ...
    @property
    def pressure(self) -> Pressure: ...
    @property
    def resources(self) -> Resources: ...
    @property
    def occupancy(self) -> tuple[Occupancy, OccupancyInput] | None: ...


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
    #: source variables (``name[.piece]``) the register holds where the item looks (pressure: at the peak)
    variables: tuple[str, ...] = ()
    #: source lines where the value is born (its definition; None: kernel entry or no mapping) and last used
    born: SourceLoc | None = None
    last_use: SourceLoc | None = None


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
    #: the source locations of ``lines`` (one per source line, in their order; empty without source lines)
    sources: tuple[SourceLoc, ...] = ()
    #: the loop the item is about, in source lines (constants in a loop)
    loop: SourceSpan | None = None
    #: the largest relative improvement of a kernel figure among the effect's (advice/gain.py), and which figure
    gain: float = 0.0
    gain_figure: str = ""


@dataclass(frozen=True, slots=True)
class AdviceInput:
    """The results detectors reason on: every pass over the kernel and its instruction statistics."""

    analysis: PassResults
    stats: KernelStats


@dataclass(frozen=True, slots=True)
class KernelAdvice:
    """Advice for one kernel, or why there is none (``refused``: the code is beyond what we can reason on)."""

    kernel: str
    arch: str
    items: tuple[Advice, ...]
    refused: str | None = None
