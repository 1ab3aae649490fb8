"""Our own field decoder for AMDGPU machine code: split a dword stream into instructions and name every
field of each (format, opcode number, registers, modifiers), for GFX8/GFX9/CDNA, GFX10, GFX11 and GFX12.

Bit positions are the "Microcode Formats" chapters of AMD's ISA reference guides (Vega, CDNA3, RDNA2,
RDNA3, RDNA4); they were confirmed field by field with ``llvm-mc-19 -show-encoding`` and are checked by
``tests/oracle/test_field_decoder.py`` (generated SDWA, DPP, VOP3P and DS sweeps, round trip text ->
llvm-mc -> our fields -> text). Instruction *names* come from LLVM's disassembler, not from here: this
module knows only the few opcode numbers that change an instruction's length (madak/madmk-style
literals, ``s_setreg_imm32_b32``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from isalens.errors import InputError

__all__ = ["LAYOUTS", "DecodeError", "Decoded", "Field", "decode", "split_words"]


class DecodeError(InputError):
    """Words that do not form a complete instruction."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field: its name, instruction bit range (dword 1 = bits 63:32 ...), raw value and meaning."""

    name: str
    hi: int
    lo: int
    value: int
    meaning: str

    @property
    def bits(self) -> str:
        return f"[{self.hi}]" if self.hi == self.lo else f"[{self.hi}:{self.lo}]"


@dataclass(frozen=True, slots=True)
class Decoded:
    """One instruction: its encoding format, its dwords and its fields."""

    format: str
    words: tuple[int, ...]
    fields: tuple[Field, ...]

    @property
    def size(self) -> int:
        return 4 * len(self.words)

    def get(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def value(self, name: str) -> int:
        f = self.get(name)
        if f is None:
            raise KeyError(name)
        return f.value


# ---------------------------------------------------------------------------------------------- value names

_FLOATS = {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0", 245: "-2.0", 246: "4.0", 247: "-4.0",
           248: "1/(2*pi)"}


def _scalar_name(code: int, family: str) -> str:
    """Name of an 8-bit scalar operand code (SGPRs, specials, inline constants) — ISA guides, "Scalar
    operands" / "SSRC" tables; M0 and NULL swapped places on GFX11."""
    if family == "gfx9" and code in (102, 103):
        return ("flat_scratch_lo", "flat_scratch_hi")[code - 102]
    if family == "gfx9" and code in (104, 105):
        return ("xnack_mask_lo", "xnack_mask_hi")[code - 104]
    if code <= 105:
        return f"s{code}"
    specials = {106: "vcc_lo", 107: "vcc_hi", 126: "exec_lo", 127: "exec_hi", 128: "0", 235: "src_shared_base",
                236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
                239: "src_pops_exiting_wave_id", 249: "SDWA", 250: "DPP", 251: "src_vccz", 252: "src_execz",
                253: "src_scc", 254: "src_lds_direct", 255: "literal"}
    if code in specials:
        return specials[code]
    if 108 <= code <= 123:
        return f"ttmp{code - 108}"
    if code in (124, 125):
        m0 = 125 if family in ("gfx11", "gfx12") else 124
        if code == m0:
            return "m0"
        return "null" if family != "gfx9" else "reserved"
    if 129 <= code <= 192:
        return str(code - 128)
    if 193 <= code <= 208:
        return str(192 - code)
    if code in _FLOATS:
        return _FLOATS[code]
    if family != "gfx9" and code in (233, 234):
        return "DPP8" if code == 233 else "DPP8 FI"
    return "reserved"


def _src9_name(code: int, family: str) -> str:
    return f"v{code - 256}" if code >= 256 else _scalar_name(code, family)


_SDWA_SEL = ("BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "reserved")
_DST_UNUSED = ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "reserved")
_OMOD = ("none", "mul:2", "mul:4", "div:2")


def dpp_control_name(ctrl: int, family: str) -> str:
    """DPP_CTRL as the assembler writes it (ISA guides, "DPP_CTRL enumeration")."""
    if ctrl <= 0xFF:
        return "quad_perm:[" + ",".join(str((ctrl >> (2 * i)) & 3) for i in range(4)) + "]"
    for base, name in ((0x100, "row_shl"), (0x110, "row_shr"), (0x120, "row_ror")):
        if base < ctrl <= base + 15:
            return f"{name}:{ctrl - base}"
    if ctrl == 0x140:
        return "row_mirror"
    if ctrl == 0x141:
        return "row_half_mirror"
    if family == "gfx9":
        legacy = {0x130: "wave_shl:1", 0x134: "wave_rol:1", 0x138: "wave_shr:1", 0x13C: "wave_ror:1",
                  0x142: "row_bcast:15", 0x143: "row_bcast:31"}
        if ctrl in legacy:
            return legacy[ctrl]
        if 0x150 <= ctrl <= 0x15F:
            return f"row_newbcast:{ctrl - 0x150}"
    else:
        if 0x150 <= ctrl <= 0x15F:
            return f"row_share:{ctrl - 0x150}"
        if 0x160 <= ctrl <= 0x16F:
            return f"row_xmask:{ctrl - 0x160}"
    return "reserved"


def _bits_list(value: int, count: int) -> str:
    return "[" + ",".join(str((value >> i) & 1) for i in range(count)) + "]"


Kind = Callable[[int, str], str]


def _plain(v: int, f: str) -> str:
    return ""


def _flag(v: int, f: str) -> str:
    return "on" if v else "off"


def _vgpr(v: int, f: str) -> str:
    return f"v{v}"


def _signed(width: int) -> Kind:
    def name(v: int, f: str) -> str:
        return str(v - (1 << width) if v >> (width - 1) else v)
    return name


def _mask3(v: int, f: str) -> str:
    return _bits_list(v, 3)


def _sbase(v: int, f: str) -> str:
    return f"s[{2 * v}:{2 * v + 1}]"


def _srsrc(v: int, f: str) -> str:
    return f"s[{4 * v}:{4 * v + 3}]"


def _saddr(v: int, f: str) -> str:
    if v == 0x7F or (f != "gfx9" and _scalar_name(v, f) == "null"):
        return "off"
    return _scalar_name(v, f)


def _seg(v: int, f: str) -> str:
    return ("flat", "scratch", "global", "reserved")[v]


def _dpp8(v: int, f: str) -> str:
    return "dpp8:[" + ",".join(str((v >> (3 * i)) & 7) for i in range(8)) + "]"


KINDS: dict[str, Kind] = {
    "int": _plain, "op": _plain, "enc": _plain, "flag": _flag, "vgpr": _vgpr, "ssrc": _scalar_name,
    "src9": _src9_name, "sel": lambda v, f: _SDWA_SEL[v], "unused": lambda v, f: _DST_UNUSED[v],
    "omod": lambda v, f: _OMOD[v], "mask3": _mask3, "mask2": lambda v, f: _bits_list(v, 2),
    "dpp_ctrl": lambda v, f: dpp_control_name(v, f), "dpp8": _dpp8, "sbase": _sbase, "srsrc": _srsrc,
    "saddr": _saddr, "seg": _seg, "s13": _signed(13), "s12": _signed(12), "s21": _signed(21), "s24": _signed(24),
    "hex": lambda v, f: f"{v:#x}", "simm16": lambda v, f: f"{v:#06x} ({v - 0x10000 if v >> 15 else v})",
    "sgpr7": _scalar_name, "mask4": lambda v, f: _bits_list(v, 4),
}

# ---------------------------------------------------------------------------------------------- layouts
# (name, hi, lo, kind) with bit numbers over the whole instruction: dword 1 is bits 63:32, dword 2 95:64.
Spec = tuple[str, int, int, str]

_SOP2: tuple[Spec, ...] = (("ENCODING", 31, 30, "enc"), ("OP", 29, 23, "op"), ("SDST", 22, 16, "sgpr7"),
                           ("SSRC1", 15, 8, "ssrc"), ("SSRC0", 7, 0, "ssrc"))
_SOPK: tuple[Spec, ...] = (("ENCODING", 31, 28, "enc"), ("OP", 27, 23, "op"), ("SDST", 22, 16, "sgpr7"),
                           ("SIMM16", 15, 0, "simm16"))
_SOP1: tuple[Spec, ...] = (("ENCODING", 31, 23, "enc"), ("SDST", 22, 16, "sgpr7"), ("OP", 15, 8, "op"),
                           ("SSRC0", 7, 0, "ssrc"))
_SOPC: tuple[Spec, ...] = (("ENCODING", 31, 23, "enc"), ("OP", 22, 16, "op"), ("SSRC1", 15, 8, "ssrc"),
                           ("SSRC0", 7, 0, "ssrc"))
_SOPP: tuple[Spec, ...] = (("ENCODING", 31, 23, "enc"), ("OP", 22, 16, "op"), ("SIMM16", 15, 0, "simm16"))
_VOP2: tuple[Spec, ...] = (("ENCODING", 31, 31, "enc"), ("OP", 30, 25, "op"), ("VDST", 24, 17, "vgpr"),
                           ("VSRC1", 16, 9, "vgpr"), ("SRC0", 8, 0, "src9"))
_VOP1: tuple[Spec, ...] = (("ENCODING", 31, 25, "enc"), ("VDST", 24, 17, "vgpr"), ("OP", 16, 9, "op"),
                           ("SRC0", 8, 0, "src9"))
_VOPC: tuple[Spec, ...] = (("ENCODING", 31, 25, "enc"), ("OP", 24, 17, "op"), ("VSRC1", 16, 9, "vgpr"),
                           ("SRC0", 8, 0, "src9"))
_VOP3_TAIL: tuple[Spec, ...] = (("NEG", 63, 61, "mask3"), ("OMOD", 60, 59, "omod"), ("SRC2", 58, 50, "src9"),
                                ("SRC1", 49, 41, "src9"), ("SRC0", 40, 32, "src9"))
_VOP3P_TAIL: tuple[Spec, ...] = (("NEG", 63, 61, "mask3"), ("OP_SEL_HI", 60, 59, "mask2"),
                                 ("SRC2", 58, 50, "src9"), ("SRC1", 49, 41, "src9"), ("SRC0", 40, 32, "src9"))


def _vop3(enc_hi: int, op_sel: bool) -> tuple[Spec, ...]:
    head: tuple[Spec, ...] = (("ENCODING", 31, enc_hi, "enc"), ("OP", 25, 16, "op"), ("CLAMP", 15, 15, "flag"))
    mid: tuple[Spec, ...] = (("OP_SEL", 14, 11, "mask4"),) if op_sel else ()
    return (*head, *mid, ("ABS", 10, 8, "mask3"), ("VDST", 7, 0, "vgpr"), *_VOP3_TAIL)


def _vop3p(enc_lo: int) -> tuple[Spec, ...]:
    return (("ENCODING", 31, enc_lo, "enc"), ("OP", 22, 16, "op"), ("CLAMP", 15, 15, "flag"),
            ("OP_SEL_HI2", 14, 14, "int"), ("OP_SEL", 13, 11, "mask3"), ("NEG_HI", 10, 8, "mask3"),
            ("VDST", 7, 0, "vgpr"), *_VOP3P_TAIL)


# The SDWA dword (domain.md §1.2; ISA guides "VOP_SDWA"): S0/S1 say SRC0/SRC1 are scalar (GFX9+).
_SDWA: tuple[Spec, ...] = (("S1", 63, 63, "flag"), ("SRC1_ABS", 61, 61, "flag"), ("SRC1_NEG", 60, 60, "flag"),
                           ("SRC1_SEXT", 59, 59, "flag"), ("SRC1_SEL", 58, 56, "sel"), ("S0", 55, 55, "flag"),
                           ("SRC0_ABS", 53, 53, "flag"), ("SRC0_NEG", 52, 52, "flag"), ("SRC0_SEXT", 51, 51, "flag"),
                           ("SRC0_SEL", 50, 48, "sel"))
_SDWA_DST: tuple[Spec, ...] = (("OMOD", 47, 46, "omod"), ("CLAMP", 45, 45, "flag"), ("DST_UNUSED", 44, 43, "unused"),
                               ("DST_SEL", 42, 40, "sel"))
_SDWAB: tuple[Spec, ...] = (("SD", 47, 47, "flag"), ("SDST", 46, 40, "sgpr7"))


def _dpp(base: int) -> tuple[Spec, ...]:
    return ((("ROW_MASK", base + 31, base + 28, "hex"), ("BANK_MASK", base + 27, base + 24, "hex"),
             ("SRC1_ABS", base + 23, base + 23, "flag"), ("SRC1_NEG", base + 22, base + 22, "flag"),
             ("SRC0_ABS", base + 21, base + 21, "flag"), ("SRC0_NEG", base + 20, base + 20, "flag"),
             ("BOUND_CTRL", base + 19, base + 19, "flag"), ("FI", base + 18, base + 18, "flag"),
             ("DPP_CTRL", base + 16, base + 8, "dpp_ctrl"), ("SRC0", base + 7, base, "vgpr")))


def _dpp8_dword(base: int) -> tuple[Spec, ...]:
    return (("DPP8_SEL", base + 31, base + 8, "dpp8"), ("SRC0", base + 7, base, "vgpr"))


_DS_TAIL: tuple[Spec, ...] = (("VDST", 63, 56, "vgpr"), ("DATA1", 55, 48, "vgpr"), ("DATA0", 47, 40, "vgpr"),
                              ("ADDR", 39, 32, "vgpr"))
# EXP and VINTRP keep one layout from gfx9 to gfx10 (gfx11 changes EXP and drops VINTRP)
_EXP_GFX9_10: tuple[Spec, ...] = (
    ("ENCODING", 31, 26, "enc"), ("VM", 12, 12, "flag"), ("DONE", 11, 11, "flag"), ("COMPR", 10, 10, "flag"),
    ("TGT", 9, 4, "int"), ("EN", 3, 0, "mask4"), ("VSRC3", 63, 56, "vgpr"), ("VSRC2", 55, 48, "vgpr"),
    ("VSRC1", 47, 40, "vgpr"), ("VSRC0", 39, 32, "vgpr"),
)
_VINTRP_GFX9_10: tuple[Spec, ...] = (
    ("ENCODING", 31, 26, "enc"), ("VDST", 25, 18, "vgpr"), ("OP", 17, 16, "op"), ("ATTR", 15, 10, "int"),
    ("ATTRCHAN", 9, 8, "int"), ("VSRC", 7, 0, "vgpr"),
)
_LAYOUTS: dict[str, dict[str, tuple[Spec, ...]]] = {
    "gfx9": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("IMM", 17, 17, "flag"), ("GLC", 16, 16, "flag"),
                 ("NV", 15, 15, "flag"), ("SOE", 14, 14, "flag"), ("SDATA", 12, 6, "sgpr7"), ("SBASE", 5, 0, "sbase"),
                 ("SOFFSET", 63, 57, "sgpr7"), ("OFFSET", 52, 32, "s21")),
        "VOP3": _vop3(26, True),
        "VOP3P": _vop3p(23),
        "DS": (("ENCODING", 31, 26, "enc"), ("ACC", 25, 25, "flag"), ("OP", 24, 17, "op"), ("GDS", 16, 16, "flag"),
               ("OFFSET1", 15, 8, "int"), ("OFFSET0", 7, 0, "int"), *_DS_TAIL),
        "MUBUF": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("SLC", 17, 17, "flag"), ("LDS", 16, 16, "flag"),
                  ("GLC", 14, 14, "flag"), ("IDXEN", 13, 13, "flag"), ("OFFEN", 12, 12, "flag"),
                  ("OFFSET", 11, 0, "int"), ("SOFFSET", 63, 56, "ssrc"), ("TFE", 55, 55, "flag"),
                  ("SRSRC", 52, 48, "srsrc"), ("VDATA", 47, 40, "vgpr"), ("VADDR", 39, 32, "vgpr")),
        "MTBUF": (("ENCODING", 31, 26, "enc"), ("NFMT", 25, 23, "int"), ("DFMT", 22, 19, "int"), ("OP", 18, 15, "op"),
                  ("GLC", 14, 14, "flag"), ("IDXEN", 13, 13, "flag"), ("OFFEN", 12, 12, "flag"),
                  ("OFFSET", 11, 0, "int"), ("SOFFSET", 63, 56, "ssrc"), ("TFE", 55, 55, "flag"),
                  ("SLC", 54, 54, "flag"), ("SRSRC", 52, 48, "srsrc"), ("VDATA", 47, 40, "vgpr"),
                  ("VADDR", 39, 32, "vgpr")),
        "FLAT": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("SLC", 17, 17, "flag"), ("GLC", 16, 16, "flag"),
                 ("SEG", 15, 14, "seg"), ("LDS", 13, 13, "flag"), ("OFFSET", 12, 0, "s13"), ("VDST", 63, 56, "vgpr"),
                 ("NV", 55, 55, "flag"), ("SADDR", 54, 48, "saddr"), ("DATA", 47, 40, "vgpr"),
                 ("ADDR", 39, 32, "vgpr")),
        "EXP": _EXP_GFX9_10,
        "VINTRP": _VINTRP_GFX9_10,
    },
    "gfx10": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GLC", 16, 16, "flag"), ("DLC", 14, 14, "flag"),
                 ("SDATA", 12, 6, "sgpr7"), ("SBASE", 5, 0, "sbase"), ("SOFFSET", 63, 57, "sgpr7"),
                 ("OFFSET", 52, 32, "s21")),
        "VOP3": _vop3(26, True),
        "VOP3P": _vop3p(24),
        "DS": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GDS", 17, 17, "flag"),
               ("OFFSET1", 15, 8, "int"), ("OFFSET0", 7, 0, "int"), *_DS_TAIL),
        "MUBUF": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("LDS", 16, 16, "flag"), ("DLC", 15, 15, "flag"),
                  ("GLC", 14, 14, "flag"), ("IDXEN", 13, 13, "flag"), ("OFFEN", 12, 12, "flag"),
                  ("OFFSET", 11, 0, "int"), ("SOFFSET", 63, 56, "ssrc"), ("TFE", 55, 55, "flag"),
                  ("SLC", 54, 54, "flag"), ("SRSRC", 52, 48, "srsrc"), ("VDATA", 47, 40, "vgpr"),
                  ("VADDR", 39, 32, "vgpr")),
        "FLAT": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("SLC", 17, 17, "flag"), ("GLC", 16, 16, "flag"),
                 ("SEG", 15, 14, "seg"), ("LDS", 13, 13, "flag"), ("DLC", 12, 12, "flag"), ("OFFSET", 11, 0, "s12"),
                 ("VDST", 63, 56, "vgpr"), ("NV", 55, 55, "flag"), ("SADDR", 54, 48, "saddr"),
                 ("DATA", 47, 40, "vgpr"), ("ADDR", 39, 32, "vgpr")),
        "EXP": _EXP_GFX9_10,
        "VINTRP": _VINTRP_GFX9_10,
    },
    "gfx11": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GLC", 14, 14, "flag"), ("DLC", 13, 13, "flag"),
                 ("SDATA", 12, 6, "sgpr7"), ("SBASE", 5, 0, "sbase"), ("SOFFSET", 63, 57, "sgpr7"),
                 ("OFFSET", 52, 32, "s21")),
        "VOP3": _vop3(26, True),
        "VOP3P": _vop3p(24),
        "DS": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GDS", 17, 17, "flag"),
               ("OFFSET1", 15, 8, "int"), ("OFFSET0", 7, 0, "int"), *_DS_TAIL),
        "MUBUF": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("LDS", 16, 16, "flag"), ("GLC", 14, 14, "flag"),
                  ("DLC", 13, 13, "flag"), ("SLC", 12, 12, "flag"), ("OFFSET", 11, 0, "int"),
                  ("SOFFSET", 63, 56, "ssrc"), ("IDXEN", 55, 55, "flag"), ("OFFEN", 54, 54, "flag"),
                  ("TFE", 53, 53, "flag"), ("SRSRC", 52, 48, "srsrc"), ("VDATA", 47, 40, "vgpr"),
                  ("VADDR", 39, 32, "vgpr")),
        "FLAT": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("SEG", 17, 16, "seg"), ("SLC", 15, 15, "flag"),
                 ("GLC", 14, 14, "flag"), ("DLC", 13, 13, "flag"), ("OFFSET", 12, 0, "s13"), ("VDST", 63, 56, "vgpr"),
                 ("SVE", 55, 55, "flag"), ("SADDR", 54, 48, "saddr"), ("DATA", 47, 40, "vgpr"),
                 ("ADDR", 39, 32, "vgpr")),
        "EXP": (("ENCODING", 31, 26, "enc"), ("ROW_EN", 13, 13, "flag"), ("DONE", 11, 11, "flag"),
                ("TGT", 9, 4, "int"), ("EN", 3, 0, "mask4"), ("VSRC3", 63, 56, "vgpr"), ("VSRC2", 55, 48, "vgpr"),
                ("VSRC1", 47, 40, "vgpr"), ("VSRC0", 39, 32, "vgpr")),
        "VOPD": (("ENCODING", 31, 26, "enc"), ("OPX", 25, 22, "op"), ("OPY", 21, 17, "op"),
                 ("VSRCX1", 16, 9, "vgpr"), ("SRCX0", 8, 0, "src9"), ("VDSTX", 63, 56, "vgpr"),
                 ("VDSTY", 55, 49, "int"), ("VSRCY1", 48, 41, "vgpr"), ("SRCY0", 40, 32, "src9")),
    },
    "gfx12": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("TH", 24, 23, "int"), ("SCOPE", 22, 21, "int"), ("OP", 20, 13, "op"),
                 ("SDATA", 12, 6, "sgpr7"), ("SBASE", 5, 0, "sbase"), ("SOFFSET", 63, 57, "sgpr7"),
                 ("OFFSET", 55, 32, "s24")),
    },
}
# GFX12 keeps the GFX11 layouts of the formats it did not change.
for _name in ("VOP3", "VOP3P", "DS", "EXP", "VOPD"):
    _LAYOUTS["gfx12"][_name] = _LAYOUTS["gfx11"][_name]
_COMMON: dict[str, tuple[Spec, ...]] = {"SOP2": _SOP2, "SOPK": _SOPK, "SOP1": _SOP1, "SOPC": _SOPC, "SOPP": _SOPP,
                                        "VOP2": _VOP2, "VOP1": _VOP1, "VOPC": _VOPC}

# Opcodes whose instruction carries a literal dword although no source field says 255 (llvm-mc-19):
# VOP2 v_madmk/madak (GFX9: 23, 24, 36, 37; GFX940 reuses 23/24 for v_fmamk/fmaak_f32),
# v_fmamk/fmaak (GFX10+: 44, 45, 55, 56; GFX10.1 also v_madmk/madak_f32 32, 33),
# SOPK s_setreg_imm32_b32 (GFX9: 20, GFX10: 21, GFX11+: 19), VOPD OPX/OPY fmaak = 1, fmamk = 2.
_VOP2_LITERAL_OPS = {"gfx9": {23, 24, 36, 37}, "gfx10": {32, 33, 44, 45, 55, 56}, "gfx11": {44, 45, 55, 56},
                     "gfx12": {44, 45, 55, 56}}
_SETREG_IMM32 = {"gfx9": 20, "gfx10": 21, "gfx11": 19, "gfx12": 19}

# Encoding identifiers of the 64-bit-and-longer formats, by layout family (top 6 bits unless noted).
_TOP6 = {
    "gfx9": {0x30: "SMEM", 0x31: "EXP", 0x34: "VOP3", 0x35: "VINTRP", 0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF",
             0x3A: "MTBUF", 0x3C: "MIMG"},
    "gfx10": {0x3D: "SMEM", 0x3E: "EXP", 0x35: "VOP3", 0x32: "VINTRP", 0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF",
              0x3A: "MTBUF", 0x3C: "MIMG"},
    "gfx11": {0x3D: "SMEM", 0x3E: "EXP", 0x35: "VOP3", 0x32: "VOPD", 0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF",
              0x3A: "MTBUF", 0x3C: "MIMG"},
    "gfx12": {0x3D: "SMEM", 0x3E: "EXP", 0x35: "VOP3", 0x32: "VOPD", 0x36: "DS", 0x31: "VBUFFER", 0x34: "VIMAGE",
              0x39: "VSAMPLE"},
}
#: the layout families this decoder knows (``ArchSpec.encoding_layout`` names one of them)
LAYOUTS = tuple(_TOP6)
_TOP8 = {"gfx9": {}, "gfx10": {0xCC: "VOP3P"}, "gfx11": {0xCC: "VOP3P", 0xCD: "VINTERP", 0xCE: "LDSDIR"},
         "gfx12": {0xCC: "VOP3P", 0xCD: "VINTERP", 0xCE: "VDSDIR", 0xEC: "VFLAT", 0xED: "VSCRATCH",
                   0xEE: "VGLOBAL"}}
#: dwords of each format before literal / NSA / DPP / SDWA dwords
_DWORDS = {"SOP1": 1, "SOP2": 1, "SOPK": 1, "SOPC": 1, "SOPP": 1, "VOP1": 1, "VOP2": 1, "VOPC": 1, "LDSDIR": 1,
           "VDSDIR": 1, "VINTRP": 1, "SMEM": 2, "VOP3": 2, "VOP3P": 2, "VOPD": 2, "VINTERP": 2, "DS": 2, "FLAT": 2,
           "MUBUF": 2, "MTBUF": 2, "MIMG": 2, "EXP": 2, "VBUFFER": 3, "VIMAGE": 3, "VSAMPLE": 3, "VFLAT": 3,
           "VSCRATCH": 3, "VGLOBAL": 3}


def _field(bits: int, spec: Spec, family: str) -> Field:
    name, hi, lo, kind = spec
    value = (bits >> lo) & ((1 << (hi - lo + 1)) - 1)
    return Field(name, hi, lo, value, KINDS[kind](value, family))


def _format(w0: int, family: str, generation: int) -> str:
    if w0 >> 23 == 0x17D:
        return "SOP1"
    if w0 >> 23 == 0x17E:
        return "SOPC"
    if w0 >> 23 == 0x17F:
        return "SOPP"
    if w0 >> 28 == 0xB:
        return "SOPK"
    if w0 >> 30 == 0b10:
        return "SOP2"
    if w0 >> 31 == 0:
        if w0 >> 25 == 0x3F:
            return "VOP1"
        if w0 >> 25 == 0x3E:
            return "VOPC"
        return "VOP2"
    if family == "gfx9" and w0 >> 23 == 0x1A7:
        return "VOP3P"
    top8 = _TOP8[family].get(w0 >> 24)
    if top8:
        return top8
    fmt = _TOP6[family].get(w0 >> 26)
    if fmt is None or (generation < 8 and fmt == "SMEM"):
        raise DecodeError(f"{w0:08X}: not an instruction encoding this decoder knows for gfx{generation}")
    return fmt


def _extra_dwords(fmt: str, words: Sequence[int], family: str) -> tuple[str, int]:
    """(refined format, dwords after the base ones) from the first dword(s)."""
    w0 = words[0]
    if fmt in ("VOP1", "VOP2", "VOPC"):
        src0 = w0 & 0x1FF
        if src0 == 0xF9 and family in ("gfx9", "gfx10"):
            return "SDWA", 1
        if src0 == 0xFA:
            return "DPP", 1
        if src0 in (0xE9, 0xEA) and family != "gfx9":
            return "DPP8", 1
        if src0 == 0xFF or (fmt == "VOP2" and (w0 >> 25) & 0x3F in _VOP2_LITERAL_OPS[family]):
            return fmt, 1
        return fmt, 0
    if fmt in ("SOP1", "SOP2", "SOPC"):
        srcs = [w0 & 0xFF] if fmt == "SOP1" else [w0 & 0xFF, (w0 >> 8) & 0xFF]
        return fmt, int(0xFF in srcs)
    if fmt == "SOPK":
        return fmt, int((w0 >> 23) & 0x1F == _SETREG_IMM32[family])
    if fmt in ("VOP3", "VOP3P") and family != "gfx9" and len(words) > 1:
        w1 = words[1]
        srcs = [w1 & 0x1FF, (w1 >> 9) & 0x1FF, (w1 >> 18) & 0x1FF]
        if srcs[0] in (0xFA, 0xE9, 0xEA) and family in ("gfx11", "gfx12"):
            return fmt + ("_DPP" if srcs[0] == 0xFA else "_DPP8"), 1
        return fmt, int(0xFF in srcs)
    if fmt == "VOPD" and len(words) > 1:
        opx, opy = (w0 >> 22) & 0xF, (w0 >> 17) & 0x1F
        lit = (w0 & 0x1FF) == 0xFF or (words[1] & 0x1FF) == 0xFF or opx in (1, 2) or opy in (1, 2)
        return fmt, int(lit)
    if fmt == "MIMG":
        if family == "gfx10":
            return fmt, (w0 >> 1) & 3  # NSA: number of extra address dwords
        if family == "gfx11":
            return fmt, w0 & 1
    return fmt, 0


def _layout(fmt: str, family: str) -> tuple[Spec, ...] | None:
    base = fmt.split("_")[0] if fmt.startswith(("VOP3_", "VOP3P_")) else fmt
    if base in ("SDWA", "DPP", "DPP8"):
        return None
    if base in _COMMON:
        return _COMMON[base]
    return _LAYOUTS.get(family, {}).get(base)


def decode(words: Sequence[int], generation: int, layout: str) -> Decoded:
    """Decode the instruction that starts at ``words[0]`` (extra words are ignored).

    ``layout`` is the target's field layout family (``ArchSpec.encoding_layout`` in the arch data).
    """
    if not words:
        raise DecodeError("no words to decode")
    if layout not in LAYOUTS:
        raise DecodeError(f"isalens has no field layouts for {layout} encodings (known: {', '.join(LAYOUTS)})")
    family = layout
    fmt = _format(words[0], family, generation)
    base = _DWORDS[fmt]
    if len(words) < base:
        raise DecodeError(f"{words[0]:08X}: a {fmt} instruction needs {base} dwords, got {len(words)}")
    fmt, extra = _extra_dwords(fmt, words, family)
    total = base + extra
    if len(words) < total:
        raise DecodeError(f"{words[0]:08X}: a {fmt} instruction needs {total} dwords, got {len(words)}")
    mine = tuple(words[:total])
    bits = 0
    for i, w in enumerate(mine):
        bits |= w << (32 * i)
    fields: list[Field] = []
    if fmt in ("SDWA", "DPP", "DPP8"):
        vop = _format(words[0], family, generation)
        for spec in _COMMON[vop]:
            if spec[0] == "SRC0":
                spec = ("SRC0_ENC", spec[1], spec[2], spec[3])  # holds the SDWA/DPP marker, not an operand
            if not (spec[0] == "VSRC1" and fmt == "SDWA"):
                fields.append(_field(bits, spec, family))
        if fmt == "SDWA":
            fields.extend(_sdwa_fields(bits, vop, family, generation))
        else:
            fields.extend(_field(bits, s, family) for s in (_dpp(32) if fmt == "DPP" else _dpp8_dword(32)))
    else:
        specs = _layout(fmt, family) or ()
        dpp = fmt.endswith(("_DPP", "_DPP8"))
        for spec in specs:
            if dpp and spec[0] == "SRC0":
                spec = ("SRC0_ENC", spec[1], spec[2], spec[3])  # the DPP marker; SRC0 is in the DPP dword
            fields.append(_field(bits, spec, family))
        if fmt.endswith("_DPP"):
            fields.extend(_field(bits, s, family) for s in _dpp(64))
        elif fmt.endswith("_DPP8"):
            fields.extend(_field(bits, s, family) for s in _dpp8_dword(64))
        elif fmt == "MIMG" and extra:
            fields.append(Field("NSA", 32 * total - 1, 64, extra, f"{extra} extra address dword(s)"))
        elif extra:
            fields.append(Field("LITERAL", 32 * total - 1, 32 * (total - 1), mine[-1], f"{mine[-1]:#010x}"))
    return Decoded(fmt, mine, tuple(fields))


def _sdwa_fields(bits: int, vop: str, family: str, generation: int) -> list[Field]:
    """The SDWA dword; VOPC writes an SGPR mask (SD, SDST) instead of DST_SEL/DST_UNUSED from GFX9 on."""
    out = [_field(bits, s, family) for s in _SDWA]
    tail = _SDWAB if vop == "VOPC" and generation >= 9 else _SDWA_DST
    out.extend(_field(bits, s, family) for s in tail)
    # SRC0 is a VGPR, or a scalar operand when S0 is set; likewise VSRC1 of the VOP dword with S1
    src0 = (bits >> 32) & 0xFF
    out.append(Field("SRC0", 39, 32, src0, _scalar_name(src0, family) if (bits >> 55) & 1 else f"v{src0}"))
    if vop != "VOP1":
        vsrc1 = (bits >> 9) & 0xFF
        out.append(Field("SRC1", 16, 9, vsrc1, _scalar_name(vsrc1, family) if (bits >> 63) & 1 else f"v{vsrc1}"))
    return out


def split_words(words: Sequence[int], generation: int, layout: str) -> list[Decoded]:
    """Decode a whole stream of dwords into instructions, in order."""
    out: list[Decoded] = []
    i = 0
    while i < len(words):
        d = decode(words[i:], generation, layout)
        out.append(d)
        i += len(d.words)
    return out
