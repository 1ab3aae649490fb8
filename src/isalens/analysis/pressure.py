"""Register pressure per instruction, the peaks, and the live set at the peak.

The per-line count follows RGA's convention so users can compare line by line: a register counts
at an instruction when it is live before or after it, or the instruction touches it
(``|In ∪ Out ∪ Defs|``). The half-aware figure counts 16-bit halves of VGPRs.

A call line (``s_swappc_b64``) is the exception: its Defs are every register the callee may clobber, which
are written somewhere in the callee, not held by the caller at the call. Counting them made every call
line a peak of registers nobody holds; the line counts ``|In ∪ Out|`` instead: the arguments it reads, the
values live across it (callee-saved or kept by the caller), and the results read after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.ir.instruction import BranchKind, Instruction
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


def counted_defs(ins: Instruction) -> int:
    """The writes a line's count includes: all of them, except on a call line (see the module docstring)."""
    return 0 if ins.branch is BranchKind.CALL else ins.defs


def touched(kernel: Kernel, live: Liveness, index: int) -> int:
    """Units counted at instruction ``index``: live in, live out, or written (:func:`counted_defs`)."""
    return live.live_in[index] | live.live_out[index] | counted_defs(kernel.instructions[index])


def _file_pressure(file: RegFile, column: tuple[int, ...]) -> FilePressure:
    counts = tuple(column)
    peak = max(counts, default=0)
    indices = tuple(i for i, c in enumerate(counts) if c == peak) if peak else ()
    return FilePressure(file, counts, peak, indices)


def _counts(mask: int) -> tuple[int, int, int, int, int, int]:
    return (count_registers(mask, RegFile.VGPR), count_registers(mask, RegFile.SGPR),
            count_registers(mask, RegFile.AGPR), count_halves(mask, RegFile.VGPR),
            half_only_registers(mask, RegFile.VGPR), count_registers(mask, RegFile.SPECIAL))


_MEMO_LIMIT = 1 << 16


def pressure(kernel: Kernel, graph: CFG, live: Liveness) -> Pressure:
    """Count live registers at every instruction of ``kernel``."""
    del graph  # the counts need only the live sets; kept for the uniform pass signature
    instructions = kernel.instructions
    # replicated or unrolled code repeats whole live sets; the memo is bounded, as a kernel of a million
    # distinct sets would hold them all
    seen: dict[int, tuple[int, int, int, int, int, int]] = {}
    rows = []
    for i, (a, b) in enumerate(zip(live.live_in, live.live_out, strict=True)):
        mask = a | b | counted_defs(instructions[i])
        counts = seen.get(mask)
        if counts is None:
            if len(seen) >= _MEMO_LIMIT:
                seen.clear()
            counts = seen[mask] = _counts(mask)
        rows.append(counts)
    columns = list(zip(*rows, strict=True)) if rows else [()] * 6
    return Pressure(
        vgpr=_file_pressure(RegFile.VGPR, columns[0]),
        sgpr=_file_pressure(RegFile.SGPR, columns[1]),
        agpr=_file_pressure(RegFile.AGPR, columns[2]),
        vgpr_halves=tuple(columns[3]),
        vgpr_half_only=tuple(columns[4]),
        special=tuple(columns[5]),
    )
