"""The text forms of AMDGPU machine code: which one a text is (:func:`sniff`) and its reader (:func:`read`).
Each reader turns lines into :class:`~.drafts.Draft` kernels.

Forms: LLVM assembly (``clang -S``/``llc``, :mod:`.llvm_assembly`), ``llvm-objdump -d`` and driver/RGA listings
with ``// ADDRESS: WORDS`` trailers (:mod:`.trailer_listing`), Mesa ACO disassembly (``BB3:`` labels,
``; 8e038303`` trailers, :mod:`.aco_listing`), RADV's ``RADV_DEBUG=shaders`` dump (:mod:`.radv_dump`: one kernel
per stage), and a bare list of instructions (:mod:`.trailer_listing`).
"""

from __future__ import annotations

import re

from isalens.errors import ParseError
from isalens.isa.amdgcn.drafts import ACO_TRAILER_RE, TRAILER_RE, ReadResult
from isalens.isa.amdgcn.llvm_assembly import read_llvm
from isalens.lazyre import LazyPattern

# The other readers (ACO, RADV dumps, listings) load on use: a small kernel's run reads one dialect, and their
# modules and patterns were a few milliseconds of its start-up (docs/performance.md, seventeenth session).

DIALECTS = ("llvm", "objdump", "listing", "aco", "radv", "bare")


def sniff(text: str) -> str:
    """Guess the dialect of ``text``."""
    head = text[:200_000]
    if "file format elf64-amdgpu" in head or re.search(r"^Disassembly of section", head, re.M):
        return "objdump"
    if re.search(r"^\s*\.(amdgcn_target|amdhsa_kernel|text|globl|section)\b", head, re.M) or re.search(
        r"^\s*;\s*%bb\.\d+:", head, re.M
    ):
        return "llvm"
    from isalens.isa.amdgcn.radv_dump import looks_like_radv_dump

    if looks_like_radv_dump(head):
        return "radv"
    if re.search(r"^\s*\(then repeated \d+ times?\)\s*$", head, re.M) and ACO_TRAILER_RE.search(head):
        return "aco"  # ACO's run-length lines: an ACO listing even without BB labels
    if re.search(r"^BB\d+:\s*$", head, re.M) and ACO_TRAILER_RE.search(head):
        return "aco"
    if TRAILER_RE.search(head):
        return "listing"
    return "bare"


_STAT_LINE_RE = LazyPattern(r"^\s+STAT \S.*\s-?\d+\s*$", re.M)
_EXE_LINE_RE = LazyPattern(r"^EXE \S", re.M)


def statistics_only(head: str) -> bool:
    """True for Vulkan pipeline-executable statistics without code (``EXE Compute Shader ...`` then
    ``  STAT VGPRs 20`` lines, as printed from VK_KHR_pipeline_executable_properties): read as a bare
    listing it would fail on its first line with a puzzling "unknown instruction"."""
    return bool(_EXE_LINE_RE.search(head)) and len(_STAT_LINE_RE.findall(head)) >= 3 \
        and not ACO_TRAILER_RE.search(head) and not TRAILER_RE.search(head)


_RGA_LIVEREG_RE = LazyPattern(r"^\s*'Rn': Number of live registers\s*$|^Maximum # [VS]GPR used", re.M)


def rga_livereg_output(head: str) -> bool:
    """True for RGA's live-register analysis output (its legend, ``Line | Rn |`` map and summary): a
    report about ISA, not ISA."""
    return len(_RGA_LIVEREG_RE.findall(head)) >= 1 and bool(re.search(r"^\s*Line \| Rn\s+\|", head, re.M))


def read(text: str, file: str, dialect: str) -> ReadResult:
    """Dispatch to the reader for ``dialect``."""
    if dialect == "llvm":
        return read_llvm(text, file)
    if dialect in ("objdump", "listing"):
        from isalens.isa.amdgcn.trailer_listing import read_trailer_listing
        return read_trailer_listing(text, file, objdump=dialect == "objdump")
    if dialect == "aco":
        from isalens.isa.amdgcn.aco_listing import read_aco
        return read_aco(text, file)
    if dialect == "radv":
        from isalens.isa.amdgcn.radv_dump import read_radv_dump
        return read_radv_dump(text, file)
    if dialect == "bare":
        from isalens.isa.amdgcn.trailer_listing import read_bare
        return read_bare(text, file)
    raise ParseError(f"unknown dialect {dialect!r} (choose from {', '.join(DIALECTS)})", file=file)
