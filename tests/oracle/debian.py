"""Debian's ROCm libraries for the binary tests: ``apt-get download`` + ``dpkg -x`` into .cache/debs (skipped
cleanly when apt-get is missing or Debian is unreachable). Nothing downloaded is committed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

LIBRARIES = {
    "librocrand1": "librocrand.so.1",
    "libhsa-runtime64-1": "libhsa-runtime64.so.1",
    "librocsparse0": "librocsparse.so.0",
}


def debian_library(package: str) -> Path:
    """The shared library of ``package`` (its real file, not the symlink), downloaded once."""
    cache = ROOT / ".cache" / "debs"
    unpacked = cache / "x" / package
    found = sorted(p for p in unpacked.rglob(LIBRARIES[package] + "*") if p.is_file() and not p.is_symlink())
    if found:
        return found[0]
    if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
        pytest.skip("apt-get/dpkg are not available to download Debian's ROCm libraries")
    cache.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["apt-get", "download", package], cwd=cache, capture_output=True, text=True, check=False)
    debs = sorted(cache.glob(f"{package}_*.deb"))
    if proc.returncode != 0 or not debs:
        pytest.skip(f"cannot download {package} (offline?): {proc.stderr.strip()[:200]}")
    unpacked.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg", "-x", str(debs[-1]), str(unpacked)], check=True)
    found = sorted(p for p in unpacked.rglob(LIBRARIES[package] + "*") if p.is_file() and not p.is_symlink())
    if not found:
        pytest.fail(f"{package} holds no {LIBRARIES[package]}")
    return found[0]
