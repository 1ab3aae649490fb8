"""Named GPUs (a Radeon RX Vega 64, an HD 4870) with the peak figures throughput estimates need.

The figures live in ``arch/data/devices.toml``, each with its source in a comment. GCN, CDNA and RDNA
devices point at an :class:`~isalens.arch.model.ArchSpec` target (``gfx900``); the VLIW5/VLIW4 parts
that predate GCN point at their chip (``rv770``), for which there is no ArchSpec.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from typing import Any

from isalens.arch.loader import all_archs

#: instruction-set families a device may belong to
ISAS = ("gcn", "cdna", "rdna", "vliw5", "vliw4")
#: ALUs per thread processor ("stream processor" group) on the VLIW parts; one elsewhere
VLIW_ALUS = {"vliw5": 5, "vliw4": 4}


class UnknownDeviceError(KeyError):
    """No device of that name in ``devices.toml``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown device"


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceSpec:
    """One product with its peak rates. Clocks in MHz, rates in Gflop/s, bandwidths in GB/s (10^9 bytes).

    ``fp32_gflops`` is the vendor's peak figure: for RDNA3/RDNA4 (VOPD dual issue) and MI300 (packed
    FP32) it counts two FP32 FMAs per stream processor per clock, elsewhere one; see
    :attr:`single_issue_fp32_gflops` for the rate without dual issue. On VLIW parts ``compute_units``
    counts SIMD engines (16 thread processors of ``alus_per_sp`` ALUs each), ``stream_processors``
    counts ALUs and ``boost_clock_mhz`` is the engine clock.
    """

    name: str
    marketing_name: str
    target: str
    isa: str
    compute_units: int
    stream_processors: int
    boost_clock_mhz: int
    memory_clock_mhz: int | None = None
    memory_bandwidth_gbs: float
    fp32_gflops: float
    #: packed FP16 (two halves per lane) or dual-issue rate, where published or derivable
    fp16_gflops: float | None = None
    fp64_gflops: float | None = None
    #: packed FP32 vector rate (``v_pk_fma_f32``, CDNA2+), where it exceeds ``fp32_gflops``
    fp32_packed_gflops: float | None = None
    #: matrix-core (MFMA) peaks, dense: FP16 in Gflop/s and INT8 in Gop/s
    matrix_fp16_gflops: float | None = None
    matrix_int8_gops: float | None = None
    #: DRAM bandwidth a streaming kernel achieves (published STREAM / copy measurements); the roofs use it
    achievable_bandwidth_gbs: float | None = None
    lds_bytes_per_cu: int
    lds_bandwidth_bytes_per_clk_per_cu: int | None = None
    #: texture/fetch path bandwidth of the VLIW parts (domain.md §1.4)
    tex_fetch_gbs: float | None = None
    #: wavefront slots of the whole chip (VLIW parts), which can cap wavefronts per SIMD below the GPR limit
    max_wavefronts: int | None = None
    alus_per_sp: int = 1
    #: measured load-to-use latencies (cycles at the shader clock) by the level a vector load hits, and of an LDS
    #: read, where a published pointer chase gives them; the family's figures stand for the rest (issue 29 item 3)
    l1_latency_cycles: int | None = None
    l2_latency_cycles: int | None = None
    mall_latency_cycles: int | None = None
    dram_latency_cycles: int | None = None
    lds_latency_cycles: int | None = None
    #: the engine clock AMD measured while the matrix cores run a dense GEMM, which follows the data multiplied:
    #: random (representative) operands and low-toggle ones (zeros, constants); both or neither (issue 29)
    matrix_clock_random_mhz: int | None = None
    matrix_clock_low_toggle_mhz: int | None = None
    #: a multi-die product's one-die device (``mi250x`` -> ``mi250x-gcd``): a program runs on one die, which the
    #: runtime lists as a device of its own, so whole-product rates overstate what one kernel can reach
    one_die: str | None = None
    sources: tuple[str, ...] = ()

    @property
    def single_issue_fp32_gflops(self) -> float:
        """FP32 peak with one FMA (2 flops) per stream processor per clock, no dual issue or packing."""
        return self.stream_processors * 2 * self.boost_clock_mhz / 1000

    @property
    def fp64_ratio(self) -> float | None:
        """FP64 rate per lane and clock as a fraction of single-issue FP32 (1/16, 1/4, 1/2, 1), a power of two
        from the cited peaks; None where the device has no FP64 peak. A property of the product, not the ISA:
        Radeon VII runs gfx906 fp64 at 1/4, MI50 at 1/2."""
        if not self.fp64_gflops or self.is_vliw:
            return None
        ratio = self.fp64_gflops / self.single_issue_fp32_gflops
        return float(2.0 ** round(math.log2(ratio)))

    @property
    def dram_roof_gbs(self) -> float:
        """The bandwidth the DRAM roof uses: the achievable figure where published, else the nominal one."""
        return self.achievable_bandwidth_gbs or self.memory_bandwidth_gbs

    @property
    def is_vliw(self) -> bool:
        return self.isa in VLIW_ALUS


_FIELDS = {f.name: f for f in fields(DeviceSpec)}
_REQUIRED = {
    "name", "marketing_name", "target", "isa", "compute_units", "stream_processors", "boost_clock_mhz",
    "memory_bandwidth_gbs", "fp32_gflops", "lds_bytes_per_cu",
}
_INT_FIELDS = {
    "compute_units", "stream_processors", "boost_clock_mhz", "memory_clock_mhz", "lds_bytes_per_cu",
    "lds_bandwidth_bytes_per_clk_per_cu", "alus_per_sp", "max_wavefronts", "l1_latency_cycles", "l2_latency_cycles",
    "mall_latency_cycles", "dram_latency_cycles", "lds_latency_cycles", "matrix_clock_random_mhz",
    "matrix_clock_low_toggle_mhz",
}
_FLOAT_FIELDS = {"memory_bandwidth_gbs", "fp32_gflops", "fp16_gflops", "fp64_gflops", "tex_fetch_gbs",
                 "fp32_packed_gflops", "matrix_fp16_gflops", "matrix_int8_gops", "achievable_bandwidth_gbs"}
_STR_FIELDS = {"name", "marketing_name", "target", "isa", "one_die"}


def _convert(where: str, key: str, value: Any) -> Any:
    if key in _STR_FIELDS:
        if not isinstance(value, str) or not value:
            raise ValueError(f"{where}: {key} must be a non-empty string")
        return value
    if key in _INT_FIELDS:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{where}: {key} must be a non-negative integer, not {value!r}")
        return value
    if key in _FLOAT_FIELDS:
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValueError(f"{where}: {key} must be a non-negative number, not {value!r}")
        return float(value)
    # sources
    if not isinstance(value, list) or not all(isinstance(s, str) and s for s in value):
        raise ValueError(f"{where}: sources must be a list of non-empty strings")
    return tuple(value)


def _device(name: str, table: dict[str, Any]) -> DeviceSpec:
    where = f"devices.toml [devices.{name}]"
    # the table's key is the name, so a ``name`` field would be ambiguous
    unknown = (set(table) - set(_FIELDS)) | ({"name"} & set(table))
    if unknown:
        raise ValueError(f"{where}: unknown fields {sorted(unknown)}")
    values = {key: _convert(where, key, value) for key, value in {**table, "name": name}.items()}
    missing = _REQUIRED - set(values)
    if missing:
        raise ValueError(f"{where}: missing fields {sorted(missing)}")
    isa = values["isa"]
    if isa not in ISAS:
        raise ValueError(f"{where}: isa {isa!r} is not one of {', '.join(ISAS)}")
    want_alus = VLIW_ALUS.get(isa, 1)
    if values.get("alus_per_sp", 1) != want_alus:
        raise ValueError(f"{where}: an {isa} device has alus_per_sp = {want_alus}")
    if isa not in VLIW_ALUS:
        spec = all_archs().get(values["target"])
        if spec is None or spec.name != values["target"]:
            raise ValueError(f"{where}: target {values['target']!r} is not a known gfx target")
    clocks = [values.get(k) for k in ("matrix_clock_random_mhz", "matrix_clock_low_toggle_mhz")]
    if (clocks[0] is None) != (clocks[1] is None):
        raise ValueError(f"{where}: matrix_clock_random_mhz and matrix_clock_low_toggle_mhz go together")
    if clocks[0] is not None and not 0 < clocks[0] <= clocks[1] <= values["boost_clock_mhz"]:
        raise ValueError(f"{where}: the matrix clocks must satisfy 0 < random <= low-toggle <= boost_clock_mhz")
    return DeviceSpec(**values)


@cache
def load_devices() -> dict[str, DeviceSpec]:
    """Every device in ``devices.toml`` by name; raises :class:`ValueError` on malformed data."""
    text = (resources.files("isalens.arch") / "data" / "devices.toml").read_text(encoding="utf-8")
    doc = tomllib.loads(text)
    extra = set(doc) - {"devices"}
    if extra:
        raise ValueError(f"devices.toml: unknown top-level keys {sorted(extra)}")
    devices = {name: _device(name, table) for name, table in doc.get("devices", {}).items()}
    check_dies(devices)
    return devices


def check_dies(devices: dict[str, DeviceSpec]) -> None:
    """Raise :class:`ValueError` unless every ``one_die`` names a one-die device of the product's target whose
    compute units divide the product's."""
    for dev in devices.values():
        if dev.one_die is None:
            continue
        die = devices.get(dev.one_die)
        if die is None or die.target != dev.target or die.one_die is not None or die.compute_units <= 0 \
                or dev.compute_units % die.compute_units or die.compute_units == dev.compute_units:
            raise ValueError(f"devices.toml [devices.{dev.name}]: one_die must name a one-die device of the same "
                             f"target with a part of its compute units, not {dev.one_die!r}")


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def get_device(name: str) -> DeviceSpec:
    """The device ``name`` (``rx-vega-64``), also found by marketing name (``Radeon RX Vega 64``)."""
    devices = load_devices()
    key = name.strip().lower()
    if key in devices:
        return devices[key]
    squashed = _squash(name)
    for dev in devices.values():
        if squashed and squashed in (_squash(dev.name), _squash(dev.marketing_name)):
            return dev
    close = difflib.get_close_matches(key, sorted(devices), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UnknownDeviceError(f"unknown device {name!r}{hint} (known: {', '.join(sorted(devices))})")
