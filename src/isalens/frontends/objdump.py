"""Disassemble AMDGPU code objects with llvm-objdump (LLVM 19) into the text the ``objdump`` dialect reads.

LLVM 19's AMDGPU disassembler does not handle gfx6/gfx7 (SI/CI) and knows no processor newer than itself:
both get a one-line :class:`DisassemblyUnsupported` naming the target instead of an abort or wrong text (our own
decoder, ``--disassembler ours``, reads gfx6/gfx7).
"""

from __future__ import annotations

import functools
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from isalens.errors import IsalensError
from isalens.frontends.argv import file_arg
from isalens.frontends.clang import ToolchainMissingError, find_llc
from isalens.frontends.run_tool import ToolError, run_tool
from isalens.lines import lines_of

__all__ = ["DisassemblyUnsupported", "check_disassemblable", "disassemble", "find_objdump", "only_functions", "tidy"]

OBJDUMP_INSTALL = "apt-get install -y llvm-19"
_PRE_GFX8 = re.compile(r"^gfx[67]\d\d$")


class DisassemblyUnsupported(IsalensError):
    """LLVM's disassembler cannot decode this target."""


def find_objdump() -> str | None:
    """Path of ``llvm-objdump-19`` (else ``llvm-objdump``, else an older one)."""
    for name in ("llvm-objdump-19", "llvm-objdump", "llvm-objdump-18"):
        path = shutil.which(name)
        if path is not None:
            return path
    return None


#: a processor line of ``-mcpu=help``, the generic targets of code object v6 too (``gfx11-generic``)
_CPU_RE = re.compile(r"^\s+(gfx[0-9a-f]+(?:-[0-9a-f]+)?-generic|gfx[0-9a-f]+)\s")


@functools.lru_cache(maxsize=1)
def _known_processors() -> frozenset[str]:
    """The gfx processors LLVM's AMDGPU backend knows (``llc -mtriple=amdgcn -mcpu=help``); empty if no llc."""
    llc = find_llc()
    if llc is None:
        return frozenset()
    try:
        proc = run_tool([llc, "-mtriple=amdgcn", "-mcpu=help"], file=None)
    except ToolError:
        return frozenset()
    return frozenset(m.group(1) for line in lines_of(proc.stdout + proc.stderr) if (m := _CPU_RE.match(line)))


def check_disassemblable(processor: str, *, file: str, source: str) -> None:
    """Raise :class:`DisassemblyUnsupported` when LLVM 19 cannot disassemble ``processor``."""
    if _PRE_GFX8.match(processor):
        raise DisassemblyUnsupported(
            f"{source}: LLVM 19's disassembler does not support {processor} (gfx6/gfx7); isalens' own decoder reads it "
            "(--disassembler ours, the default); its metadata is listed by `isalens list`", file=file,
            code="disassembler-target")
    known = _known_processors()
    if known and processor not in known:
        raise DisassemblyUnsupported(
            f"{source}: LLVM 19 does not know {processor} (newer than its AMDGPU backend); its metadata is listed "
            "by `isalens list`", file=file, code="disassembler-target")


def disassemble(data: bytes, processor: str, *, file: str, source: str, symbols: Sequence[str] | None = None,
                extents: Mapping[str, tuple[int, int]] | None = None, wave64: bool = False) -> str:
    """``llvm-objdump -d`` of the code object ``data`` (only ``symbols`` when given); with ``extents`` (function
    name -> address, size) the padding objdump shows after a function's last byte is left out. ``wave64``: decode
    as wave64 code (gfx10+ decodes wave32 by default, so a wave64 kernel's ``vcc`` and lane masks would come
    out as one SGPR: ``s10`` for ``s[10:11]``)."""
    check_disassemblable(processor, file=file, source=source)
    tool = find_objdump()
    if tool is None:
        raise ToolchainMissingError("llvm-objdump not found (looked for llvm-objdump-19, llvm-objdump)",
                                    install=OBJDUMP_INSTALL, file=file)
    with tempfile.TemporaryDirectory(prefix="isalens-co-") as tmp:
        path = Path(tmp) / "code-object.elf"
        path.write_bytes(data)
        cmd = [tool, "-d", f"--mcpu={processor}", *(["--mattr=+wavefrontsize64"] if wave64 else [])]
        if symbols is not None:
            cmd.append("--disassemble-symbols=" + ",".join(symbols))
        # llvm-objdump takes no ``--``: the absolute path (file_arg) is what keeps the name from being an option
        cmd.append(file_arg(path))
        proc = run_tool(cmd, file=file)
    if proc.returncode != 0:
        first = next((line for line in lines_of(proc.stderr) if line.strip()), f"exit code {proc.returncode}")
        raise IsalensError(f"{source}: llvm-objdump failed: {first.strip()}", file=file, code="disassembler")
    return tidy(proc.stdout, extents or {})


_HEADER_RE = re.compile(r"^[0-9a-fA-F]+ <(.*)>:\s*$")  # a name may hold "<" and ">" (C++ templates)
_ADDRESS_RE = re.compile(r"//\s*([0-9A-Fa-f]+):")


def only_functions(text: str, symbols: Sequence[str]) -> str:
    """The disassembly ``text`` of a whole code object with every function but ``symbols`` blanked: what
    ``--disassemble-symbols`` prints, cut from one run instead of one llvm-objdump process per kernel (a code
    object whose metadata lists thousands of kernels took minutes); blank lines keep the line numbers."""
    wanted = set(symbols)
    out: list[str] = []
    keeping = True  # the file-format lines before the first function
    for line in lines_of(text):
        header = _HEADER_RE.match(line)
        if header:
            keeping = header.group(1) in wanted
        elif line.startswith("Disassembly of section"):
            keeping = True
        out.append(line if keeping else "")
    return "\n".join(out) + "\n"


def tidy(text: str, extents: Mapping[str, tuple[int, int]]) -> str:
    """Drop what is not code of a function: ``...`` (objdump eliding a run of zero words between functions),
    blocks headed by a section name (``<.text>:``, the ``s_code_end`` padding before the first symbol) and the
    ``s_nop``/``s_code_end`` padding past a function's symbol size."""
    out: list[str] = []
    skipping = False
    end: int | None = None
    for line in lines_of(text):
        header = _HEADER_RE.match(line)
        if header:
            skipping = header.group(1).startswith(".")
            extent = extents.get(header.group(1))
            end = extent[0] + extent[1] if extent and extent[1] else None
        elif end is not None and (address := _ADDRESS_RE.search(line)) and int(address.group(1), 16) >= end:
            out.append("")
            continue
        if skipping or line.strip() == "...":
            out.append("")  # keep line numbers of the rest as objdump printed them
            continue
        out.append(line)
    return "\n".join(out) + "\n"
