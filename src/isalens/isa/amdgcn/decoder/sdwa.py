"""SDWA (gfx8-gfx10: VOP1/VOP2/VOPC with SRC0 = 0xF9 and a second dword of sub-dword selects) in LLVM's spelling:
``v_xor_b32_sdwa v7, sext(v10), v8 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD``.

The tables' ``SDWA_VOP1/2/C`` sections (tools/gen_opcode_tables.py) give each opcode's mnemonic, its operand
template with the selects as LLVM printed them for DWORD / UNUSED_PAD, and the modifiers LLVM accepts for it;
an instruction using any other modifier is a diagnostic."""

from __future__ import annotations

import re

from isalens.isa.amdgcn.decoder.operands import _PLACEHOLDER, _Unsupported, scalar
from isalens.isa.amdgcn.decoder.tables import opcode_table
from isalens.isa.amdgcn.fields import Decoded

# select and dst_unused names (AMD ISA guides, SDWA: SEL 0-6; DST_UNUSED 0-2)
_SEL = ("BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD")
_UNUSED = ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE")
_OMOD = ("", " mul:2", " mul:4", " div:2")
_FLOAT_CONSTANTS = range(240, 249)
_INT16 = re.compile(r"_[iu]16")


def _vop(word0: int) -> str:
    return "VOP1" if word0 >> 25 == 0x3F else "VOPC" if word0 >> 25 == 0x3E else "VOP2"


def sdwa(d: Decoded, family: str, layout: str, wave64: bool) -> tuple[str, str]:
    """(mnemonic, operands) of an SDWA instruction; raises :class:`_Unsupported` for what LLVM would not print."""
    vop = _vop(d.words[0])
    op = d.value("OP")
    row = opcode_table(family, wave64).get("SDWA_" + vop, {}).get(op)
    if row is None:
        raise _Unsupported(f"SDWA {vop} opcode {op}")
    mnemonic, template, accepted = row

    modifiers = accepted  # the row's last column, as a set

    def allowed(name: str, on: int) -> bool:
        """Whether to print modifier ``name`` (set: ``on``): LLVM accepts it (``name-``: and does not print it)."""
        if on and name not in modifiers and name + "-" not in modifiers:
            raise _Unsupported(f"{mnemonic} with {name}")
        return bool(on) and name in modifiers

    def source(i: int) -> str:
        code = d.value(f"SRC{i}")
        if allowed(f"s{i}", d.value(f"S{i}")):
            if code in _FLOAT_CONSTANTS and _INT16.search(mnemonic):
                # LLVM prints a float constant of a 16-bit integer opcode as its half's bits (0xc000)
                raise _Unsupported(f"{mnemonic} with a float constant")
            text = scalar(code, 1, layout)
            if d.value(f"SRC{i}_NEG") or d.value(f"SRC{i}_ABS") or d.value(f"SRC{i}_SEXT"):
                raise _Unsupported(f"{mnemonic} with a modifier on scalar source {i}")
        else:
            text = f"v{code}"
        sext = allowed(f"sext{i}", d.value(f"SRC{i}_SEXT"))
        neg = allowed(f"neg{i}", d.value(f"SRC{i}_NEG"))
        absolute = allowed(f"abs{i}", d.value(f"SRC{i}_ABS"))
        if sext and (neg or absolute):
            raise _Unsupported(f"{mnemonic} with sext and neg/abs")
        if absolute:
            text = f"|{text}|"
        if neg:
            text = f"-{text}"
        return f"sext({text})" if sext else text

    values = {"VDST": lambda: f"v{d.value('VDST')}", "SRC0": lambda: source(0), "VSRC1": lambda: source(1)}

    def sub(m: re.Match[str]) -> str:
        if m.group(1) not in values:
            raise _Unsupported(f"SDWA operand {m.group(1)}")
        return values[m.group(1)]()

    if vop == "VOP1" and any(d.value(f) for f in ("S1", "SRC1_SEL", "SRC1_SEXT", "SRC1_NEG", "SRC1_ABS")):
        raise _Unsupported(f"{mnemonic} with source 1 fields set")
    # the operands before the selects LLVM printed for the probe (put back below from the fields)
    operands = _PLACEHOLDER.sub(sub, template).partition(" dst_sel:" if " dst_sel:" in template
                                                         else " src0_sel:")[0]
    if d.get("SD") is not None:  # VOPC from gfx9: SD = 1 writes SDST instead of VCC
        if allowed("sd", d.value("SD")):
            lanes = 2 if operands.startswith("vcc,") else 1
            operands = scalar(d.value("SDST"), lanes, layout) + operands[operands.index(","):]
        elif d.value("SDST"):
            raise _Unsupported(f"{mnemonic} with SDST set and SD clear")
    tail = ""
    if d.get("DST_SEL") is not None:
        clamp, omod = d.value("CLAMP"), d.value("OMOD")
        tail = (" clamp" if allowed("clamp", clamp) else "") + (_OMOD[omod] if allowed("omod", omod) else "")
        if "dst_sel:" not in template:  # gfx8 VOPC writes VCC: LLVM prints (and reads) no destination select
            if clamp or omod:
                raise _Unsupported(f"{mnemonic} with clamp or omod")
            tail = ""
    return mnemonic, operands + tail + _selects(template, d, mnemonic)


def _selects(template: str, d: Decoded, mnemonic: str) -> str:
    out = ""
    for word, field, names in (("dst_sel", "DST_SEL", _SEL), ("dst_unused", "DST_UNUSED", _UNUSED),
                               ("src0_sel", "SRC0_SEL", _SEL), ("src1_sel", "SRC1_SEL", _SEL)):
        if f" {word}:" in template:
            value = d.value(field)
            if value >= len(names):
                raise _Unsupported(f"{mnemonic} with {word} {value}")
            out += f" {word}:{names[value]}"
    return out
