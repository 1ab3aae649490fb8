"""Occupancy and tile-plan renderers (text and JSON-ready dicts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from isalens.analysis.occupancy import TYPICAL_LAUNCH, WORKGROUP_SOURCES, Curve, NextStep, Occupancy
from isalens.analysis.tiles import TilePlan

if TYPE_CHECKING:
    from isalens.report.model import OccupancyFigures

_REASONS = {
    "vgpr": "VGPRs", "sgpr": "SGPRs", "lds": "LDS", "barriers": "barriers (workgroups per CU)",
    "waves": "wave slots per SIMD (whole workgroups)",
}


def occupancy_dict(occ: Occupancy, *, workgroup_limit: int) -> dict[str, Any]:
    """The documented JSON object (``workgroup_limit``: waves per SIMD the workgroup shape alone allows)."""
    step = occ.next_step
    return {
        "arch": occ.arch,
        "wave_size": occ.wave_size,
        "wgp_mode": occ.wgp_mode,
        "waves_per_simd": occ.waves_per_simd,
        "llvm_occupancy": occ.llvm_occupancy,
        "max_waves_per_simd": occ.max_waves_per_simd,
        "workgroups_per_cu": occ.workgroups_per_cu,
        "workgroups_by": dict(sorted(occ.workgroups_by.items())),
        "waves_per_workgroup": occ.waves_per_workgroup,
        "occupancy_pct": round(occ.occupancy_pct, 2),
        "limited_by": list(occ.limited_by),
        "limits": {"vgpr": occ.limit_vgpr, "sgpr": occ.limit_sgpr, "lds": occ.limit_lds_workgroup,
                   "workgroup": workgroup_limit},
        "vgprs": {"total": occ.total_vgprs, "granule": occ.vgpr_granule, "allocated": occ.allocated_vgprs},
        "lds_allocated": occ.lds_allocated,
        "next_step": None if step is None else {
            "waves_per_simd": step.target_waves_per_simd,
            "vgprs_to_remove": step.vgprs_to_remove,
            "sgprs_to_remove": step.sgprs_to_remove,
            "lds_bytes_to_remove": step.lds_bytes_to_remove,
            "threads_to_remove": step.threads_to_remove,
        },
        # a shader (only): the waves above are of its own size (wave_size), ACO's figure beside them in its units
        **({} if occ.radv_limits is None else {
            "aco_waves": occ.aco_waves, "aco_wave_unit": occ.aco_wave_unit,
            "radv_limits": dict(sorted(occ.radv_limits.items()))}),
    }


def workgroup_note(figures: OccupancyFigures) -> str:
    """The occupancy title's note: which workgroup size the figures are for and where it comes from."""
    size, source = figures.workgroup_size, figures.workgroup_from
    if source == "given":
        return ""
    text = f" (workgroup of {size} threads: {WORKGROUP_SOURCES[source]}"
    if figures.workgroup_assumed:
        text += "; give the real launch size with --wg N or --wg X,Y,Z"
    return text + ")"


def at_typical_launch_line(occ: Occupancy) -> str:
    """What a launch of :data:`TYPICAL_LAUNCH` threads would give (shown when the size was only assumed)."""
    return (f"  with a {TYPICAL_LAUNCH}-thread launch (--wg {TYPICAL_LAUNCH}): {occ.waves_per_simd:g} waves per SIMD, "
            f"{occ.workgroups_per_cu} workgroup(s) of {occ.waves_per_workgroup} waves per "
            f"{'WGP' if occ.wgp_mode else 'CU'}, LLVM's per-wave figure {occ.llvm_occupancy}")


def curves_dict(curves: tuple[Curve, ...]) -> dict[str, Any]:
    return {c.resource: {"x": list(c.x), "waves_per_simd": list(c.waves_per_simd),
                         "llvm_occupancy": list(c.llvm_occupancy)} for c in curves}


def render_occupancy_text(occ: Occupancy, *, title: str | None = None) -> str:
    out = []
    if title:
        out.append(title)
    mode = " (WGP mode)" if occ.wgp_mode else ""
    if occ.radv_limits is not None:
        return _render_shader(occ, out, mode)
    out.append(f"  {occ.arch}{mode}, wave{occ.wave_size}: {occ.waves_per_simd:g} waves per SIMD of "
               f"{occ.max_waves_per_simd} ({occ.occupancy_pct:.0f}%), {occ.workgroups_per_cu} workgroup(s) of "
               f"{occ.waves_per_workgroup} waves per {'WGP' if occ.wgp_mode else 'CU'}")
    why = ""
    if occ.waves_per_simd < occ.llvm_occupancy:
        why = "  (higher: LLVM does not require whole workgroups to fit)"
    elif occ.waves_per_simd > occ.llvm_occupancy:
        why = "  (lower: LLVM ignores the LDS allocation granularity and the barrier limit)"
    out.append(f"  LLVM's per-wave figure ('; Occupancy:'): {occ.llvm_occupancy}{why}")
    out.append(f"  waves per SIMD each resource allows: VGPR {occ.limit_vgpr}, SGPR {occ.limit_sgpr}, "
               f"LDS+workgroup {occ.limit_lds_workgroup}")
    out.append(f"  workgroups per {'WGP' if occ.wgp_mode else 'CU'} each resource allows: "
               + ", ".join(f"{k} {v}" for k, v in sorted(occ.workgroups_by.items())))
    out.append("  limited by: " + ", ".join(_REASONS.get(x, x) for x in occ.limited_by))
    if occ.workgroups_per_cu == 0:
        out.append(f"  a workgroup cannot launch: its {occ.waves_per_workgroup} waves need "
                   f"{-(-occ.waves_per_workgroup // occ.simds)} per SIMD, more than the resources allow")
    out.append(_next_step_line(occ.next_step, "the SIMDs cannot hold another whole workgroup"))
    return "\n".join(out) + "\n"


def _render_shader(occ: Occupancy, out: list[str], mode: str) -> str:
    """A RADV/ACO shader: waves of its own size by RADV's model, ACO's figure beside them in ACO's units."""
    assert occ.radv_limits is not None
    out.append(f"  {occ.arch}{mode}, wave{occ.wave_size}: {occ.waves_per_simd:g} waves per SIMD of "
               f"{occ.max_waves_per_simd} ({occ.occupancy_pct:.0f}%); ACO reports {occ.aco_waves} waves "
               f"(wave{occ.aco_wave_unit} units)")
    out.append(f"  wave{occ.wave_size} waves per SIMD each resource allows (RADV's model): "
               + ", ".join(f"{_SHADER_LIMITS.get(k, k)} {v}" for k, v in sorted(occ.radv_limits.items())))
    out.append(f"  LLVM's per-wave figure for these registers ('; Occupancy:'): {occ.llvm_occupancy}")
    out.append("  limited by: " + ", ".join(_SHADER_LIMITS.get(x, x) for x in occ.limited_by))
    out.append(_next_step_line(occ.next_step, "every wave slot of the SIMD is in use"))
    return "\n".join(out) + "\n"


_SHADER_LIMITS = {"vgpr": "VGPRs", "sgpr": "SGPRs", "lds": "LDS", "waves": "wave slots"}


def _next_step_line(step: NextStep | None, why_none: str) -> str:
    """What each resource alone must shed for the next level, as one line (``why_none``: why there is none)."""
    if step is None:
        return f"  next level: none ({why_none})"
    options = []
    if step.vgprs_to_remove is not None:
        options.append(f"{step.vgprs_to_remove} fewer VGPRs")
    if step.sgprs_to_remove is not None:
        options.append(f"{step.sgprs_to_remove} fewer SGPRs")
    if step.lds_bytes_to_remove is not None:
        options.append(f"{step.lds_bytes_to_remove} fewer LDS bytes")
    if step.threads_to_remove is not None:
        options.append(f"{step.threads_to_remove} fewer threads per workgroup")
    return (f"  to reach {step.target_waves_per_simd:g} waves per SIMD: "
            + (" or ".join(options) if options else "no single resource suffices"))


def tile_dict(plan: TilePlan) -> dict[str, Any]:
    return {
        "dims": list(plan.dims), "radius": plan.radius, "bytes_per_item": plan.bytes_per_item,
        "loads": plan.loads, "useful": plan.useful, "border": plan.border,
        "overhead_vs_useful_pct": round(plan.overhead_vs_useful_pct, 2),
        "overhead_vs_total_pct": round(plan.overhead_vs_total_pct, 2),
        "lds_bytes": plan.lds_bytes, "lds_allocated": plan.lds_allocated,
        "groups_per_cu_by_lds": plan.groups_per_cu_by_lds,
        "lds_pool": plan.lds_pool, "lds_per_workgroup": plan.lds_per_workgroup,
    }


def _groups_text(plan: TilePlan) -> str:
    """How many groups the LDS holds: per CU, or per WGP where two CUs share it (gfx10+ in WGP mode)."""
    if plan.groups_per_cu_by_lds is None:
        return ""
    if plan.groups_per_cu_by_lds == 0:
        return (f" ({plan.lds_allocated} allocated): does not fit, a workgroup may have at most "
                f"{plan.lds_per_workgroup} bytes")
    return f" ({plan.lds_allocated} allocated), {plan.groups_per_cu_by_lds} groups per {plan.lds_pool} by LDS"


def render_tiles_text(plan: TilePlan, table: list[TilePlan]) -> str:
    dims = "x".join(str(d) for d in plan.dims)
    out = [f"tile {dims}, radius {plan.radius}, {plan.bytes_per_item} bytes per item:",
           f"  loads {plan.loads} for {plan.useful} outputs: {plan.border} border items = "
           f"+{plan.overhead_vs_useful_pct:.1f}% over the useful items ({plan.overhead_vs_total_pct:.1f}% of "
           f"all loads)",
           f"  LDS {plan.lds_bytes} bytes" + _groups_text(plan),
           "", f"  {'tile':>10} {'loads':>8} {'useful':>8} {'+border':>8} {'LDS bytes':>10} {'groups':>7}"]
    for t in table:
        name = "x".join(str(d) for d in t.dims)
        groups = "-" if t.groups_per_cu_by_lds is None else str(t.groups_per_cu_by_lds)
        out.append(f"  {name:>10} {t.loads:8d} {t.useful:8d} {t.overhead_vs_useful_pct:7.1f}% {t.lds_bytes:10d} "
                   f"{groups:>7}")
    return "\n".join(out) + "\n"
