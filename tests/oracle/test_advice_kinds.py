"""Advice kinds on kernels of ours compiled by clang-19 (examples/kernels/advice), the expected answers
derived by hand from the source and the listing; each with a kernel where the kind must not fire."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from isalens.analysis.advice import Advice
from isalens.analysis.advice.pressure import attribute
from isalens.engine.advice import kernel_advice
from isalens.engine.load import LoadedKernel
from isalens.engine.sources import load_source
from isalens.frontends import clang as cc
from tests.conftest import EXAMPLES
from tests.unit.test_advice_pressure import _brute_force_minimum

pytestmark = pytest.mark.oracle

KERNELS = EXAMPLES / "kernels" / "advice"


@pytest.fixture(scope="module", autouse=True)
def _clang() -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")


def _kernel(name: str, arch: str = "gfx902", *defines: str) -> LoadedKernel:
    module, _ = load_source(KERNELS / name, arch, defines=defines)
    return module.kernels[0]


def _items(kernel: LoadedKernel, kind: str) -> list[Advice]:
    return [i for i in kernel_advice(kernel).items if i.kind == kind]


def test_wasted_halves_pairs_the_scalar_fp16_values() -> None:
    # By hand: a[0..7] are scalar halves computed one by one and all live in the k/j double loop, together
    # with the running sum s: nine 16-bit values, each alone in a VGPR (16-bit VALU ops write the whole
    # register; only the low half is read again). Nine lonely halves make 4 pairs: 4 VGPRs freed there.
    (item,) = _items(_kernel("scalar_halves.cl"), "halves")
    assert item.facts["pairs"] == 4
    assert len(item.values) == 9 and all(v.reg.endswith(".l") for v in item.values)
    before, after = item.effect["live_vgprs_at_line"]
    assert before - after == 4


def test_no_wasted_halves_when_values_are_packed() -> None:
    # occupancy_budget works on float4: every live VGPR holds 32-bit data, no lonely half
    assert not _items(_kernel("occupancy_budget.cl"), "halves")


def _encoded_bytes(text: str, arch: str) -> int:
    """Bytes llvm-mc-19 encodes ``text`` into for ``arch`` (the oracle for instruction sizes)."""
    mc = shutil.which("llvm-mc-19") or shutil.which("llvm-mc")
    if mc is None:
        pytest.skip("llvm-mc is not installed (apt install llvm-19)")
    proc = subprocess.run([mc, "-arch=amdgcn", f"-mcpu={arch}", "-show-encoding"], input=text + "\n",
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    total = 0
    for m in re.finditer(r"encoding: \[([^\]]*)\]", proc.stdout):
        total += len(m.group(1).split(","))
    return total


def test_subdword_extract_folds_into_op_sel() -> None:
    # By hand from the gfx902 listing of scalar_halves.cl: `v_lshrrev_b32_e32 v12, 16, v1` moves the high
    # half of v1 (in[i*8+5], loaded packed) down for `v_fma_f16 v7, v12, s4, v7` only; v1 is not written in
    # between, so `v_fma_f16 v7, v1, s4, v7 op_sel:[1,0,0,0]` reads it in place: 4 + 8 = 12 bytes -> 8,
    # 2 VALU issues -> 1.
    kernel = _kernel("scalar_halves.cl")
    items = _items(kernel, "subdword")
    assert len(items) == 1
    (item,) = items
    assert item.facts["replacement"] == "v_fma_f16 v7, v1, s4, v7 op_sel:[1,0,0,0]"
    assert item.effect == {"valu_instructions": (2.0, 1.0), "code_bytes": (12.0, 8.0)}
    # the sizes, checked by LLVM's assembler: the replaced pair and the replacement
    texts = [i.text for i in kernel.instructions if i.line in item.lines]
    assert _encoded_bytes("\n".join(texts), "gfx902") == 12
    assert _encoded_bytes(str(item.facts["replacement"]), "gfx902") == 8


def test_no_subdword_fold_when_the_source_is_rewritten() -> None:
    # subdword_halves.cl on gfx902: `v_lshrrev_b32_e32 v7, 16, v6` feeds v_fma_f16 and v_mul_f16, but
    # `v_and_b32_e32 v6, 0xffff0000, v6` rewrites v6 before them (and the shift has two readers): no fold.
    # On gfx1100 there is no SDWA and VOP2 f16 ops take no op_sel: nothing either.
    assert not _items(_kernel("subdword_halves.cl"), "subdword")
    assert not _items(_kernel("subdword_halves.cl", "gfx1100"), "subdword")


def test_lds_pair_beyond_read2_offsets() -> None:
    # By hand: row[l] and row[l + 300] are 300 * 4 = 1200 bytes apart; ds_read2_b32 offsets are 8-bit counts
    # of 4 bytes (at most 255 elements) and 300 is no multiple of 64 for st64, so clang emits two ds_read_b32
    # (offset 0 and offset:1200) and advice says a distance within 255 elements merges them: 2 -> 1 reads.
    (item,) = _items(_kernel("lds_far.cl"), "lds")
    assert item.facts["distance"] == 1200
    assert item.effect == {"lds_reads_for_pair": (2.0, 1.0)}


def test_lds_bank_conflict_of_an_even_stride() -> None:
    # By hand: lane l reads byte 8l: dword 2l sits in bank 2l mod 32, so lanes l and l+16 share a bank:
    # degree 2. Padding to 12 bytes: bank 3l mod 32 differs for all 32 lanes (3 is odd): degree 1.
    (item,) = _items(_kernel("lds_stride.cl"), "lds")
    assert item.facts == {"stride": 8, "padded_stride": 12}
    assert item.effect == {"lds_conflict_degree": (2.0, 1.0)}


def test_no_lds_advice_on_conflict_free_merged_reads() -> None:
    # STRIDE 1: lane l reads dword l, one per bank (degree 1); FAR 200: clang merges the pair into one
    # ds_read2_b32 itself. Neither fires.
    assert not _items(_kernel("lds_stride.cl", "gfx902", "STRIDE=1"), "lds")
    assert not _items(_kernel("lds_far.cl", "gfx902", "FAR=200"), "lds")


def test_repeated_literal_in_a_loop() -> None:
    # By hand: spill_budget.cl unrolls `c[(k + it) % 12]` for k = 0..11 inside the `it` loop; each unsigned
    # division by 12 multiplies by the magic 0xaaaaaaab (= ceil(2^35 / 12)) in an s_mul_hi_u32 with a literal:
    # 12 uses, 12 x 4 = 48 literal bytes fetched per iteration; one s_mov_b32 (8 bytes) before the loop
    # saves 48 - 8 = 40 bytes of code for one more SGPR.
    # The remainder's `* -12` (0xff40) sits in s_mulk_i32's 16-bit immediate field, no literal dword: no item.
    items = _items(_kernel("spill_budget.cl", "gfx902", "BUDGET=58"), "constants")
    assert [i.facts.get("literal") for i in items] == ["0xaaaaaaab"]
    (item,) = items
    assert item.facts["uses"] == 12
    before, after = item.effect["loop_bytes_per_iteration"]
    assert before - after == 48
    before, after = item.effect["code_bytes"]
    assert before - after == 40


def test_no_constant_advice_when_llvm_already_uses_inline_constants() -> None:
    # literals.cl: LLVM writes `x - 40` as v_subrev_u32 with the inline 40 and `s - 50` as s_sub_i32 with the
    # inline 50; 0x80000000 in a XOR has no shorter form and nothing repeats in a loop
    assert not _items(_kernel("literals.cl"), "constants")


@pytest.mark.parametrize("name", ["scalar_halves.cl", "occupancy_budget.cl", "lds_stride.cl"])
def test_pressure_attribution_minimal_on_small_kernels(name: str) -> None:
    # every subset of the values live at the peak, up to the chosen size, tried by brute force
    result = _kernel(name).analyze()
    checked = 0
    for cut in (1, 2, 3):
        if result.pressure.vgpr.peak - cut < 1:
            continue
        att = attribute(result, cut)
        if att.blocked_at is not None:
            continue  # shortening every value live at the peak cannot reach this budget
        assert _brute_force_minimum(result, cut, len(att.chosen)) == len(att.chosen)
        assert att.new_peak <= att.budget
        checked += 1
    assert checked


def test_half3_two_uint_source_names_long_lived_pk_fma_results() -> None:
    # domain.md §1.1: with half3 split over two uint arrays, packed FMA results live hundreds of lines past
    # the pressure peak. Compiled from the example source, pressure advice names a v_pk_fma_f16 result whose
    # next read is more than 300 lines after its definition, and says it frees one VGPR.
    module, _ = load_source(EXAMPLES / "kernels" / "fp16_layouts" / "half3_two_uint.cl", "gfx902")
    (item,) = _items(module.kernels[0], "pressure")
    long_lived = [v for v in item.values if v.defined_by == "v_pk_fma_f16"
                  and min(u for u in v.use_lines if u > v.def_line) - v.def_line > 300]
    assert long_lived and all(v.frees == 1 for v in long_lived)
    for v in long_lived:
        assert f"{v.reg} (v_pk_fma_f16 line {v.def_line}" in item.message
