"""Occupancy: how many waves each SIMD holds, what limits it, and what to change for the next level.

Two figures, because users meet both:

* ``llvm_occupancy`` — the per-wave limit exactly as LLVM prints it in ``; Occupancy:``
  (``GCNSubtarget::computeOccupancy``: the minimum of the maximum waves per SIMD, the LDS/workgroup
  limit of ``AMDGPUSubtarget::getOccupancyWithLocalMemSize`` and the SGPR and VGPR limits of
  ``AMDGPUBaseInfo.cpp`` ``getOccupancyWithNumSGPRs`` / ``getNumWavesPerEUWithNumVGPRs``).
* ``waves_per_simd`` — the effective occupancy when whole workgroups must fit on a CU (or WGP): a
  workgroup of N waves spreads over the SIMDs, so with a per-SIMD limit L only ``floor(L * SIMDs / N)``
  groups fit. LLVM's figure ignores this: 40 VGPRs on gfx9 allow 6 waves per SIMD, yet a 1024-thread
  group (16 waves, 4 per SIMD) fits once, leaving 4 waves per SIMD (shared/docs/domain.md §1.3).
"""

from __future__ import annotations

from isalens import records
from isalens.analysis.resources import Resources
from isalens.arch.model import ArchSpec, align_to
from isalens.ir.program import Kernel
from isalens.records import dataclass


class OccupancyInputError(ValueError):
    """Resource figures that cannot describe a kernel on this target."""


@dataclass(frozen=True, slots=True)
class OccupancyInput:
    """The resources of one kernel (registers per wave, LDS bytes per workgroup, threads per workgroup)."""

    vgprs: int
    sgprs: int = 0
    agprs: int = 0
    lds_bytes: int = 0
    workgroup_size: int = 1024
    wave_size: int = 64
    wgp_mode: bool | None = None
    #: True when the workgroup size is the compiler's assumption, not a declared one
    workgroup_assumed: bool = False
    #: where the workgroup size comes from (one of WORKGROUP_SOURCES)
    workgroup_from: str = "given"
    #: a shader compiled by RADV/ACO: its occupancy follows RADV's model (:func:`radv_limits`)
    radv: RadvShader | None = None


@dataclass(frozen=True, slots=True)
class RadvShader:
    """What RADV's occupancy model needs beyond registers, LDS and wave size (Mesa 22.3 ``radv_get_max_waves``)."""

    #: ``comp``, ``frag``, ``vert``...: only compute and fragment shaders count LDS
    stage: str
    #: threads per compute workgroup (0: not a compute shader)
    workgroup_size: int = 0
    #: a fragment shader's interpolated inputs (48 bytes of LDS each)
    interp_inputs: int = 0
    #: the Mesa family (Polaris/VegaM hold 8 waves per SIMD)
    family: str | None = None
    #: SGPRs the driver allocates beyond the code's (ACO's "SGPRs" minus the requested count; limit before gfx10)
    sgpr_extra: int = 0


#: where a kernel's workgroup size for occupancy comes from, in the order they are taken
WORKGROUP_SOURCES = {
    "reqd_workgroup_size": "required by the code (reqd_work_group_size / .reqd_workgroup_size)",
    "reqd_over_launch": "required by the code (reqd_work_group_size); --wg differs and is not used: a launch of "
                        "another size fails",
    "launch": "the launch size given with --wg",
    "max_flat_workgroup_size": "the compiler's upper bound (.max_flat_workgroup_size), assumed",
    "default": "LLVM's upper bound when the code declares none, assumed",
    "given": "given",
}
#: the launch size the occupancy section also shows when only an upper bound was known
TYPICAL_LAUNCH = 256


@dataclass(frozen=True, slots=True)
class NextStep:
    """What to change, alone, to reach the next effective occupancy level (None: not reachable that way)."""

    target_waves_per_simd: float
    vgprs_to_remove: int | None
    sgprs_to_remove: int | None
    lds_bytes_to_remove: int | None
    threads_to_remove: int | None


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Waves per SIMD and workgroups per CU one kernel reaches on a target, what limits them and the next step up."""

    arch: str
    wave_size: int
    wgp_mode: bool
    max_waves_per_simd: int
    simds: int
    #: waves per SIMD each resource alone allows (the LLVM per-wave view)
    limit_vgpr: int
    limit_sgpr: int
    limit_lds_workgroup: int
    llvm_occupancy: int
    #: whole workgroups
    waves_per_workgroup: int
    workgroups_per_cu: int
    workgroups_by: dict[str, int]
    waves_per_simd: float
    occupancy_pct: float
    limited_by: tuple[str, ...]
    total_vgprs: int
    vgpr_granule: int
    allocated_vgprs: int
    lds_allocated: int
    next_step: NextStep | None
    #: a shader's figure as ACO prints it ("Subgroups per SIMD"), in waves of ``aco_wave_unit`` lanes (32 on
    #: gfx10+, where a wave64 counts twice); None for other kernels
    aco_waves: int | None = None
    aco_wave_unit: int | None = None
    #: a shader's waves per SIMD each resource allows in RADV's model (:func:`radv_limits`), own wave size
    radv_limits: dict[str, int] | None = None


def _check(arch: ArchSpec, inp: OccupancyInput) -> None:
    if inp.wave_size not in arch.wave_sizes:
        sizes = " or ".join(f"wave{w}" for w in arch.wave_sizes)
        raise OccupancyInputError(f"{arch.name} runs {sizes}, not wave{inp.wave_size}")
    if inp.vgprs < 0 or inp.sgprs < 0 or inp.agprs < 0 or inp.lds_bytes < 0:
        raise OccupancyInputError("register and LDS counts must not be negative")
    if inp.workgroup_size <= 0:
        raise OccupancyInputError("the workgroup size must be at least 1 thread")
    if inp.workgroup_size > arch.max_workgroup_size:
        raise OccupancyInputError(
            f"a workgroup of {inp.workgroup_size} threads exceeds {arch.name}'s maximum of {arch.max_workgroup_size}")
    if inp.agprs and not arch.agprs:
        raise OccupancyInputError(f"{arch.name} has no AGPRs")
    if inp.vgprs > arch.addressable_vgprs or inp.agprs > max(arch.agprs, 0):
        raise OccupancyInputError(f"{arch.name} addresses at most {arch.addressable_vgprs} VGPRs"
                                  + (f" and {arch.agprs} AGPRs" if arch.agprs else ""))
    if inp.lds_bytes > arch.lds_bytes_per_workgroup:
        raise OccupancyInputError(f"{inp.lds_bytes} bytes of LDS exceed the {arch.lds_bytes_per_workgroup} bytes a "
                                  f"workgroup may allocate on {arch.name}")


def _wgp(arch: ArchSpec, inp: OccupancyInput) -> bool:
    if inp.wgp_mode is None:
        return arch.default_wgp_mode
    return inp.wgp_mode and arch.lds_bytes_per_wgp > 0


def waves_with_vgprs(arch: ArchSpec, total_vgprs: int, wave_size: int) -> int:
    """Waves per SIMD the VGPR file allows (LLVM ``getNumWavesPerEUWithNumVGPRs``)."""
    granule = arch.vgpr_granule(wave_size)
    if total_vgprs < granule:
        return arch.max_waves_per_simd
    rounded = align_to(total_vgprs, granule)
    return min(max(arch.vgpr_total(wave_size) // rounded, 1), arch.max_waves_per_simd)


def waves_with_sgprs(arch: ArchSpec, sgprs: int) -> int:
    """Waves per SIMD the SGPR file allows (LLVM ``getOccupancyWithNumSGPRs``); none limit on gfx10+."""
    if not arch.sgprs_limit_occupancy or sgprs == 0:
        return arch.max_waves_per_simd
    return min(arch.waves_with_sgprs(sgprs), arch.max_waves_per_simd)  # the table is arch data


def _eus_per_cu(arch: ArchSpec, wgp: bool) -> int:
    # LLVM getEUsPerCU: 4 SIMDs per CU before gfx10 and per WGP in WGP mode; in CU mode the CU's SIMDs: 2 on
    # gfx10-gfx12, 4 on gfx12.5 (arch data simds_per_cu: "GFX12.5 only supports CU mode, which contains four SIMDs")
    if arch.generation >= 10 and not wgp:
        return arch.simds_per_cu
    return 4


def _max_workgroups_llvm(arch: ArchSpec, wg_size: int, wave: int, wgp: bool) -> int:
    """LLVM ``getMaxWorkGroupsPerCU``: barriers limit multi-wave groups to 16 (32 in WGP mode)."""
    eus = _eus_per_cu(arch, wgp)
    max_waves = arch.max_waves_per_simd * eus
    n = -(-wg_size // wave)
    if n == 1:
        return max_waves
    barriers = arch.max_barriers_per_wgp if (arch.generation >= 10 and wgp) else arch.max_barriers_per_cu
    return min(max_waves // n, barriers)


def waves_with_lds(arch: ArchSpec, lds_bytes: int, wg_size: int, wave: int, wgp: bool) -> int:
    """LLVM ``getOccupancyWithLocalMemSize``: waves per SIMD the LDS and the workgroup size allow."""
    max_groups = _max_workgroups_llvm(arch, wg_size, wave, wgp)
    if not max_groups:
        return 0
    # LLVM doubles the LDS it budgets in WGP mode (the WGP's 128 KiB; GCNSubtarget's LocalMemorySize)
    pool = arch.lds_bytes_per_wgp if (wgp and arch.lds_bytes_per_wgp) else arch.lds_bytes_per_cu
    groups = pool // (lds_bytes or 1)
    if groups == 0:
        return 1
    groups = min(max_groups, groups)
    waves = groups * -(-wg_size // wave)
    waves = -(-waves // _eus_per_cu(arch, wgp))
    return min(waves, arch.max_waves_per_simd)


def _limits(arch: ArchSpec, inp: OccupancyInput, wgp: bool) -> tuple[int, int, int, int]:
    """(total VGPRs, VGPR limit, SGPR limit, LDS+workgroup limit) in waves per SIMD."""
    total = arch.total_vgprs(inp.vgprs, inp.agprs)
    lim_v = waves_with_vgprs(arch, total, inp.wave_size) if total else arch.max_waves_per_simd
    lim_s = waves_with_sgprs(arch, inp.sgprs)
    lim_l = waves_with_lds(arch, inp.lds_bytes, inp.workgroup_size, inp.wave_size, wgp)
    return total, lim_v, lim_s, lim_l


def llvm_occupancy(arch: ArchSpec, inp: OccupancyInput) -> int:
    """Only the figure LLVM prints as ``; Occupancy:`` (``GCNSubtarget::computeOccupancy``)."""
    _check(arch, inp)
    _, lim_v, lim_s, lim_l = _limits(arch, inp, _wgp(arch, inp))
    return min(arch.max_waves_per_simd, lim_l, lim_s, lim_v)


def occupancy(arch: ArchSpec, inp: OccupancyInput) -> Occupancy:
    """Occupancy of a kernel with resources ``inp`` on ``arch``."""
    _check(arch, inp)
    wgp = _wgp(arch, inp)
    wave = inp.wave_size
    total, lim_v, lim_s, lim_l = _limits(arch, inp, wgp)
    llvm = min(arch.max_waves_per_simd, lim_l, lim_s, lim_v)

    simds, per_group, lds_alloc, by = _workgroup_limits(arch, inp, wgp, lim_v, lim_s)
    groups = min(by.values())
    waves_per_simd = groups * per_group / simds
    limited = tuple(k for k in ("vgpr", "sgpr", "lds", "barriers", "waves") if by.get(k) == groups)
    granule = arch.vgpr_granule(wave)
    result = Occupancy(
        arch=arch.name, wave_size=wave, wgp_mode=wgp, max_waves_per_simd=arch.max_waves_per_simd, simds=simds,
        limit_vgpr=lim_v, limit_sgpr=lim_s, limit_lds_workgroup=lim_l, llvm_occupancy=llvm,
        waves_per_workgroup=per_group, workgroups_per_cu=groups,
        workgroups_by=by,
        waves_per_simd=waves_per_simd,
        occupancy_pct=100.0 * waves_per_simd / arch.max_waves_per_simd,
        limited_by=limited, total_vgprs=total, vgpr_granule=granule,
        allocated_vgprs=align_to(max(total, 1), granule), lds_allocated=lds_alloc, next_step=None,
    )
    if inp.radv is not None:
        # a shader: RADV's model decides the waves, in waves of the shader's own size (see radv_limits)
        lim = radv_limits(arch, inp)
        own = min(lim.values())
        result = records.replace(
            result, waves_per_simd=float(own), max_waves_per_simd=lim["waves"],
            occupancy_pct=100.0 * own / lim["waves"],
            limited_by=tuple(k for k in ("vgpr", "sgpr", "lds", "waves") if lim.get(k) == own),
            aco_waves=aco_waves(arch, inp), aco_wave_unit=32 if arch.generation >= 10 else wave, radv_limits=lim)
    return _with_next_step(arch, inp, result)


def _workgroup_limits(arch: ArchSpec, inp: OccupancyInput, wgp: bool, lim_v: int,
                      lim_s: int) -> tuple[int, int, int, dict[str, int]]:
    """(SIMDs, waves per group, LDS allocated, workgroups per CU each resource allows).

    A CU (a WGP in WGP mode: twice the SIMDs and the WGP's LDS) takes a workgroup only whole.
    """
    simds = arch.simds_per_cu * (2 if wgp and arch.generation >= 10 else 1)
    per_group = -(-inp.workgroup_size // inp.wave_size)
    lds_pool = arch.lds_bytes_per_wgp if wgp and arch.lds_bytes_per_wgp else arch.lds_bytes_per_cu
    lds_alloc = align_to(inp.lds_bytes, arch.lds_alloc_granule) if inp.lds_bytes else 0
    by = {"waves": (arch.max_waves_per_simd * simds) // per_group}
    # a register file limits only when it allows fewer waves than the SIMD holds anyway
    if lim_v < arch.max_waves_per_simd:
        by["vgpr"] = (lim_v * simds) // per_group
    if lim_s < arch.max_waves_per_simd:
        by["sgpr"] = (lim_s * simds) // per_group
    if lds_alloc:
        by["lds"] = lds_pool // lds_alloc
    if per_group > 1:
        # each multi-wave workgroup holds a barrier (LLVM getMaxWorkGroupsPerCU)
        by["barriers"] = arch.max_barriers_per_wgp if (wgp and arch.generation >= 10) else arch.max_barriers_per_cu
    return simds, per_group, lds_alloc, by


def _with_next_step(arch: ArchSpec, inp: OccupancyInput, occ: Occupancy) -> Occupancy:
    """What each resource alone must shed so one more workgroup fits."""
    per_group = occ.waves_per_workgroup
    if inp.radv is not None:
        # RADV's model counts waves, not whole workgroups: the next level is one more wave per SIMD
        if occ.waves_per_simd + 1 > occ.max_waves_per_simd:
            return occ
        target = occ.waves_per_simd + 1
    else:
        # the next level is the next whole number of waves per SIMD: small groups must add several
        want = occ.workgroups_per_cu + 1
        while (want * per_group) % occ.simds and want * per_group <= occ.max_waves_per_simd * occ.simds:
            want += 1
        if -(-want * per_group // occ.simds) > occ.max_waves_per_simd:
            return occ
        target = want * per_group / occ.simds

    def fits(field: str, value: int) -> bool:
        # the same model answers every question: the changed kernel's own waves per SIMD (a smaller workgroup
        # changes how many waves each group brings, so counting groups alone would overstate it)
        try:
            return _waves_only(arch, with_resource(inp, field, value)) >= target
        except OccupancyInputError:
            return False

    def smallest_cut(field: str, current: int, step: int) -> int | None:
        for cut in range(step, current + 1, step):
            if fits(field, current - cut):
                return cut
        return None

    vgpr_cut = smallest_cut("vgprs", inp.vgprs, 1) if inp.vgprs else None
    sgpr_cut = smallest_cut("sgprs", inp.sgprs, 1) if inp.sgprs and arch.sgprs_limit_occupancy else None
    lds_cut = smallest_cut("lds_bytes", inp.lds_bytes, arch.lds_alloc_granule) if inp.lds_bytes else None
    # the largest workgroup of k waves has k * wave threads: search k downwards for the smallest cut
    thread_cut = next((inp.workgroup_size - k * inp.wave_size for k in range(per_group - 1, 0, -1)
                       if fits("workgroup_size", k * inp.wave_size)), None)
    step = NextStep(target, vgpr_cut, sgpr_cut, lds_cut, thread_cut)
    return records.replace(occ, next_step=step)


def with_resource(inp: OccupancyInput, field: str, value: int) -> OccupancyInput:
    """``inp`` with one resource (``vgprs``, ``sgprs``, ``lds_bytes`` or ``workgroup_size``) changed."""
    if field == "vgprs":
        return records.replace(inp, vgprs=value)
    if field == "sgprs":
        return records.replace(inp, sgprs=value)
    if field == "lds_bytes":
        return records.replace(inp, lds_bytes=value)
    if field == "workgroup_size":
        return records.replace(inp, workgroup_size=value)
    raise KeyError(field)


def _waves_only(arch: ArchSpec, inp: OccupancyInput) -> float:
    """Effective waves per SIMD of ``inp`` (what :func:`occupancy` reports, without the next step)."""
    _check(arch, inp)
    if inp.radv is not None:
        return float(min(radv_limits(arch, inp).values()))
    wgp = _wgp(arch, inp)
    _, lim_v, lim_s, _ = _limits(arch, inp, wgp)
    simds, per_group, _, by = _workgroup_limits(arch, inp, wgp, lim_v, lim_s)
    return min(by.values()) * per_group / simds


@dataclass(frozen=True, slots=True)
class Curve:
    """Occupancy as one resource varies, the others fixed: x values and effective waves per SIMD."""

    resource: str
    x: tuple[int, ...]
    waves_per_simd: tuple[float, ...]
    llvm_occupancy: tuple[int, ...]


def curves(arch: ArchSpec, inp: OccupancyInput) -> tuple[Curve, ...]:
    """The three graphs of the CUDA occupancy calculator: vs VGPRs, vs LDS bytes, vs workgroup size."""
    out = []
    specs = [
        ("vgprs", range(1, arch.addressable_vgprs + 1)),
        ("lds_bytes", range(0, arch.lds_bytes_per_workgroup + 1, arch.lds_alloc_granule)),
        ("workgroup_size", range(inp.wave_size, arch.max_workgroup_size + 1, inp.wave_size)),
    ]
    for field, xs in specs:
        kept_x, eff, llvm = [], [], []
        for x in xs:
            try:
                occ = occupancy(arch, with_resource(inp, field, x))
            except OccupancyInputError:
                continue
            kept_x.append(x)
            eff.append(occ.waves_per_simd)
            llvm.append(occ.llvm_occupancy)
        out.append(Curve(field, tuple(kept_x), tuple(eff), tuple(llvm)))
    return tuple(out)


def kernel_occupancy(kernel: Kernel, arch: ArchSpec, res: Resources) -> tuple[Occupancy, OccupancyInput] | None:
    """Occupancy of an analysed kernel from its requested registers and declared LDS and workgroup size.

    The workgroup size is the one the code requires, else the launch size given (``--wg``), else the compiler's
    upper bound: the declared maximum flat size, or 1024 threads as LLVM assumes (both marked assumed).
    """
    d = kernel.declared
    if d.workgroup_size is not None:
        wg, assumed, source = d.workgroup_size[0] * d.workgroup_size[1] * d.workgroup_size[2], False, \
            "reqd_workgroup_size"
        if d.launch_workgroup_size is not None and d.launch_workgroup_size != d.workgroup_size:
            source = "reqd_over_launch"
    elif d.launch_workgroup_size is not None:
        x, y, z = d.launch_workgroup_size
        wg, assumed, source = x * y * z, False, "launch"
    elif d.max_flat_workgroup_size is not None:
        wg, assumed, source = d.max_flat_workgroup_size, True, "max_flat_workgroup_size"
    else:
        wg, assumed, source = arch.max_workgroup_size, True, "default"
    wave = kernel.wave_size if kernel.wave_size in arch.wave_sizes else arch.default_wave_size
    radv = None
    if d.shader_stage is not None:
        if d.shader_stage != "comp":
            wg, assumed, source = wave, False, "given"  # a graphics wave belongs to no workgroup: nothing to fit
        # ACO's own "SGPRs" is what the driver programs (before gfx10 usually more than the code's registers)
        raw = dict(d.raw)
        aco_sgprs = _number(raw.get("SGPRs"))
        radv = RadvShader(
            stage=d.shader_stage, interp_inputs=d.shader_inputs or 0, family=raw.get("family"),
            workgroup_size=wg if d.shader_stage == "comp" and d.workgroup_size else 0,
            sgpr_extra=max(aco_sgprs - res.sgpr.requested, 0))
    inp = OccupancyInput(
        vgprs=res.vgpr.requested, sgprs=res.sgpr.requested, agprs=res.agpr.requested,
        lds_bytes=d.lds_bytes or 0, workgroup_size=min(wg, arch.max_workgroup_size),
        wave_size=wave, workgroup_assumed=assumed, workgroup_from=source, radv=radv,
    )
    try:
        occ = occupancy(arch, inp)
    except OccupancyInputError:
        return None
    return occ, inp


def occupancy_at_typical_launch(arch: ArchSpec, found: tuple[Occupancy, OccupancyInput] | None) -> Occupancy | None:
    """When the workgroup size was only an assumed upper bound: the occupancy a launch of
    :data:`TYPICAL_LAUNCH` threads would give (None when the size is known, or is that size already)."""
    if found is None:
        return None
    _occ, inp = found
    if not inp.workgroup_assumed or inp.workgroup_size == TYPICAL_LAUNCH or arch.max_workgroup_size < TYPICAL_LAUNCH:
        return None
    try:
        return occupancy(arch, with_resource(inp, "workgroup_size", TYPICAL_LAUNCH))
    except OccupancyInputError:
        return None


def kernel_vgpr_thresholds(kernel: Kernel, arch: ArchSpec, res: Resources,
                           found: tuple[Occupancy, OccupancyInput] | None) -> list[tuple[int, float]]:
    """(most VGPRs, waves per SIMD) per band of VGPR counts over which the kernel's own occupancy stays the same,
    every other resource as it is: the lines a pressure chart draws ("8 waves <= 64").

    The same model as the kernel's occupancy figure (whole workgroups; RADV's model for shaders, in waves of
    the shader's own size), so the
    band that holds the requested count is the occupancy the report prints (the register file's limit alone
    would label a band "2 waves" beside a kernel whose workgroup fits once).
    """
    if found is None:
        return []
    _occ, inp = found
    wave = inp.wave_size
    granule = arch.vgpr_granule(wave)
    seen: dict[int, float] = {}

    def waves(vgprs: int) -> float:
        # the model (RADV's for a shader: inp.radv) reads the VGPRs only through the register file's wave
        # limit: one evaluation per limit
        limit = waves_with_vgprs(arch, arch.total_vgprs(vgprs, inp.agprs), wave)
        if limit not in seen:
            seen[limit] = _waves_only(arch, with_resource(inp, "vgprs", vgprs))
        return seen[limit]

    out: list[tuple[int, float]] = []
    for vgprs in range(granule, arch.addressable_vgprs + 1, granule):
        try:
            w = waves(vgprs)
        except OccupancyInputError:
            break
        if out and out[-1][1] == w:
            out[-1] = (vgprs, w)
        else:
            out.append((vgprs, w))
    return out


# ----------------------------------------------------------------------------------- RADV's convention
#: Mesa families whose SIMDs hold 8 waves instead of GCN's 10 (Mesa ac_gpu_info.c: POLARIS10..VEGAM).
RADV_EIGHT_WAVE_FAMILIES = frozenset({"polaris10", "polaris11", "polaris12", "vegam"})


def _gfx10_3_or_later(arch: ArchSpec) -> bool:
    digits = arch.name[3:]
    return arch.generation > 10 or (arch.generation == 10 and len(digits) == 4 and int(digits[2], 16) >= 3)


def radv_limits(arch: ArchSpec, inp: OccupancyInput) -> dict[str, int]:
    """Waves per SIMD each resource allows a shader in RADV's model, in waves of the shader's own size.

    Mesa 22.3 ``radv_get_max_waves`` (src/amd/vulkan/radv_shader.c):

    * VGPRs in the target's granule (physical file: 256/512/768 wave64 VGPRs, twice as many wave32 VGPRs);
      SGPRs limit only before gfx10 (800 per SIMD from GFX8, in granules of 16); Polaris/VegaM hold 8 waves;
    * LDS is shared out per SIMD (64 KiB per CU before gfx10, 128 KiB per WGP after, over 4 SIMDs): a compute
      workgroup's LDS is divided among its waves, rounded **up**; a fragment shader adds 48 bytes per
      interpolated input; **other stages do not count LDS** (radv_get_max_waves computes ``lds_per_wave`` only
      for MESA_SHADER_FRAGMENT and MESA_SHADER_COMPUTE: a vertex shader's NGG LDS never limits it);
    * ``waves`` is the SIMD's wave slots, the same for wave32 and wave64 (LLVM ``getMaxWavesPerEU``: 16 on
      gfx10.3+, 20 on gfx10.1; later Mesa starts from ``max_waves_per_simd`` for both sizes too). Mesa 22.3
      starts wave32 from twice the wave64 slots; :func:`aco_waves` keeps that for ACO's figure.
    """
    radv = inp.radv
    stage = radv.stage if radv else "comp"
    family = radv.family if radv else None
    wave = inp.wave_size
    late = _gfx10_3_or_later(arch)
    lds_granule = 1024 if late else 512 if arch.generation >= 7 else 256
    lds_per_wave = 0
    if stage == "frag":
        lds_per_wave = align_to(inp.lds_bytes + (radv.interp_inputs if radv else 0) * 48, lds_granule)
    elif stage == "comp" and radv and radv.workgroup_size and inp.lds_bytes:
        lds_per_wave = align_to(inp.lds_bytes, lds_granule) // -(-radv.workgroup_size // wave)
    out = {"waves": 8 if family and family.lower() in RADV_EIGHT_WAVE_FAMILIES else arch.max_waves_per_simd}
    sgprs = inp.sgprs + (radv.sgpr_extra if radv else 0)
    if sgprs and arch.generation < 10:
        out["sgpr"] = arch.sgpr_total // align_to(sgprs, 16 if arch.generation >= 8 else 8)
    vgprs = arch.total_vgprs(inp.vgprs, inp.agprs)
    if vgprs:
        out["vgpr"] = arch.vgpr_total(wave) // align_to(vgprs, arch.vgpr_granule(wave))
    lds_pool = arch.lds_bytes_per_wgp if arch.generation >= 10 and arch.lds_bytes_per_wgp else arch.lds_bytes_per_cu
    if lds_per_wave:
        out["lds"] = -(-(lds_pool // 4) // lds_per_wave)
    return out


def aco_waves(arch: ArchSpec, inp: OccupancyInput) -> int:
    """ACO's "Subgroups per SIMD" for ``inp`` (Mesa 22.3 ``radv_get_max_waves``): :func:`radv_limits` with
    Mesa 22.3's wave32 start of twice the wave64 slots, and on gfx10+ counted in **wave32 units** (a wave64
    counts twice): a 24-VGPR wave64 compute shader on navi21 has 16 wave64 waves per SIMD, printed as 32.

    Back to waves of the shader's own size W (what :func:`occupancy` reports), from ACO's figure A: before
    gfx10 W = A; on gfx10+ A = min(2 * slots * 64 / wave, others) * wave / 32, so for wave64 A = 2 * min(slots,
    others) and W = A / 2, and for wave32 A = min(2 * slots, others) and W = min(A, slots).
    """
    lim = radv_limits(arch, inp)
    if arch.generation < 10:
        return min(lim.values())
    lim["waves"] *= 64 // inp.wave_size
    return min(lim.values()) * inp.wave_size // 32


def radv_waves_per_simd(arch: ArchSpec, *, stage: str, vgprs: int, sgprs: int, lds_bytes: int, wave_size: int,
                        workgroup_size: int = 0, interp_inputs: int = 0, family: str | None = None) -> int:
    """ACO's "Subgroups per SIMD" (:func:`aco_waves`) from allocated resources."""
    inp = OccupancyInput(vgprs=vgprs, sgprs=sgprs, lds_bytes=lds_bytes, wave_size=wave_size,
                         radv=RadvShader(stage, workgroup_size=workgroup_size, interp_inputs=interp_inputs,
                                         family=family))
    return aco_waves(arch, inp)


def _number(text: str | None) -> int:
    try:
        return int(text) if text is not None else 0
    except ValueError:
        return 0
