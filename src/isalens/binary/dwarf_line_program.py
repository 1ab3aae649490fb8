"""A small reader of ``.debug_line``: each unit's line program header (directories and files) and the rows its
state machine emits (DWARF 2-5, as LLVM writes them for AMDGPU).

Why our own: pyelftools decodes a line program one ``construct`` parse per opcode and copies its state per row,
a tenth of a scan of librocsparse's ``-g`` code objects (docs/performance.md). pyelftools is the oracle of this
module's tests (tests/oracle/test_dwarf_line_program.py) and still reads the inlining entries.

Layouts from the DWARF 5 standard, §6.2 (version 5) and DWARF 4 §6.2 (versions 2-4): the header (unit length,
version, for version 5 address and segment selector sizes, header length, minimum instruction length, for
version 4+ maximum operations per instruction, default ``is_stmt``, line base, line range, opcode base, the
standard opcodes' operand counts); the directories and files as NUL-ended strings before version 5, as entries
described by (content type, form) pairs in version 5 (``DW_LNCT_path`` 1, ``DW_LNCT_directory_index`` 2);
then the program: special opcodes (§6.2.5.1), standard opcodes 1-12 and extended opcodes (``DW_LNE_end_sequence``
1, ``set_address`` 2, ``define_file`` 3, ``set_discriminator`` 4). Rows are emitted, as pyelftools emits them, by
special opcodes, ``DW_LNS_copy`` and ``DW_LNE_end_sequence`` (which then resets the state).

Hostile files: every length, offset and operand is checked against the section (the helpers of
binary/dwarf_info.py); damage raises :class:`~isalens.binary.dwarf_info.DwarfFormatError`, one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from isalens import _core
from isalens.binary.dwarf_info import DwarfFormatError, line_program_offsets, read_sleb, read_uint, read_uleb
from isalens.binary.elf64 import Elf64

__all__ = ["LineProgram", "iter_line_programs"]

_LNCT_PATH, _LNCT_DIRECTORY_INDEX = 1, 2
# forms a version 5 header may use (DWARF 5 §6.2.4.1)
_FORM_BLOCK, _FORM_DATA1, _FORM_DATA2, _FORM_DATA4, _FORM_DATA8, _FORM_DATA16 = 0x09, 0x0B, 0x05, 0x06, 0x07, 0x1E
_FORM_STRING, _FORM_STRP, _FORM_UDATA, _FORM_LINE_STRP = 0x08, 0x0E, 0x0F, 0x1F
_FORM_STRX, _FORM_STRX1, _FORM_STRX2, _FORM_STRX3, _FORM_STRX4 = 0x1A, 0x25, 0x26, 0x27, 0x28
_FIXED = {_FORM_DATA1: 1, _FORM_DATA2: 2, _FORM_DATA4: 4, _FORM_DATA8: 8, _FORM_DATA16: 16}


@dataclass(frozen=True, slots=True)
class LineProgram:
    """One unit's line program: ``directories`` and ``files`` (name, directory index) as its header lists them,
    and its ``rows`` (address, file index, line, column, end of sequence) in program order; a ``version``
    outside 2-5 leaves the rest empty (the header's layout is unknown)."""

    version: int
    directories: tuple[str, ...]
    files: tuple[tuple[str, int], ...]
    rows: tuple[tuple[int, int, int, int, bool], ...]


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _cstring(data: bytes, at: int, end: int, what: str) -> tuple[bytes, int]:
    stop = data.find(b"\0", at, end)
    if stop < 0:
        raise DwarfFormatError(f"{what}: string at {at:#x} has no end")
    return data[at:stop], stop + 1


class _Strings:
    def __init__(self, elf: Elf64) -> None:
        self.str = _contents(elf, ".debug_str")
        self.line_str = _contents(elf, ".debug_line_str")

    def at(self, table: bytes, offset: int, what: str) -> bytes:
        if offset >= len(table):
            raise DwarfFormatError(f"{what}: string offset {offset:#x} lies past the end ({len(table):#x})")
        return _cstring(table, offset, len(table), what)[0]


def _contents(elf: Elf64, name: str) -> bytes:
    section = elf.section(name)
    return elf.contents(section) if section is not None else b""


def _entries(data: bytes, at: int, end: int, offset_size: int, strings: _Strings,
             what: str) -> tuple[list[tuple[str, int]], int]:
    """Version 5 directory or file entries at ``at``: (path, directory index) each."""
    count = read_uint(data, at, 1, end, what)
    at += 1
    formats = []
    for _ in range(count):
        kind, at = read_uleb(data, at, end, what)
        form, at = read_uleb(data, at, end, what)
        formats.append((kind, form))
    entries, at = read_uleb(data, at, end, what)
    if entries > end - at:  # every entry takes at least a byte: a count past that is damage, not a loop to run
        raise DwarfFormatError(f"{what}: {entries:,} entries in {end - at:,} bytes")
    out: list[tuple[str, int]] = []
    for _ in range(entries):
        path, index = "", 0
        for kind, form in formats:
            value: int | bytes
            if form == _FORM_STRING:
                value, at = _cstring(data, at, end, what)
            elif form in (_FORM_LINE_STRP, _FORM_STRP):
                offset = read_uint(data, at, offset_size, end, what)
                at += offset_size
                table = strings.line_str if form == _FORM_LINE_STRP else strings.str
                value = strings.at(table, offset, ".debug_line_str" if form == _FORM_LINE_STRP else ".debug_str")
            elif form == _FORM_UDATA:
                value, at = read_uleb(data, at, end, what)
            elif form in _FIXED:
                size = _FIXED[form]
                value = read_uint(data, at, size, end, what)
                at += size
            elif form == _FORM_BLOCK:
                length, at = read_uleb(data, at, end, what)
                if at + length > end:
                    raise DwarfFormatError(f"{what}: block of {length:,} bytes at {at:#x} runs past the header")
                value, at = data[at:at + length], at + length
            else:  # strx needs the unit's string offsets, which a header does not name
                raise DwarfFormatError(f"{what}: form {form:#x} in a file or directory entry is not read")
            if kind == _LNCT_PATH:
                if not isinstance(value, bytes):
                    raise DwarfFormatError(f"{what}: a path of form {form:#x}")
                path = _text(value)
            elif kind == _LNCT_DIRECTORY_INDEX and isinstance(value, int):
                index = value
        out.append((path, index))
    return out, at


def _program(data: bytes, offset: int, address_size: int, strings: _Strings) -> LineProgram:
    what = f".debug_line program at {offset:#x}"
    end = len(data)
    if offset >= end:
        raise DwarfFormatError(f"{what}: lies past the end of the section ({end:#x})")
    length = read_uint(data, offset, 4, end, what)
    at = offset + 4
    offset_size = 4
    if length == 0xFFFFFFFF:
        length = read_uint(data, at, 8, end, what)
        at += 8
        offset_size = 8
    unit_end = at + length
    if unit_end > end:
        raise DwarfFormatError(f"{what}: {length:,} bytes run past the end of the section ({end:#x})")
    version = read_uint(data, at, 2, unit_end, what)
    at += 2
    if not 2 <= version <= 5:
        return LineProgram(version, (), (), ())
    if version >= 5:
        at += 2  # address size, segment selector size (set_address's operand takes the unit's address size)
    header_length = read_uint(data, at, offset_size, unit_end, what)
    at += offset_size
    program_start = at + header_length
    if program_start > unit_end:
        raise DwarfFormatError(f"{what}: header of {header_length:,} bytes runs past the program's end")
    minimum_length = read_uint(data, at, 1, unit_end, what)
    at += 1
    max_ops = 1
    if version >= 4:
        max_ops = read_uint(data, at, 1, unit_end, what)
        at += 1
        if max_ops == 0:
            raise DwarfFormatError(f"{what}: maximum operations per instruction is 0")
    line_base = read_uint(data, at + 1, 1, unit_end, what)
    line_base -= 256 if line_base >= 128 else 0
    line_range = read_uint(data, at + 2, 1, unit_end, what)
    opcode_base = read_uint(data, at + 3, 1, unit_end, what)
    at += 4
    if line_range == 0:
        raise DwarfFormatError(f"{what}: line range is 0")
    if opcode_base == 0 or at + opcode_base - 1 > program_start:
        raise DwarfFormatError(f"{what}: opcode base {opcode_base} does not fit the header")
    operands = [0, *data[at:at + opcode_base - 1]]
    at += opcode_base - 1
    header_end = program_start
    if version >= 5:
        dirs, at = _entries(data, at, header_end, offset_size, strings, what)
        directories = tuple(path for path, _ in dirs)
        files, at = _entries(data, at, header_end, offset_size, strings, what)
    else:
        names: list[str] = []
        while True:
            raw, at = _cstring(data, at, header_end, what)
            if not raw:
                break
            names.append(_text(raw))
        directories = tuple(names)
        files = []
        while True:
            raw, at = _cstring(data, at, header_end, what)
            if not raw:
                break
            index, at = read_uleb(data, at, header_end, what)
            _mtime, at = read_uleb(data, at, header_end, what)
            _size, at = read_uleb(data, at, header_end, what)
            files.append((_text(raw), index))
    # the running core's state machine where it takes the program whole (the compiled one: most programs), else
    # the reference below, which also names any damage
    rows = _core.line_rows(data, program_start, unit_end, address_size, minimum_length, max_ops, line_base,
                           line_range, opcode_base, operands)
    if rows is None:
        rows = _run(data, program_start, unit_end, what, address_size, minimum_length, max_ops, line_base,
                    line_range, opcode_base, operands, files)
    return LineProgram(version, directories, tuple(files), tuple(rows))


def _run(data: bytes, at: int, end: int, what: str, address_size: int, minimum_length: int, max_ops: int,
         line_base: int, line_range: int, opcode_base: int, operands: list[int],
         files: list[tuple[str, int]]) -> list[tuple[int, int, int, int, bool]]:
    """The rows of the line program in ``data[at:end]`` (DWARF 5 §6.2.5; pyelftools' arithmetic: advance_pc and
    const_add_pc ignore the operation index, as it does)."""
    rows: list[tuple[int, int, int, int, bool]] = []
    address, op_index, file, line, column = 0, 0, 1, 1, 0  # is_stmt and the flags change no row a table keeps
    while at < end:
        opcode = data[at]
        at += 1
        if opcode >= opcode_base:
            adjusted = opcode - opcode_base
            advance = adjusted // line_range
            address += minimum_length * ((op_index + advance) // max_ops)
            op_index = (op_index + advance) % max_ops
            line += line_base + adjusted % line_range
            rows.append((address, file, line, column, False))
        elif opcode == 0:
            length, at = read_uleb(data, at, end, what)
            if length == 0 or at + length > end:
                raise DwarfFormatError(f"{what}: extended opcode of {length:,} bytes at {at:#x} runs past the end")
            sub = data[at]
            body, after = at + 1, at + length
            if sub == 1:  # end_sequence
                rows.append((address, file, line, column, True))
                address, op_index, file, line, column = 0, 0, 1, 1, 0
            elif sub == 2:  # set_address
                address = read_uint(data, body, address_size, end, what)
                op_index = 0
            elif sub == 3:  # define_file (before version 5): a file entry appended to the header's
                raw, position = _cstring(data, body, after, what)
                index, _ = read_uleb(data, position, after, what)
                files.append((_text(raw), index))
            at = after
        elif opcode == 1:  # copy
            rows.append((address, file, line, column, False))
        elif opcode == 2:  # advance_pc
            value, at = read_uleb(data, at, end, what)
            address += value * minimum_length
        elif opcode == 3:  # advance_line
            value, at = read_sleb(data, at, end, what)
            line += value
        elif opcode == 4:  # set_file
            file, at = read_uleb(data, at, end, what)
        elif opcode == 5:  # set_column
            column, at = read_uleb(data, at, end, what)
        elif opcode == 8:  # const_add_pc
            address += ((255 - opcode_base) // line_range) * minimum_length
        elif opcode == 9:  # fixed_advance_pc
            address += read_uint(data, at, 2, end, what)
            at += 2
            op_index = 0
        elif opcode in (6, 7, 10, 11):  # negate_stmt, set_basic_block, prologue_end, epilogue_begin
            pass
        elif opcode == 12:  # set_isa
            _isa, at = read_uleb(data, at, end, what)
        else:  # a standard opcode this reader does not know: skip its operands, as the header counts them
            for _ in range(operands[opcode]):
                _skipped, at = read_uleb(data, at, end, what)
    return rows


def iter_line_programs(elf: Elf64) -> Iterator[LineProgram]:
    """The line program of each unit of ``elf`` with a ``DW_AT_stmt_list``, in unit order; none without
    ``.debug_line``. Raises :class:`DwarfFormatError` when a section is damaged."""
    data = _contents(elf, ".debug_line")
    if not data:
        return
    strings = _Strings(elf)
    for offset, address_size in line_program_offsets(elf):
        yield _program(data, offset, address_size, strings)
