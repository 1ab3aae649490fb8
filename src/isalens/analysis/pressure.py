"""Register pressure per instruction, the peaks, and the live set at the peak.

The per-line count follows RGA's convention so users can compare line by line: a register counts
at an instruction when it is live before or after it, or the instruction touches it
(``|In ∪ Out ∪ Defs|``). The half-aware figure counts 16-bit halves of VGPRs.
"""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.ir.program import Kernel
from isalens.ir.registers import (
    RegFile,
    count_halves,
    count_registers,
    half_only_registers,
)

FILES = (RegFile.VGPR, RegFile.SGPR, RegFile.AGPR)


@dataclass(frozen=True, slots=True)
class FilePressure:
    """Per-instruction live counts of one register file and where they peak."""

    file: RegFile
    counts: tuple[int, ...]
    peak: int
    peak_indices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pressure:
    vgpr: FilePressure
    sgpr: FilePressure
    agpr: FilePressure
    #: live 16-bit VGPR halves per instruction
    vgpr_halves: tuple[int, ...]
    #: VGPRs with exactly one live half per instruction (the other half is wasted)
    vgpr_half_only: tuple[int, ...]
    special: tuple[int, ...]

    def of(self, file: RegFile) -> FilePressure:
        return {RegFile.VGPR: self.vgpr, RegFile.SGPR: self.sgpr, RegFile.AGPR: self.agpr}[file]


def touched(kernel: Kernel, live: Liveness, index: int) -> int:
    """Units counted at instruction ``index``: live in, live out, or written."""
    return live.live_in[index] | live.live_out[index] | kernel.instructions[index].defs


def _file_pressure(file: RegFile, masks: list[int]) -> FilePressure:
    counts = tuple(count_registers(m, file) for m in masks)
    peak = max(counts, default=0)
    indices = tuple(i for i, c in enumerate(counts) if c == peak) if peak else ()
    return FilePressure(file, counts, peak, indices)


def pressure(kernel: Kernel, graph: CFG, live: Liveness) -> Pressure:
    """Count live registers at every instruction of ``kernel``."""
    del graph  # the counts need only the live sets; kept for the uniform pass signature
    masks = [touched(kernel, live, i) for i in range(len(kernel.instructions))]
    return Pressure(
        vgpr=_file_pressure(RegFile.VGPR, masks),
        sgpr=_file_pressure(RegFile.SGPR, masks),
        agpr=_file_pressure(RegFile.AGPR, masks),
        vgpr_halves=tuple(count_halves(m, RegFile.VGPR) for m in masks),
        vgpr_half_only=tuple(half_only_registers(m, RegFile.VGPR) for m in masks),
        special=tuple(count_registers(m, RegFile.SPECIAL) for m in masks),
    )
