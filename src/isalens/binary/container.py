"""Find the AMDGPU code objects in a file: a code object itself, an offload bundle (``.hipfb``, plain or
compressed, several concatenated), or a host ELF (executable, shared object, relocatable object) whose
``.hip_fatbin`` section holds bundles or whose read-only data embeds code objects (the HSA runtime's blit
kernels).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, cast

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from isalens.binary.bundle import COMPRESSED_MAGIC, PLAIN_MAGIC, read_bundles
from isalens.binary.codeobject import EM_AMDGPU
from isalens.errors import InputError, guarded

if TYPE_CHECKING:
    import mmap

    Buffer = bytes | mmap.mmap

__all__ = ["CodeObjectRef", "find_code_objects", "is_binary"]

_ELF = b"\x7fELF"
_FATBIN_SECTIONS = (".hip_fatbin", "__CLANG_OFFLOAD_BUNDLE__")


@dataclass(frozen=True, slots=True)
class CodeObjectRef:
    """Where a code object was found (``.hip_fatbin bundle 2 entry hipv4-amdgcn-amd-amdhsa--gfx1030``) and its
    bytes; ``triple`` is the bundle entry's, when it came from a bundle."""

    source: str
    data: bytes
    triple: str | None = None


def is_binary(head: bytes) -> bool:
    """Whether a file starting with ``head`` is one this package reads (ELF or offload bundle)."""
    return head.startswith((_ELF, PLAIN_MAGIC, COMPRESSED_MAGIC))


def _amdgcn_entries(data: Buffer, file: str, section: str, start: int, stop: int) -> Iterator[CodeObjectRef]:
    others: set[str] = set()
    amd = with_code = 0
    for e in read_bundles(data, file=file, section=section, start=start, stop=stop):
        if "amdgcn" not in e.triple:
            others.add(e.triple)
            continue
        amd += 1
        if e.data:
            with_code += 1
            yield CodeObjectRef(e.source, e.data, e.triple)
    if amd and not with_code:
        where = f"{section}: " if section else ""
        raise InputError(f"{where}offload bundle's {amd} AMDGPU entr{'y is' if amd == 1 else 'ies are'} empty: no "
                         "code object", file=file, code="no-code-object")
    if not amd:
        where = f"{section}: " if section else ""
        raise InputError(f"{where}offload bundle has no AMDGPU entry (entries: {', '.join(sorted(others)) or 'none'})",
                         file=file, code="no-amdgpu")


def _elf_extent(data: Buffer, at: int, stop: int) -> int | None:
    """Bytes spanned by the 64-bit little-endian ELF at ``at`` (headers and every section), from its header."""
    if at + 64 > stop or data[at + 4] != 2 or data[at + 5] != 1:
        return None
    phoff, shoff = struct.unpack_from("<QQ", data, at + 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, at + 54)
    end = max(phoff + phentsize * phnum, shoff + shentsize * shnum)
    if shentsize != 64 or at + end > stop:
        return None
    for i in range(shnum):
        kind, = struct.unpack_from("<I", data, at + shoff + 64 * i + 4)
        offset, size = struct.unpack_from("<QQ", data, at + shoff + 64 * i + 24)
        if kind != 8:  # SHT_NOBITS occupies no file bytes
            end = max(end, offset + size)
    return end if at + end <= stop else None


def _embedded(data: Buffer, section: str, start: int, stop: int) -> Iterator[CodeObjectRef]:
    """AMDGPU ELF images stored whole inside a host section."""
    at = data.find(_ELF, start, stop)
    while at >= 0:
        machine = struct.unpack_from("<H", data, at + 18)[0] if at + 20 <= stop else 0
        extent = _elf_extent(data, at, stop) if machine == EM_AMDGPU else None
        if extent:
            yield CodeObjectRef(f"{section}+{at - start:#x}", bytes(data[at:at + extent]))
            at = data.find(_ELF, at + extent, stop)
        else:
            at = data.find(_ELF, at + 4, stop)


class _Stream:
    """A read-only file-like view of ``data`` for pyelftools that never copies more than asked."""

    def __init__(self, data: Buffer) -> None:
        self.data, self.pos = data, 0

    def seek(self, pos: int, whence: int = 0) -> int:
        self.pos = pos if whence == 0 else (self.pos + pos if whence == 1 else len(self.data) + pos)
        return self.pos

    def tell(self) -> int:
        return self.pos

    def read(self, n: int = -1) -> bytes:
        end = len(self.data) if n < 0 else min(len(self.data), self.pos + n)
        chunk = bytes(self.data[self.pos:end])
        self.pos = end
        return chunk


def _host_elf(data: Buffer, file: str) -> Iterator[CodeObjectRef]:
    try:
        elf = ELFFile(cast(IO[bytes], _Stream(data)))
        machine = elf.header["e_machine"]
        sections = [(s.name, int(s["sh_offset"]), int(s["sh_size"]), s["sh_type"]) for s in elf.iter_sections()]
    except (ELFError, ValueError, KeyError, struct.error) as exc:
        raise InputError(f"unreadable ELF (damaged or truncated header: {exc})", file=file, code="elf") from None
    found = False
    for name, offset, size, kind in sections:
        if kind == "SHT_NOBITS" or size == 0 or offset + size > len(data):
            continue
        if name in _FATBIN_SECTIONS:
            found = True
            yield from _amdgcn_entries(data, file, name, offset, offset + size)
        elif kind == "SHT_PROGBITS":
            for ref in _embedded(data, name, offset, offset + size):
                found = True
                yield ref
    if not found:
        raise InputError(f"ELF for {machine}, not AMDGPU, and no offload bundle (.hip_fatbin) or AMDGPU code object "
                         "inside", file=file, code="not-amdgpu")


def find_code_objects(data: Buffer, *, file: str) -> Iterator[CodeObjectRef]:
    """Every AMDGPU code object in ``data`` (the bytes or an ``mmap`` of ``file``), in file order, lazily;
    whatever pyelftools or a decompressor raise on a damaged container becomes one error naming ``file``."""
    with guarded(file, "container", code="binary"):
        yield from _code_objects(data, file)


def _code_objects(data: Buffer, file: str) -> Iterator[CodeObjectRef]:
    head = bytes(data[:64])
    if head.startswith((PLAIN_MAGIC, COMPRESSED_MAGIC)):
        yield from _amdgcn_entries(data, file, "", 0, len(data))
    elif head.startswith(_ELF):
        if len(head) >= 20 and struct.unpack_from("<H", head, 18)[0] == EM_AMDGPU:
            yield CodeObjectRef("code object", bytes(data))
        else:
            yield from _host_elf(data, file)
    else:
        raise InputError("not a code object, offload bundle or ELF file", file=file, code="not-binary")
