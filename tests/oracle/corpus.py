"""The kernel corpus (examples/kernels/corpus.toml) compiled with clang and llc, with caching.

For each (source, target) :func:`build_corpus` produces four files: ``clang -S`` assembly,
optimized LLVM IR as bitcode (which keeps use-list order, so llc reproduces clang exactly),
llc assembly of that IR, and llc MIR of the same IR stopped after :data:`STOP_AFTER`. The llc
assembly and MIR come from identical llc options, so the MIR's ``bb.N`` numbers are the
``.s`` file's ``; %bb.N:`` / ``.LBB<f>_N:`` numbers.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from isalens.frontends.clang import (
    LIBCLC_AMDGCN,
    CompilerError,
    compile_opencl,
    compile_opencl_to_ir,
    find_clang,
    find_llc,
    llc_compile,
    opencl_flags,
    tool_version,
)

__all__ = [
    "KERNELS_DIR",
    "MANIFEST",
    "STOP_AFTER",
    "CorpusEntry",
    "Toolchain",
    "build_corpus",
    "corpus_set",
    "find_toolchain",
    "iter_corpus",
]

KERNELS_DIR = Path(__file__).resolve().parents[2] / "examples" / "kernels"
MANIFEST = KERNELS_DIR / "corpus.toml"

#: The last AMDGPU machine pass that changes code; its MIR still carries block live-ins and
#: the passes after it (register-usage collection, debug values, stack-frame layout, the asm
#: printer) neither renumber nor remove blocks.
STOP_AFTER = "branch-relaxation"

# Bump when the layout of the cache or the way files are produced changes.
_CACHE_FORMAT = "4"

#: llc's assembly must come from the same register allocation as its MIR. AMDGPU enables
#: interprocedural register allocation (IPRA: a caller allocates around what its callee really
#: clobbers) in a full llc run, but a ``-stop-after`` run prints MIR allocated with the plain calling
#: convention (measured with llc 19 on calls.cl: the MIR is byte-identical with and without IPRA, the
#: assembly is not). So the assembly the oracle compares with the MIR is produced without IPRA.
LLC_ASM_FLAGS = ("-enable-ipra=false",)
_OUTPUTS = ("clang.s", "opt.bc", "llc.s", "llc.mir")


@dataclass(frozen=True)
class CorpusEntry:
    """One compiled (source, target) pair and its output files."""

    source: Path
    target: str
    clang_asm: Path
    llc_asm: Path
    llc_mir: Path
    ir: Path
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Toolchain:
    """The clang/llc pair used for the corpus, with the version strings that key the cache."""

    clang: str
    llc: str
    clang_version: str
    llc_version: str


def _load_manifest(manifest: Path) -> dict[str, object]:
    with manifest.open("rb") as fh:
        return tomllib.load(fh)


def _str_list(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings")
    return tuple(value)


def iter_corpus(manifest: Path = MANIFEST) -> list[tuple[Path, str, tuple[str, ...]]]:
    """Every (source path, target, extra clang flags) the manifest asks for, in manifest order."""
    data = _load_manifest(manifest)
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise ValueError("[defaults] must be a table")
    default_targets = _str_list(defaults.get("targets", []), "defaults.targets")
    files = data.get("file", [])
    if not isinstance(files, list):
        raise ValueError("[[file]] must be an array of tables")
    result: list[tuple[Path, str, tuple[str, ...]]] = []
    for entry in files:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            raise ValueError(f"bad [[file]] entry: {entry!r}")
        source = manifest.parent / entry["path"]
        targets = _str_list(entry.get("targets", list(default_targets)), f"{entry['path']}: targets")
        flags = _str_list(entry.get("flags", []), f"{entry['path']}: flags")
        result.extend((source, target, flags) for target in targets)
    return result


def corpus_set(name: str, manifest: Path = MANIFEST) -> list[Path]:
    """The source files of a named set in the manifest's ``[sets]`` table (e.g. ``fp16_layouts``)."""
    sets = _load_manifest(manifest).get("sets", {})
    if not isinstance(sets, dict) or name not in sets:
        raise KeyError(name)
    return [manifest.parent / p for p in _str_list(sets[name], f"sets.{name}")]


def find_toolchain() -> Toolchain | None:
    """clang and llc of the same LLVM major release with libclc present, else ``None``."""
    clang, llc = find_clang(), find_llc()
    if clang is None or llc is None or not LIBCLC_AMDGCN.is_file():
        return None
    clang_version, llc_version = tool_version(clang), tool_version(llc)
    if _major(clang_version) != _major(llc_version):
        # An llc older than clang cannot read its IR; the oracle would compare nothing.
        return None
    return Toolchain(clang, llc, clang_version, llc_version)


def _major(version_line: str) -> str:
    for word in version_line.split():
        head = word.split(".")[0]
        if "." in word and head.isdigit():
            return head
    return version_line


def _cache_key(source: Path, target: str, flags: Sequence[str], tools: Toolchain) -> str:
    h = hashlib.sha256()
    for part in (
        _CACHE_FORMAT,
        source.read_text(),
        target,
        "\0".join(flags),
        "\0".join(opencl_flags(target)),
        tools.clang_version,
        tools.llc_version,
        STOP_AFTER,
    ):
        h.update(part.encode())
        h.update(b"\x1f")
    return h.hexdigest()[:20]


def _entry_dir(cache_dir: Path, source: Path, target: str, key: str) -> Path:
    return cache_dir / f"{source.stem}.{target}.{key}"


def _entry(source: Path, target: str, flags: tuple[str, ...], out: Path) -> CorpusEntry:
    return CorpusEntry(
        source=source,
        target=target,
        clang_asm=out / "clang.s",
        llc_asm=out / "llc.s",
        llc_mir=out / "llc.mir",
        ir=out / "opt.bc",
        flags=flags,
    )


def _build_one(
    source: Path, target: str, flags: tuple[str, ...], cache_dir: Path, tools: Toolchain
) -> CorpusEntry:
    out = _entry_dir(cache_dir, source, target, _cache_key(source, target, flags, tools))
    if all((out / name).is_file() for name in _OUTPUTS):
        return _entry(source, target, flags, out)
    # Build in a private directory and rename it into place, so an interrupted or concurrent
    # build never leaves a half-filled entry that looks complete.
    tmp = Path(tempfile.mkdtemp(prefix=out.name + ".", dir=cache_dir))
    try:
        compile_opencl(source, target, out_asm=tmp / "clang.s", extra_flags=flags, clang=tools.clang)
        ir = compile_opencl_to_ir(source, target, tmp / "opt.bc", extra_flags=flags, clang=tools.clang)
        llc_compile(ir, target, tmp / "llc.s", extra_flags=LLC_ASM_FLAGS, llc=tools.llc)
        llc_compile(ir, target, tmp / "llc.mir", stop_after=STOP_AFTER, llc=tools.llc)
        try:
            os.rename(tmp, out)
        except OSError:
            # Another process finished the same entry first; keep theirs.
            if not all((out / name).is_file() for name in _OUTPUTS):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return _entry(source, target, flags, out)


def build_corpus(cache_dir: Path, jobs: int = 2, manifest: Path = MANIFEST) -> list[CorpusEntry]:
    """Compile the whole corpus into ``cache_dir`` (reusing cached results), ``jobs`` at a time.

    Raises :class:`CompilerError` if no matching clang/llc/libclc is installed or any
    compilation fails (all failures are collected into one message).
    """
    tools = find_toolchain()
    if tools is None:
        raise CompilerError("no usable toolchain: need clang and llc of the same LLVM release plus libclc")
    cache_dir.mkdir(parents=True, exist_ok=True)
    work = iter_corpus(manifest)
    # Each task runs four compiler processes one after another, so threads suffice.
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(_build_one, src, tgt, flags, cache_dir, tools) for src, tgt, flags in work]
    entries: list[CorpusEntry] = []
    errors: list[str] = []
    for (src, tgt, _), future in zip(work, futures, strict=True):
        exc = future.exception()
        if exc is None:
            entries.append(future.result())
        else:
            errors.append(f"{src.relative_to(manifest.parent)} [{tgt}]: {exc}")
    if errors:
        raise CompilerError("corpus build failed:\n" + "\n\n".join(errors))
    return entries
