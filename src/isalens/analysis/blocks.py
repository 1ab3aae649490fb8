"""Live-ins at each basic block as plain data, for reports and other tools (no Python internals needed)."""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.ir.program import Kernel
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, VGPR_BASE, RegFile, file_mask, iter_bits


@dataclass(frozen=True, slots=True)
class BlockLiveIn:
    """One basic block: where it starts and the registers live on entry."""

    index: int
    labels: tuple[str, ...]
    #: 1-based input line of the block's first instruction (0 for an empty block)
    first_line: int
    loop_depth: int
    #: registers live on entry, as the assembler names them: ``v4``, ``v[6:7]``, ``s[6:7]``, ``a0``, and
    #: ``v5.l``/``v5.h`` for a VGPR/AGPR with only one 16-bit half live; VGPRs, then SGPRs, then AGPRs
    live_in: tuple[str, ...]


def register_names(mask: int) -> tuple[str, ...]:
    """Names of the VGPRs, SGPRs and AGPRs in ``mask``, consecutive whole registers merged into ranges."""
    names: list[str] = []
    for file, base, halves in ((RegFile.VGPR, VGPR_BASE, 2), (RegFile.SGPR, SGPR_BASE, 1),
                               (RegFile.AGPR, AGPR_BASE, 2)):
        part = mask & file_mask(file)
        if not part:
            continue
        # register index -> bitmask of live halves (1 = low, 2 = high; SGPRs: 3)
        live: dict[int, int] = {}
        for unit in iter_bits(part):
            offset = unit - base
            live[offset // halves] = live.get(offset // halves, 0) | (1 << (offset % halves) if halves == 2 else 3)
        run_start = -1
        prev = -2
        for reg in [*sorted(live), -1]:
            whole = reg >= 0 and live[reg] == 3
            if whole and reg == prev + 1 and run_start >= 0:
                prev = reg
                continue
            if run_start >= 0:
                names.append(f"{file.value}{run_start}" if run_start == prev else f"{file.value}[{run_start}:{prev}]")
                run_start = -1
            if reg < 0:
                break
            if whole:
                run_start = prev = reg
            else:
                names.append(f"{file.value}{reg}.{'l' if live[reg] == 1 else 'h'}")
                prev = -2
    return tuple(names)


def block_live_ins(kernel: Kernel, graph: CFG, live: Liveness) -> tuple[BlockLiveIn, ...]:
    """Every block of ``graph`` with its labels, first line, loop depth and live-in registers."""
    labels: dict[int, list[str]] = {}
    for name, index in kernel.labels.items():
        if not name.startswith("@"):  # "@0x1c": an objdump address, not a name in the input
            labels.setdefault(index, []).append(name)
    out = []
    for block in graph.blocks:
        first = kernel.instructions[block.start].line if block.start < block.end else 0
        out.append(BlockLiveIn(block.index, tuple(sorted(labels.get(block.start, ()))), first,
                               graph.loop_depth[block.index], register_names(live.block_in[block.index])))
    return tuple(out)
