"""Source front ends against the real compilers: clang-19 (OpenCL C, HIP, LLVM IR) and Mesa's RADV/ACO on
its null device (GLSL and HLSL). Every test skips, with the reason, when its compiler is not installed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from isalens.cli import main
from isalens.engine.sources import load_source
from isalens.errors import InputError
from isalens.frontends import clang as cc
from isalens.frontends import radv
from isalens.frontends.clang import CompilerError, ToolchainMissingError
from isalens.frontends.spirv import reflect
from isalens.frontends.toolchain import install_command, survey
from tests.conftest import ROOT
from tests.oracle.shader_corpus import waves_of_own_size

pytestmark = pytest.mark.oracle

KERNELS = ROOT / "examples" / "kernels"
SHADERS = ROOT / "examples" / "shaders"

# Twelve corpus kernels that need no special flags, for four targets of four generations.
CL_KERNELS = ["fp16_layouts/fp32.cl", "fp16_layouts/half3_two_uint.cl", "fp16_layouts/half4.cl",
              "fp16_layouts/uint2.cl", "fp16_layouts/half3.cl", "linalg/sgemm_4x4.cl", "linalg/matvec.cl",
              "reduce/reductions.cl", "control/loops.cl", "math/transcendental.cl", "math/half2_packed.cl",
              "memory/vectors.cl"]
CL_TARGETS = ["gfx902", "gfx90a", "gfx1030", "gfx1100"]

# The first eight corpus shaders; tests/oracle/test_shader_corpus.py checks the whole corpus on raven, navi21
# and gfx1100 (cached builds), so here only Polaris, whose 8-wave limit is the odd one out in ACO's figure.
SHADER_FILES = ["blur.ps.hlsl", "histogram.hlsl", "lighting.frag", "neighborhood_fp16.comp", "neighborhood_fp32.comp",
                "reduce_sum.comp", "skinning.vert", "tonemap.frag"]
RADV_FAMILIES = ["polaris10"]

HIP_SAXPY = """#include <hip/hip_runtime.h>
__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + sqrtf(y[i]);
}
"""


# ------------------------------------------------------------------------------------------ fixtures
@pytest.fixture(scope="session")
def clang_ok() -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")



def _declared_vgprs(stats: dict[str, str | int], kernel: str, many: bool) -> str | int:
    return stats[f"{kernel}/.vgpr_count" if many else ".vgpr_count"]


# ------------------------------------------------------------------------------------------ clang
@pytest.mark.parametrize("target", CL_TARGETS)
@pytest.mark.parametrize("kernel", CL_KERNELS)
def test_opencl_requested_vgprs_equal_llvm_vgpr_count(clang_ok: None, kernel: str, target: str) -> None:
    module, stats = load_source(KERNELS / kernel, target)
    assert module.kernels
    many = len(module.kernels) > 1
    for k in module.kernels:
        res = k.analyze().resources
        assert res.vgpr.requested == k.ir.declared.vgpr_count, k.name
        # the figure in compiler_stats is the one in the assembly's metadata
        assert _declared_vgprs(stats, k.name, many) == k.ir.declared.vgpr_count
        assert k.ir.guessed == 0
    assert str(stats["compiler"]).startswith(("Debian clang", "clang", "Ubuntu clang"))
    assert any(key.endswith("Occupancy") for key in stats)


def test_llvm_ir_through_llc_and_options(clang_ok: None, tmp_path: Path) -> None:
    if cc.find_llc() is None:
        pytest.skip("llc is not installed (apt-get install llvm-19)")
    ir = cc.compile_opencl_to_ir(KERNELS / "linalg" / "matvec.cl", "gfx1030", tmp_path / "matvec.bc")
    module, stats = load_source(ir, "gfx1030", keep_asm=tmp_path / "matvec.s")
    assert (tmp_path / "matvec.s").is_file()
    assert "llvm" in str(stats["compiler"]).lower()
    for k in module.kernels:
        assert k.analyze().resources.vgpr.requested == k.ir.declared.vgpr_count
    with pytest.raises(CompilerError, match="-D and -I apply to source languages"):
        load_source(ir, "gfx1030", defines=["X=1"])


def test_opencl_defines_cl_std_and_wave(clang_ok: None, tmp_path: Path) -> None:
    src = tmp_path / "scaled.cl"
    src.write_text("__kernel void k(__global float* a) { a[get_global_id(0)] *= SCALE; }\n")
    module, stats = load_source(src, "gfx1030", defines=["SCALE=2.0f"], cl_std="CL2.0", opt="2", wave=64)
    assert stats[".wavefront_size"] == 64
    assert module.kernels[0].analyze().resources.vgpr.requested == stats[".vgpr_count"]
    with pytest.raises(CompilerError, match=r"--cl-std CL9\.9"):
        load_source(src, "gfx1030", defines=["SCALE=2"], cl_std="CL9.9")


def test_opencl_error_is_one_line_with_file_and_line(clang_ok: None, tmp_path: Path) -> None:
    src = tmp_path / "broken.cl"
    src.write_text("__kernel void k(__global float* a) {\n  a[0] = missing;\n}\n")
    with pytest.raises(CompilerError) as info:
        load_source(src, "gfx900")
    assert info.value.file is not None and info.value.file.endswith("broken.cl")
    assert info.value.line == 2
    assert "\n" not in str(info.value) and "missing" in str(info.value)
    assert "missing" in info.value.details


def test_hip_device_code(clang_ok: None, tmp_path: Path) -> None:
    if cc.find_hip_headers() is None or cc.find_rocm_device_libs() is None:
        pytest.skip(f"HIP headers or ROCm device libraries are not installed ({cc.HIP_INSTALL})")
    src = tmp_path / "saxpy.hip"
    src.write_text(HIP_SAXPY)
    for target in ("gfx906", "gfx1030"):
        module, stats = load_source(src, target)
        (kernel,) = module.kernels
        assert kernel.analyze().resources.vgpr.requested == kernel.ir.declared.vgpr_count == stats[".vgpr_count"]
    unsupported = [t for t in ("gfx1100", "gfx1200") if t not in cc.hip_targets()]
    if unsupported:
        with pytest.raises(CompilerError, match="newer rocm-device-libs"):
            load_source(src, unsupported[0])


def test_hip_with_debug_variables(clang_ok: None, tmp_path: Path) -> None:
    # --debug-variables (-g): LLVM writes each byte of a DW_OP_implicit_value (a variable with a constant value,
    # here s = 0.0f before the loop) as ".byte 0 ; " followed by that byte itself, a NUL in a comment; the
    # assembly was refused as a binary file ("h.s:1: binary file", every HIP kernel built with -g)
    if cc.find_hip_headers() is None or cc.find_rocm_device_libs() is None:
        pytest.skip(f"HIP headers or ROCm device libraries are not installed ({cc.HIP_INSTALL})")
    src = tmp_path / "norm.hip"
    src.write_text("#include <hip/hip_runtime.h>\n__global__ void norm(float *out, const float *in, int n) {\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
                   "    float s = 0.0f;\n    for (int k = 0; k < 8; ++k) s += in[i * 8 + k] * in[i * 8 + k];\n"
                   "    out[i] = sqrtf(s);\n}\n")
    kept = tmp_path / "norm.s"
    module, _stats = load_source(src, "gfx90a", debug_info="full", keep_asm=kept)
    assert b"\0" in kept.read_bytes()  # the case: without it the test proves nothing
    (kernel,) = module.kernels
    assert kernel.ir.source is not None and kernel.ir.source.debug_info == "lines+variables"
    assert "s" in {v.name for v in kernel.ir.source.variables}


def test_missing_clang_gives_the_install_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no compiler can be found on an empty PATH
    src = tmp_path / "k.cl"
    src.write_text("__kernel void k() {}\n")
    with pytest.raises(ToolchainMissingError) as info:
        load_source(src, "gfx900")
    assert info.value.install == cc.CLANG_INSTALL
    assert "apt-get install" in str(info.value)


def test_missing_compiler_is_one_line_with_the_install_hint_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Through the CLI: one line on stderr, exit 2, the install command said once (it used to be twice)."""
    monkeypatch.setenv("PATH", str(tmp_path))
    src = tmp_path / "k.cl"
    src.write_text("__kernel void k() {}\n")
    assert main(["livereg", str(src), "--arch", "gfx900"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].count("install it with") == 1 and cc.CLANG_INSTALL in err[0]


# ------------------------------------------------------------------------------------------ RADV / ACO
def _check_against_aco(path: Path, family: str, tmp_path: Path, wave: int | None = None) -> None:
    module, stats = load_source(path, family, wave=wave)
    (kernel,) = module.kernels
    assert module.ir.dialect == "aco"
    assert kernel.ir.guessed == 0  # every instruction ACO printed is one we know
    result = kernel.analyze()
    assert result.pressure.vgpr.peak <= int(stats["VGPRs"])
    assert result.resources.vgpr.allocated == int(stats["VGPRs"])
    # ACO's code size is exactly the encoding words it printed
    assert sum(4 * len(i.encoding) for i in kernel.ir.instructions) == stats["Code size"]
    # ACO's occupancy figure, recomputed by its convention from our register count
    stage, hlsl = radv.detect_stage(path, path.read_text(), None)
    refl = reflect(radv.compile_to_spirv(path, stage, tmp_path / "s.spv", hlsl=hlsl).read_bytes(), "main")
    size = refl.workgroup_size
    assert radv.aco_subgroups_per_simd(
        radv.resolve_target(family).family, stage=stage, vgprs=result.resources.vgpr.allocated,
        sgprs=int(stats["SGPRs"]), lds_bytes=int(stats["LDS size"]), wave_size=int(stats["Subgroup size"]),
        workgroup_size=size[0] * size[1] * size[2] if size else 0,
        num_interp=len(refl.inputs) if stage == "frag" else 0) == stats["Subgroups per SIMD"]
    # and the figure the analysis reports for the shader is the same
    assert result.occupancy is not None and result.occupancy[0].aco_waves == stats["Subgroups per SIMD"]
    # reported in waves of the shader's own size (the conversion is derived at waves_of_own_size)
    assert result.occupancy[0].waves_per_simd == waves_of_own_size(int(stats["Subgroups per SIMD"]), family,
                                                                    int(stats["Subgroup size"]))


@pytest.mark.parametrize("family", RADV_FAMILIES)
@pytest.mark.parametrize("name", SHADER_FILES)
def test_shaders_against_aco_statistics(radv_ok: None, name: str, family: str, tmp_path: Path) -> None:
    _check_against_aco(SHADERS / name, family, tmp_path)


@pytest.mark.parametrize("family", ["navi10", "navi21", "gfx1100"])
@pytest.mark.parametrize("name", ["neighborhood_fp16.comp", "reduce_sum.comp"])
def test_wave32_compute_against_aco(radv_ok: None, name: str, family: str, tmp_path: Path) -> None:
    _check_against_aco(SHADERS / name, family, tmp_path, wave=32)


def test_acos_subgroups_convention_on_navi21() -> None:
    # ACO reports 32 for a 24-VGPR wave64 compute shader on navi21: 16 wave64 waves per SIMD, counted in
    # wave32 units; the same resources give 10 on raven (GCN counts real waves) and 8 on Polaris.
    args = {"stage": "comp", "vgprs": 24, "sgprs": 16, "lds_bytes": 2048, "wave_size": 64, "workgroup_size": 64}
    assert radv.aco_subgroups_per_simd("NAVI21", **args) == 32  # type: ignore[arg-type]
    assert radv.aco_subgroups_per_simd("RAVEN", **args) == 8  # type: ignore[arg-type]
    args["lds_bytes"] = 0
    assert radv.aco_subgroups_per_simd("RAVEN", **args) == 10  # type: ignore[arg-type]
    assert radv.aco_subgroups_per_simd("POLARIS10", **args) == 8  # type: ignore[arg-type]


def test_shared_sample_is_reproduced(radv_ok: None, samples: Path) -> None:
    # The shared ACO sample was made with the same Mesa release: compiling its source gives the same
    # hash and statistics (an extra check, collected only with ../shared/samples; our own shaders are
    # checked against ACO's statistics above)
    sample = samples / "aco"
    result = radv.compile_shader(sample / "neighborhood_fp16.comp", "navi21")
    expected = {}
    for line in (sample / "neighborhood_fp16.navi21.stats.txt").read_text().splitlines():
        parts = line.split()
        if parts and parts[0] == "STAT" and parts[-1].isdigit() and "hash" not in line.lower():
            expected[" ".join(parts[1:-1])] = int(parts[-1])
    if "Mesa 22.3" not in result.driver_info:
        pytest.skip(f"sample made with Mesa 22.3, this is {result.driver_info}")
    assert {k: result.statistics[k] for k in expected} == expected


def test_glslang_error_is_one_line_with_file_and_line(radv_ok: None, tmp_path: Path) -> None:
    src = tmp_path / "broken.comp"
    src.write_text("#version 450\nlayout(local_size_x = 64) in;\nvoid main() {\n  undefined_thing = 1;\n}\n")
    with pytest.raises(CompilerError) as info:
        load_source(src, "navi21")
    assert info.value.line == 4 and str(info.value.file).endswith("broken.comp")
    assert "undefined_thing" in str(info.value) and "\n" not in str(info.value)


def test_shader_defines_and_includes(radv_ok: None, tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "common.glsl").write_text("float scale(float x) { return x * FACTOR; }\n")
    src = tmp_path / "scaled.comp"
    src.write_text("#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"common.glsl\"\n"
                   "layout(local_size_x = 64) in;\nlayout(binding = 0) buffer B { float d[]; };\n"
                   "void main() { d[gl_GlobalInvocationID.x] = scale(d[gl_GlobalInvocationID.x]); }\n")
    module, stats = load_source(src, "raven", defines=["FACTOR=3.0"], include_dirs=[tmp_path / "inc"])
    assert module.kernels[0].ir.guessed == 0 and stats["Subgroup size"] == 64
    with pytest.raises(CompilerError):
        load_source(src, "raven", include_dirs=[tmp_path / "inc"])  # FACTOR undefined


def test_radv_refusals(radv_ok: None, tmp_path: Path) -> None:
    with pytest.raises(CompilerError, match="compute-only"):
        load_source(SHADERS / "tonemap.frag", "aldebaran")
    with pytest.raises(CompilerError, match="no GPU family"):
        load_source(SHADERS / "reduce_sum.comp", "gfx1200")
    glsl = tmp_path / "shader.glsl"
    glsl.write_text((SHADERS / "reduce_sum.comp").read_text())
    with pytest.raises(CompilerError, match="--stage"):
        load_source(glsl, "raven")
    module, _ = load_source(glsl, "raven", stage="comp")
    assert module.kernels[0].ir.guessed == 0
    with pytest.raises(InputError, match="apply to clang sources"):
        load_source(glsl, "raven", stage="comp", opt="2")


def test_driver_abort_is_reported(radv_ok: None) -> None:
    # ACO on GFX6 has no 16-bit arithmetic and aborts; the child dies, the caller gets one line.
    with pytest.raises(CompilerError, match=r"RADV \(TAHITI\)") as info:
        load_source(SHADERS / "neighborhood_fp16.comp", "tahiti")
    assert "\n" not in str(info.value)


def test_gfx6_gfx7_shader_without_disassembly_is_refused_in_one_line(radv_ok: None) -> None:
    # Mesa 22.3 disassembles gfx6/gfx7 with LLVM, which has none for them: RADV's whole "Assembly" is one
    # sentence. Read as assembly it became "unknown instruction 'shader'"; now one line naming the chip.
    result = radv.compile_shader(SHADERS / "constant_color.frag", "tahiti")
    assert result.assembly.strip() == "Shader disassembly is not supported in the current configuration."
    for family, gfx in (("tahiti", "gfx600"), ("hawaii", "gfx701")):
        with pytest.raises(CompilerError, match=rf"gives no assembly for {gfx}") as info:
            load_source(SHADERS / "constant_color.frag", family)
        assert "\n" not in str(info.value) and info.value.code == "unsupported-target"


def test_missing_radv_gives_the_install_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if radv.find_glslang() is None:
        pytest.skip(f"glslang is not installed ({radv.GLSLANG_INSTALL})")
    monkeypatch.setattr(radv, "_ICD_DIRS", (str(tmp_path),))
    with pytest.raises(ToolchainMissingError) as info:
        load_source(SHADERS / "reduce_sum.comp", "raven")
    assert info.value.install == radv.MESA_INSTALL


def test_expand_repeats() -> None:
    text = "\ts_nop 0 ; bf800000\n\t(then repeated 2 times)\n\ts_endpgm ; bf810000\n"
    assert radv.expand_repeats(text).splitlines() == ["\ts_nop 0 ; bf800000"] * 3 + ["\ts_endpgm ; bf810000"]


# ------------------------------------------------------------------------------------------ toolchain
def test_toolchain_command_reports_every_component(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["toolchain", "--no-probe", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = [c["name"] for c in doc["components"]]
    # llvm-objdump: the fallback disassembler of code objects our decoder cannot read (and --disassembler llvm)
    assert names == ["clang", "llc", "llvm-objdump", "libclc", "hip", "glslang", "vulkan-loader", "radv"]
    missing = [p for c in doc["components"] if not c["found"] for p in c["packages"]]
    assert doc["install"] == (f"apt-get install -y {' '.join(dict.fromkeys(missing))}" if missing else None)
    assert main(["toolchain", "--no-probe"]) == 0
    assert "plain ISA-text analysis needs none of these" in capsys.readouterr().out


def test_toolchain_lists_radv_families(radv_ok: None) -> None:
    comps = {c.name: c for c in survey(probe_radv=True)}
    assert comps["radv"].found
    assert "raven (gfx902)" in comps["radv"].targets and "navi21 (gfx1030)" in comps["radv"].targets
    assert str(comps["radv"].version).startswith("Mesa")
    # nothing to install for what is found; the packages of what is not
    command = install_command(list(comps.values()))
    for comp in comps.values():
        for package in comp.packages:
            assert (command is not None and package in command.split()) == (not comp.found)


def test_vk_child_runs_standalone(radv_ok: None) -> None:
    # The child process entry point works on its own (used by probe_families and run_pipeline).
    env = radv._worker_env("RAVEN")
    proc = subprocess.run([radv.sys.executable, "-m", "isalens.frontends.vk", "probe", "RAVEN"], env=env,
                          capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.splitlines()[0])
    assert report["family"] == "RAVEN" and report["devices"][0]["executable_properties"]


def test_toolchain_lists_every_processor_llc_knows(clang_ok: None) -> None:
    """The targets `isalens toolchain` prints are llc's own processors (``-mcpu=help``'s "Select the ...
    processor." lines, read here by splitting them), generic targets left out: gfx90a and gfx90c were missing (a
    letter in place of a digit)."""
    from isalens.frontends.toolchain import llvm_targets

    llc = cc.find_llc()
    assert llc is not None
    help_text = subprocess.run([llc, "-mtriple=amdgcn", "-mcpu=help"], capture_output=True, text=True, check=True)
    # "  gfx90a          - Select the gfx90a processor." (the features listed after them are not processors)
    theirs = {line.split()[0] for line in (help_text.stdout + help_text.stderr).splitlines()
              if line.strip().startswith("gfx") and line.rstrip().endswith(f"the {line.split()[0]} processor.")
              and "generic" not in line.split()[0]}
    assert {"gfx90a", "gfx90c", "gfx942", "gfx1201"} <= theirs
    assert set(llvm_targets(llc)) == theirs
