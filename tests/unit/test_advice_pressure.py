"""Pressure attribution, occupancy and spill advice on code whose answer is read off the listing by hand."""

from __future__ import annotations

import itertools

import isalens
from isalens.analysis.advice.pressure import attribute
from isalens.analysis.pipeline import KernelAnalysis
from isalens.engine.advice import kernel_advice
from isalens.ir.registers import Reg, RegFile
from tests.conftest import EXAMPLES

TWO_UINT = EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"


def _analysis() -> KernelAnalysis:
    return isalens.load(TWO_UINT).kernels[0].analyze()


def test_half3_two_uint_names_the_long_lived_pk_fma_results() -> None:
    # By hand from the listing: 150 VGPRs requested; gfx902 gives 256 // 150 = 1 wave, and 2 waves need
    # <= 128 VGPRs, so 22 must go. Line 275 `v_pk_fma_f16 v147, v75, s6, v76` and line 276
    # `v_pk_mul_f16 v148, v75, v75` write values first read at lines 657 and 676, far past the peak
    # (line 324): live across it, unused there. Each frees one VGPR; the peak of 102 must drop to 80.
    advice = kernel_advice(isalens.load(TWO_UINT).kernels[0])
    item = next(i for i in advice.items if i.kind == "pressure")
    by_reg = {v.reg: v for v in item.values}
    assert by_reg["v147"].defined_by == "v_pk_fma_f16" and by_reg["v147"].def_line == 275
    assert 657 in by_reg["v147"].use_lines
    assert by_reg["v148"].def_line == 276 and 676 in by_reg["v148"].use_lines
    assert all(v.frees == 1 for v in item.values)
    assert len(item.values) == 22
    assert item.effect["vgprs"] == (150.0, 128.0)
    assert item.effect["peak_live_vgprs"] == (102.0, 80.0)
    assert item.effect["waves_per_simd"] == (1.0, 2.0)
    assert "v147 (v_pk_fma_f16 line 275, next used line 657)" in item.message


def _brute_force_minimum(result: KernelAnalysis, cut: int, at_most: int) -> int | None:
    """The size of the smallest set of registers live at the peak that brings every instruction to the
    budget, found by trying every subset up to ``at_most`` (an independent re-derivation of the model: a
    shortened value frees its register where it is occupied but not read or written, between its last write
    at or before the peak and its next write)."""
    ins = result.kernel.instructions
    live = result.liveness
    counts = result.pressure.vgpr.counts
    peak = result.pressure.vgpr.peak_indices[0]
    budget = result.pressure.vgpr.peak - cut
    region = [i for i, c in enumerate(counts) if c > budget]
    occupied = [live.live_in[i] | live.live_out[i] | ins[i].defs for i in range(len(ins))]
    frees: dict[int, set[int]] = {}
    for r in range(256):
        m = Reg(RegFile.VGPR, r).mask()
        if not occupied[peak] & m:
            continue
        lo = max((i for i in range(peak + 1) if ins[i].defs & m), default=-1)
        hi = min((i for i in range(peak + 1, len(ins)) if ins[i].defs & m), default=len(ins))
        frees[r] = {i for i in region if lo < i <= hi and i != hi and occupied[i] & m
                    and not (ins[i].uses | ins[i].defs) & m}
    for k in range(at_most + 1):
        for subset in itertools.combinations(sorted(frees), k):
            if all(counts[i] - sum(1 for r in subset if i in frees[r]) <= budget for i in region):
                return k
    return None


def test_pressure_attribution_is_minimal_by_brute_force() -> None:
    # small cuts on the fp16 kernel: every subset of the values live at the peak up to the chosen size
    result = _analysis()
    for cut in (1, 2, 3):
        att = attribute(result, cut)
        assert att.proven_minimal
        assert _brute_force_minimum(result, cut, len(att.chosen)) == len(att.chosen)
        assert att.new_peak <= att.budget
        # the region and the peak after, by the module's definitions: the instructions above the budget; each
        # instruction's count less the chosen values that free a register there, at its highest
        counts = result.pressure.vgpr.counts
        assert list(att.region) == [i for i, c in enumerate(counts) if c > att.budget]
        assert att.new_peak == max(c - sum(1 for v in att.chosen if i in set(v.frees_at))
                                   for i, c in enumerate(counts))


def test_no_pressure_advice_at_full_occupancy() -> None:
    # 8 VGPRs on gfx902: below the granule step of 24, so 10 waves per SIMD already; nothing to shorten
    text = "\n".join(["v_mov_b32 v0, 1.0", "v_mov_b32 v1, 2.0", "v_mov_b32 v7, 3.0", "v_add_f32 v2, v0, v1",
                      "v_add_f32 v3, v2, v7", "s_endpgm"])
    advice = kernel_advice(isalens.load(text, "gfx902").kernels[0])
    assert advice.refused is None
    assert not [i for i in advice.items if i.kind in ("pressure", "occupancy")]


def test_occupancy_advice_names_the_cheapest_step() -> None:
    # By hand: 150 VGPRs on gfx902 (8x8 = 64 threads, one wave per group): 256 // 152 = 1 wave per SIMD;
    # 2 waves need 128 VGPRs: 22 fewer. LDS (2 x 16x16 x 4 = 2048 bytes) is not binding.
    advice = kernel_advice(isalens.load(TWO_UINT).kernels[0])
    item = next(i for i in advice.items if i.kind == "occupancy")
    assert item.effect == {"vgprs": (150.0, 128.0), "waves_per_simd": (1.0, 2.0)}
    assert "2 fewer VGPRs would save a granule of 4" in item.message  # 150 % 4 = 2


def test_no_spill_advice_without_scratch() -> None:
    # the fp16 kernel declares ScratchSize 0 and has no scratch or writelane instruction
    advice = kernel_advice(isalens.load(TWO_UINT).kernels[0])
    assert not [i for i in advice.items if i.kind == "spills"]


def test_region_columns_answer_as_the_set_of_its_indices() -> None:
    # the region is kept as an int32 column and a byte per instruction (twenty-second session, 1M memory): it
    # must answer membership, iteration and length as the set of its indices did, out of range included
    from array import array

    from isalens.analysis.advice.pressure import Region

    indices = [0, 3, 4, 9]
    region = Region(array("i", indices), 10)
    expected = set(indices)
    for i in [*range(-3, 14), 2**40, "3", 3.0, None]:
        assert (i in region) is (type(i) is int and i in expected), i
    assert list(region) == indices and len(region) == 4
    assert list(Region(array("i"), 0)) == [] and 0 not in Region(array("i"), 0)


def test_attribution_keeps_its_region_as_a_column() -> None:
    # the fp16 kernel's region for a cut of 1: the instructions whose count exceeds the budget, by definition,
    # held as 4-byte ints (not a tuple of Python ints)
    result = _analysis()
    att = attribute(result, 1)
    counts = result.pressure.vgpr.counts
    assert att.region.itemsize == 4
    assert list(att.region) == [i for i, c in enumerate(counts) if c > att.budget]
