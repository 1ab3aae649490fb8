"""Machine code -> instruction text in LLVM's spelling, from our field decoder (``isa.amdgcn.fields``) and the
generated opcode tables. A word this module does not understand gives a :class:`Diagnostic`, never a guess."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from isalens.isa.amdgcn.decoder.dpp import dpp
from isalens.isa.amdgcn.decoder.export import export
from isalens.isa.amdgcn.decoder.mai import is_mai, mai
from isalens.isa.amdgcn.decoder.memory import _ds, _flat, _gfx12_vflat, _mubuf, _smem, _smrd
from isalens.isa.amdgcn.decoder.operands import (
    SOURCE_FIELDS,
    _bits,
    _fill,
    _gfx8_scalars,
    _literal,
    _Unsupported,
    _value,
    _zero_field_value,
)
from isalens.isa.amdgcn.decoder.sdwa import sdwa
from isalens.isa.amdgcn.decoder.tables import CDNA3, WAVE64_FAMILIES, family_of, layout_of, opcode_table
from isalens.isa.amdgcn.decoder.vopd3 import vopd3, vopd3_decoded
from isalens.isa.amdgcn.fields import Decoded, DecodeError, Field, decode

__all__ = ["DONE_FORMATS", "Diagnostic", "Text", "decode_stream", "decode_text"]

#: formats whose text this decoder writes (others give a diagnostic)
DONE_FORMATS = ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM", "SMRD", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "DS",
                "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "SDWA", "DPP", "DPP8", "EXP")


@dataclass(frozen=True, slots=True)
class Text:
    """One decoded instruction: its format, size in bytes, mnemonic and operand text."""

    format: str
    size: int
    mnemonic: str
    operands: str
    #: set when the hardware executes an encoding LLVM rejects: which unused field was set (issue 28)
    note: str = ""

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
    if mnemonic == "s_set_vgpr_msb" and imm:
        # gfx12.5: the high bits of the VGPR numbers of the instructions that follow (v256-v1023); LLVM-C's
        # disassembler does not apply them, so their text would name the wrong registers: not spelled
        raise _Unsupported(f"s_set_vgpr_msb {imm:#x} (VGPRs above v255)")
    if mnemonic in ("s_waitcnt_depctr", "s_wait_alu"):
        return _depctr(imm, mnemonic, tables.get("SOPP0", {}).get(op))
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


# s_waitcnt_depctr / s_wait_alu counters: name -> (low bit, width) (RDNA ISA guides, S_WAITCNT_DEPCTR; the same
# layout as LLVM's DepCtr encoding); each counter's default is its maximum (no wait)
_DEPCTR = {"depctr_va_vdst": (12, 4), "depctr_va_sdst": (9, 3), "depctr_va_ssrc": (8, 1), "depctr_hold_cnt": (7, 1),
           "depctr_vm_vsrc": (2, 3), "depctr_va_vcc": (1, 1), "depctr_sa_sdst": (0, 1)}
_DEPCTR_NAME = re.compile(r"(depctr_\w+)\(")


def _depctr(imm: int, mnemonic: str, zero_row: tuple[str, str, frozenset[str]] | None) -> str:
    """The counters as LLVM names them: the target's counters (and their order) are those its text for the
    immediate 0 names (the table's SOPP0 row); a code with a bit outside them prints as hex; else the counters
    not at their default, or all of them when every one is."""
    names = _DEPCTR_NAME.findall(zero_row[1]) if zero_row else []
    if not names or any(n not in _DEPCTR for n in names):
        raise _Unsupported(f"{mnemonic}'s counters")
    covered = 0
    values = []
    for name in names:
        lo, width = _DEPCTR[name]
        top = (1 << width) - 1
        covered |= top << lo
        values.append((name, imm >> lo & top, top))
    if imm & ~covered:
        return f"{imm:#x}"
    waits = any(value != top for _name, value, top in values)
    return " ".join(f"{name}({value})" for name, value, top in values if value != top or not waits)


def _waitcnt(imm: int, layout: str, family: str) -> str:
    """s_waitcnt's counters (ISA guides, S_WAITCNT: vmcnt in 3:0 and 15:14 before gfx11, expcnt 6:4, lgkmcnt 11:8
    (13:8 from gfx10); gfx11: expcnt 2:0, lgkmcnt 9:4, vmcnt 15:10). LLVM prints the counters not at their maximum,
    all three when every one is at its maximum."""
    if layout in ("gfx11", "gfx12"):
        fields = (("vmcnt", imm >> 10 & 0x3F, 0x3F), ("expcnt", imm & 7, 7), ("lgkmcnt", imm >> 4 & 0x3F, 0x3F))
    else:
        lgkm_bits = 0x3F if layout == "gfx10" else 0xF
        vmcnt, vm_top = ((imm & 0xF, 0xF) if family in _VMCNT4  # gfx6-gfx8 have no vmcnt bits 15:14
                         else ((imm & 0xF) | (imm >> 14 & 3) << 4, 0x3F))
        fields = (("vmcnt", vmcnt, vm_top), ("expcnt", imm >> 4 & 7, 7), ("lgkmcnt", imm >> 8 & lgkm_bits, lgkm_bits))
    shown = [f"{n}({v})" for n, v, top in fields if v != top]
    return " ".join(shown or [f"{n}({v})" for n, v, _ in fields])


#: families whose vmcnt is 4 bits (SI/CI/GCN3 ISA guides, S_WAITCNT)
_VMCNT4 = frozenset({"gfx6", "gfx7", "gfx8"})
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


def _op_sel(op_sel: int, spec: tuple[str, str, frozenset[str]] | None) -> str:
    """`` op_sel:[...]`` as LLVM prints the bits ``op_sel`` (word 0 bits 14:11) of one opcode, from the table's
    VOP3_OPSEL row ``N:P0,P1,P2,P3`` (list length, list position of each bit, ``-`` when LLVM prints nothing for
    it, ``x`` when it rejects it; tools/gen_opcode_tables.py probes each bit alone)."""
    if spec is None:
        raise _Unsupported("VOP3 op_sel")
    length, _, marks = spec[1].partition(":")
    shown = [0] * int(length)
    for bit, mark in enumerate(marks.split(",")):
        if op_sel >> bit & 1:
            if mark == "x":
                raise _Unsupported(f"VOP3 op_sel bit {bit}")
            if mark != "-":
                shown[int(mark)] = 1
    return f" op_sel:[{','.join(map(str, shown))}]" if any(shown) else ""


def _vop3_mods(template: str, d: Decoded, layout: str, literal: int | None, family: str,
               wide: str | None = None) -> str:
    vop3b = "{SDST:" in template
    neg = _bits(d.words, 63, 61)
    abs_ = 0 if vop3b else _bits(d.words, 10, 8)
    op_sel = 0 if vop3b or layout == "gfx6" else _bits(d.words, 14, 11)
    # gfx6/gfx7 (SI/CI ISA guides, VOP3a): CLAMP is bit 11, bits 16:12 are unused; VOP3b has no CLAMP (SDST is
    # 14:8, bits 16:15 unused; llvm-mc-19 drops a written clamp); gfx8+: CLAMP is bit 15
    clamp_bit = 15
    if layout == "gfx6":
        clamp_bit = 0 if vop3b else 11
        if _bits(d.words, 16, 15 if vop3b else 12):
            raise _Unsupported(f"VOP3 with its unused bits 16:{15 if vop3b else 12} set")
    wrap = {f"SRC{i}": (neg >> i & 1, abs_ >> i & 1) for i in range(3)}
    out = _fill(template, d, layout, literal, wrap, wide=wide)
    if op_sel:
        out += _op_sel(op_sel, opcode_table(family).get("VOP3_OPSEL", {}).get(d.value("OP")))
    for i in range(3):
        if (abs_ | neg) >> i & 1 and f"{{SRC{i}:" not in template:
            raise _Unsupported(f"modifier on unused source {i}")
    if clamp_bit and _bits(d.words, clamp_bit, clamp_bit):
        out += " clamp"
    omod = _bits(d.words, 60, 59)
    if omod:
        out += (" mul:2", " mul:4", " div:2")[omod - 1]
    return out


def _vop3p_mods(template: str, d: Decoded, layout: str, literal: int | None, wide: str | None = None) -> str:
    # the probe set op_sel_hi to all ones; an opcode that printed it (v_fma_mix*) has 0 as its default
    mix = template.endswith(" op_sel_hi:[1,1,1]")
    template = template.removesuffix(" op_sel_hi:[1,1,1]")
    if " " in template.replace(", ", ","):
        raise _Unsupported("VOP3P operand modifiers")
    neg_lo, neg_hi = _bits(d.words, 63, 61), _bits(d.words, 10, 8)
    # v_fma_mix*: LLVM prints neg_lo/neg_hi as the sources' neg and abs (-v1, |v2|, neg(0))
    wrap = {f"SRC{i}": (neg_lo >> i & 1, neg_hi >> i & 1) for i in range(3)} if mix else None
    out = _fill(template, d, layout, literal, wrap, wide=wide)
    if mix:
        neg_lo = neg_hi = 0
    n = sum(f"{{SRC{i}:" in template for i in range(3))
    op_sel = _bits(d.words, 13, 11)
    op_sel_hi = _bits(d.words, 60, 59) | _bits(d.words, 14, 14) << 2
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


def _vopd(d: Decoded, family: str, layout: str, literal: int | None) -> str:
    """Both halves: ``v_dual_x ... :: v_dual_y ...``."""
    tables = opcode_table(family)
    x, y = tables["VOPDX"].get(d.value("OPX")), tables["VOPDY"].get(d.value("OPY"))
    if x is None or y is None:
        raise _Unsupported(f"VOPD opcodes {d.value('OPX')}/{d.value('OPY')}")
    wide = "" if family == "gfx12_5" else None  # v_dual_* have 32-bit operands: a 64-bit literal is not spelled
    x_text, y_text = _fill(x[1], d, layout, literal, wide=wide), _fill(y[1], d, layout, literal, wide=wide)
    return f"{x[0]} {x_text} :: {y[0]} {y_text}"


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


def _text(d: Decoded, family: str, words: Sequence[int], hardware: bool = False, wave64: bool = False) -> Text:
    layout = layout_of(family)
    fmt = d.format
    whole = opcode_table(family, wave64).get("WORDS", {}).get(d.words[0]) if d.size == 4 else None
    if whole is not None:  # a dword LLVM prints as one operand-less instruction (gfx10+: 0 is v_illegal)
        return Text(fmt, 4, whole[0], "")
    if fmt == "SDWA":
        return Text(fmt, d.size, *sdwa(d, family, layout, wave64))
    if fmt in ("DPP", "DPP8"):
        return Text(fmt, d.size, *dpp(d, family, layout, wave64))
    if fmt == "EXP":
        return Text(fmt, d.size, *export(d, family))
    if fmt == "FLAT" and d.get("SEG") is not None:  # gfx7's FLAT has no segment
        fmt = ("FLAT", "SCRATCH", "GLOBAL", "")[d.value("SEG")]
    table = opcode_table(family, wave64).get("VOPDX" if fmt == "VOPD" else fmt)
    if table is None or not fmt or (wave64 and fmt == "VOPD"):  # VOPD is wave32 only
        raise _Unsupported(f"{d.format} instructions")
    op = d.value("OPX" if fmt == "VOPD" else "OP")
    if fmt == "VOP3P" and is_mai(op, family):
        return Text(fmt, d.size, *mai(d, family, layout))
    row = table.get(op)
    if row is None:
        raise _Unsupported(f"{fmt} opcode {op} (LLVM 19 rejects it with every probe)")
    mnemonic, template, zero_fields = row
    if fmt in ("SOP1", "SOP2", "SOPC"):
        _salu_constants(mnemonic, template, d)
    if family in _VMCNT4:  # the trap registers of gfx6-gfx8 (and SI's missing 104/105)
        _gfx8_scalars(d, template, family)
    glc_printed = True
    if fmt in ("FLAT", "GLOBAL", "SCRATCH", "MUBUF") and d.value("GLC"):
        # atomics print their returning form when GLC (gfx940: SC0) is set: the table probed with it set
        glc = " sc0" if family in CDNA3 else {"gfx12": " th:TH_ATOMIC_RETURN"}.get(layout, " glc")
        returning = opcode_table(family, wave64).get(fmt + "_GLC", {}).get(op)
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
    ignored = []
    for name in sorted(zero_fields):
        if "=" in name:  # FIELD=VALUE: LLVM decodes the opcode only with that value (gfx12.5 v_cmpx_*_e64: exec_lo)
            field, _, want = name.partition("=")
            if _value(d, field) != int(want):
                raise _Unsupported(f"{mnemonic} with {field} {_value(d, field)} (LLVM decodes it with {want} only)")
            continue
        # SDST (VOP3 modifiers), VADDR (offen/idxen) and SADDR are spelled by the format code below
        if name not in ("SADDR", "SIMM16", "SDST", "VADDR", "ADDR") and _zero_field_value(d, name):
            # LLVM 19 rejects this encoding; the hardware ignores the field (issue 28)
            # (an unused field naming a literal would make the instruction's length a guess: not read)
            value = _zero_field_value(d, name)
            if not hardware or name not in _IGNORED_BY_HARDWARE or value == 255 or (value == 254 and d.get("LIT64")):
                raise _Unsupported(f"{mnemonic} with its unused field {name} set")
            ignored.append(name)
    if ignored:
        d = _cleared(d, ignored)
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
    wide = _wide_kind(mnemonic) if family == "gfx12_5" else None
    if fmt == "SOPP":
        operands = _sopp(mnemonic, template, op, d, family)
    elif fmt == "SOPK":
        operands = _sopk(template, d, family, literal)
    elif fmt == "SMEM":
        operands = _smem(template, d, layout, family)
    elif fmt == "SMRD":
        operands = _smrd(template, d, layout)
    elif fmt == "VOP3":
        operands = _vop3_mods(template, d, layout, literal, family, wide)
    elif fmt == "VOP3P":
        operands = _vop3p_mods(template, d, layout, literal, wide)
    elif fmt == "DS":
        operands = _ds(template, d, layout, family)
    elif fmt in ("FLAT", "GLOBAL", "SCRATCH"):
        operands = _flat(fmt, template, d, layout, family, glc_printed)
    elif fmt == "MUBUF":
        operands = _mubuf(template, d, layout, family, glc_printed)
    elif fmt == "MTBUF":
        operands = _mubuf(template, d, layout, family, glc_printed, _mtbuf_format(d, family))
    elif fmt == "VOPD":
        operands = _vopd(d, family, layout, literal)
        mnemonic, operands = operands.split(" ", 1)
    elif fmt in ("SOP2", "VOP2") and "{LITERAL}" in template and literal is not None:
        # the constant K of s_fmaak_f32/s_fmamk_f32 and v_madmk/v_madak/v_fmamk/v_fmaak: LLVM 19 prints it in
        # hex whatever its value (0x5, 0x3f800000; test_sixteen_bit_literals_equal_llvm_mc)
        operands = _fill(template.replace("{LITERAL}", f"{literal:#x}"), d, layout, literal,
                         half_kind=_half_kind(mnemonic), wide=wide)
    else:
        operands = _fill(template, d, layout, literal, half_kind=_half_kind(mnemonic), wide=wide)
    note = f"{mnemonic} with its unused field {', '.join(ignored)} set (LLVM rejects it; the hardware ignores " \
        "the field)" if ignored else ""
    return Text(fmt, d.size, mnemonic, operands, note)


def _wide_kind(mnemonic: str) -> str:
    """The type of ``mnemonic``'s 64-bit operands for their literals on gfx12.5 (:func:`_literal64_text`): ``f``
    when the name has f64, ``i`` when it has integer types only (``v_add_nc_u64``, ``s_mov_b64``), else ""."""
    types = [t for t in mnemonic.split("_") if re.fullmatch(r"(?:bf|[bfiu])\d+", t)]
    if "f64" in types:
        return "f"
    return "i" if types and all(t[0] in "biu" for t in types) else ""


def _half_kind(mnemonic: str) -> str:
    """How a literal of ``mnemonic``'s 16-bit source prints: ``f`` (half float) or ``i`` (integer) by the source
    type, the last in the name (``v_cvt_f32_f16``: f16); "" for bf16, packed sources (``v_sat_pk_u8_i16``,
    ``v_dot2c_f32_f16``) and names without a 16-bit type."""
    if "_pk_" in mnemonic or "_dot" in mnemonic:
        return ""
    types = [t for t in mnemonic.split("_") if re.fullmatch(r"(?:bf|[bfiu])\d+", t)]
    if not types or types[-1] == "bf16" or not types[-1].endswith("16"):
        return ""
    return "f" if types[-1] == "f16" else "i"


def _mtbuf_format(d: Decoded, family: str) -> str:
    """`` format:[…]`` as LLVM prints DFMT | NFMT << 4 (the table's MTBUF_FMT section; empty for the default)."""
    row = opcode_table(family).get("MTBUF_FMT", {}).get(d.value("DFMT") | d.value("NFMT") << 4)
    if row is None:
        raise _Unsupported("MTBUF format")
    return f" {row[1]}" if row[1] else ""


def _salu_constants(mnemonic: str, template: str, d: Decoded) -> None:
    """gfx1150's SALU float opcodes: LLVM 19 spells constants of the 16-bit ones by rules of its own (an inline
    ``1.0`` as ``0xbc00`` or ``0``, a literal's low half), and an implied literal read twice (``s_fmaak_f32``
    with a literal source) differently from once: not spelled."""
    sources = [d.value(name) for name in ("SSRC0", "SSRC1") if f"{{{name}:" in template]
    if "f16" in mnemonic and any(code >= 128 for code in sources):
        raise _Unsupported(f"{mnemonic} with a constant")
    if "{LITERAL}" in template and 255 in sources:
        raise _Unsupported(f"{mnemonic} with a literal source")


#: unused source fields the hardware ignores: a VOP3 opcode with fewer than three sources never reads SRC2
#: (nor SRC1 with one source), so only these are read as the hardware does (AMD ISA guides, VOP3 encoding)
_IGNORED_BY_HARDWARE = frozenset({"SRC1", "SRC2"})


def _cleared(d: Decoded, names: Sequence[str]) -> Decoded:
    """``d`` with the fields ``names`` zeroed (in its words too, so nothing downstream reads them)."""
    value = sum(w << (32 * i) for i, w in enumerate(d.words))
    fields = []
    for f in d.fields:
        if f.name in names:
            value &= ~(((1 << (f.hi - f.lo + 1)) - 1) << f.lo)
            f = f._replace(value=0)
        fields.append(f)
    words = tuple(value >> (32 * i) & 0xFFFFFFFF for i in range(len(d.words)))
    return Decoded(d.format, words, tuple(fields))


def decode_text(words: Sequence[int], target: str, *, hardware: bool = False, wave64: bool = False
                ) -> Text | Diagnostic:
    """The instruction at ``words[0]`` for ``target`` (``gfx1100``), or why it cannot be spelled. ``hardware``:
    an unused source field that is set (an encoding LLVM rejects) is read as the hardware reads it, ignored,
    and named in the text's ``note``. ``wave64``: gfx10+ code for wave64 (lane masks are SGPR pairs), as
    ``llvm-objdump --mattr=+wavefrontsize64`` spells it."""
    family = family_of(target)
    if family is None:
        return Diagnostic("", 4, tuple(words[:1]), f"no opcode table for {target}")
    if wave64 and family not in WAVE64_FAMILIES:
        return Diagnostic("", 4, tuple(words[:1]), f"no wave64 opcode table for {target}")
    if family == "gfx12_5" and words[0] >> 24 == 0xCF:  # VOPD3: v_dual_* with three-source halves
        try:
            v = vopd3_decoded(words)
        except _Unsupported as e:
            return Diagnostic("VOPD3", 4 * len(words[:3]), tuple(words[:3]), f"VOPD3: {e} not decoded")
        try:
            return Text("VOPD3", v.size, *vopd3(v, "gfx12", _wide_kind))
        except _Unsupported as e:
            return Diagnostic("VOPD3", v.size, v.words, f"VOPD3: {e} not decoded")
    generation = {"gfx6": 6, "gfx7": 7, "gfx8": 8}.get(family) or (9 if layout_of(family) == "gfx9"
                                                                   else int(layout_of(family)[3:]))
    try:
        d = decode(words, generation, layout_of(family), meanings=False)
    except DecodeError as e:
        return Diagnostic("", 4, tuple(words[:1]), str(e))
    if d.format in ("VFLAT", "VSCRATCH", "VGLOBAL"):
        d = _gfx12_vflat(d)
    try:
        if family == "gfx12_5":
            d = _with_lit64(d, words)
        return _text(d, family, words, hardware, wave64)
    except _Unsupported as e:
        fmt = ("FLAT", "SCRATCH", "GLOBAL", "FLAT")[d.value("SEG")] if d.get("SEG") is not None else d.format
        return Diagnostic(fmt, d.size, d.words, f"{fmt}: {e} not decoded")


def _with_lit64(d: Decoded, words: Sequence[int]) -> Decoded:
    """gfx12.5: a source field 254 names a 64-bit literal, the two dwords after the instruction (ROCm LLVM's
    ``lit64(…)``; 254 was ``src_lds_direct`` before), kept as the field LIT64."""
    if not any(f.name in SOURCE_FIELDS and f.value == 254 for f in d.fields):
        return d
    if d.get("LITERAL") is not None:
        raise _Unsupported("a 64-bit and a 32-bit literal in one instruction")
    n = len(d.words)
    if len(words) < n + 2:
        raise _Unsupported("64-bit literal past the end of the code")
    value = words[n] | words[n + 1] << 32
    return Decoded(d.format, (*d.words, words[n], words[n + 1]),
                   (*d.fields, Field("LIT64", 32 * n + 63, 32 * n, value, f"{value:#018x}")))


def decode_stream(words: Sequence[int], target: str, *, wave64: bool = False) -> list[tuple[int, Text | Diagnostic]]:
    """(byte offset, result) for every instruction of a dword stream; a diagnostic skips its own words."""
    out: list[tuple[int, Text | Diagnostic]] = []
    i = 0
    while i < len(words):
        r = decode_text(words[i:i + 8], target, wave64=wave64)  # no instruction is longer than 8 dwords
        out.append((4 * i, r))
        i += r.size // 4
    return out
