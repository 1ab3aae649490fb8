"""Which function each address of a code object belongs to, and the chain of call sites that inlined it: the
``DW_TAG_subprogram`` and nested ``DW_TAG_inlined_subroutine`` entries of ``.debug_info`` (DWARF 5 §3.3.8).
LLVM 19 writes them with ``-g`` and with ``-gline-tables-only`` alike (checked with ``llvm-dwarfdump-19
--debug-info``: the helpers of ``examples/kernels/source/inlined.cl`` appear as inlined subroutines with
``DW_AT_call_file``/``DW_AT_call_line`` under the kernel's subprogram).

Read with pyelftools. A function's name is as LLVM's symbolizer gives it: the demangled ``DW_AT_linkage_name`` (a
C++ function's, ``int clampv<int>(int, int, int)``), else ``DW_AT_name`` (C and OpenCL), on the entry itself or its
abstract origin or specification; its code is ``DW_AT_low_pc``/``DW_AT_high_pc`` or ``DW_AT_ranges``;
``DW_AT_call_file`` indexes the CU's line-table files. A C++ function's subprogram may sit in namespaces. Each
address takes the innermost entry covering it. A damaged entry is skipped and said once, never guessed.
"""

from __future__ import annotations

import bisect
import dataclasses
import io
from dataclasses import dataclass
from typing import Any

from elftools.dwarf.ranges import BaseAddressEntry, RangeEntry
from elftools.elf.elffile import ELFFile

from isalens.binary.dwarf_info import Spans, reaches
from isalens.binary.dwarf_lines import file_names
from isalens.errors import guarded
from isalens.ir.program import Kernel
from isalens.ir.source import Frame, SourceLoc
from isalens.names import demangled

__all__ = ["FrameRange", "attach_frames", "read_frames"]


@dataclass(frozen=True, slots=True)
class FrameRange:
    """Addresses ``low``..``high`` (exclusive) run the code of ``frame``, ``depth`` inlines deep (0: the
    function itself)."""

    low: int
    high: int
    depth: int
    frame: Frame


def _name(die: Any) -> str | None:
    plain: str | None = None
    for _ in range(4):  # the names may sit on the abstract origin or a specification, a step or two away
        for key in ("DW_AT_linkage_name", "DW_AT_MIPS_linkage_name"):
            attr = die.attributes.get(key)
            if attr is not None and isinstance(attr.value, bytes):
                return demangled(attr.value.decode("utf-8", "replace"))
        attr = die.attributes.get("DW_AT_name")
        if attr is not None and plain is None:
            value = attr.value
            plain = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        ref = next((a for a in ("DW_AT_abstract_origin", "DW_AT_specification") if a in die.attributes), None)
        if ref is None:
            return plain
        die = die.get_DIE_from_attribute(ref)
    return plain


#: entries whose children may hold a function's subprogram: C++ namespaces (clang writes a member function's
#: definition beside its class's, with DW_AT_specification naming the declaration inside the class: the types,
#: most of a template library's entries, need not be walked)
_CONTAINERS = frozenset({"DW_TAG_namespace", "DW_TAG_module"})
_BLOCKS = frozenset({"DW_TAG_lexical_block"})


def _found_through(die: Any, wanted: str, through: frozenset[str]) -> list[Any]:
    """The entries tagged ``wanted`` among ``die``'s children and inside the children tagged one of ``through``,
    at any depth (not inside the wanted ones)."""
    out = []
    open_ = [die]
    while open_:
        for child in open_.pop().iter_children():
            if child.tag == wanted:
                out.append(child)
            elif child.tag in through and len(open_) < _MAX_DEPTH:
                open_.append(child)
    return out


def _int(attr: Any) -> int | None:
    """An attribute's value when it is a number (a damaged form may give bytes or a list)."""
    value = None if attr is None else attr.value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ranges(die: Any, dwarf: Any, cu: Any, base: int) -> list[tuple[int, int]]:
    attrs = die.attributes
    low, high = _int(attrs.get("DW_AT_low_pc")), _int(attrs.get("DW_AT_high_pc"))
    if low is not None and high is not None:
        return [(low, high if attrs["DW_AT_high_pc"].form == "DW_FORM_addr" else low + high)]
    offset = _int(attrs.get("DW_AT_ranges"))
    if offset is None:
        return []
    out: list[tuple[int, int]] = []
    for entry in dwarf.range_lists().get_range_list_at_offset(offset, cu=cu) or ():
        if isinstance(entry, BaseAddressEntry):
            base = int(entry.base_address)
        elif isinstance(entry, RangeEntry):
            shift = 0 if entry.is_absolute else base
            out.append((int(entry.begin_offset) + shift, int(entry.end_offset) + shift))
    return out


#: inlining deeper than this is damage, not code (LLVM's inliner stops far earlier)
_MAX_DEPTH = 64


def read_frames(data: bytes, *, file: str, where: str, within: Spans | None = None
                ) -> tuple[list[FrameRange], list[str]]:
    """Every function's and inlined subroutine's address ranges with its frame, and what could not be read;
    ``within``: only the functions whose code reaches into these (low, high exclusive) address spans."""
    with guarded(file, f"{where}: DWARF inlined subroutines", code="dwarf"):
        elf = ELFFile(io.BytesIO(data))
        if not elf.has_dwarf_info() or elf.get_section_by_name(".debug_info") is None:
            return [], []
        dwarf = elf.get_dwarf_info(relocate_dwarf_sections=False)
        out: list[FrameRange] = []
        problems: list[str] = []
        for cu in dwarf.iter_CUs():
            top = cu.get_top_DIE()
            base = _int(top.attributes.get("DW_AT_low_pc")) or 0
            program = dwarf.line_program_for_CU(cu)
            names = file_names(program.header, int(program.header["version"])) if program is not None else []
            # (entry, call chain of its caller, depth): iterative, so a damaged tree cannot exhaust the stack
            work: list[tuple[Any, tuple[SourceLoc, ...], int]] = [
                (die, (), 0) for die in _found_through(top, "DW_TAG_subprogram", _CONTAINERS)]
            while work:
                die, chain, depth = work.pop()
                name = _name(die) or "?"
                if depth:  # an inlined subroutine: its call site goes in front of its caller's chain
                    site = _call_site(die, names)
                    if site is None:
                        problems.append(f"inlined '{name}' names no readable call site: its call chain is dropped")
                        continue
                    chain = (site, *chain)
                spans = _ranges(die, dwarf, cu, base)
                if not depth and within is not None and spans and not reaches(spans, within):
                    continue  # a function not asked for: its inlined subroutines are not walked
                out += [FrameRange(low, high, depth, Frame(name, chain)) for low, high in spans if low < high]
                if depth < _MAX_DEPTH:
                    work += [(child, chain, depth + 1) for child in _inlined_children(die)]
        return out, problems


def _call_site(die: Any, names: list[str]) -> SourceLoc | None:
    attrs = die.attributes
    index, line = _int(attrs.get("DW_AT_call_file")), _int(attrs.get("DW_AT_call_line"))
    if index is None or line is None or not 0 <= index < len(names):
        return None
    return SourceLoc(names[index], line, _int(attrs.get("DW_AT_call_column")) or 0)


def _inlined_children(die: Any) -> list[Any]:
    """The inlined subroutines directly called from ``die``'s code: its children, and those inside its lexical
    blocks (a block is a scope, not a call)."""
    return _found_through(die, "DW_TAG_inlined_subroutine", _BLOCKS)


def attach_frames(kernel: Kernel, ranges: list[FrameRange]) -> Kernel:
    """``kernel`` with each instruction's innermost frame (by address); code no range covers is the kernel's
    own (``-gline-tables-only`` writes no subprogram entry for a function that inlines nothing: LLVM's
    symbolizer then names the ELF symbol, which is the kernel's name). Unchanged without a line table."""
    ins = kernel.instructions
    if not ins or ins[0].address is None or not kernel.source.locs:
        return kernel
    addresses = [i.address if i.address is not None else -1 for i in ins]
    own = Frame(demangled(kernel.name))  # as the symbolizer names an ELF symbol
    frames: list[Frame] = [own] * len(ins)
    # only the ranges reaching into the kernel's addresses (the others cover no instruction of it): a code object
    # of a library holds ten thousand ranges and a hundred kernels, each looked up by two bisections per kernel
    lo, hi = min(addresses), max(addresses)
    inside = [r for r in ranges if r.high > lo and r.low <= hi]
    for r in sorted(inside, key=lambda r: r.depth):  # deeper ranges overwrite their callers'
        start = bisect.bisect_left(addresses, r.low)
        end = bisect.bisect_left(addresses, r.high)
        # the function itself is named by its symbol, as the symbolizer does (-gline-tables-only gives a C++
        # function's entry only its short name, "blur" for img::blur(float const*, float*, int))
        frames[start:end] = [r.frame if r.depth else own] * (end - start)
    return dataclasses.replace(kernel, source=dataclasses.replace(kernel.source, frames=tuple(frames)))
