"""The statistics' lane-affine dataflow (``analysis.stats._lane_affine``, which runs each block's steps found once
and skips blocks whose incoming facts did not change) against its plain definition: rounds over the blocks in
reverse postorder, every instruction of every block run through ``_transfer`` each round, until no block's
incoming facts change (at most 20 rounds), the facts before each asked-for instruction recorded as it passes.

The programs are random straight-line and looping ISA text over the instructions the dataflow knows (moves,
shifts, adds, multiplies, mbcnt, the packed-ids mask), loads that overwrite registers, and LDS accesses.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import isalens
from isalens.analysis import stats
from isalens.analysis.cfg import CFG, cfg
from isalens.ir.program import Kernel

_V = st.integers(0, 5).map(lambda v: f"v{v}")
_C = st.sampled_from(["0", "1", "2", "4", "-1", "0x3ff", "16", "s4"])
_LINES = st.one_of(
    st.tuples(st.just("v_mov_b32 {} , {}"), _V, st.one_of(_V, _C)),
    st.tuples(st.just("v_lshlrev_b32 {}, {}, {}"), _V, st.sampled_from(["1", "2", "3", "33"]), _V),
    st.tuples(st.sampled_from(["v_add_u32_e32 {}, {}, {}", "v_sub_u32_e32 {}, {}, {}", "v_subrev_u32_e32 {}, {}, {}",
                               "v_mul_u32_u24_e32 {}, {}, {}", "v_and_b32_e32 {}, {}, {}"]),
              _V, st.one_of(_V, _C), _V),
    st.tuples(st.sampled_from(["v_lshl_add_u32 {}, {}, {}, {}", "v_add_lshl_u32 {}, {}, {}, {}",
                               "v_mad_u32_u24 {}, {}, {}, {}"]), _V, _V, st.one_of(_V, _C), st.one_of(_V, _C)),
    st.tuples(st.just("v_mbcnt_lo_u32_b32 {}, -1, {}"), _V, st.sampled_from(["0", "s4"])),
    st.tuples(st.just("v_mbcnt_hi_u32_b32 {}, -1, {}"), _V, _V),
    st.tuples(st.just("global_load_dword {}, v[6:7], off"), _V),
    st.tuples(st.just("ds_read_b32 {}, {}"), _V, _V),
    st.tuples(st.just("ds_write_b32 {}, {} offset:16"), _V, _V),
    st.tuples(st.just("ds_read2_b32 v[8:9], {} offset1:32"), _V),
)


@st.composite
def programs(draw: st.DrawFn) -> str:
    lines = []
    labels = draw(st.integers(0, 3))
    for _ in range(draw(st.integers(1, 24))):
        kind = draw(st.integers(0, 9))
        if kind == 0 and labels:
            lines.append(f".LBB0_{draw(st.integers(0, labels - 1))}:")
        elif kind == 1 and labels:
            branch = draw(st.sampled_from(["s_cbranch_scc1", "s_cbranch_vccz", "s_branch"]))
            lines.append(f"{branch} .LBB0_{draw(st.integers(0, labels - 1))}")
        else:
            template, *args = draw(_LINES)
            lines.append(template.format(*args))
    # every label placed once (its first place kept), at the end when never drawn
    seen: set[str] = set()
    body = []
    for line in lines:
        if line.endswith(":"):
            if line in seen:
                continue
            seen.add(line)
        body.append(line)
    body += [f".LBB0_{k}:" for k in range(labels) if f".LBB0_{k}:" not in seen]
    return "\n".join(body) + "\ns_endpgm\n"


def _plain(kernel: Kernel, graph: CFG, packed_ids: bool, x_ok: bool, wanted: frozenset[int]) -> dict[int, dict]:
    """The dataflow as defined: every block, every instruction, every round."""
    if not wanted:
        return {}
    entry: dict[int, tuple[int, str]] = {}
    if x_ok:
        entry[-1 if packed_ids else 0] = (1, "workitem_x")
    block_in: dict[int, dict | None] = {b.index: None for b in graph.blocks}
    if graph.blocks:
        block_in[0] = dict(entry)
    before: dict[int, dict] = {}
    changed, rounds = True, 0
    while changed and rounds < 20:
        changed, rounds = False, rounds + 1
        for b in graph.reverse_postorder:
            incoming = block_in[b]
            if incoming is None:
                continue
            state = dict(incoming)
            for i in range(graph.blocks[b].start, graph.blocks[b].end):
                if i in wanted:
                    before[i] = dict(state)
                stats._transfer(kernel.instructions[i], state, packed_ids)
            for s in graph.blocks[b].succs:
                old = block_in[s]
                new = dict(state) if old is None else {k: v for k, v in old.items() if state.get(k) == v}
                if s == 0:
                    new = {k: v for k, v in new.items() if entry.get(k) == v}
                if new != old:
                    block_in[s], changed = new, True
    return before


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.booleans(), st.booleans(), st.booleans(), st.lists(st.integers(-1, 5), min_size=1, max_size=8))
def test_lane_affine_equals_its_plain_definition(text: str, packed_ids: bool, x_ok: bool, all_wanted: bool,
                                                 keys: list[int]) -> None:
    """The fact of the asked key before each asked instruction (every instruction, or the LDS ones), each asked
    about a drawn key, equals that key's fact in the plain dataflow's whole state there."""
    kernel = isalens.load(text, "gfx900", dialect="bare").kernels[0].ir
    graph = cfg(kernel)
    n = len(kernel.instructions)
    wanted = range(n) if all_wanted else [i for i, ins in enumerate(kernel.instructions)
                                          if ins.mnemonic.startswith("ds_")]
    asked = {i: keys[k % len(keys)] for k, i in enumerate(wanted)}
    plain = _plain(kernel, graph, packed_ids, x_ok, frozenset(asked))
    assert stats._lane_affine(kernel, graph, packed_ids, x_ok, asked) == {
        i: state.get(asked[i]) for i, state in plain.items()}


def test_a_loop_forgets_what_its_back_edge_overwrites() -> None:
    # hand check: v1 = 4 x lane before the loop; the loop's load overwrites v1, so on the back edge v1 is
    # unknown and the meet at the loop head forgets it; v2 = 2 x lane is never written in the loop and stays
    text = ("v_lshlrev_b32 v1, 2, v0\nv_lshlrev_b32 v2, 1, v0\n.LBB0_0:\nds_read_b32 v3, v1\n"
            "global_load_dword v1, v[6:7], off\ns_cbranch_scc1 .LBB0_0\ns_endpgm\n")
    kernel = isalens.load(text, "gfx900", dialect="bare").kernels[0].ir
    graph = cfg(kernel)
    assert stats._lane_affine(kernel, graph, False, True, {2: 1}) == {2: None}
    assert stats._lane_affine(kernel, graph, False, True, {2: 2}) == {2: (2, "workitem_x")}
    assert stats._lane_affine(kernel, graph, False, True, {2: 0}) == {2: (1, "workitem_x")}


def test_an_address_from_packed_ids_depends_on_their_marker() -> None:
    # hand check: with packed workitem ids v0 bits [9:0] hold x (the marker -1); v1 = x, v2 = 4 x: the asked v2
    # depends on v1, which depends on the marker, so the marker's fact is tracked although nobody asks for it
    text = "v_and_b32_e32 v1, 0x3ff, v0\nv_lshlrev_b32 v2, 2, v1\nds_read_b32 v3, v2\ns_endpgm\n"
    kernel = isalens.load(text, "gfx900", dialect="bare").kernels[0].ir
    assert stats._lane_affine(kernel, cfg(kernel), True, True, {2: 2}) == {2: (4, "workitem_x")}
    # without a workgroup whose rows are whole waves v0 says nothing
    assert stats._lane_affine(kernel, cfg(kernel), True, False, {2: 2}) == {2: None}


def _plain_value(base: str, srcs: tuple[object, ...], state: dict[int, tuple[int, str]],
                 packed_ids: bool) -> tuple[int, str] | None:
    """``stats._value`` as first written: every source's constant read before the pattern is chosen."""
    consts = [stats._const(op) for op in srcs]
    stride = stats._stride_of
    if base == "v_mov_b32" and len(srcs) == 1:
        return stride(srcs[0], state)
    if base == "v_lshlrev_b32" and len(srcs) == 2 and consts[0] is not None:
        s = stride(srcs[1], state)
        return None if s is None else (s[0] << (consts[0] & 31), s[1])
    if base in ("v_mul_u32_u24", "v_mul_lo_u32", "v_mul_i32_i24") and len(srcs) == 2:
        for k in (0, 1):
            s, c = stride(srcs[1 - k], state), consts[k]
            if c is not None and s is not None:
                return (s[0] * c, s[1])
        return None
    if len(srcs) >= 2 and base in stats._ADDS + stats._SUBS + stats._SUBREVS:
        a, b = stride(srcs[-2], state), stride(srcs[-1], state)
        if base in stats._ADDS:
            return stats._combine(a, b)
        return stats._combine(a, b, -1) if base in stats._SUBS else stats._combine(b, a, -1)
    if base == "v_lshl_add_u32" and len(srcs) == 3 and consts[1] is not None:
        s = stride(srcs[0], state)
        return stats._combine(None if s is None else (s[0] << (consts[1] & 31), s[1]), stride(srcs[2], state))
    if base == "v_add_lshl_u32" and len(srcs) == 3 and consts[2] is not None:
        s = stats._combine(stride(srcs[0], state), stride(srcs[1], state))
        return None if s is None else (s[0] << (consts[2] & 31), s[1])
    if base in ("v_mad_u32_u24", "v_mad_i32_i24") and len(srcs) == 3:
        for k in (0, 1):
            s, c = stride(srcs[1 - k], state), consts[k]
            if c is not None and s is not None:
                return stats._combine((s[0] * c, s[1]), stride(srcs[2], state))
        return None
    if base == "v_mbcnt_lo_u32_b32" and len(srcs) == 2 and consts[0] == -1 and stats._uniform(srcs[1]):
        return (1, "mbcnt")
    if base == "v_mbcnt_hi_u32_b32" and len(srcs) == 2 and consts[0] == -1:
        s = stride(srcs[1], state)
        return s if s is not None and s[1] == "mbcnt" else None
    if packed_ids and base == "v_and_b32" and len(srcs) == 2 and 0x3FF in consts and -1 in state:
        other = srcs[1] if consts[0] == 0x3FF else srcs[0]
        return state[-1] if stats._single_vgpr(other) == 0 else None
    return None


_FACT = st.tuples(st.sampled_from([0, 1, 2, 4, -3, 64]), st.sampled_from(["workitem_x", "mbcnt", "uniform"]))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.booleans(), st.dictionaries(st.integers(-1, 5), _FACT, max_size=7))
def test_value_equals_its_plain_definition(text: str, packed_ids: bool, state: dict[int, tuple[int, str]]) -> None:
    # _lane_affine and _transfer share _value: this checks _value itself (constants read only where a pattern
    # needs them) against the eager form
    kernel = isalens.load(text, "gfx900", dialect="bare").kernels[0].ir
    for ins in kernel.instructions:
        base = stats._affine_base(ins.mnemonic)
        if base is not None and ins.operands:
            srcs = ins.operands[1:]
            assert stats._value(base, srcs, state, packed_ids) == _plain_value(base, srcs, state, packed_ids)
