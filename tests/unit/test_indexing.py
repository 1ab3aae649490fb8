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


def test_unknown_index_reaches_up_to_the_kernels_highest_vgpr() -> None:
    """Without bounds on s1 and no vector around v1, the read may reach any VGPR from v1 up to the highest
    one the kernel uses (v21, of the store's address v[20:21]): the compiler's register count covers every
    register the code touches, so v22..v255 hold nothing; the note says what bounded the range."""
    module = isalens.load(GPR_IDX.replace("s_and_b32 s2, s1, 7", "s_mov_b32 s2, s1"), "gfx900")
    kernel = module.kernels[0]
    live = kernel.liveness()
    assert registers_in(live.live_in[2], RegFile.VGPR) == list(range(1, 22))
    note = next(d for d in module.diagnostics if d.code == "indexed")
    assert "v[1:21]" in note.message and "highest VGPR v21" in note.message


VECTOR = """\
    global_load_dwordx4 v[0:3], v[40:41], off
    global_load_dwordx4 v[4:7], v[40:41], off offset:16
    global_load_dwordx4 v[8:11], v[40:41], off offset:32
    s_load_dword s2, s[0:1], 0x0
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_set_gpr_idx_on s2, gpr_idx(SRC0)
    v_mov_b32_e32 v30, v4
    s_set_gpr_idx_off
    global_store_dword v[40:41], v30, off
    global_store_dwordx4 v[40:41], v[0:3], off
    s_endpgm
"""


def test_unknown_index_stays_within_the_vector_the_code_loads_whole() -> None:
    """v0..v11 are loaded as one vector by three ``global_load_dwordx4`` of adjacent tuples; an unknown index
    on base v4 reaches v4..v11 (the vector's end), not v12..v41: v4..v11 are live before the move, v12..v29
    are not (v30 is written by it, v[40:41] is the address)."""
    module = isalens.load(VECTOR, "gfx900")
    live = module.kernels[0].liveness()
    assert registers_in(live.live_in[6], RegFile.VGPR) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 40, 41]
    note = next(d for d in module.diagnostics if d.code == "indexed")
    assert "v[4:11]" in note.message and "vector" in note.message


GUARDED = """\
    s_load_dword s3, s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_cmp_gt_u32 s3, 3
    s_cbranch_scc1 .LBB0_2
    s_set_gpr_idx_on s3, gpr_idx(SRC0)
    v_mov_b32_e32 v30, v0
    s_set_gpr_idx_off
    global_store_dword v[40:41], v30, off
.LBB0_2:
    s_endpgm
"""


def test_compare_and_branch_bound_the_index_on_the_fall_through_path() -> None:
    """``s_cmp_gt_u32 s3, 3`` + ``s_cbranch_scc1`` leaves s3 in [0, 3] on the fall-through path (unsigned),
    so ``v_mov_b32 v30, v0`` under gpr_idx(SRC0) reads one of v0..v3."""
    module = isalens.load(GUARDED, "gfx900")
    live = module.kernels[0].liveness()
    assert registers_in(live.live_in[5], RegFile.VGPR) == [0, 1, 2, 3, 40, 41]
    note = next(d for d in module.diagnostics if d.code == "indexed")
    assert "s3 in [0, 3]" in note.message


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


def test_indexed_kind_equals_the_whole_tables_verdict_for_every_mnemonic() -> None:
    """``semantics.indexed_kind`` skips resolving the table for a mnemonic no ``indexed`` rule names; the oracle is
    the whole table's resolution (``effect_of``) for every mnemonic of every family's list (LLVM's spellings, with
    encoding suffixes) on every generation."""
    from pathlib import Path

    from isalens.isa.amdgcn import semantics

    names: set[str] = set()
    for listing in (Path(semantics.__file__).parent / "data").glob("mnemonics_*.txt"):
        names.update(line.strip() for line in listing.read_text().splitlines() if line.strip()
                     and not line.startswith("#"))
    names |= {f"{name}_{suffix}" for name in list(names) for suffix in ("e32", "e64", "sdwa", "dpp")}
    indexed = 0
    for generation in range(6, 13):
        for name in sorted(names):
            expected = semantics.effect_of(name, generation).indexed
            assert semantics.indexed_kind(name, generation) == expected, (name, generation)
            indexed += expected is not None
    assert indexed > 40  # the M0-relative moves of every family were among them (the check could fail)
