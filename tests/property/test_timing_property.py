"""Properties of the timing model: more independent work never makes a block faster; more waves never lower
throughput (iterations per cycle) until a roof (the busiest unit's issue) is reached."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import isalens
from isalens.engine.timing import kernel_timing

OPS = [
    "v_add_f32_e32 v{d}, v{a}, v{b}", "v_mul_f32_e32 v{d}, v{a}, v{b}", "v_fma_f32 v{d}, v{a}, v{b}, v{d}",
    "v_exp_f32_e32 v{d}, v{a}", "v_mul_lo_u32 v{d}, v{a}, v{b}", "s_add_u32 s{s}, s{s}, 1",
    "global_load_dword v{d}, v[40:41], off", "s_waitcnt vmcnt(0)", "ds_read_b32 v{d}, v{a}",
    "s_waitcnt lgkmcnt(0)", "s_nop 1", "v_add_f64 v[{e}:{f}], v[{e}:{f}], v[44:45]",
]
ARCHS = ["gfx902", "gfx90a", "gfx1030", "gfx1100"]

op = st.tuples(st.integers(0, len(OPS) - 1), st.integers(0, 15), st.integers(0, 15), st.integers(0, 15),
               st.integers(0, 7))


def _text(ops: list[tuple[int, int, int, int, int]]) -> str:
    lines = [OPS[i].format(d=d, a=a, b=b, s=s, e=2 * (d // 2) + 20, f=2 * (d // 2) + 21) for i, d, a, b, s in ops]
    return "\n".join(lines) + "\n"


def _block_cycles(text: str, arch: str) -> int:
    kernel = isalens.load(text + "s_endpgm\n", arch).kernels[0]
    return kernel_timing(kernel, waves=1).profile.blocks[0].latency_cycles


@settings(max_examples=60, deadline=None)
@given(st.lists(op, min_size=1, max_size=25), st.integers(0, 25), st.sampled_from(ARCHS))
def test_an_independent_valu_op_never_lowers_block_cycles(ops: list[tuple[int, int, int, int, int]], where: int,
                                                          arch: str) -> None:
    before = _block_cycles(_text(ops), arch)
    # v60/v61 appear nowhere else: the new op depends on nothing and nothing depends on it
    lines = _text(ops).splitlines()
    lines.insert(min(where, len(lines)), "v_add_f32_e32 v60, v61, v61")
    after = _block_cycles("\n".join(lines) + "\n", arch)
    assert after >= before


LOOP = """s_mov_b32 s0, 16
.L1:
{body}
s_add_i32 s0, s0, -1
s_cmp_lg_u32 s0, 0
s_cbranch_scc1 .L1
s_endpgm
"""


@settings(max_examples=40, deadline=None)
@given(st.lists(op, min_size=1, max_size=20), st.sampled_from(ARCHS))
def test_more_waves_never_lower_throughput_until_a_roof(ops: list[tuple[int, int, int, int, int]], arch: str) -> None:
    kernel = isalens.load(LOOP.format(body=_text(ops).rstrip("\n")), arch).kernels[0]
    previous = 0.0
    for waves in range(1, kernel.arch.max_waves_per_simd + 1):  # (timing refuses more than a SIMD holds)
        (loop,) = kernel_timing(kernel, waves=waves).loops
        throughput = waves / loop.cycles_per_iteration  # iterations per cycle on one SIMD
        roof = 1 / max(loop.issue_cycles.values())        # the busiest unit, fully used
        assert throughput >= previous - 1e-12
        assert throughput <= roof + 1e-12
        if throughput < roof - 1e-12:
            assert throughput > previous  # below the roof, one more wave always helps
        previous = throughput
