"""The executable sections of a code object and the symbols inside them: what a disassembler walks
(``llvm-objdump -d`` prints one block per symbol of each executable section, in address order)."""

from __future__ import annotations

from dataclasses import dataclass

from isalens.binary.elf64 import (
    SHF_EXECINSTR,
    SHN_ABS,
    SHN_COMMON,
    SHN_UNDEF,
    SHT_NOBITS,
    STT_FILE,
    STT_SECTION,
    Elf64,
    ElfFormatError,
)
from isalens.errors import InputError, guarded

__all__ = ["CodeSection", "code_sections"]

#: st_info types by their gABI names ("Symbol Table"); another value is shown as its number
_TYPE_NAMES = {0: "STT_NOTYPE", 1: "STT_OBJECT", 2: "STT_FUNC", 3: "STT_SECTION", 4: "STT_FILE", 5: "STT_COMMON",
               6: "STT_TLS", 7: "STT_NUM", 8: "STT_RELC", 9: "STT_SRELC", 10: "STT_LOOS", 12: "STT_HIOS",
               13: "STT_LOPROC", 15: "STT_HIPROC"}
#: section indices that name no section: undefined, absolute, common
_NO_SECTION = (SHN_UNDEF, SHN_ABS, SHN_COMMON)


@dataclass(frozen=True, slots=True)
class CodeSection:
    """One executable section: name, load address, bytes, and its symbols as (address, name, ELF type) sorted by
    address (empty names, section and file symbols left out, as objdump leaves them out)."""

    name: str
    address: int
    data: bytes
    symbols: tuple[tuple[int, str, str], ...]


def code_sections(data: bytes, *, file: str, where: str) -> list[CodeSection]:
    """Every ``SHF_EXECINSTR`` section of the ELF ``data`` with its symbols; a damaged ELF is one error line."""
    with guarded(file, where, code="code-object"):
        try:
            return _read(data)
        except ElfFormatError as exc:
            raise InputError(f"{where}: damaged ELF: {exc}", file=file, code="code-object") from None


def _read(data: bytes) -> list[CodeSection]:
    elf = Elf64(data)
    by_index: dict[int, list[tuple[int, str, str]]] = {}
    symtab = elf.section(".symtab") or elf.section(".dynsym")
    for name, value, _size, kind, shndx in elf.symbols(symtab) if symtab else ():
        if not name or kind in (STT_SECTION, STT_FILE) or shndx in _NO_SECTION:
            continue
        by_index.setdefault(shndx, []).append((value, name, _TYPE_NAMES.get(kind, str(kind))))
    return [CodeSection(section.name, section.address, elf.contents(section), tuple(sorted(by_index.get(index, []))))
            for index, section in enumerate(elf.sections)
            if section.flags & SHF_EXECINSTR and section.type != SHT_NOBITS]
