"""Every target `arch list` offers can be read, and its facts come from the arch data only.

Oracles: llvm-mc-19 (which mnemonics a target has), clang-19 (real code for gfx6/gfx7), liveness of a
six-line gfx7 snippet worked out by hand, and LLVM's ``getOccupancyWithNumSGPRs`` thresholds.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import isalens
from isalens.analysis.occupancy import waves_with_sgprs
from isalens.arch.loader import all_archs, get_arch
from isalens.cli import main
from isalens.frontends.radv import resolve_target
from isalens.ir.registers import special_pair
from isalens.isa.amdgcn import catalog
from isalens.isa.amdgcn.fields import LAYOUTS, DecodeError, decode
from tests.conftest import require_tool

# v_mov_b32 and s_endpgm exist on every GCN/CDNA/RDNA target (llvm-mc-19 accepts them for all)
SNIPPET = "s_mov_b32 s0, 0\nv_mov_b32 v1, s0\nv_mov_b32 v0, v1\ns_endpgm\n"

# gfx7 only (llvm-mc-19 -mcpu=gfx700 accepts it, -mcpu=gfx600 refuses flat_load_dword):
GFX7 = ("flat_load_dword v2, v[0:1]\ns_waitcnt vmcnt(0) lgkmcnt(0)\nv_mad_u64_u32 v[4:5], s[2:3], v2, v2, 0\n"
        "v_add_i32 v3, vcc, v4, v5\nflat_store_dword v[0:1], v3\ns_endpgm\n")


def _listed_targets(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["arch", "list"]) == 0
    return [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("gfx")]


def test_arch_list_offers_only_readable_targets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    targets = _listed_targets(capsys)
    assert "gfx600" in targets and "gfx700" in targets and "gfx902" in targets
    path = tmp_path / "snippet.s"
    path.write_text(SNIPPET)
    for target in targets:
        spec = get_arch(target)
        assert spec.mnemonic_lists, target
        assert all(catalog.has_list(name) for name in spec.mnemonic_lists), target
        kernel = isalens.load(path, target).kernels[0]
        assert [i.mnemonic for i in kernel.ir.instructions] == ["s_mov_b32", "v_mov_b32", "v_mov_b32", "s_endpgm"]


def test_every_list_serves_a_target() -> None:
    used = {name for spec in all_archs().values() for name in spec.mnemonic_lists}
    assert used == set(catalog.all_families())


def test_gfx7_snippet_liveness_by_hand(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "g7.s"
    path.write_text(GFX7)
    assert main(["livereg", "--arch", "gfx700", "--json", str(path)]) == 0
    kernel = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]
    # live in | out | written: line 3 holds v0, v1 (the address, kept for the store), v2 (read) and the
    # v[4:5] result; line 4 v0, v1, v4, v5 and the new v3 -> 5 at lines 3 and 4; highest VGPR v5 -> 6 requested
    assert kernel["vgpr"]["peak_live"] == 5
    assert kernel["vgpr"]["peak_lines"] == [3, 4]
    assert kernel["vgpr"]["requested"] == 6


def test_gfx7_carry_out_add_writes_vcc(tmp_path: Path) -> None:
    # GCN2's v_add_i32 is the carry-out add (llvm-mc-19 -mcpu=gfx700 -show-encoding: VOP2 opcode 0x25 with
    # VCC as the carry destination); gfx9's VOP3 v_add_i32 has no carry
    path = tmp_path / "g7.s"
    path.write_text(GFX7)
    add = isalens.load(path, "gfx700").kernels[0].ir.instructions[3]
    assert add.mnemonic == "v_add_i32" and add.defs & special_pair("vcc").mask()
    path.write_text("v_add_i32 v3, v4, v5\ns_endpgm\n")
    add9 = isalens.load(path, "gfx902").kernels[0].ir.instructions[0]
    assert not add9.defs & special_pair("vcc").mask()


def test_gfx7_instruction_refused_on_gfx6(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "g7.s"
    path.write_text(GFX7)
    assert main(["livereg", "--arch", "gfx600", str(path)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "g7.s:1" in err[0] and "flat_load_dword" in err[0] and "gfx7" in err[0]


def test_gfx6_gfx7_lists_agree_with_llvm_mc() -> None:
    mc = require_tool("llvm-mc-19")
    for target, accepted in (("gfx600", False), ("gfx700", True)):
        proc = subprocess.run([mc, "-arch=amdgcn", f"-mcpu={target}", "-o", "/dev/null"], input=GFX7, text=True,
                              capture_output=True, check=False)
        assert (proc.returncode == 0) is accepted, proc.stderr
    # a gfx8 addition and a gfx6/7 name gfx8 dropped
    for name, lists in (("v_add_u16", ("gfx7",)), ("v_mullit_f32", ("gfx8",))):
        assert not catalog.is_known(name, lists)
    assert catalog.is_known("v_mullit_f32", ("gfx6",)) and catalog.is_known("v_floor_f64", ("gfx7",))
    assert not catalog.is_known("v_floor_f64", ("gfx6",))


@pytest.mark.parametrize("target", ["gfx600", "gfx700"])
def test_clang_output_for_gcn1_gcn2_reads(target: str, tmp_path: Path) -> None:
    clang = require_tool("clang-19")
    source = tmp_path / "k.cl"
    source.write_text("__kernel void k(__global float* a, __global const float* b, int n, double d) {\n"
                      "  int i = get_global_id(0); float s = 0;\n"
                      "  for (int j = 0; j < n; ++j) { s += b[i + j] * (float)j; if (s > 4.0f) a[j] = s; }\n"
                      "  a[i] = s + (float)(d * 3.0) + sqrt(s);\n}\n")
    asm = tmp_path / "k.s"
    subprocess.run([clang, "-x", "cl", "-cl-std=CL2.0", "-nogpulib", "-target", "amdgcn-amd-amdhsa",
                    f"-mcpu={target}", "-O2", "-S", str(source), "-o", str(asm)], check=True)
    kernel = isalens.load(asm).kernels[0]  # no --ignore-unknown: every mnemonic must be listed
    assert kernel.ir.arch == target and len(kernel.ir.instructions) > 20


def test_sgpr_occupancy_table_is_llvms() -> None:
    # LLVM GCNSubtarget::getOccupancyWithNumSGPRs: gfx8+ <= 80 -> 10, <= 88 -> 9, <= 100 -> 8, else 7;
    # earlier <= 48 -> 10, <= 56 -> 9, <= 64 -> 8, <= 72 -> 7, <= 80 -> 6, else 5; none from gfx10 on
    for target, cases in (("gfx902", [(80, 10), (81, 9), (88, 9), (100, 8), (101, 7)]),
                          ("gfx700", [(48, 10), (49, 9), (64, 8), (72, 7), (80, 6), (81, 5)]),
                          ("gfx90a", [(80, 8), (101, 7)]),
                          ("gfx1030", [(106, 16)])):
        for sgprs, waves in cases:
            assert waves_with_sgprs(get_arch(target), sgprs) == waves, (target, sgprs)


def test_decoder_layouts_come_from_the_data() -> None:
    assert {spec.encoding_layout for spec in all_archs().values()} <= set(LAYOUTS)
    spec = get_arch("gfx700")
    # s_endpgm; an SMRD literal offset (llvm-mc-19 -mcpu=gfx700: s_load_dword s5, s[2:3], 0x12345) is gfx7 only
    assert decode([0xBF810000], spec.generation, spec.encoding_layout).format == "SOPP"
    assert decode([0xC00282FF, 0x12345], spec.generation, spec.encoding_layout).size == 8
    with pytest.raises(DecodeError, match="gfx7 only"):
        decode([0xC00282FF, 0x12345], 6, get_arch("gfx600").encoding_layout)
    assert decode([0xBF810000], 9, get_arch("gfx902").encoding_layout).format == "SOPP"


def test_decode_gfx7_text_is_our_decoders(capsys: pytest.CaptureFixture[str]) -> None:
    # llvm-mc-19 --disassemble aborts ("Disassembly not yet supported for subtarget") for gfx6/gfx7: the text is
    # our decoder's. Expected text: llvm-mc-19 -mcpu=gfx700 -show-encoding prints `s_load_dword s5, s[2:3], 0x4 ;
    # encoding: [0x04,0x83,0x02,0xc0]` and `s_endpgm ; encoding: [0x00,0x00,0x81,0xbf]`
    assert main(["decode", "--arch", "gfx700", "C0028304", "BF810000"]) == 0
    out = capsys.readouterr().out
    assert "s_load_dword s5, s[2:3], 0x4" in out and "s_endpgm" in out, out
    # an image instruction (MIMG, top bits 111100) is not spelled for gfx6/gfx7: one line naming the word
    assert main(["decode", "--arch", "gfx700", "F0001F00", "00020F0B"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "F0001F00" in err[0] and "MIMG" in err[0], err


@pytest.mark.parametrize(("name", "family", "gfx"), [
    ("raven", "RAVEN", "gfx902"), ("gfx803", "POLARIS10", "gfx803"), ("fiji", "FIJI", "gfx803"),
    ("navy_flounder", "NAVI22", "gfx1031"), ("mi100", "ARCTURUS", "gfx908"), ("gfx1103", "GFX1103_R1", "gfx1103"),
    ("kaveri", "KAVERI", "gfx700"),
])
def test_mesa_family_names_from_arch_data(name: str, family: str, gfx: str) -> None:
    # Mesa ac_get_family_name spellings; gfx targets per LLVM AMDGPUUsage "Processors"
    target = resolve_target(name)
    assert (target.family, target.gfx) == (family, gfx)


def test_decoded_texts_are_shared_per_target_only() -> None:
    """The parser keeps decoded texts for the whole process (a library repeats them across code objects):
    a text accepted for gfx900 must still be refused for gfx1030 at the same wave size, which dropped
    v_mac_f32 (llvm-mc-19 -mcpu=gfx1030 rejects it too), and a guessed instruction is warned about on every
    load."""
    import isalens
    from isalens.errors import UnknownInstructionError

    text = "v_mac_f32 v0, v1, v2\ns_endpgm\n"
    assert isalens.load(text, "gfx900").kernels[0].ir.instructions[0].mnemonic == "v_mac_f32"
    with pytest.raises(UnknownInstructionError):
        isalens.load(text, "gfx1030", wave_size=64)
    for _ in range(2):
        module = isalens.load(text, "gfx1030", ignore_unknown=True, wave_size=64)
        assert [d.code for d in module.ir.diagnostics].count("unknown-instruction") == 1
