"""ACO's statistics algorithm on hand-made programs: every expected figure is derived in the comments from
Mesa 22.3's rules (aco_statistics.cpp), independently of the shader compiler."""

from __future__ import annotations

import pytest

from isalens.analysis.aco_model import (
    AcoBlock,
    AcoInstruction,
    BlockShape,
    aco_estimate,
    aco_num_waves,
    block_weights,
    control_depths,
)
from isalens.arch.timing import aco_costs

VALU = AcoInstruction("valu32", vector=True)
SALU = AcoInstruction("salu")
EXP = AcoInstruction("exp", memory="exp", vector=True)
END = AcoInstruction("salu", wait=(0, 0, 0, 0), endpgm=True)


def test_gfx9_straight_block() -> None:
    # GFX9: each instruction takes its latency before the next starts: v_mov 4, s_mov 4, exp 16 -> cycle 24.
    # The export completes 16 cycles after it issued (24 + 16 = 40); s_endpgm waits for every counter, then
    # takes its SALU latency 4: 40 + 4 = 44. Usage: VALU 4 + export 16 (in 44 cycles) -> parallelism
    # min(10 waves, 44 / 16 = 2.75) -> inverse throughput 44 / 2.75 = 16.
    r = aco_estimate([AcoBlock(0, frozenset(), (), (), (VALU, SALU, EXP, END))], aco_costs(), gfx_level=9,
                     wave_size=64, num_waves=10, workgroup_size=None)
    assert (r.latency, r.inverse_throughput) == (44, 16)


def test_gfx10_wave64_issues_vector_ops_twice_and_waits_for_operands() -> None:
    # GFX10, wave64: a VALU op issues in two passes (1 cycle each); its result is ready 5 cycles after the
    # second pass starts. v0 = ... at cycles 0,1 (ready at 1 + 5 = 6); the dependent op waits until 6, then
    # 2 passes -> 8. s_endpgm waits for v1 (ready at 7 + 5 = 12), then 1 cycle -> latency 13.
    a = AcoInstruction("valu32", definitions=(256,), has_definitions=True, vector=True)
    b = AcoInstruction("valu32", operands=(256,), definitions=(257,), has_definitions=True, vector=True)
    r = aco_estimate([AcoBlock(0, frozenset(), (), (), (a, b, END))], aco_costs(), gfx_level=10, wave_size=64,
                     num_waves=16, workgroup_size=None)
    assert r.instruction_cycles[0] == (2, 6, 5)
    assert r.latency == 13


def _shape(index: int, kind: str, logical: tuple[int, ...], linear: tuple[int, ...], branch: str | None = None,
           scc: bool = False, targets: tuple[int, ...] = ()) -> BlockShape:
    return BlockShape(index, frozenset(k for k in kind.split(",") if k), logical, linear, branch, scc, targets)


def _loop_with_uniform_if(branch: str) -> list[BlockShape]:
    """loop { if (uniform cond) break; body } as ACO builds it, the if ending in ``branch``."""
    return [_shape(0, "uniform,top-level,loop-preheader", (), (), "p_branch", False, (1,)),
            _shape(1, "uniform,loop-header", (0, 4), (0, 4), branch, True, (3, 2)),
            _shape(2, "uniform,break", (1,), (1,), "p_branch", False, (5,)),
            _shape(3, "uniform", (1,), (1,), "p_branch", False, (4,)),
            _shape(4, "uniform,continue", (3,), (3,), "p_branch", False, (1,)),
            _shape(5, "uniform,top-level,loop-exit", (2,), (2,))]


def test_block_weights_follow_isel_structure() -> None:
    # loop { if (uniform cond) break; body } as ACO builds it: 0 preheader, 1 header (uniform if on SCC),
    # 2 then (break), 3 else, 4 endif/continue, 5 exit. Loop depth 1 for 1..4 (x8); the uniform if covers
    # 2..3 (x0.5), not the endif 4: weights 1, 8, 4, 4, 8, 1.
    shapes = _loop_with_uniform_if("p_cbranch_z")
    depths = control_depths(shapes)
    assert depths == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 0), (1, 0, 0), (0, 0, 0)]
    blocks = [AcoBlock(s.index, s.kind, s.logical_preds, s.linear_preds) for s in shapes]
    assert block_weights(blocks, depths) == [1.0, 8.0, 4.0, 4.0, 8.0, 1.0]


def test_divergent_if_weights() -> None:
    # if (divergent) {A} else {B}: 0 branch, 1 then-logical, 2 then-linear, 3 invert, 4 else-logical,
    # 5 else-linear, 6 endif. Logical blocks x0.75; the linear blocks (no logical preds, one linear pred that
    # is a branch/invert block, one successor) x0.25.
    shapes = [_shape(0, "top-level,branch", (), (), "p_cbranch_z", False, (2, 1)),
              _shape(1, "uniform", (0,), (0,), "p_branch", False, (3,)),
              _shape(2, "uniform", (), (0,), "p_branch", False, (3,)),
              _shape(3, "invert", (), (1, 2), "p_cbranch_z", False, (5, 4)),
              _shape(4, "uniform", (0,), (3,), "p_branch", False, (6,)),
              _shape(5, "uniform", (), (3,), "p_branch", False, (6,)),
              _shape(6, "top-level,merge", (1, 4), (4, 5))]
    depths = control_depths(shapes)
    assert [d[2] for d in depths] == [0, 1, 0, 0, 1, 0, 0]
    blocks = [AcoBlock(s.index, s.kind, s.logical_preds, s.linear_preds) for s in shapes]
    assert block_weights(blocks, depths) == [1.0, 0.75, 0.25, 1.0, 0.75, 0.25, 1.0]


def test_a_uniform_if_ending_in_p_cbranch_nz_is_an_if() -> None:
    # the loop above with ACO's optimiser having inverted the if's condition (p_cbranch_nz): the same if, so the
    # same depths and weights (issue 29: weight 1 instead of 0.5 made Latency 51-61% high on such shaders)
    shapes = _loop_with_uniform_if("p_cbranch_nz")
    depths = control_depths(shapes)
    assert depths == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 0), (1, 0, 0), (0, 0, 0)]


@pytest.mark.parametrize(("large", "wave", "waves"), [(False, 64, 5), (True, 64, 8), (False, 32, 10), (True, 32, 16)])
def test_gfx1100_has_the_larger_vgpr_file(large: bool, wave: int, waves: int) -> None:
    # 96 VGPRs: 512 // 96 = 5 wave64 waves on GFX10's file, 768 // 96 = 8 on gfx1100/1101 (Mesa 22.3); wave32:
    # 1024 // 96 = 10, 1536 // 96 = 16 (the GFX10.3+ cap of 16 wave64 = 32 wave32 does not bind)
    assert aco_num_waves(aco_costs(), gfx_level=11, gfx10_3=True, polaris=False, wave_size=wave, vgprs=96, sgprs=0,
                         lds_bytes=0, workgroup_size=None, wgp_mode=True, large_vgpr_file=large) == waves


def test_an_image_sample_with_tfe_reads_its_destination() -> None:
    from isalens.engine.aco import aco_instructions
    from isalens.engine.load import load
    text = ("image_sample v[4:8], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D tfe\n"
            "image_sample v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D\ns_endpgm\n")
    kernel = load(text, "gfx1030").kernels[0]
    tfe, plain, _end = aco_instructions(kernel.ir.instructions, aco_costs(), gfx_level=10, target="gfx1030")
    # ACO register numbers: VGPR n = 256 + n. With TFE the destination v4..v8 is also an operand.
    assert set(range(260, 265)) <= set(tfe.operands) and set(tfe.definitions) == set(range(260, 265))
    assert not set(range(260, 264)) & set(plain.operands)
