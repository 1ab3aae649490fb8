"""CFG and liveness on small hand-written kernels, expectations derived by hand."""

from __future__ import annotations

import isalens
from isalens.ir.registers import RegFile, registers_in

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


def test_vopd_pair_is_one_instruction_with_both_operations() -> None:
    kernel = isalens.load("v_dual_mov_b32 v0, v5 :: v_dual_add_f32 v7, v1, v2\ns_endpgm\n", "gfx1100").kernels[0]
    ins = kernel.ir.instructions[0]
    assert ins.ops == ("v_dual_mov_b32", "v_dual_add_f32")
    assert registers_in(ins.defs, RegFile.VGPR) == [0, 7]
    assert registers_in(ins.uses, RegFile.VGPR) == [1, 2, 5]
