"""Unit tests for the MIR live-in and assembly block parsers used by the liveness oracle."""

from __future__ import annotations

from pathlib import Path

import pytest

from .mir import (
    asm_block_markers,
    asm_block_starts,
    mir_block_instructions,
    mir_block_liveins,
    mir_live_after,
    mir_read_live_after,
    mir_register_units,
    without_tuple_implicits,
)


def v(index: int) -> set[tuple[str, int, int]]:
    """Both 16-bit halves of VGPR ``index``."""
    return {("v", index, 0), ("v", index, 1)}


@pytest.mark.parametrize(
    ("reg", "expected"),
    [
        ("$vgpr5", v(5)),
        ("vgpr5", v(5)),
        ("$vgpr4_vgpr5", v(4) | v(5)),
        ("$vgpr4_vgpr5_vgpr6_vgpr7", v(4) | v(5) | v(6) | v(7)),
        ("$vgpr5_lo16", {("v", 5, 0)}),
        ("$vgpr5_hi16", {("v", 5, 1)}),
        ("$agpr3", {("a", 3, 0), ("a", 3, 1)}),
        ("$agpr0_agpr1", {("a", 0, 0), ("a", 0, 1), ("a", 1, 0), ("a", 1, 1)}),
        ("$sgpr7", {("s", 7, 0)}),
        ("$sgpr0_sgpr1", {("s", 0, 0), ("s", 1, 0)}),
        ("$sgpr4_sgpr5_sgpr6_sgpr7", {("s", 4, 0), ("s", 5, 0), ("s", 6, 0), ("s", 7, 0)}),
        ("$sgpr3_hi16", {("s", 3, 0)}),
        ("$ttmp9", {("ttmp", 9, 0)}),
        ("$ttmp4_ttmp5", {("ttmp", 4, 0), ("ttmp", 5, 0)}),
        ("$vcc", {("vcc", 0, 0), ("vcc", 1, 0)}),
        ("$vcc_lo", {("vcc", 0, 0)}),
        ("$vcc_hi", {("vcc", 1, 0)}),
        ("$exec", {("exec", 0, 0), ("exec", 1, 0)}),
        ("$exec_lo", {("exec", 0, 0)}),
        ("$exec_hi", {("exec", 1, 0)}),
        ("$scc", {("scc", 0, 0)}),
        ("$m0", {("m0", 0, 0)}),
        ("$flat_scr", {("flat_scratch", 0, 0), ("flat_scratch", 1, 0)}),
        ("$sgpr_null", set()),
        ("$sgpr_null64", set()),
        ("$src_private_base", set()),
    ],
)
def test_register_units(reg: str, expected: set[tuple[str, int, int]]) -> None:
    assert mir_register_units(reg) == frozenset(expected)


def test_wide_tuple() -> None:
    name = "_".join(f"vgpr{i}" for i in range(32))
    units = mir_register_units("$" + name)
    assert len(units) == 64
    assert ("v", 31, 1) in units and ("v", 32, 0) not in units


@pytest.mark.parametrize(
    ("reg", "mask", "expected"),
    [
        # Two lane bits per 32-bit part: bit 2k is the high half, bit 2k+1 the low half.
        ("$vgpr2_vgpr3", 0x3, v(2)),
        ("$vgpr2_vgpr3", 0xC, v(3)),
        ("$vgpr2_vgpr3", 0xF, v(2) | v(3)),
        ("$vgpr0_vgpr1_vgpr2", 0x2, {("v", 0, 0)}),
        ("$vgpr0_vgpr1_vgpr2", 0x1, {("v", 0, 1)}),
        ("$vgpr0_vgpr1_vgpr2", 0x8, {("v", 1, 0)}),
        ("$vgpr0_vgpr1_vgpr2", 0x10, {("v", 2, 1)}),
        ("$vgpr7", 0x2, {("v", 7, 0)}),
        ("$sgpr12_sgpr13_sgpr14_sgpr15", 0xF0, {("s", 14, 0), ("s", 15, 0)}),
        ("$sgpr12_sgpr13_sgpr14_sgpr15", 0xF3, {("s", 12, 0), ("s", 14, 0), ("s", 15, 0)}),
        # Any bit of an SGPR part makes the whole 32-bit register live.
        ("$sgpr4_sgpr5", 0x4, {("s", 5, 0)}),
    ],
)
def test_lane_masks(reg: str, mask: int, expected: set[tuple[str, int, int]]) -> None:
    assert mir_register_units(reg, mask) == frozenset(expected)


@pytest.mark.parametrize(
    "reg", ["$vgpr", "$vreg5", "$private_rsrc_reg", "$fp_reg", "$vgpr1_sgpr2", "$vgpr1_vgpr3", "$vcc_lo16"]
)
def test_unknown_registers_raise(reg: str) -> None:
    with pytest.raises(ValueError, match="register"):
        mir_register_units(reg)


MIR = """\
--- |
  define amdgpu_kernel void @k() { ret void }
...
---
name:            k
tracksRegLiveness: true
liveins:
  - { reg: '$sgpr4_sgpr5', virtual-reg: '' }
body:             |
  bb.0 (%ir-block.3):
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $sgpr8, $vgpr0, $sgpr4_sgpr5

    renamable $vgpr4 = IMPLICIT_DEF
    S_CBRANCH_EXECZ %bb.2, implicit $exec

  bb.1.._crit_edge:
    successors: %bb.2(0x80000000)
    liveins: $vcc, $vgpr0, $vgpr4,
      $sgpr10_sgpr11:0x000000000000000C, $vgpr2_vgpr3:0x0000000000000003

    $vgpr1 = V_MOV_B32_e32 0, implicit $exec

  bb.2 (%ir-block.5, align 64):
    S_ENDPGM 0
...
---
name:            'other.fn'
body:             |
  bb.0:
    liveins: $vgpr0_hi16, $ttmp9
    S_ENDPGM 0
...
"""


def test_mir_block_liveins() -> None:
    result = mir_block_liveins(MIR)
    assert set(result) == {"k", "other.fn"}
    k = result["k"]
    assert set(k) == {0, 1, 2}
    assert k[0] == frozenset({("s", 8, 0), ("s", 4, 0), ("s", 5, 0)} | v(0))
    assert k[1] == frozenset({("vcc", 0, 0), ("vcc", 1, 0), ("s", 11, 0)} | v(0) | v(4) | v(2))
    assert k[2] == frozenset()
    assert result["other.fn"][0] == frozenset({("v", 0, 1), ("ttmp", 9, 0)})


ASM = """\
\t.text
\t.protected\tk
\t.globl\tk
\t.type\tk,@function
k:                                      ; @k
; %bb.0:
\ts_cbranch_execz .LBB0_2
; %bb.1:                                ; %._crit_edge
\tv_mov_b32_e32 v1, 0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
\ts_endpgm
.Lfunc_end0:
\t.type\tg,@function
g:
; %bb.0:
\ts_endpgm
.Lfunc_end1:
"""


def test_asm_block_starts() -> None:
    assert asm_block_starts(ASM) == {"k": {0: 6, 1: 8, 2: 10}, "g": {0: 15}}


# llc-19's switch.cl interpret (gfx900): bb.8 holds only an implicit-def marker
EMPTY_BLOCK_ASM = """\
\t.type\tk,@function
k:
; %bb.7:
\ts_xor_b64 s[10:11], exec, s[10:11]
; %bb.8:                                ;   in Loop: Header=BB1_5 Depth=1
                                        ; implicit-def: $vgpr5
; %bb.9:                                ; %Flow
                                        ; implicit-def: $vgpr6_vgpr7
\ts_or_saveexec_b64 s[10:11], s[10:11]
                                        ; implicit-def: $vgpr8
; %bb.10:
                                        ; implicit-def: $vgpr9 : SGPR spill to VGPR lane
\tv_mov_b32_e32 v9, 0
.LBB0_11:
\ts_endpgm
.Lfunc_end0:
"""


def test_asm_block_markers_are_those_between_a_label_and_the_next_instruction() -> None:
    """bb.8's entry is above the markers for v5 (its own) and v[6:7] (bb.9's, before the same
    instruction); bb.9's above v[6:7] only; v8's marker precedes bb.10's label, so no block has it; bb.10's
    names its purpose after the registers."""
    markers = asm_block_markers(EMPTY_BLOCK_ASM)["k"]
    assert {n: sorted({(f, i) for f, i, _h in units}) for n, units in markers.items()} == {
        7: [], 8: [("v", 5), ("v", 6), ("v", 7)], 9: [("v", 6), ("v", 7)], 10: [("v", 9)], 11: []}


@pytest.mark.oracle
def test_blocks_align_with_real_llc(tmp_path: Path) -> None:
    """llc's MIR block numbers equal its assembly's block numbers (one small kernel file)."""
    from .corpus import KERNELS_DIR, STOP_AFTER, find_toolchain

    tools = find_toolchain()
    if tools is None:
        pytest.skip("needs clang and llc of the same LLVM release and libclc")
    from isalens.frontends.clang import compile_opencl_to_ir, llc_compile

    source = KERNELS_DIR / "control" / "branches.cl"
    for target in ("gfx902", "gfx1100"):
        ir = compile_opencl_to_ir(source, target, tmp_path / f"{target}.bc", clang=tools.clang)
        asm = llc_compile(ir, target, tmp_path / f"{target}.s", llc=tools.llc)
        mir = llc_compile(ir, target, tmp_path / f"{target}.mir", stop_after=STOP_AFTER, llc=tools.llc)
        live = mir_block_liveins(mir.read_text())
        starts = asm_block_starts(asm.read_text())
        assert set(live) == set(starts) == {"classify", "diamond", "early_exit_search"}
        for func, blocks in live.items():
            assert set(blocks) == set(starts[func]), (target, func)
            assert blocks[0], "the entry block always has live-ins (kernel arguments)"


FLAGS_MIR = """\
---
name:            f
body:             |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $vgpr0, $vgpr1, $sgpr4_sgpr5

    renamable $vgpr2 = V_ADD_U32_e32 killed $vgpr0, $vgpr1, implicit $exec
    dead renamable $vgpr3 = V_MOV_B32_e32 undef $vgpr7, implicit $exec
    BUNDLE implicit-def $sgpr6 {
      $sgpr6 = S_MOV_B32 internal $sgpr4
    }
    S_CBRANCH_EXECZ %bb.2, implicit $exec
    S_BRANCH %bb.1

  bb.1:
    liveins: $vgpr2

    S_ENDPGM 0

  bb.2:
    liveins: $vgpr1

    S_ENDPGM 0
...
"""


def test_mir_instructions_flags_and_live_after() -> None:
    """By hand: after the add v0 is killed and v2 defined; the dead v3 def and the undef v7 read add
    nothing; at the conditional branch bb.2's live-ins (v1) join; after S_BRANCH only bb.1's (v2)."""
    blocks = mir_block_instructions(FLAGS_MIR)["f"]
    block = blocks[0]
    assert block.successors == [1, 2]
    assert [i.opcode for i in block.instructions] == ["V_ADD_U32_e32", "V_MOV_B32_e32", "S_MOV_B32",
                                                       "S_CBRANCH_EXECZ", "S_BRANCH"]
    add, mov = block.instructions[0], block.instructions[1]
    assert [(o.reg, o.is_def, o.killed) for o in add.operands if o.reg.startswith("vgpr")] == [
        ("vgpr2", True, False), ("vgpr0", False, True), ("vgpr1", False, False)]
    assert mov.operands[0].dead and mov.operands[1].undef
    assert block.instructions[2].bundled and block.instructions[3].targets == (2,)
    after = [frozenset(u for u in units if u[0] in ("v", "s"))  # GPRs only (exec is read too)
             for units in mir_live_after(block, mir_block_liveins(FLAGS_MIR)["f"])]
    v = lambda *ns: frozenset(("v", n, h) for n in ns for h in (0, 1))  # noqa: E731
    s = lambda *ns: frozenset(("s", n, 0) for n in ns)  # noqa: E731
    assert after[4] == v(2)
    assert after[3] == v(1, 2)
    assert after[2] == v(1, 2)
    assert after[1] == v(1, 2) | s(4)
    assert after[0] == v(1, 2) | s(4)


PARTIAL_MIR = """\
---
name:            g
body:             |
  bb.0:
    liveins: $vgpr0, $vgpr2_vgpr3

    $vgpr4 = V_MOV_B32_e32 $vgpr0, implicit $exec
    $vgpr6_vgpr7 = V_PK_MUL_F32 0, $vgpr4_vgpr5, 8, killed $vgpr2_vgpr3, 0, 0, 0, 0, 0, implicit $exec
    S_ENDPGM 0
...
"""


def test_a_sub_register_neither_live_in_nor_written_is_not_live() -> None:
    """By hand: v5 is read (as half of v[4:5]) but is not a live-in and no instruction writes it, so LLVM's
    verifier counts it unavailable: it is live nowhere. Without the block's live-ins the backward pass
    alone makes v5 live after the V_MOV (the read below it starts its liveness)."""
    block = mir_block_instructions(PARTIAL_MIR)["g"][0]
    liveins = mir_block_liveins(PARTIAL_MIR)["g"]
    v = lambda *ns: frozenset(("v", n, h) for n in ns for h in (0, 1))  # noqa: E731
    backward = mir_live_after(block, liveins)
    assert backward[0] & v(5) == v(5)
    after = mir_live_after(block, liveins, liveins[0])
    assert [a & v(0, 2, 3, 4, 5, 6, 7) for a in after] == [v(2, 3, 4), frozenset(), frozenset()]


EXPANDED_MIR = """\
---
name:            h
body:             |
  bb.0:
    liveins: $vgpr0

    $sgpr0 = S_MOV_B32 0, implicit-def $sgpr0_sgpr1
    $vgpr1 = V_MOV_B32_e32 $vgpr0, implicit $exec
    $sgpr1 = S_MOV_B32 1073217536, implicit-def $sgpr0_sgpr1
    $vgpr2_vgpr3 = V_ADD_F64_e64 0, killed $sgpr0_sgpr1, 0, $vgpr0_vgpr1, 0, 0, implicit $mode, implicit $exec
    $vgpr4 = BUFFER_LOAD_DWORD_OFFSET $sgpr4_sgpr5_sgpr6_sgpr7, 0, 8, 0, 0, implicit $exec, implicit-def $vgpr4_vgpr5
    $vgpr4 = BUFFER_LOAD_DWORD_OFFSET $sgpr4_sgpr5_sgpr6_sgpr7, 0, 16, 0, 0, implicit $exec, implicit-def $vgpr4_vgpr5
    $vgpr6_vgpr7 = V_ADD_F64_e64 0, killed $vgpr4_vgpr5, 0, $vgpr0_vgpr1, 0, 0, implicit $mode, implicit $exec
    S_ENDPGM 0
...
"""


def test_a_move_continuing_an_expanded_tuple_does_not_end_the_other_half() -> None:
    """S_MOV_B64 of a constant expanded into two S_MOV_B32 (here separated by another move, as the
    scheduler leaves them in fp64.cl), each with ``implicit-def $sgpr0_sgpr1``: by hand, s0 written by the
    first move is live until the V_ADD_F64 reads the pair, also across the second move, which writes only
    s1. A write of a register its group already wrote (the second load of v4) starts the tuple again: its
    ``implicit-def`` ends v5, so neither v4 nor v5 is live after the first load."""
    block = mir_block_instructions(EXPANDED_MIR)["h"][0]
    liveins = mir_block_liveins(EXPANDED_MIR)["h"]
    after = mir_live_after(block, liveins, liveins[0])
    s = lambda *ns: frozenset(("s", n, 0) for n in ns)  # noqa: E731
    assert [a & s(0, 1) for a in after[:4]] == [s(0), s(0), s(0, 1), frozenset()]
    v = lambda *ns: frozenset(("v", n, h) for n in ns for h in (0, 1))  # noqa: E731
    assert after[4] & v(4, 5) == frozenset()
    assert after[5] & v(4, 5) == v(4, 5)


SPILL_MIR = """\
---
name:            k
body:             |
  bb.0:
    successors: %bb.1
    liveins: $sgpr0_sgpr1, $vgpr3

    $agpr5 = V_ACCVGPR_WRITE_B32_e64 $vgpr3, implicit $exec
    $vgpr3 = V_WRITELANE_B32 killed $sgpr0, 0, killed $vgpr3, implicit-def $sgpr0_sgpr1, implicit $sgpr0_sgpr1
    $vgpr3 = V_WRITELANE_B32 killed $sgpr1, 1, killed $vgpr3, implicit $sgpr0_sgpr1
    $vgpr1 = V_ACCVGPR_READ_B32_e64 $agpr5, implicit $exec

  bb.1:
    liveins: $agpr5, $vgpr1, $vgpr3

    GLOBAL_STORE_DWORD undef $vgpr6_vgpr7, killed $vgpr1, 0, 0, implicit $exec
    S_ENDPGM 0, implicit $vgpr3
...
"""


def test_whole_tuple_implicits_of_expanded_moves_are_dropped() -> None:
    """The first lane write of a two-SGPR spill reads s0 (``killed``) and carries an implicit def and use of
    s[0:1]; the second reads s1 and an implicit use of s[0:1]. Dropped: each reads its own register only.
    ``V_ACCVGPR_WRITE`` names no tuple and keeps its implicit ``$exec``."""
    block = mir_block_instructions(SPILL_MIR)["k"][0]
    first, second = (without_tuple_implicits(i) for i in block.instructions[1:3])
    assert [op.reg for op in first.operands] == ["vgpr3", "sgpr0", "vgpr3"]
    assert [op.reg for op in second.operands] == ["vgpr3", "sgpr1", "vgpr3"]
    assert without_tuple_implicits(block.instructions[0]) is block.instructions[0]


def test_liveness_rebuilt_from_reads_only() -> None:
    """By hand. As LLVM lists it (bb.1 live-ins): a5 is live after its reload although nothing reads it
    later, and s0 stays live to the second lane write through the implicit use of s[0:1]. From reads
    alone: a5 is live only up to the reload (bb.1 does not read it), and, without the tuple implicits, s0
    ends at the first lane write while s1 stays live to the second."""
    blocks = mir_block_instructions(SPILL_MIR)["k"]
    liveins = mir_block_liveins(SPILL_MIR)["k"]
    a = lambda *ns: frozenset(("a", n, h) for n in ns for h in (0, 1))  # noqa: E731
    s = lambda *ns: frozenset(("s", n, 0) for n in ns)  # noqa: E731
    listed = mir_live_after(blocks[0], liveins, liveins[0])
    assert [x & a(5) for x in listed] == [a(5)] * 4
    assert [x & s(0, 1) for x in listed] == [s(0, 1), s(0, 1), frozenset(), frozenset()]
    reads = mir_read_live_after(blocks)[0]
    assert [x & a(5) for x in reads] == [a(5), a(5), a(5), frozenset()]
    assert [x & s(0, 1) for x in reads] == [s(0, 1), s(0, 1), frozenset(), frozenset()]
    dropped = mir_read_live_after(blocks, tuple_implicits=False)[0]
    assert [x & s(0, 1) for x in dropped] == [s(0, 1), s(1), frozenset(), frozenset()]
