"""Registers a kernel requests and the hardware allocates, beside what the compiler declared.

Requested = highest register referenced + 1 per file; SGPRs add what LLVM reserves on top (VCC, the
XNACK mask and flat scratch, :meth:`ArchSpec.extra_sgprs`), so the figure compares with ``.sgpr_count``.
"""

from __future__ import annotations

from isalens.arch.model import ArchSpec
from isalens.ir.program import Kernel
from isalens.ir.registers import RegFile, highest_register, special_pair
from isalens.records import dataclass


@dataclass(frozen=True, slots=True)
class FileResources:
    """One register file: what the code references, what it costs, what the compiler said."""

    file: RegFile
    highest: int
    requested: int
    allocated: int
    declared: int | None


@dataclass(frozen=True, slots=True)
class Resources:
    """The registers a kernel allocates per file, its VGPR total with AGPRs, VCC, extra SGPRs and wave size, and the
    callees that set a figure."""

    vgpr: FileResources
    sgpr: FileResources
    agpr: FileResources
    #: VGPRs a wave occupies counting AGPRs (unified register file on gfx90a+)
    total_vgprs: int
    uses_vcc: bool
    extra_sgprs: int
    wave_size: int
    #: (file ``v``/``a``/``s``, function) where a callee's registers set the figure, not this code
    callee_limiters: tuple[tuple[str, str], ...] = ()
    #: a call's target is unknown: the figures follow LLVM's assumption and may be too low
    lower_bound: bool = False

    def of(self, file: RegFile) -> FileResources:
        return {RegFile.VGPR: self.vgpr, RegFile.SGPR: self.sgpr, RegFile.AGPR: self.agpr}[file]


def resources(kernel: Kernel, arch: ArchSpec) -> Resources:
    """Requested/allocated registers of ``kernel`` on ``arch``."""
    touched = referenced = 0
    for ins in kernel.instructions:
        touched |= ins.defs | ins.uses | ins.referenced
        referenced |= ins.referenced
    d = kernel.declared
    wave = kernel.wave_size
    # registers named in the code (an indexed operand's reachable range is liveness, not allocation)
    v_hi = highest_register(referenced, RegFile.VGPR)
    a_hi = highest_register(referenced, RegFile.AGPR)
    s_hi = highest_register(referenced, RegFile.SGPR)
    uses_vcc = bool(touched & special_pair("vcc").mask())
    flat = bool(d.reserve_flat_scratch) or bool(touched & special_pair("flat_scratch").mask())
    calls = kernel.calls
    limiters: tuple[tuple[str, str], ...] = ()
    if calls is not None:
        # the call graph below needs its own registers too (LLVM's resource-usage rule, calls.py)
        v_hi = max(v_hi, calls.vgprs - 1)
        a_hi = max(a_hi, calls.agprs - 1)
        s_hi = max(s_hi, calls.sgprs - 1)
        uses_vcc |= calls.uses_vcc
        flat |= calls.uses_flat_scratch
        limiters = calls.limiters
    vcc = d.reserve_vcc if d.reserve_vcc is not None else uses_vcc
    extra = arch.extra_sgprs(vcc=vcc, xnack=d.reserve_xnack_mask, flat_scratch=flat)
    v_req = v_hi + 1
    a_req = a_hi + 1
    s_req = max(s_hi + 1 + extra, arch.fixed_sgprs)
    total = arch.total_vgprs(v_req, a_req)
    vgpr = FileResources(RegFile.VGPR, v_hi, v_req, arch.allocated_vgprs(total, wave), d.vgpr_count)
    agpr = FileResources(RegFile.AGPR, a_hi, a_req, a_req, d.agpr_count)
    sgpr = FileResources(RegFile.SGPR, s_hi, s_req, arch.allocated_sgprs(s_req), d.sgpr_count)
    return Resources(vgpr, sgpr, agpr, total, uses_vcc, extra, wave, limiters,
                     calls is not None and calls.lower_bound)
