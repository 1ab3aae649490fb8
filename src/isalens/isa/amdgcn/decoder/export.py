"""EXP (gfx8-gfx11 ``exp``, gfx12 ``export``) in LLVM's spelling: ``exp mrt0 v8, v8, v16, v16 done compr vm``.

Fields (AMD ISA guides, EXP; checked with ``llvm-mc-19 -show-encoding``): EN 3:0 (sources 0-3 enabled, ``off``
otherwise), TGT 9:4, COMPR 10, DONE 11, VM 12 (gfx11: ROW_EN 13), VSRC0-3 in word 1. The tables' ``EXP`` section
names each target, ``EXP_FLAGS`` says how LLVM prints bits 10-13 and in which order; with COMPR the four printed
sources are VSRC0, VSRC0, VSRC1, VSRC1 (two 16-bit halves per register), as LLVM prints them."""

from __future__ import annotations

from isalens.isa.amdgcn.decoder.operands import _Unsupported
from isalens.isa.amdgcn.decoder.tables import opcode_table
from isalens.isa.amdgcn.fields import Decoded

#: word 0 bits the EXP fields use (EN, TGT, the flag bits 10-13, the encoding)
_KNOWN = 0xF | 0x3F << 4 | 0xF << 10 | 0x3F << 26


def export(d: Decoded, family: str) -> tuple[str, str]:
    """(mnemonic, operands) of an EXP instruction (``exp``; gfx12: ``export``); raises :class:`_Unsupported`
    for what LLVM would not print."""
    tables = opcode_table(family)
    target = tables.get("EXP", {}).get(d.value("TGT"))
    flags = tables.get("EXP_FLAGS", {})
    if target is None:
        raise _Unsupported(f"export target {d.value('TGT')}")
    word0 = d.words[0]
    if word0 & ~_KNOWN & 0xFFFFFFFF:
        raise _Unsupported("EXP bits outside its fields")
    printed = []
    for bit in (10, 11, 12, 13):
        if word0 >> bit & 1:
            row = flags.get(bit)
            if row is None:
                raise _Unsupported(f"EXP bit {bit}")
            if row[1] != "-":
                printed.append(row[1])
    order = flags.get(99, ("", "", ""))[1].split()
    sources = [d.value(f"VSRC{i}") for i in range(4)]
    if "compr" in printed:
        sources = [sources[0], sources[0], sources[1], sources[1]]
    enabled = d.value("EN")
    operands = ", ".join(f"v{v}" if enabled >> i & 1 else "off" for i, v in enumerate(sources))
    return target[0], " ".join([target[1], operands, *sorted(printed, key=order.index)])
