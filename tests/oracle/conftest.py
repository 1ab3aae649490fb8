"""The compiled corpus (examples/kernels, compiled by clang-19/llc-19) shared by the oracle tests.

The first run compiles everything (about 1.5 minutes on 2 cores); results are cached in .cache/corpus
keyed by source, target, flags and compiler version.
"""

from __future__ import annotations

import os

import pytest

from isalens.frontends import radv
from tests.conftest import ROOT
from tests.oracle.corpus import CorpusEntry, build_corpus, find_toolchain


@pytest.fixture(scope="session")
def corpus() -> list[CorpusEntry]:
    if find_toolchain() is None:
        pytest.skip("clang-19/llc-19/libclc-19 are not installed (run scripts/setup.sh)")
    return build_corpus(ROOT / ".cache" / "corpus", jobs=os.cpu_count() or 2)


@pytest.fixture(scope="session")
def radv_driver() -> str:
    """The RADV driver's name and version, when glslang and RADV's null device work here (else skip)."""
    if radv.find_glslang() is None:
        pytest.skip(f"glslang is not installed ({radv.GLSLANG_INSTALL})")
    if radv.find_radv_icd() is None:
        pytest.skip(f"RADV is not installed ({radv.MESA_INSTALL})")
    families, driver = radv.probe_families(["RAVEN"])
    if not families:
        pytest.skip("RADV does not create a null device here (RADV_FORCE_FAMILY=raven)")
    return str(driver)


@pytest.fixture(scope="session")
def radv_ok(radv_driver: str) -> None:
    """Skip unless glslang and RADV's null device can compile shaders here."""
