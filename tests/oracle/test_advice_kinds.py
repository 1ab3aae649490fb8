"""Advice kinds on kernels of ours compiled by clang-19 (examples/kernels/advice), the expected answers
derived by hand from the source and the listing; each with a kernel where the kind must not fire."""

from __future__ import annotations

import pytest

from isalens.analysis.advice import Advice
from isalens.api import LoadedKernel
from isalens.api_advice import kernel_advice
from isalens.api_frontends import load_source
from isalens.frontends import clang as cc
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.oracle

KERNELS = EXAMPLES / "kernels" / "advice"


@pytest.fixture(scope="module", autouse=True)
def _clang() -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")


def _kernel(name: str, arch: str = "gfx902", *defines: str) -> LoadedKernel:
    module, _ = load_source(KERNELS / name, arch, defines=defines)
    return module.kernels[0]


def _items(kernel: LoadedKernel, kind: str) -> list[Advice]:
    return [i for i in kernel_advice(kernel).items if i.kind == kind]


def test_wasted_halves_pairs_the_scalar_fp16_values() -> None:
    # By hand: a[0..7] are scalar halves computed one by one and all live in the k/j double loop, together
    # with the running sum s: nine 16-bit values, each alone in a VGPR (16-bit VALU ops write the whole
    # register; only the low half is read again). Nine lonely halves make 4 pairs: 4 VGPRs freed there.
    (item,) = _items(_kernel("scalar_halves.cl"), "halves")
    assert item.facts["pairs"] == 4
    assert len(item.values) == 9 and all(v.reg.endswith(".l") for v in item.values)
    before, after = item.effect["live_vgprs_at_line"]
    assert before - after == 4


def test_no_wasted_halves_when_values_are_packed() -> None:
    # occupancy_budget works on float4: every live VGPR holds 32-bit data, no lonely half
    assert not _items(_kernel("occupancy_budget.cl"), "halves")
