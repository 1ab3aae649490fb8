"""gfx12.5's arch data (``arch/data/gfx12_5.toml``) against ROCm LLVM's own occupancy (issue 28): LLVM 19 does not
know gfx1250/gfx1251, so tiny kernels are compiled with the optional ``rocm-llvm-python`` (its LLVM-C target
machine, tools/rocm_llvm.py ``occupancy``; skipped without it) and our occupancy model must give the
``; Occupancy`` ROCm LLVM prints for the VGPRs it counted (``; NumVgprs``), the LDS and the workgroup size: the
VGPR file and granule, the wave limit, the LDS of a CU and the SIMDs per CU (CU mode) all enter it.
"""

from __future__ import annotations

import pytest

from isalens.analysis.occupancy import OccupancyInput, llvm_occupancy
from isalens.arch.loader import all_archs
from tests.conftest import load_tool

pytestmark = pytest.mark.oracle

#: VGPRs around every granule of 16 up to 256, at 256 threads (LLVM's limit is VGPR-bound there)
VGPR_KERNELS = [(n, 0, 256) for n in (1, 16, 17, 32, 33, 64, 65, 80, 81, 96, 97, 112, 113, 128, 129, 160, 161, 192,
                                      200, 224, 256)]
#: LDS around the sizes that let 5, 4, 3, 2 and 1 groups share a CU's 320 KiB, for three workgroup sizes
LDS_KERNELS = [(1, lds, wg) for wg in (64, 256, 1024) for lds in (4096, 65536, 65540, 81920, 81924, 109228, 163840,
                                                                   163844, 327680)]


@pytest.mark.parametrize("target", ["gfx1250", "gfx1251"])
def test_occupancy_equals_rocm_llvm(target: str) -> None:
    oracle = load_tool("rocm_llvm")
    if oracle.library() is None:
        pytest.skip("rocm-llvm-python is not installed")
    spec = all_archs()[target]
    kernels = VGPR_KERNELS + LDS_KERNELS
    wrong = []
    for (_n, lds, wg), got in zip(kernels, oracle.occupancy(target, kernels), strict=True):
        assert got is not None
        vgprs, theirs = got
        ours = llvm_occupancy(spec, OccupancyInput(vgprs=vgprs, lds_bytes=lds, workgroup_size=wg, wave_size=32))
        if ours != theirs:
            wrong.append(f"{vgprs} VGPRs, {lds} B LDS, {wg} threads: ours {ours}, ROCm LLVM {theirs}")
    assert not wrong, wrong


def test_gfx12_5_is_wave32_only() -> None:
    """ROCm LLVM emits no kernel for gfx1250 with +wavefrontsize64 (it does for gfx1200): no wave64 data."""
    oracle = load_tool("rocm_llvm")
    if oracle.library() is None:
        pytest.skip("rocm-llvm-python is not installed")
    assert oracle.occupancy("gfx1250", [(1, 0, 256)], "+wavefrontsize64") == [None]
    assert oracle.occupancy("gfx1200", [(1, 0, 256)], "+wavefrontsize64") != [None]
    assert all_archs()["gfx1250"].wave_sizes == (32,)
