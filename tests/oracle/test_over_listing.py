"""By hand: which registers LLVM lists live-in but no path below reads, and which LLVM bookkeeping lists
them (``over_listing`` in test_compiler_oracle.py). The three shapes are the ones held-back Rodinia code
showed (findIndexBin, likelihood_kernel, kernel_cam), cut down to the instructions that decide them; each
has a variant where a register is really read below, which must stay unexplained."""

from __future__ import annotations

import pytest

from tests.oracle.mir import mir_block_instructions, mir_block_livein_items, mir_read_live_ins
from tests.oracle.test_compiler_oracle import OVER_LISTINGS, BlockLiveIn, block_convention, over_listing

Regs = set[tuple[str, int]]

#: bb.0 opens an EXEC region and ends without a branch (SIPreEmitPeephole removed its s_cbranch_execz and
#: the edge to bb.2, not bb.0's live-ins): s[6:7] is listed, but bb.1 runs whatever EXEC is and its first
#: instruction, a scalar one, writes s[6:7] before bb.2 reads them. ``{READ}`` is where the second variant
#: reads s6 first.
EXECZ = """\
---
name:            f
body:             |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $vgpr0, $vgpr1, $sgpr4_sgpr5, $sgpr6_sgpr7

    $vcc = V_CMP_LT_F32_e64 0, $vgpr0, 0, $vgpr1, 0, implicit $mode, implicit $exec
    $sgpr4_sgpr5 = S_AND_SAVEEXEC_B64 $vcc, implicit-def $exec, implicit-def dead $scc, implicit $exec

  bb.1:
    successors: %bb.2(0x80000000)
    liveins: $sgpr4_sgpr5, $sgpr6_sgpr7

    {READ}$sgpr6_sgpr7 = S_XOR_B64 $exec, -1, implicit-def dead $scc

  bb.2:
    liveins: $sgpr4_sgpr5, $sgpr6_sgpr7

    $exec = S_OR_B64 $exec, $sgpr4_sgpr5, implicit-def $scc
    $vcc = S_AND_B64 $sgpr6_sgpr7, $exec, implicit-def $scc
    S_SETPC_B64_return undef $sgpr30_sgpr31, implicit $vcc
...
"""

#: a block LLVM's branch folder made after allocation: its live-ins, recomputed by addBlockLiveIns from
#: bb.1's ``$sgpr0_sgpr1_sgpr2_sgpr3:0xF0`` (s[2:3] live), name the tuple s[0:2] whole; only s2 and s3 are
#: read below. ``{READ}`` is where the second variant reads s1 as well.
TUPLE = """\
---
name:            k
body:             |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $sgpr0_sgpr1_sgpr2, $sgpr2_sgpr3, $scc

    S_BARRIER
    S_CBRANCH_SCC1 %bb.1, implicit killed $scc

  bb.1:
    liveins: $sgpr0_sgpr1_sgpr2_sgpr3:0x00000000000000F0

    {READ}GLOBAL_STORE_DWORD undef $vgpr0_vgpr1, undef $vgpr2, 0, 0, implicit $exec, implicit $sgpr2_sgpr3
    S_ENDPGM 0
...
"""

#: a function's entry block saves v40 (callee-saved) into a0 (caller-saved): LLVM lists a0 live-in of every
#: block, the entry included, where a0 is written before any read; bb.1 restores v40 from it. v7 is listed
#: and neither read nor written.
AGPR = """\
---
name:            g
body:             |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $agpr0, $vgpr0, $vgpr7, $vgpr40

    $agpr0 = V_ACCVGPR_WRITE_B32_e64 killed $vgpr40, implicit $exec
    $vgpr40 = V_MOV_B32_e32 $vgpr0, implicit $exec

  bb.1:
    liveins: $agpr0, $vgpr40

    $vgpr0 = V_ADD_F32_e32 $vgpr40, $vgpr40, implicit $mode, implicit $exec
    $vgpr40 = V_ACCVGPR_READ_B32_e64 $agpr0, implicit $exec
    S_SETPC_B64_return undef $sgpr30_sgpr31, implicit $vgpr0, implicit $vgpr40
...
"""


def _name(mir: str, function: str, number: int, missing: Regs, *, is_kernel: bool = False) -> str | None:
    blocks = mir_block_instructions(mir)[function]
    read = {(u[0], u[1]) for u in mir_read_live_ins(blocks)[number]}
    return over_listing(missing, read, mir_block_livein_items(mir)[function][number], blocks, number, is_kernel)


def s(*ns: int) -> Regs:
    return {("s", n) for n in ns}


def test_live_ins_of_a_removed_execz_edge() -> None:
    # bb.1 writes s[6:7] before bb.2 reads them: no read below from bb.0
    assert _name(EXECZ.replace("{READ}", ""), "f", 0, s(6, 7)) == OVER_LISTINGS["execz"]
    # bb.1 reads s6 first: the hardware needs it, not a convention
    read = "$sgpr8 = S_MOV_B32 $sgpr6\n    "
    assert _name(EXECZ.replace("{READ}", read), "f", 0, s(6, 7)) is None
    # not the removed-branch shape when the block ends in a branch; still no read below
    branched = EXECZ.replace("{READ}", "").replace(
        "implicit-def dead $scc, implicit $exec\n", "implicit-def dead $scc, implicit $exec\n"
        "    S_CBRANCH_EXECZ %bb.1, implicit $exec\n", 1)
    assert _name(branched, "f", 0, s(6, 7)) == OVER_LISTINGS["scalar"]


def test_a_tuple_listed_whole_for_its_live_part() -> None:
    # s0 and s1 are listed only through $sgpr0_sgpr1_sgpr2, of which s2 is read below
    assert _name(TUPLE.replace("{READ}", ""), "k", 0, s(0, 1)) == OVER_LISTINGS["tuple"]
    read = "$sgpr5 = S_MOV_B32 $sgpr1\n    "
    assert _name(TUPLE.replace("{READ}", read), "k", 0, s(0, 1)) is None


@pytest.mark.parametrize(("number", "is_kernel", "expected"), [
    (0, False, OVER_LISTINGS["entry"]),  # written before any read in a function's entry block
    (0, True, None),  # a kernel's entry: not the saved-VGPR shape
    (1, False, None),  # read in bb.1 (the restore): live, LLVM is right
])
def test_agprs_a_functions_entry_writes(number: int, is_kernel: bool, expected: str | None) -> None:
    assert _name(AGPR, "g", number, {("a", 0)}, is_kernel=is_kernel) == expected


def test_vector_registers_read_below_or_not_written_at_the_entry_stay_unexplained() -> None:
    # v0 is read by bb.0 itself, v40 by bb.1: LLVM is right to list them
    assert _name(AGPR, "g", 0, {("v", 0)}) is None
    assert _name(AGPR, "g", 1, {("v", 40)}) is None
    # v7: no read below, but a VGPR the entry does not write may hold lanes a path LLVM's graph lacks needs
    assert _name(AGPR, "g", 0, {("v", 7)}) is None


def _block(ours: Regs, theirs: Regs, over_listed: str | None = None) -> BlockLiveIn:
    return BlockLiveIn("x.cl", "gfx90a", "g", False, 0, frozenset(ours), frozenset(theirs), over_listed)


def test_block_convention_names_over_listing_only_on_llvms_side() -> None:
    a0 = {("a", 0)}
    assert block_convention(_block(set(), a0, OVER_LISTINGS["entry"])) == OVER_LISTINGS["entry"]
    # the same block with no over-listing found: unexplained
    assert block_convention(_block(set(), a0)) is None
    # over-listing does not excuse a register we have and LLVM does not
    assert block_convention(_block({("v", 1)}, a0, OVER_LISTINGS["entry"])) is None
