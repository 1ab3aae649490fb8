"""Python API for source inputs: compile with a real compiler, then load the assembly like any ISA text.

``.cl`` / ``.hip`` / ``.ll`` / ``.bc`` go through clang or llc (:mod:`isalens.frontends.clang`);
``.comp`` / ``.frag`` / ``.vert`` / ``.glsl`` / ``.hlsl`` through glslang and Mesa's RADV driver on its
null device (:mod:`isalens.frontends.radv`). Beside the loaded module comes ``compiler_stats``: the
compiler's own figures under the compiler's own names.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from isalens.engine.load import LoadedModule, load
from isalens.engine.target import check_wave_size, resolve_arch
from isalens.errors import ArchError, Diagnostic, InputError
from isalens.frontends import clang as cc
from isalens.frontends import radv
from isalens.frontends.clang import CompilerError, ToolchainMissingError
from isalens.frontends.toolchain import vulkan_loader_available

__all__ = ["SHADER_SUFFIXES", "SOURCE_SUFFIXES", "CompilerError", "ToolchainMissingError", "is_source",
           "load_source", "toolchain_available", "which_compiler"]

#: Suffixes compiled by RADV (a ``.glsl``/``.hlsl`` file may need ``stage``).
SHADER_SUFFIXES = (".comp", ".frag", ".vert", ".glsl", ".hlsl", ".hlsli", ".fx")
#: Every suffix :func:`load_source` accepts.
SOURCE_SUFFIXES = (*cc.SOURCE_KINDS, *SHADER_SUFFIXES)

_INVALID_RE = re.compile(r"^\s*\(invalid instruction\)", re.MULTILINE)


def is_source(path: str | Path) -> bool:
    """True when ``path`` names a source file :func:`load_source` compiles (by suffix)."""
    return Path(path).suffix.lower() in SOURCE_SUFFIXES


def _flat(per_kernel: dict[str, dict[str, str | int]]) -> dict[str, str | int]:
    # One kernel (the usual case): its figures as they are; several: "kernel/figure".
    if len(per_kernel) == 1:
        return dict(next(iter(per_kernel.values())))
    return {f"{kernel}/{key}": value for kernel, figures in per_kernel.items() for key, value in figures.items()}


def _keep(text: str, keep_asm: str | Path | None) -> None:
    if keep_asm is None:
        return
    try:
        Path(keep_asm).write_text(text)
    except OSError as exc:
        raise InputError(f"cannot write the assembly: {exc.strerror}", file=str(keep_asm), code="io") from None


def _named_after_source(module: LoadedModule, asm: Path, source: Path) -> LoadedModule:
    """``module`` read from a temporary assembly file, with the user's ``source`` named wherever that file was
    (the report's file, each kernel's, every diagnostic): a message must never name a file that is already
    deleted. A diagnostic's line was a line of that assembly: the message says so and the line is dropped,
    since it is no line of the source."""
    temp, name = str(asm), str(source)

    def renamed(d: Diagnostic) -> Diagnostic:
        if d.file != temp:
            return d
        where = f" (line {d.line} of the compiled assembly)" if d.line else ""
        return dataclasses.replace(d, file=name, line=None, message=d.message + where)

    ir = module.ir
    kernels = tuple(dataclasses.replace(k, file=name) if k.file == temp else k for k in ir.kernels)
    ir = dataclasses.replace(ir, file=name if ir.file == temp else ir.file, kernels=kernels,
                             diagnostics=tuple(renamed(d) for d in ir.diagnostics))
    return dataclasses.replace(module, ir=ir, compiled=True)


def _load_clang(path: Path, arch: str | None, defines: Sequence[str], include_dirs: Sequence[str | Path],
                cl_std: str | None, opt: str | None, keep_asm: str | Path | None, wave: int | None,
                ignore_unknown: bool, debug_info: str = "lines") -> tuple[LoadedModule, dict[str, str | int]]:
    if not arch:
        raise ArchError("compiling needs a target: pass --arch (e.g. --arch gfx1030)", file=str(path),
                        code="arch-required")
    spec = resolve_arch(arch, file=str(path))
    check_wave_size(spec, wave, file=str(path))  # before clang sees an impossible -mattr=+wavefrontsize32
    target = spec.name
    with tempfile.TemporaryDirectory(prefix="isalens-clang-") as tmp:
        out = Path(tmp) / f"{path.stem}.{target}.s"
        cc.compile_source(path, target, out_asm=out, defines=defines, include_dirs=include_dirs, cl_std=cl_std,
                          opt=opt, wave=wave, debug_info=debug_info)
        text = out.read_text()
        if keep_asm is not None:
            _keep(text, keep_asm)
            module = load(Path(keep_asm), spec=spec, ignore_unknown=ignore_unknown, wave_size=wave)
        else:
            module = _named_after_source(load(out, spec=spec, ignore_unknown=ignore_unknown, wave_size=wave),
                                         out, path)
    stats = _flat(cc.compiler_comments(text))
    tool = cc.find_llc() if path.suffix.lower() in (".ll", ".bc") else cc.find_clang()
    version = cc.tool_version(tool) if tool else None
    if version:
        stats["compiler"] = version
    return module, stats


def _load_radv(path: Path, arch: str | None, stage: str | None, entry: str, defines: Sequence[str],
               include_dirs: Sequence[str | Path], keep_asm: str | Path | None, wave: int | None,
               ignore_unknown: bool, lang: str | None = None) -> tuple[LoadedModule, dict[str, str | int]]:
    if not arch:
        raise ArchError("compiling a shader needs a GPU: pass --arch (e.g. --arch navi21 or --arch gfx902)",
                        file=str(path), code="arch-required")
    result = radv.compile_shader(path, arch, stage=stage, entry=entry, defines=defines, include_dirs=include_dirs,
                                 wave=wave, lang=lang)
    text = result.checked_assembly()
    bad = _INVALID_RE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise CompilerError(f"ACO's disassembler could not decode an instruction (assembly line {line})",
                            file=str(path), code="driver")
    with tempfile.TemporaryDirectory(prefix="isalens-radv-") as tmp:
        # The ACO reader names the kernel after the file: keep the shader's name.
        asm = Path(keep_asm) if keep_asm is not None else Path(tmp) / f"{path.stem}.{result.target.family.lower()}.s"
        _keep(text, asm)
        # radv: the stage, workgroup and ACO's figures go with the kernel (occupancy by RADV's convention)
        module = load(asm, result.target.gfx, dialect="aco", ignore_unknown=ignore_unknown,
                      wave_size=result.wave_size, declare=lambda k: radv.declare_shader(k, result),
                      notes=(radv.radv_convention_note(str(asm)),))
        if keep_asm is None:
            module = _named_after_source(module, asm, path)
    stats = radv.statistics_of(result.executable)
    stats["compiler"] = f"{result.driver_info} RADV/ACO, {result.device_name}"
    return module, stats


def load_source(path: str | Path, arch: str | None, *, stage: str | None = None, entry: str = "main",
                defines: Sequence[str] = (), include_dirs: Sequence[str | Path] = (), cl_std: str | None = None,
                opt: str | None = None, keep_asm: str | Path | None = None, wave: int | None = None,
                ignore_unknown: bool = False, lang: str | None = None,
                debug_info: str = "lines") -> tuple[LoadedModule, dict[str, str | int]]:
    """Compile ``path`` for ``arch`` and load the assembly; return the module and the compiler's figures.

    clang sources (``.cl``, ``.hip``, ``.ll``, ``.bc``) take a gfx target or a name such as navi21;
    shaders take a Mesa family (raven, navi21...) or a gfx target. ``defines`` are ``NAME[=VALUE]``;
    ``stage`` (comp/frag/vert), ``entry`` and ``lang`` (glsl/hlsl: for HLSL in a ``.frag``) apply to
    shaders, ``cl_std`` to OpenCL C, ``opt`` (0-3, s, z)
    to clang sources. ``keep_asm`` saves the assembly that was analysed. ``compiler_stats`` holds ACO's
    statistics ("VGPRs", "Subgroups per SIMD", "Latency"...) or LLVM's resource comments ("NumVgprs",
    "Occupancy"...) and metadata (".vgpr_count"...), plus "compiler" (the compiler's version).
    Raises :class:`CompilerError` (one line with file:line) when compilation fails and
    :class:`ToolchainMissingError` (with the install command) when a tool is not installed.
    """
    src = Path(path)
    suffix = src.suffix.lower()
    if not src.is_file():
        raise InputError("cannot read: no such file", file=str(src), code="io")
    if suffix in cc.SOURCE_KINDS:
        if stage is not None or entry != "main" or lang is not None:
            raise InputError("--stage, --entry and --lang apply to shaders, not to clang sources", file=str(src),
                             code="usage")
        return _load_clang(src, arch, defines, include_dirs, cl_std, opt, keep_asm, wave, ignore_unknown, debug_info)
    if suffix in SHADER_SUFFIXES:
        if cl_std is not None or opt is not None:
            raise InputError("--cl-std and -O apply to clang sources, not to shaders", file=str(src), code="usage")
        return _load_radv(src, arch, stage, entry, defines, include_dirs, keep_asm, wave, ignore_unknown, lang)
    raise InputError(f"not a source file this front end compiles (suffixes: {', '.join(SOURCE_SUFFIXES)})",
                     file=str(src), code="usage")


def which_compiler(path: str | Path) -> str | None:
    """``clang``, ``radv`` or None: which front end :func:`load_source` uses for ``path``."""
    suffix = Path(path).suffix.lower()
    if suffix in cc.SOURCE_KINDS:
        return "clang"
    if suffix in SHADER_SUFFIXES:
        return "radv"
    return None


def toolchain_available(path: str | Path) -> bool:
    """Whether the tools for ``path`` look installed (for falling back to bundled ISA in demos)."""
    kind = which_compiler(path)
    if kind == "clang":
        return cc.find_clang() is not None and (Path(path).suffix.lower() not in (".ll", ".bc")
                                                or cc.find_llc() is not None)
    if kind == "radv":
        return radv.find_glslang() is not None and radv.find_radv_icd() is not None and vulkan_loader_available()
    return False
