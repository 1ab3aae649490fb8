"""Binaries built here with clang++-19: compressed and plain bundles, objects and shared libraries give the
same kernels; the metadata we read equals llvm-readelf-19's; the registers LLVM declares equal what our
analysis finds in the disassembly."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.oracle.hipbuild import build_all

pytest.importorskip("elftools")
pytest.importorskip("zstandard")
pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_all(tmp_path_factory.mktemp("hip"))


def listing(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["list", str(path), "--json"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def kernels_by_target(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    # list's kernels: name, arch, wave_size and the code object's metadata figures, flattened here
    return {co["target"]: sorted(({**k, **k["metadata"]} for k in co["kernels"]), key=lambda k: k["name"])
            for co in doc["files"]}


def test_every_form_gives_the_same_kernels(built: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    plain = kernels_by_target(listing(built["plain"], capsys))
    assert sorted(plain) == ["gfx1100", "gfx90a"]
    assert sorted(k["name"] for k in plain["gfx90a"]) == ["_Z3ldsPf", "axpy", "heavy"]
    for form in ("compressed", "object", "shared"):
        assert kernels_by_target(listing(built[form], capsys)) == plain, form


def test_compressed_really_is_compressed(built: dict[str, Path]) -> None:
    assert built["compressed"].read_bytes().startswith(b"CCOB")
    assert built["plain"].read_bytes().startswith(b"__CLANG_OFFLOAD_BUNDLE__")


def test_concatenated_bundles(built: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blob = b""
    parts = (built["plain"], built["compressed"], built["heavy"])
    for part in parts:
        data = part.read_bytes()
        blob += data + bytes(-len(data) % 4096)
    path = tmp_path / "three.hipfb"
    path.write_bytes(blob)
    doc = listing(path, capsys)
    # oracle: clang-offload-bundler-19 --list on each part alone
    tool = shutil.which("clang-offload-bundler-19")
    if tool is None:
        pytest.skip("clang-offload-bundler-19 is not installed")
    expected = []
    for part in parts:
        out = subprocess.run([tool, "--list", "--type=o", f"--input={part}"], capture_output=True, text=True,
                             check=True).stdout.split()
        expected += sorted(t.rsplit("--", 1)[-1] for t in out if "amdgcn" in t)
    assert [co["target"] for co in doc["files"]] == expected
    assert [co["code_object"].split()[1] for co in doc["files"]] == ["0", "0", "1", "1", "2", "2"]
    heavy = {k["name"]: k for k in doc["files"][4]["kernels"]}["heavy"]
    light = {k["name"]: k for k in doc["files"][0]["kernels"]}["heavy"]
    assert heavy["metadata"]["vgpr_count"] > light["metadata"]["vgpr_count"]


def _readelf_metadata(code_object: Path) -> dict[str, dict[str, int]]:
    """Per kernel .vgpr_count etc. from llvm-readelf-19 --notes (its YAML rendering of the msgpack note)."""
    tool = shutil.which("llvm-readelf-19")
    if tool is None:
        pytest.skip("llvm-readelf-19 is not installed")
    text = subprocess.run([tool, "--notes", str(code_object)], capture_output=True, text=True, check=True).stdout
    kernels: dict[str, dict[str, int]] = {}
    for block in re.split(r"\n  - \.", text.split("amdhsa.kernels:", 1)[1].split("amdhsa.target", 1)[0]):
        fields = dict(re.findall(r"^\s*-?\s*\.(\w+):\s+(\S+)\s*$", "    ." + block, re.M))
        if "symbol" in fields:
            kernels[fields["name"]] = {k: int(fields[k]) for k in (
                "vgpr_count", "sgpr_count", "group_segment_fixed_size", "wavefront_size") if k in fields}
            if "agpr_count" in fields:
                kernels[fields["name"]]["agpr_count"] = int(fields["agpr_count"])
    return kernels


@pytest.mark.parametrize("target", ["gfx90a", "gfx1100"])
def test_metadata_equals_llvm_readelf(built: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      target: str) -> None:
    tool = shutil.which("clang-offload-bundler-19")
    if tool is None:
        pytest.skip("clang-offload-bundler-19 is not installed")
    co = tmp_path / f"{target}.co"
    subprocess.run([tool, "--unbundle", "--type=o", f"--input={built['plain']}",
                    f"--targets=hipv4-amdgcn-amd-amdhsa--{target}", f"--output={co}"], check=True)
    oracle = _readelf_metadata(co)
    ours = kernels_by_target(listing(built["compressed"], capsys))[target]
    assert sorted(oracle) == [k["name"] for k in ours]
    for k in ours:
        o = oracle[k["name"]]
        assert (k["vgpr_count"], k["sgpr_count"], k["lds_bytes"], k["wave_size"]) == (
            o["vgpr_count"], o["sgpr_count"], o["group_segment_fixed_size"], o["wavefront_size"])
        assert k["agpr_count"] == o.get("agpr_count")
    # the kernel with a __shared__ float[256] declares 1 KiB of LDS
    assert {k["name"]: k["lds_bytes"] for k in ours}["_Z3ldsPf"] == 256 * 4


@pytest.mark.parametrize("target", ["gfx90a", "gfx1100"])
def test_descriptor_equals_disassembly(built: dict[str, Path], capsys: pytest.CaptureFixture[str],
                                       target: str) -> None:
    assert main(["analyze", str(built["shared"]), "--target", target, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["files"][0]
    assert len(doc["kernels"]) == 3
    for k in doc["kernels"]:
        assert k["is_kernel"]
        assert k["guessed_instructions"] == 0
        assert k["vgpr"]["requested"] == k["vgpr"]["declared"], k["name"]
        assert k["sgpr"]["requested"] == k["sgpr"]["declared"], k["name"]
        assert k["wave_size"] == (64 if target == "gfx90a" else 32)


def test_kernel_glob_and_target_choice(built: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(built["plain"]), "--target", "gfx1100", "--kernel", "a*", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["files"][0]
    assert [k["name"] for k in doc["kernels"]] == ["axpy"]
    assert main(["analyze", str(built["plain"])]) == 2
    assert "choose one with --target" in capsys.readouterr().err
    assert main(["analyze", str(built["plain"]), "--target", "gfx90a", "--kernel", "nothing*"]) == 2
    err = capsys.readouterr().err
    assert "no kernel matches 'nothing*'" in err and len(err.strip().splitlines()) == 1


# user SGPRs each enabled field takes (AMDGPUUsage, "Initial Kernel Execution State")
_USER_SGPRS = {"private_segment_buffer": 4, "dispatch_ptr": 2, "queue_ptr": 2, "kernarg_segment_ptr": 2,
               "dispatch_id": 2, "flat_scratch_init": 2, "private_segment_size": 1}


@pytest.mark.parametrize("target", ["gfx90a", "gfx1100"])
def test_descriptor_decoding_equals_llvm_objdump(built: dict[str, Path], tmp_path: Path, target: str) -> None:
    from isalens.binary.codeobject import read_code_object
    from isalens.binary.container import find_code_objects

    objdump = shutil.which("llvm-objdump-19")
    assert objdump is not None
    refs = find_code_objects(built["plain"].read_bytes(), file="x")
    ref = next(r for r in refs if r.triple and r.triple.endswith(target))
    co = read_code_object(ref.data, file="x", source=ref.source)
    path = tmp_path / "co.elf"
    path.write_bytes(co.data)
    for kernel in co.kernels:
        # llvm-objdump -D prints a kernel descriptor as the .amdhsa_ directives that would assemble it
        text = subprocess.run([objdump, "-D", f"--disassemble-symbols={kernel.symbol}.kd", str(path)],
                              capture_output=True, text=True, check=True).stdout
        if "error decoding" in text:
            # LLVM 19 rejects the descriptors clang 19 writes for gfx11 ("GRANULATED_WAVEFRONT_SGPR_COUNT
            # reserved bits ... set"): no oracle there
            pytest.skip(f"llvm-objdump-19 cannot decode {target} kernel descriptors")
        theirs = dict(re.findall(r"^\s*\.amdhsa_(\w+)\s+(-?\d+)\s*$", text, re.M))
        assert theirs, text
        for key, value in kernel.descriptor.items():
            if key in theirs:
                assert value == theirs[key], (kernel.name, key)
        assert {"group_segment_fixed_size", "system_vgpr_workitem_id", "system_sgpr_workgroup_id_x"} <= theirs.keys()
        # every user SGPR flag llvm-objdump prints is one we decode (and equal, above): they say which user SGPRs
        # hold a value at entry (isa/amdgcn/declarations.py entry_live_in)
        flags = {key for key in theirs if key.startswith("user_sgpr_") and key != "user_sgpr_count"}
        assert flags and flags <= kernel.descriptor.keys(), (kernel.name, flags - kernel.descriptor.keys())
        users = sum(n for field, n in _USER_SGPRS.items() if theirs.get(f"user_sgpr_{field}") == "1")
        assert kernel.descriptor["user_sgpr_count"] == str(users), kernel.name
        if target == "gfx1100":
            assert kernel.descriptor["wavefront_size32"] == theirs["wavefront_size32"]
