"""The bit layouts of AMDGPU instruction formats, per layout family (GFX6/GFX7, GFX8/GFX9/CDNA, GFX10, GFX11, GFX12),
for :mod:`.fields`: field names and bit ranges, the encoding identifiers that tell formats apart, each
format's dword count and the opcodes whose instruction carries a literal dword.

Bit positions are the "Microcode Formats" chapters of AMD's ISA reference guides (Vega, CDNA3, RDNA2,
RDNA3, RDNA4), confirmed with ``llvm-mc-19 -show-encoding`` (``tests/oracle/test_field_decoder.py``).
"""

from __future__ import annotations

# (name, hi, lo, kind) with bit numbers over the whole instruction: dword 1 is bits 63:32, dword 2 95:64.
Spec = tuple[str, int, int, str]

SOP2: tuple[Spec, ...] = (("ENCODING", 31, 30, "enc"), ("OP", 29, 23, "op"), ("SDST", 22, 16, "sgpr7"),
                           ("SSRC1", 15, 8, "ssrc"), ("SSRC0", 7, 0, "ssrc"))
SOPK: tuple[Spec, ...] = (("ENCODING", 31, 28, "enc"), ("OP", 27, 23, "op"), ("SDST", 22, 16, "sgpr7"),
                           ("SIMM16", 15, 0, "simm16"))
SOP1: tuple[Spec, ...] = (("ENCODING", 31, 23, "enc"), ("SDST", 22, 16, "sgpr7"), ("OP", 15, 8, "op"),
                           ("SSRC0", 7, 0, "ssrc"))
SOPC: tuple[Spec, ...] = (("ENCODING", 31, 23, "enc"), ("OP", 22, 16, "op"), ("SSRC1", 15, 8, "ssrc"),
                           ("SSRC0", 7, 0, "ssrc"))
SOPP: tuple[Spec, ...] = (("ENCODING", 31, 23, "enc"), ("OP", 22, 16, "op"), ("SIMM16", 15, 0, "simm16"))
VOP2: tuple[Spec, ...] = (("ENCODING", 31, 31, "enc"), ("OP", 30, 25, "op"), ("VDST", 24, 17, "vgpr"),
                           ("VSRC1", 16, 9, "vgpr"), ("SRC0", 8, 0, "src9"))
VOP1: tuple[Spec, ...] = (("ENCODING", 31, 25, "enc"), ("VDST", 24, 17, "vgpr"), ("OP", 16, 9, "op"),
                           ("SRC0", 8, 0, "src9"))
VOPC: tuple[Spec, ...] = (("ENCODING", 31, 25, "enc"), ("OP", 24, 17, "op"), ("VSRC1", 16, 9, "vgpr"),
                           ("SRC0", 8, 0, "src9"))
VOP3_TAIL: tuple[Spec, ...] = (("NEG", 63, 61, "mask3"), ("OMOD", 60, 59, "omod"), ("SRC2", 58, 50, "src9"),
                                ("SRC1", 49, 41, "src9"), ("SRC0", 40, 32, "src9"))
VOP3P_TAIL: tuple[Spec, ...] = (("NEG", 63, 61, "mask3"), ("OP_SEL_HI", 60, 59, "mask2"),
                                 ("SRC2", 58, 50, "src9"), ("SRC1", 49, 41, "src9"), ("SRC0", 40, 32, "src9"))


def vop3_layout(enc_hi: int, op_sel: bool) -> tuple[Spec, ...]:
    head: tuple[Spec, ...] = (("ENCODING", 31, enc_hi, "enc"), ("OP", 25, 16, "op"), ("CLAMP", 15, 15, "flag"))
    mid: tuple[Spec, ...] = (("OP_SEL", 14, 11, "mask4"),) if op_sel else ()
    return (*head, *mid, ("ABS", 10, 8, "mask3"), ("VDST", 7, 0, "vgpr"), *VOP3_TAIL)


def vop3p_layout(enc_lo: int) -> tuple[Spec, ...]:
    return (("ENCODING", 31, enc_lo, "enc"), ("OP", 22, 16, "op"), ("CLAMP", 15, 15, "flag"),
            ("OP_SEL_HI2", 14, 14, "int"), ("OP_SEL", 13, 11, "mask3"), ("NEG_HI", 10, 8, "mask3"),
            ("VDST", 7, 0, "vgpr"), *VOP3P_TAIL)


# The SDWA dword (domain.md §1.2; ISA guides "VOP_SDWA"): S0/S1 say SRC0/SRC1 are scalar (GFX9+).
SDWA: tuple[Spec, ...] = (("S1", 63, 63, "flag"), ("SRC1_ABS", 61, 61, "flag"), ("SRC1_NEG", 60, 60, "flag"),
                           ("SRC1_SEXT", 59, 59, "flag"), ("SRC1_SEL", 58, 56, "sel"), ("S0", 55, 55, "flag"),
                           ("SRC0_ABS", 53, 53, "flag"), ("SRC0_NEG", 52, 52, "flag"), ("SRC0_SEXT", 51, 51, "flag"),
                           ("SRC0_SEL", 50, 48, "sel"))
SDWA_DST: tuple[Spec, ...] = (("OMOD", 47, 46, "omod"), ("CLAMP", 45, 45, "flag"), ("DST_UNUSED", 44, 43, "unused"),
                               ("DST_SEL", 42, 40, "sel"))
SDWAB: tuple[Spec, ...] = (("SD", 47, 47, "flag"), ("SDST", 46, 40, "sgpr7"))


def dpp_layout(base: int) -> tuple[Spec, ...]:
    return ((("ROW_MASK", base + 31, base + 28, "hex"), ("BANK_MASK", base + 27, base + 24, "hex"),
             ("SRC1_ABS", base + 23, base + 23, "flag"), ("SRC1_NEG", base + 22, base + 22, "flag"),
             ("SRC0_ABS", base + 21, base + 21, "flag"), ("SRC0_NEG", base + 20, base + 20, "flag"),
             ("BOUND_CTRL", base + 19, base + 19, "flag"), ("FI", base + 18, base + 18, "flag"),
             ("DPP_CTRL", base + 16, base + 8, "dpp_ctrl"), ("SRC0", base + 7, base, "vgpr")))


def dpp8_dword_layout(base: int) -> tuple[Spec, ...]:
    return (("DPP8_SEL", base + 31, base + 8, "dpp8"), ("SRC0", base + 7, base, "vgpr"))


DS_TAIL: tuple[Spec, ...] = (("VDST", 63, 56, "vgpr"), ("DATA1", 55, 48, "vgpr"), ("DATA0", 47, 40, "vgpr"),
                              ("ADDR", 39, 32, "vgpr"))
# DS and the SMEM fields after GLC/DLC keep one layout from gfx10 to gfx11
DS_GFX10_11: tuple[Spec, ...] = (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GDS", 17, 17, "flag"),
                                 ("OFFSET1", 15, 8, "int"), ("OFFSET0", 7, 0, "int"), *DS_TAIL)
SMEM_TAIL_GFX10_11: tuple[Spec, ...] = (("SDATA", 12, 6, "sgpr7"), ("SBASE", 5, 0, "sbase"),
                                        ("SOFFSET", 63, 57, "sgpr7"), ("OFFSET", 52, 32, "s21"))
# EXP and VINTRP keep one layout from gfx9 to gfx10 (gfx11 changes EXP and drops VINTRP)
EXP_GFX9_10: tuple[Spec, ...] = (
    ("ENCODING", 31, 26, "enc"), ("VM", 12, 12, "flag"), ("DONE", 11, 11, "flag"), ("COMPR", 10, 10, "flag"),
    ("TGT", 9, 4, "int"), ("EN", 3, 0, "mask4"), ("VSRC3", 63, 56, "vgpr"), ("VSRC2", 55, 48, "vgpr"),
    ("VSRC1", 47, 40, "vgpr"), ("VSRC0", 39, 32, "vgpr"),
)
VINTRP_GFX9_10: tuple[Spec, ...] = (
    ("ENCODING", 31, 26, "enc"), ("VDST", 25, 18, "vgpr"), ("OP", 17, 16, "op"), ("ATTR", 15, 10, "int"),
    ("ATTRCHAN", 9, 8, "int"), ("VSRC", 7, 0, "vgpr"),
)
LAYOUT_TABLES: dict[str, dict[str, tuple[Spec, ...]]] = {
    # GCN1/GCN2 (gfx6/gfx7; SI/CI ISA guides, "Microcode Formats", each field checked on llvm-mc-19 -show-encoding
    # words for gfx600/gfx700, docs/decoder.md "gfx6/gfx7"): 32-bit SMRD, a 9-bit VOP3 opcode with CLAMP at 11,
    # MUBUF's ADDR64, DS's GDS at 17; CI's FLAT has no offset
    "gfx6": {
        "SMRD": (("ENCODING", 31, 27, "enc"), ("OP", 26, 22, "op"), ("SDST", 21, 15, "sgpr7"),
                 ("SBASE", 14, 9, "sbase"), ("IMM", 8, 8, "flag"), ("OFFSET", 7, 0, "int")),
        "VOP3": (("ENCODING", 31, 26, "enc"), ("OP", 25, 17, "op"), ("CLAMP", 11, 11, "flag"),
                 ("ABS", 10, 8, "mask3"), ("VDST", 7, 0, "vgpr"), *VOP3_TAIL),  # VOP3b: SDST 14:8, no CLAMP/ABS
        "DS": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GDS", 17, 17, "flag"),
               ("OFFSET1", 15, 8, "int"), ("OFFSET0", 7, 0, "int"), *DS_TAIL),
        "MUBUF": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("LDS", 16, 16, "flag"),
                  ("ADDR64", 15, 15, "flag"), ("GLC", 14, 14, "flag"), ("IDXEN", 13, 13, "flag"),
                  ("OFFEN", 12, 12, "flag"), ("OFFSET", 11, 0, "int"), ("SOFFSET", 63, 56, "ssrc"),
                  ("TFE", 55, 55, "flag"), ("SLC", 54, 54, "flag"), ("SRSRC", 52, 48, "srsrc"),
                  ("VDATA", 47, 40, "vgpr"), ("VADDR", 39, 32, "vgpr")),
        "MTBUF": (("ENCODING", 31, 26, "enc"), ("NFMT", 25, 23, "int"), ("DFMT", 22, 19, "int"), ("OP", 18, 16, "op"),
                  ("ADDR64", 15, 15, "flag"), ("GLC", 14, 14, "flag"), ("IDXEN", 13, 13, "flag"),
                  ("OFFEN", 12, 12, "flag"), ("OFFSET", 11, 0, "int"), ("SOFFSET", 63, 56, "ssrc"),
                  ("TFE", 55, 55, "flag"), ("SLC", 54, 54, "flag"), ("SRSRC", 52, 48, "srsrc"),
                  ("VDATA", 47, 40, "vgpr"), ("VADDR", 39, 32, "vgpr")),
        "FLAT": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("SLC", 17, 17, "flag"), ("GLC", 16, 16, "flag"),
                 ("VDST", 63, 56, "vgpr"), ("TFE", 55, 55, "flag"), ("DATA", 47, 40, "vgpr"),
                 ("ADDR", 39, 32, "vgpr")),
        "EXP": EXP_GFX9_10,
        "VINTRP": VINTRP_GFX9_10,
    },
    "gfx9": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("IMM", 17, 17, "flag"), ("GLC", 16, 16, "flag"),
                 ("NV", 15, 15, "flag"), ("SOE", 14, 14, "flag"), ("SDATA", 12, 6, "sgpr7"), ("SBASE", 5, 0, "sbase"),
                 ("SOFFSET", 63, 57, "sgpr7"), ("OFFSET", 52, 32, "s21")),
        "VOP3": vop3_layout(26, True),
        "VOP3P": vop3p_layout(23),
        "DS": (("ENCODING", 31, 26, "enc"), ("ACC", 25, 25, "flag"), ("OP", 24, 17, "op"), ("GDS", 16, 16, "flag"),
               ("OFFSET1", 15, 8, "int"), ("OFFSET0", 7, 0, "int"), *DS_TAIL),
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
        "EXP": EXP_GFX9_10,
        "VINTRP": VINTRP_GFX9_10,
    },
    "gfx10": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GLC", 16, 16, "flag"), ("DLC", 14, 14, "flag"),
                 *SMEM_TAIL_GFX10_11),
        "VOP3": vop3_layout(26, True),
        "VOP3P": vop3p_layout(24),
        "DS": DS_GFX10_11,
        "MUBUF": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("LDS", 16, 16, "flag"), ("DLC", 15, 15, "flag"),
                  ("GLC", 14, 14, "flag"), ("IDXEN", 13, 13, "flag"), ("OFFEN", 12, 12, "flag"),
                  ("OFFSET", 11, 0, "int"), ("SOFFSET", 63, 56, "ssrc"), ("TFE", 55, 55, "flag"),
                  ("SLC", 54, 54, "flag"), ("SRSRC", 52, 48, "srsrc"), ("VDATA", 47, 40, "vgpr"),
                  ("VADDR", 39, 32, "vgpr")),
        "FLAT": (("ENCODING", 31, 26, "enc"), ("OP", 24, 18, "op"), ("SLC", 17, 17, "flag"), ("GLC", 16, 16, "flag"),
                 ("SEG", 15, 14, "seg"), ("LDS", 13, 13, "flag"), ("DLC", 12, 12, "flag"), ("OFFSET", 11, 0, "s12"),
                 ("VDST", 63, 56, "vgpr"), ("NV", 55, 55, "flag"), ("SADDR", 54, 48, "saddr"),
                 ("DATA", 47, 40, "vgpr"), ("ADDR", 39, 32, "vgpr")),
        "EXP": EXP_GFX9_10,
        "VINTRP": VINTRP_GFX9_10,
    },
    "gfx11": {
        "SMEM": (("ENCODING", 31, 26, "enc"), ("OP", 25, 18, "op"), ("GLC", 14, 14, "flag"), ("DLC", 13, 13, "flag"),
                 *SMEM_TAIL_GFX10_11),
        "VOP3": vop3_layout(26, True),
        "VOP3P": vop3p_layout(24),
        "DS": DS_GFX10_11,
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
    LAYOUT_TABLES["gfx12"][_name] = LAYOUT_TABLES["gfx11"][_name]
COMMON: dict[str, tuple[Spec, ...]] = {"SOP2": SOP2, "SOPK": SOPK, "SOP1": SOP1, "SOPC": SOPC, "SOPP": SOPP,
                                        "VOP2": VOP2, "VOP1": VOP1, "VOPC": VOPC}

# Opcodes whose instruction carries a literal dword although no source field says 255 (llvm-mc-19):
# VOP2 v_madmk/madak (GFX9: 23, 24, 36, 37; GFX940 reuses 23/24 for v_fmamk/fmaak_f32),
# GFX6/GFX7 v_madmk/madak_f32 32, 33, SOPK s_setreg_imm32_b32 21,
# v_fmamk/fmaak (GFX10+: 44, 45, 55, 56; GFX10.1 also v_madmk/madak_f32 32, 33),
# SOPK s_setreg_imm32_b32 (GFX9: 20, GFX10: 21, GFX11+: 19), VOPD OPX/OPY fmaak = 1, fmamk = 2.
VOP2_LITERAL_OPS = {"gfx6": {32, 33}, "gfx9": {23, 24, 36, 37}, "gfx10": {32, 33, 44, 45, 55, 56},
                    "gfx11": {44, 45, 55, 56}, "gfx12": {44, 45, 55, 56}}
SETREG_IMM32 = {"gfx6": 21, "gfx9": 20, "gfx10": 21, "gfx11": 19, "gfx12": 19}

# Encoding identifiers of the 64-bit-and-longer formats, by layout family (top 6 bits unless noted).
TOP6 = {
    # SMRD is 5 bits, 11000: both 0x30 and 0x31
    "gfx6": {0x30: "SMRD", 0x31: "SMRD", 0x32: "VINTRP", 0x34: "VOP3", 0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF",
             0x3A: "MTBUF", 0x3C: "MIMG", 0x3E: "EXP"},
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
LAYOUTS = tuple(TOP6)
TOP8 = {"gfx6": {}, "gfx9": {}, "gfx10": {0xCC: "VOP3P"},
        "gfx11": {0xCC: "VOP3P", 0xCD: "VINTERP", 0xCE: "LDSDIR"},
         "gfx12": {0xCC: "VOP3P", 0xCD: "VINTERP", 0xCE: "VDSDIR", 0xEC: "VFLAT", 0xED: "VSCRATCH",
                   0xEE: "VGLOBAL"}}
#: dwords of each format before literal / NSA / DPP / SDWA dwords
DWORDS = {"SOP1": 1, "SOP2": 1, "SOPK": 1, "SOPC": 1, "SOPP": 1, "VOP1": 1, "VOP2": 1, "VOPC": 1, "LDSDIR": 1,
           "VDSDIR": 1, "VINTRP": 1, "SMRD": 1,
           "SMEM": 2, "VOP3": 2, "VOP3P": 2, "VOPD": 2, "VINTERP": 2, "DS": 2, "FLAT": 2,
           "MUBUF": 2, "MTBUF": 2, "MIMG": 2, "EXP": 2, "VBUFFER": 3, "VIMAGE": 3, "VSAMPLE": 3, "VFLAT": 3,
           "VSCRATCH": 3, "VGLOBAL": 3}
