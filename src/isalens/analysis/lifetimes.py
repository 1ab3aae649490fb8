"""Live ranges: maximal runs of consecutive instructions over which a register stays occupied, and
for chosen registers the instructions that define them and the next ones that read them.
"""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.cfg import CFG
from isalens.analysis.liveness import Liveness
from isalens.analysis.pressure import touched
from isalens.ir.program import Kernel
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, VGPR_BASE, Reg, RegFile, iter_bits


@dataclass(frozen=True, slots=True)
class LiveRange:
    """Register ``reg`` (``v12``, ``s4``, ``a3``) is occupied from instruction ``start`` to ``end``."""

    reg: str
    file: RegFile
    start: int
    end: int

    @property
    def span(self) -> int:
        return self.end - self.start


def _whole_registers(mask: int) -> int:
    """Map a unit mask to one bit per whole register: VGPR k -> bit k, AGPR k -> 256+k, SGPR k -> 512+k."""
    v = (mask >> VGPR_BASE) & ((1 << 512) - 1)
    a = (mask >> AGPR_BASE) & ((1 << 512) - 1)
    s = (mask >> SGPR_BASE) & ((1 << 128) - 1)
    return _pairs(v) | (_pairs(a) << 256) | (s << 512)


_EVEN_BITS = int("01" * 256, 2)


def _pairs(m: int) -> int:
    """Fold bit pairs (2k, 2k+1) into bit k (a 16-bit-half mask into a register mask)."""
    m = (m | (m >> 1)) & _EVEN_BITS
    # compress even bits into consecutive positions (classic parallel bit-extract for 512 bits)
    out = 0
    shift = 0
    while m:
        chunk = m & 0xFFFF_FFFF_FFFF_FFFF  # 32 registers at a time
        if chunk:
            c = chunk
            c = (c | (c >> 1)) & 0x3333_3333_3333_3333
            c = (c | (c >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
            c = (c | (c >> 4)) & 0x00FF_00FF_00FF_00FF
            c = (c | (c >> 8)) & 0x0000_FFFF_0000_FFFF
            c = (c | (c >> 16)) & 0x0000_0000_FFFF_FFFF
            out |= c << shift
        m >>= 64
        shift += 32
    return out


def _name(bit: int) -> tuple[str, RegFile]:
    if bit < 256:
        return f"v{bit}", RegFile.VGPR
    if bit < 512:
        return f"a{bit - 256}", RegFile.AGPR
    return f"s{bit - 512}", RegFile.SGPR


def live_ranges(kernel: Kernel, graph: CFG, live: Liveness) -> tuple[LiveRange, ...]:
    """Every live range of every VGPR, AGPR and SGPR, in layout order."""
    del graph
    ranges: list[LiveRange] = []
    open_since: dict[int, int] = {}
    previous = 0
    n = len(kernel.instructions)
    for i in range(n):
        now = _whole_registers(touched(kernel, live, i))
        for bit in iter_bits(now & ~previous):
            open_since[bit] = i
        for bit in iter_bits(previous & ~now):
            name, file = _name(bit)
            ranges.append(LiveRange(name, file, open_since.pop(bit), i - 1))
        previous = now
    for bit, start in open_since.items():
        name, file = _name(bit)
        ranges.append(LiveRange(name, file, start, n - 1))
    ranges.sort(key=lambda r: (r.start, r.reg))
    return tuple(ranges)


def longest(ranges: tuple[LiveRange, ...], count: int, file: RegFile | None = None) -> tuple[LiveRange, ...]:
    """The ``count`` longest ranges (optionally of one file), longest first."""
    chosen = [r for r in ranges if file is None or r.file is file]
    chosen.sort(key=lambda r: (-r.span, r.start, r.reg))
    return tuple(chosen[:count])


def definitions_reaching(kernel: Kernel, graph: CFG, index: int, reg: Reg) -> tuple[int, ...]:
    """Instructions whose write to ``reg`` may be the value live at instruction ``index``."""
    mask = reg.mask()
    found: set[int] = set()
    seen_blocks: set[int] = set()
    block = graph.block_of[index]
    work: list[tuple[int, int]] = [(block, index - 1)]
    while work:
        b, i = work.pop()
        start = graph.blocks[b].start
        hit = False
        while i >= start:
            if kernel.instructions[i].defs & mask:
                found.add(i)
                hit = True
                break
            i -= 1
        if hit:
            continue
        for p in graph.blocks[b].preds:
            if p not in seen_blocks:
                seen_blocks.add(p)
                work.append((p, graph.blocks[p].end - 1))
    return tuple(sorted(found))


def next_uses(kernel: Kernel, graph: CFG, index: int, reg: Reg) -> tuple[int, ...]:
    """The first instructions at or after ``index`` that read ``reg`` on some path (before a rewrite)."""
    mask = reg.mask()
    found: set[int] = set()
    seen_blocks: set[int] = set()
    work: list[tuple[int, int]] = [(graph.block_of[index], index)]
    while work:
        b, i = work.pop()
        end = graph.blocks[b].end
        stop = False
        while i < end:
            ins = kernel.instructions[i]
            if ins.uses & mask:
                found.add(i)
                stop = True
                break
            if ins.defs & mask and i != index:
                stop = True
                break
            i += 1
        if stop:
            continue
        for s in graph.blocks[b].succs:
            if s not in seen_blocks:
                seen_blocks.add(s)
                work.append((s, graph.blocks[s].start))
    return tuple(sorted(found))

