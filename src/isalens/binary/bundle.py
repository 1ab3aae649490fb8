"""Clang offload bundles, plain and compressed, alone or several concatenated.

Formats from LLVM's ``clang/lib/Driver/OffloadBundler.cpp`` (``OffloadBundler`` docs in Clang's manual):

* plain: ``__CLANG_OFFLOAD_BUNDLE__``, u64 entry count, then per entry u64 offset (from the bundle's start),
  u64 size, u64 triple length and the triple (``hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-``); all little-endian.
* compressed (``CCOB``): u16 version, u16 method (0 zlib, 1 zstd), then by version
  v1 ``u32 uncompressed size, u64 hash``; v2 ``u32 total size, u32 uncompressed size, u64 hash``;
  v3 ``u64 total size, u64 uncompressed size, u64 hash``; the payload decompresses to a plain bundle.

The HIP runtime places bundles (4 KiB aligned) one after another in ``.hip_fatbin``; LLVM 19's own
``clang-offload-bundler --list`` stops after the first, so :func:`read_bundles` walks all of them.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from isalens.errors import InputError
from isalens.reading import max_input_size, size_text
from isalens.records import dataclass

if TYPE_CHECKING:
    import mmap

    Buffer = bytes | bytearray | mmap.mmap

__all__ = ["COMPRESSED_MAGIC", "PLAIN_MAGIC", "BundleEntry", "is_binary_file", "read_bundles"]

PLAIN_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
_MAX_ENTRIES = 65536
_MAX_TRIPLE = 4096
# total header size per compressed-bundle version (common fields 8 bytes, then the version's own)
_CCOB_HEADER = {1: 20, 2: 24, 3: 32}
_ZLIB, _ZSTD = 0, 1


@dataclass(frozen=True, slots=True)
class BundleEntry:
    """One entry of a bundle: its target triple, bytes, and where it came from (for messages)."""

    triple: str
    data: bytes
    #: e.g. ``.hip_fatbin bundle 3 (compressed zstd) entry hipv4-amdgcn-amd-amdhsa--gfx1030``
    source: str


def _u64(data: Buffer, at: int) -> int:
    return int(struct.unpack_from("<Q", data, at)[0])


def _plain(data: Buffer, start: int, end_of_data: int, file: str,
           where: str) -> tuple[list[tuple[str, int, int]], int]:
    """The entries (triple, absolute offset, size) of the plain bundle at ``start`` and where it ends. Entries
    must lie inside the data, after the entry table, and not overlap: each is read once (a bundle of 300
    entries over one padded code object would otherwise be copied 300 times)."""
    pos = start + len(PLAIN_MAGIC)
    if pos + 8 > end_of_data:
        raise InputError(f"{where}: truncated offload bundle (no entry count)", file=file, code="bundle")
    count = _u64(data, pos)
    pos += 8
    if count == 0 or count > _MAX_ENTRIES:
        raise InputError(f"{where}: offload bundle claims {count} entries", file=file, code="bundle")
    entries: list[tuple[str, int, int]] = []
    end = pos
    for index in range(count):
        if pos + 24 > end_of_data:
            raise InputError(f"{where}: truncated offload bundle (entry {index} of {count})", file=file,
                             code="bundle")
        offset, size, length = struct.unpack_from("<QQQ", data, pos)
        pos += 24
        if length > _MAX_TRIPLE or pos + length > end_of_data:
            raise InputError(f"{where}: truncated offload bundle (triple of entry {index})", file=file,
                             code="bundle")
        triple = bytes(data[pos:pos + length]).decode("ascii", "replace")
        pos += length
        if start + offset + size > end_of_data:
            raise InputError(f"{where}: truncated offload bundle: entry {triple} ends at byte "
                             f"{start + offset + size:#x}, past the end ({end_of_data:#x})", file=file, code="bundle")
        entries.append((triple, start + offset, size))
        end = max(end, pos, start + offset + size)
    _check_layout(entries, pos, file, where)
    return entries, end


def _check_layout(entries: list[tuple[str, int, int]], table_end: int, file: str, where: str) -> None:
    """Every non-empty entry after the entry table (ending at ``table_end``) and apart from the others."""
    placed = sorted((o, n, t) for t, o, n in entries if n)
    previous: tuple[int, int, str] | None = None
    for offset, size, triple in placed:
        if offset < table_end:
            raise InputError(f"{where}: offload bundle entry {triple} starts at byte {offset:#x}, inside the entry "
                             f"table (which ends at {table_end:#x})", file=file, code="bundle")
        if previous is not None and offset < previous[0] + previous[1]:
            raise InputError(f"{where}: offload bundle entries {previous[2]} and {triple} overlap (bytes "
                             f"{offset:#x}-{min(offset + size, previous[0] + previous[1]):#x})", file=file,
                             code="bundle")
        previous = (offset, size, triple)


#: compressed bytes fed to the zstd decoder at a time: one zstd block (3 header bytes + 1 RLE byte) stands for
#: at most 128 KiB of output, so 512 bytes decompress to at most ~16 MiB before the cap is checked again
_ZSTD_FEED = 512


def _inflate(payload: bytes, method: int, limit: int) -> tuple[bytearray, int, bool]:
    """Decompress ``payload`` streamed, stopping once more than ``limit`` bytes came out: (output, compressed
    bytes used, whether the stream ended). The output is checked to begin like a plain bundle as soon as it
    can be, so a bomb of zeros stops after its first block."""
    out = bytearray()
    if method == _ZLIB:
        inflater = zlib.decompressobj()
        rest = payload
        while rest and not inflater.eof and len(out) <= limit:
            out += inflater.decompress(rest, min(1 << 20, limit + 1 - len(out)))
            rest = inflater.unconsumed_tail
            if len(out) >= len(PLAIN_MAGIC) and not out.startswith(PLAIN_MAGIC):
                break
        return out, len(payload) - len(inflater.unused_data) - len(rest), inflater.eof
    import zstandard

    unzstd = zstandard.ZstdDecompressor().decompressobj()
    at = 0
    while at < len(payload) and not unzstd.eof and len(out) <= limit:
        out += unzstd.decompress(payload[at:at + _ZSTD_FEED])
        at += _ZSTD_FEED
        if len(out) >= len(PLAIN_MAGIC) and not out.startswith(PLAIN_MAGIC):
            break
    used = min(at, len(payload)) - (len(unzstd.unused_data) if unzstd.eof else 0)
    return out, used, unzstd.eof


def _decompress(data: Buffer, start: int, end_of_data: int, file: str, where: str) -> tuple[bytearray, int, str]:
    """The plain bundle inside the compressed bundle at ``start``, where the compressed one ends, its method.

    The uncompressed size the header declares is checked against the input cap (``--max-input-size``) before
    anything is decompressed, and decompression stops as soon as it passes the declared size: a 64 KiB file
    declaring tens of GiB is refused at once, one declaring little but inflating to much stops there."""
    if start + 8 > end_of_data:
        raise InputError(f"{where}: truncated compressed offload bundle header", file=file, code="bundle")
    version, method = struct.unpack_from("<HH", data, start + 4)
    header = _CCOB_HEADER.get(version)
    if header is None:
        raise InputError(f"{where}: compressed offload bundle version {version} is not supported (1-3)", file=file,
                         code="bundle")
    if start + header > end_of_data:
        raise InputError(f"{where}: truncated compressed offload bundle header", file=file, code="bundle")
    total: int | None
    if version == 1:
        total, expected = None, int(struct.unpack_from("<I", data, start + 8)[0])
    elif version == 2:
        total, expected = (int(x) for x in struct.unpack_from("<II", data, start + 8))
    else:
        total, expected = (int(x) for x in struct.unpack_from("<QQ", data, start + 8))
    if total is not None and (total < header or start + total > end_of_data):
        raise InputError(f"{where}: truncated compressed offload bundle: {total} bytes declared, "
                         f"{end_of_data - start} present", file=file, code="bundle")
    name = {_ZLIB: "zlib", _ZSTD: "zstd"}.get(method)
    if name is None:
        raise InputError(f"{where}: compressed offload bundle uses unknown method {method} (0 zlib, 1 zstd)",
                         file=file, code="bundle")
    cap = max_input_size()
    if expected > cap:
        raise InputError(f"{where}: compressed offload bundle declares {size_text(expected)} uncompressed, over the "
                         f"{size_text(cap)} input cap (--max-input-size)", file=file, code="too-large")
    stop = end_of_data if total is None else start + total
    payload = bytes(data[start + header:stop])
    try:
        plain, used, ended = _inflate(payload, method, expected)
    except zlib.error as exc:
        raise InputError(f"{where}: corrupt {name} payload in compressed offload bundle: {exc}", file=file,
                         code="bundle") from None
    except Exception as exc:  # zstandard.ZstdError is not a ValueError
        if type(exc).__name__ != "ZstdError":
            raise
        raise InputError(f"{where}: corrupt {name} payload in compressed offload bundle: {exc}", file=file,
                         code="bundle") from None
    if len(plain) >= len(PLAIN_MAGIC) and not plain.startswith(PLAIN_MAGIC):
        raise InputError(f"{where}: corrupt {name} payload in compressed offload bundle: it does not "
                         "decompress to a bundle", file=file, code="bundle")
    if len(plain) > expected:
        raise InputError(f"{where}: compressed offload bundle decompresses to more than the {expected} bytes its "
                         "header says", file=file, code="bundle")
    if not ended:
        raise InputError(f"{where}: corrupt {name} payload in compressed offload bundle: compressed data ends early",
                         file=file, code="bundle")
    if len(plain) != expected:
        raise InputError(f"{where}: compressed offload bundle decompresses to {len(plain)} bytes, header says "
                         f"{expected}", file=file, code="bundle")
    end = stop if total is not None else start + header + used
    return plain, end, name


def _next_magic(data: Buffer, at: int, stop: int) -> int:
    """Where the next bundle starts: the nearest magic after ``at``. Bundles follow each other closely (4 KiB
    padding), so the search looks in a window that doubles, not through the rest of a 1 GiB section twice."""
    window = 1 << 16
    while at < stop:
        end = min(stop, at + window + len(PLAIN_MAGIC))
        found = [i for i in (data.find(PLAIN_MAGIC, at, end), data.find(COMPRESSED_MAGIC, at, end)) if i >= 0]
        if found:
            return min(found)
        at += window
        window *= 2
    return -1


def _release(data: Buffer, start: int, stop: int) -> None:
    """Tell the kernel the mapped pages of ``data[start:stop]`` are not needed any more: a walk through a 1.3 GiB
    library would otherwise keep every page it read resident (they count in the process's memory) until the
    file is closed. Only for an ``mmap``; the pages come back from the page cache if read again."""
    import mmap

    if not isinstance(data, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return
    first = -(-start // mmap.PAGESIZE) * mmap.PAGESIZE
    last = stop // mmap.PAGESIZE * mmap.PAGESIZE
    if last > first:
        data.madvise(mmap.MADV_DONTNEED, first, last - first)


def read_bundles(data: Buffer, *, file: str, section: str = "", start: int = 0,
                 stop: int | None = None) -> Iterator[BundleEntry]:
    """Every entry of every bundle found in ``data[start:stop]`` (bundles one after another, any padding
    between them), lazily; the first bundle must begin at ``start``. ``data`` may be an ``mmap``: only the
    entries are copied out, one bundle at a time."""
    stop = len(data) if stop is None else stop
    at = released = start
    index = 0
    prefix = f"{section} " if section else ""
    while True:
        if index > 0:
            at = _next_magic(data, at, stop)
            if at < 0:
                break
        where = f"{prefix}bundle {index} at {at:#x}" if (section or index) else f"bundle at {at:#x}"
        if data[at:at + len(PLAIN_MAGIC)] == PLAIN_MAGIC:
            spans, at = _plain(data, at, stop, file, where)
            for t, o, n in spans:
                yield BundleEntry(t, bytes(data[o:o + n]), f"{prefix}bundle {index} entry {t}")
        elif data[at:at + len(COMPRESSED_MAGIC)] == COMPRESSED_MAGIC:
            plain, at, method = _decompress(data, at, stop, file, where)
            if not plain.startswith(PLAIN_MAGIC):
                raise InputError(f"{where}: corrupt {method} payload in compressed offload bundle: it does not "
                                 "decompress to a bundle", file=file, code="bundle")
            spans, _ = _plain(plain, 0, len(plain), file, f"{where} ({method})")
            for t, o, n in spans:
                yield BundleEntry(t, bytes(plain[o:o + n]), f"{prefix}bundle {index} ({method}) entry {t}")
            del plain
        else:
            raise InputError(f"{where}: not an offload bundle (no __CLANG_OFFLOAD_BUNDLE__ or CCOB magic)",
                             file=file, code="bundle")
        _release(data, released, at)  # every entry of this bundle was copied out
        released = at
        index += 1


def is_binary_file(path: Path) -> bool:
    """Whether ``path`` is an ELF file or an offload bundle (by its first bytes)."""
    from isalens.reading import read_head  # never blocks on a pipe nor reads a device

    return read_head(path, 64).startswith((b"\x7fELF", PLAIN_MAGIC, COMPRESSED_MAGIC))
