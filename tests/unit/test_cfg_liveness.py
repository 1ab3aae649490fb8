"""CFG and liveness on small hand-written kernels, expectations derived by hand."""

from __future__ import annotations

from pathlib import Path

import isalens
from isalens.ir.registers import RegFile, registers_in, special_pair

LOOP = """\
    s_mov_b32 s0, 0
    v_mov_b32_e32 v1, 0
loop:
    v_add_f32_e32 v1, v1, v0
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 8
    s_cbranch_scc1 loop
    v_mov_b32_e32 v2, v1
    s_endpgm
"""


def test_loop_cfg_and_liveness() -> None:
    kernel = isalens.load(LOOP, "gfx900").kernels[0]
    graph = kernel.cfg
    # blocks: [0,2) entry, [2,6) loop body with a back edge, [6,8) exit
    assert [(b.start, b.end) for b in graph.blocks] == [(0, 2), (2, 6), (6, 8)]
    assert graph.blocks[1].succs == (1, 2)
    assert len(graph.loops) == 1 and graph.loops[0].header == 1 and graph.loops[0].depth == 1
    live = kernel.liveness()
    # v0 is read in the loop and never written: live from the entry through the whole loop
    assert 0 in registers_in(live.entry, RegFile.VGPR)
    # at the loop's last instruction v0 (next iteration) and v1 are live out
    assert registers_in(live.live_out[5], RegFile.VGPR) == [0, 1]
    # after the final copy nothing vector is live
    assert registers_in(live.live_out[6], RegFile.VGPR) == []


DIVERGENT = """\
    v_cmp_lt_u32_e32 vcc, 15, v0
    v_mov_b32_e32 v1, 1
    s_and_saveexec_b64 s[0:1], vcc
    v_mov_b32_e32 v1, 2
    s_or_b64 exec, exec, s[0:1]
    global_store_dword v[2:3], v1, off
    s_endpgm
"""


def test_lanes_switched_off_keep_their_values() -> None:
    """v1 = 1 must survive the masked write ``v1 = 2`` in the lanes EXEC switched off: the skip edge
    from the saveexec to the restoring s_or_b64 keeps the first definition live across the region."""
    kernel = isalens.load(DIVERGENT, "gfx900").kernels[0]
    assert kernel.cfg.exec_skip_edges
    live = kernel.liveness()
    # v1 is live after `v_mov_b32 v1, 1` although the next VALU write to v1 seems to kill it
    assert 1 in registers_in(live.live_out[1], RegFile.VGPR)


UNDEFINED_PAIR = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
k:
\ts_mov_b32 s10, 1
\ts_lshl_b64 s[10:11], s[10:11], 2
\tv_mov_b32_e32 v0, s10
\ts_endpgm
.Lfunc_end0:
\t.section .rodata
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 2
\t.end_amdhsa_kernel
"""


def test_a_register_no_write_reaches_is_not_live() -> None:
    """s11 is read (as half of a pair) but never written nor initialised by the hardware (the descriptor
    says only s0-s1 are): it holds no value, so it is not live at entry."""
    kernel = isalens.load(UNDEFINED_PAIR).kernels[0]
    live = kernel.liveness()
    assert 11 not in registers_in(live.entry, RegFile.SGPR)
    assert 11 not in registers_in(live.live_in[1], RegFile.SGPR)
    assert 10 in registers_in(live.live_in[1], RegFile.SGPR)


# LLVM 19 on gfx1100 (examples/kernels/linalg/sgemm_8x8.cl): the descriptor asks for 14 user SGPRs but
# enables only the kernarg pointer (s[0:1]); the workgroup ids follow the 14, in s14 and s15. s5 is the high
# dword of a 64-bit value set on one path only.
PADDED_USER_SGPRS = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
\t.text
k:
\ts_load_b32 s4, s[0:1], 0x0
\ts_cmp_gt_i32 s14, 0
\ts_cbranch_scc1 .LBB0_2
\ts_ashr_i32 s5, s4, 31
.LBB0_2:
\ts_lshl_b64 s[6:7], s[4:5], 2
\tv_mov_b32_e32 v1, s7
\tglobal_store_b32 v0, v1, s[0:1]
\ts_endpgm
.Lfunc_end0:
\t.section .rodata
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 14
\t\t.amdhsa_user_sgpr_dispatch_ptr 0
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_wavefront_size32 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_system_sgpr_workgroup_id_y 1
\t.end_amdhsa_kernel
"""


def test_user_sgprs_the_descriptor_does_not_enable_hold_no_value() -> None:
    """By hand, from the descriptor: the hardware loads the kernarg pointer into s[0:1] and the workgroup
    ids into s14/s15 (after all 14 user SGPRs); s2-s13 are enabled for nothing. So at the entry only s0,
    s1 (read at 0 and by the store) and s14 (read at 1) are live; s5 is not: no write reaches the
    s_lshl_b64 on the branch-taken path (LLVM's MIR of sgemm_8x8 lists s[0:1], s14, s15 as its entry
    live-ins). It is live after its write at index 3 (s7, stored, takes its bits)."""
    kernel = isalens.load(PADDED_USER_SGPRS).kernels[0]
    live = kernel.liveness()
    assert sorted(registers_in(live.entry, RegFile.SGPR)) == [0, 1, 14]
    assert 5 in registers_in(live.live_out[3], RegFile.SGPR)


def _undefined_reads(text: str, tmp_path: Path) -> list[tuple[str, int]]:
    """(register, line of its first read) the report names as read before written."""
    path = tmp_path / "k.s"
    path.write_text(text)
    kernels = isalens.analyze(path).to_dict()["files"][0]["kernels"]
    return [pair for k in kernels
            for pair in zip(k["unexpected_live_in"], k["unexpected_live_in_lines"], strict=True)]


def test_half_of_a_pair_only_a_dead_result_dword_needs_is_not_an_undefined_read(tmp_path: Path) -> None:
    """UNDEFINED_PAIR's s11 only feeds the high dword of ``s_lshl_b64`` (carries and left shifts move
    bits upwards), which nothing reads: no value is needed from it, so nothing is reported."""
    assert _undefined_reads(UNDEFINED_PAIR, tmp_path) == []


# clang-19's scratch set-up in a kernel that calls (calls.cl call_poly, gfx900): the descriptor enables
# 10 user SGPRs (s0-s9) and the workgroup id x (s10) but not the wavefront scratch offset, which the code
# still reads as s11. The hardware initialises s0-s10 only, so s11 holds no value.
SCRATCH_OFFSET_NOT_ENABLED = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
k:
\ts_add_u32 flat_scratch_lo, s8, s11
\ts_addc_u32 flat_scratch_hi, s9, 0
\ts_mul_i32 s4, s4, s10
\tv_mov_b32_e32 v1, s4
\tglobal_store_dword v[2:3], v1, off
\ts_endpgm
.Lfunc_end0:
\t.section .rodata
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 10
\t\t.amdhsa_system_sgpr_private_segment_wavefront_offset 0
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t.end_amdhsa_kernel
"""


def test_a_register_the_hardware_does_not_initialise_is_reported_when_read(tmp_path: Path) -> None:
    """The read of s11 (line 4) is reported: no value reaches it. v[2:3] is read too (the store, line 8),
    but the descriptor declares no VGPR workitem ids beyond v0, so v2 and v3 are reported as well."""
    assert _undefined_reads(SCRATCH_OFFSET_NOT_ENABLED, tmp_path) == [("v2", 8), ("v3", 8), ("s11", 4)]


def test_an_operand_no_part_of_which_is_defined_is_live_from_the_entry() -> None:
    """s11 is the whole operand the first instruction reads: the code expects it from outside, and
    LLVM's MIR for calls.cl call_poly lists ``$sgpr11`` live into bb.0. So it is live at the entry and
    up to its read (index 0), and not after. Contrast UNDEFINED_PAIR, where s11 is half of a pair whose
    other half is written: that read is ``undef`` and s11 is never live."""
    kernel = isalens.load(SCRATCH_OFFSET_NOT_ENABLED).kernels[0]
    live = kernel.liveness()
    assert 11 in registers_in(live.entry, RegFile.SGPR)
    assert 11 not in registers_in(live.live_out[0], RegFile.SGPR)
    assert live.undefined_read_at  # still reported


# An if/else whose two arms both write v2 (clang's shape, branches.cl diamond): every lane writes v2
# before the join reads it, although the EXEC skip edge from the `if` to the join makes v2 flow to the top.
DIAMOND = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
k:
\tv_cmp_eq_u32_e32 vcc, 1, v0
\ts_and_saveexec_b64 s[0:1], vcc
\ts_xor_b64 s[0:1], exec, s[0:1]
\tv_mov_b32_e32 v2, 1
\ts_andn2_saveexec_b64 s[0:1], s[0:1]
\tv_mov_b32_e32 v2, 2
\ts_or_b64 exec, exec, s[0:1]
\tv_mov_b32_e32 v3, 0
\tglobal_store_dword v[0:1], v2, off
\ts_endpgm
.Lfunc_end0:
\t.section .rodata
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_next_free_vgpr 4
\t.end_amdhsa_kernel
"""


def test_a_register_every_arm_of_an_if_else_writes_is_not_an_undefined_read(tmp_path: Path) -> None:
    """Only v1 (the high half of the address pair, never written; the descriptor initialises v0) is read
    with no value, by the store on line 12: v2 is written on every path to its read."""
    assert _undefined_reads(DIAMOND, tmp_path) == [("v1", 12)]


def test_vopd_pair_is_one_instruction_with_both_operations() -> None:
    kernel = isalens.load("v_dual_mov_b32 v0, v5 :: v_dual_add_f32 v7, v1, v2\ns_endpgm\n", "gfx1100").kernels[0]
    ins = kernel.ir.instructions[0]
    assert ins.ops == ("v_dual_mov_b32", "v_dual_add_f32")
    assert registers_in(ins.defs, RegFile.VGPR) == [0, 7]
    assert registers_in(ins.uses, RegFile.VGPR) == [1, 2, 5]


# A rotated loop (test at the bottom, LLVM's usual shape): the divergent region opened at `body1` joins
# at `latch1`, *above* it in listing order, which is where its s_cbranch_execz goes. The restore at
# `after1` re-applies the same saved mask after the loop (idempotent: the last iteration saved the
# pre-region EXEC) and is merely the next restore of s[0:1] below the saveexec.
ROTATED = """\
    s_mov_b32 s2, 0
    v_mov_b32_e32 v1, 0
    s_branch body1
latch1:
    s_or_b64 exec, exec, s[0:1]
    s_add_u32 s2, s2, 1
    s_cmp_lt_u32 s2, 8
    s_cbranch_scc0 after1
body1:
    v_cmp_gt_u32_e32 vcc, s2, v0
    s_and_saveexec_b64 s[0:1], vcc
    s_cbranch_execz latch1
    v_add_f32_e32 v1, v1, v0
    s_branch latch1
after1:
    v_mov_b32_e32 v3, 2.0
    v_add_f32_e32 v1, v1, v3
    s_or_b64 exec, exec, s[0:1]
    v_add_f32_e32 v1, v1, v3
    global_store_dword v[4:5], v1, off
    s_endpgm
"""


def test_rotated_loop_region_joins_at_its_execz_target_not_the_next_restore_below() -> None:
    """v3 is written at index 12 (after the loop) and last read at 15: by hand it is live on 12..15
    only. Pairing the saveexec (index 8) with the next restore in listing order (index 14) would add an
    edge from inside the loop to after it and make v3 live through the whole loop."""
    kernel = isalens.load(ROTATED, "gfx900").kernels[0]
    assert kernel.cfg.exec_skip_edges == ()
    live = kernel.liveness()
    for i in range(0, 12):
        assert 3 not in registers_in(live.live_in[i], RegFile.VGPR), i
    assert 3 in registers_in(live.live_in[15], RegFile.VGPR)
    # the loop is still one loop of depth 1 made of latch1 and body1
    assert [loop.depth for loop in kernel.cfg.loops] == [1]


# No s_cbranch_execz after the saveexec, so the region gets an EXEC skip edge from index 1 to the
# restore at index 4. s4 is written inside the region by a scalar instruction, which runs whatever
# EXEC is, and read after the restore.
SCALAR_IN_REGION = """\
    v_cmp_lt_u32_e32 vcc, 15, v0
    s_and_saveexec_b64 s[0:1], vcc
    s_mov_b32 s4, 3
    v_mov_b32_e32 v1, s4
    s_or_b64 exec, exec, s[0:1]
    v_add_u32_e32 v2, s4, v1
    global_store_dword v[4:5], v2, off
    s_endpgm
"""


def test_exec_skip_edges_carry_vector_registers_only() -> None:
    """By hand: s4 is live from its write (index 2) to its read (index 5) and nowhere before; v1, written
    under the mask at index 3, stays live across the skip edge (the lanes switched off keep it)."""
    kernel = isalens.load(SCALAR_IN_REGION, "gfx900").kernels[0]
    assert kernel.cfg.exec_skip_edges
    live = kernel.liveness()
    assert 4 not in registers_in(live.live_out[1], RegFile.SGPR)
    assert 4 not in registers_in(live.entry, RegFile.SGPR)
    assert 4 in registers_in(live.live_out[2], RegFile.SGPR)
    assert 1 in registers_in(live.live_out[1], RegFile.VGPR)


# gfx10+ saves EXEC with a copy and switches lanes off with a v_cmpx that writes EXEC only (llc-19,
# switch.cl interpret bb.30 on gfx1030): no s_and_saveexec, no s_cbranch_execz.
CMPX_REGION = """\
    v_mov_b32_e32 v4, 1
    s_mov_b32 s9, exec_lo
    v_cmpx_eq_u32_e32 16, v0
    v_mov_b32_e32 v4, v3
    s_or_b32 exec_lo, exec_lo, s9
    global_store_dword v[6:7], v4, off
    s_endpgm
"""


def test_lanes_a_cmpx_switches_off_keep_their_values() -> None:
    """By hand: lanes where v0 != 16 skip ``v4 = v3`` and store the 1 written at index 0, so v4 is live
    from index 0 to the store (LLVM's MIR lists v4 live into the v_cmpx block). The region runs from
    the v_cmpx (index 2) to the restore from s9 (index 4)."""
    kernel = isalens.load(CMPX_REGION, "gfx1030").kernels[0]
    graph = kernel.cfg
    assert [(graph.blocks[a].end - 1, graph.blocks[b].start) for a, b in graph.exec_skip_edges] == [(2, 4)]
    live = kernel.liveness()
    assert all(4 in registers_in(live.live_out[i], RegFile.VGPR) for i in range(0, 5))
    # s9 overwritten between the copy and the v_cmpx no longer holds the mask: no region is paired
    clobbered = CMPX_REGION.replace("    v_cmpx_eq_u32_e32 16, v0\n",
                                    "    s_mov_b32 s9, 0\n    v_cmpx_eq_u32_e32 16, v0\n")
    assert isalens.load(clobbered, "gfx1030").kernels[0].cfg.exec_skip_edges == ()


# llc-19's if/else without s_cbranch_execz (branches.cl diamond, gfx900): the "then" lanes are switched
# on at index 2, the "else" lanes at index 5 (the others off), all of them again at index 7.
IF_ELSE = """\
    v_mov_b32_e32 v1, 7
    v_cmp_eq_u32_e32 vcc, v1, v0
    s_and_saveexec_b64 s[0:1], vcc
    s_xor_b64 s[0:1], exec, s[0:1]
    v_mov_b32_e32 v1, 1
    s_andn2_saveexec_b64 s[0:1], s[0:1]
    v_mov_b32_e32 v1, 2
    s_or_b64 exec, exec, s[0:1]
    global_store_dword v[2:3], v1, off
    s_endpgm
"""


def test_both_arms_of_an_if_else_writing_a_register_end_its_earlier_value() -> None:
    """By hand: every lane active at index 2 runs exactly one arm and both arms write v1, so the 7 written
    at index 0 is dead after its read at index 1. The "then" lanes keep their v1 through the "else" arm
    (live after index 4 up to the store). Lanes skipping "then" go to the "else" arm's first instruction
    (index 6), not to the switch at index 5, whose own edge skips the "else" arm."""
    kernel = isalens.load(IF_ELSE, "gfx900").kernels[0]
    graph = kernel.cfg
    assert sorted((graph.blocks[a].end - 1, graph.blocks[b].start) for a, b in graph.exec_skip_edges) == \
        [(2, 6), (5, 7)]
    live = kernel.liveness()
    assert [1 in registers_in(live.live_out[i], RegFile.VGPR) for i in range(9)] == \
        [True, False, False, False, True, True, True, True, False]


# An if/else whose saved mask moves to other pairs (issue 30 item 3), as llc-19 emits it for
# examples/kernels/liveness/else_moves.cl root_or_square: s_and_saveexec saves the mask in s[2:3], s_xor
# moves the "else" lanes to s[4:5]; the "then" part ends with an implicit-def of v1; s_or_saveexec
# switches every lane on saving the "then" lanes in s[6:7], a scalar load sits between it and the
# s_xor that switches the "then" lanes off, and the "else" part reads v1. No s_cbranch_execz.
ELSE_MASK_MOVES = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\tk,@function
k:
; %bb.0:
\tv_mov_b32_e32 v1, 7
\tv_cmp_lt_f32_e32 vcc, 1.0, v0
\ts_and_saveexec_b64 s[2:3], vcc
\ts_xor_b64 s[4:5], exec, s[2:3]
; %bb.1:
\tv_mul_f32_e32 v2, v0, v0
                                        ; implicit-def: $vgpr1
; %bb.2:                                ; %Flow
\ts_or_saveexec_b64 s[6:7], s[4:5]
\ts_load_dword s8, s[0:1], 0x0
\ts_xor_b64 exec, exec, s[6:7]
; %bb.3:
\tv_mul_f32_e32 v2, v1, v0
; %bb.4:
\ts_or_b64 exec, exec, s[6:7]
\tglobal_store_dword v[4:5], v2, off
\ts_endpgm
.Lfunc_end0:
"""


def test_an_else_mask_that_moves_to_other_pairs_still_joins_its_if() -> None:
    """By hand, from the ISA: lanes where v0 <= 1.0 are off through the "then" part (index 4) and run the
    "else" part (index 8), which reads the 7 written at index 0. So v1 is live after 0..2 (the lanes
    switched off keep it; the "then" part's implicit-def leaves it free for the "then" lanes, as LLVM's
    MIR has it), dead after 3 and 4, live after 5..7 (the "else" lanes' value on its way to the read;
    LLVM lists it live into the Flow block) and dead after its read at 8. Both parts write v2: dead up to
    index 4, live from there to the store (the "then" lanes keep theirs through the "else" part). The
    mask is followed by its data flow s[2:3] -> s[4:5] -> s[6:7]: the "else" lanes skip from the
    saveexec (block ending at index 2) to the "else" part (index 8), past the switch at index 7, whose
    own edge skips the "else" part (7 -> 9)."""
    kernel = isalens.load(ELSE_MASK_MOVES).kernels[0]
    graph = kernel.cfg
    assert sorted((graph.blocks[a].end - 1, graph.blocks[b].start) for a, b in graph.exec_skip_edges) == \
        [(2, 8), (7, 9)]
    live = kernel.liveness()
    assert [1 in registers_in(live.live_out[i], RegFile.VGPR) for i in range(11)] == \
        [True, True, True, False, False, True, True, True, False, False, False]
    assert [2 in registers_in(live.live_out[i], RegFile.VGPR) for i in range(11)] == \
        [False, False, False, False, True, True, True, True, True, True, False]


HALF_LANES = """\
    s_mov_b32 s0, 0x3c00
    v_mov_b32_e32 v1, 0
    v_alignbit_b32 v2, s0, v0, 16
    v_pk_mul_f16 v3, v2, v2
    global_store_short v[4:5], v3, off
    s_endpgm
"""


def test_a_source_half_read_only_for_a_dead_result_half_is_not_live() -> None:
    """By hand, from the ISA: ``v_alignbit_b32 v2, s0, v0, 16`` is ``({s0, v0} >> 16)``, so v2's low half is
    v0's high half and v2's high half is s0's low half. ``v_pk_mul_f16 v3, v2, v2`` computes v3's low half
    from v2's low halves and its high half from v2's high halves. ``global_store_short`` stores v3's low
    half only. So v3's high half is dead, hence v2's high half, hence s0: s0 is not live anywhere (LLVM
    reads it as ``undef``), while v0's high half is live from the entry to the alignbit."""
    kernel = isalens.load(HALF_LANES, "gfx900").kernels[0]
    live = kernel.liveness()
    assert [registers_in(live.live_out[i], RegFile.SGPR) for i in range(4)] == [[], [], [], []]
    assert registers_in(live.live_in[2], RegFile.VGPR) == [0, 4, 5]
    assert registers_in(live.live_out[2], RegFile.VGPR) == [2, 4, 5]
    assert registers_in(live.live_out[3], RegFile.VGPR) == [3, 4, 5]
    # when the high half of the product is stored too, s0 is live from its write to the alignbit
    full = isalens.load(HALF_LANES.replace("global_store_short", "global_store_dword"), "gfx900").kernels[0]
    assert registers_in(full.liveness().live_out[0], RegFile.SGPR) == [0]


KEPT_HALF = """\
    v_mov_b32_e32 v1, 0
    ds_read_u16_d16 v1, v0
    v_cvt_f32_f16_e32 v2, v1
    global_store_dword v[4:5], v2, off
    s_endpgm
"""


def test_the_half_a_d16_load_keeps_is_not_read() -> None:
    """By hand: ``ds_read_u16_d16 v1`` writes v1's low half and leaves the high half alone;
    ``v_cvt_f32_f16`` reads only the low half. So the zero written into v1's high half is never needed:
    v1 is not live between the two writes (before this change the load "read" the kept half)."""
    kernel = isalens.load(KEPT_HALF, "gfx900").kernels[0]
    live = kernel.liveness()
    assert 1 not in registers_in(live.live_out[0], RegFile.VGPR)
    assert 1 in registers_in(live.live_out[1], RegFile.VGPR)


# An if/else with s_cbranch_execz around both parts, as llc-19 emits it for examples/kernels/liveness/
# else_only.cl on gfx90a: the "then" part reads v1 (written before the if), then reuses v1 for a value of
# its own and reads that; the "else" part reads v1 too. No `; implicit-def:` line ends the "then" part.
ELSE_ONLY = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\tk,@function
k:
\tv_mov_b32_e32 v1, 7
\tv_cmp_lt_f32_e32 vcc, 1.0, v0
\ts_and_saveexec_b64 s[2:3], vcc
\ts_xor_b64 s[2:3], exec, s[2:3]
\ts_cbranch_execz .LBB0_2
\tv_mul_f32_e32 v2, v1, v0
\tv_mov_b32_e32 v1, v2
\tv_add_f32_e32 v2, v1, v1
.LBB0_2:
\ts_or_saveexec_b64 s[4:5], s[2:3]
\ts_xor_b64 exec, exec, s[4:5]
\ts_cbranch_execz .LBB0_4
\tv_mul_f32_e32 v2, v1, v1
.LBB0_4:
\ts_or_b64 exec, exec, s[4:5]
\t{after}
\tglobal_store_dword v[4:5], v2, off
\ts_endpgm
.Lfunc_end0:
"""


def _v1_live_after(text: str) -> list[bool]:
    live = isalens.load(text).kernels[0].liveness()
    return [1 in registers_in(live.live_out[i], RegFile.VGPR) for i in range(14)]


def test_a_register_only_the_else_part_reads_ends_with_the_then_parts_last_read() -> None:
    """By hand: the lanes with v0 > 1.0 run the "then" part (indices 5-7) and are off in the "else" part
    (index 11), which the other lanes run with the 7 written at index 0. v1 is live after 0-4 (both kinds
    of lanes need it), dead after 5 (index 6 overwrites it), live after 6 (read at 7) and dead after 7: no
    lane that ran the "then" part reads v1 again, the "else" part's read is the other lanes' (LLVM's
    SIOptimizeVGPRLiveRange and its MIR say the same). Live after 8-10 (the Flow block, into which the
    skipping lanes bring their value; LLVM lists it live-in there), dead after its read at 11."""
    assert _v1_live_after(ELSE_ONLY.format(after="s_nop 0")) == \
        [True, True, True, True, True, False, True, False, True, True, True, False, False, False]


def test_an_else_register_read_after_the_endif_stays_live_through_the_then_part() -> None:
    """The same with v1 read after the endif (index 13): the lanes that ran the "then" part read there the
    value they left in v1 at index 6, so v1 stays live after 7 and up to that read (dead after 5 still:
    index 6 overwrites it)."""
    assert _v1_live_after(ELSE_ONLY.format(after="v_add_f32_e32 v2, v1, v2")) == \
        [True, True, True, True, True, False] + [True] * 7 + [False]


def test_whole_wave_code_in_the_then_part_keeps_the_else_register_live() -> None:
    """The same with whole-wave code around the "then" part's write of v1 (``s_or_saveexec_b64 s[6:7], -1``
    at index 6 switches every lane on, the "else" lanes too): their v1 is no longer safe from that write, so
    plain control flow decides: v1 live after 0-4, dead after 5 and 6 (index 7 overwrites it), live after
    7-12 (read at 9, then by the "else" part at 13 along the Flow block), dead after 13."""
    text = ELSE_ONLY.replace("\tv_mov_b32_e32 v1, v2\n", "\ts_or_saveexec_b64 s[6:7], -1\n\tv_mov_b32_e32 v1, v2\n"
                             "\ts_mov_b64 exec, s[6:7]\n")
    live = isalens.load(text.format(after="s_nop 0")).kernels[0].liveness()
    assert [1 in registers_in(live.live_out[i], RegFile.VGPR) for i in range(18)] == \
        [True] * 5 + [False, False] + [True] * 6 + [False] * 5


EMPTY_BLOCK = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\tk,@function
k:
\ts_cmp_lt_i32 s6, 1
\ts_cbranch_scc1 .LBB0_3
\t{fall}
.LBB0_1:
\ts_cmp_eq_u32 s8, s7
\ts_cselect_b64 s[4:5], -1, 0
\ts_add_i32 s8, s8, 1
\ts_cmp_lt_i32 s8, s6
\ts_cbranch_scc1 .LBB0_1
\ts_branch .LBB0_4
.LBB0_3:
                                        ; implicit-def: $sgpr4_sgpr5
.LBB0_4:
\ts_and_saveexec_b64 s[0:1], s[4:5]
\ts_endpgm
.Lfunc_end0:
"""


def _s4_live_after(text: str) -> list[bool]:
    live = isalens.load(text).kernels[0].liveness()
    return [4 in registers_in(live.live_out[i], RegFile.SGPR) for i in range(11)]


def test_an_implicit_def_in_an_empty_block_ends_the_register_on_the_edge_into_it_only() -> None:
    """By hand (llc-19's shape for a loop that may run no time, Rodinia pathfinder): the guard at index 1
    jumps to the empty block ``.LBB0_3``, where s[4:5] is undefined, and falls through into the loop, which
    writes s[4:5] at 4 before any read; the loop's exit (7, 8) jumps past the empty block to the read at 9.
    So s4 is dead after 0-3 (the guard's jump brings no value, its other way writes s4 first) and at the
    entry, live after 4-8 (read at 9 along the loop's exit; 5 and 6 write s8 and scc only), dead after 9."""
    text = EMPTY_BLOCK.format(fall="s_mov_b32 s8, 0")
    assert _s4_live_after(text) == [False] * 4 + [True] * 5 + [False] * 2
    assert 4 not in registers_in(isalens.load(text).kernels[0].liveness().entry, RegFile.SGPR)


def test_an_implicit_def_in_an_empty_block_keeps_the_register_the_other_way_reads() -> None:
    """The same with the guard's fall-through reading s[4:5] (index 2): the value must reach that read, so
    s4 is live after 0 and 1 whatever the empty block says (the guard's live-out is one set); dead after 2
    and 3 (4 writes it before any read), live after 4-8 as before."""
    assert _s4_live_after(EMPTY_BLOCK.format(fall="s_mov_b64 s[10:11], s[4:5]")) == \
        [True, True, False, False] + [True] * 5 + [False] * 2


def test_exec_is_live_from_a_kernels_entry() -> None:
    """EXEC holds the launched lanes at a kernel's entry (AMDGPUUsage, "Initial Kernel Execution State": the
    hardware sets it), and every VALU instruction reads it: in SCRATCH_OFFSET_NOT_ENABLED, which never writes
    EXEC, it is live from the entry through the last vector instruction (the store, index 4) and is no undefined
    read. It was left out of every line's live set, as a read of no value."""
    kernel = isalens.load(SCRATCH_OFFSET_NOT_ENABLED).kernels[0]
    live = kernel.liveness()
    exec_units = special_pair("exec").mask()
    assert live.entry & exec_units == exec_units
    assert all(live.live_in[i] & exec_units == exec_units for i in range(5))
    assert not live.live_out[4] & exec_units  # s_endpgm reads no EXEC
    assert not live.undefined_reads & exec_units
    doc = isalens.analyze(SCRATCH_OFFSET_NOT_ENABLED).to_dict()["files"][0]["kernels"][0]
    assert [line["live_special"] for line in doc["lines"]][3] == ["exec_lo", "exec_hi"]
