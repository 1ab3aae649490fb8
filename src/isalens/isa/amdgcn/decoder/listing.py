"""A code object's executable sections -> the text ``llvm-objdump -d`` prints for them, line for line, from our
decoder: the ``objdump`` dialect reader, every report and golden file then see one listing whichever
disassembler made it (docs/decoder.md, "Wiring").

What llvm-objdump 19 prints (``llvm-objdump.cpp``, ``disassembleObject`` and ``AMDGCNPrettyPrinter``; facts,
not code): a file-format line, then per section with something to show ``Disassembly of section NAME:``; one
block per address that holds symbols (a blank line, then ``ADDR <name>:`` for each symbol there; a dummy symbol
named after the section when none starts at its first byte), running to the next symbol or the section's end;
each instruction as ``\\tTEXT`` left-justified to 60 characters, then ``// ADDR: WORDS`` (12 hex digits, words as
8 uppercase hex digits) and, for a branch, `` <symbol+0xOFFSET>``; a run of at least 8 zero bytes is one
``\\t\\t...`` line skipping whole dwords. With ``--disassemble-symbols`` only the blocks of those symbols appear.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from isalens.isa.amdgcn.decoder.text import Diagnostic, Text, decode_text

__all__ = ["Listing", "NotDecoded", "Section", "objdump_listing"]

#: symbol types a block may start at; any other (data objects, STT_NOTYPE labels, which LLVM's symbolizer prints
#: as branch operands) makes objdump print something this module does not write
_CODE_SYMBOLS = frozenset({"STT_FUNC"})
_BRANCHES = frozenset({"s_branch", "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz", "s_cbranch_vccnz",
                       "s_cbranch_execz", "s_cbranch_execnz", "s_cbranch_cdbgsys", "s_cbranch_cdbguser",
                       "s_cbranch_cdbgsys_or_user", "s_cbranch_cdbgsys_and_user", "s_call_b64"})


class Section(Protocol):
    """An executable section (``isalens.binary.sections.CodeSection`` has this shape)."""

    @property
    def name(self) -> str: ...
    @property
    def address(self) -> int: ...
    @property
    def data(self) -> bytes: ...
    @property
    def symbols(self) -> tuple[tuple[int, str, str], ...]: ...


class NotDecoded(Exception):
    """The code object holds something our decoder does not read (an instruction it gives a diagnostic for,
    data or symbols objdump prints differently): the caller asks llvm-objdump instead."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class Listing:
    """The listing's text and one note per instruction decoded as the hardware reads it where LLVM rejects it."""

    text: str
    notes: list[str] = field(default_factory=list)


def objdump_listing(sections: Sequence[Section], target: str, *, symbols: Collection[str] | None = None,
                    label: str = "code-object.elf", wave64: bool = False) -> Listing:
    """What ``llvm-objdump -d --mcpu=TARGET [--disassemble-symbols=SYMBOLS]`` prints for ``sections``; raises
    :class:`NotDecoded` naming the first thing it cannot write as objdump would."""
    lines = ["", f"{label}:\tfile format elf64-amdgpu"]
    notes: list[str] = []
    for section in sections:
        _section(section, target, wave64, symbols, lines, notes)
    return Listing("\n".join(lines) + "\n", notes)


def _section(section: Section, target: str, wave64: bool, chosen: Collection[str] | None, lines: list[str],
             notes: list[str]) -> None:
    start, data = section.address, section.data
    end = start + len(data)
    syms = [s for s in section.symbols if start <= s[0] < end]
    odd = next((s for s in syms if s[2] not in _CODE_SYMBOLS), None)
    if odd is not None:
        raise NotDecoded(f"symbol {odd[1]} of type {odd[2]} in {section.name}")
    if not syms or syms[0][0] != start:
        syms.insert(0, (start, section.name, "STT_FUNC"))
    if len(data) % 4 or start % 4:
        raise NotDecoded(f"{section.name} is not whole dwords")
    words = array("I", data)
    if words.itemsize != 4:  # pragma: no cover - array('I') is 4 bytes on every platform CPython supports
        raise NotDecoded("no 32-bit array type")
    if array("I", b"\x01\0\0\0")[0] != 1:  # pragma: no cover - big-endian host
        words.byteswap()
    addresses = sorted({s[0] for s in syms})
    printed = False
    for n, here in enumerate(addresses):
        names = [s[1] for s in syms if s[0] == here]
        if chosen is not None:
            names = [x for x in names if x in chosen]
            if not names:
                continue
        if not printed:
            lines += ["", f"Disassembly of section {section.name}:"]
            printed = True
        lines.append("")
        lines += [f"{here:016x} <{x}>:" for x in names]
        stop = addresses[n + 1] if n + 1 < len(addresses) else end
        _block(words, (here - start) // 4, (stop - start) // 4, start, syms, target, wave64, lines, notes)


def _block(words: array[int], index: int, stop: int, base: int, syms: list[tuple[int, str, str]], target: str,
           wave64: bool, lines: list[str], notes: list[str]) -> None:
    while index < stop:
        zeros = index
        while zeros < stop and words[zeros] == 0:
            zeros += 1
        if zeros - index >= 2:  # at least 8 zero bytes: whole dwords skipped
            lines.append("\t\t...")
            index = zeros
            continue
        address = base + 4 * index
        result = _decoded(words, index, target, wave64)
        if isinstance(result, Diagnostic):
            raise NotDecoded(f"{result.reason} at {address:#x}")
        size = result.size // 4
        if index + size > len(words):
            raise NotDecoded(f"instruction at {address:#x} runs past the section's end")
        if result.note:
            notes.append(f"{address:#x}: {result.note}")
        text = "\t" + result.text
        encoding = " ".join(f"{w:08X}" for w in words[index:index + size])
        tail = _branch_comment(result.mnemonic, words[index], address, syms) if result.mnemonic in _BRANCHES else ""
        lines.append(f"{text:<60}// {address:012X}: {encoding}{tail}")
        index += size


#: (target, wave64) -> (first two dwords -> the instruction they start, or None when it is longer than two
#: dwords; first three dwords -> such an instruction): code repeats its encodings, and decoding one costs tens
#: of microseconds
_Cache = tuple[dict[tuple[int, int], "Text | Diagnostic | None"], dict[tuple[int, int, int], "Text | Diagnostic"]]
_CACHE: dict[tuple[str, bool], _Cache] = {}
_CACHE_LIMIT = 1 << 20


def _decoded(words: array[int], index: int, target: str, wave64: bool) -> Text | Diagnostic:
    """``decode_text`` of the instruction at ``words[index]``, remembered by its first two or three dwords: an
    instruction's length follows from its first two dwords (format, and source fields naming a literal), and its
    text from its own dwords (a two-dword key for a one-dword instruction is only more specific)."""
    caches = _CACHE.get((target, wave64))
    if caches is None or len(caches[0]) + len(caches[1]) > _CACHE_LIMIT:
        caches = _CACHE[(target, wave64)] = ({}, {})
    two, three = caches
    n = len(words)
    key = (words[index], words[index + 1] if index + 1 < n else -1)
    key3 = (*key, words[index + 2] if index + 2 < n else -1)
    if key in two:
        hit = two[key]
        if hit is not None:
            return hit
        if key3 in three:
            return three[key3]
    result = decode_text(words[index:index + 8], target, hardware=True, wave64=wave64)
    if result.size <= 8:
        two[key] = result
    elif result.size == 12:
        two[key] = None
        three[key3] = result
    return result


def _branch_comment(mnemonic: str, word: int, address: int, syms: list[tuple[int, str, str]]) -> str:
    """`` <symbol+0xOFFSET>`` for the branch target (SIMM16 dwords after the next instruction)."""
    simm = word & 0xFFFF
    target = address + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
    before = [s for s in syms if s[0] <= target]
    if not before:
        return ""
    sym_address, name, _kind = before[-1]
    return f" <{name}>" if target == sym_address else f" <{name}+0x{target - sym_address:x}>"
