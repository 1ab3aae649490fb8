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

from operator import attrgetter

from isalens import _core
from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.program import Kernel
from isalens.ir.registers import AGPR_MASK, SGPR_MASK, SPECIAL_MASK, VGPR_MASK, RegFile
from isalens.records import dataclass

FILES = (RegFile.VGPR, RegFile.SGPR, RegFile.AGPR)
_BRANCH = attrgetter("branch")


@dataclass(frozen=True, slots=True)
class FilePressure:
    """Per-instruction live counts of one register file and where they peak."""

    file: RegFile
    counts: tuple[int, ...]
    peak: int
    peak_indices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pressure:
    """Live registers per instruction in each file, with VGPR halves and the special registers."""

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


def _file_pressure(file: RegFile, column: list[int]) -> FilePressure:
    counts = tuple(column)
    peak = max(counts, default=0)
    indices = tuple([i for i, c in enumerate(counts) if c == peak]) if peak else ()
    return FilePressure(file, counts, peak, indices)


#: the core's count columns (:func:`isalens._core.line_counts`), in :class:`Pressure`'s order: registers of each
#: file (a VGPR or AGPR is the pair of its 16-bit halves), live VGPR halves, VGPRs with one live half, specials
_COLUMNS = ((_core.COUNT_PAIRS, VGPR_MASK), (_core.COUNT_UNITS, SGPR_MASK), (_core.COUNT_PAIRS, AGPR_MASK),
            (_core.COUNT_UNITS, VGPR_MASK), (_core.COUNT_SPLIT_PAIRS, VGPR_MASK), (_core.COUNT_UNITS, SPECIAL_MASK))


def pressure(kernel: Kernel, graph: CFG, live: Liveness) -> Pressure:
    """Count live registers at every instruction of ``kernel``."""
    del graph  # the counts need only the live sets; kept for the uniform pass signature
    instructions = kernel.instructions
    branches = list(map(_BRANCH, instructions))
    # counted_defs: a call line's writes are not counted (few kernels have calls: one pass to find out)
    calls = [i for i, b in enumerate(branches) if b is BranchKind.CALL] if BranchKind.CALL in branches else []
    vgpr, sgpr, agpr, halves, half_only, special = _core.line_counts(instructions, live.live_in, live.live_out,
                                                                      calls, _COLUMNS)
    return Pressure(
        vgpr=_file_pressure(RegFile.VGPR, vgpr),
        sgpr=_file_pressure(RegFile.SGPR, sgpr),
        agpr=_file_pressure(RegFile.AGPR, agpr),
        vgpr_halves=tuple(halves),
        vgpr_half_only=tuple(half_only),
        special=tuple(special),
    )
