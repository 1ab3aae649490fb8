"""The committed opcode tables (src/isalens/isa/amdgcn/data/opcodes_*.txt) are what tools/gen_opcode_tables.py
makes from the installed llvm-mc-19 now: a sample of formats is regenerated and compared row for row."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from isalens.isa.amdgcn.decoder.tables import opcode_table
from tests.conftest import load_tool, require_tool


def _generator() -> ModuleType:
    return load_tool("gen_opcode_tables")


@pytest.mark.parametrize(("family", "formats"), [("gfx9", ("SOP1", "VOPC", "SDWA_VOPC", "DS", "MTBUF", "MTBUF_FMT")),
                                                 ("gfx10_3", ("EXP", "EXP_FLAGS")),
                                                 ("gfx11", ("SOP2", "VOP1", "WORDS", "DPP_VOP1", "DPP_CTRL")),
                                                 ("gfx11_5", ("SOP1",)), ("gfx942", ("SMEM", "GLOBAL")),
                                                 ("gfx10_3", ("VOP2", "SDWA_VOP2", "DPP_VOP2"))])
def test_regenerated_sample_equals_table(family: str, formats: tuple[str, ...]) -> None:
    llvm_mc = require_tool("llvm-mc-19")
    gen = _generator()
    target, layout = gen.FAMILIES[family]
    fresh = gen.table(llvm_mc, target, layout, only=frozenset(formats))
    committed = opcode_table(family)
    for fmt in formats:
        rows = {op: (mn, tmpl, frozenset(zero.split(",")) - {""}) for op, (mn, tmpl, zero) in fresh[fmt].items()}
        assert rows == committed[fmt], fmt
        assert len(rows) > 10 or fmt in ("WORDS", "EXP_FLAGS")


@pytest.mark.parametrize("formats", [("VOP1", "SDWA_VOP1", "DPP_VOP1", "DPP_CTRL"), ("DS",), ("VOP3P", "MAI")])
def test_regenerated_rocm_sample_equals_table(formats: tuple[str, ...]) -> None:
    """gfx950's table (LLVM 19 does not know gfx950) is what ROCm LLVM's disassembler (rocm-llvm-python, optional:
    skipped without it) gives now: gfx950's additions over gfx942 (``v_prng_b32``, ``ds_read_b64_tr_b8``, the
    new ``v_mfma``) are in these formats."""
    gen = _generator()
    if gen._rocm_llvm().library() is None:
        pytest.skip("rocm-llvm-python is not installed")
    target, layout = gen.FAMILIES["gfx950"]
    fresh = gen.table(gen.ROCM, target, layout, only=frozenset(formats))
    committed = opcode_table("gfx950")
    for fmt in formats:
        rows = {op: (mn, tmpl, frozenset(zero.split(",")) - {""}) for op, (mn, tmpl, zero) in fresh[fmt].items()}
        assert rows == committed[fmt], fmt
        assert len(rows) > 10
    assert opcode_table("gfx950")["VOP1"].keys() - opcode_table("gfx942")["VOP1"].keys()


def test_regenerated_wave64_sample_equals_merged_table() -> None:
    """A wave64 table (``opcodes_gfx11_w64.txt``, the rows that differ from wave32's) over the wave32 one gives what
    llvm-mc-19 -mattr=+wavefrontsize64 prints now, row for row (VOP2: the carry and mask operands are ``vcc``)."""
    llvm_mc = require_tool("llvm-mc-19")
    gen = _generator()
    target, layout = gen.FAMILIES["gfx11_w64"]
    fresh = gen.table(llvm_mc, target, layout, only=frozenset({"VOP2"}))
    rows = {op: (mn, tmpl, frozenset(zero.split(",")) - {""}) for op, (mn, tmpl, zero) in fresh["VOP2"].items()}
    assert rows == opcode_table("gfx11", wave64=True)["VOP2"]
    assert rows != opcode_table("gfx11")["VOP2"]


@pytest.mark.parametrize("family", ["gfx9", "gfx10_3", "gfx11", "gfx12"])
def test_regenerated_op_sel_equals_table(family: str) -> None:
    """Each VOP3 opcode's ``op_sel`` spelling (section VOP3_OPSEL) is what llvm-mc-19 prints now for the committed
    VOP3 rows, each op_sel bit probed alone."""
    llvm_mc = require_tool("llvm-mc-19")
    gen = _generator()
    target, layout = gen.FAMILIES[family]
    committed = opcode_table(family)
    rows = {op: (mn, tmpl, ",".join(sorted(zero))) for op, (mn, tmpl, zero) in committed["VOP3"].items()}
    fresh = gen.op_sel(llvm_mc, target, layout, rows)
    assert {op: (mn, spec, frozenset()) for op, (mn, spec, _z) in fresh.items()} == committed["VOP3_OPSEL"]
    assert sum(spec[0] != "0" for _mn, spec, _z in fresh.values()) > 10  # opcodes that print op_sel


@pytest.mark.parametrize("family", ["gfx908", "gfx942"])
def test_regenerated_mai_equals_table(family: str) -> None:
    """The MAI section (v_mfma*/v_smfmac*: template with modifiers 0, the modifiers LLVM accepts) is what
    llvm-mc-19 prints now."""
    llvm_mc = require_tool("llvm-mc-19")
    gen = _generator()
    target, _layout = gen.FAMILIES[family]
    fresh = {op: (mn, tmpl, frozenset(mods.split(",")) - {""}) for op, (mn, tmpl, mods) in
             gen.mai(llvm_mc, target).items()}
    assert fresh == opcode_table(family)["MAI"]
    assert len(fresh) >= 20


def test_default_run_without_rocm_llvm_regenerates_llvm_19_tables_and_says_what_it_skipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without the optional rocm-llvm-python the generator's default run still regenerates every table LLVM 19
    makes and names the ROCm LLVM families it left; a family without a committed table (gfx12_5) is generated
    only when asked for. The probing itself is replaced: this checks which families the run covers."""
    gen = _generator()
    for family in gen.FAMILIES:
        (tmp_path / f"opcodes_{family}.txt").touch()
    (tmp_path / "opcodes_gfx12_5.txt").unlink()
    made: list[str] = []
    monkeypatch.setattr(gen, "_rocm_llvm", lambda: SimpleNamespace(library=lambda: None))
    monkeypatch.setattr(gen, "table", lambda llvm_mc, target, layout, only: {})
    monkeypatch.setattr(gen, "read", lambda path: {})
    monkeypatch.setattr(gen, "write", lambda path, family, *rest: made.append(family))
    assert gen.main(["--out", str(tmp_path), "--llvm-mc", require_tool("llvm-mc-19")]) == 0
    assert made == sorted(set(gen.FAMILIES) - gen.ROCM_FAMILIES)
    assert "skipping gfx950: rocm-llvm-python is not installed" in capsys.readouterr().err
    # asked for by name, a ROCm LLVM family without the package is an error, not a silent skip
    assert gen.main(["--out", str(tmp_path), "--family", "gfx950"]) == 2


@pytest.mark.parametrize("formats", [("VOP1", "DPP_VOP1", "DPP_CTRL"), ("SMEM",)])
def test_regenerated_gfx12_5_sample_equals_table(formats: tuple[str, ...]) -> None:
    """gfx12.5's table is what ROCm LLVM gives now (skipped without rocm-llvm-python): VOP1 holds
    ``v_mov_b16_e32``, which ROCm LLVM decodes only with +real-true16 (the generator's true16 retry), SMEM the
    ``nv`` rows (opcode bit 7)."""
    gen = _generator()
    if gen._rocm_llvm().library() is None:
        pytest.skip("rocm-llvm-python is not installed")
    target, layout = gen.FAMILIES["gfx12_5"]
    fresh = gen.table(gen.ROCM, target, layout, only=frozenset(formats))
    committed = opcode_table("gfx12_5")
    for fmt in formats:
        rows = {op: (mn, tmpl, frozenset(zero.split(",")) - {""}) for op, (mn, tmpl, zero) in fresh[fmt].items()}
        assert rows == committed[fmt], fmt
        assert len(rows) > 10
    if "VOP1" in formats:
        assert committed["VOP1"][28][:2] == ("v_mov_b16_e32", "{VDST:h:1}, {SRC0:h:1}")
