"""Kernels and modules: instructions plus what the input says about them."""

from __future__ import annotations

from isalens.ir.diagnostics import Diagnostic
from isalens.ir.instruction import Instruction
from isalens.ir.source import SourceMap
from isalens.records import dataclass, field


@dataclass(frozen=True, slots=True)
class DeclaredResources:
    """Figures the compiler wrote into its output (None when the input does not say)."""

    vgpr_count: int | None = None
    sgpr_count: int | None = None
    agpr_count: int | None = None
    next_free_vgpr: int | None = None
    next_free_sgpr: int | None = None
    accum_offset: int | None = None
    reserve_vcc: bool | None = None
    reserve_xnack_mask: bool | None = None
    reserve_flat_scratch: bool | None = None
    lds_bytes: int | None = None
    scratch_bytes: int | None = None
    occupancy: int | None = None
    wave_size: int | None = None
    workgroup_size: tuple[int, int, int] | None = None
    max_flat_workgroup_size: int | None = None
    #: the launch's workgroup size as the user gave it (``--wg``), not the code: used where nothing is required
    launch_workgroup_size: tuple[int, int, int] | None = None
    #: a graphics/compute shader compiled by RADV/ACO (``comp``, ``frag``, ``vert``...): ACO's conventions apply
    shader_stage: str | None = None
    #: a fragment shader's interpolated inputs (ACO reserves LDS for each)
    shader_inputs: int | None = None
    #: every ``; Name: value`` comment and metadata field as printed, for side-by-side display
    raw: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CallSummary:
    """A function's calls and what the call graph below it needs (LLVM's resource-usage rule).

    Register figures are counts (highest index + 1, 0 = none) over every function reachable through
    calls, this one excluded; ``limiters`` names, per file (``v``, ``a``, ``s``), the function whose
    registers set that maximum. ``lower_bound``: some call's target is unknown, so the figures assume
    LLVM's rule for such calls (the largest non-kernel function of the file) and the truth may be higher.
    """

    #: (instruction index, callee name or None when the target cannot be resolved)
    sites: tuple[tuple[int, str | None], ...] = ()
    vgprs: int = 0
    agprs: int = 0
    sgprs: int = 0
    uses_vcc: bool = False
    uses_flat_scratch: bool = False
    limiters: tuple[tuple[str, str], ...] = ()
    lower_bound: bool = False


@dataclass(frozen=True, slots=True)
class Kernel:
    """A kernel or function: an instruction list with labels and declared resources."""

    name: str
    arch: str
    wave_size: int
    instructions: tuple[Instruction, ...]
    labels: dict[str, int]
    declared: DeclaredResources = field(default_factory=DeclaredResources)
    is_kernel: bool = True
    #: units that hold hardware-initialised values at entry (user/system SGPRs, workitem IDs)
    entry_live_in: int | None = None
    #: the user SGPRs the kernel descriptor enables, in the order the hardware loads them: (input name as
    #: in ``.amdhsa_user_sgpr_<name>``, first SGPR, count); empty when there is no descriptor
    user_sgprs: tuple[tuple[str, int, int], ...] = ()
    file: str | None = None
    #: MIR block numbers from ``; %bb.N:`` / ``.LBB<f>_N:``: N -> index of the block's first instruction
    block_starts: dict[int, int] = field(default_factory=dict)
    guessed: int = 0
    #: units live when the kernel ends: VGPRs the compiler reserved for SGPR spills stay allocated
    live_at_exit: int = 0
    #: (conditional branch, the first instruction of its other successor, units): an ``; implicit-def:`` in an
    #: empty block that only this branch's one edge enters ends the units there (``analysis.liveness``)
    edge_undefs: tuple[tuple[int, int, int], ...] = ()
    #: calls resolved across the module (``analysis.calls.link_calls``); None before linking
    calls: CallSummary | None = None
    #: units the compiler reserves (a function's stack and frame pointers, scratch descriptor): its
    #: liveness does not track them, so they are never live
    reserved: int = 0
    #: per instruction, the source line it came from (``.loc``, DWARF, ``objdump -l``), when the input says
    source: SourceMap = field(default_factory=SourceMap)


@dataclass(frozen=True, slots=True)
class Module:
    """Everything read from one input."""

    kernels: tuple[Kernel, ...]
    dialect: str
    arch: str
    file: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    def kernel(self, name: str) -> Kernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class TargetInfo:
    """What the ISA readers need to know about the target: plain figures, no hardware model."""

    name: str
    generation: int
    wave_size: int
    #: the user chose the wave size: it overrides what the input declares
    wave_size_forced: bool = False
    addressable_vgprs: int = 256
    addressable_agprs: int = 0
    addressable_sgprs: int = 106
    has_sdwa: bool = True
    #: the mnemonic lists (``isa/amdgcn/data/mnemonics_<name>.txt``) that make up the target's instructions
    mnemonic_lists: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class KernelFacts:
    """What a binary says about one kernel beside its code: the kernel descriptor's fields and the metadata
    note's, keyed as the ``.amdhsa_*`` directives and ``.amdgpu_metadata`` keys of assembly are (no prefix)."""

    descriptor: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
