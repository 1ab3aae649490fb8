"""What the report shows about values, computed here as passes so that the report only copies: each register
live at a file's pressure peak (where its value was written, where it is read next, which source variables it
holds), and the registers live at the kernel's entry (and those read before any write that the hardware does
not initialise).
"""

from __future__ import annotations

from isalens.analysis.cfg import CFG
from isalens.analysis.lifetimes import DefUse
from isalens.analysis.liveness import Liveness
from isalens.analysis.pressure import Pressure
from isalens.ir.program import Kernel
from isalens.ir.registers import SPECIAL_NAMES, Reg, RegFile, iter_bits, registers_in
from isalens.ir.source import SourceLoc
from isalens.records import dataclass

__all__ = ["FILES", "FILE_KEYS", "EntryLiveIns", "LiveValue", "entry_live_ins", "peak_live_set", "reg_names"]

FILES = (RegFile.VGPR, RegFile.SGPR, RegFile.AGPR)
FILE_KEYS = {RegFile.VGPR: "vgpr", RegFile.SGPR: "sgpr", RegFile.AGPR: "agpr"}
_PREFIX = {RegFile.VGPR: "v", RegFile.SGPR: "s", RegFile.AGPR: "a"}
#: registers named per file at a peak (a peak rarely holds more; a hostile input may name thousands)
PEAK_LIMIT = 512


@dataclass(frozen=True, slots=True)
class LiveValue:
    """A register live at the peak, where its value was written and where it is read next."""

    reg: str
    def_lines: tuple[int, ...]
    next_use_lines: tuple[int, ...]
    #: the source variables (``name[piece]``) the register holds there, where the input says
    variables: tuple[str, ...] = ()
    #: the source lines of the writes that reach it (a register holding no named variable is a temporary of them)
    def_sources: tuple[SourceLoc, ...] = ()


@dataclass(frozen=True, slots=True)
class EntryLiveIns:
    """Registers live at the kernel's entry by file key (``vgpr``, ``sgpr``, ``agpr``, ``special``), and those
    read before any write that the kernel descriptor does not say the hardware initialises."""

    names: dict[str, tuple[str, ...]]
    unexpected: tuple[str, ...] = ()
    #: the input line of the first read of each ``unexpected`` register (0: not known)
    unexpected_lines: tuple[int, ...] = ()


def reg_names(mask: int, file: RegFile) -> tuple[str, ...]:
    """The registers of ``file`` in the unit mask, by name (``v3``, ``s10``, ``vcc_lo``)."""
    if file is RegFile.SPECIAL:
        return tuple(SPECIAL_NAMES[i] for i in registers_in(mask, file))
    prefix = _PREFIX.get(file, "")
    return tuple(f"{prefix}{i}" for i in registers_in(mask, file))


def peak_live_set(kernel: Kernel, graph: CFG, live: Liveness, press: Pressure,
                  limit: int = PEAK_LIMIT) -> dict[str, tuple[LiveValue, ...]]:
    """Per file key, the registers live at the file's first peak (at most ``limit``)."""
    queries = DefUse(kernel, graph)  # one block summary for every register asked about
    return {FILE_KEYS[f]: _peak_values(kernel, queries, live, press, f, limit) for f in FILES}


def _peak_values(kernel: Kernel, queries: DefUse, live: Liveness, press: Pressure, file: RegFile,
                 limit: int) -> tuple[LiveValue, ...]:
    fp = press.of(file)
    if not fp.peak_indices:
        return ()
    at = fp.peak_indices[0]
    mask = live.live_in[at] | live.live_out[at]
    held = kernel.source.variables_at(at)  # once: a -g kernel may have a range per DEBUG_VALUE comment
    ins = kernel.instructions
    out: list[LiveValue] = []
    indices = registers_in(mask, file)[:limit]
    regs = [Reg(file, reg_index) for reg_index in indices]
    # one walk for the next reads of every register live here (DefUse.next_uses_of)
    for reg_index, reg, uses in zip(indices, regs, queries.next_uses_of(at, regs), strict=True):
        # the writes reaching just after the peak: the peak itself, else those reaching it (hostile: a peak on
        # the last line has no next instruction to ask about)
        defs = (at,) if ins[at].defs & reg.mask() else queries.definitions_reaching(at, reg)
        sources = tuple(dict.fromkeys(loc for i in defs if (loc := kernel.source.at(i)) is not None))
        out.append(LiveValue(f"{_PREFIX[file]}{reg_index}", tuple(ins[i].line for i in defs),
                             tuple(ins[i].line for i in uses),
                             tuple(dict.fromkeys(v.name for v in held if v.mask & reg.mask())), sources))
    return tuple(out)


def entry_live_ins(kernel: Kernel, live: Liveness) -> EntryLiveIns:
    """The registers live at entry; with a kernel descriptor, also the stray reads liveness left out."""
    entry = live.entry
    names = {FILE_KEYS[f]: reg_names(entry, f) for f in FILES}
    names["special"] = reg_names(entry, RegFile.SPECIAL)
    if kernel.entry_live_in is None:
        return EntryLiveIns(names)
    # liveness leaves these out (no value reaches them), so they are taken from its own record
    stray = live.undefined_reads | (entry & ~kernel.entry_live_in)
    unexpected = tuple(n for f in FILES for n in reg_names(stray, f))
    lines = tuple(_first_read_line(kernel, live, f, r, stray) for f in FILES for r in registers_in(stray, f))
    return EntryLiveIns(names, unexpected, lines)


def _first_read_line(kernel: Kernel, live: Liveness, file: RegFile, reg: int, stray: int) -> int:
    """The line of the first read liveness recorded of register ``reg`` of ``stray`` (0 if none)."""
    at = [live.undefined_read_at[u] for u in iter_bits(Reg(file, reg).mask() & stray) if u in live.undefined_read_at]
    return kernel.instructions[min(at)].line if at else 0
