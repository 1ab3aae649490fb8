"""``isalens decode``: our field decoder beside LLVM's disassembler for instruction text; and the statistics
of one loaded kernel (the ``stats`` pass)."""

from __future__ import annotations

import os
import re
import shutil
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from isalens.analysis.pipeline import PassOptions
from isalens.analysis.stats import KernelStats
from isalens.arch.model import ArchSpec
from isalens.engine.load import LoadedKernel, read_file_bytes
from isalens.engine.target import check_wave_size, resolve_arch
from isalens.errors import InputError
from isalens.frontends.run_tool import run_tool
from isalens.isa.amdgcn import encoding
from isalens.isa.amdgcn.fields import Decoded, DecodeError, decode

__all__ = [
    "DecodedInstruction", "decode_file", "decode_words", "find_llvm_mc", "kernel_stats",
    "parse_words",
]


def kernel_stats(kernel: LoadedKernel, *, loop_weight: int = 10) -> KernelStats:
    """Instruction-level statistics of one loaded kernel: the ``stats`` pass (see :mod:`isalens.analysis.stats`)."""
    if loop_weight < 1:
        raise InputError("the loop weight must be at least 1")
    stats = kernel.analyze(extra=("stats",), options=PassOptions(loop_weight=loop_weight)).stats
    assert stats is not None
    return stats


# ---------------------------------------------------------------------------------------------- decode

_LLVM_MC_NAMES = ("llvm-mc-19", "llvm-mc", *(f"llvm-mc-{v}" for v in range(22, 13, -1)))


def find_llvm_mc() -> str:
    """LLVM's assembler/disassembler (``$ISALENS_LLVM_MC``, llvm-mc-19, llvm-mc, other versions 14+)."""
    override = os.environ.get("ISALENS_LLVM_MC")
    for name in ((override,) if override else _LLVM_MC_NAMES):
        path = shutil.which(name)
        if path:
            return path
    raise InputError("llvm-mc not found: install LLVM 14 or newer (e.g. apt install llvm-19) or set ISALENS_LLVM_MC",
                     code="llvm-mc-missing")


def parse_words(tokens: Sequence[str]) -> list[int]:
    """Dwords from hex words as listings print them (``D8700400 3B00002A``; ``0x`` optional; 16 digits are two
    dwords in printed order)."""
    words: list[int] = []
    for token in tokens:
        for part in token.replace(",", " ").split():
            digits = part[2:] if part.lower().startswith("0x") else part
            if not digits or not re.fullmatch(r"[0-9A-Fa-f]+", digits):
                raise InputError(f"'{part}' is not a hexadecimal word", code="decode-input")
            if len(digits) % 2:
                raise InputError(f"'{part}' has an odd number of hex digits ({len(digits)}); a dword is 8",
                                 code="decode-input")
            if len(digits) % 8:
                raise InputError(f"'{part}' has {len(digits)} hex digits; a dword is 8", code="decode-input")
            words.extend(int(digits[i:i + 8], 16) for i in range(0, len(digits), 8))
    if not words:
        raise InputError("no words to decode", code="decode-input")
    return words


@dataclass(frozen=True, slots=True)
class DecodedInstruction:
    """One instruction: its byte offset, our field decoding and LLVM's text."""

    offset: int
    decoded: Decoded
    text: str

    @property
    def words(self) -> tuple[int, ...]:
        return self.decoded.words


def _hex(words: Sequence[int]) -> str:
    return " ".join(f"{w:08X}" for w in words)


def _split(words: Sequence[int], generation: int, where: str, layout: str) -> list[tuple[int, Decoded]]:
    out = []
    i = 0
    while i < len(words):
        try:
            d = decode(words[i:], generation, layout)
        except DecodeError as exc:
            raise InputError(f"word {i + 1}: {exc.message}", file=where or None,
                             code="decode") from None
        out.append((4 * i, d))
        i += len(d.words)
    return out


def _ours(chunks: list[tuple[int, Decoded]], target: str, where: str) -> list[str]:
    """gfx6/gfx7, which LLVM cannot disassemble: the text from our decoder (checked against LLVM's assembler,
    docs/decoder.md "gfx6/gfx7"); an instruction it does not spell is an error naming it."""
    from isalens.isa.amdgcn.decoder.text import Diagnostic, decode_text

    out = []
    for offset, d in chunks:
        result = decode_text(d.words, target)
        if isinstance(result, Diagnostic):
            raise InputError(f"isalens cannot spell {_hex(d.words)} (at byte {offset:#x}) for {target}: {result.reason}"
                             " (LLVM has no gfx6/gfx7 disassembler)", file=where or None, code="decode")
        out.append(result.text)
    return out


def _disassemble(chunks: list[tuple[int, Decoded]], target: str, wave_size: int | None, where: str) -> list[str]:
    if target.startswith(("gfx6", "gfx7")):
        return _ours(chunks, target, where)
    mc = find_llvm_mc()
    lines = [" ".join(f"0x{b:02x}" for w in d.words for b in w.to_bytes(4, "little")) for _, d in chunks]
    extra = []
    if wave_size is not None and encoding.generation_of(target) >= 10:
        extra = [f"-mattr=+wavefrontsize{wave_size}"]
    # the words go in on stdin, which then ends (run_tool): llvm-mc never reads our own stdin
    proc = run_tool([mc, "-arch=amdgcn", f"-mcpu={target}", "--disassemble", *extra], file=where or None,
                    input="\n".join(lines) + "\n")
    if "Disassembly not yet supported" in proc.stderr:  # LLVM has no gfx6/gfx7 disassembler (docs/decoder.md)
        raise InputError(f"{Path(mc).name} cannot disassemble {target}: LLVM has no gfx6/gfx7 disassembler",
                         code="llvm-mc")
    if "is not a recognized processor" in proc.stderr or proc.returncode not in (0, 1):
        raise InputError(f"{Path(mc).name} does not know {target}: {proc.stderr.strip().splitlines()[0]}",
                         code="llvm-mc")
    for m in re.finditer(r"<stdin>:(\d+):\d+: warning: invalid instruction encoding", proc.stderr):
        n = int(m.group(1))
        offset, d = chunks[n - 1]
        raise InputError(f"LLVM cannot decode {_hex(d.words)} (at byte {offset:#x}) for {target}", file=where or None,
                         code="decode")
    texts = [line.strip() for line in proc.stdout.splitlines()
             if line.strip() and not line.strip().startswith((".", ";"))]
    if len(texts) != len(chunks):
        raise InputError(f"LLVM found {len(texts)} instructions where isalens found {len(chunks)}: the words do not "
                         f"split into instructions the same way (first word {chunks[0][1].words[0]:08X})",
                         file=where or None, code="decode")
    return [re.sub(r"\s+", " ", t) for t in texts]


def decode_words(words: Sequence[int], arch: str | ArchSpec, *, wave_size: int | None = None,
                 where: str = "") -> list[DecodedInstruction]:
    """Split ``words`` into instructions, decode their fields and get their text from LLVM's disassembler
    (gfx6/gfx7, which it cannot disassemble: from our decoder; ``arch``: a target name, or the request's target
    already resolved)."""
    spec = arch if isinstance(arch, ArchSpec) else resolve_arch(arch)
    check_wave_size(spec, wave_size, file=where or None)
    chunks = _split(words, spec.generation, where, spec.encoding_layout)  # bench: layout from arch data
    texts = _disassemble(chunks, spec.name, wave_size, where)
    return [DecodedInstruction(offset, d, text) for (offset, d), text in zip(chunks, texts, strict=True)]


def _elf_text(data: bytes, where: str) -> list[int]:
    """The ``.text`` section of a little-endian ELF64 code object, as dwords."""
    if data[4] != 2 or data[5] != 1:
        raise InputError("not a little-endian ELF64 code object", file=where, code="decode-input")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = sections[shstrndx][4]
    for name_off, _type, _flags, _addr, offset, size in sections:
        end = data.index(b"\0", names_at + name_off)
        if data[names_at + name_off:end] == b".text":
            body = data[offset:offset + size]
            return [int.from_bytes(body[i:i + 4], "little") for i in range(0, len(body) - len(body) % 4, 4)]
    raise InputError("the code object has no .text section", file=where, code="decode-input")


def decode_file(path: str | Path, arch: str | None) -> list[DecodedInstruction]:
    """Decode a code object's ``.text``, or the encoding words a listing prints after its instructions."""
    p = Path(path)
    data = read_file_bytes(p)
    if data[:4] == b"\x7fELF":
        if arch is None:
            raise InputError("pass --arch for a code object (e.g. --arch gfx902)", file=str(p), code="arch-required")
        try:
            words = _elf_text(data, str(p))
        except (struct.error, ValueError, IndexError):
            raise InputError("malformed ELF file", file=str(p), code="decode-input") from None
        if not words:
            raise InputError("the .text section is empty", file=str(p), code="decode-input")
        return decode_words(words, arch, where=str(p))
    from isalens.engine import LoadOptions, load_input  # the one way in for a file

    module = load_input(p, LoadOptions(arch=arch))[0]
    out: list[DecodedInstruction] = []
    for kernel in module.kernels:
        with_words = [ins for ins in kernel.ir.instructions if ins.encoding]
        if not with_words:
            continue
        flat = [w for ins in with_words for w in ins.encoding]
        decoded = decode_words(flat, module.arch, wave_size=kernel.ir.wave_size, where=str(p))
        if [d.words for d in decoded] == [ins.encoding for ins in with_words]:
            # one decoded instruction per listed one: keep the listing's byte addresses
            decoded = [DecodedInstruction(ins.address if ins.address is not None else d.offset, d.decoded, d.text)
                       for ins, d in zip(with_words, decoded, strict=True)]
        out.extend(decoded)
    if not out:
        raise InputError("no encoding words in this file (listings print them after each instruction)", file=str(p),
                         code="decode-input")
    return out
