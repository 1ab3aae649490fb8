"""Occupancy's "next step" against the model it advises on: every suggested cut, applied, reaches the level
it names, and one step less does not (so it is also the smallest such cut)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.occupancy import OccupancyInput, OccupancyInputError, occupancy
from isalens.arch.loader import get_arch
from isalens.arch.model import ArchSpec

_TARGETS = ("gfx803", "gfx902", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200")


@st.composite
def kernels(draw: st.DrawFn) -> tuple[ArchSpec, OccupancyInput]:
    arch = get_arch(draw(st.sampled_from(_TARGETS)))
    wave = draw(st.sampled_from(arch.wave_sizes))
    agprs = draw(st.integers(0, 64)) if arch.agprs else 0
    return arch, OccupancyInput(
        vgprs=draw(st.integers(1, arch.addressable_vgprs)), agprs=agprs, sgprs=draw(st.integers(0, 104)),
        lds_bytes=draw(st.integers(0, arch.lds_bytes_per_workgroup)),
        workgroup_size=draw(st.integers(1, arch.max_workgroup_size)), wave_size=wave,
        wgp_mode=draw(st.sampled_from((None, True, False))))


def _waves(arch: ArchSpec, inp: OccupancyInput) -> float:
    try:
        return occupancy(arch, inp).waves_per_simd
    except OccupancyInputError:
        return -1.0


@settings(max_examples=150, deadline=None)
@given(kernels())
def test_every_suggestion_reaches_its_level(case: tuple[ArchSpec, OccupancyInput]) -> None:
    arch, inp = case
    try:
        occ = occupancy(arch, inp)
    except OccupancyInputError:
        return
    step = occ.next_step
    if step is None:
        return
    target = step.target_waves_per_simd
    assert target > occ.waves_per_simd
    cuts = (("vgprs", step.vgprs_to_remove, 1), ("sgprs", step.sgprs_to_remove, 1),
            ("lds_bytes", step.lds_bytes_to_remove, arch.lds_alloc_granule))
    for field, cut, unit in cuts:
        if cut is None:
            continue
        current = getattr(inp, field)
        assert _waves(arch, dataclasses.replace(inp, **{field: current - cut})) >= target, (field, cut)
        if cut > unit:
            assert _waves(arch, dataclasses.replace(inp, **{field: current - cut + unit})) < target, (field, cut)
    if step.threads_to_remove is not None:
        size = inp.workgroup_size - step.threads_to_remove
        assert size >= 1
        assert _waves(arch, dataclasses.replace(inp, workgroup_size=size)) >= target
        # smallest cut: any larger workgroup (brute force over every size in between) stays below the target
        for bigger in range(size + 1, inp.workgroup_size):
            assert _waves(arch, dataclasses.replace(inp, workgroup_size=bigger)) < target, bigger


def test_issue_example_gfx902_40_vgprs_1024_threads() -> None:
    # 40 VGPRs: 256 / 40 -> 6 waves per SIMD. 1024 threads = 16 waves = 4 per SIMD, one group fits (4 waves).
    # The next level is two groups, 8 waves per SIMD: VGPRs must drop to 32 (256 / 32 = 8). No workgroup size
    # reaches 8, because the VGPR limit caps every SIMD at 6 (768 threads: 12 waves, 2 groups = 24 waves = 6
    # per SIMD, which the old formula reported as 8).
    arch = get_arch("gfx902")
    occ = occupancy(arch, OccupancyInput(vgprs=40, workgroup_size=1024, wave_size=64))
    assert occ.next_step is not None
    assert occ.next_step.target_waves_per_simd == 8
    assert occ.next_step.vgprs_to_remove == 8
    assert occ.next_step.threads_to_remove is None
    assert occupancy(arch, OccupancyInput(vgprs=40, workgroup_size=768, wave_size=64)).waves_per_simd == 6
