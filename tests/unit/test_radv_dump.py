"""The RADV_DEBUG=shaders dump reader on small dumps in Mesa 22.3's exact layout (the sections and line forms
are those of real dumps in tests/oracle/test_shader_corpus.py; the encodings are ACO's for these lines)."""

from __future__ import annotations

from pathlib import Path

import pytest

from isalens import cli
from isalens.engine.load import load
from isalens.errors import ArchError, ParseError
from isalens.frontends.radv import dump_statistics
from isalens.ir.registers import Reg, RegFile

NIR = """shader: MESA_SHADER_COMPUTE
source_sha1: {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}
workgroup-size: 256, 1, 1
shared-size: 128
inputs: 0
impl main {
\tblock block_0:
\t/* preds: */
\tvec3 32 ssa_2 = intrinsic load_workgroup_id () ()
}
"""
IR = """After RA:
ACO shader stage: compute_cs
BB0
/* logical preds: / linear preds: / kind: uniform, top-level, */
\t s2: %59:s[0-1],  s1: %58:scc = p_init_scratch %50:s[0-1], (latekill)%56:s[9]
\t s{size}: %143:s[1],  s1: %142:scc,  s{size}: %0:exec = s_and_saveexec_b{bits} %10:vcc, %0:exec
\ts_endpgm
"""
DISASM = """Compute Shader
disasm:
BB0:
\tv_mov_b32_e32 v1, 0                                         ; 7e020280
\ts_nop 0                                                     ; bf800000
\t(then repeated 2 times)
\ts_endpgm                                                    ; bf810000

"""
STATS = """
Compute Shader:
*** SHADER STATS ***
Driver pipeline hash: 3200003839939312597
SGPRs: 128
VGPRs: 8
Code size: 20
LDS size: 512
Subgroups per SIMD: 32
********************
"""
WARNING = "WARNING: radv is not a conformant Vulkan implementation, testing use only.\n"


def dump(size: int = 2) -> str:
    return WARNING + NIR + "\n" + IR.format(size=size, bits=32 * size) + "\n" + DISASM + STATS


def test_a_dump_is_detected_and_each_stage_is_a_kernel() -> None:
    module = load(dump(), "navi21")
    assert module.ir.dialect == "radv"
    (kernel,) = module.kernels
    assert kernel.name == "compute_shader@3200003839939312597"
    # one v_mov, s_nop written out three times (once + "repeated 2 times"), s_endpgm
    assert [i.mnemonic for i in kernel.instructions] == ["v_mov_b32_e32"] + ["s_nop"] * 3 + ["s_endpgm"]
    assert sum(4 * len(i.encoding) for i in kernel.instructions) == 20
    assert kernel.ir.declared.shader_stage == "comp"
    assert kernel.ir.declared.workgroup_size == (256, 1, 1)  # from NIR's workgroup-size
    assert kernel.ir.declared.lds_bytes == 512  # ACO's "LDS size"
    notes = [d.message for d in module.diagnostics if d.code == "skipped"]
    # the warning line, NIR and ACO IR are skipped, each with a note
    assert any("line 1:" in n for n in notes) and any("NIR" in n for n in notes) and any("ACO IR" in n for n in notes)


@pytest.mark.parametrize(("size", "wave"), [(1, 32), (2, 64)])
def test_wave_size_from_acos_lane_masks(size: int, wave: int) -> None:
    # no exec/vcc in the disassembly; ACO's IR defines exec as s1 (wave32) or s2 (wave64)
    assert load(dump(size), "navi21").kernels[0].ir.wave_size == wave


def test_a_paste_without_indentation() -> None:
    flat = "\n".join(line.lstrip() for line in dump().splitlines())
    assert [i.mnemonic for i in load(flat, "navi21").kernels[0].instructions] == \
        [i.mnemonic for i in load(dump(), "navi21").kernels[0].instructions]


def test_wave_size_default_is_noted() -> None:
    text = WARNING + DISASM
    module = load(text, "navi21")
    assert module.kernels[0].ir.wave_size == 64
    assert any(d.code == "wave-size" for d in module.diagnostics)
    assert load(text, "raven").diagnostics == tuple(d for d in load(text, "raven").diagnostics
                                                    if d.code != "wave-size")


def test_statistics_beside_ours() -> None:
    stats = dump_statistics(load(dump(), "navi21").ir)
    assert stats["VGPRs"] == 8 and stats["Subgroups per SIMD"] == 32 and stats["Subgroup size"] == 64
    assert stats["Driver pipeline hash"] == 3200003839939312597


def test_two_stages_get_kernel_prefixed_statistics() -> None:
    vs = DISASM.replace("Compute Shader", "Vertex Shader as VS")
    text = DISASM.replace("Compute Shader", "Pixel Shader") + vs + STATS.replace("Compute Shader", "Pixel Shader")
    module = load(text, "raven")
    assert [k.name for k in module.kernels] == ["pixel_shader@3200003839939312597", "vertex_shader_as_vs"]
    stats = dump_statistics(module.ir)
    assert stats["pixel_shader@3200003839939312597/VGPRs"] == 8
    assert "vertex_shader_as_vs/Subgroup size" in stats


def test_truncated_mid_instruction() -> None:
    text = dump()
    cut = text[: text.index("s_nop 0") + 4]
    with pytest.raises(ParseError, match=r"truncated|cut off") as info:
        load(cut, "navi21")
    assert info.value.line is not None


def test_truncated_between_instructions() -> None:
    text = dump()
    cut = text[: text.index("\ts_endpgm                     ")]
    with pytest.raises(ParseError, match="truncated"):
        load(cut, "navi21")


def test_no_disasm_section() -> None:
    with pytest.raises(ParseError, match="no 'disasm:' section"):
        load(WARNING + NIR + STATS, "navi21")


def test_family_from_the_dump_and_unknown_family() -> None:
    assert load("RADV_FORCE_FAMILY=navi21 RADV_DEBUG=shaders\n" + dump()).arch.name == "gfx1030"
    assert load("RADV_FORCE_FAMILY=navi21 RADV_DEBUG=shaders\n" + dump(), "gfx1030").arch.name == "gfx1030"
    with pytest.raises(ArchError, match="conflicts"):
        load("RADV_FORCE_FAMILY=navi21 RADV_DEBUG=shaders\n" + dump(), "raven")
    with pytest.raises(ArchError, match="navi99"):
        load("RADV_FORCE_FAMILY=navi99 RADV_DEBUG=shaders\n" + dump())


def test_cli_reads_a_dump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dump.txt"
    path.write_text(dump())
    assert cli.main(["analyze", str(path), "--arch", "navi21", "--dialect", "radv"]) == 0
    out = capsys.readouterr().out
    assert "compute_shader@3200003839939312597" in out and "Subgroups per SIMD 32" in out


def test_aco_listing_repeats_and_undefined_exports() -> None:
    # ACO: "(then repeated N times)" repeats the line above; v128 in an export is its undefined operand
    text = ("BB0:\n\tv_mov_b32_e32 v0, 1.0 ; 7e0002f2\n\ts_nop 0 ; bf800000\n\t(then repeated 3 times)\n"
            "\texp pos0 v128, v128, v128, v128 done ; c40008cf 80808080\n"
            "\texp param0 v0, v0, v0, v0 ; c400020f 00000000\n\ts_endpgm ; bf810000\n")
    module = load(text, "raven", dialect="aco")
    kernel = module.kernels[0]
    assert [i.mnemonic for i in kernel.instructions].count("s_nop") == 4
    v128 = Reg(RegFile.VGPR, 128, 1).mask()
    assert not any(i.uses & v128 or i.referenced & v128 for i in kernel.instructions)
    assert kernel.analyze().resources.vgpr.requested == 1
    assert any(d.code == "undefined-export" for d in module.diagnostics)
    # a real v128 (written in the kernel) stays a register
    real = text.replace("v_mov_b32_e32 v0, 1.0 ; 7e0002f2", "v_mov_b32_e32 v128, 1.0 ; 7f0002f2")
    assert load(real, "raven", dialect="aco").kernels[0].analyze().resources.vgpr.requested == 129


def test_aco_listing_wave_size() -> None:
    # RADV's ACO code: wave64 unless the code says wave32 (exec_lo, _b32 saveexec); a bare paste with
    # ACO's repeat lines is still ACO
    plain = "\tv_mov_b32_e32 v1, 0 ; 7e020280\n\ts_nop 0 ; bf800000\n\t(then repeated 2 times)\n\ts_endpgm ; bf810000\n"
    module = load(plain, "navi21")
    assert module.ir.dialect == "aco" and module.kernels[0].ir.wave_size == 64
    assert any(d.code == "wave-size" for d in module.diagnostics)
    wave32 = "BB0:\n\ts_mov_b32 s0, exec_lo ; be80037e\n\ts_endpgm ; bf810000\n"
    assert load(wave32, "navi21", dialect="aco").kernels[0].ir.wave_size == 32
    assert load(wave32, "navi21", dialect="aco", wave_size=64).kernels[0].ir.wave_size == 64


@pytest.mark.parametrize(("size", "wave", "want"), [(1, 32, 16), (2, 64, 16)])
def test_timing_waves_are_waves_of_the_shaders_size(size: int, wave: int, want: int) -> None:
    """RADV's occupancy counts wave32 units on GFX10+ (the dump's "Subgroups per SIMD: 32" for 8 VGPRs and
    no LDS limit); timing's W is waves of the shader's own size: 32 wave32 units = 16 wave64 waves (derived:
    32 x 32 / 64), and for wave32 min(32, 16 wave slots of a gfx10.3 SIMD) = 16 (Mesa 22.3 starts wave32 from
    twice the wave64 slots; LLVM's getMaxWavesPerEU is 16 for both sizes). Issue 29: a wave64 ssao.frag on
    navi21 was timed with W = 32."""
    from isalens.engine.timing import kernel_timing
    kernel = load(dump(size), "navi21").kernels[0]
    assert kernel.ir.wave_size == wave
    t = kernel_timing(kernel)
    assert (t.waves, t.waves_from) == (want, "occupancy")
