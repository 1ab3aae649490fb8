"""Live-ins at each basic block as plain data, for reports and other tools (no Python internals needed)."""

from __future__ import annotations

import re
from functools import lru_cache

from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.ir.program import Kernel
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, VGPR_BASE, RegFile, file_mask, iter_bits
from isalens.records import dataclass


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


_RUNS = re.compile("1+")


def _digits(mask: int, every_other: bool) -> str:
    """``mask``'s bits as '0'/'1' characters, lowest first (every other bit for 16-bit-half units)."""
    bits = format(mask, "b")[::-1]
    return bits[::2] if every_other else bits


@lru_cache(maxsize=4096)
def register_names(mask: int) -> tuple[str, ...]:
    """Names of the VGPRs, SGPRs and AGPRs in ``mask``, consecutive whole registers merged into ranges.

    Runs of whole registers are found in the mask's binary digits (a regex, not a loop over registers):
    a 20,000-block kernel with 250 live VGPRs per block named them one by one in seconds. Blocks often share
    live-in sets, hence the cache.
    """
    names: list[str] = []
    for file, base, halves in ((RegFile.VGPR, VGPR_BASE, 2), (RegFile.SGPR, SGPR_BASE, 1),
                               (RegFile.AGPR, AGPR_BASE, 2)):
        part = (mask & file_mask(file)) >> base
        if not part:
            continue
        entries: list[tuple[int, str]] = []
        partial: tuple[tuple[int, str], ...] = ()
        prefix = file.value
        if halves == 2:
            even = int("5" * (part.bit_length() // 4 + 2), 16)  # ...0101: the low-half unit of every register
            low, high = part & even, (part >> 1) & even
            whole, partial = _digits(low & high, True), ((low & ~high, "l"), (high & ~low, "h"))
        else:
            whole = _digits(part, False)
        for m in _RUNS.finditer(whole):
            first, last = m.start(), m.end() - 1
            entries.append((first, f"{prefix}{first}" if first == last else f"{prefix}[{first}:{last}]"))
        for units, half in partial:
            entries.extend((r, f"{prefix}{r}.{half}") for r in (u // 2 for u in iter_bits(units)))
        names.extend(name for _, name in sorted(entries))
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
