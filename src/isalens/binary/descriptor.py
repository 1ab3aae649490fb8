"""The 64-byte AMDHSA kernel descriptor (``<kernel>.kd``) decoded into the ``.amdhsa_*`` names LLVM's
assembler uses, so the ISA parser treats it like the directives of ``clang -S`` output.

Layout from LLVM's AMDGPUUsage, "Kernel Descriptor" (code object v3 and later): u32 group segment size at 0,
u32 private segment size at 4, u32 kernarg size at 8, i64 entry byte offset at 16, COMPUTE_PGM_RSRC3 at 44,
RSRC1 at 48, RSRC2 at 52, u16 kernel code properties at 56.
"""

from __future__ import annotations

import struct

__all__ = ["KD_SIZE", "decode_descriptor"]

KD_SIZE = 64
#: targets with a unified VGPR/AGPR file whose RSRC3 holds ACCUM_OFFSET
_ACCUM_TARGETS = ("gfx90a", "gfx940", "gfx941", "gfx942", "gfx950")


def _bits(word: int, low: int, width: int) -> int:
    return (word >> low) & ((1 << width) - 1)


def decode_descriptor(raw: bytes, processor: str) -> dict[str, str]:
    """The fields of ``raw`` (64 bytes) that say what the hardware sets up and what the kernel reserves."""
    group, private, kernarg = struct.unpack_from("<III", raw, 0)
    entry = struct.unpack_from("<q", raw, 16)[0]
    rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
    props = struct.unpack_from("<H", raw, 56)[0]
    fields = {
        "group_segment_fixed_size": group,
        "private_segment_fixed_size": private,
        "kernarg_size": kernarg,
        "kernel_code_entry_byte_offset": entry,
        "granulated_workitem_vgpr_count": _bits(rsrc1, 0, 6),
        "granulated_wavefront_sgpr_count": _bits(rsrc1, 6, 4),
        # RSRC2: bit 0 private segment wave offset, 1-5 user SGPRs, 7-9 workgroup ids, 10 info, 11-12 work-item ids
        "system_sgpr_private_segment_wavefront_offset": _bits(rsrc2, 0, 1),
        "user_sgpr_count": _bits(rsrc2, 1, 5),
        "system_sgpr_workgroup_id_x": _bits(rsrc2, 7, 1),
        "system_sgpr_workgroup_id_y": _bits(rsrc2, 8, 1),
        "system_sgpr_workgroup_id_z": _bits(rsrc2, 9, 1),
        "system_sgpr_workgroup_info": _bits(rsrc2, 10, 1),
        "system_vgpr_workitem_id": _bits(rsrc2, 11, 2),
        "granulated_lds_size": _bits(rsrc2, 15, 9),
        "uses_dynamic_stack": _bits(props, 11, 1),
    }
    if processor.startswith("gfx1"):
        fields["wavefront_size32"] = _bits(props, 10, 1)
    if processor in _ACCUM_TARGETS:
        # ACCUM_OFFSET: first AGPR-backed VGPR / 4 - 1
        fields["accum_offset"] = (_bits(rsrc3, 0, 6) + 1) * 4
    return {key: str(value) for key, value in fields.items()}
