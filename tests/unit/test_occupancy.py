"""Occupancy and tile figures of shared/docs/domain.md §1.3, each with its arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.analysis.occupancy import OccupancyInput, occupancy
from isalens.analysis.tiles import plan_tile
from isalens.arch.loader import get_arch
from isalens.cli import main

GFX9 = get_arch("gfx900")


def test_two_1024_thread_groups_do_not_fit_at_40_vgprs() -> None:
    # 40 VGPRs: 256 / align(40, 4) = 6 waves per SIMD (LLVM prints 6). A 1024-thread group is 16 waves,
    # 4 per SIMD; two groups would need 8 > 6, so one group fits: 4 waves/SIMD = 40% of 10.
    occ = occupancy(GFX9, OccupancyInput(vgprs=40, workgroup_size=1024))
    assert occ.llvm_occupancy == 6
    assert occ.workgroups_per_cu == 1
    assert occ.waves_per_simd == 4
    assert occ.occupancy_pct == pytest.approx(40.0)
    assert occ.limited_by == ("vgpr",)
    # to fit a second group each SIMD needs 8 waves: 256 / 8 = 32 VGPRs, i.e. 8 fewer
    assert occ.next_step is not None and occ.next_step.vgprs_to_remove == 8


def test_two_groups_fit_at_32_vgprs() -> None:
    # 256 / 32 = 8 waves per SIMD; two 16-wave groups = 32 waves = 8 per SIMD
    occ = occupancy(GFX9, OccupancyInput(vgprs=32, workgroup_size=1024))
    assert occ.workgroups_per_cu == 2 and occ.waves_per_simd == 8 and occ.llvm_occupancy == 8


def test_plain_kernel_assumed_1024_threads_shows_8_on_gfx9() -> None:
    # LLVM assumes a 1024-thread group: 40 wave slots / 16 waves = 2 groups = 32 waves = 8 per SIMD
    occ = occupancy(GFX9, OccupancyInput(vgprs=8, workgroup_size=1024))
    assert occ.llvm_occupancy == 8 and occ.limit_lds_workgroup == 8


def test_vgpr_limits_follow_the_formula() -> None:
    # waves = min(max(total / alignTo(n, granule), 1), max waves); below one granule: max waves
    assert occupancy(GFX9, OccupancyInput(vgprs=3, workgroup_size=64)).limit_vgpr == 10
    assert occupancy(GFX9, OccupancyInput(vgprs=25, workgroup_size=64)).limit_vgpr == 256 // 28
    assert occupancy(GFX9, OccupancyInput(vgprs=256, workgroup_size=64)).limit_vgpr == 1
    # gfx90a: unified 512 file, granule 8, 8 waves max; VGPRs aligned to 4 then AGPRs added:
    # 10 -> 12, + 32 = 44; and 58 -> 60, + 64 = 124 -> alignTo(124, 8) = 128 -> 512 / 128 = 4 waves
    cdna = get_arch("gfx90a")
    assert occupancy(cdna, OccupancyInput(vgprs=10, agprs=32, workgroup_size=64)).total_vgprs == 12 + 32
    occ = occupancy(cdna, OccupancyInput(vgprs=58, agprs=64, workgroup_size=64))
    assert occ.total_vgprs == 124 and occ.limit_vgpr == 4
    # gfx1100 wave32: 1536 / alignTo(96, 24) = 16
    assert occupancy(get_arch("gfx1100"), OccupancyInput(vgprs=96, workgroup_size=64, wave_size=32)).limit_vgpr == 16


def test_sgpr_limits_on_gfx9_only() -> None:
    # gfx8/9: <=80 -> 10, <=88 -> 9, <=100 -> 8, else 7; gfx10+ SGPRs never limit
    assert [occupancy(GFX9, OccupancyInput(vgprs=1, sgprs=n, workgroup_size=64)).limit_sgpr
            for n in (80, 81, 88, 100, 102)] == [10, 9, 9, 8, 7]
    assert occupancy(get_arch("gfx1030"), OccupancyInput(vgprs=1, sgprs=104, workgroup_size=64,
                                                          wave_size=32)).limit_sgpr == 16


@pytest.mark.parametrize(("dims", "loads", "pct"), [
    ((8, 8), 100, 56),        # 10*10 = 100; (100-64)/64 = 56.25%
    ((16, 16), 324, 27),      # 18*18 = 324; 68/256 = 26.6%
    ((32, 32), 1156, 13),     # 34*34 = 1156; 132/1024 = 12.9%
])
def test_tiles_2d(dims: tuple[int, int], loads: int, pct: int) -> None:
    plan = plan_tile(dims, 1, 4)
    assert plan.loads == loads
    assert round(plan.overhead_vs_useful_pct) == pct


def test_tiles_3d() -> None:
    assert plan_tile((4, 4, 4), 1, 4).loads == 216          # 6^3
    big = plan_tile((8, 8, 8), 1, 4)
    assert big.loads == 1000 and big.border == 488          # 10^3, 1000 - 512


def test_tile_groups_share_the_lds_of_a_cu_or_a_wgp(capsys: pytest.CaptureFixture[str]) -> None:
    """gfx1100 in WGP mode: two CUs share 128 KiB, so a 25,600-byte tile (64x64, radius 8: 80 * 80 * 4) fits 5
    times per WGP (131072 // 25600), said as per WGP; gfx902: 64 KiB per CU, 17,920 allocated (17,424 in
    512-byte granules) fit 3 times per CU; a 128x128 tile (144 * 144 * 4 = 82,944 bytes) fits no workgroup's
    64 KiB, said so rather than "0 groups"."""
    from isalens.arch.loader import get_arch as load_arch
    wgp = plan_tile((64, 64), 8, 4, load_arch("gfx1100"))
    assert (wgp.groups_per_cu_by_lds, wgp.lds_pool) == (5, "WGP")
    cu = plan_tile((64, 64), 1, 4, load_arch("gfx902"))
    assert (cu.lds_allocated, cu.groups_per_cu_by_lds, cu.lds_pool) == (17920, 3, "CU")
    assert main(["tile", "--dims", "64x64", "--radius", "8", "--arch", "gfx1100"]) == 0
    assert "5 groups per WGP by LDS" in capsys.readouterr().out
    assert main(["tile", "--dims", "128x128", "--radius", "8", "--arch", "gfx902"]) == 0
    assert "82944 allocated): does not fit, a workgroup may have at most 65536 bytes" in capsys.readouterr().out


def test_wgp_mode_on_a_target_without_wgps_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``--mode wgp`` on gfx902 or gfx90a printed the CU's figures without a word; gfx10+ takes it (the arch data:
    LDS per WGP)."""
    from isalens.arch.loader import get_arch

    assert get_arch("gfx902").lds_bytes_per_wgp == 0 and get_arch("gfx1030").lds_bytes_per_wgp > 0
    for arch in ("gfx902", "gfx90a"):
        assert main(["occupancy", "--arch", arch, "--vgprs", "40", "--mode", "wgp"]) == 2
        assert f"{arch} has no WGP mode" in capsys.readouterr().err
    assert main(["occupancy", "--arch", "gfx902", "--vgprs", "40", "--mode", "cu"]) == 0
    assert main(["occupancy", "--arch", "gfx1030", "--vgprs", "40", "--mode", "wgp"]) == 0
    assert "(WGP mode)" in capsys.readouterr().out


def test_occupancy_cli_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["occupancy", "--arch", "gfx902", "--vgprs", "40", "--wg", "1024", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["occupancy"]  # schema 3: the result beside the header
    for key in ("arch", "wave_size", "waves_per_simd", "llvm_occupancy", "max_waves_per_simd",
                "workgroups_per_cu", "occupancy_pct", "limited_by", "limits", "next_step"):
        assert key in doc
    assert set(doc["limits"]) == {"vgpr", "sgpr", "lds", "workgroup"}
    assert doc["waves_per_simd"] == 4 and doc["llvm_occupancy"] == 6


def test_tile_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tile", "--dims", "16x16", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["tile"]  # schema 3: the result beside the header
    assert {"loads", "useful", "overhead_vs_useful_pct", "overhead_vs_total_pct", "lds_bytes"} <= set(doc)
    assert doc["lds_bytes"] == 324 * 4


@pytest.mark.parametrize("args", [
    ["occupancy", "--arch", "gfx9000", "--vgprs", "40"],               # unknown arch (suggests gfx900)
    ["occupancy", "--arch", "gfx900", "--vgprs", "40", "--wave", "32"],  # wave32 on gfx9
    ["occupancy", "--arch", "gfx900", "--vgprs", "40", "--wg", "2048"],  # workgroup above the maximum
    ["occupancy", "--arch", "gfx900", "--vgprs", "-1"],                  # negative count
    ["occupancy", "--arch", "gfx900", "--vgprs", "8", "--wg", "0"],      # zero threads
    ["occupancy", "--arch", "gfx900", "--vgprs", "8", "--lds", "70000"],  # LDS over the limit
    ["tile", "--dims", "16xq"],
])
def test_bad_occupancy_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unknown_arch_suggests_names(capsys: pytest.CaptureFixture[str]) -> None:
    main(["occupancy", "--arch", "gfx9000", "--vgprs", "40"])
    assert "gfx900" in capsys.readouterr().err


def test_plot_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    for name in ("occ.png", "occ.svg"):
        out = tmp_path / name
        assert main(["occupancy", "--arch", "gfx1100", "--vgprs", "96", "--wg", "256", "--plot", str(out)]) == 0
        data = out.read_bytes()
        assert data.startswith(b"\x89PNG") if name.endswith(".png") else b"<svg" in data[:2000]
    assert main(["occupancy", "--arch", "gfx900", "--vgprs", "8", "--plot", str(tmp_path / "x.pdf")]) == 2


def test_a_group_that_cannot_launch() -> None:
    # 1024 threads = 16 waves = 4 per SIMD; 68 VGPRs allow 256 / 68 = 3 waves per SIMD: no group fits
    occ = occupancy(GFX9, OccupancyInput(vgprs=68, workgroup_size=1024))
    assert occ.workgroups_per_cu == 0 and occ.waves_per_simd == 0 and occ.llvm_occupancy == 3


def test_tile_of_a_workgroup_is_its_shape_plus_the_border_its_lds_holds() -> None:
    from isalens.analysis.tiles import tile_of_workgroup
    # sweep's tile_blur.cl: a TILE x TILE group staging (TILE + 2)^2 floats: 18 * 18 * 4 = 1296 bytes
    plan = tile_of_workgroup((16, 16, 1), 1296)
    assert plan is not None and (plan.dims, plan.radius, plan.bytes_per_item) == ((16, 16), 1, 4)
    # 2-byte items with radius 2 of an 8x8 group: 12 * 12 * 2 = 288 bytes (radius 1 would need 288 / 100 bytes)
    plan = tile_of_workgroup((8, 8, 1), 288)
    assert plan is not None and (plan.radius, plan.bytes_per_item) == (2, 2)
    assert tile_of_workgroup((16, 16, 1), 1000) is None  # no (r, size) with (16 + 2r)^2 * size = 1000
    assert tile_of_workgroup((64, 1, 1), 0) is None and tile_of_workgroup((1, 1, 1), 64) is None
