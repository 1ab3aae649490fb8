"""Run clang and llc to turn OpenCL C into AMDGPU assembly, LLVM IR or MIR.

Standard library only. Every function takes the tool path explicitly or finds one with
:func:`find_clang` / :func:`find_llc`, and raises :class:`CompilerError` (with the compiler's
stderr) when a run fails or leaves calls to functions that were never linked in.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "LIBCLC_AMDGCN",
    "TRIPLE",
    "CompilerError",
    "compile_opencl",
    "compile_opencl_to_ir",
    "find_clang",
    "find_llc",
    "llc_compile",
    "opencl_flags",
    "tool_version",
]

#: libclc's OpenCL builtin library for amdgcn (Debian package ``libclc-19``).
LIBCLC_AMDGCN = Path("/usr/lib/clc/amdgcn--amdhsa.bc")

TRIPLE = "amdgcn-amd-amdhsa"

# Newest first: an older clang may not know the newer targets (gfx942, gfx1200).
_OLDER_VERSIONS = tuple(range(18, 13, -1))

# A call to a function defined elsewhere shows up as a PC-relative relocation.
_ASM_CALL_SYMBOL = re.compile(r"\b([A-Za-z_.$][\w.$]*)@(?:rel32|gotpcrel32|gotpcrel)@lo")
_ASM_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):", re.MULTILINE)
_IR_DECLARE = re.compile(r"^declare\b[^@]*@(\"[^\"]+\"|[\w.$]+)\(", re.MULTILINE)


class CompilerError(Exception):
    """A compiler run failed; the message includes the command line and the compiler's stderr."""


def _find_tool(tool: str) -> str | None:
    for name in (f"{tool}-19", tool, *(f"{tool}-{v}" for v in _OLDER_VERSIONS)):
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def find_clang() -> str | None:
    """Path of the preferred clang (``clang-19``, then ``clang``, then ``clang-18`` .. ``clang-14``)."""
    return _find_tool("clang")


def find_llc() -> str | None:
    """Path of the preferred llc (``llc-19``, then ``llc``, then ``llc-18`` .. ``llc-14``).

    Note that a plain ``llc`` may belong to a different LLVM release than the clang found by
    :func:`find_clang` (Debian can ship ``llc`` from LLVM 14 next to ``clang-19``); IR written by
    a newer clang cannot be read by an older llc, so compare :func:`tool_version` when mixing.
    """
    return _find_tool("llc")


def tool_version(tool: str) -> str:
    """The first line of ``tool --version`` that names a version (for cache keys and checks)."""
    proc = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise CompilerError(f"{tool} --version failed:\n{proc.stderr}")
    for line in proc.stdout.splitlines():
        if "version" in line:
            return line.strip()
    return proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else ""


def opencl_flags(target: str, libclc: Path | None = LIBCLC_AMDGCN) -> list[str]:
    """Clang flags (without the tool, input or output) that compile OpenCL C for ``target``.

    ``-cl-std=CL1.2`` rather than CL2.0: with CL2.0 clang declares only the generic
    address-space overloads of pointer builtins (``vload3``, ``vstore3``, ``fract``...), which
    libclc does not define, so such calls would stay unresolved. ``-nogpulib`` keeps the ROCm
    device libraries out; libclc is linked with ``-mlink-builtin-bitcode`` so only the builtins
    used are pulled in and then inlined. ``-Wno-linker-warnings`` hides libclc's harmless
    target-triple mismatch (``amdgcn-unknown-amdhsa`` vs ``amdgcn-amd-amdhsa``).
    """
    flags = ["-x", "cl", "-cl-std=CL1.2", "-target", TRIPLE, f"-mcpu={target}", "-nogpulib", "-O3"]
    if libclc is not None:
        flags += ["-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(libclc), "-Wno-linker-warnings"]
    return flags


def _run(cmd: Sequence[str], output: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(list(cmd), capture_output=True, text=True, check=False)
    except OSError as exc:
        raise CompilerError(f"cannot run {cmd[0]}: {exc}") from exc
    if proc.returncode != 0 or not output.is_file():
        raise CompilerError(
            f"{' '.join(cmd)}\nfailed with exit code {proc.returncode}:\n{proc.stderr.strip()}"
        )


def _check_libclc(libclc: Path | None) -> None:
    if libclc is not None and not libclc.is_file():
        raise CompilerError(f"libclc bitcode not found at {libclc} (install libclc-19 or pass libclc=None)")


def _unresolved_in_asm(text: str) -> set[str]:
    defined = set(_ASM_LABEL.findall(text))
    return {name for name in _ASM_CALL_SYMBOL.findall(text) if name not in defined}


def _unresolved_in_ir(text: str) -> set[str]:
    names = {name.strip('"') for name in _IR_DECLARE.findall(text)}
    return {name for name in names if not name.startswith("llvm.")}


def _raise_if_unresolved(names: set[str], source: Path) -> None:
    if names:
        raise CompilerError(
            f"{source}: calls to functions that were not linked in (missing libclc builtins?): "
            + ", ".join(sorted(names))
        )


def compile_opencl(
    source: Path,
    target: str,
    *,
    out_asm: Path,
    extra_flags: Sequence[str] = (),
    clang: str | None = None,
    libclc: Path | None = LIBCLC_AMDGCN,
) -> Path:
    """Compile OpenCL C ``source`` for ``target`` (e.g. ``gfx90a``) to assembly at ``out_asm``.

    Runs ``clang -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=<target> -nogpulib -O3
    -Xclang -mlink-builtin-bitcode -Xclang <libclc> -Wno-linker-warnings <extra_flags> -S``
    (see :func:`opencl_flags` for why). Returns ``out_asm``.
    """
    tool = clang or find_clang()
    if tool is None:
        raise CompilerError("clang not found (looked for clang-19, clang, clang-18 .. clang-14)")
    _check_libclc(libclc)
    _run([tool, *opencl_flags(target, libclc), *extra_flags, "-S", "-o", str(out_asm), str(source)], out_asm)
    _raise_if_unresolved(_unresolved_in_asm(out_asm.read_text()), source)
    return out_asm


def compile_opencl_to_ir(
    source: Path,
    target: str,
    out_ll: Path,
    *,
    extra_flags: Sequence[str] = (),
    clang: str | None = None,
    libclc: Path | None = LIBCLC_AMDGCN,
) -> Path:
    """Like :func:`compile_opencl` but stop at optimized LLVM IR, written to ``out_ll``.

    The IR is textual (``-emit-llvm -S``) unless ``out_ll`` ends in ``.bc`` (bitcode). Target
    clang flags (``-mcpu``, ``-mwavefrontsize64``...) are kept in the IR's function attributes.
    Prefer ``.bc`` when the IR feeds :func:`llc_compile`: bitcode keeps the order of every
    value's use list, on which backend choices depend, so llc then reproduces ``clang -S``
    exactly; textual IR drops that order (and clang 19's ``-emit-llvm-uselists`` writes
    ``uselistorder`` lines for constants that llc 19 rejects), so llc on a ``.ll`` can pick a
    different but equally valid schedule or register assignment for some kernels.
    """
    tool = clang or find_clang()
    if tool is None:
        raise CompilerError("clang not found (looked for clang-19, clang, clang-18 .. clang-14)")
    _check_libclc(libclc)
    binary = out_ll.suffix == ".bc"
    flags = [*opencl_flags(target, libclc), *extra_flags, "-emit-llvm", "-c" if binary else "-S"]
    _run([tool, *flags, "-o", str(out_ll), str(source)], out_ll)
    if not binary:
        _raise_if_unresolved(_unresolved_in_ir(out_ll.read_text()), source)
    return out_ll


def llc_compile(
    ir: Path,
    target: str,
    out: Path,
    *,
    stop_after: str | None = None,
    extra_flags: Sequence[str] = (),
    llc: str | None = None,
) -> Path:
    """Run ``llc -mtriple=amdgcn-amd-amdhsa -mcpu=<target> -O3`` on ``ir``, writing ``out``.

    Without ``stop_after`` the output is assembly; with it (a pass name such as
    ``branch-relaxation``) llc stops after that machine pass and writes MIR. Returns ``out``.
    """
    tool = llc or find_llc()
    if tool is None:
        raise CompilerError("llc not found (looked for llc-19, llc, llc-18 .. llc-14)")
    cmd = [tool, f"-mtriple={TRIPLE}", f"-mcpu={target}", "-O3", *extra_flags]
    if stop_after is not None:
        cmd.append(f"-stop-after={stop_after}")
    cmd += ["-o", str(out), str(ir)]
    _run(cmd, out)
    return out
