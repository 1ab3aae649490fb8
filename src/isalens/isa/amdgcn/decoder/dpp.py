"""DPP (VOP1/VOP2/VOPC with SRC0 = 0xFA and a second dword, gfx8-gfx12; DPP8 with SRC0 = 0xE9/0xEA, gfx10+) in
LLVM's spelling: ``v_add_f32_dpp v8, -|v16|, v24 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1``.

The tables' ``DPP_VOP1/2/C`` sections (tools/gen_opcode_tables.py) give each opcode's mnemonic, its operand
template and the modifiers LLVM accepts for it; ``DPP_CTRL`` how LLVM names each control value. An instruction
using anything else is a diagnostic."""

from __future__ import annotations

import re

from isalens.isa.amdgcn.decoder.operands import _PLACEHOLDER, _fill, _Unsupported
from isalens.isa.amdgcn.decoder.tables import opcode_table
from isalens.isa.amdgcn.fields import Decoded

_SIXTEEN = re.compile(r"\{(\w+):[th]:1\}")


def _vop(word0: int) -> str:
    return "VOP1" if word0 >> 25 == 0x3F else "VOPC" if word0 >> 25 == 0x3E else "VOP2"


def dpp(d: Decoded, family: str, layout: str, wave64: bool) -> tuple[str, str]:
    """(mnemonic, operands) of a DPP or DPP8 instruction; raises :class:`_Unsupported` for what LLVM would not
    print."""
    vop = _vop(d.words[0])
    op = d.value("OP")
    tables = opcode_table(family, wave64)
    row = tables.get("DPP_" + vop, {}).get(op)
    if row is None:
        raise _Unsupported(f"DPP {vop} opcode {op}")
    mnemonic, template, accepted = row
    # gfx11+ 16-bit operands: a high half (register bit 7) LLVM 19 spells "fake16" (an invalid register)
    plain = tables.get(vop, {}).get(op)
    halves = {m.group(1) for m in _SIXTEEN.finditer(plain[1])} if plain else set()
    halves |= {m.group(1) for m in _PLACEHOLDER.finditer(template) if template[m.end():].startswith(".l")}
    for name in halves:
        if d.get(name) is not None and d.value(name) >= 128:
            raise _Unsupported(f"{mnemonic} with a high 16-bit half in {name}")
    # SRC0 is a VGPR in the DPP dword: 256 + n as a 9-bit source field spells it
    fields = tuple(f._replace(value=f.value + 256) if f.name == "SRC0" else f for f in d.fields)
    d = Decoded(d.format, d.words, fields)
    if d.format == "DPP8":
        label = "dpp8fi" if d.value("SRC0_ENC") == 0xEA else "dpp8"
        if label not in accepted:
            raise _Unsupported(f"{mnemonic} as {label}")
        sel = d.value("DPP8_SEL")
        lanes = ",".join(str(sel >> (3 * i) & 7) for i in range(8))
        return mnemonic, _fill(template, d, layout, None) + f" dpp8:[{lanes}]" + (" fi:1" if label == "dpp8fi" else "")

    def flag(name: str) -> bool:
        if not d.value(name.upper()):
            return False
        printed = [m for m in accepted if m.startswith(name)]
        if name in ("src0_neg", "src0_abs", "src1_neg", "src1_abs"):
            short = name[5:] + name[3]  # src0_neg -> neg0
            if short + "-" in accepted:  # LLVM ignores it for this opcode (integer sources)
                return False
            if short not in accepted:
                raise _Unsupported(f"{mnemonic} with {short}")
            return True
        if not printed:
            raise _Unsupported(f"{mnemonic} with {name}")
        return not printed[0].endswith("-")

    wrap = {"SRC0": (flag("src0_neg"), flag("src0_abs")), "VSRC1": (flag("src1_neg"), flag("src1_abs"))}
    if vop == "VOP1" and any(wrap["VSRC1"]):
        raise _Unsupported(f"{mnemonic} with source 1 modifiers")
    if _reserved(d) and "r17-" not in accepted:
        raise _Unsupported(f"{mnemonic} with DPP bit 17")
    control = tables.get("DPP_CTRL", {}).get(d.value("DPP_CTRL"))
    if control is None:
        raise _Unsupported(f"DPP control {d.value('DPP_CTRL'):#x}")
    out = _fill(template, d, layout, None, {k: (int(n), int(a)) for k, (n, a) in wrap.items()})
    out += f" {control[1]} row_mask:{d.value('ROW_MASK'):#x} bank_mask:{d.value('BANK_MASK'):#x}"
    for name in ("bound_ctrl", "fi"):
        if flag(name):
            out += " " + next(m for m in accepted if m.startswith(name))
    return mnemonic, out


def _reserved(d: Decoded) -> bool:
    return bool(d.words[1] >> 17 & 1)
