"""Readers for VLIW5/VLIW4 code (R600, R700, Evergreen, Cayman): CAL dumps and LLVM r600 assembly.

:func:`parse` turns text into an :class:`~isalens.ir.vliw.VliwModule`; the slot rules come from
``data/vliw.toml`` (see :mod:`isalens.isa.r600.rules`).
"""

from __future__ import annotations

from isalens.errors import ArchError, ParseError
from isalens.ir.vliw import VliwModule
from isalens.isa.r600 import cal, llvm
from isalens.isa.r600.common import Diagnostics
from isalens.isa.r600.rules import GENERATIONS, generation_of, tables
from isalens.isa.vliw_sniff import vliw_dialect
from isalens.lines import lines_of

__all__ = ["DIALECTS", "GENERATIONS", "generation_of", "parse", "sniff"]

DIALECTS = ("cal", "llvm")


def sniff(text: str) -> str | None:
    """``cal``, ``llvm`` or ``None`` when the text is neither (:func:`isalens.isa.vliw_sniff.vliw_dialect`)."""
    return vliw_dialect(text)


def _first_line(text: str) -> int:
    for i, line in enumerate(lines_of(text), start=1):
        if line.strip():
            return i
    return 1


def parse(text: str, *, file: str, dialect: str | None = None, target: str | None = None) -> VliwModule:
    """Read a CAL dump or LLVM r600 assembly.

    ``target`` is a chip (``rv770``, ``cypress``, ``cayman``) or a generation (``r700``); without it the
    generation is inferred from the code (Cayman when trans-only work is spread over x/y/z/w) or
    defaults to R700 for CAL dumps and Evergreen for LLVM output.
    """
    if not text.strip():
        raise ParseError("empty input: expected a CAL dump or LLVM r600 assembly", file=file, line=1,
                         code="empty")
    if dialect is None:
        dialect = sniff(text)
        if dialect is None:
            raise ParseError("not a VLIW dump: expected CAL clauses such as '00 ALU: ADDR(32) CNT(4)' or LLVM "
                             "r600 assembly ('ALU clause starting at ...'); use --dialect to force one",
                             file=file, line=_first_line(text), code="dialect")
    elif dialect not in DIALECTS:
        raise ParseError(f"unknown VLIW dialect {dialect!r} (choose from {', '.join(DIALECTS)})", file=file,
                         code="dialect")
    generation: str | None = None
    source = "given"
    if target is not None:
        generation = generation_of(target)
        if generation is None:
            chips = sorted(set(tables().chips) - set(GENERATIONS))
            known = f"generations {', '.join(GENERATIONS)}; chips {', '.join(chips)}"
            what = "a GCN/CDNA/RDNA target, but this is VLIW (R600-Cayman) code" if target.lower().startswith(
                "gfx") else "unknown VLIW target"
            raise ArchError(f"{target!r}: {what} (known: {known})", file=file, code="unknown-target")
    diags = Diagnostics(file)
    t = tables()
    if dialect == "cal":
        if generation is None:
            generation, source = cal.infer_generation(text, t)
        programs = cal.read_cal(text, file, t, generation, diags)
    else:
        reader = llvm.LlvmReader(t, diags)
        reader.scan(text)
        if generation is None:
            generation, source = ("cayman", "inferred") if reader.is_cayman() else ("evergreen", "default")
        programs = reader.programs(generation)
    if not programs:
        raise ParseError(f"no VLIW program found in this {dialect} input", file=file, line=_first_line(text),
                         code="no-program")
    chip = target.strip().lower() if target is not None and target.strip().lower() in t.chips else None
    return VliwModule(file=file, dialect=dialect, generation=generation, generation_source=source,
                      width=t.widths[generation], programs=tuple(programs), diagnostics=tuple(diags.items), chip=chip)
