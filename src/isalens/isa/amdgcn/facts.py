"""Per-instruction facts from the ISA tables: class key, size, constant kinds and modifiers (see
:class:`isalens.ir.instruction.InstructionFacts`). The parser calls :func:`describe` once per distinct
instruction text; nothing else computes these."""

from __future__ import annotations

from isalens.ir.instruction import InstructionFacts
from isalens.ir.operands import Operand, OtherOperand, RegOperand
from isalens.isa.amdgcn import classes, encoding
from isalens.isa.amdgcn.syntax import parse_instruction_text

__all__ = ["describe", "modifier_uses", "with_encoding"]

_SDWA = ("dst_sel:", "dst_unused:", "src0_sel:", "src1_sel:")
_DPP = ("quad_perm:", "row_shl:", "row_shr:", "row_ror:", "wave_shl:", "wave_rol:", "wave_shr:", "wave_ror:",
        "row_mirror", "row_half_mirror", "row_bcast:", "row_share:", "row_xmask:", "row_newbcast:", "dpp8:",
        "row_mask:", "bank_mask:", "bound_ctrl:", "fi:")
_OP_SEL = ("op_sel:", "op_sel_hi:", "neg_lo:", "neg_hi:", "byte_sel:")
_OUTPUT = ("clamp", "omod:", "mul:", "div:")


def modifier_uses(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...],
                  ) -> tuple[tuple[str, str], ...]:
    """(group, text) for every modifier the instruction uses, source modifiers included."""
    out: list[tuple[str, str]] = []
    words = list(modifiers) + [op.text for op in operands if isinstance(op, OtherOperand)]
    for word in words:
        if word.startswith(_SDWA):
            out.append(("sdwa", word))
        elif word.startswith(_DPP):
            out.append(("dpp", word))
        elif word.startswith(_OP_SEL):
            out.append(("op_sel", word))
        elif word == "clamp" or word.startswith(_OUTPUT[1:]):
            out.append(("output", word))
    for op in operands:
        if isinstance(op, RegOperand):
            if op.neg:
                out.append(("source", "neg"))
            if op.abs:
                out.append(("source", "abs"))
            if "sext(" in op.text:
                out.append(("source", "sext"))
    if mnemonic.endswith("_sdwa"):
        out.append(("encoding", "sdwa"))
    elif mnemonic.endswith(("_dpp", "_dpp8")) or any(g == "dpp" for g, _ in out):
        out.append(("encoding", "dpp8" if any(w.startswith("dpp8:") for _, w in out) else "dpp"))
    return tuple(out)


def describe(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], text: str,
             target: str, generation: int) -> InstructionFacts:
    """The facts of one instruction as written (its size by the encoding rules)."""
    klass = classes.class_of(mnemonic, generation)
    try:
        size = encoding.text_size(mnemonic, operands, modifiers, target, text).bytes
    except ValueError:  # an instruction kept with --ignore-unknown: only its encoding words can say
        size = 0
    if "::" in text:  # VOPD: each half has its own destination and sources
        kinds: tuple[str | None, ...] = ()
        literals: list[str] = []
        for half in (parse_instruction_text(h) for h in text.split("::")):
            half_kinds = encoding.constant_kinds(half.mnemonic.replace("v_dual_", "v_", 1), half.operands, generation)
            kinds += half_kinds
            literals += [op.text for op, k in zip(half.operands, half_kinds, strict=True) if k == "literal"]
    else:
        kinds = encoding.constant_kinds(mnemonic, operands, generation)
        literals = [op.text for op, k in zip(operands, kinds, strict=True) if k == "literal"]
    return InstructionFacts(klass, size, False, kinds, tuple(literals),
                            modifier_uses(mnemonic, operands, modifiers))


def with_encoding(facts: InstructionFacts, words: tuple[int, ...]) -> InstructionFacts:
    """``facts`` with the exact size the encoding words give."""
    return InstructionFacts(facts.klass, 4 * len(words), True, facts.constants, facts.literals, facts.modifiers)
