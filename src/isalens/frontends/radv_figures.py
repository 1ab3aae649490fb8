"""RADV's own figures for a shader: ACO's "Subgroups per SIMD" recomputed, an executable's statistics under ACO's
names, the note on RADV's occupancy convention and the statistics a pasted RADV dump carries."""

from __future__ import annotations

import re

from isalens.analysis.occupancy import radv_waves_per_simd
from isalens.arch.loader import get_arch, mesa_families
from isalens.frontends.vk_messages import ExecutableResult
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.program import Module
from isalens.isa.amdgcn.radv_dump import SHADER_OCCUPANCY_NOTE


def aco_subgroups_per_simd(family: str, *, stage: str, vgprs: int, sgprs: int, lds_bytes: int, wave_size: int,
                           workgroup_size: int = 0, num_interp: int = 0) -> int:
    """ACO's "Subgroups per SIMD" statistic recomputed from a shader's resources (RADV's radv_get_max_waves);
    the convention is described at :func:`isalens.analysis.occupancy.radv_waves_per_simd`.

    ``vgprs``, ``sgprs`` and ``lds_bytes`` are allocation figures (ACO's "VGPRs", "SGPRs", "LDS size").
    """
    return radv_waves_per_simd(get_arch(mesa_families()[family]), stage=stage, vgprs=vgprs, sgprs=sgprs,
                               lds_bytes=lds_bytes, wave_size=wave_size, workgroup_size=workgroup_size,
                               interp_inputs=num_interp, family=family)


def statistics_of(executable: ExecutableResult) -> dict[str, str | int]:
    """An executable's statistics under ACO's names (as ``compiler_stats`` shows them) plus ``Subgroup size``."""
    stats: dict[str, str | int] = {}
    for name, value in executable.statistics.items():
        stats[name] = int(value) if isinstance(value, bool) else value if isinstance(value, int) else str(value)
    stats["Subgroup size"] = executable.subgroup_size
    return stats


def radv_convention_note(file: str | None) -> Diagnostic:
    """The note that says how a shader's occupancy figure is counted."""
    return Diagnostic(Severity.NOTE, "occupancy", SHADER_OCCUPANCY_NOTE, file, None)



def dump_statistics(module: Module) -> dict[str, str | int]:
    """A RADV dump's own statistics per stage, as the RADV front end reports them (``kernel/figure`` keys
    when there are several stages); empty for other inputs."""
    if module.dialect != "radv":
        return {}
    per_kernel: dict[str, dict[str, str | int]] = {}
    for kernel in module.kernels:
        figures: dict[str, str | int] = {}
        for key, value in kernel.declared.raw:
            if key.startswith(".") or key == "family":
                continue
            figures[key] = int(value) if re.fullmatch(r"-?\d+", value) else value
        figures["Subgroup size"] = kernel.wave_size
        per_kernel[kernel.name] = figures
    if len(per_kernel) == 1:
        return dict(next(iter(per_kernel.values())))
    return {f"{name}/{key}": value for name, figures in per_kernel.items() for key, value in figures.items()}
