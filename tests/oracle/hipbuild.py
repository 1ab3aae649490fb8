"""Build tests/data/binaries/kernels.hip with clang++-19 (and lld-19) into the binaries users ship: offload
bundles plain and compressed, a relocatable object and a shared library with ``.hip_fatbin``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

SOURCE = ROOT / "tests" / "data" / "binaries" / "kernels.hip"
TARGETS = ("gfx90a", "gfx1100")


def require_hip_toolchain() -> str:
    clang = shutil.which("clang++-19")
    if clang is None or (shutil.which("ld.lld-19") is None and shutil.which("ld.lld") is None):
        pytest.skip("clang++-19 and lld-19 are needed to build HIP binaries (run scripts/setup.sh)")
    if shutil.which("llvm-objdump-19") is None:
        pytest.skip("llvm-objdump-19 is not installed (run scripts/setup.sh)")
    return clang


def build(out: Path, *extra: str, defines: tuple[str, ...] = (), source: Path = SOURCE,
          targets: tuple[str, ...] = TARGETS) -> Path:
    """``clang++-19 -x hip`` for ``targets``, no HIP headers or device libraries (the sources need none)."""
    clang = require_hip_toolchain()
    cmd = [clang, "-x", "hip", "-nogpuinc", "-nogpulib", "-O3", *(f"--offload-arch={t}" for t in targets),
           *(f"-D{d}" for d in defines), *extra, str(source), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return out


def build_all(tmp: Path) -> dict[str, Path]:
    return {
        "plain": build(tmp / "k.hipfb", "--cuda-device-only"),
        "compressed": build(tmp / "kc.hipfb", "--cuda-device-only", "--offload-compress"),
        "object": build(tmp / "kc.o", "-c", "--offload-compress"),
        "shared": build(tmp / "libk.so", "-fPIC", "-shared", "-fuse-ld=lld"),
        "heavy": build(tmp / "k64.hipfb", "--cuda-device-only", defines=("N=64",)),
    }
