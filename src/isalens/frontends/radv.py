"""GLSL/HLSL shaders through Mesa's RADV Vulkan driver (ACO back end) on its null device: no GPU needed.

source --glslang--> SPIR-V --reflection--> pipeline layout (+ a companion stage for graphics)
       --child process, RADV_FORCE_FAMILY=<family>--> pipeline with statistics and internal representations
       --> ACO's "Assembly" text (ISA with encoding words) and its statistics.

RADV's null winsys (``RADV_FORCE_FAMILY``) creates a device for a named GPU family without hardware or a
kernel driver; the pipeline is compiled exactly as for a real GPU of that family.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from isalens.arch.loader import UnknownArchError, get_arch, mesa_families
from isalens.frontends.argv import file_arg
from isalens.frontends.clang import CompilerError, ToolchainMissingError
from isalens.frontends.radv_figures import (
    aco_subgroups_per_simd,
    dump_statistics,
    radv_convention_note,
    statistics_of,
)
from isalens.frontends.run_tool import ToolError, run_tool
from isalens.frontends.shader_interface import (
    COLOR_FORMATS,
    color_formats,
    companion_fragment_shader,
    companion_vertex_shader,
    vertex_attributes,
)
from isalens.frontends.spirv import Reflection, SpirvError, reflect
from isalens.frontends.vk_messages import BindingSpec, ExecutableResult, PipelineRequest, PipelineResult, StageSpec
from isalens.frontends.vk_types import FORMAT_D32_SFLOAT, SHADER_STAGE_BITS
from isalens.ir.program import Kernel
from isalens.isa.amdgcn.aco_listing import REPEAT_RE
from isalens.lines import lines_of

__all__ = [
    "COLOR_FORMATS",
    "RadvResult",
    "RadvTarget",
    "aco_subgroups_per_simd",
    "companion_fragment_shader",
    "companion_vertex_shader",
    "compile_shader",
    "compile_to_spirv",
    "declare_shader",
    "detect_stage",
    "dump_statistics",
    "expand_repeats",
    "find_glslang",
    "find_radv_icd",
    "probe_families",
    "radv_convention_note",
    "resolve_target",
    "run_pipeline",
    "statistics_of",
]



def __getattr__(name: str) -> dict[str, str]:
    """``FAMILIES``: Mesa's family names (``ac_get_family_name``, as ``RADV_FORCE_FAMILY`` wants them) and their
    LLVM targets, from the arch data (``mesa_families``); read on first use, not when the CLI starts."""
    if name == "FAMILIES":
        return mesa_families()
    raise AttributeError(name)

#: CDNA parts: no graphics hardware (no interpolation, no exports).
COMPUTE_ONLY = frozenset({"ARCTURUS", "ALDEBARAN"})

#: Families whose null device crashes (SIGFPE in vkCreateDevice, 9 or 10 runs in 10) with Mesa 22.3, and a
#: family of the same generation to use instead. Measured with Debian's 22.3.6; they still enumerate, so
#: :func:`probe_families` lists them and the toolchain report flags them.
NULL_DEVICE_BROKEN = {"NAVI24": "navi23", "REMBRANDT": "navi23", "GFX1036": "navi23"}

#: Colour attachment formats for float fragment outputs (VkFormat values).

_STAGE_SUFFIXES = {".comp": "comp", ".vert": "vert", ".frag": "frag"}
_HLSL_STAGE_HINTS = {"cs": "comp", "vs": "vert", "ps": "frag", "comp": "comp", "vert": "vert", "frag": "frag"}
_OTHER_STAGES = {".geom", ".tesc", ".tese", ".mesh", ".task", ".rgen", ".rint", ".rahit", ".rchit", ".rmiss",
                 ".rcall"}
STAGES = ("comp", "vert", "frag")
#: Source languages glslang reads (``--lang``): the suffix decides unless one is named.
LANGUAGES = ("glsl", "hlsl")
# HLSL register classes get separate binding ranges (glslang --hlsl-iomap shifts): b0 -> 0, t0 -> 64,
# s0 -> 128, u0 -> 192, so t0/b0/s0/u0 in one shader do not collide in descriptor set 0.
HLSL_BINDING_SHIFTS = {"b": 0, "t": 64, "s": 128, "u": 192}
_GLSLANG_DIAG = re.compile(r"^ERROR: (?P<file>.+?):(?P<line>\d+): (?P<msg>.*)$", re.MULTILINE)

MESA_INSTALL = "apt-get install -y mesa-vulkan-drivers libvulkan1"
GLSLANG_INSTALL = "apt-get install -y glslang-tools"


# --------------------------------------------------------------------------------------- targets
@dataclass(frozen=True)
class RadvTarget:
    """A Mesa family and the LLVM target name our ISA tables use for it."""

    family: str
    gfx: str


def resolve_target(arch: str) -> RadvTarget:
    """``navi21``, ``NAVI21``, ``sienna_cichlid`` or ``gfx1030`` -> RadvTarget('NAVI21', 'gfx1030')."""
    key = arch.strip().upper().replace("-", "_")
    families = mesa_families()
    if key in families:
        return RadvTarget(key, families[key])
    try:  # a target name or one of its aliases (arch data)
        spec = get_arch(arch.strip().lower().replace("-", "_"))
    except UnknownArchError:
        spec = None
    if spec is not None and spec.mesa_families:
        return RadvTarget(spec.mesa_families[0], spec.name)
    names = ", ".join(sorted({f.lower() for f in families}))
    raise CompilerError(f"RADV has no GPU family for '{arch}' (families: {names}; or a gfx target of one)",
                        code="unknown-arch")


# --------------------------------------------------------------------------------------- tools
def find_glslang() -> str | None:
    """Path of glslang's command line tool (``glslangValidator`` in Debian's glslang-tools, or ``glslang``)."""
    return shutil.which("glslangValidator") or shutil.which("glslang")


_ICD_DIRS = ("/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d")


def find_radv_icd() -> Path | None:
    """RADV's Vulkan ICD manifest (``radeon_icd.<arch>.json`` from mesa-vulkan-drivers), if installed."""
    for directory in _ICD_DIRS:
        found = sorted(Path(directory).glob("radeon_icd*.json"))
        machine = [p for p in found if os.uname().machine in p.name]
        if machine or found:
            return (machine or found)[0]
    return None


def detect_stage(path: Path, text: str, stage: str | None, lang: str | None = None) -> tuple[str, bool]:
    """The stage (``comp``/``vert``/``frag``) and whether the source is HLSL (``lang`` overrides the suffix)."""
    suffixes = [s.lower() for s in path.suffixes]
    if lang is not None and lang not in LANGUAGES:
        raise CompilerError(f"--lang {lang}: choose glsl or hlsl", file=str(path), code="usage")
    hlsl = lang == "hlsl" if lang is not None else bool(suffixes) and suffixes[-1] in (".hlsl", ".hlsli", ".fx")
    if stage is not None:
        if stage not in STAGES:
            raise CompilerError(f"--stage {stage}: choose comp, frag or vert", file=str(path), code="stage")
        return stage, hlsl
    for suffix in reversed(suffixes):
        if suffix in _STAGE_SUFFIXES:
            return _STAGE_SUFFIXES[suffix], hlsl
        if suffix in _OTHER_STAGES:
            raise CompilerError(f"{suffix[1:]} shaders are not supported (compute, fragment and vertex are)",
                                file=str(path), code="stage")
        if hlsl and suffix[1:] in _HLSL_STAGE_HINTS:
            return _HLSL_STAGE_HINTS[suffix[1:]], hlsl
    if hlsl and re.search(r"\[\s*numthreads\s*\(", text):
        return "comp", hlsl
    raise CompilerError("cannot tell the shader stage: pass --stage comp|frag|vert (or name the file "
                        "*.comp, *.frag, *.vert)", file=str(path), code="stage")


def _glslang_error(stderr: str, stdout: str, source: Path) -> CompilerError:
    text = f"{stdout}\n{stderr}"
    m = _GLSLANG_DIAG.search(text)
    if m:
        return CompilerError(m.group("msg").strip(), file=m.group("file"), line=int(m.group("line")),
                             code="compile", details=text.strip())
    first = next((ln.strip() for ln in lines_of(text) if "ERROR" in ln or "error" in ln), "")
    return CompilerError(first or "glslang failed", file=str(source), code="compile", details=text.strip())


def compile_to_spirv(source: Path, stage: str, out_spv: Path, *, entry: str = "main", hlsl: bool = False,
                     defines: Sequence[str] = (), include_dirs: Sequence[str | Path] = (),
                     glslang: str | None = None) -> Path:
    """Compile a GLSL or HLSL ``source`` for ``stage`` to SPIR-V (Vulkan 1.2 environment) at ``out_spv``."""
    tool = glslang or find_glslang()
    if tool is None:
        raise ToolchainMissingError("glslang not found (glslangValidator)", install=GLSLANG_INSTALL)
    cmd = [tool, "-V", "--target-env", "vulkan1.2", "-S", stage]
    if hlsl:
        cmd += ["-D", "-e", entry, "--hlsl-iomap"]
        for reg, shift in HLSL_BINDING_SHIFTS.items():
            flag = {"b": "--sub", "t": "--stb", "s": "--ssb", "u": "--suavb"}[reg]
            cmd += [flag, str(shift)]
    elif entry != "main":
        cmd += ["-e", entry, "--source-entrypoint", entry]
    cmd += [f"-D{d}" for d in defines]
    cmd += [f"-I{file_arg(d)}" for d in include_dirs]
    cmd += ["-o", file_arg(out_spv), file_arg(source)]  # glslang has no "--": absolute paths
    proc = run_tool(cmd, file=source)
    if proc.returncode != 0 or not out_spv.is_file():
        raise _glslang_error(proc.stderr, proc.stdout, source)
    return out_spv


# --------------------------------------------------------------------------------------- the driver
_runtime_dir: str | None = None


def _worker_env(family: str, radv_debug: str | None = None) -> dict[str, str]:
    global _runtime_dir
    icd = find_radv_icd()
    if icd is None:
        raise ToolchainMissingError("RADV (Mesa's Vulkan driver for AMD GPUs) is not installed", install=MESA_INSTALL)
    env = dict(os.environ)
    env["RADV_FORCE_FAMILY"] = family
    if radv_debug:
        env["RADV_DEBUG"] = radv_debug
    else:
        env.pop("RADV_DEBUG", None)
    # Only RADV: the loader would otherwise also load lavapipe/Intel drivers (and the device-select layer).
    env["VK_ICD_FILENAMES"] = env["VK_DRIVER_FILES"] = str(icd)
    env["VK_LOADER_LAYERS_DISABLE"] = "~implicit~"
    # A fresh compile every time: statistics and representations are only captured when ACO runs.
    env["MESA_SHADER_CACHE_DISABLE"] = "true"
    if not env.get("XDG_RUNTIME_DIR"):
        # Mesa 22.3 compiles without it (measured), but other releases and the loader may look for it:
        # give the child a private one, removed when this process ends.
        if _runtime_dir is None or not Path(_runtime_dir).is_dir():
            _runtime_dir = tempfile.mkdtemp(prefix="isalens-xdg-")
            atexit.register(shutil.rmtree, _runtime_dir, True)
        env["XDG_RUNTIME_DIR"] = _runtime_dir
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    return env


def _driver_failure(proc: subprocess.CompletedProcess[str], family: str, source: str) -> CompilerError:
    lines = [ln.strip() for ln in lines_of(proc.stderr)
             if ln.strip() and "not a conformant Vulkan implementation" not in ln]
    # ACO prints "ACO ERROR:", the file, then the reason: the reason is the useful part.
    reason = next((ln for ln in lines if ln.startswith(("Unsupported", "Unimplemented"))), None)
    reason = reason or next((ln for ln in reversed(lines) if not ln.startswith("In file")), "")
    if proc.returncode < 0:
        try:
            how = f"crashed ({signal.Signals(-proc.returncode).name})"
        except ValueError:
            how = f"crashed (signal {-proc.returncode})"
    else:
        how = "aborted" if proc.returncode == 134 else "failed"
    if family in NULL_DEVICE_BROKEN and proc.returncode == -signal.SIGFPE:
        reason = (f"this Mesa's null device does not describe {family.lower()} fully and divides by zero "
                  f"creating the device; try {NULL_DEVICE_BROKEN[family]} (same ISA generation)")
    return CompilerError(f"RADV ({family}) {how}: {reason or 'no message'}", file=source, code="driver",
                         details=proc.stderr.strip())


def run_pipeline(request: PipelineRequest, family: str, *, source: str = "<shader>",
                 radv_debug: str | None = None) -> PipelineResult:
    """Build the pipeline on RADV's null device for ``family`` in a child process.

    ``radv_debug`` sets ``RADV_DEBUG`` in the child (e.g. ``shaders,shaderstats``); what the driver prints
    on stderr is returned in :attr:`PipelineResult.log`.
    """
    cmd = [sys.executable, "-m", "isalens.frontends.vk"]
    # the request goes in on stdin, which then ends: the child never reads our own stdin
    proc = run_tool(cmd, file=source, input=request.to_json(), env=_worker_env(family, radv_debug),
                    name=f"RADV ({family})")
    if proc.returncode != 0:
        raise _driver_failure(proc, family, source)
    result = PipelineResult.from_json(proc.stdout)
    result.log = proc.stderr
    return result


def probe_families(families: Sequence[str] | None = None) -> tuple[dict[str, str], str]:
    """Which families RADV creates a null device for: ({family: device name}, driver info such as "Mesa 22.3.6").

    One child process walks the list; RADV ends the process on a family it does not know, so the walk
    restarts after the last family reported.
    """
    todo = list(families or mesa_families())
    found: dict[str, str] = {}
    driver = ""
    while todo:
        try:
            proc = run_tool([sys.executable, "-m", "isalens.frontends.vk", "probe", *todo], file=None,
                            env=_worker_env(todo[0]), name="RADV")
        except ToolError:
            break
        done = 0
        for line in lines_of(proc.stdout):
            report = json.loads(line)
            done += 1
            for device in report["devices"]:
                if device["executable_properties"] and report["family"] in device["name"].upper():
                    found[report["family"]] = device["name"]
                    driver = driver or device["driver"]
        if proc.returncode == 0:
            break
        # The family after the last one reported is the one that ended the process: skip it.
        todo = todo[done + 1 :]
    return found, driver


# --------------------------------------------------------------------------------------- compile
@dataclass
class RadvResult:
    """One shader compiled by RADV: the executable of the requested stage and everything around it."""

    source: Path
    target: RadvTarget
    stage: str
    device_name: str
    driver_info: str
    executable: ExecutableResult
    executables: list[ExecutableResult] = field(default_factory=list)
    reflection: Reflection = field(default_factory=Reflection)
    #: the driver's stderr: the ``RADV_DEBUG`` dump when ``compile_shader(radv_debug=...)`` asked for one
    log: str = ""

    @property
    def assembly(self) -> str:
        """ACO's disassembly (``BB0:`` labels, ``; hex`` encoding trailers)."""
        return self.executable.representations.get("Assembly", "")

    @property
    def assembly_lines(self) -> str:
        """:attr:`assembly` with ACO's "(then repeated N times)" lines written out, one line per instruction."""
        return expand_repeats(self.assembly)

    def checked_assembly(self) -> str:
        """:attr:`assembly_lines`, or a one-line :class:`CompilerError` when RADV gave no instructions: no
        "Assembly" representation, or Mesa's sentence for chips it cannot disassemble (gfx6/gfx7: Mesa
        disassembles them with LLVM, and LLVM has no gfx6/gfx7 disassembler; Mesa 22.3 prints
        ``Shader disassembly is not supported in the current configuration.`` as the whole "Assembly")."""
        text = self.assembly_lines
        if not text.strip():
            raise CompilerError('RADV returned no "Assembly" representation', file=str(self.source), code="driver")
        if text.strip() == _NO_DISASSEMBLY:
            raise CompilerError(
                f"RADV ({self.target.family}) gives no assembly for {self.target.gfx}: Mesa disassembles gfx6/gfx7 "
                "with LLVM, which cannot disassemble them; for compute code compile OpenCL/HIP with clang "
                f"(isalens analyze kernel.cl --arch {self.target.gfx})", file=str(self.source),
                code="unsupported-target")
        return text

    @property
    def statistics(self) -> dict[str, int | float | bool]:
        return self.executable.statistics

    @property
    def wave_size(self) -> int:
        return self.executable.subgroup_size


#: Mesa's whole "Assembly" representation where it has no disassembler for the chip (radv_shader.c, Mesa 22.3)
_NO_DISASSEMBLY = "Shader disassembly is not supported in the current configuration."


def expand_repeats(assembly: str) -> str:
    """Write out ACO's run-length lines: its disassembler prints an instruction once and then
    "(then repeated N times)" for N more identical ones (s_waitcnt_depctr, s_nop pairs...)."""
    out: list[str] = []
    for line in lines_of(assembly):
        m = REPEAT_RE.match(line)
        if m and out:
            out.extend([out[-1]] * int(m.group(1)))
        else:
            out.append(line)
    return "\n".join(out) + ("\n" if assembly.endswith("\n") else "")


def _merge_bindings(reflections: Sequence[Reflection]) -> list[BindingSpec]:
    merged: dict[tuple[int, int], BindingSpec] = {}
    for refl in reflections:
        for b in refl.bindings:
            spec = BindingSpec(b.set, b.binding, b.descriptor_type, b.count)
            old = merged.get((b.set, b.binding))
            if old is not None and old.descriptor_type != spec.descriptor_type:
                raise CompilerError(f"set {b.set} binding {b.binding} has different descriptor types in the "
                                    "pipeline's stages", code="layout")
            if old is None or spec.count > old.count:
                merged[(b.set, b.binding)] = spec
    return list(merged.values())


def _companion(glsl: str, stage: str, work: Path, source: Path) -> Path:
    """Compile a generated companion stage; its failure is reported against the user's shader."""
    path = work / f"isalens_companion.{stage}"
    path.write_text(glsl)
    try:
        return compile_to_spirv(path, stage, work / f"isalens_companion.{stage}.spv")
    except ToolchainMissingError:
        raise
    except CompilerError as exc:
        raise CompilerError(f"the generated companion {stage} shader does not compile for this interface: "
                            f"{exc.message}", file=str(source), code="companion", details=glsl) from None


def compile_shader(source: Path, arch: str, *, stage: str | None = None, entry: str = "main",
                   defines: Sequence[str] = (), include_dirs: Sequence[str | Path] = (), wave: int | None = None,
                   color_format: str = "rgba8", workdir: Path | None = None, lang: str | None = None,
                   radv_debug: str | None = None) -> RadvResult:
    """Compile a GLSL/HLSL compute, fragment or vertex shader with RADV for ``arch`` (family or gfx name).

    ``wave`` (32/64) requests a subgroup size for compute shaders (RDNA); fragment shaders get a companion
    vertex shader and vertex shaders a companion fragment shader, generated from the reflected interface.
    ``lang`` (``glsl``/``hlsl``) overrides the language the suffix implies; ``radv_debug`` (e.g.
    ``"shaders,shaderstats"``) makes RADV print its dump, returned in :attr:`RadvResult.log`.
    """
    target = resolve_target(arch)
    try:
        text = source.read_text(errors="replace")
    except OSError as exc:
        raise CompilerError(f"cannot read: {exc.strerror}", file=str(source), code="io") from None
    stage, hlsl = detect_stage(source, text, stage, lang)
    if color_format not in COLOR_FORMATS:
        raise CompilerError(f"unknown colour format '{color_format}' (choose {', '.join(COLOR_FORMATS)})",
                            file=str(source), code="usage")
    if stage != "comp" and target.family in COMPUTE_ONLY:
        # RADV still builds graphics pipelines for these, but with interpolation and export instructions
        # the chips do not have (its own disassembler prints them as "(invalid instruction)").
        raise CompilerError(f"{target.family.lower()} ({target.gfx}) is a compute-only GPU: RADV compiles only "
                            "compute shaders correctly for it", file=str(source), code="unsupported-target")
    if wave is not None and (wave not in (32, 64) or stage != "comp"):
        raise CompilerError("--wave applies to compute shaders and must be 32 or 64", file=str(source),
                            code="usage")
    with tempfile.TemporaryDirectory(prefix="isalens-radv-") as tmp:
        work = workdir or Path(tmp)
        try:
            spv = compile_to_spirv(source, stage, work / f"{source.stem}.{stage}.spv", entry=entry, hlsl=hlsl,
                                   defines=defines, include_dirs=include_dirs)
        except CompilerError as exc:
            if lang is None and not hlsl and exc.code == "compile" and _looks_like_hlsl(text):
                # glslang reads *.frag/*.vert/*.comp as GLSL: HLSL under those names needs saying so
                raise CompilerError(f"{exc.message} (this looks like HLSL: pass --lang hlsl)", file=exc.file,
                                    line=exc.line, code="compile", details=exc.details) from None
            raise
        try:
            refl = reflect(spv.read_bytes(), entry)
        except SpirvError as exc:
            raise CompilerError(str(exc), file=str(source), code="spirv") from None
        request = PipelineRequest(stages=[StageSpec(stage, str(spv), entry)], subgroup_size=wave,
                                  push_constant_size=refl.push_constant_size)
        if stage == "comp":
            request.bindings = _merge_bindings([refl])
        elif stage == "frag":
            varying_set = max((b.set + 1 for b in refl.bindings), default=0)
            vs_spv = _companion(companion_vertex_shader(refl, varying_set), "vert", work, source)
            request.stages.insert(0, StageSpec("vert", str(vs_spv), "main"))
            request.bindings = _merge_bindings([refl, reflect(vs_spv.read_bytes(), "main")])
            request.color_formats = color_formats(refl, color_format)
            request.depth_format = FORMAT_D32_SFLOAT if refl.writes_frag_depth else 0
        else:
            fs_spv = _companion(companion_fragment_shader(refl), "frag", work, source)
            request.stages.append(StageSpec("frag", str(fs_spv), "main"))
            request.bindings = _merge_bindings([refl])
            request.vertex_attributes = vertex_attributes(refl)
            request.color_formats = [COLOR_FORMATS[color_format]]
        result = run_pipeline(request, target.family, source=str(source), radv_debug=radv_debug)
    bit = SHADER_STAGE_BITS[stage]
    chosen = next((e for e in result.executables if e.stages & bit), None)
    if chosen is None:
        raise CompilerError(f"RADV returned no executable for the {stage} stage", file=str(source), code="driver")
    return RadvResult(source, target, stage, result.device_name, result.driver_info, chosen, result.executables,
                      refl, result.log)


_HLSL_MARKERS = re.compile(r"\[\s*numthreads\s*\(|:\s*SV_\w+|\b(?:cbuffer|RWStructuredBuffer|StructuredBuffer|"
                           r"Texture2D|SamplerState|RWTexture2D|ByteAddressBuffer)\b|\bfloat[234](?:x[234])?\s+\w+\s*\(")


def _looks_like_hlsl(text: str) -> bool:
    """HLSL-only syntax (semantics such as ``: SV_Target``, ``cbuffer``, HLSL resource types)."""
    return "#version" not in text and bool(_HLSL_MARKERS.search(text))


def declare_shader(kernel: Kernel, result: RadvResult) -> Kernel:
    """``kernel`` (loaded from ``result``'s assembly) with what RADV says about it: the stage, the workgroup
    size, ACO's LDS size and statistics (so occupancy follows RADV's convention and reports show them)."""
    stats = statistics_of(result.executable)
    size = result.reflection.workgroup_size if result.stage == "comp" else None
    raw = [*kernel.declared.raw, *((k, str(v)) for k, v in stats.items()), ("family", result.target.family.lower())]
    declared = dataclasses.replace(
        kernel.declared, shader_stage=result.stage, lds_bytes=int(stats.get("LDS size", 0)),
        workgroup_size=size if size and all(size) else None,
        shader_inputs=len(result.reflection.inputs) if result.stage == "frag" else None, raw=tuple(raw))
    return dataclasses.replace(kernel, declared=declared)
