"""The compiled corpus (examples/kernels, compiled by clang-19/llc-19) shared by the oracle tests.

The first run compiles everything (about 1.5 minutes on 2 cores); results are cached in .cache/corpus
keyed by source, target, flags and compiler version.
"""

from __future__ import annotations

import os

import pytest

from tests.conftest import ROOT
from tests.oracle.corpus import CorpusEntry, build_corpus, find_toolchain


@pytest.fixture(scope="session")
def corpus() -> list[CorpusEntry]:
    if find_toolchain() is None:
        pytest.skip("clang-19/llc-19/libclc-19 are not installed (run scripts/setup.sh)")
    return build_corpus(ROOT / ".cache" / "corpus", jobs=os.cpu_count() or 2)
