"""The indexed SGPR-writer search that resolves call targets (``calls._Writers``) answers as the plain walk
it replaced: back from a line, stopping at a branch other than a call, to the closest write of the register,
however far (the walk once stopped after 256 lines). The walk is written out here as the oracle (brute
force)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import isalens
from isalens.analysis import calls
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.registers import Reg, RegFile

#: lines of gfx9 code: writes of s0-s5 (one or two at a time), reads, a call, branches that end the walk
_LINES = (
    "s_mov_b32 s0, 1", "s_mov_b32 s1, s0", "s_mov_b32 s2, 7", "s_mov_b64 s[2:3], 0", "s_mov_b64 s[4:5], s[0:1]",
    "s_add_u32 s4, s4, 4", "s_getpc_b64 s[4:5]", "s_nop 0", "v_mov_b32_e32 v0, s1",
    "s_swappc_b64 s[30:31], s[4:5]", "s_cbranch_scc0 .LBB0_1", "s_branch .LBB0_1",
)


def _walk(instructions: Sequence[Instruction], before: int, sgpr: int) -> Instruction | None:
    mask = Reg(RegFile.SGPR, sgpr).mask()
    for i in range(before - 1, -1, -1):
        ins = instructions[i]
        if ins.branch is not BranchKind.NONE and ins.branch is not BranchKind.CALL:
            return None
        if ins.defs & mask:
            return ins
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), min_size=1, max_size=400))
def test_indexed_writers_equal_the_walk(lines: list[str]) -> None:
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n\t.text\n\t.type\tf,@function\nf:\n"
            + "".join(f"\t{line}\n" for line in lines) + ".LBB0_1:\n\ts_setpc_b64 s[30:31]\n.Lfunc_end0:\n")
    instructions = isalens.load(text).kernel("f").ir.instructions
    writers = calls._Writers(instructions)
    for before in range(len(instructions) + 1):
        for sgpr in range(6):
            assert writers.before(before, sgpr) is _walk(instructions, before, sgpr), (before, sgpr)
