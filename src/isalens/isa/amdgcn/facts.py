"""Per-instruction facts from the ISA tables: class key, size and constant kinds (see
:class:`isalens.ir.instruction.InstructionFacts`). The parser calls :func:`describe` once per distinct
instruction text; nothing else computes these."""

from __future__ import annotations

from isalens.ir.instruction import InstructionFacts
from isalens.ir.operands import Operand
from isalens.isa.amdgcn import classes, encoding
from isalens.isa.amdgcn.syntax import parse_instruction_text

__all__ = ["describe", "with_encoding"]


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
    return InstructionFacts(klass, size, False, kinds, tuple(literals))


def with_encoding(facts: InstructionFacts, words: tuple[int, ...]) -> InstructionFacts:
    """``facts`` with the exact size the encoding words give."""
    return InstructionFacts(facts.klass, 4 * len(words), True, facts.constants, facts.literals)
