"""Small byte-level edits of 64-bit little-endian ELF files, for hostile-input tests: each reproduces one kind
of damage exactly (a section moved past 2^63, a note without its NUL, a symbol name that is not UTF-8 ...).

Layout from the System V gABI (ELF-64 header: e_shoff at 0x28, e_shentsize/e_shnum/e_shstrndx at 0x3a;
section header: sh_name 0, sh_type 4, sh_flags 8, sh_addr 16, sh_offset 24, sh_size 32, sh_link 40;
symbol: st_name 0, st_info 4, st_other 5, st_shndx 6, st_value 8, st_size 16).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

SHF_COMPRESSED = 0x800


@dataclass(frozen=True)
class Section:
    index: int
    name: str
    kind: int
    flags: int
    addr: int
    offset: int
    size: int
    link: int
    header: int  # file offset of this section's header


def sections(elf: bytes) -> list[Section]:
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    raw = []
    for i in range(shnum):
        at = shoff + i * shentsize
        name, kind, flags, addr, offset, size, link = struct.unpack_from("<IIQQQQI", elf, at)
        raw.append((i, name, kind, flags, addr, offset, size, link, at))
    strtab = raw[shstrndx]
    names = elf[strtab[5]:strtab[5] + strtab[6]]
    return [Section(i, names[n:names.index(b"\0", n)].decode(), k, f, a, o, s, lk, at)
            for i, n, k, f, a, o, s, lk, at in raw]


def section(elf: bytes, name: str) -> Section:
    return next(s for s in sections(elf) if s.name == name)


def set_header(elf: bytes, name: str, *, offset: int | None = None, size: int | None = None,
               flags: int | None = None) -> bytes:
    """``elf`` with fields of section ``name``'s header replaced."""
    s = section(elf, name)
    out = bytearray(elf)
    if flags is not None:
        struct.pack_into("<Q", out, s.header + 8, flags)
    if offset is not None:
        struct.pack_into("<Q", out, s.header + 24, offset)
    if size is not None:
        struct.pack_into("<Q", out, s.header + 32, size)
    return bytes(out)


def replace_contents(elf: bytes, name: str, data: bytes) -> bytes:
    """``elf`` with section ``name``'s contents replaced by ``data``, appended at the end of the file."""
    offset = (len(elf) + 7) // 8 * 8
    grown = elf + b"\0" * (offset - len(elf)) + data
    return set_header(grown, name, offset=offset, size=len(data))


def note(name: bytes, kind: int, desc: bytes, *, namesz: int | None = None) -> bytes:
    """One ELF note: namesz, descsz, type, name and desc each padded to 4 bytes."""
    def pad(b: bytes) -> bytes:
        return b + b"\0" * (-len(b) % 4)
    return struct.pack("<III", len(name) if namesz is None else namesz, len(desc), kind) + pad(name) + pad(desc)


def symbol_offsets(elf: bytes) -> dict[str, int]:
    """Symbol name -> file offset of its symbol-table entry (``.symtab``)."""
    symtab = section(elf, ".symtab")
    strtab = sections(elf)[symtab.link]
    out = {}
    for at in range(symtab.offset, symtab.offset + symtab.size, 24):
        n, = struct.unpack_from("<I", elf, at)
        start = strtab.offset + n
        out[elf[start:elf.index(b"\0", start)].decode("utf-8", "replace")] = at
    return out


def rename_byte(elf: bytes, symbol: str, byte: int) -> bytes:
    """``elf`` with the first character of ``symbol``'s name in the string table replaced by ``byte``."""
    symtab = section(elf, ".symtab")
    strtab = sections(elf)[symtab.link]
    n, = struct.unpack_from("<I", elf, symbol_offsets(elf)[symbol])
    out = bytearray(elf)
    out[strtab.offset + n] = byte
    return bytes(out)


def set_symbol_value(elf: bytes, symbol: str, value: int) -> bytes:
    out = bytearray(elf)
    struct.pack_into("<Q", out, symbol_offsets(elf)[symbol] + 8, value)
    return bytes(out)


def section_bytes(elf: bytes, name: str) -> bytes:
    s = section(elf, name)
    return elf[s.offset:s.offset + s.size]
