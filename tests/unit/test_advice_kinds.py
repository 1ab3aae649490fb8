"""Advice detectors on short ISA texts whose answers are worked out by hand in each comment."""

from __future__ import annotations

import json

import pytest

import isalens
from isalens.analysis.advice import Advice, KernelAdvice
from isalens.cli import main
from isalens.engine.advice import kernel_advice
from isalens.engine.sweep import parse_sweep_defines, variants
from isalens.errors import InputError
from tests.conftest import EXAMPLES


def _advice(text: str, arch: str = "gfx902", **kw: bool) -> KernelAdvice:
    return kernel_advice(isalens.load(text, arch, **kw).kernels[0])


def _kind(text: str, kind: str, arch: str = "gfx902") -> list[Advice]:
    return [i for i in _advice(text, arch).items if i.kind == kind]


MERGE = """v_add_u32_e32 v2, 64, v1
ds_read_b32 v3, v1
ds_read_b32 v4, v2 offset:4
s_waitcnt lgkmcnt(0)
v_add_f32_e32 v5, v3, v4
global_store_dword v[6:7], v5, off
s_endpgm"""


def test_lds_reads_on_related_addresses_merge_into_read2() -> None:
    # By hand: v2 = v1 + 64, so line 3 reads v1 + 68 and line 2 reads v1 + 0: 68 / 4 = 17 elements apart,
    # both within ds_read2_b32's 255: `ds_read2_b32 offset0:0 offset1:17`; 2 reads -> 1, 8 bytes less.
    (item,) = _kind(MERGE, "lds")
    assert "`ds_read2_b32 offset0:0 offset1:17`" in item.message
    assert item.effect["lds_reads"] == (2.0, 1.0)
    before, after = item.effect["code_bytes"]
    assert before - after == 8
    assert item.lines == (2, 3)


def test_lds_reads_separated_by_a_write_do_not_merge() -> None:
    # a ds_write between the reads may change what the second reads: no merge
    text = MERGE.replace("ds_read_b32 v4", "ds_write_b32 v9, v8\nds_read_b32 v4")
    assert not _kind(text, "lds")


def test_no_advice_on_guessed_instructions() -> None:
    # an unknown mnemonic read with --ignore-unknown: the registers it touches are a guess, so no advice
    advice = _advice("v_frobnicate_b32 v1, v2\nv_add_f32 v3, v1, v2\ns_endpgm", ignore_unknown=True)
    assert advice.items == () and advice.refused is not None and "guessed" in advice.refused


def test_no_advice_on_register_indexed_access() -> None:
    # v_movrels_b32 reads a register chosen by M0 at run time: liveness is approximate, so no advice
    advice = _advice("s_mov_b32 m0, s2\nv_movrels_b32 v1, v4\nv_add_f32 v3, v1, v2\ns_endpgm", "gfx1030")
    assert advice.items == () and advice.refused is not None and "index" in advice.refused


def test_literal_add_of_a_negative_inline_becomes_a_subtract() -> None:
    # By hand: 0xffffffd8 is -40, a literal (inline integers are -16..64); `v_subrev_u32_e32 v1, 40, v2`
    # computes v2 - 40 with the inline 40 in 4 bytes instead of 8. 0x80000000 loaded by s_mov_b32 is the bit
    # reverse of 1, which s_brev_b32 loads without a literal: 8 -> 4 bytes.
    text = "v_add_u32_e32 v1, 0xffffffd8, v2\ns_mov_b32 s4, 0x80000000\nglobal_store_dword v[4:5], v1, off\ns_endpgm"
    (item,) = _kind(text, "constants")
    assert item.facts["rewrites"] == 2
    assert item.facts["first_replacement"] == "v_subrev_u32_e32 v1, 40, v2"
    assert "`s_brev_b32 s4, 1`" in item.message
    before, after = item.effect["code_bytes"]
    assert before - after == 8


def test_no_inline_rewrite_of_an_inline_constant() -> None:
    # 40 is already inline: nothing to shorten
    assert not _kind("v_subrev_u32_e32 v1, 40, v2\nglobal_store_dword v[4:5], v1, off\ns_endpgm", "constants")


def test_sweep_define_lists_and_variant_order() -> None:
    defs = parse_sweep_defines(["TILE=8,16", "FAST"])
    assert defs == [("TILE", ["8", "16"]), ("FAST", [""])]
    # 2 targets x 2 tiles = 4 variants, targets outermost
    assert variants(defs, ["gfx902", "gfx1030"]) == [
        ({"TILE": "8", "FAST": ""}, "gfx902"), ({"TILE": "16", "FAST": ""}, "gfx902"),
        ({"TILE": "8", "FAST": ""}, "gfx1030"), ({"TILE": "16", "FAST": ""}, "gfx1030")]
    for bad in (["=1"], ["TILE=8,,16"], ["TILE=8", "TILE=16"], ["9X=1"]):
        with pytest.raises(InputError):
            parse_sweep_defines(bad)


def test_advise_cli_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", str(EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (kernel,) = doc["files"][0]["kernels"]
    assert kernel["advice_refused"] is None
    kinds = [item["kind"] for item in kernel["advice"]]
    assert kinds[:2] == ["occupancy", "pressure"]
    for item in kernel["advice"]:
        assert set(item) >= {"kind", "lines", "message", "effect"}
        assert all(len(pair) == 2 for pair in item["effect"].values())
    # bad input: one line on stderr, exit 2
    assert main(["advise", "/nonexistent/kernel.s"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


PACK = """v_lshrrev_b32_e32 v4, 16, v1
v_lshrrev_b32_e32 v5, 16, v2
v_add_f16_e32 v6, v1, v2
v_add_f16_e32 v7, v4, v5
v_pack_b32_f16 v8, v6, v7
global_store_dword v[10:11], v8, off
s_endpgm"""


def test_halves_added_apart_and_packed_become_one_pk_add() -> None:
    # By hand: lines 1-2 move the high halves of v1 and v2 down, line 3 adds the low halves, line 4 the high
    # halves, line 5 packs the two sums: that is v_pk_add_f16 v8, v1, v2. Sizes: two shifts and two VOP2
    # adds (4 bytes each) plus v_pack_b32_f16 (VOP3, 8) = 24 bytes and 5 issues -> one 8-byte VOP3P op.
    (item,) = _kind(PACK, "subdword")
    assert item.facts == {"form": "packed", "replacement": "v_pk_add_f16 v8, v1, v2"}
    assert item.effect == {"valu_instructions": (5.0, 1.0), "code_bytes": (24.0, 8.0)}
    assert item.lines == (1, 2, 3, 4, 5)


def test_no_packed_op_when_the_high_half_comes_from_another_register() -> None:
    # line 2 now shifts v3, not v2: the high add is not the low add's high half, so no v_pk_add_f16
    text = PACK.replace("v_lshrrev_b32_e32 v5, 16, v2", "v_lshrrev_b32_e32 v5, 16, v3")
    assert all(i.facts.get("form") != "packed" for i in _kind(text, "subdword"))
