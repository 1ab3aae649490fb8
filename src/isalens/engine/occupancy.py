"""``isalens occupancy``: occupancy of a resource set a user names (no kernel), with optional curves."""

from __future__ import annotations

from dataclasses import dataclass

from isalens.analysis.occupancy import (
    Curve,
    Occupancy,
    OccupancyInput,
    OccupancyInputError,
    curves,
    occupancy,
    waves_with_lds,
)
from isalens.engine.target import resolve_arch
from isalens.errors import InputError

__all__ = ["OccupancyResult", "compute_occupancy"]


@dataclass(frozen=True, slots=True)
class OccupancyResult:
    """Occupancy of one resource set, the waves the workgroup shape alone allows, and optional curves."""

    occupancy: Occupancy
    workgroup_limit: int
    curves: tuple[Curve, ...] = ()


def compute_occupancy(arch: str, *, vgprs: int, sgprs: int = 0, agprs: int = 0, lds_bytes: int = 0,
                      workgroup_size: int | None = None, wave_size: int | None = None,
                      wgp_mode: bool | None = None, with_curves: bool = False) -> OccupancyResult:
    """Occupancy on ``arch``; a workgroup size of None means LLVM's assumption (1024 threads)."""
    spec = resolve_arch(arch)
    if wgp_mode and not spec.lds_bytes_per_wgp:  # the figures were the CU's without a word
        raise InputError(f"{spec.name} has no WGP mode (gfx10 and later group two CUs into a WGP): drop --mode wgp",
                         code="occupancy-input")
    inp = OccupancyInput(vgprs=vgprs, sgprs=sgprs, agprs=agprs, lds_bytes=lds_bytes,
                         workgroup_size=workgroup_size if workgroup_size is not None else spec.max_workgroup_size,
                         wave_size=wave_size or spec.default_wave_size, wgp_mode=wgp_mode,
                         workgroup_assumed=workgroup_size is None)
    try:
        occ = occupancy(spec, inp)
        alone = waves_with_lds(spec, 0, inp.workgroup_size, inp.wave_size, occ.wgp_mode)
        extra = curves(spec, inp) if with_curves else ()
    except OccupancyInputError as exc:
        raise InputError(str(exc), code="occupancy-input") from None
    return OccupancyResult(occ, alone, extra)
