"""MAI instructions (gfx908/gfx90a/gfx940 ``v_mfma*``/``v_smfmac*``: VOP3P words with their own modifier fields) in
LLVM's spelling: ``v_mfma_f32_4x4x1f32 a[0:3], v1, a2, 0 cbsz:3 abid:2 blgp:5``.

Fields (AMD CDNA ISA guides, VOP3P-MAI; checked with ``llvm-mc-19 -show-encoding``): VDST 7:0, CBSZ 10:8, ABID
14:11, ACC_CD 15 (VDST and SRC2 are AGPRs), SRC0 40:32, SRC1 49:41, SRC2 58:50, ACC 60:59 (SRC0/SRC1 are AGPRs),
BLGP 63:61. The tables' ``MAI`` section (tools/gen_opcode_tables.py) gives each opcode's mnemonic, its template with
every modifier 0, and the modifiers LLVM accepts for it; an instruction using any other is a diagnostic."""

from __future__ import annotations

import re

from isalens.isa.amdgcn.decoder.operands import _bits, _fill, _Unsupported
from isalens.isa.amdgcn.decoder.tables import opcode_table
from isalens.isa.amdgcn.fields import Decoded

#: SRC2 codes below 256 LLVM 19 prints for an MFMA accumulator: inline integers and floats (AMD ISA guides,
#: "Inline constants") and the src_* specials; an SGPR or a literal there it rejects
_SRC2_CONSTANTS = frozenset((*range(128, 209), *range(235, 240), *range(240, 249), *range(251, 255)))


def is_mai(op: int, family: str) -> bool:
    """Whether VOP3P opcode ``op`` is an MAI instruction of ``family`` (its table has an ``MAI`` row for it)."""
    return op in opcode_table(family).get("MAI", {})


def mai(d: Decoded, family: str, layout: str) -> tuple[str, str]:
    """(mnemonic, operands) of an MAI instruction; raises :class:`_Unsupported` for what LLVM would not print."""
    mnemonic, template, accepted = opcode_table(family)["MAI"][d.value("OP")]
    cbsz, abid, acc_cd = _bits(d.words, 10, 8), _bits(d.words, 14, 11), _bits(d.words, 15, 15)
    acc, blgp = _bits(d.words, 60, 59), _bits(d.words, 63, 61)
    src0, src1, src2 = _bits(d.words, 40, 32), _bits(d.words, 49, 41), _bits(d.words, 58, 50)
    if src0 < 256 or src1 < 256:
        raise _Unsupported(f"{mnemonic} with a scalar or constant A/B source")  # LLVM: AV register classes
    if src2 < 256 and (src2 not in _SRC2_CONSTANTS or "c2" not in accepted):
        raise _Unsupported(f"{mnemonic} with scalar operand {src2} as C")
    for name, on in (("cbsz", cbsz), ("abid", abid), ("acc0", acc & 1), ("acc1", acc & 2)):
        if on and name not in accepted:
            raise _Unsupported(f"{mnemonic} with {name}")
    if acc_cd and not accepted & {"acc_cd", "acc_d", "acc_cd-"}:  # acc_cd-: LLVM ignores it (gfx908)
        raise _Unsupported(f"{mnemonic} with acc_cd")
    if blgp and not accepted & {"blgp", "neg"}:
        raise _Unsupported(f"{mnemonic} with blgp")
    agpr = [name for name, on in (("SRC0", acc & 1), ("SRC1", acc & 2)) if on]
    if acc_cd:
        agpr += ["VDST", "SRC2"] if "acc_cd" in accepted else ["VDST"]
    for name in agpr:
        template = re.sub(rf"\{{{name}:v:", f"{{{name}:a:", template)
    out = _fill(template, d, layout, None)
    if cbsz:
        out += f" cbsz:{cbsz}"
    if abid:
        out += f" abid:{abid}"
    if blgp:
        # gfx940's f64 opcodes print BLGP as source negation, bit 61 first
        out += f" neg:[{blgp & 1},{blgp >> 1 & 1},{blgp >> 2}]" if "neg" in accepted else f" blgp:{blgp}"
    return mnemonic, out
