"""Advice applied and recompiled: the effect isalens predicts equals what clang-19 produces after the change.

Each kernel in examples/kernels/advice takes the change as a define, so "applying the advice" is recompiling
with the value the advice names.
"""

from __future__ import annotations

import pytest

from isalens.analysis.advice import Advice
from isalens.engine.advice import kernel_advice
from isalens.engine.load import LoadedKernel
from isalens.engine.sources import load_source
from isalens.frontends import clang as cc
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.oracle

KERNELS = EXAMPLES / "kernels" / "advice"


@pytest.fixture(scope="module", autouse=True)
def _clang() -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")


def _compile(name: str, *defines: str, arch: str = "gfx902") -> tuple[LoadedKernel, dict[str, str | int]]:
    module, stats = load_source(KERNELS / name, arch, defines=defines)
    return module.kernels[0], stats


def _item(kernel: LoadedKernel, kind: str) -> Advice:
    return next(i for i in kernel_advice(kernel).items if i.kind == kind)


def test_spill_budget_recompiled_removes_every_spill() -> None:
    kernel, stats = _compile("spill_budget.cl", "BUDGET=32")
    assert int(stats[".vgpr_spill_count"]) > 0
    item = _item(kernel, "spills")
    before, budget = item.effect["vgprs"]
    assert before == 32
    after, after_stats = _compile("spill_budget.cl", f"BUDGET={int(budget)}")
    # predicted: no spill slot left and exactly the budget's VGPRs requested
    assert int(after_stats[".vgpr_spill_count"]) == 0
    assert after.analyze().resources.vgpr.requested == budget
    assert item.effect["vgpr_spill_slots"][1] == 0


def test_occupancy_step_recompiled_reaches_the_predicted_waves() -> None:
    kernel, _ = _compile("occupancy_budget.cl")
    item = _item(kernel, "occupancy")
    _, target = item.effect["vgprs"]
    waves_before, waves_after = item.effect["waves_per_simd"]
    # by hand: 1024 threads = 16 waves = 4 per SIMD on gfx902; 8 waves per SIMD (two groups) need
    # 256 // 8 = 32 VGPRs
    assert (target, waves_after) == (32, 8)
    assert waves_before == 4
    after, stats = _compile("occupancy_budget.cl", f"BUDGET={int(target)}")
    occ = after.analyze().occupancy
    assert occ is not None
    assert occ[0].waves_per_simd == waves_after
    assert int(stats["Occupancy"]) == waves_after


def test_lds_pair_within_read2_range_recompiled_is_one_read() -> None:
    kernel, _ = _compile("lds_far.cl", "FAR=300")
    item = _item(kernel, "lds")
    before, after = item.effect["lds_reads_for_pair"]
    assert before == sum(1 for i in kernel.instructions if i.mnemonic.startswith("ds_read"))
    # applied: the two elements within 255 of each other (200 elements = 800 bytes)
    merged, _ = _compile("lds_far.cl", "FAR=200")
    reads = [i.mnemonic for i in merged.instructions if i.mnemonic.startswith("ds_read")]
    assert len(reads) == after and reads == ["ds_read2_b32"]
