"""What a kernel declares about itself, from its descriptor (``.amdhsa_*``), metadata and ``; Key: value``
comments: the resources it asks for, the registers the hardware initialises at entry, the user SGPR layout and
the wave size it runs at."""

from __future__ import annotations

from isalens.errors import ParseError
from isalens.ir.program import DeclaredResources, TargetInfo
from isalens.ir.registers import Reg, RegFile, special_pair
from isalens.isa.amdgcn.drafts import Draft
from isalens.lazyre import LazyPattern
from isalens.records import fields as record_fields

_WAVE32_HINT = LazyPattern(r"\b(?:vcc_lo|exec_lo|s_\w+_saveexec_b32|s_\w+_wrexec_b32)\b")
_WAVE64_HINT = LazyPattern(r"\b(?:s_\w+_saveexec_b64|s_\w+_wrexec_b64)\b|\bexec\b(?!_)")


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value.split()[0], 0)
    except (ValueError, IndexError):
        return None


def _flag(value: str | None) -> bool | None:
    n = _int(value)
    return None if n is None else bool(n)


def wave_size_of(draft: Draft, target: TargetInfo) -> int:
    """The wave size: forced by the user, declared by the kernel, shown by the code's EXEC/VCC forms (gfx10+), else
    the target's."""
    if target.wave_size_forced:
        return target.wave_size
    declared = _int(draft.metadata.get("wavefront_size"))
    if declared in (32, 64):
        return int(declared)
    if "wavefront_size32" in draft.descriptor:
        return 32 if _flag(draft.descriptor["wavefront_size32"]) else 64
    if target.generation >= 10:
        body = "\n".join(item.text for item in draft.items[:4000])
        if _WAVE32_HINT.search(body):
            return 32
        if _WAVE64_HINT.search(body):
            return 64
    return target.wave_size


#: COMPUTE_PGM_RSRC2.USER_SGPR is 5 bits: llvm-mc-19 says "too many user SGPRs enabled" from 32 on
_MAX_USER_SGPRS = 31
#: COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT is 2 bits: llvm-mc-19 says "value out of range" from 3 on (0-2 are used)
_MAX_WORKITEM_ID = 2


def entry_live_in(draft: Draft, target: TargetInfo, packed_tid: bool, file: str) -> int | None:
    """Registers the hardware initialises at kernel entry, from the kernel descriptor."""
    d = draft.descriptor
    if not d:
        return None
    user = _int(d.get("user_sgpr_count")) or 0
    ids = _int(d.get("system_vgpr_workitem_id")) or 0
    # checked before any register set is built: 4294967296 user SGPRs would ask for a 4-billion-unit mask
    if not 0 <= user <= _MAX_USER_SGPRS:
        raise ParseError(f"kernel '{draft.name}': .amdhsa_user_sgpr_count {user}: too many user SGPRs enabled "
                         f"(at most {_MAX_USER_SGPRS}, as llvm-mc)", file=file, line=draft.start_line,
                         code="descriptor")
    if not 0 <= ids <= _MAX_WORKITEM_ID:
        raise ParseError(f"kernel '{draft.name}': .amdhsa_system_vgpr_workitem_id {ids}: value out of range (0-2)",
                         file=file, line=draft.start_line, code="descriptor")
    system = sum(1 for key in ("system_sgpr_workgroup_id_x", "system_sgpr_workgroup_id_y",
                               "system_sgpr_workgroup_id_z", "system_sgpr_workgroup_info",
                               "system_sgpr_private_segment_wavefront_offset") if _flag(d.get(key)))
    # where the descriptor says which user SGPRs it enables, only those hold a value: LLVM 19 asks gfx11 for
    # more than it enables (sgemm_8x8: .amdhsa_user_sgpr_count 14, only the kernarg pointer in s[0:1]; its
    # MIR's entry live-ins are s[0:1], s14, s15). The system SGPRs follow the whole count.
    enabled = user
    if any(key.startswith("user_sgpr_") and key != "user_sgpr_count" for key in d):
        enabled = sum(size for _name, _first, size in user_sgprs(draft))
        enabled = min(user, enabled + max(0, _int(d.get("user_sgpr_kernarg_preload_length")) or 0))
    mask = Reg(RegFile.SGPR, 0, enabled).mask() if enabled else 0
    mask |= Reg(RegFile.SGPR, user, system).mask() if system else 0
    mask |= Reg(RegFile.VGPR, 0, 1 if packed_tid else ids + 1).mask()
    # EXEC holds the wave's active lanes at launch (AMDGPUUsage, "Initial Kernel Execution State"): a vector
    # instruction's implicit read of it is not an undefined read
    return mask | special_pair("exec").mask()


#: the user SGPRs a kernel descriptor can enable, in load order, with their sizes (LLVM AMDGPUUsage,
#: "Initial Kernel Execution State": private segment buffer, dispatch ptr, queue ptr, kernarg segment ptr,
#: dispatch id, flat scratch init, private segment size)
_USER_SGPR_ORDER = (("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2),
                    ("kernarg_segment_ptr", 2), ("dispatch_id", 2), ("flat_scratch_init", 2),
                    ("private_segment_size", 1))


def user_sgprs(draft: Draft) -> tuple[tuple[str, int, int], ...]:
    """Which user SGPRs hold which input at entry, from the descriptor's ``.amdhsa_user_sgpr_*`` flags."""
    d = draft.descriptor
    layout: list[tuple[str, int, int]] = []
    first = 0
    for name, size in _USER_SGPR_ORDER:
        if _flag(d.get(f"user_sgpr_{name}")):
            layout.append((name, first, size))
            first += size
    return tuple(layout)


def declared_resources(draft: Draft, wave_size: int, file: str) -> DeclaredResources:
    """The resources the kernel's metadata, descriptor and comments declare, as they are written."""
    md, desc, com = draft.metadata, draft.descriptor, draft.comments
    wg = md.get("reqd_workgroup_size")
    workgroup = None
    if wg:
        dims = [_int(x) for x in wg.split()]
        if len(dims) != 3 or any(d is None or d < 1 for d in dims):
            raise ParseError(f"kernel '{draft.name}': .reqd_workgroup_size must be three positive integers, "
                             f"not {wg!r}", file=file, line=draft.start_line, code="metadata")
        workgroup = (dims[0] or 1, dims[1] or 1, dims[2] or 1)
    raw = [(f".{k}", v) for k, v in sorted(md.items()) if k in (
        "vgpr_count", "sgpr_count", "agpr_count", "vgpr_spill_count", "sgpr_spill_count",
        "group_segment_fixed_size", "private_segment_fixed_size", "wavefront_size", "max_flat_workgroup_size")]
    raw += [(k, v) for k, v in com.items()]
    figures = DeclaredResources(
        vgpr_count=_int(md.get("vgpr_count")) if "vgpr_count" in md else _int(com.get("NumVgprs")),
        sgpr_count=_int(md.get("sgpr_count")) if "sgpr_count" in md else _int(com.get("NumSgprs")),
        agpr_count=_int(md.get("agpr_count")) if "agpr_count" in md else _int(com.get("NumAgprs")),
        next_free_vgpr=_int(desc.get("next_free_vgpr")),
        next_free_sgpr=_int(desc.get("next_free_sgpr")),
        accum_offset=_int(desc.get("accum_offset")),
        reserve_vcc=_flag(desc.get("reserve_vcc")),
        reserve_xnack_mask=_flag(desc.get("reserve_xnack_mask")),
        reserve_flat_scratch=_flag(desc.get("reserve_flat_scratch")),
        lds_bytes=_int(md.get("group_segment_fixed_size") or desc.get("group_segment_fixed_size")),
        scratch_bytes=_int(md.get("private_segment_fixed_size") or desc.get("private_segment_fixed_size")),
        occupancy=_int(com.get("Occupancy")),
        wave_size=wave_size if (md.get("wavefront_size") or "wavefront_size32" in desc) else None,
        workgroup_size=workgroup,
        max_flat_workgroup_size=_int(md.get("max_flat_workgroup_size")),
        shader_stage=md.get("shader_stage"),
        shader_inputs=_int(md.get("shader_inputs")),
        raw=tuple(raw),
    )
    _check_ranges(figures, draft, file)
    return figures


#: metadata and descriptor figures are unsigned 32-bit in the code object (LLVM AMDGPUUsage, code object V3+
#: metadata and kernel descriptor layout); a value outside that is not a count the hardware could see
_U32 = (1 << 32) - 1


def _check_ranges(figures: DeclaredResources, draft: Draft, file: str) -> None:
    """One message for a declared figure no code object can hold (found by tools/fuzz.py: a 68-bit
    ``.vgpr_count`` reached the JSON writer, which holds 64-bit integers only)."""
    for field in record_fields(figures):
        value = getattr(figures, field.name)
        # a count, or a tuple of them (the workgroup size); the raw text pairs are strings
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, int) and not isinstance(item, bool) and not 0 <= item <= _U32:
                raise ParseError(f"kernel '{draft.name}': declared {field.name} {item} is out of range "
                                 f"(0-{_U32})", file=file, line=draft.start_line, code="metadata")
