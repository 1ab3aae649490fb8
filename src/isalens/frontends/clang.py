"""Run clang and llc to turn OpenCL C, HIP or LLVM IR into AMDGPU assembly, LLVM IR or MIR.

Standard library only. Every run goes through :func:`isalens.frontends.run_tool.run_tool` (stdin from
/dev/null, time and memory limits), and clang sees only the files :mod:`isalens.frontends.confine` lets it
``#include``. Every function takes the tool path explicitly or finds one with
:func:`find_clang` / :func:`find_llc`, and raises :class:`CompilerError` (a one-line diagnostic with
the compiler's first error and its file:line; the whole stderr in ``details``) when a run fails or
leaves calls to functions that were never linked in, or :class:`ToolchainMissingError` (with the
``apt-get install`` command) when a tool is not installed.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from isalens.errors import IsalensError
from isalens.frontends.argv import END_OF_OPTIONS, file_arg
from isalens.frontends.confine import confined_includes, search_directories
from isalens.frontends.run_tool import run_tool
from isalens.lines import lines_of

__all__ = [
    "CLANG_INSTALL",
    "HIP_INSTALL",
    "LIBCLC_AMDGCN",
    "SOURCE_KINDS",
    "TRIPLE",
    "CompilerError",
    "ToolchainMissingError",
    "compile_hip",
    "compile_opencl",
    "compile_opencl_to_ir",
    "compile_source",
    "compiler_comments",
    "find_clang",
    "find_hip_headers",
    "find_llc",
    "find_rocm_device_libs",
    "hip_targets",
    "llc_compile",
    "one_line_diagnostic",
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


#: Debian packages for the clang front end (OpenCL C with libclc, LLVM IR through llc).
CLANG_INSTALL = "apt-get install -y clang-19 llvm-19 libclc-19"
#: Debian packages for HIP: the HIP headers and the ROCm device libraries (clang-19 compiles).
HIP_INSTALL = "apt-get install -y clang-19 libamdhip64-dev rocm-device-libs"

#: Source suffixes this module compiles, and what they hold.
SOURCE_KINDS = {".cl": "opencl", ".ll": "llvm-ir", ".bc": "llvm-ir", ".hip": "hip"}

# "file:line:col: error: message" (clang, llc; the column is optional) anywhere in a line.
_DIAG_RE = re.compile(r"(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)")


class CompilerError(IsalensError):
    """A compiler run failed: one-line message (with file:line when the compiler gave one), ``details``
    holds the command line and the compiler's whole output."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 code: str = "compiler", details: str = "") -> None:
        super().__init__(message, file=file, line=line, code=code)
        self.details = details


class ToolchainMissingError(CompilerError):
    """A compiler or driver is not installed; ``install`` is the command that installs it."""

    def __init__(self, message: str, *, install: str, file: str | None = None) -> None:
        super().__init__(f"{message}; install it with: {install}", file=file, code="toolchain-missing")
        self.install = install


def one_line_diagnostic(output: str) -> tuple[str, str | None, int | None]:
    """The first error in a compiler's output as (message, file, line); file/line None when absent."""
    for raw in lines_of(output):
        m = _DIAG_RE.search(raw)
        if m:
            return m.group("msg").strip(), m.group("file").strip(), int(m.group("line"))
    for raw in lines_of(output):
        if "error" in raw.lower():
            return raw.strip(), None, None
    lines = [ln.strip() for ln in lines_of(output) if ln.strip()]
    return (lines[0] if lines else "no output"), None, None


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
    """The first line of ``tool --version`` that names a version (for cache keys and checks).

    Remembered per executable (its resolved path, size and modification time), since every compile asks
    and ``clang --version`` costs a process start (0.2 s of each of ``isalens serve``'s recompiles).
    """
    identity = _executable_identity(tool)
    if identity is not None and identity in _VERSIONS:
        return _VERSIONS[identity]
    proc = run_tool([tool, "--version"], file=None)
    if proc.returncode != 0:
        raise CompilerError(f"{tool} --version failed:\n{proc.stderr}")
    version = next((line.strip() for line in lines_of(proc.stdout) if "version" in line), "")
    if not version and proc.stdout.strip():
        version = lines_of(proc.stdout.strip())[0]
    if identity is not None:
        _VERSIONS[identity] = version
    return version


_VERSIONS: dict[tuple[str, int, int], str] = {}


def _executable_identity(tool: str) -> tuple[str, int, int] | None:
    """(real path, size, mtime in ns) of the executable ``tool`` names, or None when it cannot be found."""
    found = shutil.which(tool)
    if found is None:
        return None
    try:
        real = Path(found).resolve()
        stat = real.stat()
    except OSError:
        return None
    return str(real), stat.st_size, stat.st_mtime_ns


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


def _run(cmd: Sequence[str], output: Path, source: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    proc = run_tool(cmd, file=source)
    if proc.returncode != 0 or not output.is_file():
        message, file, line = one_line_diagnostic(proc.stderr)
        message = re.sub(r"^(?:[\w.+-]+: )?(?:fatal )?error: ", "", message)
        details = f"{' '.join(cmd)}\nfailed with exit code {proc.returncode}:\n{proc.stderr.strip()}"
        raise CompilerError(message if file else f"{Path(cmd[0]).name}: {message}", file=file or str(source),
                            line=line, details=details)


def _confined_opencl(tool: str, source: Path, flags: Sequence[str],
                     libclc: Path | None) -> AbstractContextManager[list[str]]:
    """The overlay of an OpenCL compile: the source's tree, -I directories, clang's header search path, libclc."""
    search = search_directories(tool, ["-x", "cl", "-target", TRIPLE, "-nogpulib"], file=source)
    return confined_includes(source, flags, search=search, files=[libclc] if libclc is not None else [])


def _check_libclc(libclc: Path | None) -> None:
    if libclc is not None and not libclc.is_file():
        raise ToolchainMissingError(f"libclc bitcode not found at {libclc}", install="apt-get install -y libclc-19")


def _unresolved_in_asm(text: str) -> set[str]:
    defined = set(_ASM_LABEL.findall(text))
    return {name for name in _ASM_CALL_SYMBOL.findall(text) if name not in defined}


def _unresolved_in_ir(text: str) -> set[str]:
    names = {name.strip('"') for name in _IR_DECLARE.findall(text)}
    return {name for name in names if not name.startswith("llvm.")}


def _raise_if_unresolved(names: set[str], source: Path) -> None:
    if names:
        raise CompilerError(
            "calls to functions that were not linked in (missing libclc builtins?): " + ", ".join(sorted(names)),
            file=str(source), code="unresolved",
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
        raise ToolchainMissingError("clang not found (looked for clang-19, clang, clang-18 .. clang-14)",
                                    install=CLANG_INSTALL)
    _check_libclc(libclc)
    flags = [*opencl_flags(target, libclc), *extra_flags]
    with _confined_opencl(tool, source, flags, libclc) as confine:
        _run([tool, *confine, *flags, "-S", "-o", file_arg(out_asm), END_OF_OPTIONS, file_arg(source)], out_asm,
             source)
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
        raise ToolchainMissingError("clang not found (looked for clang-19, clang, clang-18 .. clang-14)",
                                    install=CLANG_INSTALL)
    _check_libclc(libclc)
    binary = out_ll.suffix == ".bc"
    flags = [*opencl_flags(target, libclc), *extra_flags, "-emit-llvm", "-c" if binary else "-S"]
    with _confined_opencl(tool, source, flags, libclc) as confine:
        _run([tool, *confine, *flags, "-o", file_arg(out_ll), END_OF_OPTIONS, file_arg(source)], out_ll, source)
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
    opt: str = "3",
) -> Path:
    """Run ``llc -mtriple=amdgcn-amd-amdhsa -mcpu=<target> -O<opt>`` (default -O3) on ``ir``, writing ``out``.

    Without ``stop_after`` the output is assembly; with it (a pass name such as
    ``branch-relaxation``) llc stops after that machine pass and writes MIR. Returns ``out``.
    """
    tool = llc or find_llc()
    if tool is None:
        raise ToolchainMissingError("llc not found (looked for llc-19, llc, llc-18 .. llc-14)",
                                    install="apt-get install -y llvm-19")
    cmd = [tool, f"-mtriple={TRIPLE}", f"-mcpu={target}", f"-O{opt}", *extra_flags]
    if stop_after is not None:
        cmd.append(f"-stop-after={stop_after}")
    cmd += ["-o", file_arg(out), END_OF_OPTIONS, file_arg(ir)]
    _run(cmd, out, ir)
    return out


# ------------------------------------------------------------------------------------------ HIP
_DEVICE_LIB_DIRS = ("/usr/lib/*/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode",
                    "/opt/rocm/lib/llvm/lib/clang/*/lib/amdgcn/bitcode")
_HIP_HEADERS = ("/usr/include/hip/hip_runtime.h", "/opt/rocm/include/hip/hip_runtime.h")


def find_rocm_device_libs() -> Path | None:
    """The ROCm device-library bitcode directory (Debian ``rocm-device-libs``: /usr/lib/<triplet>/amdgcn/bitcode)."""
    for pattern in _DEVICE_LIB_DIRS:
        for found in sorted(Path("/").glob(pattern.lstrip("/"))):
            if (found / "ockl.bc").is_file():
                return found
    return None


def find_hip_headers() -> Path | None:
    """The include directory that holds ``hip/hip_runtime.h`` (Debian ``libamdhip64-dev``)."""
    for header in _HIP_HEADERS:
        if Path(header).is_file():
            return Path(header).parent.parent
    return None


def hip_targets(device_libs: Path | None = None) -> list[str]:
    """The gfx targets the installed device libraries support (one ``oclc_isa_version_<N>.bc`` each)."""
    libs = device_libs or find_rocm_device_libs()
    if libs is None:
        return []
    names = [p.stem.removeprefix("oclc_isa_version_") for p in libs.glob("oclc_isa_version_*.bc")]
    return sorted((f"gfx{n}" for n in names), key=lambda t: (len(t), t))


def compile_hip(
    source: Path,
    target: str,
    *,
    out_asm: Path,
    extra_flags: Sequence[str] = (),
    clang: str | None = None,
    device_libs: Path | None = None,
) -> Path:
    """Compile the device code of a HIP ``source`` for ``target`` to assembly at ``out_asm``.

    Runs clang directly (``-x hip --offload-arch=<target> --cuda-device-only -O3 -S``) with Debian's HIP
    headers and ROCm device libraries rather than Debian's ``hipcc``: that wrapper needs clang-15 and picks
    the NVIDIA path whenever an ``nvcc`` is on PATH.
    """
    tool = clang or find_clang()
    if tool is None:
        raise ToolchainMissingError("clang not found (looked for clang-19, clang, clang-18 .. clang-14)",
                                    install=HIP_INSTALL)
    libs = device_libs or find_rocm_device_libs()
    if libs is None or find_hip_headers() is None:
        raise ToolchainMissingError("HIP headers or ROCm device libraries not found", install=HIP_INSTALL,
                                    file=str(source))
    known = hip_targets(libs)
    if target not in known:
        raise CompilerError(f"the installed ROCm device libraries have no {target} library (they support "
                            f"{', '.join(known)}); HIP for {target} needs a newer rocm-device-libs",
                            file=str(source), code="unsupported-target")
    language = ["-x", "hip", f"--offload-arch={target}", "--cuda-device-only", f"--rocm-device-lib-path={libs}"]
    flags = [*language, "-O3", *extra_flags]
    with confined_includes(source, flags, search=search_directories(tool, language, file=source),
                           dirs=[libs]) as confine:
        _run([tool, *confine, *flags, "-S", "-o", file_arg(out_asm), END_OF_OPTIONS, file_arg(source)], out_asm,
             source)
    return out_asm


# ------------------------------------------------------------------------------------------ any source
_CL_STD_RE = re.compile(r"^(CL1\.[0-2]|CL2\.0|CL3\.0|CLC\+\+(1\.0|2021)?)$", re.IGNORECASE)
_OPT_LEVELS = ("0", "1", "2", "3", "s", "z")


def _common_flags(source: Path, defines: Sequence[str], include_dirs: Sequence[str | Path],
                  opt: str | None) -> list[str]:
    flags: list[str] = []
    for define in defines:
        if not define or define.startswith("=") or any(c.isspace() for c in define.split("=", 1)[0]):
            raise CompilerError(f"-D {define!r}: expected NAME or NAME=VALUE", file=str(source), code="usage")
        flags.append(f"-D{define}")
    flags += [f"-I{file_arg(d)}" for d in include_dirs]
    if opt is not None:
        level = opt.removeprefix("-O").removeprefix("O")
        if level not in _OPT_LEVELS:
            raise CompilerError(f"-O{level}: choose one of -O0 -O1 -O2 -O3 -Os -Oz", file=str(source), code="usage")
        flags.append(f"-O{level}")
    return flags


#: the clang flags for each choice of ``debug_info`` (:func:`compile_source`)
DEBUG_FLAGS: dict[str, tuple[str, ...]] = {"lines": ("-gline-tables-only",), "full": ("-g",), "none": ()}


def compile_source(
    source: Path,
    target: str,
    *,
    out_asm: Path,
    defines: Sequence[str] = (),
    include_dirs: Sequence[str | Path] = (),
    cl_std: str | None = None,
    opt: str | None = None,
    wave: int | None = None,
    debug_info: str = "lines",
) -> Path:
    """Compile ``source`` (``.cl``, ``.hip``, ``.ll`` or ``.bc``) for ``target`` to AMDGPU assembly at ``out_asm``.

    ``debug_info``: ``lines`` (the default: ``-gline-tables-only``, which leaves the machine code byte for byte
    as it is without it), ``full`` (``-g``: variables too, but LLVM 19's debug values move instructions in about
    half of the example builds, docs/source.md) or ``none``; LLVM IR keeps whatever debug metadata it carries.

    ``defines`` are ``NAME`` or ``NAME=VALUE``; ``opt`` is ``0``-``3``, ``s`` or ``z`` (default: 3);
    ``cl_std`` (``CL1.2``, ``CL2.0``, ``CL3.0``...) applies to OpenCL C only; ``wave`` (32/64) picks the
    wave size on targets that have both. LLVM IR goes through llc, for which -D/-I/--cl-std mean nothing
    and are refused.
    """
    if wave not in (None, 32, 64):
        raise CompilerError(f"wave size {wave}: choose 32 or 64", file=str(source), code="usage")
    kind = SOURCE_KINDS.get(source.suffix.lower())
    if kind is None:
        raise CompilerError(f"not a clang source (expected {', '.join(SOURCE_KINDS)})", file=str(source),
                            code="usage")
    if not source.is_file():
        raise CompilerError("cannot read: no such file", file=str(source), code="io")
    if cl_std is not None and (kind != "opencl" or not _CL_STD_RE.match(cl_std)):
        raise CompilerError(f"--cl-std {cl_std}: " + ("expected CL1.0-CL1.2, CL2.0, CL3.0 or CLC++"
                                                      if kind == "opencl" else "applies to OpenCL C only"),
                            file=str(source), code="usage")
    if kind == "llvm-ir":
        if defines or include_dirs:
            raise CompilerError("-D and -I apply to source languages, not to LLVM IR", file=str(source),
                                code="usage")
        level = "3" if opt is None else opt.removeprefix("-O").removeprefix("O")
        if level not in _OPT_LEVELS:
            raise CompilerError(f"-O{level}: choose one of -O0 -O1 -O2 -O3 -Os -Oz", file=str(source), code="usage")
        # llc has no size levels; -Os/-Oz code generation is -O2's.
        # IR that carries its own "target-features" keeps them: llc cannot override a function attribute.
        wave_attr = [] if wave is None else [f"-mattr=+wavefrontsize{wave},-wavefrontsize{96 - wave}"]
        return llc_compile(source, target, out_asm, opt="2" if level in ("s", "z") else level, extra_flags=wave_attr)
    if debug_info not in DEBUG_FLAGS:
        raise CompilerError(f"debug information {debug_info!r}: choose {', '.join(DEBUG_FLAGS)}", file=str(source),
                            code="usage")
    flags = [*_common_flags(source, defines, include_dirs, opt), *DEBUG_FLAGS[debug_info]]
    if wave is not None:
        flags.append("-mwavefrontsize64" if wave == 64 else "-mno-wavefrontsize64")
    if kind == "hip":
        return compile_hip(source, target, out_asm=out_asm, extra_flags=flags)
    if cl_std is not None:
        flags.append(f"-cl-std={cl_std}")
    return compile_opencl(source, target, out_asm=out_asm, extra_flags=flags)


# ------------------------------------------------------------------------------------------ figures
_SIZE_RE = re.compile(r"^\s*\.size\s+([\w.$]+),\s*\.Lfunc_end")
_INFO_RE = re.compile(r"^;\s*([A-Za-z][\w ]*?)\s*(?::|=)\s*(-?\d+)\b")
_META_ENTRY_RE = re.compile(r"^  - ")
_META_KEY_RE = re.compile(r"^(?:  - |    )\.([a-z_]+):\s+(\S.*?)\s*$")
_META_KEYS = {"vgpr_count", "sgpr_count", "agpr_count", "vgpr_spill_count", "sgpr_spill_count",
              "group_segment_fixed_size", "private_segment_fixed_size", "wavefront_size",
              "max_flat_workgroup_size", "kernarg_segment_size", "uses_dynamic_stack"}


def compiler_comments(asm: str) -> dict[str, dict[str, str | int]]:
    """LLVM's own figures per function: the ``; Kernel info:`` comments (``NumVgprs``, ``Occupancy``...)
    under their names and the code-object metadata (``.vgpr_count``...) with its leading dot."""
    out: dict[str, dict[str, str | int]] = {}
    current: str | None = None
    in_info = False
    in_meta = False
    meta: dict[str, str | int] = {}
    for raw in lines_of(asm):
        size = _SIZE_RE.match(raw)
        if size:
            current, in_info = size.group(1), False
            continue
        if raw.startswith("; Kernel info:") or raw.startswith("; Function info:"):
            in_info = current is not None
            continue
        if in_info and current is not None:
            m = _INFO_RE.match(raw)
            if m and ":" not in m.group(1):
                out.setdefault(current, {})[m.group(1).strip()] = int(m.group(2))
                continue
            if not raw.startswith(";"):
                in_info = False
        if raw.startswith("amdhsa.kernels:"):
            in_meta = True
            continue
        if in_meta:
            if raw.startswith("amdhsa.") or raw.startswith(".end_amdgpu_metadata"):
                _store_meta(out, meta)
                in_meta = False
                continue
            if _META_ENTRY_RE.match(raw):
                _store_meta(out, meta)
                meta = {}
            m = _META_KEY_RE.match(raw)
            if m:
                value: str | int = m.group(2)
                meta[m.group(1)] = int(value) if re.fullmatch(r"-?\d+", str(value)) else value
    return out


def _store_meta(out: dict[str, dict[str, str | int]], meta: dict[str, str | int]) -> None:
    name = meta.get("name")
    if not isinstance(name, str):
        return
    figures = out.setdefault(name, {})
    for key, value in meta.items():
        if key in _META_KEYS:
            figures[f".{key}"] = value
