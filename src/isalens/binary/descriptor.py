"""The 64-byte AMDHSA kernel descriptor (``<kernel>.kd``) decoded into the ``.amdhsa_*`` names LLVM's
assembler uses, so the ISA parser treats it like the directives of ``clang -S`` output.

Layout from LLVM's AMDGPUUsage, "Kernel Descriptor" (code object v3 and later; llvm/Support/
AMDHSAKernelDescriptor.h): u32 group segment size at 0, u32 private segment size at 4, u32 kernarg size at 8,
i64 entry byte offset at 16, COMPUTE_PGM_RSRC3 at 44, RSRC1 at 48, RSRC2 at 52, u16 kernel code properties at 56,
u16 kernarg preload at 58 (v5: bits 0-6 the preloaded length, bits 7-15 its offset, both in dwords); bytes 12-15,
24-43 and 60-63 are reserved.
"""

from __future__ import annotations

import struct

__all__ = ["KD_SIZE", "decode_descriptor", "not_understood"]

KD_SIZE = 64
#: targets with a unified VGPR/AGPR file whose RSRC3 holds ACCUM_OFFSET
_ACCUM_TARGETS = ("gfx90a", "gfx940", "gfx941", "gfx942", "gfx950")


#: kernel_code_properties bits 0-6, one per user SGPR input the hardware loads (AMDGPUUsage, "Kernel Descriptor":
#: ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER ... ENABLE_SGPR_PRIVATE_SEGMENT_SIZE), named as the ``.amdhsa_user_sgpr_*``
#: directives that set them, so a binary's entry state is read as the assembly's (which user SGPRs hold a value)
_USER_SGPR_BITS = ("private_segment_buffer", "dispatch_ptr", "queue_ptr", "kernarg_segment_ptr", "dispatch_id",
                   "flat_scratch_init", "private_segment_size")


def _gfx12(processor: str) -> bool:
    return processor.startswith("gfx12")


def not_understood(raw: bytes, processor: str) -> list[str]:
    """The fields of ``raw`` isalens does not model, each named: reserved bytes or bits that are set (a field
    newer than AMDGPUUsage as read here) and dynamic VGPRs (allocated at run time by ``s_alloc_vgpr``)."""
    found = []
    for start, end, name in ((12, 16, "reserved0"), (24, 44, "reserved1"), (60, 64, "reserved3")):
        if any(raw[start:end]):
            found.append(f"kernel descriptor bytes {start}-{end - 1} ({name}) are not zero: a field isalens does not "
                         "know")
    props = struct.unpack_from("<H", raw, 56)[0]
    if props & 0xf380:  # bits 7-9 and 12-15 of kernel_code_properties are reserved
        found.append(f"kernel_code_properties bits {props & 0xf380:#06x} are reserved: a field isalens does not know")
    rsrc2 = struct.unpack_from("<I", raw, 52)[0]
    if _gfx12(processor) and _bits(rsrc2, 6, 1):
        found.append("COMPUTE_PGM_RSRC2.ENABLE_DYNAMIC_VGPR is set: VGPRs are allocated at run time (s_alloc_vgpr), "
                     "which isalens does not model; occupancy is for the VGPRs the kernel declares")
    return found


def _bits(word: int, low: int, width: int) -> int:
    return (word >> low) & ((1 << width) - 1)


def decode_descriptor(raw: bytes, processor: str) -> dict[str, str]:
    """The fields of ``raw`` (64 bytes) that say what the hardware sets up and what the kernel reserves."""
    group, private, kernarg, entry, rsrc3, rsrc1, rsrc2, props, preload = _FIELDS.unpack_from(raw, 0)
    fields = {
        "group_segment_fixed_size": str(group),
        "private_segment_fixed_size": str(private),
        "kernarg_size": str(kernarg),
        "kernel_code_entry_byte_offset": str(entry),
        "granulated_workitem_vgpr_count": str(rsrc1 & 0x3F),
        "granulated_wavefront_sgpr_count": str((rsrc1 >> 6) & 0xF),
        # RSRC2: bit 0 private segment wave offset, 1-5 user SGPRs, 7-9 workgroup ids, 10 info, 11-12 work-item ids
        "system_sgpr_private_segment_wavefront_offset": _BIT[rsrc2 & 1],
        "user_sgpr_count": str((rsrc2 >> 1) & 0x1F),
        "system_sgpr_workgroup_id_x": _BIT[(rsrc2 >> 7) & 1],
        "system_sgpr_workgroup_id_y": _BIT[(rsrc2 >> 8) & 1],
        "system_sgpr_workgroup_id_z": _BIT[(rsrc2 >> 9) & 1],
        "system_sgpr_workgroup_info": _BIT[(rsrc2 >> 10) & 1],
        "system_vgpr_workitem_id": str((rsrc2 >> 11) & 3),
        "granulated_lds_size": str((rsrc2 >> 15) & 0x1FF),
        "uses_dynamic_stack": _BIT[(props >> 11) & 1],
    }
    for bit, key in _USER_SGPR_KEYS:
        fields[key] = _BIT[(props >> bit) & 1]
    length = str(preload & 0x7F)
    fields["kernarg_preload_length"] = length
    fields["user_sgpr_kernarg_preload_length"] = length  # its directive's name
    fields["kernarg_preload_offset"] = str(preload >> 7)
    if processor.startswith("gfx1"):
        fields["wavefront_size32"] = _BIT[(props >> 10) & 1]
    if _gfx12(processor):
        # RSRC2 bit 6: ENABLE_DYNAMIC_VGPR on gfx12 (the trap handler bit before)
        fields["dynamic_vgpr"] = _BIT[(rsrc2 >> 6) & 1]
    if processor in _ACCUM_TARGETS:
        # ACCUM_OFFSET: first AGPR-backed VGPR / 4 - 1
        fields["accum_offset"] = str(((rsrc3 & 0x3F) + 1) * 4)
    return fields


#: the fields decode_descriptor reads, at their offsets (the module docstring): u32 x3 at 0, i64 at 16, u32 x3 at
#: 44 (RSRC3, RSRC1, RSRC2), u16 x2 at 56 (properties, kernarg preload)
_FIELDS = struct.Struct("<III4xq20xIIIHH")
_BIT = ("0", "1")
_USER_SGPR_KEYS = tuple((bit, f"user_sgpr_{name}") for bit, name in enumerate(_USER_SGPR_BITS))
