"""Machine code -> instruction text in LLVM's spelling, from our field decoder (``isa.amdgcn.fields``) and the
generated opcode tables. A word this module does not understand gives a :class:`Diagnostic`, never a guess."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from isalens.isa.amdgcn.decoder.tables import family_of, layout_of, opcode_table
from isalens.isa.amdgcn.fields import Decoded, DecodeError, Field, decode

__all__ = ["DONE_FORMATS", "Diagnostic", "Text", "decode_stream", "decode_text", "scalar"]

#: formats whose text this decoder writes (others give a diagnostic)
DONE_FORMATS = ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "DS",
                "FLAT", "GLOBAL", "SCRATCH", "MUBUF")


@dataclass(frozen=True, slots=True)
class Text:
    """One decoded instruction: its format, size in bytes, mnemonic and operand text."""

    format: str
    size: int
    mnemonic: str
    operands: str

    @property
    def text(self) -> str:
        return f"{self.mnemonic} {self.operands}".rstrip()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """An instruction (or word) the decoder does not understand: its format ("" when none), words and why."""

    format: str
    size: int
    words: tuple[int, ...]
    reason: str


class _Unsupported(Exception):
    """Raised inside the decoder: the instruction is not one it spells."""


# ---------------------------------------------------------------------------------------------- operands
# Inline constants (AMD ISA guides, "Inline constants"): 128..192 = 0..64, 193..208 = -1..-16, 240..248 floats.
_FLOATS = {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0", 245: "-2.0", 246: "4.0", 247: "-4.0"}
_SPECIALS = {235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
             239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz", 253: "src_scc",
             254: "src_lds_direct"}


def _range(file: str, first: int, count: int) -> str:
    return f"{file}{first}" if count == 1 else f"{file}[{first}:{first + count - 1}]"


def scalar(code: int, count: int, layout: str, literal: int | None = None) -> str:
    """An 8-bit scalar operand code as LLVM prints it, ``count`` registers wide."""
    # a range of SGPRs/TTMPs starts at a multiple of 2 (pairs) or 4 (wider); LLVM drops the low bits of a
    # misaligned register number, so we do the same
    align = 1 if count == 1 else 2 if count == 2 else 4
    if code <= 105 and not (layout == "gfx9" and code >= 102):
        return _range("s", code & -align, count)
    pairs = {106: "vcc", 126: "exec"}
    if layout == "gfx9":
        pairs |= {102: "flat_scratch", 104: "xnack_mask"}
    if code in pairs or code - 1 in pairs:
        base = pairs.get(code) or pairs[code - 1]
        if count == 2 and code in pairs:
            return base
        if count == 1:
            return base + ("_lo" if code in pairs else "_hi")
        raise _Unsupported(f"{count}-register operand at scalar code {code}")
    if 108 <= code <= 123:
        return _range("ttmp", (code - 108) & -align, count)
    m0, null = (125, 124) if layout in ("gfx11", "gfx12") else (124, 125)
    if code == m0 and count == 1:
        return "m0"
    if code == null and layout != "gfx9":
        return "null"
    if code == 128:
        return "0"
    if 129 <= code <= 192:
        return str(code - 128)
    if 193 <= code <= 208:
        return str(192 - code)
    if code in _FLOATS:
        return _FLOATS[code]
    if code == 248:
        return "0.15915494309189532" if count == 2 else "0.15915494"
    if code in _SPECIALS:
        return _SPECIALS[code]
    if code == 255 and literal is not None:
        return _literal_text(literal, count)
    raise _Unsupported(f"scalar operand code {code}")


_F32_INLINE = {0x3F000000: "0.5", 0xBF000000: "-0.5", 0x3F800000: "1.0", 0xBF800000: "-1.0",
               0x40000000: "2.0", 0xC0000000: "-2.0", 0x40800000: "4.0", 0xC0800000: "-4.0",
               0x3E22F983: "0.15915494"}


def _literal_text(value: int, count: int) -> str:
    """A 32-bit literal dword: LLVM prints a value that an inline constant could encode as that constant."""
    if count == 1:
        if value <= 64 or value >= 0xFFFFFFF0:
            return str(value - (1 << 32) if value >> 31 else value)
        if value in _F32_INLINE:
            return _F32_INLINE[value]
    return f"{value:#x}"


def _source(code: int, file: str, count: int, layout: str, literal: int | None) -> str:
    """A 9-bit source field (VGPR from 256) or an 8-bit scalar field."""
    if code >= 256:
        return _range(file if file in "va" else "v", code - 256, count)
    return scalar(code, count, layout, literal)


_PLACEHOLDER = re.compile(r"\{(\w+)(?::([vsa]):(\d+))?\}")
_NINE_BIT = frozenset({"SRC0", "SRC1", "SRC2", "SRCX0", "SRCY0"})


def _bits(words: Sequence[int], hi: int, lo: int) -> int:
    value = 0
    for i, w in enumerate(words):
        value |= w << (32 * i)
    return (value >> lo) & ((1 << (hi - lo + 1)) - 1)


def _fill(template: str, d: Decoded, layout: str, literal: int | None,
          wrap: dict[str, tuple[int, int]] | None = None) -> str:
    """The template with every field placeholder spelled from the instruction's field values."""

    def sub(m: re.Match[str]) -> str:
        name, file, count = m.group(1), m.group(2), int(m.group(3) or 1)
        if name == "LITERAL":
            if literal is None:
                raise _Unsupported("literal operand without a literal dword")
            return _literal_text(literal, count)
        value = _value(d, name)
        if name in _NINE_BIT or (name == "SRC0" and d.format in ("VOP1", "VOP2", "VOPC")):
            text = _source(value, file, count, layout, literal)
        elif file in "va":
            text = _range(file, value, count)
        else:
            text = scalar(value, count, layout, literal)
        neg, abs_ = (wrap or {}).get(name, (0, 0))
        constant = name in _NINE_BIT and 128 <= value < 256  # inline constant or literal, not a register
        if abs_:
            if constant:
                raise _Unsupported(f"abs of constant {text}")
            text = f"|{text}|"
        if neg:
            text = f"neg({text})" if constant else f"-{text}"  # LLVM: neg(0.5), but -v1
        return text

    return _PLACEHOLDER.sub(sub, template)


def _value(d: Decoded, name: str) -> int:
    if name == "SDST" and d.format == "VOP3":
        return _bits(d.words, 14, 8)  # VOP3B: the scalar carry-out/condition destination
    field = d.get(name)
    if field is None:
        raise _Unsupported(f"no field {name} in {d.format}")
    if name == "VDSTY":  # RDNA3 ISA guide, VOPD: VDSTY's low bit is the inverse of VDSTX's
        return field.value << 1 | (d.value("VDSTX") & 1) ^ 1
    if name == "SBASE":
        return 2 * field.value
    if name == "SRSRC":
        return 4 * field.value
    return field.value


_SCALAR_FIELDS = ("SDST", "SSRC0", "SSRC1", "SDATA", "SOFFSET", "SADDR", "SRC0", "SRC1", "SRC2")


def _gfx8_scalars(d: Decoded, template: str) -> None:
    """gfx8 numbers TBA/TMA/TTMP differently (108-111 tba/tma, ttmp from 112; GCN3 ISA guide): not spelled."""
    for name in (*_SCALAR_FIELDS, *(("VDST",) if "{VDST:s:" in template else ())):
        f = d.get(name)
        if f is not None and 108 <= f.value <= 123:
            raise _Unsupported(f"gfx8 trap register in {name}")
    base = d.get("SBASE")
    if base is not None and 108 <= 2 * base.value <= 123:
        raise _Unsupported("gfx8 trap register in SBASE")
    rsrc = d.get("SRSRC")
    if rsrc is not None and 108 <= 4 * rsrc.value <= 123:
        raise _Unsupported("gfx8 trap register in SRSRC")


def _zero_field_value(d: Decoded, name: str) -> int:
    if name == "OFFSET" and d.format == "DS":
        return d.value("OFFSET0") | d.value("OFFSET1")
    return _value(d, name)


def _literal(d: Decoded) -> int | None:
    f = d.get("LITERAL")
    return None if f is None else f.value


# ---------------------------------------------------------------------------------------------- formats

def _sopp(mnemonic: str, template: str, op: int, d: Decoded, family: str) -> str:
    imm = d.value("SIMM16")
    layout = layout_of(family)
    tables = opcode_table(family)
    # the tables hold each opcode's text for the immediates 0 and 0xffff, and s_sendmsg's for 0..1023
    for table, value in (("SOPP0", 0), ("SOPPFFFF", 0xFFFF)):
        row = tables.get(table, {}).get(op)
        if imm == value and row is not None:
            return row[1]
    if mnemonic == "s_sendmsg" and imm in tables.get("SENDMSG", {}):
        return tables["SENDMSG"][imm][1]
    if mnemonic == "s_delay_alu":
        return _delay_alu(imm)
    if template == "5" and imm > 64 and tables.get("SOPPFFFF", {}).get(op, ("", "65535"))[1] != "65535":
        raise _Unsupported(f"{mnemonic} immediate {imm}")
    if template == "":
        if imm:
            raise _Unsupported(f"{mnemonic} with immediate {imm}")
        return ""
    if template == "5":
        return str(imm)
    if template == "0x5":
        return f"{imm:#x}"
    if mnemonic == "s_waitcnt":
        return _waitcnt(imm, layout, family)
    raise _Unsupported(f"{mnemonic}'s operand")


def _waitcnt(imm: int, layout: str, family: str) -> str:
    """s_waitcnt's counters (ISA guides, S_WAITCNT: vmcnt in 3:0 and 15:14 before gfx11, expcnt 6:4, lgkmcnt 11:8
    (13:8 from gfx10); gfx11: expcnt 2:0, lgkmcnt 9:4, vmcnt 15:10). LLVM prints the counters not at their maximum,
    all three when every one is at its maximum."""
    if layout in ("gfx11", "gfx12"):
        fields = (("vmcnt", imm >> 10 & 0x3F, 0x3F), ("expcnt", imm & 7, 7), ("lgkmcnt", imm >> 4 & 0x3F, 0x3F))
    else:
        lgkm_bits = 0x3F if layout == "gfx10" else 0xF
        vmcnt, vm_top = ((imm & 0xF, 0xF) if family == "gfx8"  # gfx8 has no vmcnt bits 15:14
                         else ((imm & 0xF) | (imm >> 14 & 3) << 4, 0x3F))
        fields = (("vmcnt", vmcnt, vm_top), ("expcnt", imm >> 4 & 7, 7), ("lgkmcnt", imm >> 8 & lgkm_bits, lgkm_bits))
    shown = [f"{n}({v})" for n, v, top in fields if v != top]
    return " ".join(shown or [f"{n}({v})" for n, v, _ in fields])


_HWREG = re.compile(r"hwreg\([^)]*\)")


def _hwreg(imm: int, family: str) -> str:
    """hwreg(NAME) or hwreg(NAME, offset, size): register id bits 5:0, offset 10:6, size - 1 15:11 (ISA guides,
    S_GETREG_B32); the names are the table's (s_getreg_b32 of each id with offset 0, size 32)."""
    reg, offset, size = imm & 0x3F, imm >> 6 & 0x1F, (imm >> 11) + 1
    row = opcode_table(family).get("HWREG", {}).get(reg)
    if row is None or not row[1].startswith("hwreg(") or "," in row[1]:
        raise _Unsupported(f"hwreg register {reg}")
    name = row[1].removeprefix("hwreg(").removesuffix(")")
    return f"hwreg({name})" if (offset, size) == (0, 32) else f"hwreg({name}, {offset}, {size})"


def _sopk(template: str, d: Decoded, family: str, literal: int | None) -> str:
    layout = layout_of(family)
    imm = d.value("SIMM16")
    if "hwreg(" in template:  # the probe's SIMM16 0x8234 (register 52, offset 8, size 17) as hwreg(...)
        template = _HWREG.sub(_hwreg(imm, family), template)
    # probed with SIMM16 = 0x8234: printed as hex or as unsigned decimal
    text = _fill(template, d, layout, literal)
    return text.replace("0x8234", f"{imm:#x}").replace("33332", str(imm))


def _vop3_mods(template: str, d: Decoded, layout: str, literal: int | None) -> str:
    vop3b = "{SDST:" in template
    neg = _bits(d.words, 63, 61)
    abs_ = 0 if vop3b else _bits(d.words, 10, 8)
    op_sel = 0 if vop3b else _bits(d.words, 14, 11)
    if op_sel:
        raise _Unsupported("VOP3 op_sel")
    wrap = {f"SRC{i}": (neg >> i & 1, abs_ >> i & 1) for i in range(3)}
    out = _fill(template, d, layout, literal, wrap)
    for i in range(3):
        if (abs_ | neg) >> i & 1 and f"{{SRC{i}:" not in template:
            raise _Unsupported(f"modifier on unused source {i}")
    if _bits(d.words, 15, 15):
        out += " clamp"
    omod = _bits(d.words, 60, 59)
    if omod:
        out += (" mul:2", " mul:4", " div:2")[omod - 1]
    return out


def _vop3p_mods(template: str, d: Decoded, layout: str, literal: int | None) -> str:
    # the probe set op_sel_hi to all ones; an opcode that printed it (v_fma_mix*) has 0 as its default
    mix = template.endswith(" op_sel_hi:[1,1,1]")
    template = template.removesuffix(" op_sel_hi:[1,1,1]")
    if " " in template.replace(", ", ","):
        raise _Unsupported("VOP3P operand modifiers")
    out = _fill(template, d, layout, literal)
    n = sum(f"{{SRC{i}:" in template for i in range(3))
    op_sel = _bits(d.words, 13, 11)
    op_sel_hi = _bits(d.words, 60, 59) | _bits(d.words, 14, 14) << 2
    neg_lo, neg_hi = _bits(d.words, 63, 61), _bits(d.words, 10, 8)
    full = (1 << n) - 1

    def lst(v: int) -> str:
        return "[" + ",".join(str(v >> i & 1) for i in range(n)) + "]"
    if op_sel & full:
        out += f" op_sel:{lst(op_sel)}"
    if (op_sel_hi & full != full and not mix) or (mix and op_sel_hi & full):
        out += f" op_sel_hi:{lst(op_sel_hi)}"
    if neg_lo & full:
        out += f" neg_lo:{lst(neg_lo)}"
    if neg_hi & full:
        out += f" neg_hi:{lst(neg_hi)}"
    if _bits(d.words, 15, 15):
        out += " clamp"
    return out


def _smem(template: str, d: Decoded, layout: str, family: str) -> str:
    if family == "gfx8" and (d.value("SOE") or d.value("NV") or d.value("OFFSET") >> 20):
        raise _Unsupported("gfx8 SMEM bits")  # gfx8: 20-bit unsigned offset, no SOE/NV (GCN3 ISA guide)
    for name in ("TH", "SCOPE", "NV"):  # gfx12 cache policy, gfx9 NV: printed by LLVM, not spelled here yet
        f = d.get(name)
        if f is not None and f.value:
            raise _Unsupported(f"SMEM {name} set")
    head, _, _last = template.rpartition(", ")
    out = _fill(head, d, layout, None)
    field = d.get("OFFSET")
    assert field is not None
    width = field.hi - field.lo + 1
    offset = field.value if family == "gfx8" else _signed(field.value, width)
    if layout == "gfx9":
        # IMM: OFFSET is an immediate, else an SGPR number; SOE: SOFFSET adds an SGPR (Vega ISA guide, SMEM)
        if not d.value("IMM"):
            out += ", " + scalar(offset, 1, layout)
        elif d.value("SOE"):
            out += f", {scalar(d.value('SOFFSET'), 1, layout)} offset:{_hex(offset)}"
        else:
            out += f", {_hex(offset)}"
    else:
        soffset = d.value("SOFFSET")
        null = 0x7D if layout == "gfx10" else 0x7C
        if soffset != null:
            out += f", {scalar(soffset, 1, layout)}" + (f" offset:{_hex(offset)}" if offset or layout == "gfx12"
                                                        else "")
        else:  # no register offset: the immediate, or (gfx10/gfx11) "null" when that is 0 too
            out += f", {_hex(offset)}" if offset or layout == "gfx12" else ", null"
    for flag in ("GLC", "DLC"):
        f = d.get(flag)
        if f is not None and f.value:
            out += " " + flag.lower()
    return out


def _vopd(d: Decoded, family: str, layout: str, literal: int | None) -> str:
    """Both halves: ``v_dual_x ... :: v_dual_y ...``."""
    tables = opcode_table(family)
    x, y = tables["VOPDX"].get(d.value("OPX")), tables["VOPDY"].get(d.value("OPY"))
    if x is None or y is None:
        raise _Unsupported(f"VOPD opcodes {d.value('OPX')}/{d.value('OPY')}")
    return f"{x[0]} {_fill(x[1], d, layout, literal)} :: {y[0]} {_fill(y[1], d, layout, literal)}"


def _ds(template: str, d: Decoded, layout: str, family: str) -> str:
    if _acc(d, family, "DS"):
        template = _to_acc(template, ("VDST", "DATA0", "DATA1"))
    # the table was probed with OFFSET0 = 1, OFFSET1 = 2: its text says how the offsets print
    o0, o1 = d.value("OFFSET0"), d.value("OFFSET1")
    if template.endswith(" offset0:1 offset1:2"):
        head = template.removesuffix(" offset0:1 offset1:2")
        tail = (f" offset0:{o0}" if o0 else "") + (f" offset1:{o1}" if o1 else "")
    elif template.endswith(" offset:513"):
        head, offset = template.removesuffix(" offset:513"), o0 | o1 << 8
        tail = f" offset:{offset}" if offset else ""
    elif o0 or o1:
        raise _Unsupported("DS offset form")
    else:
        head, tail = template, ""
    out = _fill(head, d, layout, None) + tail
    if d.value("GDS") and family in ("gfx90a", "gfx942"):
        raise _Unsupported("GDS bit on gfx90a/gfx940")  # LLVM ignores the bit there
    if d.value("GDS"):
        out += " gds"
    return out


def _cache_flags(fmt: str, d: Decoded, family: str, glc_printed: bool) -> list[str]:
    """Cache-policy bits as LLVM names them: glc/slc/dlc; gfx940 calls them sc0/sc1/nt (sc1 is bit 25 in FLAT,
    bit 15 in MUBUF; AMD CDNA3 ISA guide, "Memory scope"); gfx12 has th:/scope: (RDNA4 ISA guide)."""
    if family == "gfx12":
        th, scope = d.value("TH"), d.value("SCOPE")
        if th and not glc_printed:
            raise _Unsupported(f"temporal hint {th}")
        return ["th:TH_ATOMIC_RETURN"] * bool(th) + [f"scope:{_SCOPES[scope]}"] * bool(scope)
    if family == "gfx942":
        sc1 = _bits(d.words, 25 if fmt != "MUBUF" else 15, 25 if fmt != "MUBUF" else 15)
        bits = (("sc0", d.value("GLC") and glc_printed), ("nt", d.value("SLC")), ("sc1", sc1))
        return [name for name, on in bits if on]
    out = []
    for flag in ("GLC", "SLC", "DLC"):
        f = d.get(flag)
        if f is not None and f.value and (flag != "GLC" or glc_printed):
            out.append(flag.lower())
    return out


_SCOPES = ("SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS")
# gfx12 VFLAT/VSCRATCH/VGLOBAL, which isa.amdgcn.fields does not lay out (bits checked with llvm-mc-19
# -show-encoding): name, hi, lo
_GFX12_VFLAT = (("SADDR", 6, 0), ("OP", 21, 14), ("VDST", 39, 32), ("SVE", 49, 49), ("SCOPE", 51, 50),
                ("TH", 54, 52), ("DATA", 62, 55), ("ADDR", 71, 64), ("OFFSET", 95, 72))


def _gfx12_vflat(d: Decoded) -> Decoded:
    """The fields of a gfx12 flat-family instruction, as a FLAT ``Decoded`` with SEG 0/1/2 and GLC = TH."""
    seg = {"VFLAT": 0, "VSCRATCH": 1, "VGLOBAL": 2}[d.format]
    fields = [Field(n, hi, lo, _bits(d.words, hi, lo), "") for n, hi, lo in _GFX12_VFLAT]
    fields += [Field("SEG", 0, 0, seg, ""), Field("GLC", 54, 52, fields[5].value, "")]
    return Decoded("FLAT", d.words, tuple(fields))


def _acc(d: Decoded, family: str, fmt: str) -> bool:
    """gfx90a/gfx940: the data registers are AGPRs (FLAT/MUBUF bit 55, DS bit 25)."""
    if family not in ("gfx90a", "gfx942"):
        return False
    return bool(_bits(d.words, 25, 25) if fmt == "DS" else _bits(d.words, 55, 55))


def _to_acc(template: str, names: tuple[str, ...]) -> str:
    for name in names:
        template = template.replace(f"{{{name}:v:", f"{{{name}:a:")
    return template


def _flat(fmt: str, template: str, d: Decoded, layout: str, family: str, glc_printed: bool) -> str:
    if layout in ("gfx9", "gfx10") and _bits(d.words, 13, 13) and not (family == "gfx942" and fmt == "SCRATCH"):
        raise _Unsupported("FLAT LDS bit")  # gfx9/gfx10 "lds" (gfx940 scratch: SVE)
    if layout == "gfx9" and family != "gfx90a" and family != "gfx942" and _bits(d.words, 55, 55):
        raise _Unsupported("FLAT NV bit")
    if template == "":  # global_wb, global_inv ... (gfx12): cache policy only
        if d.value("OFFSET") or d.value("ADDR") or d.value("VDST") or d.value("DATA"):
            raise _Unsupported("cache operation with operands")
        return " ".join(_cache_flags(fmt, d, family, glc_printed))
    saddr = d.value("SADDR")
    off = saddr == 0x7F or (layout != "gfx9" and saddr == (0x7D if layout == "gfx10" else 0x7C))
    parts = template.split(", ")
    if fmt in ("GLOBAL", "SCRATCH"):
        if parts[-1] != "off":
            raise _Unsupported(f"{fmt} template without saddr")
        if not off:
            parts[-1] = scalar(saddr, 2 if fmt == "GLOBAL" else 1, layout)
            parts = [p.replace("{ADDR:v:2}", "{ADDR:v:1}") for p in parts]
    elif not off and saddr:
        raise _Unsupported("FLAT with saddr")
    if fmt == "SCRATCH":
        # the address VGPR is used with SVE (gfx940: bit 13, gfx11: bit 55), before that whenever saddr is off
        at = [i for i, p in enumerate(parts[:-1]) if p in ("off", "{ADDR:v:1}")]
        if len(at) != 1:
            raise _Unsupported("scratch address form")
        sve = {"gfx942": _bits(d.words, 13, 13), "gfx11": _bits(d.words, 55, 55),
               "gfx12": d.value("SVE") if layout == "gfx12" else 0}.get(family, int(off))
        parts[at[0]] = "{ADDR:v:1}" if sve else "off"
    text = ", ".join(parts)
    if _acc(d, family, fmt):
        text = _to_acc(text, ("VDST", "DATA"))
    out = _fill(text, d, layout, None)
    offset = _signed(d.value("OFFSET"), {"gfx9": 13, "gfx11": 13, "gfx12": 24}.get(layout, 12))
    if fmt == "FLAT" and layout == "gfx9" and (offset < 0 or (family == "gfx8" and offset)):
        raise _Unsupported("FLAT offset")  # gfx8 FLAT has no offset, gfx9 FLAT no negative one
    if offset:
        out += f" offset:{offset}"
    return " ".join([out, *_cache_flags(fmt, d, family, glc_printed)])


def _hex(value: int) -> str:
    return f"-{-value:#x}" if value < 0 else f"{value:#x}"


def _signed(value: int, width: int) -> int:
    return value - (1 << width) if value >> (width - 1) else value


def _mubuf(template: str, d: Decoded, layout: str, family: str, glc_printed: bool) -> str:
    offen, idxen = d.value("OFFEN"), d.value("IDXEN")
    if template == "":
        if offen or idxen or d.value("OFFSET"):
            raise _Unsupported("MUBUF cache operation with an address")
        # LLVM prints the cache bits of gfx940's buffer_wbl2/buffer_inv only (buffer_gl1_inv slc prints none)
        return " ".join(_cache_flags("MUBUF", d, family, glc_printed)) if family == "gfx942" else ""
    head, _, _soff = template.rpartition(", ")
    parts = head.split(", ")
    if len(parts) < 2 or parts[1] != "off":
        raise _Unsupported("MUBUF template")
    mods = []
    if offen and idxen:
        parts[1] = _range("v", d.value("VADDR"), 2)
        mods.append("idxen offen")
    elif offen or idxen:
        parts[1] = _range("v", d.value("VADDR"), 1)
        mods.append("offen" if offen else "idxen")
    lds = d.get("LDS")
    if lds is not None and lds.value:  # the data goes to LDS: LLVM prints no VDATA
        parts = parts[1:]
    text = ", ".join(parts)
    # gfx90a/gfx940 use bit 55 for ACC, they have no TFE
    tfe = d.get("TFE") if family not in ("gfx90a", "gfx942") else None
    if tfe is not None and tfe.value:  # TFE returns a status dword after the data: one more data register
        text = re.sub(r"\{VDATA:v:(\d+)\}", lambda m: f"{{VDATA:v:{int(m.group(1)) + 1}}}", text)
    if _acc(d, family, "MUBUF"):
        text = _to_acc(text, ("VDATA",))
    out = _fill(text, d, layout, None) + ", " + scalar(d.value("SOFFSET"), 1, layout)
    if d.value("OFFSET"):
        mods.append(f"offset:{d.value('OFFSET')}")
    mods += _cache_flags("MUBUF", d, family, glc_printed)
    for f in (lds, tfe):
        if f is not None and f.value:
            mods.append(f.name.lower())
    return " ".join([out, *mods])


# s_delay_alu (RDNA3 ISA guide, S_DELAY_ALU): INSTID0 bits 3:0, INSTSKIP 6:4, INSTID1 10:7
_DELAY_IDS = ("NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1", "TRANS32_DEP_2",
              "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3")
_DELAY_SKIPS = ("SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4")


def _delay_alu(imm: int) -> str:
    id0, skip, id1 = imm & 0xF, imm >> 4 & 7, imm >> 7 & 0xF
    if imm >> 11 or id0 >= len(_DELAY_IDS) or id1 >= len(_DELAY_IDS) or skip >= len(_DELAY_SKIPS):
        raise _Unsupported(f"s_delay_alu {imm:#x}")
    parts = []
    if id0:
        parts.append(f"instid0({_DELAY_IDS[id0]})")
    if skip:
        parts.append(f"instskip({_DELAY_SKIPS[skip]})")
    if id1:
        parts.append(f"instid1({_DELAY_IDS[id1]})")
    return " | ".join(parts) or "0"


def _text(d: Decoded, family: str, words: Sequence[int]) -> Text:
    layout = layout_of(family)
    fmt = d.format
    if fmt == "FLAT":
        fmt = ("FLAT", "SCRATCH", "GLOBAL", "")[d.value("SEG")]
    table = opcode_table(family).get("VOPDX" if fmt == "VOPD" else fmt)
    if table is None or not fmt:
        raise _Unsupported(f"{d.format} instructions")
    op = d.value("OPX" if fmt == "VOPD" else "OP")
    row = table.get(op)
    if row is None:
        raise _Unsupported(f"{fmt} opcode {op} (LLVM 19 rejects it with every probe)")
    mnemonic, template, zero_fields = row
    if family == "gfx8":
        _gfx8_scalars(d, template)
    glc_printed = True
    if fmt in ("FLAT", "GLOBAL", "SCRATCH", "MUBUF") and d.value("GLC"):
        # atomics print their returning form when GLC (gfx940: SC0) is set: the table probed with it set
        glc = {"gfx942": " sc0", "gfx12": " th:TH_ATOMIC_RETURN"}.get(family, " glc")
        returning = opcode_table(family).get(fmt + "_GLC", {}).get(op)
        if returning is None:
            raise _Unsupported(f"{fmt} opcode {op} with{glc}")
        glc_printed = (" " + returning[1]).endswith(glc)
        template, zero_fields = (" " + returning[1]).removesuffix(glc).removeprefix(" "), returning[2]
    if template.endswith("gpr_idx()"):
        # s_set_gpr_idx_on: SSRC1 holds the index mode, bit 0..3 = SRC0, SRC1, SRC2, DST (Vega ISA guide)
        mode = d.value("SSRC1")
        if mode > 15:
            raise _Unsupported(f"gpr_idx mode {mode}")
        names = ",".join(n for i, n in enumerate(("SRC0", "SRC1", "SRC2", "DST")) if mode >> i & 1)
        template, zero_fields = template.removesuffix("gpr_idx()") + f"gpr_idx({names})", zero_fields - {"SSRC1"}
    for name in sorted(zero_fields):
        # SDST (VOP3 modifiers), VADDR (offen/idxen) and SADDR are spelled by the format code below
        if name not in ("SADDR", "SIMM16", "SDST", "VADDR", "ADDR") and _zero_field_value(d, name):
            # LLVM 19 rejects this encoding; the hardware ignores the field (issue 28): not spelled yet
            raise _Unsupported(f"{mnemonic} with its unused field {name} set")
    literal = _literal(d)
    if "{LITERAL}" in template and literal is None:
        # the opcode itself implies a literal dword (s_fmaak_f32 ...), which the field decoder does not know
        if len(words) <= len(d.words):
            raise _Unsupported(f"{mnemonic} without its literal dword")
        literal = words[len(d.words)]
        d = Decoded(d.format, (*d.words, literal), d.fields)
    if fmt == "SOPK" and not any(probe in template for probe in ("0x8234", "33332", "hwreg(")) \
            and "SIMM16" not in zero_fields:
        raise _Unsupported(f"{mnemonic}'s immediate operand")
    if fmt == "SOPP":
        operands = _sopp(mnemonic, template, op, d, family)
    elif fmt == "SOPK":
        operands = _sopk(template, d, family, literal)
    elif fmt == "SMEM":
        operands = _smem(template, d, layout, family)
    elif fmt == "VOP3":
        operands = _vop3_mods(template, d, layout, literal)
    elif fmt == "VOP3P":
        operands = _vop3p_mods(template, d, layout, literal)
    elif fmt == "DS":
        operands = _ds(template, d, layout, family)
    elif fmt in ("FLAT", "GLOBAL", "SCRATCH"):
        operands = _flat(fmt, template, d, layout, family, glc_printed)
    elif fmt == "MUBUF":
        operands = _mubuf(template, d, layout, family, glc_printed)
    elif fmt == "VOPD":
        operands = _vopd(d, family, layout, literal)
        mnemonic, operands = operands.split(" ", 1)
    else:
        operands = _fill(template, d, layout, literal)
    return Text(fmt, d.size, mnemonic, operands)


def decode_text(words: Sequence[int], target: str) -> Text | Diagnostic:
    """The instruction at ``words[0]`` for ``target`` (``gfx1100``), or why it cannot be spelled."""
    family = family_of(target)
    if family is None:
        return Diagnostic("", 4, tuple(words[:1]), f"no opcode table for {target}")
    generation = 8 if family == "gfx8" else 9 if layout_of(family) == "gfx9" else int(layout_of(family)[3:])
    try:
        d = decode(words, generation, layout_of(family))
    except DecodeError as e:
        return Diagnostic("", 4, tuple(words[:1]), str(e))
    if d.format in ("VFLAT", "VSCRATCH", "VGLOBAL"):
        d = _gfx12_vflat(d)
    try:
        return _text(d, family, words)
    except _Unsupported as e:
        fmt = ("FLAT", "SCRATCH", "GLOBAL", "FLAT")[d.value("SEG")] if d.format == "FLAT" else d.format
        return Diagnostic(fmt, d.size, d.words, f"{fmt}: {e} not decoded")


def decode_stream(words: Sequence[int], target: str) -> list[tuple[int, Text | Diagnostic]]:
    """(byte offset, result) for every instruction of a dword stream; a diagnostic skips its own words."""
    out: list[tuple[int, Text | Diagnostic]] = []
    i = 0
    while i < len(words):
        r = decode_text(words[i:], target)
        out.append((4 * i, r))
        i += r.size // 4
    return out
