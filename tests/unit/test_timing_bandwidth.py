"""The DRAM roof uses a device's achievable bandwidth where a published streaming measurement gives one, and
says which figure it used (issue 29 item 4). Expected roofs are arithmetic on devices.toml, derived below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.arch.devices import get_device
from isalens.cli import main

#: one float4 load (16 B per lane) and 4 FMAs (8 flops per lane) per iteration: 0.5 flop/B
LOOP = """s_mov_b32 s0, 8
BB0:
global_load_dwordx4 v[0:3], v[8:9], off
s_waitcnt vmcnt(0)
v_fma_f32 v4, v0, v1, v4
v_fma_f32 v5, v1, v2, v5
v_fma_f32 v6, v2, v3, v6
v_fma_f32 v7, v3, v0, v7
s_sub_u32 s0, s0, 1
s_cmp_lg_u32 s0, 0
s_cbranch_scc1 BB0
s_endpgm
"""


def _roofs(tmp_path: Path, capsys: pytest.CaptureFixture[str], arch: str, device: str) -> dict[str, object]:
    src = tmp_path / "k.s"
    src.write_text(LOOP)
    assert main(["timing", str(src), "--arch", arch, "--device", device, "--waves", "4", "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["timing"]["loops"]
    roofs: dict[str, object] = loop["roofs"]
    return roofs


def test_achievable_bandwidth_bounds_and_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # MI210: achievable 1366 GB/s (gpu-benches' streaming read), nominal 1638.4: 0.5 flop/B x 1366 = 683 Gflop/s
    assert get_device("mi210").memory_bandwidth_gbs == 1638.4
    roofs = _roofs(tmp_path, capsys, "gfx90a", "mi210")
    assert roofs["arithmetic_intensity"] == 0.5
    assert roofs["dram_bandwidth_basis"] == "achievable" and roofs["dram_bandwidth_gbs"] == 1366
    assert roofs["dram_gflops"] == pytest.approx(683.0)


def test_vega20_products_take_the_mi50_streaming_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # MI50: BabelStream Copy 765 GB/s (nominal 1024); the Radeon VII and Radeon Pro VII are the same die and HBM2:
    # 0.5 flop/B x 765 = 382.5 Gflop/s on each
    for device in ("mi50", "radeon-vii", "radeon-pro-vii"):
        assert get_device(device).memory_bandwidth_gbs == 1024
        roofs = _roofs(tmp_path, capsys, "gfx906", device)
        assert roofs["dram_bandwidth_basis"] == "achievable" and roofs["dram_bandwidth_gbs"] == 765, device
        assert roofs["dram_gflops"] == pytest.approx(382.5), device


def test_nominal_bandwidth_where_no_measurement_is_recorded(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # RX 5700 XT: no published streaming figure recorded, nominal 448 GB/s: 0.5 x 448 = 224 Gflop/s
    roofs = _roofs(tmp_path, capsys, "gfx1010", "rx-5700-xt")
    assert roofs["dram_bandwidth_basis"] == "nominal" and roofs["dram_bandwidth_gbs"] == 448
    assert roofs["dram_gflops"] == pytest.approx(224.0)
