"""The DWARF line table of a code object built with ``-g`` or ``-gline-tables-only``: address -> source line.

Read with our own line-program reader (binary/dwarf_line_program.py; DWARF 2-5; LLVM 19 writes version 5, whose file
entries carry a directory index into the directory list: DWARF 5 §6.2.4). Each row of a sequence covers the
addresses up to the next row; the ``end_sequence`` row ends it. Nothing here assumes the table is sane: rows outside
the sequence, file indices out of range and absent sections are reported as problems, never guessed.
"""

from __future__ import annotations

import bisect
import dataclasses
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from isalens.binary.dwarf_info import DwarfFormatError
from isalens.binary.dwarf_line_program import iter_line_programs
from isalens.binary.elf64 import Elf64, ElfFormatError
from isalens.errors import InputError
from isalens.ir.program import Kernel
from isalens.ir.source import SourceLoc, SourceMap, carry_forward

__all__ = ["LineTable", "attach_line_kind", "attach_line_table", "file_names", "joined_names", "read_line_table"]


@dataclass(frozen=True, slots=True)
class LineTable:
    """Sorted rows ``(start address, end address, location)``; ``problems`` says what was dropped."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]
    locs: tuple[SourceLoc, ...]
    problems: tuple[str, ...] = ()

    def lookup(self, address: int) -> SourceLoc | None:
        """The location whose row covers ``address`` (a line of 0 means "no line"), or None."""
        i = bisect.bisect_right(self.starts, address) - 1
        if i >= 0 and address < self.ends[i]:
            return self.locs[i]
        return None

    def __bool__(self) -> bool:
        return bool(self.starts)


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def file_names(header: object, version: int) -> list[str]:
    """Full paths of a pyelftools line program header's file entries, by index (binary/dwarf_inlines.py)."""
    entries = [(_text(e.name), int(e.dir_index)) for e in header["file_entry"] or ()]  # type: ignore[index]
    dirs = [_text(d) for d in header["include_directory"] or ()]  # type: ignore[index]
    return joined_names(dirs, entries, version)


def joined_names(dirs: Sequence[str], entries: Sequence[tuple[str, int]], version: int) -> list[str]:
    """Full paths of a line program's file entries (name, directory index), by index (DWARF 5 counts from 0,
    earlier from 1)."""
    names: list[str] = [] if version >= 5 else [""]
    # DWARF 5: directory 0 is the compilation directory, and the others may be relative to it
    base = dirs[0] if version >= 5 and dirs else ""
    for name, index in entries:
        if version < 5:
            index -= 1  # DWARF 2-4: directory 0 is the compilation directory, not in the list
        if not posixpath.isabs(name) and 0 <= index < len(dirs):
            name = posixpath.join(dirs[index], name)
        if not posixpath.isabs(name) and base:
            name = posixpath.join(base, name)
        names.append(posixpath.normpath(name))
    return names


def read_line_table(data: bytes, *, file: str, where: str) -> LineTable:
    """The line table of the code object ``data``; empty when it has no ``.debug_line``."""
    rows: list[tuple[int, int, SourceLoc]] = []
    problems: list[str] = []
    try:
        for program in iter_line_programs(Elf64(data)):
            if not 2 <= program.version <= 5:
                problems.append(f"line table version {program.version} is not DWARF 2-5: its rows are left out")
                continue
            names = joined_names(program.directories, program.files, program.version)
            # one SourceLoc per distinct (file, line, column) of the program: its rows repeat them (librocsparse's
            # code objects: ~128,000 rows in 15), and making a frozen dataclass costs more than finding it
            made: dict[tuple[int, int, int], SourceLoc] = {}
            pending: tuple[int, SourceLoc] | None = None
            for address, index, line, column, end_sequence in program.rows:
                if pending is not None and address >= pending[0]:
                    rows.append((pending[0], address, pending[1]))
                elif pending is not None:
                    problems.append(f"line table row at {address:#x} goes back from {pending[0]:#x}")
                pending = None
                if end_sequence:
                    continue
                if not 0 <= index < len(names):
                    problems.append(f"line table row at {address:#x} names file {index}, which the table does "
                                    "not list")
                    continue
                loc = made.get((index, line, column))
                if loc is None:
                    loc = made[index, line, column] = SourceLoc(names[index], line, column)
                pending = (address, loc)
    except (DwarfFormatError, ElfFormatError) as exc:
        raise InputError(f"{where}: DWARF line table: damaged ({exc})", file=file, code="dwarf") from None
    rows.sort(key=lambda r: r[0])
    return LineTable(tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
                     tuple(problems))


def attach_line_table(kernel: Kernel, table: LineTable) -> Kernel:
    """``kernel`` with its source map from ``table`` by instruction address (line 0 carried forward as
    :mod:`isalens.ir.source` says); unchanged when the table is empty or the instructions have no addresses."""
    if not table or not kernel.instructions or kernel.instructions[0].address is None:
        return kernel
    locs = carry_forward([table.lookup(ins.address) if ins.address is not None else None
                          for ins in kernel.instructions])
    files = tuple(dict.fromkeys(loc.file for loc in locs if loc is not None))
    kind = "lines" if files else "none"
    return dataclasses.replace(kernel, source=SourceMap(tuple(locs), kind, "dwarf", files))


def attach_line_kind(kernel: Kernel, table: LineTable) -> Kernel:
    """``kernel`` with only the ``debug_info`` kind :func:`attach_line_table` gives it (``lines`` when some
    instruction has a line other than 0, else ``none``) and no per-instruction locations: a scan's row shows
    that kind and no source line (its ``source_lines`` list is left out). Stops at the first instruction with
    a line: a kernel of a -g code object had a ``SourceLoc`` lookup per instruction before."""
    if not table or not kernel.instructions or kernel.instructions[0].address is None:
        return kernel
    lookup = table.lookup
    kind = "none"
    for ins in kernel.instructions:
        # carry_forward keeps a location exactly when it, or one before it, has a line other than 0
        if ins.address is not None and (loc := lookup(ins.address)) is not None and loc.line != 0:
            kind = "lines"
            break
    return dataclasses.replace(kernel, source=SourceMap((), kind, "dwarf"))
