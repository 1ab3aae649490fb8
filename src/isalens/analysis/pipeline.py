"""The ordered passes over one kernel and the frozen bundle of their results."""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.cfg import CFG, cfg
from isalens.analysis.lifetimes import LiveRange, live_ranges
from isalens.analysis.liveness import Liveness, liveness
from isalens.analysis.mix import Mix, mix
from isalens.analysis.occupancy import Occupancy, OccupancyInput, kernel_occupancy
from isalens.analysis.pressure import Pressure, pressure
from isalens.analysis.resources import Resources, resources
from isalens.arch.model import ArchSpec
from isalens.ir.program import Kernel

#: pass names in execution order (each module exports one function of that name)
PASSES = ("cfg", "liveness", "pressure", "live_ranges", "resources", "kernel_occupancy", "mix")


@dataclass(frozen=True, slots=True)
class KernelAnalysis:
    """Everything the passes computed for one kernel."""

    kernel: Kernel
    arch: ArchSpec
    cfg: CFG
    liveness: Liveness
    pressure: Pressure
    ranges: tuple[LiveRange, ...]
    resources: Resources
    #: None when the resources cannot run on the target (e.g. more LDS than a workgroup may use)
    occupancy: tuple[Occupancy, OccupancyInput] | None
    mix: Mix


def run(kernel: Kernel, arch: ArchSpec) -> KernelAnalysis:
    """Run every pass over ``kernel``."""
    graph = cfg(kernel)
    live = liveness(kernel, graph)
    press = pressure(kernel, graph, live)
    ranges = live_ranges(kernel, graph, live)
    res = resources(kernel, arch)
    occ = kernel_occupancy(kernel, arch, res)
    return KernelAnalysis(kernel, arch, graph, live, press, ranges, res, occ, mix(kernel))
