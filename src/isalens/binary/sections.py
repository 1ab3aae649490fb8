"""The executable sections of a code object and the symbols inside them: what a disassembler walks
(``llvm-objdump -d`` prints one block per symbol of each executable section, in address order)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from isalens.errors import InputError, guarded

__all__ = ["CodeSection", "code_sections"]

_SHF_EXECINSTR = 0x4


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
        except ELFError as exc:
            raise InputError(f"{where}: unreadable ELF: {exc}", file=file, code="code-object") from None


def _read(data: bytes) -> list[CodeSection]:
    elf = ELFFile(io.BytesIO(data))
    by_index: dict[int, list[tuple[int, str, str]]] = {}
    symtab = elf.get_section_by_name(".symtab") or elf.get_section_by_name(".dynsym")
    if isinstance(symtab, SymbolTableSection):
        for sym in symtab.iter_symbols():
            kind = sym["st_info"]["type"]
            if not sym.name or kind in ("STT_SECTION", "STT_FILE") or not isinstance(sym["st_shndx"], int):
                continue
            by_index.setdefault(sym["st_shndx"], []).append((int(sym["st_value"]), sym.name, str(kind)))
    out = []
    for index, section in enumerate(elf.iter_sections()):
        if not int(section["sh_flags"]) & _SHF_EXECINSTR or section["sh_type"] == "SHT_NOBITS":
            continue
        out.append(CodeSection(section.name, int(section["sh_addr"]), section.data(),
                               tuple(sorted(by_index.get(index, [])))))
    return out
