"""Newer code object metadata (issue 28 item 6): e_flags of every processor clang-19 knows, code object v6 generic
targets analysed as LLVM compiles them, kernarg preload from the kernel descriptor, and one warning naming file,
kernel and field for what is read but not understood (dynamic VGPRs on gfx12, reserved descriptor bytes)."""

from __future__ import annotations

import io
import json
import re
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

from isalens.binary.elf_flags import decode_e_flags
from isalens.cli import main
from tests.conftest import ROOT, require_tool
from tests.oracle.hipbuild import build

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

from elftools.elf.elffile import ELFFile  # noqa: E402

DATA = ROOT / "tests" / "data" / "binaries"
GENERIC = ("gfx9-generic", "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic")
_KERNEL_LL = "define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n"


def code_object(tmp: Path, cpu: str, source: Path, *flags: str) -> Path:
    """``source`` (OpenCL C or LLVM IR) compiled by clang-19 for ``cpu`` as a code object v6, linked by lld."""
    clang, lld = require_tool("clang-19"), require_tool("ld.lld-19")
    obj, out = tmp / f"{cpu}.o", tmp / f"{cpu}.co"
    lang = ["-x", "cl", "-cl-std=CL1.2"] if source.suffix == ".cl" else []
    subprocess.run([clang, *lang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-mcode-object-version=6", "-O3",
                    "-nogpulib", *flags, "-c", str(source), "-o", str(obj)], check=True, capture_output=True)
    subprocess.run([lld, "-shared", str(obj), "-o", str(out)], check=True, capture_output=True)
    return out


def listed(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["list", str(path), "--json"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_e_flags_of_every_processor_clang_knows(tmp_path: Path) -> None:
    llc, readelf = require_tool("llc-19"), require_tool("llvm-readelf-19")
    help_text = subprocess.run([llc, "-mtriple=amdgcn", "-mcpu=help"], capture_output=True, text=True).stderr
    help_text = help_text.split("Available features", 1)[0]  # the processors, not the features named like them
    cpus = sorted(set(re.findall(r"^\s+(gfx[0-9a-f]+(?:-[0-9a-f]+)?(?:-generic)?)\s", help_text, re.MULTILINE)))
    assert "gfx11-generic" in cpus and "gfx90a" in cpus
    source = tmp_path / "k.ll"
    source.write_text(_KERNEL_LL)
    for cpu in cpus:
        obj = tmp_path / "k.o"
        subprocess.run([llc, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "--amdhsa-code-object-version=6",
                        "-filetype=obj", str(source), "-o", str(obj)], check=True, capture_output=True)
        header = subprocess.run([readelf, "-h", str(obj)], capture_output=True, text=True, check=True).stdout
        value, name, *rest = re.search(r"Flags:\s+(.*)", header).group(1).split(", ")  # type: ignore[union-attr]
        flags = decode_e_flags(int(value, 16), 6)
        assert (flags.processor, flags.problems) == (name, ()), cpu
        generic = next((int(r.removeprefix("generic_v")) for r in rest if r.startswith("generic_v")), 0)
        assert flags.generic_version == generic, cpu


@pytest.mark.parametrize("cpu", GENERIC)
def test_generic_targets_are_analysed_as_llvm_compiles_them(cpu: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    source = DATA / "heavy_vgprs.cl"
    co = code_object(tmp_path, cpu, source)
    doc = listed(co, capsys)
    (obj,) = doc["files"]
    assert (obj["target"], obj["code_object_version"], obj["e_flags"]["processor"]) == (cpu, 6, cpu)
    assert obj["e_flags"]["generic_version"] == 1 and obj["warnings"] == []
    (meta,) = obj["kernels"]
    assert main(["analyze", str(co), "--json"]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    assert (kernel["arch"], kernel["vgpr"]["requested"]) == (cpu, meta["metadata"]["vgpr_count"])
    remarks = subprocess.run([require_tool("clang-19"), "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa",
                              f"-mcpu={cpu}", "-mcode-object-version=6", "-O3", "-nogpulib",
                              "-Rpass-analysis=kernel-resource-usage", "-c", str(source), "-o", "/dev/null"],
                             capture_output=True, text=True, check=True).stderr
    llvm = int(re.search(r"Occupancy \[waves/SIMD\]: (\d+)", remarks).group(1))  # type: ignore[union-attr]
    assert kernel["occupancy"]["llvm_occupancy"] == llvm


def test_kernarg_preload_equals_llvm_objdump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path / "pre.hipfb", "--cuda-device-only", "-mllvm", "-amdgpu-kernarg-preload-count=3",
                   source=DATA / "preload.hip", targets=("gfx942",))
    unbundled = tmp_path / "pre.co"
    subprocess.run([require_tool("clang-offload-bundler-19"), "--unbundle", "--type=o", f"--input={bundle}",
                    "--targets=hipv4-amdgcn-amd-amdhsa--gfx942", f"--output={unbundled}"], check=True)
    text = subprocess.run([require_tool("llvm-objdump-19"), "-D", "--disassemble-symbols=pre.kd", str(unbundled)],
                          capture_output=True, text=True, check=True).stdout
    fields = dict(re.findall(r"\.amdhsa_user_sgpr_kernarg_preload_(length|offset)\s+(\d+)", text))
    assert int(fields["length"]) > 0  # clang preloaded something: the test sees a non-zero field
    (kernel,) = listed(unbundled, capsys)["files"][0]["kernels"]
    assert (kernel["kernarg_preload"]["length"], kernel["kernarg_preload"]["offset"]) == (
        int(fields["length"]), int(fields.get("offset", 0)))
    assert main(["livereg", str(unbundled)]) == 0


def _descriptor_at(elf: bytes, symbol: str) -> int:
    """File offset of the kernel descriptor ``symbol`` in the code object ``elf``."""
    reader = ELFFile(io.BytesIO(elf))
    sym = next(s for s in reader.get_section_by_name(".dynsym").iter_symbols() if s.name == symbol)
    section = reader.get_section(sym["st_shndx"])
    return int(section["sh_offset"] + sym["st_value"] - section["sh_addr"])


def test_fields_not_understood_are_one_warning_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "k.ll"
    source.write_text(_KERNEL_LL)
    co = code_object(tmp_path, "gfx12-generic", source)
    data = bytearray(co.read_bytes())
    at = _descriptor_at(bytes(data), "k.kd")
    rsrc2 = struct.unpack_from("<I", data, at + 52)[0]
    struct.pack_into("<I", data, at + 52, rsrc2 | 1 << 6)  # COMPUTE_PGM_RSRC2.ENABLE_DYNAMIC_VGPR (gfx12)
    data[at + 30] = 0x5A  # inside reserved1 (bytes 24-43)
    damaged = tmp_path / "dyn.co"
    damaged.write_bytes(bytes(data))
    assert main(["livereg", str(damaged), "--json"]) == 0  # with --json the warnings go to stderr
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "warning" in line]
    assert len(lines) == 2, err
    assert all(str(damaged) in line and "kernel k:" in line for line in lines)
    assert any("COMPUTE_PGM_RSRC2.ENABLE_DYNAMIC_VGPR" in line for line in lines)
    assert any("bytes 24-43 (reserved1)" in line for line in lines)
    doc = listed(damaged, capsys)
    assert len(doc["files"][0]["warnings"]) == 2
    # the sound code object says nothing
    assert main(["livereg", str(co), "--json"]) == 0
    assert "warning" not in capsys.readouterr().err
