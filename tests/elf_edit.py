"""Byte-level edits of 64-bit little-endian ELF files by section name, for hostile-input tests: a thin layer over
the fuzzer's own ELF editor (``tools/fuzz_binary.py``: section headers per the System V gABI), so the tests and
the fuzzer damage files the same way."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tools.fuzz_binary import Section, contents, find_section, note, put, set_section
from tools.fuzz_binary import replace_contents as _replace_contents

__all__ = ["SHF_COMPRESSED", "damage_section", "find", "note", "put", "replace_contents", "section_bytes",
           "set_address", "set_header"]

SHF_COMPRESSED = 0x800


def _section(elf: bytes, name: str) -> Section:
    found = find_section(elf, name)
    assert found is not None, f"no section {name}"
    return found


def set_header(elf: bytes, name: str, *, offset: int | None = None, size: int | None = None,
               flags: int | None = None, link: int | None = None, entsize: int | None = None) -> bytes:
    """``elf`` with fields of section ``name``'s header replaced."""
    for field, value in (("sh_flags", flags), ("sh_offset", offset), ("sh_size", size), ("sh_link", link),
                         ("sh_entsize", entsize)):
        if value is not None:
            elf = set_section(elf, _section(elf, name), field, value)
    return elf


def find(elf: bytes, name: str) -> Section | None:
    """Section ``name``'s header, or None when ``elf`` has none of that name."""
    return find_section(elf, name)


def set_address(elf: bytes, name: str, address: int) -> bytes:
    """``elf`` with section ``name`` loaded at ``address`` (0: not loaded)."""
    return set_section(elf, _section(elf, name), "sh_addr", address)


def replace_contents(elf: bytes, name: str, data: bytes) -> bytes:
    """``elf`` with section ``name``'s contents replaced by ``data``, appended at the end of the file."""
    return _replace_contents(elf, _section(elf, name), data)


def section_bytes(elf: bytes, name: str) -> bytes:
    return contents(elf, _section(elf, name))


def damage_section(elf: bytes, sections: Sequence[str], rng: random.Random) -> bytes:
    """``elf`` with one of ``sections`` (picked by ``rng``; a name listed twice is picked twice as often) cut short
    (one time in five) or with 1-4 random two-byte overwrites; unchanged when the file has no such section."""
    section = rng.choice(list(sections))
    if find(elf, section) is None:
        return elf
    data = bytearray(section_bytes(elf, section))
    if rng.random() < 0.2:
        return replace_contents(elf, section, bytes(data[: rng.randrange(len(data) + 1)]))
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data))
        data[at : at + 2] = rng.randbytes(2)
    return replace_contents(elf, section, bytes(data))
