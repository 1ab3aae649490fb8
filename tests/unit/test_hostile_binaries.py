"""Hostile binaries (issue 25): compression bombs, overlapping bundles, devices and pipes as inputs, damaged code
objects. Each ends in one message naming the file and exit code 2, within a memory budget measured on a fresh
process (peak RSS from the kernel's own accounting, ``wait4``), never a traceback.

Formats built here from their specifications (docstring of ``isalens.binary.bundle``: LLVM's OffloadBundler;
ELF from the gABI, ``tests/elf_edit.py``); the damaged code objects start from one clang++-19 really built.
"""

from __future__ import annotations

import os
import stat
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import msgpack
import pyarrow.parquet as pq
import pytest
import zstandard

import isalens
from isalens.cli import main
from tests import elf_edit as E
from tests.conftest import EXAMPLES, ROOT, require_tool

PLAIN = b"__CLANG_OFFLOAD_BUNDLE__"
EXAMPLE = EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"
MB = 1 << 20
#: the issue's budget for every hostile binary
BUDGET_MB = 300


def plain_bundle(entries: list[tuple[str, int, int]], payload: bytes, table_pad: int = 0) -> bytes:
    """A plain bundle: magic, u64 count, per entry (u64 offset, u64 size, u64 triple length, triple), then
    ``payload`` right after the table (offsets are from the bundle's start; ``-1`` offsets mean "at payload")."""
    table = b"".join(struct.pack("<QQQ", 0, size, len(t)) + t.encode() for t, _o, size in entries)
    start = len(PLAIN) + 8 + len(table) + table_pad
    head = PLAIN + struct.pack("<Q", len(entries))
    for t, offset, size in entries:
        head += struct.pack("<QQQ", start + offset, size, len(t)) + t.encode()
    return head + b"\0" * table_pad + payload


def ccob(version: int, method: int, plain: bytes, *, declared: int | None = None, compressed: bytes | None = None,
         total: int | None = None) -> bytes:
    """A compressed bundle ``CCOB``: u16 version, u16 method, then v1 (u32 size, u64 hash), v2 (u32 total,
    u32 size, u64 hash) or v3 (u64 total, u64 size, u64 hash), then the payload."""
    body = compressed if compressed is not None else (
        zlib.compress(plain) if method == 0 else zstandard.ZstdCompressor(level=1).compress(plain))
    size = len(plain) if declared is None else declared
    header = {1: 20, 2: 24, 3: 32}[version]
    whole = header + len(body) if total is None else total
    fields = {1: struct.pack("<IQ", size & 0xFFFFFFFF, 0), 2: struct.pack("<IIQ", whole, size & 0xFFFFFFFF, 0),
              3: struct.pack("<QQQ", whole, size, 0)}[version]
    return b"CCOB" + struct.pack("<HH", version, method) + fields + body


#: runs isalens as its own child and reports that child's peak RSS: measured from a fresh interpreter, because a
#: process forked straight from pytest counts pytest's own pages (hundreds of MiB here) in its ``ru_maxrss``
_MEASURE = """
import os, subprocess, sys
proc = subprocess.Popen([sys.executable, "-m", "isalens", *sys.argv[1:]], stdout=subprocess.DEVNULL)
_pid, status, usage = os.wait4(proc.pid, 0)
sys.stdout.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def run_measured(*argv: str, stdin: int | None = None) -> tuple[int, str, int]:
    """``isalens ARGV`` in a fresh process: exit code, stderr and peak RSS in MiB (``wait4``'s ``ru_maxrss``)."""
    proc = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL if stdin is None else stdin, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    code, peak_kib = proc.stdout.split()
    return int(code), proc.stderr, int(peak_kib) // 1024


def one_message(err: str, file: Path | str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(file) in lines[0] and "Traceback" not in err and "internal error" not in err, err
    return lines[0]


# --- compression bombs and bundles ---------------------------------------------------------------------------

def test_declared_tens_of_gib_is_refused_before_decompressing(tmp_path: Path) -> None:
    # v3 headers carry 64-bit sizes: a small file may declare 40 GiB; the payload really inflates far past
    # the cap too, so reading it would blow the budget
    bomb = tmp_path / "bomb.hipfb"
    zeros = zstandard.ZstdCompressor(level=19).compress(PLAIN + b"\0" * (256 * MB))
    bomb.write_bytes(ccob(3, 1, b"", declared=40 << 30, compressed=zeros))
    assert bomb.stat().st_size < 64 * 1024
    code, err, peak = run_measured("list", str(bomb))
    assert code == 2 and "over the 1 GiB input cap" in one_message(err, bomb)
    assert peak < BUDGET_MB, f"peak {peak} MiB"


@pytest.mark.parametrize("method", [0, 1])
def test_payload_inflating_past_its_declared_size_stops_there(tmp_path: Path, method: int) -> None:
    # declares 1 MiB, inflates to 256 MiB: decompression must stop at the declared size (+ one feed)
    bomb = tmp_path / "liar.hipfb"
    inner = PLAIN + b"\0" * (256 * MB)
    body = zlib.compress(inner, 9) if method == 0 else zstandard.ZstdCompressor(level=19).compress(inner)
    bomb.write_bytes(ccob(2, method, b"", declared=MB, compressed=body))
    code, err, peak = run_measured("list", str(bomb))
    assert code == 2 and "more than the 1048576 bytes its header says" in one_message(err, bomb)
    assert peak < BUDGET_MB, f"peak {peak} MiB"


def test_zero_bomb_stops_at_its_first_block(tmp_path: Path) -> None:
    # an honest size under the cap, but the data is not a bundle: known after the first bytes, not 900 MiB later
    bomb = tmp_path / "zeros.hipfb"
    bomb.write_bytes(ccob(3, 1, b"\0" * (900 * MB)))
    code, err, peak = run_measured("list", str(bomb))
    assert code == 2 and "does not decompress to a bundle" in one_message(err, bomb)
    assert peak < BUDGET_MB, f"peak {peak} MiB"


def test_max_input_size_bounds_decompression(tmp_path: Path) -> None:
    bundle = tmp_path / "b.hipfb"
    bundle.write_bytes(ccob(3, 1, plain_bundle([("host-x86_64-unknown-linux-gnu-", 0, 0)], b"") + b"\0" * (2 * MB)))
    code, err, _ = run_measured("--max-input-size", "1M", "list", str(bundle))
    assert code == 2 and "over the 1 MiB input cap" in one_message(err, bundle)


def test_overlapping_entries_are_refused(tmp_path: Path) -> None:
    # 300 entries over one padded 10 MB blob: each would be copied and kept (3 GB); they overlap, so refused
    bundle = tmp_path / "overlap.hipfb"
    blob = b"\x7fELF" + b"\0" * (10 * MB)
    entries = [(f"hipv4-amdgcn-amd-amdhsa--gfx90{i % 10}", 0, len(blob)) for i in range(300)]
    bundle.write_bytes(plain_bundle(entries, blob))
    code, err, peak = run_measured("list", str(bundle))
    assert code == 2 and "overlap" in one_message(err, bundle)
    assert peak < BUDGET_MB, f"peak {peak} MiB"


def test_entry_inside_the_entry_table_is_refused(tmp_path: Path) -> None:
    bundle = tmp_path / "table.hipfb"
    data = bytearray(plain_bundle([("hipv4-amdgcn-amd-amdhsa--gfx90a", 0, 64)], b"\0" * 64))
    struct.pack_into("<Q", data, len(PLAIN) + 8, 8)  # entry 0 now starts at byte 8, inside the header
    bundle.write_bytes(bytes(data))
    assert "inside the entry table" in one_message(run_measured("list", str(bundle))[1], bundle)


# --- devices, pipes, sizes --------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["list"], ["livereg"], ["analyze"], ["scan", "--out", "x.parquet"]])
def test_dev_zero_is_refused_at_once(command: list[str], tmp_path: Path) -> None:
    argv = [*command[:1], "/dev/zero", *command[1:]]
    if command[0] == "scan":
        argv[-1] = str(tmp_path / "x.parquet")
    code, err, peak = run_measured(*argv)
    if command[0] == "scan":  # a scan records the file's error as a row, counts it, and goes on
        assert code == 0 and "1 error row(s)" in err and "Traceback" not in err, err
        from isalens.scan.store import read_rows
        (row,) = read_rows(tmp_path / "x.parquet")
        assert row["file"] == "/dev/zero" and "a device, not a regular file" in row["error"]
    else:
        assert code == 2 and "a device, not a regular file" in one_message(err, "/dev/zero")
    assert peak < BUDGET_MB


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.s"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    for command in ("livereg", "list"):
        code, err, _ = run_measured(command, str(fifo))  # would block forever if the file were opened plainly
        assert code == 2 and "a pipe, not a regular file" in one_message(err, fifo)


def test_dev_stdin_as_a_path_is_refused_but_dash_reads_stdin(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(write)
    code, err, _ = run_measured("livereg", "/dev/stdin", stdin=read)
    os.close(read)
    assert code == 2 and "use '-' for standard input" in one_message(err, "/dev/stdin")
    with EXAMPLE.open("rb") as f:
        code, err, _ = run_measured("livereg", "-", "--summary", stdin=f.fileno())
    assert code == 0, err


def test_text_over_the_cap_is_refused_before_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    size = EXAMPLE.stat().st_size
    assert main(["livereg", str(EXAMPLE), "--max-input-size", "4K"]) == 2
    err = capsys.readouterr().err
    assert f"{size:,} bytes, over the 4 KiB input cap" in one_message(err, EXAMPLE)
    assert main(["--max-input-size", f"{size // 1024 + 1}K", "livereg", str(EXAMPLE), "--summary"]) == 0


def test_stdin_over_the_cap(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("s_nop 0\n" * 300))
    assert main(["livereg", "-", "--arch", "gfx902", "--max-input-size", "2K"]) == 2
    assert "isalens: <stdin>: error: standard input is over the 2 KiB input cap" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["1x", "-5", "12", "1e9", ""])
def test_max_input_size_values(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--max-input-size", value, "livereg", str(EXAMPLE)])
    assert exit_.value.code == 2 and "--max-input-size" in capsys.readouterr().err


# --- damaged code objects (one built by clang++-19, then edited) -----------------------------------------

@pytest.fixture(scope="module")
def code_object(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from isalens.binary.bundle import read_bundles
    from tests.oracle import hipbuild

    bundle = hipbuild.build(tmp_path_factory.mktemp("hip") / "k.hipfb", "--cuda-device-only")
    return next(e.data for e in read_bundles(bundle.read_bytes(), file="k") if "gfx90a" in e.triple)


def _metadata(co: bytes, raw: bytes) -> bytes:
    return E.replace_contents(co, ".note", E.note(b"AMDGPU\0", 32, raw))


_TARGET = {"amdhsa.target": "amdgcn-amd-amdhsa--gfx90a"}
DAMAGE = {
    # msgpack map whose key is a map: {{1: 2}: 3}
    "unhashable metadata key": (lambda co: _metadata(co, b"\x81\x81\x01\x02\x03"), "unreadable AMDGPU metadata"),
    "amdhsa.kernels not a list": (lambda co: _metadata(co, msgpack.packb({**_TARGET, "amdhsa.kernels": 5})),
                                  "amdhsa.kernels is not a list of maps"),
    "kernel entry not a map": (lambda co: _metadata(co, msgpack.packb({**_TARGET, "amdhsa.kernels": [5]})),
                               "amdhsa.kernels is not a list of maps"),
    "kernel name not a string": (lambda co: _metadata(co, msgpack.packb({**_TARGET, "amdhsa.kernels": [
        {".name": 7, ".symbol": "axpy.kd"}]})), ".name is not a string"),
    "descriptor past the end": (lambda co: E.set_header(co, ".rodata", offset=len(co) - 16),
                                "lies past the end of the file"),
    "section offset >= 2^63": (lambda co: E.set_header(co, ".rodata", offset=1 << 63),
                               "lies past the end of the file"),
    "note offset >= 2^63": (lambda co: E.set_header(co, ".note", offset=(1 << 63) + 4), "damaged"),
    ".comment past the end": (lambda co: E.set_header(co, ".comment", offset=1 << 63),
                              "section .comment (offset 0x8000000000000000"),
    "compressed .comment": (lambda co: E.set_header(co, ".comment", flags=E.SHF_COMPRESSED | 0x30),
                            "compressed .comment declares"),
    "compressed .comment, unknown type": (lambda co: E.replace_contents(
        E.set_header(co, ".comment", flags=E.SHF_COMPRESSED), ".comment", struct.pack("<IIQQ", 9, 0, 16, 1) + b"x"),
        "unknown compression type 9"),
    "note name without its NUL, huge size": (lambda co: E.replace_contents(
        co, ".note", struct.pack("<III", 0xFFFFFFFF, 4, 32) + b"AMDG"), "damaged"),
    # the section table and symbols (isalens.binary.elf64; offsets of the gABI's ELF64 header: e_shoff at 0x28,
    # e_shentsize, e_shnum, e_shstrndx u16 at 0x3a, 0x3c, 0x3e; section 0's sh_size at e_shoff + 32)
    "section table past the end": (lambda co: E.put(co, 0x28, "<Q", len(co) - 8),
                                   "section header table at"),
    "section count in section 0, 2^40": (lambda co: E.put(E.put(co, 0x3C, "<H", 0), _shoff(co) + 32, "<Q", 1 << 40),
                                         "section header table (1,099,511,627,776 headers"),
    "section headers of 32 bytes": (lambda co: E.put(co, 0x3A, "<H", 32), "section headers of 32 bytes"),
    "section name table index past the table": (lambda co: E.put(co, 0x3E, "<H", 0xFFF0), "is not a section"),
    "section name past its table": (lambda co: E.set_header(co, ".shstrtab", size=1), "name offset"),
    "32-bit ELF": (lambda co: E.put(co, 4, "<B", 1), "not a 64-bit little-endian ELF"),
    "symbol entries of 16 bytes": (lambda co: E.set_header(co, ".symtab", entsize=16), "entries of 16 bytes"),
    "symbol table linking to no section": (lambda co: E.set_header(co, ".symtab", link=999),
                                           "links to section 999"),
    "symbol name past its string table": (lambda co: E.set_header(co, ".strtab", size=1), "symbol name offset"),
    "symbol table past the end": (lambda co: E.set_header(co, ".symtab", offset=len(co) - 8),
                                  "lies past the end of the file"),
}


def _shoff(co: bytes) -> int:
    return int(struct.unpack_from("<Q", co, 0x28)[0])


@pytest.mark.parametrize("name", list(DAMAGE))
def test_damaged_code_object(name: str, code_object: bytes, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    edit, expected = DAMAGE[name]
    path = tmp_path / "damaged.co"
    path.write_bytes(edit(code_object))
    for command in ("list", "livereg"):
        assert main([command, str(path)]) == 2, name
        assert expected in one_message(capsys.readouterr().err, path)


def test_the_undamaged_code_object_reads(code_object: bytes, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # the edits above must be what breaks each file: the same helpers with harmless values read fine
    path = tmp_path / "fine.co"
    path.write_bytes(E.replace_contents(code_object, ".comment", E.section_bytes(code_object, ".comment")))
    assert main(["livereg", str(path), "--summary"]) == 0, capsys.readouterr().err


def test_compressed_comment_is_read(code_object: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a genuinely compressed .comment (gABI Elf64_Chdr + zlib) still gives the compiler version
    text = b"\0clang version 15.0.7\0"
    packed = struct.pack("<IIQQ", 1, 0, len(text), 1) + zlib.compress(text)
    path = tmp_path / "c.co"
    path.write_bytes(E.replace_contents(E.set_header(code_object, ".comment", flags=E.SHF_COMPRESSED), ".comment",
                                        packed))
    from isalens.binary.codeobject import read_code_object
    assert read_code_object(path.read_bytes(), file=str(path), source="code object").compiler_major == 15


# --- the API: str is text, Path is a file -----------------------------------------------------------------

def test_api_str_naming_a_file_is_refused_not_read() -> None:
    with pytest.raises(isalens.IsalensError, match=r"pass pathlib.Path"):
        isalens.load(str(EXAMPLE))
    assert isalens.load(EXAMPLE).kernels and isalens.load(path=str(EXAMPLE)).kernels
    doc = isalens.analyze(path=str(EXAMPLE)).to_dict()
    assert doc == isalens.analyze(EXAMPLE).to_dict()


def test_api_long_one_line_text_is_text() -> None:
    # over 255 bytes (a file name's limit): stat() used to raise OSError (ENAMETOOLONG) here
    text = "s_nop 0 " + " " * 300 + "; " + "x" * 300
    with pytest.raises(isalens.IsalensError):
        isalens.load(text)  # no target: a clear error, not OSError
    assert isalens.load(text, "gfx902").kernels[0].instructions


# --- symbol names as the assembler allows them --------------------------------------------------------------

@pytest.mark.parametrize("name", ["a<b>", "f(int)", "x=y", "operator<<(int, int)"])
def test_legal_symbol_names_read_like_plain_ones(name: str, tmp_path: Path) -> None:
    # a kernel renamed in clang's own assembly (quoted symbol, as llvm-mc allows), assembled and linked: it must
    # read exactly like the same kernel under its plain name (same instruction count, a kernel not a function)
    from tests.conftest import require_tool

    clang, mc, lld = require_tool("clang-19"), require_tool("llvm-mc-19"), require_tool("ld.lld-19")
    source = tmp_path / "k.cl"
    source.write_text("__kernel void add(__global float *a, __global const float *b) { a[0] += b[0]; }\n")
    asm = tmp_path / "k.s"
    subprocess.run([clang, "-x", "cl", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib", "-O2", "-S",
                    str(source), "-o", str(asm)], check=True)
    import re

    text = asm.read_text()
    quoted = '"' + name + '"'
    renamed = re.sub(r"(?<![\w.])add\.kd\b", '"' + name + '.kd"', text)
    renamed = re.sub(r"(?<![\w.\"])add(?=[\s,:;@-]|$)", quoted, renamed, flags=re.M)
    renamed = renamed.replace(f".name:           {quoted}", f".name:           '{name}'")
    renamed = renamed.replace(f'.symbol:         "{name}.kd"', f".symbol:         '{name}.kd'")
    results = {}
    for label, body in (("plain", text), ("named", renamed)):
        (tmp_path / f"{label}.s").write_text(body)
        obj, co = tmp_path / f"{label}.o", tmp_path / f"{label}.co"
        subprocess.run([mc, "-triple", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj",
                        str(tmp_path / f"{label}.s"), "-o", str(obj)], check=True)
        subprocess.run([lld, "-shared", str(obj), "-o", str(co)], check=True)
        (kernel,) = isalens.analyze(co).to_dict()["files"][0]["kernels"]
        results[label] = (kernel["name"], kernel["is_kernel"], kernel["instructions"])
    assert results["named"] == (name, True, results["plain"][2])


# --- kernel descriptor directives out of their field's range (text) --------------------------------------

@pytest.mark.parametrize(("directive", "value", "message"), [
    (".amdhsa_user_sgpr_count", "4294967296", "too many user SGPRs enabled"),
    (".amdhsa_user_sgpr_count", "32", "too many user SGPRs enabled"),
    (".amdhsa_system_vgpr_workitem_id", "3", "value out of range"),
])
def test_descriptor_values_past_their_fields(directive: str, value: str, message: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # llvm-mc-19 rejects each (same words); 4294967296 user SGPRs used to run for minutes at 7.9 GB
    import re

    text, n = re.subn(rf"^(\s*){re.escape(directive)} \d+$", rf"\g<1>{directive} {value}", EXAMPLE.read_text(),
                      flags=re.M)
    assert n == 1
    path = tmp_path / "k.s"
    path.write_text(text)
    code, err, peak = run_measured("livereg", str(path), "--summary")
    assert code == 2 and message in one_message(err, path)
    assert peak < BUDGET_MB


@pytest.mark.parametrize(("key", "value"), [(".vgpr_count", "0xfffffffffffffffff"), (".vgpr_count", "-1"),
                                            (".group_segment_fixed_size", "4294967296")])
def test_metadata_counts_past_32_bits(key: str, value: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    # code object metadata holds unsigned 32-bit figures; a 68-bit .vgpr_count reached the JSON writer (64-bit
    # integers only) and crashed it with exit 3 (found by tools/fuzz.py, seed 31)
    import re

    text, n = re.subn(rf"^(\s*){re.escape(key)}:\s*\d+$", rf"\g<1>{key}: {value}", EXAMPLE.read_text(), flags=re.M)
    assert n == 1
    path = tmp_path / "k.s"
    path.write_text(text)
    assert main(["analyze", str(path), "--json"]) == 2
    assert "out of range (0-4294967295)" in one_message(capsys.readouterr().err, path)


def test_workgroup_size_past_32_bits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the same bound for each dimension of .reqd_workgroup_size (a tuple of counts)
    text = EXAMPLE.read_text().replace(".reqd_workgroup_size:\n      - 8\n",
                                       ".reqd_workgroup_size:\n      - 295147905179352825855\n", 1)
    assert "295147905179352825855" in text
    path = tmp_path / "k.s"
    path.write_text(text)
    assert main(["analyze", str(path), "--json"]) == 2
    assert "workgroup_size 295147905179352825855 is out of range" in one_message(capsys.readouterr().err, path)


def test_descriptor_values_in_range_still_read(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace(".amdhsa_system_vgpr_workitem_id 1", ".amdhsa_system_vgpr_workitem_id 2")
    path = tmp_path / "k.s"
    path.write_text(text)
    assert run_measured("livereg", str(path), "--summary")[0] == 0


def test_deeply_nested_metadata(code_object: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # found by tools/fuzz.py: a metadata field (or amdhsa.target) of arrays nested hundreds deep made printing
    # it exhaust Python's recursion (an internal error)
    deep: Any = 1
    for _ in range(400):  # msgpack packs up to 511 levels; printing such a value in Python recursed too deep
        deep = [deep]
    for doc in ({**_TARGET, "amdhsa.kernels": [{".name": "axpy", ".symbol": "axpy.kd", ".args": deep}]},
                {"amdhsa.target": deep, "amdhsa.kernels": []}):
        path = tmp_path / "deep.co"
        path.write_bytes(_metadata(code_object, msgpack.packb(doc)))
        assert main(["list", str(path)]) == 2
        assert "nested more than 16 levels" in one_message(capsys.readouterr().err, path)


# --- metadata listing one kernel thousands of times, one kernel damaged (found by tools/fuzz.py) --------------

_TWO_KERNELS = """
__attribute__((noinline)) float helper(float x) { return x * x + 1.0f; }
__kernel void calls_helper(__global float *p) { p[0] = helper(p[1]); }
__kernel void damaged(__global float *p) { p[2] = p[3] * 2.0f; }
"""


def _damaged_repeated(tmp_path: Path, repeats: int) -> Path:
    """A code object clang-19 built with two kernels, its metadata listing each ``repeats`` times and kernel
    ``damaged``'s descriptor claiming workitem id 3 (COMPUTE_PGM_RSRC2 at byte 52 of the 64-byte descriptor,
    ENABLE_VGPR_WORKITEM_ID bits 11-12: LLVM's AMDGPUUsage, "Kernel Descriptor"), which only that kernel's
    analysis rejects."""
    from elftools.elf.elffile import ELFFile
    from tools.fuzz_binary import metadata_note

    source = tmp_path / "two.cl"
    source.write_text(_TWO_KERNELS)
    built = tmp_path / "built.co"
    subprocess.run([require_tool("clang-19"), "-x", "cl", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib",
                    "-O2", str(source), "-o", str(built)], check=True)
    co = bytearray(built.read_bytes())
    with built.open("rb") as fh:
        elf = ELFFile(fh)
        kd = elf.get_section_by_name(".symtab").get_symbol_by_name("damaged.kd")[0]["st_value"]
        rodata = elf.get_section_by_name(".rodata")
        at = kd - rodata["sh_addr"] + rodata["sh_offset"] + 52
    rsrc2 = struct.unpack_from("<I", co, at)[0]
    struct.pack_into("<I", co, at, rsrc2 | (3 << 11))
    found = metadata_note(bytes(co))
    assert found is not None
    meta = msgpack.unpackb(found[1])
    meta["amdhsa.kernels"] = meta["amdhsa.kernels"] * repeats
    path = tmp_path / "repeated.co"
    # the grown note moves to the end of the file and stops being loaded (address 0), so its old address range
    # does not now cover the descriptors in .rodata
    path.write_bytes(E.set_address(_metadata(bytes(co), msgpack.packb(meta)), ".note", 0))
    return path


def test_repeated_metadata_with_one_damaged_kernel_reads_each_kernel_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: the scan's per-kernel fallback ran llvm-objdump and parsed the whole object once per metadata entry
    # (3,000 entries: over 40 s), gave a row per entry, and blamed 'calls_helper' for 'damaged''s descriptor.
    from isalens.engine import binary

    runs: list[Any] = []
    real = binary.code_reading

    def counted(*args: Any, **kwargs: Any) -> Any:  # either disassembler: our decoder's drafts or llvm-objdump's text
        runs.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(binary, "code_reading", counted)
    path = _damaged_repeated(tmp_path, 1500)
    out = tmp_path / "rows.parquet"
    assert main(["scan", str(path), "--out", str(out), "--workers", "1"]) in (0, 1), capsys.readouterr().err
    rows = pq.read_table(out).to_pylist()
    by_kernel = {r.get("kernel"): r for r in rows}
    assert len(rows) == 2, [r.get("kernel") for r in rows]  # one per kernel of the code, not per entry
    assert by_kernel["damaged"].get("error") and "workitem" in by_kernel["damaged"]["error"]
    assert not by_kernel["calls_helper"].get("error"), by_kernel["calls_helper"]
    assert len(runs) == 1  # one disassembly, cut per kernel
