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
from bisect import bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Protocol

from isalens import _core
from isalens.isa.amdgcn.decoder.shapes import FAMILIES, Shapes, shaped_text
from isalens.isa.amdgcn.decoder.tables import family_of, layout_of
from isalens.isa.amdgcn.decoder.text import Diagnostic, Text, decode_text
from isalens.isa.amdgcn.drafts import LABEL_RE, Draft, DraftInstruction, ReadResult

__all__ = ["Drafted", "Listing", "NotDecoded", "Section", "objdump_drafts", "objdump_listing"]

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
    for section, blocks in _walk(sections, target, wave64, symbols, notes):
        lines += ["", f"Disassembly of section {section.name}:"]
        for names, here, rows in blocks:
            lines.append("")
            lines += [f"{here:016x} <{x}>:" for x in names]
            for row in rows:
                if row is None:
                    lines.append("\t\t...")
                    continue
                address, (_result, text, _plain, words, branch, _size, _note) = row
                text = "\t" + text
                encoding = " ".join(f"{w:08X}" for w in words)
                tail = section.branch_comment(words[0], address) if branch else ""
                lines.append(f"{text:<60}// {address:012X}: {encoding}{tail}")
    return Listing("\n".join(lines) + "\n", notes)


#: one decoded instruction: (address, its cache entry); None for a ``\t\t...`` line
_Row = tuple[int, "_Entry"] | None
#: (the symbol names of a block's header lines, its address, its rows)
_Block = tuple[list[str], int, list[_Row]]


@dataclass(slots=True)
class _SectionWithSymbols:
    """A section with the symbols its listing uses (those inside it, a dummy one at its start when none is)."""

    name: str
    symbols: list[tuple[int, str, str]]
    #: the symbols a branch comment may name (:func:`_nearest`), made on first use
    chain: tuple[list[int], list[tuple[int, str, str]]] | None = None

    def branch_comment(self, word: int, address: int) -> str:
        if self.chain is None:
            self.chain = _nearest(self.symbols)
        return _branch_comment(word, address, self.chain)


def _walk(sections: Sequence[Section], target: str, wave64: bool, chosen: Collection[str] | None,
          notes: list[str]) -> list[tuple[_SectionWithSymbols, list[_Block]]]:
    """The sections objdump prints something for, each with its blocks: the one walk both the text
    (:func:`objdump_listing`) and the reader's drafts (:func:`objdump_drafts`) are written from."""
    out: list[tuple[_SectionWithSymbols, list[_Block]]] = []
    for section in sections:
        walked = _section(section, target, wave64, chosen, notes)
        if walked is not None:
            out.append(walked)
    return out


def _section(section: Section, target: str, wave64: bool, chosen: Collection[str] | None,
             notes: list[str]) -> tuple[_SectionWithSymbols, list[_Block]] | None:
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
    blocks: list[_Block] = []
    for n, here in enumerate(addresses):
        names = [s[1] for s in syms if s[0] == here]
        if chosen is not None:
            names = [x for x in names if x in chosen]
            if not names:
                continue
        stop = addresses[n + 1] if n + 1 < len(addresses) else end
        blocks.append((names, here, _block(words, (here - start) // 4, (stop - start) // 4, start, target, wave64,
                                           notes)))
    return (_SectionWithSymbols(section.name, syms), blocks) if blocks else None


def _block(words: array[int], index: int, stop: int, base: int, target: str, wave64: bool,
           notes: list[str]) -> list[_Row]:
    caches = _caches(target, wave64)
    # the walk (zero runs, the one- and two-dword caches, the instructions' lengths) is the core's loop, compiled
    # when built (docs/performance.md, eighteenth session); a miss decodes the instruction here
    rows, noted, reached = _core.cached_runs(words, index, stop, base, caches[0], caches[1],
                                             lambda at: _decoded(words, at, target, wave64, caches))
    for address in noted:
        notes.append(f"{address:#x}: {_decoded(words, (address - base) // 4, target, wave64, caches)[6]}")
    if reached < stop:  # an instruction the decoder has a diagnostic for, or one running past the section's end
        entry = _decoded(words, reached, target, wave64, caches)
        if not entry[5]:
            result = entry[0]
            assert isinstance(result, Diagnostic)
            raise NotDecoded(f"{result.reason} at {base + 4 * reached:#x}")
        raise NotDecoded(f"instruction at {base + 4 * reached:#x} runs past the section's end")
    return rows


#: a decoded instruction (or the decoder's diagnostic), its text, whether the ``objdump`` reader reads that text
#: back unchanged from a listing line (:func:`_reads_back`), its dwords, and whether it branches (a comment
#: naming the target follows it); then its length in dwords (0: a diagnostic) and its note ("" when none)
_Entry = tuple["Text | Diagnostic", str, bool, tuple[int, ...], bool, int, str]
#: (target, wave64) -> the instructions decoded so far: code repeats its encodings, and decoding one costs tens
#: of microseconds. Three dictionaries: one-dword instructions by their dword; the others by their first two
#: dwords (None there when the instruction is longer than two); those by their first three
_Cache = tuple[dict[int, "_Entry"], dict[tuple[int, int], "_Entry | None"], dict[tuple[int, int, int], "_Entry"]]
_CACHE: dict[tuple[str, bool], _Cache] = {}
_CACHE_LIMIT = 1 << 20


def _caches(target: str, wave64: bool) -> _Cache:
    caches = _CACHE.get((target, wave64))
    if caches is None or len(caches[0]) + len(caches[1]) + len(caches[2]) > _CACHE_LIMIT:
        caches = _CACHE[(target, wave64)] = ({}, {}, {})
        _SHAPES.pop((target, wave64), None)
    return caches


#: (target, wave64) -> (family, generation, the shapes of its encodings decoded so far) for a family whose
#: encodings are spelled by shape (:mod:`~isalens.isa.amdgcn.decoder.shapes`), None for another; emptied with
#: ``_CACHE``'s entry
_SHAPES: dict[tuple[str, bool], tuple[str, int, Shapes] | None] = {}


def _shaping(target: str, wave64: bool) -> tuple[str, int, Shapes] | None:
    key = (target, wave64)
    if key not in _SHAPES:
        family = family_of(target)
        if family is None or family not in FAMILIES:
            _SHAPES[key] = None
        else:
            layout = layout_of(family)
            generation = {"gfx8": 8}.get(family) or (9 if layout == "gfx9" else int(layout[3:]))
            _SHAPES[key] = (family, generation, {})
    return _SHAPES[key]


def _decoded(words: array[int], index: int, target: str, wave64: bool, caches: _Cache) -> _Entry:
    """``decode_text`` of the instruction at ``words[index]``, remembered by its dwords. A one-dword instruction
    depends on its dword alone: its format and length follow from it (a literal or a second dword would make it
    longer), and its text from its fields (``tests/unit/test_decoder_listing.py`` checks the decoder agrees with
    any next dword). A longer one's length follows from its first two dwords (format, and source fields naming a
    literal), and its text from its own dwords. ``caches``: ``_caches(target, wave64)``, looked up once per
    block by the caller."""
    one, two, three = caches
    first = words[index]
    hit = one.get(first)
    if hit is not None:
        return hit
    n = len(words)
    key = (first, words[index + 1] if index + 1 < n else -1)
    hit = two.get(key)
    if hit is not None:
        return hit
    key3 = (*key, words[index + 2] if index + 2 < n else -1)
    if key in two:
        found = three.get(key3)
        if found is not None:
            return found
    shaping = _shaping(target, wave64)
    result = decode_text(words[index:index + 8], target, hardware=True, wave64=wave64) if shaping is None \
        else shaped_text(words[index:index + 8], target, shaping[0], shaping[1], wave64, shaping[2])
    entry: _Entry
    if isinstance(result, Text):
        # the words its key holds (a hit elsewhere has the same ones): no slice per instruction
        entry = (result, result.text, _reads_back(result.text), tuple(words[index:index + result.size // 4]),
                 result.mnemonic in _BRANCHES, result.size // 4, result.note or "")
    else:
        entry = (result, "", False, (), False, 0, "")
    if result.size == 4 and isinstance(result, Text):  # a diagnostic may be about what follows (a literal cut off)
        one[first] = entry
    elif result.size <= 8:
        two[key] = entry
    elif result.size == 12:
        two[key] = None
        three[key3] = entry
    return entry


def _reads_back(text: str) -> bool:
    """Whether the ``objdump`` reader (``trailer_listing``) reads ``text`` back unchanged from its listing line
    (``\\tTEXT  // ADDR: WORDS``): it cuts a line at ``//`` and ``;``, strips it, skips comment-like lines and
    takes ``name:`` for a label. LLVM's spellings never do any of this; a text that did would be read from the
    listing itself (:func:`objdump_drafts` gives None)."""
    return bool(text) and text == text.strip() and "//" not in text and ";" not in text and "\n" not in text \
        and "\r" not in text and not text.startswith(("#", "Disassembly of")) and "file format" not in text \
        and LABEL_RE.match(text) is None


def _plain_name(name: str) -> bool:
    """Whether a symbol name prints on one listing line that the reader takes as objdump wrote it (a header
    ``ADDR <name>:``, a branch comment ``<name+0x8>``)."""
    return bool(name) and "\n" not in name and "\r" not in name and "file format" not in name and "//" not in name


_TEXT = attrgetter("text")


@dataclass(slots=True)
class Drafted:
    """What the ``objdump`` reader makes of a listing (``trailer_listing.read_trailer_listing`` after
    ``frontends.objdump.tidy``), made from the decoded instructions without writing and reading the text: the
    same drafts, lines numbered as in the text."""

    result: ReadResult
    notes: list[str]
    #: what the tidied text shows beside the instructions' texts, for :meth:`mentions`: its file-format and section
    #: lines (None: whichever functions are kept) and each function's name and branch comments (its draft's index)
    shown: list[tuple[int | None, str]]

    def mentions(self, needles: Collection[str]) -> bool:
        """Whether any of ``needles`` is in the tidied listing's text; a needle is a word of letters, digits and
        ``_`` holding a letter beyond a-f (so never inside an address or encoding word, which are hexadecimal)."""
        if any(n in x for n in needles for _, x in self.shown):
            return True
        if any("\n" in n for n in needles):
            return any(n in item.text for draft in self.result.drafts for item in draft.items for n in needles)
        # the instructions' texts joined by line breaks: a needle without one matches inside one text only. The
        # join iterates in C; a scan asks this of every pass's cut (2.8 M generator steps over a gfx1030 sample)
        texts = "\n".join(map(_TEXT, chain.from_iterable(draft.items for draft in self.result.drafts)))
        return any(n in texts for n in needles)

    def only(self, symbols: Collection[str]) -> Drafted:
        """The drafts of the text cut by ``frontends.objdump.only_functions``: the functions ``symbols`` alone
        (every other one blanked, line numbers kept)."""
        kept = [i for i, d in enumerate(self.result.drafts) if d.name in symbols]
        index = {old: new for new, old in enumerate(kept)}
        return Drafted(ReadResult([self.result.drafts[i] for i in kept]), self.notes,
                       [(None if owner is None else index[owner], x) for owner, x in self.shown
                        if owner is None or owner in index])


def objdump_drafts(sections: Sequence[Section], target: str, *, symbols: Collection[str] | None = None,
                   wave64: bool = False, extents: Mapping[str, tuple[int, int]] | None = None) -> Drafted | None:
    """The ``objdump`` reader's drafts of ``tidy(objdump_listing(...).text, extents)``, built straight from the
    decoded instructions (reading the text back cost as much as decoding it: docs/performance.md, issue 28);
    None when the text would not read back as written (a symbol name holding a line break, say), for the caller
    to read the text instead. Raises :class:`NotDecoded` as :func:`objdump_listing` does."""
    notes: list[str] = []
    walked = _walk(sections, target, wave64, symbols, notes)
    extents = extents or {}
    drafts: list[Draft] = []
    shown: list[tuple[int | None, str]] = [(None, "code-object.elf:\tfile format elf64-amdgpu")]
    line = 2  # the blank first line and the file-format line
    for section, blocks in walked:
        if not _plain_name(section.name) or not all(_plain_name(s[1]) for s in section.symbols):
            return None
        line += 2  # a blank line and "Disassembly of section NAME:"
        shown.append((None, f"Disassembly of section {section.name}:"))
        for block_names, here, rows in blocks:
            line += 1
            # tidy's rules, per header: a name starting with "." (the section's own dummy symbol) blanks the header
            # and the block; the last header's symbol size ends what is code (padding after it blanked)
            current: Draft | None = None
            for name in block_names:
                line += 1
                if not name.startswith("."):
                    current = Draft(name, line, base_address=here, is_kernel=True)
                    drafts.append(current)
                    shown.append((len(drafts) - 1, name))
            last = block_names[-1]
            extent = extents.get(last)
            end = extent[0] + extent[1] if extent and extent[1] else None
            if last.startswith(".") or current is None:
                line += len(rows)
                continue
            # the rows' loop is the core's (compiled when built; docs/performance.md, twentieth session)
            branches: list[tuple[int, int]] = []
            line = _core.draft_rows(rows, line, end, DraftInstruction, current.items, branches)
            if line < 0:
                return None
            owner = len(drafts) - 1
            shown += [(owner, section.branch_comment(word, address)) for address, word in branches]
    return Drafted(ReadResult(drafts), notes, shown)


def _nearest(syms: list[tuple[int, str, str]]) -> tuple[list[int], list[tuple[int, str, str]]]:
    """The symbols of ``syms`` that are below every later one (in list order), with their addresses: ascending.
    The last symbol of ``syms`` at or below an address is the last of these at or below it (every symbol after it
    is above the address, so it is below them all), found by bisection: a code object's thousands of branches
    scanned its hundreds of symbols each (1.0 s of cProfile time on 10 MB of librocsparse, twenty-first session)."""
    kept: list[tuple[int, str, str]] = []
    for s in reversed(syms):
        if not kept or s[0] < kept[-1][0]:
            kept.append(s)
    kept.reverse()
    return [s[0] for s in kept], kept


def _branch_comment(word: int, address: int, chain: tuple[list[int], list[tuple[int, str, str]]]) -> str:
    """`` <symbol+0xOFFSET>`` for the branch target (SIMM16 dwords after the next instruction), naming the last
    symbol (in the section's list order) at or below it; ``chain``: :func:`_nearest` of the section's symbols."""
    simm = word & 0xFFFF
    target = address + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
    at = bisect_right(chain[0], target)
    if not at:
        return ""
    sym_address, name, _kind = chain[1][at - 1]
    return f" <{name}>" if target == sym_address else f" <{name}+0x{target - sym_address:x}>"
