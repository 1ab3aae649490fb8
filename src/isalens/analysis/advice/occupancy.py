"""Occupancy: the binding limiter and the cheapest single change that reaches the next level
(:attr:`Occupancy.next_step`), with the register-granule hint."""

from __future__ import annotations

from isalens.analysis.advice import spills
from isalens.analysis.advice.model import Advice, AdviceInput, with_resource
from isalens.analysis.occupancy import OccupancyInput, OccupancyInputError, occupancy

KIND = "occupancy"
_NAMES = {"vgprs": "VGPRs", "sgprs": "SGPRs", "lds_bytes": "bytes of LDS", "workgroup_size": "threads per workgroup"}


def _current(inp: OccupancyInput, field: str) -> int:
    return int(getattr(inp, field))


def detect(inp: AdviceInput) -> list[Advice]:
    """Fires whenever a next occupancy level exists; the cheapest step is the smallest relative cut."""
    result = inp.analysis
    if result.occupancy is None:
        return []
    occ, occ_in = result.occupancy
    step = occ.next_step
    if step is None:
        return []
    cuts = {"vgprs": step.vgprs_to_remove, "sgprs": step.sgprs_to_remove, "lds_bytes": step.lds_bytes_to_remove,
            "workgroup_size": None if occ_in.workgroup_assumed else step.threads_to_remove}
    options = {f: c for f, c in cuts.items() if c}
    if not options:
        return []
    # cheapest: the smallest share of the resource to give up
    field = min(options, key=lambda f: (options[f] / _current(occ_in, f), f))
    cut = options[field]
    before = _current(occ_in, field)
    try:
        after = occupancy(result.arch, with_resource(occ_in, field, before - cut))
    except OccupancyInputError:
        return []
    limiter = ", ".join(occ.limited_by)
    others = "; ".join(f"or {options[f]} fewer {_NAMES[f]}" for f in options if f != field)
    granule = occ.vgpr_granule
    spare = result.resources.total_vgprs % granule
    hint = (f"; {spare} fewer VGPRs would save a granule of {granule} ({occ.allocated_vgprs} -> "
            f"{occ.allocated_vgprs - granule} allocated)" if spare else "")
    if field == "vgprs" and spills.vgpr_slots(inp):
        hint += "; the kernel already spills VGPRs to scratch, so a smaller budget means more spill traffic"
    message = (f"limited by {limiter} at {occ.waves_per_simd:g} waves per SIMD: the cheapest step is {cut} fewer "
               f"{_NAMES[field]} ({before} -> {before - cut}) for {after.waves_per_simd:g} waves per SIMD"
               + (f" ({others})" if others else "") + hint)
    lines: tuple[int, ...] = ()
    if field == "vgprs":
        lines = tuple(result.kernel.instructions[i].line for i in result.pressure.vgpr.peak_indices[:1])
    elif field == "sgprs":
        lines = tuple(result.kernel.instructions[i].line for i in result.pressure.sgpr.peak_indices[:1])
    effect = {_key(field): (float(before), float(before - cut)),
              "waves_per_simd": (occ.waves_per_simd, after.waves_per_simd)}
    return [Advice(KIND, lines, message, effect, facts={"limited_by": limiter, "resource": field})]


def _key(field: str) -> str:
    return {"workgroup_size": "threads_per_workgroup"}.get(field, field)
