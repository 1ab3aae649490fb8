"""A code object's disassembly in the ``objdump`` dialect, by our own decoder (``isa/amdgcn/decoder``, the
default) or by llvm-objdump (``--disassembler llvm``); for reading, :func:`code_reading` hands the reader our
decoder's drafts without the text. Both give the same text for what both read, so every
reader and report downstream is the same; ours falls back to llvm-objdump for a code object holding anything it
does not read (and says so once), and reads the encodings LLVM rejects but the hardware executes (with a note).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from isalens.errors import InputError
from isalens.frontends.objdump import DisassemblyUnsupported, disassemble, only_functions, tidy
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.program import KernelFacts, Module, TargetInfo
from isalens.isa import registry
from isalens.isa.amdgcn.decoder.listing import Drafted, NotDecoded, objdump_drafts, objdump_listing
from isalens.isa.amdgcn.drafts import ReadResult

if TYPE_CHECKING:
    from isalens.binary.codeobject import CodeObject
    from isalens.binary.sections import CodeSection

__all__ = ["DISASSEMBLERS", "CodeReading", "check_disassembler", "code_listing", "code_reading", "wave64_code"]

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
            listing = objdump_listing(_sections(co, file), co.processor,
                                      symbols=None if symbols is None else set(symbols), wave64=wave64)
        except NotDecoded as exc:
            return _fall_back(co, file, symbols, wave64, exc)
        return tidy(listing.text, co.functions), _hardware_notes(co, file, listing.notes)
    return _llvm(co, file, symbols, wave64), ()


@dataclass(frozen=True, slots=True)
class CodeReading:
    """What the ``objdump`` reader reads of a code object: the listing's text, or (our decoder) the reader's
    drafts made from the decoded instructions without writing the text (``drafted``); and the notes of
    :func:`code_listing`."""

    text: str | None
    drafted: Drafted | None
    notes: tuple[Diagnostic, ...]

    def mentions(self, needles: Collection[str]) -> bool:
        """Whether the listing's text holds any of ``needles`` (words of letters, digits and ``_`` holding a letter
        beyond a-f: mnemonics)."""
        if self.drafted is not None:
            return self.drafted.mentions(needles)
        assert self.text is not None
        return any(n in self.text for n in needles)

    def only(self, symbols: Sequence[str]) -> CodeReading:
        """The functions ``symbols`` alone, as ``frontends.objdump.only_functions`` cuts them from the text (no
        notes: as a text cut from :func:`code_listing`'s)."""
        if self.drafted is not None:
            return CodeReading(None, self.drafted.only(set(symbols)), ())
        assert self.text is not None
        return CodeReading(only_functions(self.text, symbols), None, ())

    def parse(self, *, file: str, target: TargetInfo, ignore_unknown: bool, packed_workitem_ids: bool,
              facts: Mapping[str, KernelFacts] | None = None) -> Module:
        """The module the ``objdump`` reader reads from the listing (``registry.parse``)."""
        if self.drafted is not None:
            # fresh drafts: the parser writes each one's facts into it, and a reading may be parsed again
            # (a scan's units of one code object)
            drafts = [dataclasses.replace(d, descriptor=dict(d.descriptor), metadata=dict(d.metadata))
                      for d in self.drafted.result.drafts]
            return registry.parse_read(ReadResult(drafts), file=file, target=target, dialect="objdump",
                                       ignore_unknown=ignore_unknown, packed_workitem_ids=packed_workitem_ids,
                                       facts=facts)
        assert self.text is not None
        return registry.parse(self.text, file=file, target=target, dialect="objdump", ignore_unknown=ignore_unknown,
                              packed_workitem_ids=packed_workitem_ids, facts=facts)


def code_reading(co: CodeObject, *, file: str, symbols: Sequence[str] | None = None,
                 disassembler: str = "ours") -> CodeReading:
    """:func:`code_listing` as the reader will read it: with our decoder, the drafts straight from the decoded
    instructions (the same kernels, lines numbered as in the text, without writing and re-reading it: half of the
    time of decoding a library went there, docs/performance.md); else, or where a name would not read back as
    written, the text."""
    if check_disassembler(disassembler) == "ours":
        wave64 = wave64_code(co)
        try:
            drafted = objdump_drafts(_sections(co, file), co.processor,
                                     symbols=None if symbols is None else set(symbols), wave64=wave64,
                                     extents=co.functions)
        except NotDecoded as exc:
            text, notes = _fall_back(co, file, symbols, wave64, exc)
            return CodeReading(text, None, notes)
        if drafted is not None:
            return CodeReading(None, drafted, _hardware_notes(co, file, drafted.notes))
    text, notes = code_listing(co, file=file, symbols=symbols, disassembler=disassembler)
    return CodeReading(text, None, notes)


def _sections(co: CodeObject, file: str) -> list[CodeSection]:
    from isalens.binary.sections import code_sections

    return code_sections(co.data, file=file, where=co.source)


def _llvm(co: CodeObject, file: str, symbols: Sequence[str] | None, wave64: bool) -> str:
    return disassemble(co.data, co.processor, file=file, source=co.source, symbols=symbols, extents=co.functions,
                       wave64=wave64)


def _fall_back(co: CodeObject, file: str, symbols: Sequence[str] | None, wave64: bool,
               exc: NotDecoded) -> tuple[str, tuple[Diagnostic, ...]]:
    """llvm-objdump's listing of what our decoder does not read, with the note saying so."""
    if co.processor.startswith(("gfx6", "gfx7")):  # nothing to fall back to (docs/decoder.md, "gfx6/gfx7")
        raise DisassemblyUnsupported(
            f"{co.source}: our decoder does not read {exc.reason}, and LLVM 19's disassembler does not support "
            f"{co.processor} (gfx6/gfx7); its metadata is listed by `isalens list`", file=file,
            code="disassembler-target") from None
    note = Diagnostic(Severity.NOTE, "disassembler", f"{co.source}: our decoder does not read {exc.reason}; this "
                      "code object was disassembled by llvm-objdump", file, None)
    return _llvm(co, file, symbols, wave64), (note,)


def _hardware_notes(co: CodeObject, file: str, notes: list[str]) -> tuple[Diagnostic, ...]:
    return tuple(Diagnostic(Severity.NOTE, "hardware-encoding", f"{co.source}: {n}", file, None) for n in notes)
