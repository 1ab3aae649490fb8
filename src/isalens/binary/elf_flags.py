"""The AMDGPU ``e_flags`` of a code object v4-v6: the processor (``EF_AMDGPU_MACH``), the XNACK and SRAMECC
settings, and on v6 the generic target version.

Values from LLVM's ``llvm/include/llvm/BinaryFormat/ELF.h`` (AMDGPUUsage "AMDGPU ELF Header Enumeration Values"),
checked against the ``e_flags`` clang-19 writes for every processor it knows (``-mcpu=NAME``, then
``llvm-readelf-19 -h``; tests/oracle/test_newer_metadata.py). gfx950, gfx1153 and gfx9-4-generic are from that
header; gfx1250, gfx1251 and gfx12-5-generic from LLVM's later ELF.h.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ElfFlags", "decode_e_flags"]

#: EF_AMDGPU_MACH values (the low byte) of the AMDGCN processors
_MACH = {
    0x020: "gfx600", 0x021: "gfx601", 0x022: "gfx700", 0x023: "gfx701", 0x024: "gfx702", 0x025: "gfx703",
    0x026: "gfx704", 0x028: "gfx801", 0x029: "gfx802", 0x02a: "gfx803", 0x02b: "gfx810", 0x02c: "gfx900",
    0x02d: "gfx902", 0x02e: "gfx904", 0x02f: "gfx906", 0x030: "gfx908", 0x031: "gfx909", 0x032: "gfx90c",
    0x033: "gfx1010", 0x034: "gfx1011", 0x035: "gfx1012", 0x036: "gfx1030", 0x037: "gfx1031", 0x038: "gfx1032",
    0x039: "gfx1033", 0x03a: "gfx602", 0x03b: "gfx705", 0x03c: "gfx805", 0x03d: "gfx1035", 0x03e: "gfx1034",
    0x03f: "gfx90a", 0x040: "gfx940", 0x041: "gfx1100", 0x042: "gfx1013", 0x043: "gfx1150", 0x044: "gfx1103",
    0x045: "gfx1036", 0x046: "gfx1101", 0x047: "gfx1102", 0x048: "gfx1200", 0x049: "gfx1250", 0x04a: "gfx1151",
    0x04b: "gfx941", 0x04c: "gfx942", 0x04e: "gfx1201", 0x04f: "gfx950", 0x051: "gfx9-generic",
    0x052: "gfx10-1-generic", 0x053: "gfx10-3-generic", 0x054: "gfx11-generic", 0x055: "gfx1152",
    0x058: "gfx1153", 0x059: "gfx12-generic", 0x05a: "gfx1251", 0x05b: "gfx12-5-generic", 0x05f: "gfx9-4-generic",
}
_MACH_MASK = 0x0ff
#: code object v4+: EF_AMDGPU_FEATURE_XNACK_V4 (bits 8-9) and _SRAMECC_V4 (bits 10-11)
_SETTING = {0: "unsupported", 1: "any", 2: "off", 3: "on"}
#: code object v6: EF_AMDGPU_GENERIC_VERSION, the top byte
_GENERIC_SHIFT = 24
#: bits with no meaning in v4-v6 (12-23): set, they are a field newer than this table
_UNDEFINED_BITS = 0x00fff000


@dataclass(frozen=True, slots=True)
class ElfFlags:
    """What ``e_flags`` says; ``problems`` names each part this table does not understand."""

    value: int
    mach: int
    processor: str | None
    xnack: str
    sramecc: str
    #: the generic target version (v6), 0 when none
    generic_version: int
    problems: tuple[str, ...] = ()


def decode_e_flags(value: int, version: int) -> ElfFlags:
    """``e_flags`` of a code object of ``version`` (4-6)."""
    mach = value & _MACH_MASK
    processor = _MACH.get(mach)
    problems = []
    if processor is None:
        problems.append(f"e_flags {value:#x}: EF_AMDGPU_MACH {mach:#04x} is not a processor isalens knows")
    generic = value >> _GENERIC_SHIFT if version >= 6 else 0
    if value & _UNDEFINED_BITS or (version < 6 and value >> _GENERIC_SHIFT):
        problems.append(f"e_flags {value:#x}: bits {value & (_UNDEFINED_BITS | (0xff << _GENERIC_SHIFT)):#x} "
                        f"have no meaning in code object v{version}")
    if processor is not None and processor.endswith("-generic") and generic == 0:
        problems.append(f"e_flags {value:#x}: generic target {processor} without EF_AMDGPU_GENERIC_VERSION")
    return ElfFlags(value, mach, processor, _SETTING[(value >> 8) & 3], _SETTING[(value >> 10) & 3], generic,
                    tuple(problems))
