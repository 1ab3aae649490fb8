"""A code object's disassembly in the ``objdump`` dialect, by our own decoder (``isa/amdgcn/decoder``, the
default) or by llvm-objdump (``--disassembler llvm``). Both give the same text for what both read, so every
reader and report downstream is the same; ours falls back to llvm-objdump for a code object holding anything it
does not read (and says so once), and reads the encodings LLVM rejects but the hardware executes (with a note).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from isalens.errors import InputError
from isalens.frontends.objdump import DisassemblyUnsupported, disassemble, tidy
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.isa.amdgcn.decoder.listing import NotDecoded, objdump_listing

if TYPE_CHECKING:
    from isalens.binary.codeobject import CodeObject

__all__ = ["DISASSEMBLERS", "check_disassembler", "code_listing", "wave64_code"]

#: ``--disassembler`` choices: our decoder (default) or llvm-objdump
DISASSEMBLERS = ("ours", "llvm")


def check_disassembler(name: str) -> str:
    """``name`` if it is a disassembler this build knows, else a one-line error."""
    if name not in DISASSEMBLERS:
        raise InputError(f"unknown disassembler '{name}' (choose {' or '.join(DISASSEMBLERS)})",
                         code="disassembler")
    return name


def wave64_code(co: CodeObject) -> bool:
    """Whether ``co`` holds wave64 code that the disassembler must be told about: on gfx10+ (decoded as wave32
    unless told) every kernel declares wave64 (metadata ``.wavefront_size``, else the descriptor's
    ``wavefront_size32`` bit). A code object mixing the two is decoded as wave32 (as one llvm-objdump run does)."""
    if not co.processor.startswith("gfx1") or not co.kernels:  # gfx10, gfx11, gfx12 and their generic targets
        return False
    sizes = {k.wave_size or (32 if k.descriptor.get("wavefront_size32") == "1" else 64) for k in co.kernels}
    return sizes == {64}


def code_listing(co: CodeObject, *, file: str, symbols: Sequence[str] | None = None,
                 disassembler: str = "ours") -> tuple[str, tuple[Diagnostic, ...]]:
    """The ``objdump`` listing of ``co`` (only ``symbols`` when given), padding past each function's symbol size
    blanked, and the notes a reader should see (a fallback to llvm-objdump, an encoding LLVM rejects)."""
    wave64 = wave64_code(co)
    if check_disassembler(disassembler) == "ours":
        try:
            listing = _ours(co, file, symbols, wave64)
        except NotDecoded as exc:
            if co.processor.startswith(("gfx6", "gfx7")):  # nothing to fall back to (docs/decoder.md, "gfx6/gfx7")
                raise DisassemblyUnsupported(
                    f"{co.source}: our decoder does not read {exc.reason}, and LLVM 19's disassembler does not support "
                    f"{co.processor} (gfx6/gfx7); its metadata is listed by `isalens list`", file=file,
                    code="disassembler-target") from None
            note = Diagnostic(Severity.NOTE, "disassembler", f"{co.source}: our decoder does not read "
                              f"{exc.reason}; this code object was disassembled by llvm-objdump", file, None)
            text = disassemble(co.data, co.processor, file=file, source=co.source, symbols=symbols,
                               extents=co.functions, wave64=wave64)
            return text, (note,)
        notes = tuple(Diagnostic(Severity.NOTE, "hardware-encoding", f"{co.source}: {n}", file, None)
                      for n in listing[1])
        return listing[0], notes
    return disassemble(co.data, co.processor, file=file, source=co.source, symbols=symbols, extents=co.functions,
                       wave64=wave64), ()


def _ours(co: CodeObject, file: str, symbols: Sequence[str] | None, wave64: bool) -> tuple[str, list[str]]:
    from isalens.binary.sections import code_sections

    sections = code_sections(co.data, file=file, where=co.source)
    listing = objdump_listing(sections, co.processor, symbols=None if symbols is None else set(symbols),
                              wave64=wave64)
    return tidy(listing.text, co.functions), listing.notes
