"""When isalens must not advise: code whose registers or control flow it only guesses."""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, is_, methodcaller

from isalens.ir.instruction import BranchKind
from isalens.ir.program import Kernel

#: register-indexed access (through M0 or the GPR index mode): liveness of the indexed registers is approximate
_INDEXED = ("v_movrel", "s_movrel", "v_swaprel", "s_set_gpr_idx_on")


def refusal(kernel: Kernel) -> str | None:
    """Why advice on ``kernel`` would rest on guesses, or None when every fact is exact."""
    if kernel.guessed:
        return (f"{kernel.guessed} instruction(s) unknown to isalens were guessed (--ignore-unknown): "
                "no advice on code it cannot reason about")
    # the first instruction any test holds for, each test a walk in C calls (map/compress), not a loop per
    # instruction; at it, the tests in the order they are written below
    instructions = kernel.instructions
    n = len(instructions)
    every = range(n)
    first = min(next(compress(every, map(attrgetter("guessed"), instructions)), n),
                next(compress(every, map(methodcaller("startswith", _INDEXED), map(attrgetter("mnemonic"),
                                                                                   instructions))), n),
                next(compress(every, map(is_, map(attrgetter("branch"), instructions), repeat(BranchKind.INDIRECT))),
                     n))
    for ins in instructions[first:first + 1]:
        if ins.guessed:
            return f"line {ins.line}: '{ins.mnemonic}' was guessed: no advice on code it cannot reason about"
        if ins.mnemonic.startswith(_INDEXED):
            return (f"line {ins.line}: '{ins.mnemonic}' addresses registers through an index, so liveness is "
                    "approximate: no advice on code it cannot reason about")
        if ins.branch is BranchKind.INDIRECT:
            return f"line {ins.line}: an indirect branch leaves the control flow unknown: no advice"
    return None
