"""A small reader of 64-bit little-endian ELF files (every AMDGPU code object is one): the header, the section
table, symbol tables and notes, read with :mod:`struct` on the file's bytes.

It is the hot path of ``isalens list`` and of a scan's loading: pyelftools builds its ``construct`` parsers for
each file and parses every symbol through them (librocsparse: 777 code objects, 232,000 symbols, two thirds of
``list``'s time). pyelftools stays for the DWARF readers and is the oracle of this module's tests.

Layouts from the System V gABI ("ELF Header", "Sections", "Symbol Table", "Note Section"):

* header (64 bytes): ``e_ident`` (16: magic, class 2 = 64-bit, data 1 = little-endian, version, OS ABI, ABI
  version), u16 e_type, u16 e_machine, u32 e_version, u64 e_entry, u64 e_phoff, u64 e_shoff, u32 e_flags,
  u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
* section header (64 bytes): u32 sh_name, u32 sh_type, u64 sh_flags, sh_addr, sh_offset, sh_size, u32 sh_link,
  u32 sh_info, u64 sh_addralign, u64 sh_entsize; with more than 0xff00 sections ``e_shnum`` is 0 and section 0's
  ``sh_size`` holds the count, ``e_shstrndx`` is 0xffff and section 0's ``sh_link`` holds the index;
* symbol (24 bytes): u32 st_name, u8 st_info (type in the low 4 bits), u8 st_other, u16 st_shndx, u64 st_value,
  u64 st_size;
* note: u32 namesz, u32 descsz, u32 type, the name and the descriptor each padded to 4 bytes.

Hostile files (issue 25): every offset, size and count is checked against the file before anything is read or
allocated; the section count is bounded by the bytes its table occupies, the symbol count by its section's. A
check that fails raises :class:`ElfFormatError` (a ``ValueError``) saying what is damaged; the callers name the
file.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import mmap

    Buffer = bytes | mmap.mmap

__all__ = ["SHF_EXECINSTR", "SHN_ABS", "SHN_COMMON", "SHN_UNDEF", "SHT_NOBITS", "SHT_NOTE", "STT_FILE", "STT_FUNC",
           "STT_SECTION", "Elf64", "ElfFormatError", "Section", "Symbol"]

SHT_SYMTAB, SHT_NOTE, SHT_NOBITS, SHT_DYNSYM = 2, 7, 8, 11
#: Solaris' extra dynamic symbol table, which pyelftools also reads as a symbol table
SHT_SUNW_LDYNSYM = 0x6FFFFFF3
SHF_EXECINSTR = 0x4
STT_FUNC, STT_SECTION, STT_FILE = 2, 3, 4
SHN_UNDEF, SHN_ABS, SHN_COMMON, SHN_XINDEX = 0, 0xFFF1, 0xFFF2, 0xFFFF
_SYMBOL_TABLES = (SHT_SYMTAB, SHT_DYNSYM, SHT_SUNW_LDYNSYM)

_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_SECTION = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")
_NOTE = struct.Struct("<III")


class ElfFormatError(ValueError):
    """The bytes are not a well-formed 64-bit little-endian ELF; the message says what is damaged."""


@dataclass(frozen=True, slots=True)
class Section:
    """One section header (sizes and offsets as the file says them; :meth:`Elf64.contents` checks them)."""

    index: int
    name: str
    type: int
    flags: int
    address: int
    offset: int
    size: int
    link: int
    entsize: int


#: (name, st_value, st_size, type = st_info & 0xf, st_shndx): a tuple, as a library's code objects hold 232,000
Symbol = tuple[str, int, int, int, int]


def _text(raw: bytes) -> str:
    # as pyelftools decodes names (a symbol name is any bytes a binary holds)
    return raw.decode("utf-8", errors="replace")


class Elf64:
    """The header and section table of the ELF in ``data`` (bytes or an ``mmap``; nothing is copied but the
    section table and what is asked for)."""

    __slots__ = ("_by_name", "abi_version", "data", "flags", "machine", "sections")

    def __init__(self, data: Buffer) -> None:
        self.data = data
        if len(data) < _HEADER.size:
            raise ElfFormatError(f"ELF header truncated ({len(data)} of {_HEADER.size} bytes)")
        ident, _type, machine, _version, _entry, _phoff, shoff, flags, _ehsize, _phentsize, _phnum, shentsize, \
            shnum, shstrndx = _HEADER.unpack_from(data, 0)
        if ident[:4] != b"\x7fELF":
            raise ElfFormatError("no ELF magic")
        if ident[4] != 2 or ident[5] != 1:
            raise ElfFormatError(f"not a 64-bit little-endian ELF (class {ident[4]}, data encoding {ident[5]})")
        self.machine: int = machine
        self.abi_version: int = ident[8]
        self.flags: int = flags
        self.sections: tuple[Section, ...] = self._section_table(shoff, shentsize, shnum, shstrndx)
        # the last section of a name wins, as in pyelftools' get_section_by_name
        self._by_name = {s.name: s for s in self.sections}

    def _header_at(self, shoff: int, index: int) -> tuple[int, ...]:
        return tuple(_SECTION.unpack_from(self.data, shoff + index * _SECTION.size))

    def _section_table(self, shoff: int, shentsize: int, shnum: int, shstrndx: int) -> tuple[Section, ...]:
        if shoff == 0:
            return ()
        if shentsize != _SECTION.size:
            raise ElfFormatError(f"section headers of {shentsize} bytes (ELF64's are {_SECTION.size})")
        if shoff + _SECTION.size > len(self.data):
            raise ElfFormatError(f"section header table at {shoff:#x} lies past the end of the file "
                                 f"({len(self.data):#x} bytes)")
        first = self._header_at(shoff, 0)
        count = shnum if shnum else first[5]  # section 0's sh_size when there are 0xff00 or more
        if shoff + count * _SECTION.size > len(self.data):
            raise ElfFormatError(f"section header table ({count:,} headers at {shoff:#x}) lies past the end of the "
                                 f"file ({len(self.data):#x} bytes)")
        raw = [self._header_at(shoff, i) for i in range(count)]
        names_index = first[6] if shstrndx == SHN_XINDEX else shstrndx  # section 0's sh_link when >= 0xff00
        names = b""
        if 0 < names_index < count:
            table = raw[names_index]
            names = self._bytes(table[4], table[5], "section name string table") if table[1] != SHT_NOBITS else b""
        elif names_index:
            raise ElfFormatError(f"section name string table index {names_index} is not a section "
                                 f"({count} sections)")
        return tuple(Section(i, _string(names, h[0], "section name string table"), h[1], h[2], h[3], h[4], h[5],
                             h[6], h[9]) for i, h in enumerate(raw))

    def _bytes(self, offset: int, size: int, what: str) -> bytes:
        if offset + size > len(self.data):
            raise ElfFormatError(f"{what} (offset {offset:#x}, {size:,} bytes) lies past the end of the file "
                                 f"({len(self.data):#x} bytes)")
        return bytes(self.data[offset:offset + size])

    def section(self, name: str) -> Section | None:
        """The section named ``name`` (the last one, when several are)."""
        return self._by_name.get(name)

    def contents(self, section: Section) -> bytes:
        """The bytes of ``section`` (none for ``SHT_NOBITS``); an error when they lie outside the file."""
        if section.type == SHT_NOBITS:
            return b""
        return self._bytes(section.offset, section.size, f"section {section.name or section.index}")

    def symbols(self, table: Section) -> list[Symbol]:
        """Every entry of the symbol table ``table``, in order, named from the string table it links to."""
        if table.type not in _SYMBOL_TABLES:
            return []
        if table.entsize != _SYMBOL.size:
            raise ElfFormatError(f"symbol table {table.name} has entries of {table.entsize} bytes (ELF64's are "
                                 f"{_SYMBOL.size})")
        if not 0 <= table.link < len(self.sections):
            raise ElfFormatError(f"symbol table {table.name} links to section {table.link}, which does not exist")
        names = self.contents(self.sections[table.link])
        raw = self.contents(table)
        whole = len(raw) - len(raw) % _SYMBOL.size
        out: list[Symbol] = []
        append = out.append
        find = names.find
        for name, info, _other, shndx, value, size in _SYMBOL.iter_unpack(raw[:whole]):
            if name:
                if name >= len(names):
                    raise ElfFormatError(f"symbol name offset {name:#x} lies past the end of {table.name}'s string "
                                         f"table ({len(names):#x} bytes)")
                end = find(b"\0", name)
                text = _text(names[name:end if end >= 0 else len(names)])
            else:
                text = ""
            append((text, value, size, info & 0xF, shndx))
        return out

    def notes(self, section: Section) -> list[tuple[str | None, int, bytes]]:
        """The notes of ``section`` as (name up to its NUL or None when it has none, type, descriptor)."""
        raw = self.contents(section)
        found: list[tuple[str | None, int, bytes]] = []
        at = 0
        while at + _NOTE.size <= len(raw):
            namesz, descsz, kind = _NOTE.unpack_from(raw, at)
            at += _NOTE.size
            name_end = at + _padded(namesz)
            desc_end = name_end + descsz
            if desc_end > len(raw):
                raise ElfFormatError(f"note at {at - _NOTE.size:#x} of section {section.name} ({namesz:,} name "
                                     f"bytes, {descsz:,} descriptor bytes) runs past the section's "
                                     f"{len(raw):,} bytes")
            name = raw[at:at + namesz].split(b"\0", 1)[0].decode("latin-1") if namesz else None
            found.append((name, kind, raw[name_end:desc_end]))
            at = name_end + _padded(descsz)
        return found


def _padded(size: int) -> int:
    return (size + 3) & ~3


def _string(table: bytes, offset: int, what: str) -> str:
    """The NUL-terminated string at ``offset`` of ``table`` (to the table's end when it has no NUL); a file
    without the table names nothing."""
    if not table:
        return ""
    if offset >= len(table):
        raise ElfFormatError(f"name offset {offset:#x} lies past the end of the {what} ({len(table):#x} bytes)")
    end = table.find(b"\0", offset)
    return _text(table[offset:end if end >= 0 else len(table)])
