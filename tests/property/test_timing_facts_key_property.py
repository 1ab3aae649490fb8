"""The timing step computes an instruction's facts and costs once per facts key (class, mnemonic, DPP form; the text
where the facts read operands) instead of once per text (time5, twenty-first session). These tests hold that to
its definition: instructions with the same key have the same :func:`describe_timing` facts, computed for each one
on its own; and :func:`instruction_costs` gives each instruction the costs it would get computed alone. Inputs: the
examples, the compiled oracle corpus (when built) and generated instruction texts that vary exactly what a key
leaves out (registers, offsets, literals) and what it must not (DPP controls, an image's dmask, an ``s_nop``'s
count, a wait's counters, a VOPD pair's halves)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isalens
from isalens.analysis.timing import costs
from isalens.arch.timing import target_table, timing_family, timing_table
from isalens.ir.instruction import Instruction
from isalens.isa.amdgcn.timing_facts import TimingFacts, describe_timing, facts_key

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))
CORPUS = sorted((ROOT / ".cache" / "corpus").glob("*/clang.s"))

#: templates whose holes a key leaves out ({r}, {s}: registers; {o}: an offset; {k}: a literal) or must not
#: ({n}: an s_nop count, {c}: a wait's counter, {m}: an image's dmask, {d}: a DPP control)
TEMPLATES = [
    "v_add_f32_e32 v{r}, v{s}, v{r}", "v_fma_f32 v{r}, v{s}, v{r}, {k}", "v_mul_f32_e64 v{r}, v{s}, {k}",
    "v_add_f32_dpp v{r}, v{s}, v{r} {d} row_mask:0xf bank_mask:0xf", "v_mov_b32_dpp v{r}, v{s} {d}",
    "v_mov_b32_e32 v{r}, v{s}", "v_exp_f32_e32 v{r}, v{s}", "v_fma_f64 v[{r2}:{r3}], v[{s2}:{s3}], v[0:1], v[2:3]",
    "global_load_dwordx4 v[{r4}:{r5}], v[{s2}:{s3}], off offset:{o}", "global_store_short v[{s2}:{s3}], v{r}, off",
    "global_load_dword v{r}, v[{s2}:{s3}], off offset:{o}", "ds_read2_b64 v[{r4}:{r5}], v{s} offset1:{n}",
    "ds_write_b32 v{s}, v{r} offset:{o}", "ds_read_b32 v{r}, v{s} offset:{o}", "s_add_u32 s{r}, s{s}, {k}",
    "s_load_dwordx2 s[{r2}:{r3}], s[0:1], {o}", "s_nop {n}", "s_waitcnt {c}({n})", "s_waitcnt vmcnt({n}) lgkmcnt(0)",
    "s_barrier", "image_load v[{r4}:{r5}], v[{s2}:{s3}], s[0:7] dmask:{m} unorm",
    "buffer_load_dword v{r}, v{s}, s[0:3], 0 offen offset:{o}",
]
DUAL = "v_dual_{a}_f32 v{r}, v{s}, v{r} :: v_dual_{b}_f32 v{t}, v{s}, v{t}"
ARCHS = ["gfx902", "gfx90a", "gfx1030", "gfx1100"]


def _instructions(text: str, arch: str) -> tuple[list[Instruction], int]:
    kernel = isalens.load(text, arch).kernels[0]
    return list(kernel.ir.instructions), kernel.arch.generation


def _check_keys(instructions: Iterable[Instruction], generation: int) -> int:
    """Every instruction's own facts equal those of the first instruction with its key; the number of keys."""
    first: dict[object, TimingFacts] = {}
    for ins in instructions:
        klass = ins.facts.klass
        own = describe_timing(ins, klass, generation)
        held = first.setdefault(facts_key(ins, klass), own)
        assert own == held, (ins.text, facts_key(ins, klass))
    return len(first)


def _check_costs(instructions: list[Instruction], arch: str, generation: int) -> None:
    """Each instruction's costs from one :func:`instruction_costs` call over all of them (shared objects) equal its
    costs computed in a call of its own with the memos emptied."""
    family = timing_family(isalens.load("s_endpgm\n", arch).kernels[0].arch)
    assert family is not None
    table = target_table(timing_table(family), arch)
    classes = [ins.facts.klass for ins in instructions]
    opts = {"wave_size": 64, "generation": generation, "lds_per_simd": 32.0}
    costs._MEMO.clear()
    together, _ = costs.instruction_costs(instructions, classes, table, **opts)
    for ins, klass, shared in zip(instructions, classes, together, strict=True):
        costs._MEMO.clear()
        (alone,), _ = costs.instruction_costs([ins], [klass], table, **opts)
        assert alone == shared, ins.text
    costs._MEMO.clear()


def _text(picks: list[tuple[int, int, int, int, int, int]]) -> str:
    out = []
    for t, r, s, o, n, m in picks:
        if t == len(TEMPLATES):
            ops = ("add", "mul", "fmac", "max", "sub")
            out.append(DUAL.format(a=ops[r % 5], b=ops[s % 5], r=r, s=s, t=r + 20))
            continue
        out.append(TEMPLATES[t].format(
            r=r, s=s, r2=2 * r, r3=2 * r + 1, s2=2 * s, s3=2 * s + 1, r4=4 * (r // 4), r5=4 * (r // 4) + 3,
            o=4 * o, k=("1.0", "0x40490fdb", "-4", "0.5", "17")[o % 5], n=n, c=("vmcnt", "lgkmcnt", "expcnt")[m % 3],
            m=hex(m), d=("quad_perm:[1,0,3,2]", "row_shr:1", "row_mirror", "bound_ctrl:0")[m % 4]))
    return "\n".join(out) + "\ns_endpgm\n"


pick = st.tuples(st.integers(0, len(TEMPLATES)), st.integers(0, 23), st.integers(0, 23), st.integers(0, 1023),
                 st.integers(0, 7), st.integers(1, 15))


@settings(max_examples=1000, deadline=None)
@given(st.lists(pick, min_size=2, max_size=12), st.sampled_from(ARCHS))
def test_generated_texts_share_facts_and_costs_by_key(picks: list[tuple[int, int, int, int, int, int]],
                                                      arch: str) -> None:
    if arch != "gfx1100":  # VOPD pairs are gfx11's
        picks = [p for p in picks if p[0] != len(TEMPLATES)]
    instructions, generation = _instructions(_text(picks), arch)
    _check_keys(instructions, generation)
    _check_costs(instructions, arch, generation)


def test_a_key_leaves_out_offsets_and_keeps_what_the_facts_read() -> None:
    """By hand: offsets and registers share a key; an image's dmask, an s_nop's count, a wait's counters and a DPP
    control do not (their facts differ: 2 vs 4 channels x 4 bytes, 2 vs 4 wait states, the counters named)."""
    text = """global_load_dword v1, v[2:3], off offset:16
global_load_dword v4, v[6:7], off offset:32
image_load v[0:1], v[2:5], s[0:7] dmask:0x3 unorm
image_load v[0:3], v[2:5], s[0:7] dmask:0xf unorm
s_nop 1
s_nop 3
s_waitcnt vmcnt(0)
s_waitcnt lgkmcnt(0)
v_mov_b32_e32 v1, v2
v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
s_endpgm
"""
    instructions, generation = _instructions(text, "gfx902")
    keys = [facts_key(ins, ins.facts.klass) for ins in instructions]
    assert keys[0] == keys[1]
    assert len(set(keys[2:10])) == 8
    facts = [describe_timing(ins, ins.facts.klass, generation) for ins in instructions]
    assert (facts[2].lane_bytes, facts[3].lane_bytes) == (8, 16)
    assert (facts[4].nop_count, facts[5].nop_count) == (1, 3)
    assert (facts[6].waits, facts[7].waits) == ((("vmcnt", 0),), (("lgkmcnt", 0),))
    assert (facts[8].dpp, facts[9].dpp) == (False, True)
    _check_costs(instructions, "gfx902", generation)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_share_facts_and_costs_by_key(path: Path) -> None:
    module = isalens.load(path=path)
    for kernel in module.kernels:
        instructions = list(kernel.ir.instructions)
        assert _check_keys(instructions, kernel.arch.generation) <= len(instructions)
        _check_costs(instructions, kernel.arch.name, kernel.arch.generation)


@pytest.mark.skipif(not CORPUS, reason="oracle corpus not built (.cache/corpus)")
def test_corpus_shares_facts_by_key() -> None:
    for path in CORPUS:
        for kernel in isalens.load(path=path).kernels:
            _check_keys(kernel.ir.instructions, kernel.arch.generation)
