"""gfx12.5's VOPD3 (``v_dual_* :: v_dual_*`` with three-source halves, 96 bits, first byte 0xCF) for the decoder.

Field layout as ROCm LLVM decodes it (each bit flipped alone; docs/decoder.md): OPX 23:18, OPY 17:12, SRCX0 8:0 and
SRCY0 40:32 (9-bit sources; 255 adds a literal dword both halves read), neg of SRCX0/1/2 and SRCY0/1/2 in bits
41-46, SRCX1 55:48, SRCX2 63:56, VDSTX 71:64, SRCY1 79:72, SRCY2 87:80, VDSTY 95:88. Sections ``VOPD3X``/``VOPD3Y``
of the table give each half's mnemonic, template and, in the last column, the fields LLVM wants zero and the
sources whose neg bit it prints (``negSRCX0``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from isalens.isa.amdgcn.decoder.operands import _bits, _fill, _Unsupported
from isalens.isa.amdgcn.decoder.tables import opcode_table
from isalens.isa.amdgcn.fields import Decoded, Field

__all__ = ["vopd3", "vopd3_decoded"]

_FIELDS = (("OPX", 23, 18), ("OPY", 17, 12), ("SRCX0", 8, 0), ("SRCY0", 40, 32), ("SRCX1", 55, 48),
           ("SRCX2", 63, 56), ("VDSTX", 71, 64), ("SRCY1", 79, 72), ("SRCY2", 87, 80), ("VDSTY", 95, 88))
_NEG = {"SRCX0": 41, "SRCX1": 42, "SRCX2": 43, "SRCY0": 44, "SRCY1": 45, "SRCY2": 46}
#: the probe value of SRC2 that a template shows as bitop2's immediate (tools/gen_opcode_tables.py vopd3)
_BITOP3 = {"VOPD3X": " bitop3:0x20", "VOPD3Y": " bitop3:0x40"}


def vopd3_decoded(words: Sequence[int]) -> Decoded:
    """The fields of the VOPD3 instruction at ``words[0]`` (three dwords, four with a literal)."""
    if len(words) < 3:
        raise _Unsupported("VOPD3 instruction cut short")
    fields = [Field(name, hi, lo, _bits(words[:3], hi, lo), "") for name, hi, lo in _FIELDS]
    literal = fields[2].value == 255 or fields[3].value == 255
    if literal and len(words) < 4:
        raise _Unsupported("VOPD3 literal cut short")
    if literal:
        fields.append(Field("LITERAL", 127, 96, words[3], f"{words[3]:#010x}"))
    return Decoded("VOPD3", tuple(words[:4 if literal else 3]), tuple(fields))


def _bitop3(value: int) -> str:
    # ROCm LLVM (all 256 values probed): none for 0, decimal up to 10, hex above (bitop3:1, bitop3:0x14)
    return "" if not value else f" bitop3:{value}" if value <= 10 else f" bitop3:{value:#x}"


def _half(d: Decoded, section: str, layout: str, wide: Callable[[str], str]) -> str:
    op = d.value("OPX" if section == "VOPD3X" else "OPY")
    row = opcode_table("gfx12_5").get(section, {}).get(op)
    if row is None:
        raise _Unsupported(f"{section} opcode {op}")
    mnemonic, template, marks = row
    names = [n for n in _NEG if n[3] == section[-1]]
    for name in names:
        if name in marks and d.value(name):
            raise _Unsupported(f"{mnemonic} with its unused field {name} set")
        if _bits(d.words, _NEG[name], _NEG[name]) and "neg" + name not in marks:
            raise _Unsupported(f"{mnemonic} with neg on {name}")
    if d.value(names[0]) == 254:
        raise _Unsupported("VOPD3 source 254")
    if f"{{{names[2]}:s:" in template and d.value(names[2]) >= 128:  # LLVM: "Invalid immediate"
        raise _Unsupported(f"{mnemonic} with a constant mask")
    tail = ""
    if template.endswith(_BITOP3[section]):
        template, tail = template.removesuffix(_BITOP3[section]), _bitop3(d.value(names[2]))
    literal = d.get("LITERAL")
    if literal is not None and ":2}" in template:  # ROCm LLVM reads other registers then: not spelled
        raise _Unsupported(f"{mnemonic} with a literal")
    wrap = {n: (_bits(d.words, _NEG[n], _NEG[n]), 0) for n in names}
    text = _fill(template, d, layout, literal.value if literal else None, wrap, wide=wide(mnemonic))
    return f"{mnemonic} {text}{tail}"


def vopd3(d: Decoded, layout: str, wide: Callable[[str], str]) -> tuple[str, str]:
    """(mnemonic, operands) of both halves: ``v_dual_x … :: v_dual_y …``; ``wide`` gives a mnemonic's 64-bit
    operand type for literals (text._wide_kind)."""
    if _bits(d.words, 11, 9) or _bits(d.words, 47, 47):
        raise _Unsupported("VOPD3 bits 11:9 or 47 set")  # ROCm LLVM ignores them here: not guessed
    x, y = _half(d, "VOPD3X", layout, wide), _half(d, "VOPD3Y", layout, wide)
    mnemonic, _, operands = x.partition(" ")
    return mnemonic, f"{operands} :: {y}"
