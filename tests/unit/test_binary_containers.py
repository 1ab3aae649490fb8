"""Offload bundles and host ELF files built here byte by byte from the published formats (LLVM's
ClangOffloadBundler: plain ``__CLANG_OFFLOAD_BUNDLE__`` and compressed ``CCOB`` v1-v3), read back by the
binary readers; and bad input: one line naming the file and the bundle entry, exit code 2."""

from __future__ import annotations

import re
import struct
import sys
import zlib
from pathlib import Path

import pytest

from isalens.cli import main
from isalens.errors import InputError

pytest.importorskip("elftools")
zstandard = pytest.importorskip("zstandard")

from isalens.binary.bundle import read_bundles  # noqa: E402
from isalens.binary.container import find_code_objects  # noqa: E402

# two stand-ins for code objects: the readers only slice them out (what they hold is checked elsewhere)
CO_A = b"\x7fELF" + bytes(range(60)) * 3
CO_B = b"\x7fELF" + b"second code object" * 5


def plain_bundle(entries: list[tuple[str, bytes]]) -> bytes:
    """magic, u64 count, per entry u64 offset/size/triple length + triple, then the payloads (offsets from the
    bundle's start)."""
    header = len(b"__CLANG_OFFLOAD_BUNDLE__") + 8 + sum(24 + len(t) for t, _ in entries)
    out = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(entries))
    offset = header
    for triple, data in entries:
        out += struct.pack("<QQQ", offset, len(data), len(triple)) + triple.encode()
        offset += len(data)
    return out + b"".join(d for _, d in entries)


def compressed_bundle(plain: bytes, version: int, method: int) -> bytes:
    payload = zlib.compress(plain) if method == 0 else zstandard.ZstdCompressor().compress(plain)
    common = b"CCOB" + struct.pack("<HH", version, method)
    if version == 1:  # u32 uncompressed size, u64 hash: 20 bytes
        return common + struct.pack("<IQ", len(plain), 0x1234) + payload
    if version == 2:  # u32 total size, u32 uncompressed size, u64 hash: 24 bytes
        return common + struct.pack("<IIQ", 24 + len(payload), len(plain), 0x1234) + payload
    return common + struct.pack("<QQQ", 32 + len(payload), len(plain), 0x1234) + payload  # v3: 32 bytes


ENTRIES = [("host-x86_64-unknown-linux-gnu-", b""), ("hipv4-amdgcn-amd-amdhsa--gfx90a", CO_A),
           ("hipv4-amdgcn-amd-amdhsa--gfx1100", CO_B)]


def test_plain_bundle_entries() -> None:
    refs = list(find_code_objects(plain_bundle(ENTRIES), file="x.hipfb"))
    assert [(r.triple, r.data) for r in refs] == [(t, d) for t, d in ENTRIES[1:]]


@pytest.mark.parametrize("version", [1, 2, 3])
@pytest.mark.parametrize("method", [0, 1])
def test_compressed_bundle_gives_the_same_entries(version: int, method: int) -> None:
    data = compressed_bundle(plain_bundle(ENTRIES), version, method)
    refs = list(find_code_objects(data, file="x.hipfb"))
    assert [(r.triple, r.data) for r in refs] == [(t, d) for t, d in ENTRIES[1:]]
    assert ("zlib" if method == 0 else "zstd") in refs[0].source


def test_concatenated_bundles_all_found() -> None:
    # the HIP runtime's layout: bundles 4 KiB aligned with zero padding; mixed plain and compressed
    first = plain_bundle(ENTRIES[:2])
    second = compressed_bundle(plain_bundle([ENTRIES[0], ENTRIES[2]]), 3, 1)
    third = compressed_bundle(plain_bundle(ENTRIES), 2, 0)
    blob = b""
    for part in (first, second, third):
        blob += part + bytes(-len(part) % 4096)
    entries = list(read_bundles(blob, file="x"))
    assert [e.triple for e in entries] == [t for t, _ in [*ENTRIES[:2], ENTRIES[0], ENTRIES[2], *ENTRIES]]
    assert [e.source.split()[1] for e in entries] == ["0", "0", "1", "1", "2", "2", "2"]


def _one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, *fragments: str) -> None:
    path = tmp_path / "bad.hipfb"
    path.write_bytes(data)
    code = main(["list", str(path)])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2
    assert len(lines) == 1, err
    assert str(path) in lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_truncated_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = plain_bundle(ENTRIES)
    _one_line(tmp_path, capsys, data[:-10], "truncated", "hipv4-amdgcn-amd-amdhsa--gfx1100")


def test_truncated_compressed_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = compressed_bundle(plain_bundle(ENTRIES), 3, 1)
    _one_line(tmp_path, capsys, data[:-5], "truncated", "bundle at 0x0")


@pytest.mark.parametrize("method", [0, 1])
def test_corrupt_compressed_payload(tmp_path: Path, capsys: pytest.CaptureFixture[str], method: int) -> None:
    data = bytearray(compressed_bundle(plain_bundle(ENTRIES), 2, method))
    for i in range(40, 60):  # scribble over the compressed stream, keep the header
        data[i] ^= 0x5A
    _one_line(tmp_path, capsys, bytes(data), "corrupt", "zlib" if method == 0 else "zstd")


def test_bundle_without_amdgpu_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = plain_bundle([("host-x86_64-unknown-linux-gnu-", b""), ("openmp-x86_64-pc-linux-gnu", b"x" * 16)])
    _one_line(tmp_path, capsys, data, "no AMDGPU entry", "openmp-x86_64-pc-linux-gnu")


def test_elf_that_is_not_amdgpu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    host = Path(sys.executable).resolve().read_bytes()
    if not host.startswith(b"\x7fELF"):
        pytest.skip("the Python interpreter is not an ELF file here")
    _one_line(tmp_path, capsys, host, "not AMDGPU")


def test_input_error_names_the_entry() -> None:
    data = plain_bundle(ENTRIES)[:-10]
    with pytest.raises(InputError) as info:
        list(find_code_objects(data, file="lib.so"))
    assert info.value.file == "lib.so"


def _mapped_rss_kib(path: Path) -> int:
    """Resident KiB of this process's mappings of ``path`` (/proc/self/smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if re.match(r"[0-9a-f]+-[0-9a-f]+ ", line):  # a mapping's header: range, permissions ... path
            inside = line.rstrip().endswith(str(path))
        elif inside and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="needs Linux's /proc/self/smaps")
def test_walking_a_mapped_library_releases_what_it_passed(tmp_path: Path) -> None:
    """A library's bundles are read through a memory map; the pages of bundles already passed are given back,
    so walking 1.3 GB does not keep 1.3 GB resident. Here 32 bundles of 1 MiB: the current bundle and the
    look-ahead for the next magic (a window doubling from 64 KiB: up to ~2 MiB) stay resident, a quarter of the
    32 MiB read at most (without the release: all 32 MiB)."""
    from isalens.reading import map_file

    bundle = plain_bundle([("hipv4-amdgcn-amd-amdhsa--gfx90a", bytes(range(256)) * 4096)])  # 1 MiB entry
    path = tmp_path / "many.hipfb"
    path.write_bytes(b"".join(bundle + bytes(-len(bundle) % 4096) for _ in range(32)))
    peak = 0
    with map_file(path) as data:
        for _entry in read_bundles(data, file=str(path)):
            peak = max(peak, _mapped_rss_kib(path))
        after = _mapped_rss_kib(path)
    assert peak > 1024  # the walk did read through the map (an entry is 1 MiB)
    assert peak <= 8 * 1024 and after <= 8 * 1024, (peak, after)
