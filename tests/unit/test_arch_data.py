"""Architecture and device data against shared/docs/domain.md §1.3, §1.4 and §2, plus our own rules."""

from __future__ import annotations

import dataclasses

import pytest

from isalens.arch import check as check_mod
from isalens.arch.check import check_arch_data
from isalens.arch.devices import DeviceSpec, _device, check_dies, get_device, load_devices
from isalens.arch.loader import all_archs, get_arch

# --- consistency rules ------------------------------------------------------------------------------


def test_arch_data_is_consistent() -> None:
    assert check_arch_data() == []


def test_rules_report_broken_data(monkeypatch: pytest.MonkeyPatch) -> None:
    good = get_arch("gfx900")
    broken = dataclasses.replace(good, vgpr_granule_wave64=6, sgpr_granule=12, lds_bytes_per_workgroup=1 << 20)
    other = dataclasses.replace(get_arch("gfx906"), aliases=("vega10",))
    monkeypatch.setattr(check_mod, "all_archs", lambda: {"gfx900": broken, "gfx906": other})
    problems = "\n".join(check_arch_data())
    assert "not a multiple of the granule 6" in problems
    assert "sgpr_granule 12 must divide 16" in problems
    assert "exceeds the LDS of a CU/WGP" in problems
    assert "alias 'vega10' is already an alias of gfx900" in problems
    # devices now point at targets that are gone
    assert "device rx-6900-xt: target 'gfx1030' is not a known gfx target" in problems


def test_a_device_with_a_bad_fp32_figure_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    devices = dict(load_devices())
    devices["rx-vega-64"] = dataclasses.replace(devices["rx-vega-64"], fp32_gflops=20000)
    monkeypatch.setattr(check_mod, "load_devices", lambda: devices)
    assert check_arch_data() == ["device rx-vega-64: fp32_gflops 20000 is not 1 x SPs x 2 x clock (12664.8)"]


# --- domain.md §2: occupancy figures per target ------------------------------------------------------

# target: (max waves/SIMD, {wave size: (VGPR file, granule)})
SECTION_2 = {
    "gfx900": (10, {64: (256, 4)}),
    "gfx90a": (8, {64: (512, 8)}),
    "gfx1010": (20, {32: (1024, 8), 64: (512, 4)}),
    "gfx1030": (16, {32: (1024, 16), 64: (512, 8)}),
    "gfx1102": (16, {32: (1024, 16), 64: (512, 8)}),
    "gfx1100": (16, {32: (1536, 24), 64: (768, 12)}),
    "gfx1200": (16, {32: (1536, 24), 64: (768, 12)}),
}


@pytest.mark.parametrize("name", sorted(SECTION_2))
def test_section_2_table(name: str) -> None:
    max_waves, files = SECTION_2[name]
    arch = get_arch(name)
    assert arch.max_waves_per_simd == max_waves
    assert set(arch.wave_sizes) == set(files)
    for wave, (total, granule) in files.items():
        assert (arch.vgpr_total(wave), arch.vgpr_granule(wave)) == (total, granule)


def test_gfx90a_file_is_unified_with_agprs() -> None:
    arch = get_arch("gfx90a")
    assert arch.unified_vgpr_file and arch.agprs == 256
    # VGPRs aligned to 4, then AGPRs added (domain.md §2)
    assert arch.total_vgprs(vgprs=5, agprs=8) == 16


def test_gfx6_to_gfx9_share_the_gcn_vgpr_model() -> None:
    for name in ("gfx600", "gfx700", "gfx803", "gfx900"):
        arch = get_arch(name)
        assert (arch.max_waves_per_simd, arch.vgpr_total(64), arch.vgpr_granule(64), arch.wave_sizes) == (
            10, 256, 4, (64,),
        )


# --- domain.md §1.3: the GCN compute unit -------------------------------------------------------------


def test_gcn_cu_shape() -> None:
    arch = get_arch("gfx900")
    assert arch.simds_per_cu == 4
    # each SIMD holds 256 VGPRs x 64 lanes x 4 bytes = 64 KiB
    assert arch.vgpr_total(64) * 64 * 4 == 64 * 1024
    # two 1024-thread groups at 40 VGPRs need 2 x 1024 x 40 = 81,920 VGPR lanes > a CU's 4 x 256 x 64
    assert 2 * 1024 * 40 == 81920 > arch.vgpr_total(64) * 64 * arch.simds_per_cu == 65536


@pytest.mark.parametrize(("name", "lds"), [("gfx600", 32768), ("gfx700", 65536), ("gfx803", 65536), ("gfx900", 65536)])
def test_lds_per_cu(name: str, lds: int) -> None:
    assert get_arch(name).lds_bytes_per_cu == lds


@pytest.mark.parametrize(("name", "sgprs"), [("gfx601", 512), ("gfx704", 512), ("gfx803", 800), ("gfx906", 800)])
def test_sgpr_file_per_simd(name: str, sgprs: int) -> None:
    assert get_arch(name).sgpr_total == sgprs


def test_gfx6_and_gfx7_specifics() -> None:
    tahiti, hawaii = get_arch("tahiti"), get_arch("hawaii")
    assert (tahiti.name, hawaii.name) == ("gfx600", "gfx701")
    for arch in (tahiti, hawaii):
        # LLVM getAddressableNumSGPRs / getSGPRAllocGranule before gfx8
        assert (arch.addressable_sgprs, arch.sgpr_granule) == (104, 8)
        assert not arch.has_sdwa and not arch.xnack and arch.sgprs_limit_occupancy
    assert (tahiti.lds_alloc_granule, hawaii.lds_alloc_granule) == (256, 512)
    assert (tahiti.lds_bytes_per_workgroup, hawaii.lds_bytes_per_workgroup) == (32768, 65536)
    assert {get_arch(a).name for a in ("kabini", "mullins")} == {"gfx703"}
    assert get_arch("bonaire").name == "gfx704"
    assert {"gfx602", "gfx702", "gfx705"} <= set(all_archs())


# --- domain.md §1.4 and device arithmetic -------------------------------------------------------------


def test_hd4870_peak() -> None:
    hd = get_device("hd4870")
    # 10 SIMDs x 16 thread processors x 5 ALUs x 2 flops (MAD) x 750 MHz = 1200 Gflop/s
    assert (hd.compute_units, hd.alus_per_sp, hd.boost_clock_mhz) == (10, 5, 750)
    assert hd.compute_units * 16 * hd.alus_per_sp * 2 * hd.boost_clock_mhz / 1000 == 1200 == hd.fp32_gflops
    assert hd.tex_fetch_gbs == 444


# vendor figures that count two FP32 FMAs per SP per clock: VOPD (RDNA3/4) and packed FP32 (MI300)
DUAL_ISSUE = {"rx-7900-xtx", "rx-9070-xt", "mi300x"}
REQUIRED = {"rx-vega-64", "ryzen-5-2400g", "radeon-vii", "mi100", "mi250x", "mi300x", "rx-6900-xt",
            "rx-7900-xtx", "rx-9070-xt", "hd4870", "hd5870", "hd6970", "hd2900-xt"}


def test_required_devices_exist() -> None:
    assert set(load_devices()) >= REQUIRED


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_fp32_arithmetic(name: str) -> None:
    dev = get_device(name)
    if dev.is_vliw:
        assert dev.stream_processors == dev.compute_units * 16 * dev.alus_per_sp
        expected = dev.compute_units * 16 * dev.alus_per_sp * 2 * dev.boost_clock_mhz / 1000
        assert dev.fp32_gflops == pytest.approx(expected, rel=1e-6)
    else:
        assert dev.alus_per_sp == 1 and dev.stream_processors == 64 * dev.compute_units
        factor = 2 if name in DUAL_ISSUE else 1
        assert dev.fp32_gflops == pytest.approx(factor * dev.single_issue_fp32_gflops, rel=0.01)


def test_gcn_targets_and_lds() -> None:
    archs = all_archs()
    for dev in load_devices().values():
        if not dev.is_vliw:
            assert archs[dev.target].name == dev.target
            assert dev.lds_bytes_per_cu == archs[dev.target].lds_bytes_per_cu
    assert get_device("rx-vega-64").lds_bandwidth_bytes_per_clk_per_cu == 128  # domain.md §2
    assert get_device("hd6970").alus_per_sp == 4 and get_device("hd5870").alus_per_sp == 5


# --- devices.py loading and lookup --------------------------------------------------------------------


def test_get_device_by_marketing_name_and_errors() -> None:
    assert get_device("Radeon RX Vega 64").name == "rx-vega-64"
    assert get_device("Radeon HD 4870").name == "hd4870"
    with pytest.raises(KeyError, match="did you mean rx-vega-64"):
        get_device("vega-64")


BASE = {
    "marketing_name": "X", "target": "gfx900", "isa": "gcn", "compute_units": 1, "stream_processors": 64,
    "boost_clock_mhz": 1000, "memory_bandwidth_gbs": 1, "fp32_gflops": 128, "lds_bytes_per_cu": 65536,
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "red"}, "unknown fields"),
        ({"target": "gfx999"}, "not a known gfx target"),
        ({"target": "vega10"}, "not a known gfx target"),  # an alias is not a target name
        ({"isa": "vliw6"}, "isa 'vliw6'"),
        ({"isa": "vliw5", "target": "rv770"}, "alus_per_sp = 5"),
        ({"compute_units": 1.5}, "non-negative integer"),
        ({"fp32_gflops": "fast"}, "non-negative number"),
        ({"matrix_clock_random_mhz": 900}, "go together"),
        ({"matrix_clock_random_mhz": 900, "matrix_clock_low_toggle_mhz": 800}, "random <= low-toggle"),
        ({"matrix_clock_random_mhz": 900, "matrix_clock_low_toggle_mhz": 1100}, "<= boost_clock_mhz"),
    ],
)
def test_device_validation(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _device("x", {**BASE, **change})


def test_device_validation_missing_field() -> None:
    table = dict(BASE)
    del table["fp32_gflops"]
    with pytest.raises(ValueError, match="missing fields"):
        _device("x", table)
    assert isinstance(_device("x", BASE), DeviceSpec)


@pytest.mark.parametrize(("die", "change"), [
    ("mi210", {}),  # another product: 104 compute units do not divide 220
    ("mi100", {}),  # another target
    ("mi250x-gcd", {"compute_units": 220}),  # the whole product again
    ("gone", {}),
])
def test_one_die_must_be_a_die_of_the_product(die: str, change: dict[str, int]) -> None:
    devices = dict(load_devices())
    check_dies(devices)  # the data as shipped passes
    devices["mi250x"] = dataclasses.replace(devices["mi250x"], one_die=die)
    devices["mi250x-gcd"] = dataclasses.replace(devices["mi250x-gcd"], **change)
    with pytest.raises(ValueError, match="one_die must name a one-die device"):
        check_dies(devices)
