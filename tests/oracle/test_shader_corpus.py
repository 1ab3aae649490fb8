"""Our Vulkan shader corpus against Mesa's ACO (22.3, RADV null device) on raven, navi21 and gfx1100.

Oracles: ACO's statistics ("VGPRs", "SGPRs", "Subgroups per SIMD", "Code size") of every build, ACO's IR after
register allocation (operand widths), and RADV's own ``RADV_DEBUG=shaders,shaderstats`` dump of the same build,
read unedited. Builds are cached (tests/oracle/shader_corpus.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from isalens import cli
from isalens.arch.loader import get_arch
from isalens.engine.load import LoadedKernel, LoadedModule, load
from isalens.engine.sources import load_source
from isalens.frontends import radv
from isalens.frontends.clang import CompilerError
from isalens.frontends.vk import SHADER_STAGE_BITS
from isalens.ir.operands import RegOperand
from isalens.ir.registers import RegFile, count_registers
from tests.oracle import shader_corpus as corpus

pytestmark = pytest.mark.oracle

PAIRS = list(corpus.corpus_pairs())
#: ACO's "SGPRs" on gfx10+ is the fixed per-wave block (Mesa ac_gpu_info.c: sgpr_alloc_granularity 128)
FIXED_SGPRS = 128



def _front_end(name: str, family: str, monkeypatch: pytest.MonkeyPatch) -> tuple[LoadedModule, dict[str, str | int]]:
    """What `isalens analyze examples/shaders/<name> --arch <family>` analyses, from the cached build."""
    result = corpus.compiled(name, family)
    monkeypatch.setattr(radv, "compile_shader", lambda *a, **k: result)
    return load_source(corpus.SHADERS / name, family)


def _dump(name: str, family: str) -> LoadedModule:
    """The build's RADV_DEBUG=shaders,shaderstats output exactly as the driver printed it."""
    return load(corpus.compiled(name, family).log, family)


def _figures(kernel: LoadedKernel) -> dict[str, object]:
    res = kernel.analyze()
    occ = res.occupancy[0] if res.occupancy else None
    return {
        "instructions": len(kernel.ir.instructions),
        "code_bytes": sum(4 * len(i.encoding) for i in kernel.ir.instructions),
        "wave": kernel.ir.wave_size, "vgpr_peak": res.pressure.vgpr.peak, "sgpr_peak": res.pressure.sgpr.peak,
        "vgpr_requested": res.resources.vgpr.requested, "vgpr_allocated": res.resources.vgpr.allocated,
        "sgpr_requested": res.resources.sgpr.requested, "sgpr_allocated": res.resources.sgpr.allocated,
        "waves_per_simd": occ.waves_per_simd if occ else None, "aco_waves": occ.aco_waves if occ else None,
    }


def test_corpus_covers_the_stages() -> None:
    names = [p.name for p in corpus.SHADERS.iterdir() if p.is_file()]
    assert len(names) >= 60
    stages = {radv.detect_stage(Path(n), (corpus.SHADERS / n).read_text(), None)[0] for n in names}
    assert stages == {"comp", "frag", "vert"}


@pytest.mark.parametrize(("name", "family"), PAIRS)
def test_front_end_against_aco(radv_ok: None, name: str, family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module, stats = _front_end(name, family, monkeypatch)
    (kernel,) = module.kernels
    assert kernel.ir.guessed == 0
    figures = _figures(kernel)
    assert figures["vgpr_peak"] <= stats["VGPRs"]  # type: ignore[operator]
    assert figures["vgpr_allocated"] == stats["VGPRs"]
    assert figures["code_bytes"] == stats["Code size"]
    assert figures["aco_waves"] == stats["Subgroups per SIMD"]
    assert figures["waves_per_simd"] == corpus.waves_of_own_size(int(stats["Subgroups per SIMD"]), family,
                                                                 int(stats["Subgroup size"]))
    if get_arch(radv.resolve_target(family).gfx).generation >= 10:
        assert figures["sgpr_allocated"] == stats["SGPRs"] == FIXED_SGPRS
    # the convention is stated wherever the figure is printed
    assert any(d.code == "occupancy" and "wave32 units" in d.message for d in module.diagnostics)


@pytest.mark.parametrize(("name", "family"), PAIRS)
def test_radv_dump_equals_front_end(radv_ok: None, name: str, family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    build = corpus.compiled(name, family)
    dump = _dump(name, family)
    assert dump.ir.dialect == "radv"
    # every stage RADV built is found, named after its (hardware) stage and the pipeline hash
    assert len(dump.kernels) == len(build.executables)
    stats = radv.dump_statistics(dump.ir)
    for kernel in dump.kernels:
        stage = kernel.ir.declared.shader_stage
        assert stage is not None
        (executable,) = [e for e in build.executables if e.stages & SHADER_STAGE_BITS[stage]]
        pipeline_hash = kernel.name.partition("@")[2]
        assert pipeline_hash == str(executable.statistics["Driver pipeline hash"])
        assert kernel.ir.wave_size == executable.subgroup_size
        own = {k.split("/", 1)[1]: v for k, v in stats.items() if k.startswith(kernel.name + "/")} \
            if len(dump.kernels) > 1 else stats
        assert own == radv.statistics_of(executable)
        figures = _figures(kernel)
        assert figures["vgpr_allocated"] == executable.statistics["VGPRs"]
        assert figures["aco_waves"] == executable.statistics["Subgroups per SIMD"]
        assert figures["waves_per_simd"] == corpus.waves_of_own_size(
            int(executable.statistics["Subgroups per SIMD"]), family, executable.subgroup_size)
        assert figures["code_bytes"] == executable.statistics["Code size"]
    # the analysed stage's figures are those of `isalens analyze` on the source
    module, _ = _front_end(name, family, monkeypatch)
    (dumped,) = [k for k in dump.kernels if k.ir.declared.shader_stage == build.stage]
    assert _figures(dumped) == _figures(module.kernels[0])
    # plain RADV_DEBUG=shaders (no statistics blocks): the same figures from NIR, IR and code alone
    plain = load(re.sub(r"^[^\n]*:\n\*\*\* SHADER STATS \*\*\*\n.*?^\*{8,}$", "", build.log, flags=re.M | re.S),
                 family)
    assert not any(key.endswith("VGPRs") for key in radv.dump_statistics(plain.ir))
    (bare,) = [k for k in plain.kernels if k.ir.declared.shader_stage == build.stage]
    assert _figures(bare) == _figures(module.kernels[0])


@pytest.mark.parametrize("family", ["navi21", "gfx1100"])
def test_wave32_dump(radv_ok: None, family: str) -> None:
    # a compute shader built with a required subgroup size of 32: the dump does not print the wave size,
    # ACO's IR lane masks (s1: %0:exec) and the code say wave32
    build = radv.compile_shader(corpus.SHADERS / "reduce_sum.comp", family, wave=32, radv_debug=corpus.DUMP_FLAGS)
    assert build.wave_size == 32
    (kernel,) = load(build.log, family).kernels
    assert kernel.ir.wave_size == 32
    assert _figures(kernel)["aco_waves"] == build.statistics["Subgroups per SIMD"]
    assert _figures(kernel)["waves_per_simd"] == corpus.waves_of_own_size(
        int(build.statistics["Subgroups per SIMD"]), family, 32)
    assert _figures(kernel)["vgpr_allocated"] == build.statistics["VGPRs"]


def test_repeat_lines_in_a_dump_equal_the_expanded_listing(radv_ok: None, monkeypatch: pytest.MonkeyPatch) -> None:
    with_repeats = [(n, f) for n, f in PAIRS if "(then repeated" in corpus.compiled(n, f).assembly]
    assert with_repeats, "no corpus build has ACO's '(then repeated N times)' lines"
    for name, family in with_repeats[:5]:
        dump = _dump(name, family)
        module, _ = _front_end(name, family, monkeypatch)  # the front end writes the runs out
        stage = corpus.compiled(name, family).stage
        (dumped,) = [k for k in dump.kernels if k.ir.declared.shader_stage == stage]
        assert [i.text for i in dumped.ir.instructions] == [i.text for i in module.kernels[0].ir.instructions]
        assert _figures(dumped) == _figures(module.kernels[0])


_AFTER_RA_BVH = re.compile(r"= (image_bvh\w*_intersect_ray) .*%\d+:v\[(\d+)-(\d+)\]")


@pytest.mark.parametrize("family", ["navi21", "gfx1100"])
@pytest.mark.parametrize("name", ["rayquery_hits.comp", "rayquery_shadow.frag"])
def test_bvh_address_width_is_acos(radv_ok: None, name: str, family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # ACO's IR after RA gives the address operand's real width (12 dwords for bvh64); gfx11 prints the
    # non-NSA form with a 16-register tuple (v[36:51]), navi21 the NSA form listing each register.
    build = corpus.compiled(name, family)
    widths = {m.group(1): int(m.group(3)) - int(m.group(2)) + 1 for m in _AFTER_RA_BVH.finditer(build.log)}
    nsa_widths = [len(re.findall(r"%\d+:v\[\d+\]", line)) for line in build.log.splitlines()
                  if "= image_bvh" in line and "%" in line]
    module, stats = _front_end(name, family, monkeypatch)
    (kernel,) = module.kernels
    bvh = [i for i in kernel.ir.instructions if i.mnemonic.startswith("image_bvh")]
    assert bvh
    for ins in bvh:
        addr = ins.operands[1]
        assert isinstance(addr, RegOperand)
        read = count_registers(ins.uses & addr.mask, RegFile.VGPR)
        expected = widths.get(ins.mnemonic) or max(nsa_widths)
        assert read == expected == 12
    res = kernel.analyze()
    assert res.pressure.vgpr.peak <= int(stats["VGPRs"])
    assert res.resources.vgpr.allocated == stats["VGPRs"]


def test_undefined_export_is_not_a_register(radv_ok: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # no_position.vert never writes gl_Position: ACO exports its undefined operand, printed as v128
    # (raven and gfx1100; navi21's NGG code exports whatever registers the undefined value was given)
    seen = 0
    for family in ("raven", "navi21", "gfx1100"):
        module, stats = _front_end("no_position.vert", family, monkeypatch)
        (kernel,) = module.kernels
        assert kernel.analyze().resources.vgpr.allocated == int(stats["VGPRs"]) < 128
        if any("v128" in i.text for i in kernel.ir.instructions if i.mnemonic == "exp"):
            seen += 1
            assert any(d.code == "undefined-export" for d in module.diagnostics)
    assert seen >= 2


def test_cli_prints_acos_occupancy_with_its_convention(radv_ok: None, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import json

    build = corpus.compiled("lighting.frag", "navi21")
    monkeypatch.setattr(radv, "compile_shader", lambda *a, **k: build)
    assert cli.main(["analyze", str(corpus.SHADERS / "lighting.frag"), "--arch", "navi21", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["files"][0]
    occ = doc["kernels"][0]["occupancy"]
    aco = doc["compiler_stats"]["Subgroups per SIMD"]
    wave = doc["compiler_stats"]["Subgroup size"]
    assert (occ["aco_waves"], occ["aco_wave_unit"], occ["wave_size"]) == (aco, 32, wave)
    assert occ["waves_per_simd"] == corpus.waves_of_own_size(aco, "navi21", occ["wave_size"])
    assert any("wave32 units" in d["message"] for d in doc["diagnostics"])


def test_hlsl_in_a_frag_file(radv_ok: None, tmp_path: Path) -> None:
    src = tmp_path / "tint.frag"
    src.write_text((corpus.SHADERS / "solid_ui.ps.hlsl").read_text())
    module, stats = load_source(src, "navi21", lang="hlsl")
    assert module.kernels[0].analyze().resources.vgpr.allocated == stats["VGPRs"]
    with pytest.raises(CompilerError, match="--lang hlsl") as info:
        load_source(src, "navi21")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("cut", ["mid-instruction", "no-disasm", "unknown-family"])
def test_bad_dumps_give_one_line(radv_ok: None, cut: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = corpus.compiled("reduce_sum.comp", "navi21").log
    if cut == "mid-instruction":
        at = text.index("v_add_f32", text.index("disasm:"))
        text = text[: at + 12]
        expected = "truncated"
    elif cut == "no-disasm":
        text = text[: text.index("Compute Shader\ndisasm:")]
        expected = "no 'disasm:' section"
    else:
        text = "RADV_FORCE_FAMILY=navi99 RADV_DEBUG=shaders\n" + text
        expected = "navi99"
    dump = tmp_path / "dump.txt"
    dump.write_text(text)
    args = ["analyze", str(dump)] + ([] if cut == "unknown-family" else ["--arch", "navi21"])
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and expected in err[0] and str(dump) in err[0]
