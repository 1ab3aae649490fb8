"""Consistency rules over ``arch/data`` (the ``isalens arch check`` command).

Each rule states an invariant that holds for every real target and would catch a typo in the TOML.
Rules that look natural but do not hold are deliberately absent; for instance a wave's addressable
VGPRs need not be a multiple of the allocation granule (256 is not a multiple of gfx1100's 24), and the
SGPRs one wave may address exceed an equal share of the SGPR file (gfx8: 102 > 800 / 10).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

from isalens.arch.devices import VLIW_ALUS, DeviceSpec, load_devices
from isalens.arch.loader import all_archs
from isalens.arch.model import ArchSpec

_WAVE_SIZES = (32, 64)
#: tolerance between a vendor's rounded peak figure and SPs x flops x clock
_FP32_TOLERANCE = 0.01


def _wave_rules(a: ArchSpec) -> Iterator[str]:
    if not a.wave_sizes or set(a.wave_sizes) - set(_WAVE_SIZES):
        yield f"wave_sizes {a.wave_sizes} must be a non-empty subset of {_WAVE_SIZES}"
    if a.default_wave_size not in a.wave_sizes:
        yield f"default_wave_size {a.default_wave_size} is not in wave_sizes {a.wave_sizes}"
    # LLVM compiles wave32 by default from gfx10 on; earlier targets only have wave64
    expected_default = 32 if a.generation >= 10 else 64
    if a.default_wave_size != expected_default:
        yield f"default_wave_size should be {expected_default} on generation {a.generation}"
    if a.generation < 10 and a.wave_sizes != (64,):
        yield "wave32 exists only from gfx10 on"


def _vgpr_rules(a: ArchSpec) -> Iterator[str]:
    for w in _WAVE_SIZES:
        total, granule = a.vgpr_total(w), a.vgpr_granule(w)
        if w not in a.wave_sizes:
            # no stale numbers for a wave size the target cannot run
            if total or granule:
                yield f"wave{w} is unsupported but has VGPR total {total} / granule {granule}"
            continue
        if total <= 0 or granule <= 0:
            yield f"wave{w}: VGPR total {total} and granule {granule} must be positive"
            continue
        if total % granule:
            yield f"wave{w}: VGPR total {total} is not a multiple of the granule {granule}"
        # a wave using one granule must be able to reach the wave limit (LLVM's VGPR limit formula
        # min(total / alignTo(n, granule), max waves) would otherwise never report max waves)
        if total // granule < a.max_waves_per_simd:
            yield f"wave{w}: {total} / {granule} VGPRs cannot hold {a.max_waves_per_simd} waves"
        # every architectural VGPR a wave can name must exist in the file
        if a.addressable_vgprs > total:
            yield f"wave{w}: addressable_vgprs {a.addressable_vgprs} exceeds the file ({total})"
        # a maximal workgroup must fit on one CU (LLVM's barrier rule assumes it)
        waves = math.ceil(a.max_workgroup_size / w)
        if waves > a.max_waves_per_simd * a.simds_per_cu:
            yield f"wave{w}: a {a.max_workgroup_size}-thread group ({waves} waves) does not fit on a CU"
    if a.unified_vgpr_file:
        if a.agprs <= 0:
            yield "unified_vgpr_file needs agprs > 0"
        elif a.addressable_vgprs + a.agprs > a.vgpr_total_wave64:
            yield f"unified file {a.vgpr_total_wave64} cannot hold {a.addressable_vgprs} VGPRs + {a.agprs} AGPRs"


def _sgpr_rules(a: ArchSpec) -> Iterator[str]:
    # LLVM getSGPRAllocGranule: 8 before gfx8, 16 on gfx8/9 (gfx10+ does not limit by SGPRs)
    if a.sgpr_granule <= 0 or 16 % a.sgpr_granule:
        yield f"sgpr_granule {a.sgpr_granule} must divide 16"
    elif a.sgpr_total % a.sgpr_granule:
        yield f"sgpr_total {a.sgpr_total} is not a multiple of sgpr_granule {a.sgpr_granule}"
    if not 0 < a.addressable_sgprs <= a.sgpr_total:
        yield f"addressable_sgprs {a.addressable_sgprs} must be in 1..sgpr_total ({a.sgpr_total})"
    if a.sgprs_limit_occupancy != (a.generation < 10):
        yield "sgprs_limit_occupancy must be true exactly before gfx10"


def _lds_rules(a: ArchSpec) -> Iterator[str]:
    pool = max(a.lds_bytes_per_cu, a.lds_bytes_per_wgp)
    if a.lds_bytes_per_workgroup > pool:
        yield f"lds_bytes_per_workgroup {a.lds_bytes_per_workgroup} exceeds the LDS of a CU/WGP ({pool})"
    if a.lds_alloc_granule <= 0:
        yield "lds_alloc_granule must be positive"
    else:
        for field in ("lds_bytes_per_cu", "lds_bytes_per_workgroup", "lds_bytes_per_wgp"):
            if getattr(a, field) % a.lds_alloc_granule:
                yield f"{field} is not a multiple of lds_alloc_granule {a.lds_alloc_granule}"
    # WGPs (and WGP mode) exist only from gfx10 on
    if (a.lds_bytes_per_wgp > 0) != (a.generation >= 10):
        yield "lds_bytes_per_wgp must be set exactly from gfx10 on"
    if a.default_wgp_mode and not a.lds_bytes_per_wgp:
        yield "default_wgp_mode needs lds_bytes_per_wgp"


def _feature_rules(a: ArchSpec) -> Iterator[str]:
    # SDWA is a GFX8+ modifier that gfx11 dropped; VOPD (gfx11+) dual-issues wave32 only;
    # XNACK first appears on gfx8 APUs (LLVM AMDGPUUsage "Processors" table)
    if a.has_sdwa and not 8 <= a.generation <= 10:
        yield "has_sdwa is only possible on gfx8-gfx10"
    if a.has_vopd and (a.generation < 11 or 32 not in a.wave_sizes):
        yield "has_vopd needs gfx11+ and wave32"
    if a.xnack and a.generation < 8:
        yield "xnack does not exist before gfx8"
    if a.max_waves_per_simd <= 0 or a.simds_per_cu <= 0:
        yield "max_waves_per_simd and simds_per_cu must be positive"


_ARCH_RULES: tuple[Callable[[ArchSpec], Iterator[str]], ...] = (
    _wave_rules, _vgpr_rules, _sgpr_rules, _lds_rules, _feature_rules,
)


def _targets(archs: dict[str, ArchSpec]) -> dict[str, ArchSpec]:
    return {key: spec for key, spec in archs.items() if key == spec.name}


def _alias_rules(targets: dict[str, ArchSpec]) -> Iterator[str]:
    owner: dict[str, str] = {}
    for name, spec in sorted(targets.items()):
        for alias in spec.aliases:
            if alias in targets:
                yield f"{name}: alias {alias!r} is also a target name"
            elif alias in owner:
                yield f"{name}: alias {alias!r} is already an alias of {owner[alias]}"
            else:
                owner[alias] = name


def _isa_matches(dev: DeviceSpec, arch: ArchSpec) -> bool:
    if dev.isa == "cdna":
        return arch.family == "cdna"
    if dev.isa == "rdna":
        return arch.generation >= 10
    return arch.generation < 10 and arch.family != "cdna"  # gcn


def _device_rules(dev: DeviceSpec, targets: dict[str, ArchSpec]) -> Iterator[str]:
    if dev.is_vliw:
        if dev.target in targets:
            yield f"target {dev.target!r} is a gfx target, not a VLIW chip"
        lanes = dev.compute_units * 16 * VLIW_ALUS[dev.isa]
        if dev.stream_processors != lanes:
            yield f"stream_processors {dev.stream_processors} != {dev.compute_units} SIMDs x 16 x ALUs ({lanes})"
        factors: tuple[int, ...] = (1,)
    else:
        arch = targets.get(dev.target)
        if arch is None:
            yield f"target {dev.target!r} is not a known gfx target"
            return
        if not _isa_matches(dev, arch):
            yield f"isa {dev.isa!r} does not match {arch.name} (family {arch.family})"
        if dev.stream_processors != dev.compute_units * 64:
            yield f"stream_processors {dev.stream_processors} != 64 x {dev.compute_units} CUs"
        if dev.lds_bytes_per_cu != arch.lds_bytes_per_cu:
            yield f"lds_bytes_per_cu {dev.lds_bytes_per_cu} differs from {arch.name}'s {arch.lds_bytes_per_cu}"
        # dual issue (VOPD) or packed FP32 may double the vendor's figure
        factors = (1, 2) if (arch.has_vopd or arch.unified_vgpr_file) else (1,)
    single = dev.single_issue_fp32_gflops
    if not any(math.isclose(dev.fp32_gflops, f * single, rel_tol=_FP32_TOLERANCE) for f in factors):
        yield f"fp32_gflops {dev.fp32_gflops} is not {' or '.join(map(str, factors))} x SPs x 2 x clock ({single:g})"


def check_arch_data() -> list[str]:
    """Problems found in the architecture and device data, as sentences; empty when all is well."""
    try:
        archs = all_archs()
    except Exception as exc:  # any loading failure is itself the finding
        return [f"arch data does not load: {exc}"]
    targets = _targets(archs)
    problems = [f"{name}: {msg}" for name, spec in sorted(targets.items()) for rule in _ARCH_RULES
                for msg in rule(spec)]
    problems += _alias_rules(targets)
    try:
        devices = load_devices()
    except Exception as exc:
        return [*problems, f"device data does not load: {exc}"]
    problems += [f"device {name}: {msg}" for name, dev in sorted(devices.items())
                 for msg in _device_rules(dev, targets)]
    return problems
