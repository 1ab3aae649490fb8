"""The timing pass without its line lists (``profile(lines=False)``, what a scan runs) computes every figure the
pass with them computes: the oracle is the full pass on the same generated program (straight code, a loop, a loop
nested in it, a branch over a block), region by region."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import isalens
from isalens.analysis.timing import kernel_profile_on
from isalens.analysis.timing.model import KernelProfile, LoopProfile

OPS = [
    "v_add_f32_e32 v{d}, v{a}, v{b}", "v_fma_f32 v{d}, v{a}, v{b}, v{d}", "v_exp_f32_e32 v{d}, v{a}",
    "v_mul_lo_u32 v{d}, v{a}, v{b}", "s_add_u32 s{s}, s{s}, 1", "global_load_dword v{d}, v[40:41], off",
    "s_waitcnt vmcnt(0)", "ds_read_b32 v{d}, v{a}", "s_waitcnt lgkmcnt(0)", "s_load_dword s{s}, s[20:21], 0x0",
    "s_waitcnt lgkmcnt(0)", "v_add_f64 v[{e}:{f}], v[{e}:{f}], v[44:45]", "global_store_dword v[40:41], v{a}, off",
]
ARCHS = ["gfx902", "gfx90a", "gfx1030", "gfx1100"]

op = st.tuples(st.integers(0, len(OPS) - 1), st.integers(0, 15), st.integers(0, 15), st.integers(0, 15),
               st.integers(0, 7))
ops = st.lists(op, min_size=0, max_size=12)


def _text(body: list[tuple[int, int, int, int, int]]) -> list[str]:
    return [OPS[i].format(d=d, a=a, b=b, s=s, e=2 * (d // 2) + 20, f=2 * (d // 2) + 21) for i, d, a, b, s in body]


def _program(before: list, outer: list, inner: list, skipped: list, after: list, nested: bool) -> str:
    lines = [*_text(before), "s_mov_b32 s30, 4", ".LOUTER:", *_text(outer)]
    if nested:
        lines += ["s_mov_b32 s31, 3", ".LINNER:", *_text(inner), "s_add_i32 s31, s31, -1", "s_cmp_lg_u32 s31, 0",
                  "s_cbranch_scc1 .LINNER"]
    lines += ["s_cmp_eq_u32 s30, 2", "s_cbranch_scc1 .LSKIP", *_text(skipped), ".LSKIP:",
              "s_add_i32 s30, s30, -1", "s_cmp_lg_u32 s30, 0", "s_cbranch_scc1 .LOUTER", *_text(after), "s_endpgm"]
    return "\n".join(lines) + "\n"


def _figures(lp: LoopProfile) -> tuple[object, ...]:
    return (lp.header_line, lp.depth, lp.trip_count, lp.issue_cycles, lp.latency_cycles, lp.work, lp.stalls)


def _profiles(text: str, arch_name: str) -> tuple[KernelProfile, KernelProfile]:
    loaded = isalens.load(text, arch_name).kernels[0]
    kernel, arch, graph = loaded.ir, loaded.arch, loaded.cfg
    full = kernel_profile_on(kernel, arch, graph, occupancy_waves=4)
    bare = kernel_profile_on(kernel, arch, graph, occupancy_waves=4, lines=False)
    assert full is not None and bare is not None
    return full, bare


@settings(max_examples=300, deadline=None)
@given(ops, ops, ops, ops, ops, st.booleans(), st.sampled_from(ARCHS))
def test_the_same_figures_without_the_lines(before: list, outer: list, inner: list, skipped: list, after: list,
                                            nested: bool, arch: str) -> None:
    full, bare = _profiles(_program(before, outer, inner, skipped, after, nested), arch)
    assert [_figures(lp) for lp in bare.loops] == [_figures(lp) for lp in full.loops]
    assert _figures(bare.whole) == _figures(full.whole)
    for a, b in zip(bare.blocks, full.blocks, strict=True):
        assert (a.index, a.issue_cycles, a.latency_cycles) == (b.index, b.issue_cycles, b.latency_cycles)
        assert a.critical_path == ()
    for lp in (*bare.loops, bare.whole):
        assert not lp.unit_lines and not lp.stall_lines


def test_the_generated_programs_have_lines_to_leave_out() -> None:
    """A program of the generator's shape with stalls outside and inside the loops: the full pass has lines
    there and a block critical path (so the comparison above leaves something out), the same stalls without."""
    body = [(5, 3, 0, 0, 0), (6, 0, 0, 0, 0), (1, 4, 3, 3, 0)]  # a load, its wait, an FMA reading it
    full, bare = _profiles(_program(body, body, body, body, body, True), "gfx1030")
    assert full.whole.stall_lines and full.whole.unit_lines
    assert any(b.critical_path for b in full.blocks)
    assert bare.whole.stalls == full.whole.stalls and bare.whole.stalls
