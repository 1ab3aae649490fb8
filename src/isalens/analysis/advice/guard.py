"""When isalens must not advise: code whose registers or control flow it only guesses."""

from __future__ import annotations

from isalens import _core
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.program import Kernel

#: register-indexed access (through M0 or the GPR index mode): liveness of the indexed registers is approximate
_INDEXED = ("v_movrel", "s_movrel", "v_swaprel", "s_set_gpr_idx_on")
_GUESSED_AT = Instruction._fields.index("guessed")
_MNEMONIC_AT = Instruction._fields.index("mnemonic")
_BRANCH_AT = Instruction._fields.index("branch")


def refusal(kernel: Kernel) -> str | None:
    """Why advice on ``kernel`` would rest on guesses, or None when every fact is exact."""
    if kernel.guessed:
        return (f"{kernel.guessed} instruction(s) unknown to isalens were guessed (--ignore-unknown): "
                "no advice on code it cannot reason about")
    # the first instruction any test holds for, each test a walk of the core's (compiled when built: three walks
    # of C calls, map/compress over the fields' accessors, took 24 ms of the dense 100k kernel's analyze); at it,
    # the tests in the order they are written below
    instructions = kernel.instructions
    n = len(instructions)
    first = min([*_core.rows_masked(instructions, _GUESSED_AT, 1)[:1],
                 *_core.rows_prefixed(instructions, _MNEMONIC_AT, _INDEXED)[:1],
                 *_core.rows_prefixed(instructions, _BRANCH_AT, (BranchKind.INDIRECT.value,))[:1], n])
    for ins in instructions[first:first + 1]:
        if ins.guessed:
            return f"line {ins.line}: '{ins.mnemonic}' was guessed: no advice on code it cannot reason about"
        if ins.mnemonic.startswith(_INDEXED):
            return (f"line {ins.line}: '{ins.mnemonic}' addresses registers through an index, so liveness is "
                    "approximate: no advice on code it cannot reason about")
        if ins.branch is BranchKind.INDIRECT:
            return f"line {ins.line}: an indirect branch leaves the control flow unknown: no advice"
    return None
