"""One AMDGPU code object (an ELF for ``EM_AMDGPU``, code object v4-v6): target, kernels with their
descriptor and metadata figures, and every function symbol. Read with :mod:`isalens.binary.elf64`.

The ABI version byte of ``e_ident`` gives the code object version (AMDGPUUsage, "ELF Header"): 0 v2, 1 v3,
2 v4, 3 v5, 4 v6.
"""

from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass
from typing import Any

from isalens.binary.descriptor import KD_SIZE, decode_descriptor, not_understood
from isalens.binary.elf64 import SHN_UNDEF, SHT_NOBITS, SHT_NOTE, STT_FUNC, Elf64, ElfFormatError
from isalens.binary.elf_flags import ElfFlags, decode_e_flags
from isalens.binary.metadata import NT_AMDGPU_METADATA, kernel_fields, unpack_metadata
from isalens.errors import InputError, guarded
from isalens.names import demangled

__all__ = ["EM_AMDGPU", "CodeObject", "KernelInfo", "read_code_object"]

EM_AMDGPU = 224
_VERSIONS = {0: 2, 1: 3, 2: 4, 3: 5, 4: 6}


@dataclass(frozen=True, slots=True)
class KernelInfo:
    """A kernel as the code object describes it: metadata (``.vgpr_count`` ...) and kernel descriptor fields."""

    name: str
    symbol: str
    metadata: dict[str, str]
    descriptor: dict[str, str]

    def _int(self, key: str) -> int | None:
        value = self.metadata.get(key)
        try:
            return int(value) if value is not None else None
        except ValueError:
            return None

    @property
    def vgpr_count(self) -> int | None:
        return self._int("vgpr_count")

    @property
    def sgpr_count(self) -> int | None:
        return self._int("sgpr_count")

    @property
    def agpr_count(self) -> int | None:
        return self._int("agpr_count")

    @property
    def lds_bytes(self) -> int | None:
        return self._int("group_segment_fixed_size")

    @property
    def wave_size(self) -> int | None:
        return self._int("wavefront_size")

    def summary(self) -> dict[str, Any]:
        """The figures ``isalens list --json`` shows."""
        return {"name": self.name, "kernel_demangled": demangled(self.name), "vgpr_count": self.vgpr_count,
                "sgpr_count": self.sgpr_count, "agpr_count": self.agpr_count, "lds_bytes": self.lds_bytes,
                "wave_size": self.wave_size,
                "kernarg_preload_length": int(self.descriptor.get("kernarg_preload_length", "0")),
                "kernarg_preload_offset": int(self.descriptor.get("kernarg_preload_offset", "0"))}


@dataclass(frozen=True, slots=True)
class CodeObject:
    """A parsed code object; ``data`` is the whole ELF (handed to the disassembler)."""

    target: str
    version: int
    source: str
    data: bytes
    kernels: tuple[KernelInfo, ...]
    #: every function symbol: name -> (address, size in bytes)
    functions: dict[str, tuple[int, int]]
    #: major version of the clang that compiled it (``.comment``), when it says
    compiler_major: int | None = None
    #: the debug information it carries: ``lines+variables`` (a line table and variable location lists,
    #: ``-g``), ``lines`` (``-gline-tables-only``) or ``none``
    debug_info: str = "none"
    #: what ``e_flags`` says (processor, XNACK, SRAMECC, generic version)
    flags: ElfFlags | None = None
    #: each field read but not understood, one line each, naming the kernel where it is a kernel's
    warnings: tuple[str, ...] = ()

    @property
    def processor(self) -> str:
        """The processor without target features: ``gfx90a`` of ``gfx90a:xnack-``."""
        return self.target.split(":", 1)[0]


def _bytes_at(sections: list[tuple[int, int, int]], data: bytes, address: int, size: int,
              what: str, *, file: str, where: str) -> bytes | None:
    """``size`` bytes at virtual ``address``, from the section (address, size, file offset) that holds it;
    None when no section holds them, an error when the section holding them lies past the end of the file."""
    for start, length, offset in sections:
        if start <= address and address + size <= start + length:
            at = offset + address - start
            if at + size > len(data):
                raise InputError(f"{where}: {what} at file offset {at:#x} lies past the end of the file "
                                 f"({len(data):#x} bytes)", file=file, code="descriptor")
            return data[at:at + size]
    return None


def read_code_object(data: bytes, *, file: str, source: str) -> CodeObject:
    """Parse the code object ``data`` (from ``source`` inside ``file``); one-line errors name both."""
    where = source or "code object"
    if not data.startswith(b"\x7fELF"):
        raise InputError(f"{where}: not an ELF code object", file=file, code="code-object")
    # one boundary: whatever msgpack or a decompressor raise on a damaged file is named here, once
    with guarded(file, where, code="code-object"):
        co = _read(data, file=file, source=source, where=where)
    return co


def _read(data: bytes, *, file: str, source: str, where: str) -> CodeObject:
    try:
        elf = Elf64(data)
        if elf.machine != EM_AMDGPU:
            raise InputError(f"{where}: ELF for machine {elf.machine}, not AMDGPU ({EM_AMDGPU})", file=file,
                             code="not-amdgpu")
        version = _VERSIONS.get(elf.abi_version, 0)
        if version < 4:
            what = f"code object v{version}" if version else f"code object ABI version {elf.abi_version}"
            raise InputError(f"{where}: {what} is not supported (isalens reads code objects v4-v6)",
                             file=file, code="code-object-version")
        meta: dict[str, Any] | None = None
        for section in elf.sections:
            if section.type == SHT_NOTE:
                for name, kind, desc in elf.notes(section):
                    if name == "AMDGPU" and kind == NT_AMDGPU_METADATA:
                        meta = unpack_metadata(desc, file=file, where=where)
        if meta is None:
            raise InputError(f"{where}: no AMDGPU metadata note", file=file, code="metadata")
        target = str(meta.get("amdhsa.target", "")).rsplit("--", 1)[-1]
        if not target.startswith("gfx"):
            raise InputError(f"{where}: metadata names no gfx target ({meta.get('amdhsa.target')!r})", file=file,
                             code="metadata")
        processor = target.split(":", 1)[0]
        symbols: dict[str, tuple[int, int]] = {}
        functions: dict[str, tuple[int, int]] = {}
        symtab = elf.section(".symtab") or elf.section(".dynsym")
        for name, value, size, kind, shndx in elf.symbols(symtab) if symtab else ():
            symbols[name] = (value, size)
            if kind == STT_FUNC and shndx != SHN_UNDEF:
                functions[name] = (value, size)
        sections = [(x.address, x.size, x.offset) for x in elf.sections if x.type != SHT_NOBITS and x.address]
        flags = decode_e_flags(elf.flags, version)
        warnings = list(flags.problems)
        if flags.processor is not None and flags.processor != processor:
            warnings.append(f"e_flags name {flags.processor}, the metadata {processor}: the metadata's is used")
        kernels = []
        for entry in meta["amdhsa.kernels"]:
            fields = kernel_fields(entry)
            name = fields.get("name", "")
            kd_name = fields.get("symbol") or f"{name}.kd"
            kd = symbols.get(kd_name)
            raw = _bytes_at(sections, data, kd[0], KD_SIZE, f"kernel {name}: kernel descriptor {kd_name}",
                            file=file, where=where) if kd else None
            if raw is None:
                raise InputError(f"{where}: kernel {name}: no kernel descriptor {kd_name}", file=file,
                                 code="descriptor")
            kernels.append(KernelInfo(name, kd_name.removesuffix(".kd"), fields, decode_descriptor(raw, processor)))
            warnings += [f"kernel {name}: {problem}" for problem in not_understood(raw, processor)]
        compiler = _compiler_major(elf, file=file, where=where)
    except ElfFormatError as exc:
        raise InputError(f"{where}: damaged ELF: {exc}", file=file, code="code-object") from None
    names = {x.name for x in elf.sections}
    debug = ("none" if ".debug_line" not in names
             else "lines+variables" if names & {".debug_loclists", ".debug_loc"} else "lines")
    return CodeObject(target, version, source, data, tuple(kernels), functions, compiler, debug, flags,
                      tuple(dict.fromkeys(warnings)))


_CLANG_RE = re.compile(rb"clang version (\d+)\.")
_SHF_COMPRESSED = 0x800
#: a .comment holds a few compiler version strings; more than this is not a .comment
_MAX_COMMENT = 1 << 16


def _comment_bytes(elf: Elf64, *, file: str, where: str) -> bytes | None:
    """The ``.comment`` section's text, decompressed (bounded) when the section is ``SHF_COMPRESSED``."""
    comment = elf.section(".comment")
    if comment is None or comment.type == SHT_NOBITS:
        return None
    raw = elf.contents(comment)  # bounds checked there (ElfFormatError: the caller names the file)
    if not comment.flags & _SHF_COMPRESSED:
        return raw
    # Elf64_Chdr (gABI): u32 ch_type (1 zlib, 2 zstd), u32 reserved, u64 ch_size, u64 ch_addralign
    if len(raw) < 24:
        raise InputError(f"{where}: compressed .comment has no compression header", file=file, code="code-object")
    kind, _, declared, _ = struct.unpack_from("<IIQQ", raw, 0)
    if declared > _MAX_COMMENT:
        raise InputError(f"{where}: compressed .comment declares {declared:,} bytes (a .comment holds at most "
                         f"{_MAX_COMMENT:,})", file=file, code="code-object")
    try:
        if kind == 1:
            inflater = zlib.decompressobj()
            text = inflater.decompress(raw[24:], declared + 1)
        elif kind == 2:
            import zstandard

            text = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw[24:])).read(declared + 1)
        else:
            raise InputError(f"{where}: compressed .comment uses unknown compression type {kind} (1 zlib, 2 zstd)",
                             file=file, code="code-object")
    except zlib.error as exc:
        raise InputError(f"{where}: corrupt compressed .comment: {exc}", file=file, code="code-object") from None
    if len(text) != declared:
        raise InputError(f"{where}: compressed .comment decompresses to a size other than the {declared} bytes "
                         "declared", file=file, code="code-object")
    return text


def _compiler_major(elf: Elf64, *, file: str, where: str) -> int | None:
    comment = _comment_bytes(elf, file=file, where=where)
    if comment is None:
        return None
    versions = [int(v) for v in _CLANG_RE.findall(comment)]
    return max(versions) if versions else None
