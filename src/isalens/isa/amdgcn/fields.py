"""Our own field decoder for AMDGPU machine code: split a dword stream into instructions and name every
field of each (format, opcode number, registers, modifiers), for GFX6/GFX7, GFX8/GFX9/CDNA, GFX10, GFX11 and GFX12.

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
from typing import NamedTuple

from isalens.errors import InputError
from isalens.isa.amdgcn.field_layouts import (
    COMMON,
    DWORDS,
    LAYOUT_TABLES,
    LAYOUTS,
    SDWA,
    SDWA_DST,
    SDWAB,
    SETREG_IMM32,
    TOP6,
    TOP8,
    VOP2_LITERAL_OPS,
    Spec,
    dpp8_dword_layout,
    dpp_layout,
)

__all__ = ["LAYOUTS", "DecodeError", "Decoded", "Field", "decode", "split_words"]


class DecodeError(InputError):
    """Words that do not form a complete instruction."""


class Field(NamedTuple):
    """One field: its name, instruction bit range (dword 1 = bits 63:32 ...), raw value and meaning. A named
    tuple, not a frozen dataclass: our decoder makes ~8 per distinct encoding (a million for 10 MB of
    librocsparse), and a frozen dataclass's constructor cost three times a tuple's (docs/performance.md,
    eighteenth session)."""

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


def inline_integer(code: int) -> str | None:
    """The inline integer constant a source operand code stands for (128-192: 0..64, 193-208: -1..-16)."""
    if 128 <= code <= 192:
        return str(code - 128)
    if 193 <= code <= 208:
        return str(192 - code)
    return None


def _scalar_name(code: int, family: str) -> str:
    """Name of an 8-bit scalar operand code (SGPRs, specials, inline constants) — ISA guides, "Scalar
    operands" / "SSRC" tables; M0 and NULL swapped places on GFX11."""
    if family == "gfx9" and code in (102, 103):
        return ("flat_scratch_lo", "flat_scratch_hi")[code - 102]
    if family == "gfx9" and code in (104, 105):
        return ("xnack_mask_lo", "xnack_mask_hi")[code - 104]
    if family == "gfx6" and (code in (104, 105, 125) or 235 <= code <= 239):
        # SI has s0-s103; CI's 104/105 are flat_scratch (LLVM: FLAT_SCR_LO/HI_ci); no null, no src_*_base
        return "flat_scratch_lo (gfx7)" if code == 104 else "flat_scratch_hi (gfx7)" if code == 105 else "reserved"
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
    integer = inline_integer(code)
    if integer is not None:
        return integer
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

def _field(bits: int, spec: Spec, family: str, meanings: bool = True) -> Field:
    name, hi, lo, kind = spec
    value = (bits >> lo) & ((1 << (hi - lo + 1)) - 1)
    return Field(name, hi, lo, value, KINDS[kind](value, family) if meanings else "")


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
    top8 = TOP8[family].get(w0 >> 24)
    if top8:
        return top8
    fmt = TOP6[family].get(w0 >> 26)
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
        if src0 == 0xFF or (fmt == "VOP2" and (w0 >> 25) & 0x3F in VOP2_LITERAL_OPS[family]):
            return fmt, 1
        return fmt, 0
    if fmt in ("SOP1", "SOP2", "SOPC"):
        srcs = [w0 & 0xFF] if fmt == "SOP1" else [w0 & 0xFF, (w0 >> 8) & 0xFF]
        return fmt, int(0xFF in srcs)
    if fmt == "SMRD":  # gfx7: IMM 0 with OFFSET 255 reads a 32-bit offset from the next dword (llvm-mc-19)
        return fmt, int(not (w0 >> 8) & 1 and w0 & 0xFF == 0xFF)
    if fmt == "SOPK":
        return fmt, int((w0 >> 23) & 0x1F == SETREG_IMM32[family])
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
    if base in COMMON:
        return COMMON[base]
    return LAYOUT_TABLES.get(family, {}).get(base)


def decode(words: Sequence[int], generation: int, layout: str, *, meanings: bool = True) -> Decoded:
    """Decode the instruction that starts at ``words[0]`` (extra words are ignored).

    ``layout`` is the target's field layout family (``ArchSpec.encoding_layout`` in the arch data). Without
    ``meanings`` the fields of the instruction's layout have an empty ``meaning``: the decoder's text reads their
    values alone, and naming every field cost a fifth of decoding an encoding (docs/performance.md, issue 28).
    """
    if not words:
        raise DecodeError("no words to decode")
    if layout not in LAYOUTS:
        raise DecodeError(f"isalens has no field layouts for {layout} encodings (known: {', '.join(LAYOUTS)})")
    family = layout
    fmt = _format(words[0], family, generation)
    base = DWORDS[fmt]
    if len(words) < base:
        raise DecodeError(f"{words[0]:08X}: a {fmt} instruction needs {base} dwords, got {len(words)}")
    fmt, extra = _extra_dwords(fmt, words, family)
    if fmt == "SMRD" and extra and generation < 7:
        raise DecodeError(f"{words[0]:08X}: an SMRD literal offset (OFFSET 255, IMM 0) is gfx7 only")
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
        for spec in COMMON[vop]:
            if spec[0] == "SRC0":
                spec = ("SRC0_ENC", spec[1], spec[2], spec[3])  # holds the SDWA/DPP marker, not an operand
            if not (spec[0] == "VSRC1" and fmt == "SDWA"):
                fields.append(_field(bits, spec, family))
        if fmt == "SDWA":
            fields.extend(_sdwa_fields(bits, vop, family, generation))
        else:
            fields.extend(_field(bits, s, family) for s in (dpp_layout(32) if fmt == "DPP" else dpp8_dword_layout(32)))
    else:
        specs = _layout(fmt, family) or ()
        dpp = fmt.endswith(("_DPP", "_DPP8"))
        if not meanings and not dpp:
            # the common case of our decoder's text (values only), without a call per field
            fields = [Field(name, hi, lo, bits >> lo & ((1 << (hi - lo + 1)) - 1), "") for name, hi, lo, _ in specs]
        else:
            for spec in specs:
                if dpp and spec[0] == "SRC0":
                    spec = ("SRC0_ENC", spec[1], spec[2], spec[3])  # the DPP marker; SRC0 is in the DPP dword
                fields.append(_field(bits, spec, family, meanings))
        if fmt.endswith("_DPP"):
            fields.extend(_field(bits, s, family) for s in dpp_layout(64))
        elif fmt.endswith("_DPP8"):
            fields.extend(_field(bits, s, family) for s in dpp8_dword_layout(64))
        elif fmt == "MIMG" and extra:
            fields.append(Field("NSA", 32 * total - 1, 64, extra, f"{extra} extra address dword(s)"))
        elif extra:
            fields.append(Field("LITERAL", 32 * total - 1, 32 * (total - 1), mine[-1], f"{mine[-1]:#010x}"))
    return Decoded(fmt, mine, tuple(fields))


def _sdwa_fields(bits: int, vop: str, family: str, generation: int) -> list[Field]:
    """The SDWA dword; VOPC writes an SGPR mask (SD, SDST) instead of DST_SEL/DST_UNUSED from GFX9 on."""
    out = [_field(bits, s, family) for s in SDWA]
    tail = SDWAB if vop == "VOPC" and generation >= 9 else SDWA_DST
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
