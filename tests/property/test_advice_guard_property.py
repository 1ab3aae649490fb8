"""The advice guard (``advice.guard.refusal``) finds the first instruction it must refuse on through C-speed walks
(twentieth session); its definition is the loop it replaced, written out below as the oracle: the first
instruction, in order, that was guessed, addresses registers through an index or branches indirectly, and at it
the first of those three tests that holds."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.advice.guard import _INDEXED, refusal
from isalens.ir.instruction import BranchKind, Instruction


def _ins(line: int, guessed: bool, mnemonic: str, branch: BranchKind) -> Instruction:
    """An instruction with only the fields the guard reads (the core's walks read a tuple's fields)."""
    return Instruction(line - 10, line, mnemonic, mnemonic, (), (), 0, 0, branch, guessed=guessed)


def _by_definition(kernel: Any) -> str | None:
    if kernel.guessed:
        return (f"{kernel.guessed} instruction(s) unknown to isalens were guessed (--ignore-unknown): "
                "no advice on code it cannot reason about")
    for ins in kernel.instructions:
        if ins.guessed:
            return f"line {ins.line}: '{ins.mnemonic}' was guessed: no advice on code it cannot reason about"
        if ins.mnemonic.startswith(_INDEXED):
            return (f"line {ins.line}: '{ins.mnemonic}' addresses registers through an index, so liveness is "
                    "approximate: no advice on code it cannot reason about")
        if ins.branch is BranchKind.INDIRECT:
            return f"line {ins.line}: an indirect branch leaves the control flow unknown: no advice"
    return None


_MNEMONICS = st.sampled_from(["v_add_f32", "s_mov_b32", "v_movrels_b32", "s_movreld_b32", "v_swaprel_b32",
                              "s_set_gpr_idx_on", "v_mov_b32", "s_setpc_b64"])
_INSTRUCTION = st.builds(lambda g, m, b: (g, m, b), st.booleans() | st.just(False) | st.just(False), _MNEMONICS,
                         st.sampled_from(list(BranchKind)))


@settings(max_examples=1000, deadline=None)
@given(st.lists(_INSTRUCTION, max_size=12), st.integers(0, 2) | st.just(0))
def test_refusal_is_the_first_by_definition(rows: list[tuple[bool, str, BranchKind]], guessed: int) -> None:
    instructions = tuple(_ins(10 + k, g, m, b) for k, (g, m, b) in enumerate(rows))
    kernel = SimpleNamespace(guessed=guessed, instructions=instructions)
    assert refusal(kernel) == _by_definition(kernel)  # type: ignore[arg-type]


def test_refusal_example() -> None:
    """By hand: line 11 branches indirectly, line 12 reads through M0's index, line 13 was guessed: line 11 is
    first. Without line 11, line 12 (the index) is; with line 12 also guessed, the guess is named first."""
    rows = [_ins(10, False, "v_add_f32", BranchKind.NONE), _ins(11, False, "s_setpc_b64", BranchKind.INDIRECT),
            _ins(12, False, "v_movrels_b32", BranchKind.NONE), _ins(13, True, "v_foo", BranchKind.NONE)]
    kernel = SimpleNamespace(guessed=0, instructions=tuple(rows))
    assert refusal(kernel) == "line 11: an indirect branch leaves the control flow unknown: no advice"  # type: ignore[arg-type]
    kernel.instructions = (rows[0], rows[2], rows[3])
    assert refusal(kernel).startswith("line 12: 'v_movrels_b32' addresses registers")  # type: ignore[arg-type, union-attr]
    rows[2] = rows[2]._replace(guessed=True)
    kernel.instructions = (rows[0], rows[2], rows[3])
    assert refusal(kernel) == "line 12: 'v_movrels_b32' was guessed: no advice on code it cannot reason about"  # type: ignore[arg-type]
