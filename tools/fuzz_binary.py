"""Binary inputs for tools/fuzz.py: AMDGPU code objects clang-19 builds from small kernels written here, offload
bundles (plain and compressed ``CCOB`` v1-v3, zlib and zstd) built here from their published layout, host ELF
files with a ``.hip_fatbin`` section, and mutations that know these structures.

An input is a *recipe*: a list of (step, seed) pairs applied in order to a seed code object (ELF edits, then
wrapping in containers, then container edits). The fuzzer minimises a failing input by dropping steps, and the
steps' names say in one line what the input is.

Layouts: ELF-64 from the System V gABI (header fields at 0x10-0x3f; section header: sh_name 0, sh_type 4,
sh_flags 8, sh_addr 16, sh_offset 24, sh_size 32, sh_link 40, sh_info 44, sh_addralign 48, sh_entsize 56; symbol:
st_name 0, st_info 4, st_other 5, st_shndx 6, st_value 8, st_size 16; notes: namesz, descsz, type, name and desc
each padded to 4; compressed sections: Elf64_Chdr u32 type (1 zlib, 2 zstd), u32 reserved, u64 size, u64 align).
AMDGPU metadata: MessagePack under note name ``AMDGPU``, type 32 (LLVM AMDGPUUsage); MessagePack encodings from
its specification (msgpack/spec.md, big-endian lengths). Bundles: the docstring of ``isalens.binary.bundle``.
"""

from __future__ import annotations

import hashlib
import math
import random
import shutil
import struct
import subprocess
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.fuzz_mutate import edge_value, mutate_bytes

__all__ = ["BinarySeeds", "binary_recipe", "build_binary", "build_binary_seeds", "load_binary_seeds"]

PLAIN_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
CCOB_MAGIC = b"CCOB"
HOST_TRIPLE = "host-x86_64-unknown-linux-gnu-"
NT_AMDGPU_METADATA = 32
SHF_COMPRESSED = 0x800
SHT_SYMTAB, SHT_STRTAB, SHT_NOTE, SHT_NOBITS, SHT_DYNSYM = 2, 3, 7, 8, 11
STT_FUNC = 2
ZLIB, ZSTD = 0, 1

# ----------------------------------------------------------------------------------------------- ELF

_SECTION_FIELDS = {"sh_name": (0, "<I"), "sh_type": (4, "<I"), "sh_flags": (8, "<Q"), "sh_addr": (16, "<Q"),
                   "sh_offset": (24, "<Q"), "sh_size": (32, "<Q"), "sh_link": (40, "<I"), "sh_info": (44, "<I"),
                   "sh_addralign": (48, "<Q"), "sh_entsize": (56, "<Q")}
_HEADER_FIELDS = {"EI_CLASS": (4, "<B"), "EI_DATA": (5, "<B"), "EI_OSABI": (7, "<B"), "EI_ABIVERSION": (8, "<B"),
                  "e_type": (16, "<H"), "e_machine": (18, "<H"), "e_phoff": (32, "<Q"), "e_shoff": (40, "<Q"),
                  "e_flags": (48, "<I"), "e_phentsize": (54, "<H"), "e_phnum": (56, "<H"),
                  "e_shentsize": (58, "<H"), "e_shnum": (60, "<H"), "e_shstrndx": (62, "<H")}


@dataclass(frozen=True, slots=True)
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
    """The section headers of a 64-bit little-endian ELF; [] when the table cannot be read."""
    try:
        shoff, = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    except struct.error:
        return []
    if shentsize != 64 or shnum == 0 or shoff + 64 * shnum > len(elf) or shstrndx >= shnum:
        return []
    raw = [(i, *struct.unpack_from("<IIQQQQI", elf, shoff + 64 * i), shoff + 64 * i) for i in range(shnum)]
    names_at, names_size = raw[shstrndx][5], raw[shstrndx][6]
    names = elf[names_at:names_at + names_size] if names_at + names_size <= len(elf) else b""

    def name(n: int) -> str:
        end = names.find(b"\0", n)
        return names[n:end].decode("latin-1") if 0 <= n < len(names) and end >= 0 else ""

    return [Section(i, name(n), k, f, a, o, s, lk, at) for i, n, k, f, a, o, s, lk, at in raw]


def find_section(elf: bytes, name: str = "", kind: int | None = None) -> Section | None:
    return next((s for s in sections(elf) if (not name or s.name == name) and (kind is None or s.kind == kind)),
                None)


def contents(elf: bytes, section: Section) -> bytes:
    return elf[section.offset:section.offset + section.size] if section.kind != SHT_NOBITS else b""


def put(data: bytes, at: int, fmt: str, value: int) -> bytes:
    """``data`` with the field at ``at`` set to ``value`` (masked to the field's width)."""
    if at < 0 or at + struct.calcsize(fmt) > len(data):
        return data
    out = bytearray(data)
    struct.pack_into(fmt, out, at, value & ((1 << (8 * struct.calcsize(fmt))) - 1))
    return bytes(out)


def set_section(elf: bytes, section: Section, name: str, value: int) -> bytes:
    at, fmt = _SECTION_FIELDS[name]
    return put(elf, section.header + at, fmt, value)


def replace_contents(elf: bytes, section: Section, data: bytes) -> bytes:
    """``elf`` with ``section``'s contents replaced by ``data``, appended at the end of the file."""
    offset = (len(elf) + 7) // 8 * 8
    grown = elf + bytes(offset - len(elf)) + data
    return set_section(set_section(grown, section, "sh_offset", offset), section, "sh_size", len(data))


@dataclass(frozen=True, slots=True)
class Symbol:
    name: bytes
    entry: int  # file offset of the symbol-table entry
    value: int
    size: int
    info: int
    shndx: int
    strtab: Section


def symbols(elf: bytes) -> list[Symbol]:
    """Every entry of ``.symtab`` and ``.dynsym`` whose table and names lie inside the file."""
    table = sections(elf)
    out = []
    for sec in table:
        if sec.kind not in (SHT_SYMTAB, SHT_DYNSYM) or sec.link >= len(table) or sec.offset + sec.size > len(elf):
            continue
        strtab = table[sec.link]
        names = contents(elf, strtab)
        for at in range(sec.offset, sec.offset + sec.size - 23, 24):
            n, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", elf, at)
            end = names.find(b"\0", n)
            if n < len(names) and end >= 0:
                out.append(Symbol(names[n:end], at, value, size, info, shndx, strtab))
    return out


def file_offset(elf: bytes, address: int) -> int | None:
    """The file offset of virtual ``address`` (from the allocated section that holds it)."""
    for sec in sections(elf):
        if sec.addr and sec.kind != SHT_NOBITS and sec.addr <= address < sec.addr + sec.size:
            return sec.offset + address - sec.addr
    return None


def rename(elf: bytes, symbol: Symbol, name: bytes) -> bytes:
    """``elf`` with ``symbol`` named ``name``: the name is added to its string table (moved to the end)."""
    strtab = next((s for s in sections(elf) if s.index == symbol.strtab.index), None)
    if strtab is None:
        return elf
    old = contents(elf, strtab)
    return put(replace_contents(elf, strtab, old + name + b"\0"), symbol.entry, "<I", len(old))


# ----------------------------------------------------------------------------------------------- MessagePack

@dataclass(frozen=True, slots=True)
class Pairs:
    """A MessagePack map as written: keys of any type (lists and maps too), in order, duplicates kept."""

    items: tuple[tuple[Any, Any], ...]


@dataclass(frozen=True, slots=True)
class Raw:
    """MessagePack bytes written as they are: an invalid UTF-8 string, a lying length, an ext type, deep nesting."""

    data: bytes


def _head(out: bytearray, n: int, fix: int | None, fix_max: int, codes: tuple[int, int, int]) -> None:
    if fix is not None and n <= fix_max:
        out.append(fix | n)
    elif n < 1 << 8 and codes[0]:
        out += bytes((codes[0], n))
    elif n < 1 << 16:
        out += bytes((codes[1],)) + struct.pack(">H", n)
    else:
        out += bytes((codes[2],)) + struct.pack(">I", n)


def pack(obj: Any) -> bytes:
    """``obj`` (None, bool, int, float, str, bytes, list, :class:`Pairs`, :class:`Raw`) as MessagePack; a
    subtree that occurs many times (a kernel list repeated) is encoded once."""
    memo: dict[int, bytes] = {}

    def encode(item: Any) -> bytes:
        if isinstance(item, Raw):
            return item.data
        if item is None:
            return b"\xc0"
        if isinstance(item, bool):
            return b"\xc3" if item else b"\xc2"
        if isinstance(item, int):
            if 0 <= item < 0x80:
                return bytes((item,))
            if -32 <= item < 0:
                return struct.pack(">b", item)
            if 0 <= item < 1 << 64:
                return b"\xcf" + struct.pack(">Q", item)
            if -(1 << 63) <= item < 0:
                return b"\xd3" + struct.pack(">q", item)
            return b"\xcb" + struct.pack(">d", math.inf if item > 0 else -math.inf)
        if isinstance(item, float):
            return b"\xcb" + struct.pack(">d", item)
        out = bytearray()
        if isinstance(item, str):
            data = item.encode("utf-8", "surrogatepass")
            _head(out, len(data), 0xA0, 31, (0xD9, 0xDA, 0xDB))
            return bytes(out + data)
        if isinstance(item, bytes):
            _head(out, len(item), None, 0, (0xC4, 0xC5, 0xC6))
            return bytes(out + item)
        known = memo.get(id(item))
        if known is not None:
            return known
        if isinstance(item, list | tuple):
            _head(out, len(item), 0x90, 15, (0, 0xDC, 0xDD))
            out += b"".join(encode(x) for x in item)
        elif isinstance(item, Pairs):
            _head(out, len(item.items), 0x80, 15, (0, 0xDE, 0xDF))
            out += b"".join(encode(k) + encode(v) for k, v in item.items)
        else:
            raise TypeError(f"cannot pack {type(item).__name__}")
        memo[id(item)] = bytes(out)
        return memo[id(item)]

    return encode(obj)


def as_tree(obj: Any) -> Any:
    """A decoded MessagePack document with its maps as :class:`Pairs`."""
    if isinstance(obj, dict):
        return Pairs(tuple((as_tree(k), as_tree(v)) for k, v in obj.items()))
    if isinstance(obj, list | tuple):
        return [as_tree(x) for x in obj]
    if obj is None or isinstance(obj, bool | int | float | str | bytes):
        return obj
    import msgpack  # an ext type or a timestamp: written back as it came

    return Raw(msgpack.packb(obj))


def _deep(rng: random.Random) -> Raw:
    depth = rng.choice((100, 1000, 20000, 200000))
    return Raw(b"\x91" * depth + b"\xc0" if rng.random() < 0.5 else b"\x81\xa1k" * depth + b"\xc0")


def hostile_value(rng: random.Random) -> Any:
    """A MessagePack value of a type or size no metadata field has."""
    return rng.choice((
        lambda: None, lambda: True, lambda: 0, lambda: -1, lambda: 1 << 32, lambda: (1 << 64) - 1,
        lambda: -(1 << 63), lambda: 0.5, lambda: math.nan, lambda: math.inf, lambda: -math.inf, lambda: "",
        lambda: "0x40", lambda: "a" * rng.choice((300, 70000)), lambda: "\u202e\ufeff", lambda: b"\xff\xfe",
        lambda: Raw(b"\xa2\xff\xfe"),                # str of 2 bytes, not UTF-8
        lambda: Raw(b"\xd9\x05ab"),                  # str8 declaring 5 bytes, 2 present
        lambda: [], lambda: [1, [2, [3]]], lambda: Pairs(()),
        lambda: Pairs(((["k"], 1),)),                # an unhashable (list) key
        lambda: Pairs(((Pairs((("a", 1),)), 2),)),   # an unhashable (map) key
        lambda: Raw(b"\xdd\xff\xff\xff\xff"),        # array32 declaring 2^32-1 items
        lambda: Raw(b"\xdf\xff\xff\xff\xff"),        # map32 declaring 2^32-1 pairs
        lambda: Raw(b"\xd4\x01\x00"),                # fixext1, application type 1
        lambda: Raw(b"\xd7\xff" + b"\xff" * 8),      # timestamp ext (-1) with an invalid nanosecond field
        lambda: Raw(b"\xd6\xff\x00\x00\x00\x01"),    # a valid timestamp: decodes to a Timestamp object
        lambda: Raw(b"\xc1"),                        # the never-used code
        lambda: _deep(rng),
    ))()


_NUMBERS = (0, 1, -1, 31, 32, 33, 63, 64, 65, 255, 256, 257, 512, 1024, 65536, 1 << 31, 1 << 32, 1 << 40,
            (1 << 63) - 1, (1 << 64) - 1, -(1 << 63), 0.5, math.nan, math.inf, True, "64", "0x40", "1e3")
_KERNEL_KEYS = (".name", ".symbol", ".vgpr_count", ".sgpr_count", ".agpr_count", ".wavefront_size",
                ".group_segment_fixed_size", ".private_segment_fixed_size", ".kernarg_segment_size",
                ".max_flat_workgroup_size", ".reqd_workgroup_size", ".workgroup_size_hint", ".vgpr_spill_count",
                ".sgpr_spill_count", ".uses_dynamic_stack", ".args", ".uniform_work_group_size", "name", "vgpr_count")
_TARGETS = ("amdgcn-amd-amdhsa--gfx9999", "amdgcn-amd-amdhsa--gfx", "gfx", "amdgcn-amd-amdhsa--gfx600",
            "amdgcn-amd-amdhsa--gfx700", "amdgcn-amd-amdhsa--gfx1100", "amdgcn-amd-amdhsa--gfx90a:xnack+:sramecc-",
            "amdgcn-amd-amdhsa--gfx90a:xnack", "amdgcn-amd-amdhsa--gfx1200", "amdgcn-amd-amdhsa--gfx9-generic",
            "--gfx90a", "amdgcn-amd-amdhsa--gfx90a\ngfx1100", "r600--redwood", "")


def _paths(node: Any, path: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    yield path
    if isinstance(node, Pairs):
        for i, (_k, v) in enumerate(node.items):
            yield from _paths(v, (*path, i))
    elif isinstance(node, list):
        for i, x in enumerate(node):
            yield from _paths(x, (*path, i))


def _get(node: Any, path: tuple[int, ...]) -> Any:
    for i in path:
        node = node.items[i][1] if isinstance(node, Pairs) else node[i]
    return node


def _set(node: Any, path: tuple[int, ...], value: Any) -> Any:
    if not path:
        return value
    i, rest = path[0], path[1:]
    if isinstance(node, Pairs):
        items = list(node.items)
        items[i] = (items[i][0], _set(items[i][1], rest, value))
        return Pairs(tuple(items))
    copy = list(node)
    copy[i] = _set(copy[i], rest, value)
    return copy


def _key_index(node: Any, key: str) -> int | None:
    if isinstance(node, Pairs):
        return next((i for i, (k, _v) in enumerate(node.items) if k == key), None)
    return None


def _with_key(node: Pairs, key: Any, value: Any) -> Pairs:
    i = _key_index(node, key)
    if i is None:
        return Pairs((*node.items, (key, value)))
    return _set(node, (i,), value)  # type: ignore[no-any-return]


def mutate_metadata(root: Any, rng: random.Random) -> Any:
    """The metadata tree after one structural edit."""
    kernels_at = _key_index(root, "amdhsa.kernels")
    kernels = _get(root, (kernels_at,)) if kernels_at is not None else None
    op = rng.randrange(9)
    if op == 0 and kernels_at is not None:  # amdhsa.kernels not a list
        return _set(root, (kernels_at,), rng.choice((5, "k", None, Pairs((("name", "k"),)), hostile_value(rng))))
    if op == 1 and isinstance(kernels, list) and kernels:  # one kernel field of a wrong type or size
        i = rng.randrange(len(kernels))
        entry = kernels[i]
        if isinstance(entry, Pairs):
            value = rng.choice(_NUMBERS) if rng.random() < 0.6 else hostile_value(rng)
            return _set(root, (kernels_at, i), _with_key(entry, rng.choice(_KERNEL_KEYS), value))  # type: ignore[arg-type]
    if op == 2:  # a key that cannot be hashed, or of another type, in some map
        maps = [p for p in _paths(root) if isinstance(_get(root, p), Pairs)]
        if maps:
            path = rng.choice(maps)
            node = _get(root, path)
            key = rng.choice((["k"], [], Pairs(()), Pairs((("a", 1),)), 7, None, 1.5, math.nan, b"\xff", True))
            items = list(node.items)
            items.insert(rng.randint(0, len(items)), (key, rng.choice((1, "v", None))))
            return _set(root, path, Pairs(tuple(items)))
    if op == 3:  # a key dropped or written twice
        maps = [p for p in _paths(root) if isinstance(_get(root, p), Pairs) and _get(root, p).items]
        if maps:
            path = rng.choice(maps)
            items = list(_get(root, path).items)
            k = rng.randrange(len(items))
            if rng.random() < 0.5:
                del items[k]
            else:
                items.append((items[k][0], hostile_value(rng)))
            return _set(root, path, Pairs(tuple(items)))
    if op == 4 and isinstance(root, Pairs):  # the target names another, an unknown or no processor
        return _with_key(root, "amdhsa.target", rng.choice(_TARGETS) if rng.random() < 0.8 else hostile_value(rng))
    if op == 5 and isinstance(kernels, list):  # many kernels, the same kernel twice, or none
        # at most ~3,000 entries: three such edits in a row once multiplied a list to a million kernels, and the
        # fuzzer itself ran out of memory packing it
        factor = min(rng.choice((0, 2, 50, 1000)), max(1, 3000 // max(1, len(kernels))))
        many = kernels * factor if kernels else [Pairs(())]
        return _set(root, (kernels_at,), many)  # type: ignore[arg-type]
    if op == 6:  # the whole document not a map
        return rng.choice(([1, 2], 5, "amdhsa", None, Raw(b"\x91\xc0"), hostile_value(rng)))
    # any node of the tree replaced
    paths = list(_paths(root))[1:] or [()]
    return _set(root, rng.choice(paths), hostile_value(rng))


def note(name: bytes, kind: int, desc: bytes, *, namesz: int | None = None, descsz: int | None = None) -> bytes:
    def pad(b: bytes) -> bytes:
        return b + bytes(-len(b) % 4)
    return (struct.pack("<III", len(name) if namesz is None else namesz, len(desc) if descsz is None else descsz,
                        kind) + pad(name) + pad(desc))


def metadata_note(elf: bytes) -> tuple[Section, bytes] | None:
    """The note section and the AMDGPU metadata note's MessagePack bytes, when the notes can be walked."""
    sec = find_section(elf, kind=SHT_NOTE)
    if sec is None:
        return None
    data = contents(elf, sec)
    at = 0
    while at + 12 <= len(data):
        namesz, descsz, kind = struct.unpack_from("<III", data, at)
        name_at = at + 12
        desc_at = name_at + (namesz + 3) // 4 * 4
        if kind == NT_AMDGPU_METADATA and data[name_at:name_at + namesz].rstrip(b"\0") == b"AMDGPU":
            return sec, data[desc_at:desc_at + descsz]
        at = desc_at + (descsz + 3) // 4 * 4
    return None


def metadata_tree(elf: bytes) -> Any | None:
    found = metadata_note(elf)
    if found is None:
        return None
    import msgpack

    try:
        return as_tree(msgpack.unpackb(found[1], raw=False, strict_map_key=False))
    except Exception:  # an earlier step damaged it: nothing to edit structurally
        return None


def with_metadata(elf: bytes, packed: bytes, *, namesz: int | None = None, descsz: int | None = None,
                  name: bytes = b"AMDGPU\0") -> bytes:
    sec = find_section(elf, kind=SHT_NOTE)
    if sec is None:
        return elf
    return replace_contents(elf, sec, note(name, NT_AMDGPU_METADATA, packed, namesz=namesz, descsz=descsz))


# ----------------------------------------------------------------------------------------------- containers

def plain_bundle(entries: list[tuple[str, bytes]], align: int = 1) -> bytes:
    """A plain offload bundle: magic, u64 count, per entry u64 offset (from the bundle's start), u64 size,
    u64 triple length and the triple, then the entries' bytes, each at a multiple of ``align``."""
    table = len(PLAIN_MAGIC) + 8 + sum(24 + len(t) for t, _ in entries)
    head = PLAIN_MAGIC + struct.pack("<Q", len(entries))
    body = b""
    for triple, data in entries:
        offset = -(-(table + len(body)) // align) * align
        body += bytes(offset - table - len(body)) + data
        head += struct.pack("<QQQ", offset, len(data), len(triple)) + triple.encode()
    return head + body


def compress(method: int, data: bytes) -> bytes:
    if method == ZSTD:
        import zstandard

        return bytes(zstandard.ZstdCompressor(level=3).compress(data))
    return zlib.compress(data)


def ccob(version: int, method: int, plain: bytes, *, declared: int | None = None, total: int | None = None,
         payload: bytes | None = None) -> bytes:
    """A compressed bundle: ``CCOB``, u16 version, u16 method, then v1 (u32 size, u64 hash), v2 (u32 total, u32
    size, u64 hash) or v3 (u64 total, u64 size, u64 hash; also used for unknown versions), then the payload."""
    body = payload if payload is not None else compress(method if method in (ZLIB, ZSTD) else ZLIB, plain)
    size = len(plain) if declared is None else declared
    header = {1: 20, 2: 24}.get(version, 32)
    whole = header + len(body) if total is None else total
    digest = int.from_bytes(hashlib.sha256(plain).digest()[:8], "little")  # the reader does not check it
    if version == 1:
        fields = struct.pack("<IQ", size & 0xFFFFFFFF, digest)
    elif version == 2:
        fields = struct.pack("<IIQ", whole & 0xFFFFFFFF, size & 0xFFFFFFFF, digest)
    else:
        fields = struct.pack("<QQQ", whole & (1 << 64) - 1, size & (1 << 64) - 1, digest)
    return CCOB_MAGIC + struct.pack("<HH", version & 0xFFFF, method & 0xFFFF) + fields + body


def triple(processor: str) -> str:
    return f"hipv4-amdgcn-amd-amdhsa--{processor}"


def processor_of(elf: bytes) -> str:
    tree = metadata_tree(elf)
    i = _key_index(tree, "amdhsa.target")
    target = _get(tree, (i,)) if i is not None else ""
    return str(target).rsplit("--", 1)[-1].split(":", 1)[0] or "gfx90a"


# ----------------------------------------------------------------------------------------------- seeds

#: OpenCL kernels with only builtins (clang -nogpulib links no device library): a load/store kernel, one with LDS,
#: a barrier and a loop, and one that calls a function kept out of line
_CL_SOURCE = """\
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}
__kernel void tile(__global float* y) {
  __local float t[256];
  uint i = __builtin_amdgcn_workitem_id_x();
  t[i] = y[i];
  __builtin_amdgcn_s_barrier();
  float s = 0;
  for (int j = 0; j < (int)y[0]; ++j) s += t[(i + j) & 255] * (float)j;
  y[i] = s;
}
__attribute__((noinline)) float poly(float x, int n) {
  float r = 1.0f;
  for (int k = 0; k < n; ++k) r = r * x + (float)k;
  return r;
}
__kernel void calls(__global float* y, int n) {
  uint i = __builtin_amdgcn_workitem_id_x();
  y[i] = poly(y[i], n) + poly(y[i + 1], n + 1);
}
"""

_HIP_SOURCE = """\
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#if !defined(__HIP_DEVICE_COMPILE__)
struct dim3 { unsigned x, y, z; };
extern "C" int hipLaunchKernel(const void*, dim3, dim3, void**, unsigned long, void*);
#endif
extern "C" __global__ void axpy(float a, const float* x, float* y) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}
template <int N> __global__ void reduce(const float* x, float* y) {
  __shared__ float t[N];
  unsigned i = __builtin_amdgcn_workitem_id_x();
  t[i] = x[i];
  __builtin_amdgcn_s_barrier();
  for (int s = N / 2; s > 0; s /= 2) { if (i < s) t[i] += t[i + s]; __builtin_amdgcn_s_barrier(); }
  if (i == 0) y[0] = t[0];
}
template __global__ void reduce<256>(const float*, float*);
"""

_HOST_SOURCE = "int host_main(void) { return 0; }\n"

#: (processor, extra clang flags) for the OpenCL code objects: wave64 and wave32, gfx9 and gfx10/11, code object
#: v4 and v6, and gfx700 (which LLVM 19's disassembler refuses)
_CL_BUILDS = (("gfx90a", ()), ("gfx1100", ()), ("gfx1030", ()), ("gfx902", ("-mcode-object-version=4",)),
              ("gfx942", ()), ("gfx1100", ("-mcode-object-version=6",)), ("gfx700", ()),
              # debug information: a line table, variable location lists and inlined subroutines to damage
              ("gfx90a", ("-g",)), ("gfx1100", ("-gline-tables-only",)))
_BOMB_SIZE = {ZLIB: 256 << 20, ZSTD: 1 << 30}
#: a .comment that inflates far past what a .comment holds
_COMMENT_BOMB = 64 << 20
SEED_SOURCES = (_CL_SOURCE, _HIP_SOURCE, _HOST_SOURCE, repr(_CL_BUILDS), repr(_BOMB_SIZE), str(_COMMENT_BOMB))


@dataclass(frozen=True)
class BinarySeeds:
    """Seed binaries: code objects (label, bytes), clang-built containers, a host ELF with ``.hip_fatbin``, and
    payloads that decompress to a bundle header followed by zeros (``bombs[method]``, ``bomb_size[method]`` bytes)."""

    code_objects: tuple[tuple[str, bytes], ...]
    containers: tuple[tuple[str, bytes], ...]
    host: bytes | None
    bombs: dict[int, bytes] = field(default_factory=dict)
    bomb_size: dict[int, int] = field(default_factory=dict)
    comment_bomb: bytes = b""


def _run(cmd: list[str], cwd: Path) -> bool:
    try:
        return subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=300,
                              check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _bomb(method: int, size: int) -> bytes:
    """A compressed stream of a plain bundle header (one entry spanning the rest) followed by zeros, ``size``
    bytes in all, made in pieces so the zeros never sit in memory whole."""
    head = PLAIN_MAGIC + struct.pack("<Q", 1)
    entry = triple("gfx90a").encode()
    start = len(head) + 24 + len(entry)
    head += struct.pack("<QQQ", start, size - start, len(entry)) + entry
    chunk = bytes(1 << 20)
    if method == ZSTD:
        import zstandard

        stream = zstandard.ZstdCompressor(level=1).compressobj(size=size)
        out = stream.compress(head)
        left = size - len(head)
        while left:
            out += stream.compress(chunk[:min(left, len(chunk))])
            left -= min(left, len(chunk))
        return bytes(out + stream.flush())
    deflate = zlib.compressobj(9)
    out = deflate.compress(head)
    left = size - len(head)
    while left:
        out += deflate.compress(chunk[:min(left, len(chunk))])
        left -= min(left, len(chunk))
    return out + deflate.flush()


def build_binary_seeds(out: Path) -> bool:
    """Build the seeds into ``out`` with clang-19 (False when clang-19 is missing): ``co/*.co`` code objects,
    ``containers/*`` clang-built bundles and host objects, ``host.o``, ``bomb.*`` and ``comment-bomb.zlib``."""
    clang, clangxx = shutil.which("clang-19"), shutil.which("clang++-19")
    if clang is None:
        return False
    objcopy = shutil.which("llvm-objcopy-19") or shutil.which("llvm-objcopy")
    (out / "co").mkdir(parents=True, exist_ok=True)
    (out / "containers").mkdir(exist_ok=True)
    (out / "k.cl").write_text(_CL_SOURCE)
    for n, (cpu, flags) in enumerate(_CL_BUILDS):
        _run([clang, "-x", "cl", "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-nogpulib", "-O2", *flags,
              "k.cl", "-o", f"co/{n}-{cpu}.co"], out)
    _run([clang, "-x", "cl", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib", "-O2", "-c", "k.cl",
          "-o", "co/relocatable-gfx90a.co"], out)
    if clangxx is not None:
        (out / "k.hip").write_text(_HIP_SOURCE)
        hip = [clangxx, "-x", "hip", "-nogpuinc", "-nogpulib", "-O2", "--offload-arch=gfx90a",
               "--offload-arch=gfx1100", "k.hip"]
        _run([*hip, "--cuda-device-only", "-o", "containers/plain.hipfb"], out)
        _run([*hip, "--cuda-device-only", "--offload-compress", "-o", "containers/compressed.hipfb"], out)
        _run([*hip, "-c", "-o", "containers/host-plain.o"], out)
        _run([*hip, "-c", "--offload-compress", "-o", "containers/host-compressed.o"], out)
    (out / "host.c").write_text(_HOST_SOURCE)
    fatbin = out / "containers" / "plain.hipfb"
    if objcopy and fatbin.exists() and _run([clang, "-c", "-x", "c", "host.c", "-o", "host-bare.o"], out):
        _run([objcopy, f"--add-section=.hip_fatbin={fatbin}", "--set-section-flags=.hip_fatbin=alloc,readonly",
              "host-bare.o", "host.o"], out)
    for method, size in _BOMB_SIZE.items():
        try:
            (out / f"bomb.{method}").write_bytes(_bomb(method, size))
        except ImportError:  # no zstandard: zlib bombs only
            continue
    comment = zlib.compressobj(9)
    (out / "comment-bomb.zlib").write_bytes(comment.compress(b"clang version 19.1.7" + bytes(_COMMENT_BOMB))
                                            + comment.flush())
    return any((out / "co").iterdir())


def load_binary_seeds(root: Path) -> BinarySeeds | None:
    cos = tuple((p.stem, p.read_bytes()) for p in sorted((root / "co").glob("*.co")))
    if not cos:
        return None
    containers = tuple((p.name, p.read_bytes()) for p in sorted((root / "containers").glob("*")))
    host = root / "host.o"
    bombs = {m: (root / f"bomb.{m}").read_bytes() for m in (ZLIB, ZSTD) if (root / f"bomb.{m}").exists()}
    return BinarySeeds(cos, containers, host.read_bytes() if host.exists() else None, bombs,
                       {m: _BOMB_SIZE[m] for m in bombs}, (root / "comment-bomb.zlib").read_bytes())


# ----------------------------------------------------------------------------------------------- recipe steps

@dataclass
class _State:
    seeds: BinarySeeds
    co: bytes = b""
    others: list[bytes] = field(default_factory=list)
    #: entries a bundle gets besides the code objects (an odd triple, junk for bytes)
    odd: list[tuple[str, bytes]] = field(default_factory=list)
    out: bytes | None = None  # the container, once the code object is wrapped

    def result(self) -> bytes:
        return self.out if self.out is not None else self.co


Step = Callable[[_State, random.Random], None]
_STEPS: dict[str, Step] = {}


def _step(name: str) -> Callable[[Step], Step]:
    def register(fn: Step) -> Step:
        _STEPS[name] = fn
        return fn
    return register


def _elf_step(name: str) -> Callable[[Callable[[bytes, _State, random.Random], bytes]], Step]:
    """A step that edits the code object (a no-op once it is wrapped in a container)."""
    def register(fn: Callable[[bytes, _State, random.Random], bytes]) -> Step:
        def step(state: _State, rng: random.Random) -> None:
            if state.out is None:
                state.co = fn(state.co, state, rng)
        _STEPS[name] = step
        return step
    return register


@_step("pick")
def _pick(state: _State, rng: random.Random) -> None:
    linked = [co for label, co in state.seeds.code_objects if not label.startswith("relocatable")]
    state.co = rng.choice([co for _, co in state.seeds.code_objects] if rng.random() < 0.05 else linked)
    state.others = [rng.choice(linked) for _ in range(rng.choice((0, 0, 1, 2)))]


@_elf_step("elf header field")
def _elf_header(elf: bytes, state: _State, rng: random.Random) -> bytes:
    name = rng.choice(tuple(_HEADER_FIELDS))
    at, fmt = _HEADER_FIELDS[name]
    if name == "EI_ABIVERSION":
        value = rng.choice((0, 1, 2, 3, 4, 5, 6, 255))
    elif name == "e_machine":
        value = rng.choice((0, 62, 224, 0xFFFF))
    elif name == "e_flags":  # EF_AMDGPU_MACH (low byte) and the xnack/sramecc feature bits
        value = rng.randrange(0x100) | rng.choice((0, 0x100, 0x200, 0x300, 0x400, 0x800, 0xC00, 0xF00))
    else:
        value = edge_value(rng, struct.unpack_from(fmt, elf, at)[0] if at + 8 <= len(elf) else 0,
                           8 * struct.calcsize(fmt))
    return put(elf, at, fmt, value)


_INTERESTING_SECTIONS = (".note", ".text", ".symtab", ".strtab", ".dynsym", ".dynstr", ".rodata", ".comment",
                         ".shstrtab", ".dynamic", ".hash", ".gnu.hash", ".debug_info", ".debug_line",
                         ".debug_loclists", ".debug_abbrev", ".debug_str_offsets", ".debug_addr")


@_elf_step("section header field")
def _section_field(elf: bytes, state: _State, rng: random.Random) -> bytes:
    table = sections(elf)
    if not table:
        return elf
    named = [s for s in table if s.name in _INTERESTING_SECTIONS]
    sec = rng.choice(named if named and rng.random() < 0.8 else table)
    name = rng.choice(("sh_offset", "sh_size", "sh_offset", "sh_size", "sh_addr", "sh_link", "sh_entsize",
                       "sh_name", "sh_type", "sh_flags", "sh_info", "sh_addralign"))
    near = {"sh_offset": sec.offset, "sh_size": sec.size, "sh_addr": sec.addr}.get(name, len(elf))
    if name == "sh_type":
        value = rng.choice((0, 1, 2, 3, 7, 8, 11, 0x6FFFFFF6, 0xFFFFFFFF))
    elif name == "sh_flags" and rng.random() < 0.5:
        value = sec.flags | SHF_COMPRESSED
    else:
        value = edge_value(rng, near if rng.random() < 0.5 else len(elf), 32 if name in ("sh_link", "sh_name",
                                                                                          "sh_info") else 64)
    return set_section(elf, sec, name, value)


#: metadata past this size (thousands of kernels with long strings) makes an input too slow to be worth it
_MAX_METADATA = 4 << 20


@_elf_step("metadata msgpack")
def _metadata(elf: bytes, state: _State, rng: random.Random) -> bytes:
    tree = metadata_tree(elf)
    if tree is None:
        return elf
    for _ in range(rng.choice((1, 1, 2, 3))):
        tree = mutate_metadata(tree, rng)
    packed = pack(tree)
    if len(packed) > _MAX_METADATA:
        return elf
    if rng.random() < 0.1:  # cut short, or followed by a second document
        packed = packed[:rng.randrange(len(packed) + 1)] if rng.random() < 0.5 else packed + b"\x91\xc0"
    return with_metadata(elf, packed)


@_elf_step("note framing")
def _note_framing(elf: bytes, state: _State, rng: random.Random) -> bytes:
    found = metadata_note(elf)
    if found is None:
        return elf
    sec, desc = found
    choice = rng.randrange(7)
    if choice == 0:  # the name without its NUL
        return with_metadata(elf, desc, namesz=6, name=b"AMDGPU")
    if choice == 1:
        return with_metadata(elf, desc, namesz=edge_value(rng, 7, 32))
    if choice == 2:
        return with_metadata(elf, desc, descsz=edge_value(rng, len(desc), 32))
    if choice == 3:  # the section cut inside the note, or not a multiple of 4
        return set_section(elf, sec, "sh_size", rng.choice((1, 3, 11, 13, sec.size - 1, sec.size - 3, sec.size + 1)))
    if choice == 4:  # two metadata notes, the second a stranger
        other = note(b"AMDGPU\0", NT_AMDGPU_METADATA, pack(hostile_value(rng)))
        return replace_contents(elf, sec, contents(elf, sec) + other)
    if choice == 5:  # the name not AMDGPU, or a type other than metadata
        return replace_contents(elf, sec, note(rng.choice((b"AMD\0", b"", b"AMDGPU\xff\0")),
                                               rng.choice((NT_AMDGPU_METADATA, 1, 0xFFFFFFFF)), desc))
    return replace_contents(elf, sec, b"")


def _kd_symbols(elf: bytes) -> list[Symbol]:
    return [s for s in symbols(elf) if s.name.endswith(b".kd")]


@_elf_step("kernel descriptor past the end")
def _kd_past_end(elf: bytes, state: _State, rng: random.Random) -> bytes:
    kds = _kd_symbols(elf)
    if not kds:
        return elf
    kd = rng.choice(kds)
    choice = rng.randrange(4)
    if choice == 0:  # the descriptor runs past the end of its section
        holder = next((s for s in sections(elf) if s.addr and s.addr <= kd.value < s.addr + s.size), None)
        if holder is not None:
            return put(elf, kd.entry + 8, "<Q", holder.addr + holder.size - rng.randint(1, 63))
    if choice == 1:  # its section's bytes begin near (or past) the end of the file
        holder = next((s for s in sections(elf) if s.addr and s.addr <= kd.value < s.addr + s.size), None)
        if holder is not None:
            return set_section(elf, holder, "sh_offset", len(elf) - rng.randint(-64, 64))
    return put(elf, kd.entry + 8, "<Q", edge_value(rng, kd.value))


@_elf_step("symbol field")
def _symbol_field(elf: bytes, state: _State, rng: random.Random) -> bytes:
    syms = symbols(elf)
    if not syms:
        return elf
    sym = rng.choice(syms)
    at, fmt = rng.choice(((0, "<I"), (4, "<B"), (5, "<B"), (6, "<H"), (8, "<Q"), (16, "<Q")))
    return put(elf, sym.entry + at, fmt, edge_value(rng, sym.value, 8 * struct.calcsize(fmt)))


#: symbol names the ELF allows and the assembler can spell (quoted), with characters our readers and outputs
#: treat specially: objdump's ``<name>:`` header, CSV cells (``=``, ``+``, ``-``, ``@``), spaces, quotes, newlines
_NAMES = ("a<b>", "f(int)", 'k"q', "x=1", '=HYPERLINK("http://example.invalid/")', "+cmd|' /C calc'!A0", "@SUM(1)",
          "-2+3", "\tTAB", "\rCR", "two words", "ünïcode", "\u202etxt", "k\nv_add_f32 v0, v1, v2", "k:", ".LBB0_1",
          "x" * 5000, "a,b", "k'q", "</script><script>", "saxpy", "tile.kd", "%s%n", "{kernel}", "k>:", "")
#: names that are not UTF-8 (legal in ELF: a name is any bytes up to NUL)
_BYTE_NAMES = (b"\xff\xfe", b"k\xc3", b"\xed\xa0\x80", b"a\x80b", b"\xc0\xaf")


@_elf_step("symbol renamed")
def _rename_symbol(elf: bytes, state: _State, rng: random.Random) -> bytes:
    syms = [s for s in symbols(elf) if s.name]
    if not syms:
        return elf
    funcs = [s for s in syms if s.info & 0xF == STT_FUNC or s.name.endswith(b".kd")]
    sym = rng.choice(funcs if funcs and rng.random() < 0.8 else syms)
    name = rng.choice(_BYTE_NAMES) if rng.random() < 0.5 else rng.choice(_NAMES).encode()
    return rename(elf, sym, name)


@_elf_step("kernel renamed")
def _rename_kernel(elf: bytes, state: _State, rng: random.Random) -> bytes:
    """A kernel renamed consistently (function symbol, descriptor symbol, metadata ``.name``/``.symbol``), so the
    odd name reaches the disassembler, the reports and the result tables."""
    tree = metadata_tree(elf)
    kernels_at = _key_index(tree, "amdhsa.kernels")
    kernels = _get(tree, (kernels_at,)) if kernels_at is not None else None
    if not isinstance(kernels, list) or not kernels or not isinstance(kernels[0], Pairs):
        return elf
    i = rng.randrange(len(kernels))
    entry = kernels[i]
    name_at = _key_index(entry, ".name")
    if not isinstance(entry, Pairs) or name_at is None or not isinstance(_get(entry, (name_at,)), str):
        return elf
    old = _get(entry, (name_at,)).encode()
    new = rng.choice(_NAMES)
    for sym in symbols(elf):
        if sym.name in (old, old + b".kd") and sym.strtab.name == ".strtab":
            fresh = next((s for s in symbols(elf) if s.entry == sym.entry), None)
            if fresh is not None:
                elf = rename(elf, fresh, new.encode() + sym.name[len(old):])
    entry = _with_key(_with_key(entry, ".name", new), ".symbol", new + ".kd")
    return with_metadata(elf, pack(_set(tree, (kernels_at, i), entry)))  # type: ignore[arg-type]


@_elf_step("compressed .comment")
def _compress_comment(elf: bytes, state: _State, rng: random.Random) -> bytes:
    sec = find_section(elf, ".comment")
    if sec is None:
        return elf
    text = contents(elf, sec)
    kind, declared = rng.choice(((1, len(text)), (2, len(text)), (1, len(text)), (0, len(text)), (3, len(text)),
                                 (0xFFFFFFFF, len(text))))
    payload = compress(ZSTD if kind == 2 else ZLIB, text)
    choice = rng.randrange(6)
    if choice == 0:  # a declared size far beyond a .comment's
        declared = rng.choice((1 << 32, 1 << 63, (1 << 64) - 1, 1 << 40))
    elif choice == 1 and state.seeds.comment_bomb:  # inflates to 64 MiB, declares little
        kind, payload, declared = 1, state.seeds.comment_bomb, rng.choice((len(text), 100, 1 << 16))
    elif choice == 2:
        payload = mutate_bytes(payload, rng)
    elif choice == 3:  # a header cut short
        return set_section(replace_contents(elf, sec, struct.pack("<IIQQ", 1, 0, len(text), 1)[:rng.randrange(24)]),
                           sec, "sh_flags", sec.flags | SHF_COMPRESSED)
    chdr = struct.pack("<IIQQ", kind, 0, declared & (1 << 64) - 1, 1)
    return set_section(replace_contents(elf, sec, chdr + payload), sec, "sh_flags", sec.flags | SHF_COMPRESSED)


@_elf_step("code words")
def _text_words(elf: bytes, state: _State, rng: random.Random) -> bytes:
    sec = find_section(elf, ".text")
    if sec is None or sec.size < 4 or sec.offset + sec.size > len(elf):
        return elf
    for _ in range(rng.randint(1, 8)):
        at = sec.offset + rng.randrange(sec.size // 4) * 4
        word = rng.choice((0xFFFFFFFF, 0, 0xBF810000, 0xBF82FFFF, 0xBE802000, 0xBE801D00, rng.getrandbits(32)))
        elf = put(elf, at, "<I", word)
    return elf


@_elf_step("kernel descriptor bytes")
def _kd_bytes(elf: bytes, state: _State, rng: random.Random) -> bytes:
    kds = _kd_symbols(elf)
    at = file_offset(elf, rng.choice(kds).value) if kds else None
    if at is None:
        return elf
    return mutate_bytes(elf, rng, rng.randint(1, 4), start=at, stop=at + 64)


@_elf_step("ELF bytes")
def _elf_bytes(elf: bytes, state: _State, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        shoff = struct.unpack_from("<Q", elf, 0x28)[0] if len(elf) >= 0x30 else 0
        start, stop = (0, 64) if rng.random() < 0.5 or shoff >= len(elf) else (shoff, len(elf))
        return mutate_bytes(elf, rng, start=start, stop=stop)
    return mutate_bytes(elf, rng)


@_elf_step("ELF cut")
def _elf_truncate(elf: bytes, state: _State, rng: random.Random) -> bytes:
    edges = [s.offset + d for s in sections(elf) for d in (0, 1, s.size - 1, s.size)]
    cut = rng.choice(edges) if edges and rng.random() < 0.7 else rng.randrange(len(elf) + 1)
    return elf[:max(0, cut)]


# containers

def _entries(state: _State, rng: random.Random) -> list[tuple[str, bytes]]:
    entries = [(triple(processor_of(co)), co) for co in (state.co, *state.others)]
    if rng.random() < 0.8:
        entries.insert(0, (HOST_TRIPLE, b""))
    return entries + state.odd


@_step("odd bundle entry")
def _odd_entry(state: _State, rng: random.Random) -> None:
    name = rng.choice(("openmp-x86_64-unknown-linux-gnu", "hip-spirv64-amd-amdhsa--amdgcnspirv", "",
                       "hipv4-amdgcn-amd-amdhsa--gfx9999", "hipv4-amdgcn\xff", "hipv4-amdgcn-amd-amdhsa--gfx90a"))
    state.odd.append((name, rng.choice((b"\x7fELF junk", b"", state.co[:rng.randrange(len(state.co) + 1)]))))


@_step("plain bundle")
def _wrap_plain(state: _State, rng: random.Random) -> None:
    state.out = plain_bundle(_entries(state, rng), align=rng.choice((1, 8, 4096)))


def _plain_table(data: bytes) -> tuple[int, int, list[int]] | None:
    """(bundle start, entry count, file offsets of the entries) of the first plain bundle in ``data``."""
    start = data.find(PLAIN_MAGIC)
    if start < 0 or start + 32 > len(data):
        return None
    count = struct.unpack_from("<Q", data, start + 24)[0]
    at, entries = start + 32, []
    while len(entries) < min(count, 64) and at + 24 <= len(data):
        entries.append(at)
        at += 24 + struct.unpack_from("<Q", data, at + 16)[0]
    return start, count, entries


@_step("bundle table field")
def _bundle_field(state: _State, rng: random.Random) -> None:
    found = _plain_table(state.out or b"")
    if state.out is None or found is None:
        return
    start, count, entries = found
    if not entries or rng.random() < 0.15:
        state.out = put(state.out, start + 24, "<Q", edge_value(rng, count))
        return
    entry = rng.choice(entries)
    which = rng.randrange(4)
    if which == 3:  # the triple's bytes
        length = struct.unpack_from("<Q", state.out, entry + 16)[0]
        if 0 < length < 256:
            junk = bytes(rng.choice((0xFF, 0x00, 0x0A, 0x2D, 0x41)) for _ in range(length))
            state.out = state.out[:entry + 24] + junk + state.out[entry + 24 + length:]
        return
    near = struct.unpack_from("<Q", state.out, entry + 8 * which)[0]
    state.out = put(state.out, entry + 8 * which, "<Q", edge_value(rng, near if rng.random() < 0.5
                                                                    else len(state.out) - start))


@_step("overlapping bundle entries")
def _overlap(state: _State, rng: random.Random) -> None:
    """Many entries over one (padded) code object: each would be a copy if entries were not views."""
    padded = state.co + bytes(rng.choice((0, 1 << 16, 1 << 18)))
    count = rng.choice((2, 300, 2000 if len(padded) > 1 << 17 else 5000))
    name = triple(processor_of(state.co)).encode()
    table = len(PLAIN_MAGIC) + 8 + count * (24 + len(name))
    shift = rng.choice((0, 0, 8, -8))  # the same bytes, or staggered by a few
    out = bytearray(PLAIN_MAGIC + struct.pack("<Q", count))
    for i in range(count):
        offset = max(0, table + (i * shift if shift > 0 else 0) + (shift if shift < 0 else 0))
        out += struct.pack("<QQQ", offset, len(padded), len(name)) + name
    state.out = bytes(out) + padded + bytes(max(0, shift) * count)


@_step("compressed bundle")
def _wrap_ccob(state: _State, rng: random.Random) -> None:
    plain = state.out if state.out is not None else plain_bundle(_entries(state, rng))
    methods = (ZLIB, ZSTD) if ZSTD in state.seeds.bombs else (ZLIB,)
    state.out = ccob(rng.choice((1, 2, 3)), rng.choice(methods), plain)


def _ccob_at(data: bytes) -> int:
    return data.find(CCOB_MAGIC)


@_step("compressed bundle header field")
def _ccob_field(state: _State, rng: random.Random) -> None:
    at = _ccob_at(state.out or b"")
    if state.out is None or at < 0 or at + 32 > len(state.out):
        return
    version = struct.unpack_from("<H", state.out, at + 4)[0]
    which = rng.randrange(4)
    if which == 0:
        state.out = put(state.out, at + 4, "<H", rng.choice((0, 1, 2, 3, 4, 0xFFFF)))
    elif which == 1:
        state.out = put(state.out, at + 6, "<H", rng.choice((0, 1, 2, 0xFFFF)))
    else:  # total size (v2, v3) or declared uncompressed size
        fields = {1: ((8, "<I"),), 2: ((8, "<I"), (12, "<I")), 3: ((8, "<Q"), (16, "<Q"))}.get(version, ((8, "<Q"),))
        off, fmt = rng.choice(fields)
        near = struct.unpack_from(fmt, state.out, at + off)[0]
        state.out = put(state.out, at + off, fmt, edge_value(rng, near, 8 * struct.calcsize(fmt)))


@_step("compressed bundle payload")
def _ccob_payload(state: _State, rng: random.Random) -> None:
    at = _ccob_at(state.out or b"")
    if state.out is None or at < 0:
        return
    header = {1: 20, 2: 24}.get(struct.unpack_from("<H", state.out, at + 4)[0] if at + 6 <= len(state.out) else 3, 32)
    if rng.random() < 0.3:
        state.out += rng.choice((b"\0" * 7, b"\x28\xb5\x2f\xfd", b"garbage", state.out[at:]))
    else:
        state.out = mutate_bytes(state.out, rng, start=min(len(state.out), at + header))


@_step("bundles one after another")
def _concat(state: _State, rng: random.Random) -> None:
    first = state.out if state.out is not None else plain_bundle(_entries(state, rng))
    pad = bytes(-len(first) % rng.choice((1, 4096)))
    second = plain_bundle([(HOST_TRIPLE, b"")] + [(triple(processor_of(co)), co) for co in state.others or [state.co]])
    tail = rng.choice((second, ccob(rng.choice((1, 2, 3)), ZLIB, second), b"garbage" * 3, PLAIN_MAGIC, CCOB_MAGIC,
                       PLAIN_MAGIC + struct.pack("<Q", 1), (PLAIN_MAGIC + struct.pack("<Q", 0)) * 2000))
    state.out = first + pad + tail


@_step("compression bomb")
def _bomb_step(state: _State, rng: random.Random) -> None:
    if not state.seeds.bombs:
        return
    method = rng.choice(tuple(state.seeds.bombs))
    size = state.seeds.bomb_size[method]
    version = rng.choice((1, 2, 3))
    declared = rng.choice((size, 1000, 0xFFFFFFFF, 1 << 63, (1 << 64) - 1, 64 << 20, (64 << 20) - 1, 1 << 40))
    if version < 3:
        declared &= 0xFFFFFFFF
    state.out = ccob(version, method, b"", declared=declared, payload=state.seeds.bombs[method])


@_step("host ELF .hip_fatbin")
def _wrap_host(state: _State, rng: random.Random) -> None:
    host = state.seeds.host
    sec = find_section(host, ".hip_fatbin") if host else None
    if host is None or sec is None:
        return
    payload = state.out if state.out is not None else plain_bundle(_entries(state, rng))
    state.out = replace_contents(host, sec, payload)


@_step("host section field")
def _host_field(state: _State, rng: random.Random) -> None:
    if state.out is None or not state.out.startswith(b"\x7fELF"):
        return
    table = sections(state.out)
    fat = [s for s in table if s.name == ".hip_fatbin"]
    if not table:
        return
    sec = rng.choice(fat if fat and rng.random() < 0.7 else table)
    name = rng.choice(("sh_offset", "sh_size", "sh_type", "sh_name"))
    near = {"sh_offset": sec.offset, "sh_size": sec.size}.get(name, len(state.out))
    state.out = set_section(state.out, sec, name, edge_value(rng, near, 32 if name == "sh_name" else 64))


@_step("clang-built container")
def _real(state: _State, rng: random.Random) -> None:
    if state.seeds.containers:
        state.out = rng.choice(state.seeds.containers)[1]


@_step("bytes")
def _bytes(state: _State, rng: random.Random) -> None:
    if state.out is None:
        state.co = mutate_bytes(state.co, rng)
    else:
        state.out = mutate_bytes(state.out, rng)


@_step("cut")
def _cut(state: _State, rng: random.Random) -> None:
    data = state.result()
    cut = rng.randrange(len(data) + 1)
    if state.out is None:
        state.co = data[:cut]
    else:
        state.out = data[:cut]


ELF_STEPS = {"metadata msgpack": 8, "section header field": 6, "elf header field": 3, "note framing": 3,
              "kernel descriptor past the end": 2, "symbol field": 2, "symbol renamed": 3, "kernel renamed": 4,
              "compressed .comment": 2, "code words": 4, "kernel descriptor bytes": 3, "ELF bytes": 3, "ELF cut": 1}
_SHAPES = {"code object": 36, "plain": 16, "compressed": 16, "host": 10, "concat": 4, "overlap": 3, "bomb": 5,
           "real": 10}


def binary_recipe(rng: random.Random, seeds: BinarySeeds) -> tuple[tuple[str, int], ...]:
    """The steps of one binary input: a code object edited, then (often) wrapped and the container edited."""
    def seed() -> int:
        return rng.getrandbits(32)

    def maybe(p: float, name: str) -> list[tuple[str, int]]:
        return [(name, seed())] if rng.random() < p else []

    steps = [("pick", seed())]
    shape = rng.choices(tuple(_SHAPES), tuple(_SHAPES.values()))[0]
    if shape not in ("real", "bomb"):
        names, weights = tuple(ELF_STEPS), tuple(ELF_STEPS.values())
        steps += [(rng.choices(names, weights)[0], seed()) for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3)))]
    if shape in ("plain", "compressed", "host", "concat"):
        steps += [*maybe(0.1, "odd bundle entry"), ("plain bundle", seed()), *maybe(0.4, "bundle table field")]
    if shape == "overlap":
        steps.append(("overlapping bundle entries", seed()))
    if shape == "compressed" or (shape in ("host", "concat") and rng.random() < 0.4):
        steps += [("compressed bundle", seed()), *maybe(0.3, "compressed bundle header field"),
                  *maybe(0.2, "compressed bundle payload")]
    if shape == "concat":
        steps.append(("bundles one after another", seed()))
    if shape == "bomb":
        steps.append(("compression bomb", seed()))
    if shape == "real":
        steps += [("clang-built container", seed()), *maybe(0.3, "bundle table field"),
                  *maybe(0.2, "compressed bundle header field"), *maybe(0.2, "compressed bundle payload")]
    if shape == "host" or (shape == "bomb" and rng.random() < 0.3):
        steps += [("host ELF .hip_fatbin", seed()), *maybe(0.3, "host section field")]
    steps += maybe(0.15, "bytes") + maybe(0.04, "cut")
    return tuple(steps)


def build_binary(recipe: tuple[tuple[str, int], ...], seeds: BinarySeeds) -> bytes:
    """The bytes ``recipe`` makes (the same recipe and seeds always make the same bytes)."""
    state = _State(seeds)
    for name, step_seed in recipe:
        _STEPS[name](state, random.Random(step_seed))
    return state.result()


def describe(recipe: tuple[tuple[str, int], ...]) -> str:
    return " -> ".join(name for name, _ in recipe)
