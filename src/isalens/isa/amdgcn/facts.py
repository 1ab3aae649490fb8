"""Per-instruction facts from the ISA tables: class key, size, constant kinds and modifiers (see
:class:`isalens.ir.instruction.InstructionFacts`). The parser calls :func:`describe` once per distinct
instruction text; nothing else computes these."""

from __future__ import annotations

from isalens.ir.instruction import InstructionFacts
from isalens.ir.operands import Operand, OtherOperand, RegOperand
from isalens.isa.amdgcn import classes, encoding
from isalens.isa.amdgcn.mnemonics import DPP_CONTROLS, SDWA_SELECTS, dual_to_single, is_dpp, vopd_halves

__all__ = ["describe", "modifier_uses", "rules_size", "with_encoding"]

_OP_SEL = ("op_sel:", "op_sel_hi:", "neg_lo:", "neg_hi:", "byte_sel:")
_OUTPUT = ("clamp", "omod:", "mul:", "div:")


def modifier_uses(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...],
                  ) -> tuple[tuple[str, str], ...]:
    """(group, text) for every modifier the instruction uses, source modifiers included."""
    out: list[tuple[str, str]] = []
    words = list(modifiers) + [op.text for op in operands if isinstance(op, OtherOperand)]
    for word in words:
        if word.startswith(SDWA_SELECTS):
            out.append(("sdwa", word))
        elif word.startswith(DPP_CONTROLS):
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
    elif is_dpp(mnemonic, words):
        out.append(("encoding", "dpp8" if any(w.startswith("dpp8:") for _, w in out) else "dpp"))
    return tuple(out)


def describe(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], text: str,
             target: str, generation: int, *, sized: bool = True) -> InstructionFacts:
    """The facts of one instruction as written (its size by the encoding rules; without ``sized``, size 0: a
    line with encoding words takes its size from them, :func:`with_encoding`, and :func:`rules_size` gives it
    when a line without words needs it)."""
    klass = classes.class_of(mnemonic, generation)
    size = rules_size(mnemonic, operands, modifiers, text, target) if sized else 0
    if "::" in text:  # VOPD: each half has its own destination and sources
        kinds: tuple[str | None, ...] = ()
        literals: list[str] = []
        for half in vopd_halves(text):
            half_kinds = encoding.constant_kinds(dual_to_single(half.mnemonic), half.operands, generation)
            kinds += half_kinds
            literals += [op.text for op, k in zip(half.operands, half_kinds, strict=True) if k == "literal"]
    else:
        kinds = encoding.constant_kinds(mnemonic, operands, generation)
        literals = [op.text for op, k in zip(operands, kinds, strict=True) if k == "literal"]
    return InstructionFacts(klass, size, False, kinds, tuple(literals),
                            modifier_uses(mnemonic, operands, modifiers))


def rules_size(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], text: str,
               target: str) -> int:
    """Bytes of the instruction by the encoding rules alone (0 when they do not say)."""
    try:
        return encoding.text_size(mnemonic, operands, modifiers, target, text).bytes
    except ValueError:  # an instruction kept with --ignore-unknown: only its encoding words can say
        return 0


def with_encoding(facts: InstructionFacts, words: tuple[int, ...]) -> InstructionFacts:
    """``facts`` with the exact size the encoding words give."""
    return InstructionFacts(facts.klass, 4 * len(words), True, facts.constants, facts.literals, facts.modifiers)
