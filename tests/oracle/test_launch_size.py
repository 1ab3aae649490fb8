"""Launch size (issue 28 item 4): the occupancy section equals LLVM's `Occupancy [waves/SIMD]` remark
(clang-19 -Rpass-analysis=kernel-resource-usage) for a HIP kernel with __launch_bounds__(256) and an OpenCL kernel
with reqd_work_group_size; `--wg` changes it as LLVM does for that bound; what a 256-thread launch would give is
shown when only the compiler's upper bound was known, and equals LLVM's figure for the same body bounded at 256."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.conftest import ROOT, require_tool
from tests.oracle.hipbuild import build, require_hip_toolchain

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

HIP = ROOT / "tests" / "data" / "binaries" / "launch_bounds.hip"
OPENCL = ROOT / "tests" / "data" / "binaries" / "reqd_workgroup.cl"
_REMARK = re.compile(r"remark: (?:Function Name: (\S+)|\s+Occupancy \[waves/SIMD\]: (\d+))")


def llvm_occupancy(cmd: list[str]) -> dict[str, int]:
    """Per function, the occupancy LLVM's kernel-resource-usage remarks state."""
    proc = subprocess.run([*cmd, "-Rpass-analysis=kernel-resource-usage", "-c", "-o", "/dev/null"],
                          capture_output=True, text=True, check=True)
    out: dict[str, int] = {}
    name = ""
    for match in _REMARK.finditer(proc.stderr):
        if match.group(1):
            name = match.group(1)
        else:
            out[name] = int(match.group(2))
    return out


def hip_remarks(*defines: str) -> dict[str, int]:
    clang = require_hip_toolchain()
    return llvm_occupancy([clang, "-x", "hip", "-nogpuinc", "-nogpulib", "-O3", "--offload-arch=gfx90a",
                           "--cuda-device-only", *(f"-D{d}" for d in defines), str(HIP)])


def occupancies(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    assert main([*argv, "--json"]) == 0
    return {k["name"]: k["occupancy"] for k in json.loads(capsys.readouterr().out)["files"][0]["kernels"]}


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("launch") / "lb.hipfb", "--cuda-device-only", source=HIP,
                 targets=("gfx90a",))


def test_hip_launch_bounds_give_llvms_occupancy(binary: Path, capsys: pytest.CaptureFixture[str]) -> None:
    llvm = hip_remarks()
    ours = occupancies(["analyze", str(binary)], capsys)
    assert {name: occ["llvm_occupancy"] for name, occ in ours.items()} == llvm
    bounded, unbounded = ours["bounded"], ours["unbounded"]
    assert (bounded["workgroup_size"], bounded["workgroup_size_from"]) == (256, "max_flat_workgroup_size")
    assert (unbounded["workgroup_size"], unbounded["workgroup_size_from"]) == (1024, "max_flat_workgroup_size")
    assert bounded["workgroup_size_assumed"] and unbounded["workgroup_size_assumed"]
    # the same body bounded at 256 is what a 256-thread launch of the unbounded kernel gives
    assert bounded["at_256_threads"] is None
    assert unbounded["at_256_threads"]["llvm_occupancy"] == llvm["bounded"]
    assert main(["livereg", str(binary), "--kernel", "unbounded"]) == 0
    text = capsys.readouterr().out
    assert ("workgroup of 1024 threads: the compiler's upper bound (.max_flat_workgroup_size), assumed; give the "
            "real launch size with --wg") in text
    assert f"with a 256-thread launch (--wg 256): {llvm['bounded']} waves per SIMD" in text


def test_wg_changes_occupancy_as_llvm_does(binary: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # oracle: LLVM's figure for the body bounded at 128 threads. By the model: 128 threads = 2 waves of 64; 16 KiB
    # of LDS lets 65536 / 16384 = 4 workgroups share a CU, 4 x 2 waves over 4 SIMDs = 2 waves per SIMD
    expected = hip_remarks("BOUND=128")["bounded"]
    assert expected == 2
    for wg in ("128", "128,1,1", "16,8"):
        ours = occupancies(["analyze", str(binary), "--wg", wg], capsys)
        for occ in ours.values():
            assert (occ["llvm_occupancy"], occ["waves_per_simd"]) == (expected, expected)
            assert (occ["workgroup_size"], occ["workgroup_size_from"], occ["workgroup_size_assumed"]) == (
                128, "launch", False)
            assert occ["at_256_threads"] is None
    # the scan takes it too
    pytest.importorskip("duckdb")
    out = tmp_path / "r.parquet"
    assert main(["scan", str(binary), "--wg", "128", "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["query", "select occupancy_llvm_occupancy o, occupancy_workgroup_size w from kernels",
                 "--scan", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"o": expected, "w": 128}] * 2
    # a launch larger than the target allows is refused, naming the limit
    assert main(["analyze", str(binary), "--wg", "2048"]) == 2
    assert "2048 threads exceed gfx90a's maximum workgroup of 1024" in capsys.readouterr().err


def test_opencl_required_size_wins(capsys: pytest.CaptureFixture[str]) -> None:
    clang = require_tool("clang-19")
    llvm = llvm_occupancy([clang, "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a",
                           "-O3", "-nogpulib", str(OPENCL)])
    for extra, source in (([], "reqd_workgroup_size"), (["--wg", "256"], "reqd_over_launch"),
                          (["--wg", "64,1,1"], "reqd_workgroup_size")):
        ours = occupancies(["analyze", str(OPENCL), "--arch", "gfx90a", *extra], capsys)
        assert {name: occ["llvm_occupancy"] for name, occ in ours.items()} == llvm == {"reqd": 1}
        assert (ours["reqd"]["workgroup_size"], ours["reqd"]["workgroup_size_from"]) == (64, source)
    assert main(["livereg", str(OPENCL), "--arch", "gfx90a", "--wg", "256"]) == 0
    assert "--wg differs and is not used" in capsys.readouterr().out
