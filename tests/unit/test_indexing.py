"""Registers addressed through an index (s_set_gpr_idx_on, v_movrel*): expectations derived by hand from
the ISA guides' definitions (Vega ISA "VGPR Indexing": the index is added to the operand's VGPR number)."""

from __future__ import annotations

import isalens
from isalens.ir.registers import RegFile, registers_in

GPR_IDX = """\
    s_and_b32 s2, s1, 7
    s_set_gpr_idx_on s2, gpr_idx(SRC0)
    v_mov_b32_e32 v19, v1
    s_set_gpr_idx_off
    global_store_dword v[20:21], v19, off
    s_endpgm
"""


def test_gpr_idx_read_on_gfx9_reads_every_register_the_index_reaches() -> None:
    """s2 = s1 & 7 is in [0, 7], so ``v_mov_b32 v19, v1`` under gpr_idx(SRC0) reads one of v[1+0]..v[1+7]
    = v1..v8: all eight are live before it, v9 is not, and a note names the range on that line."""
    module = isalens.load(GPR_IDX, "gfx900")
    kernel = module.kernels[0]
    live = kernel.liveness()
    assert registers_in(live.live_in[2], RegFile.VGPR) == [1, 2, 3, 4, 5, 6, 7, 8, 20, 21]
    notes = [d for d in module.diagnostics if d.code == "indexed"]
    assert [d.line for d in notes] == [3]
    assert "v[1:8]" in notes[0].message and "s2 in [0, 7]" in notes[0].message


def test_unknown_index_reaches_to_the_end_of_the_file() -> None:
    """Without bounds on s1 the read may reach any VGPR from v1 to the last addressable one (v255 on
    gfx900): all are live, none is silently dropped."""
    kernel = isalens.load(GPR_IDX.replace("s_and_b32 s2, s1, 7", "s_mov_b32 s2, s1"), "gfx900").kernels[0]
    live = kernel.liveness()
    assert registers_in(live.live_in[2], RegFile.VGPR) == list(range(1, 256))


MOVRELD = """\
    s_and_b32 s0, s3, 3
    s_mov_b32 m0, s0
    v_movreld_b32_e32 v4, v9
    global_store_dwordx4 v[10:11], v[4:7], off
    s_endpgm
"""


def test_movreld_write_keeps_the_other_registers_of_the_range_live() -> None:
    """m0 = s3 & 3 in [0, 3]: ``v_movreld_b32 v4, v9`` writes one of v4..v7 and the other three keep
    their values, so v4..v7 are all live before it (with v9 and the address v[10:11])."""
    kernel = isalens.load(MOVRELD, "gfx1030").kernels[0]
    live = kernel.liveness()
    assert registers_in(live.live_in[2], RegFile.VGPR) == [4, 5, 6, 7, 9, 10, 11]
