"""A small reader of a code object's ``.debug_info``: the named variables and parameters that have a location,
with the address ranges and DWARF expressions of that location (DWARF 2-5, as LLVM writes them for AMDGPU).

Why our own: pyelftools parses every attribute of every DIE through its ``construct`` structs, which was a third
of a scan of librocsparse's ``-g`` code objects (docs/performance.md). A row needs only the variables' locations,
so this walk decodes the attributes of the DIEs that matter (variables, parameters and the scopes around them) and
skips the rest by the sizes their forms give; it also finds each unit's line program for
binary/dwarf_line_program.py. pyelftools still reads the inlining entries (binary/dwarf_inlines.py) and is the
oracle of this module's tests.

Layouts from the DWARF 5 standard (dwarfstd.org, "DWARF Debugging Information Format Version 5"):

* unit header (§7.5.1): ``unit_length`` (4 bytes, or 0xffffffff and 8 for DWARF64), u16 version; version 5:
  u8 unit_type, u8 address_size, the abbreviation offset (offset-sized), then an 8-byte id for skeleton and split
  units, an 8-byte signature and a type offset for type units; versions 2-4: the abbreviation offset, then u8
  address_size;
* abbreviations (§7.5.3): code, tag (ULEB128), u8 children flag, then (attribute, form) ULEB128 pairs ending in
  (0, 0), ``DW_FORM_implicit_const`` followed by its SLEB128 value; a code of 0 ends the table;
* attribute forms and their sizes (§7.5.5, table 7.6); the string, address and location-list indices of
  ``DW_FORM_strx*``, ``DW_FORM_addrx*`` and ``DW_FORM_loclistx`` go through the unit's ``DW_AT_str_offsets_base``,
  ``DW_AT_addr_base`` and ``DW_AT_loclists_base`` (§7.26, §7.27, §7.29);
* location lists: ``.debug_loclists`` entries (§7.7.3, ``DW_LLE_*`` 0-8) for version 5, ``.debug_loc`` address
  pairs (DWARF 4 §2.6.2: a pair of zeros ends a list, a first address of all ones selects a base) before;
* a scope's ``DW_AT_ranges`` (§2.17.3): ``.debug_rnglists`` entries (§7.25, ``DW_RLE_*`` 0-7; ``DW_FORM_rnglistx``
  through ``DW_AT_rnglists_base``) for version 5, ``.debug_ranges`` address pairs (as ``.debug_loc``'s, without
  expressions) before.

The values are those pyelftools gives (a location list's offsets relative to the unit's base address unless the
entry is absolute); a single expression covers the address ranges of the innermost enclosing scope that has any
(``DW_AT_low_pc`` and ``DW_AT_high_pc``, or ``DW_AT_ranges``: LLVM gives a lexical block split by code motion a
range list). One difference, on purpose: a ``DW_AT_high_pc`` of an address form (``DW_FORM_addrx``) is the
end address, as §2.17.2 says, where pyelftools would add it to the low address (LLVM writes ``DW_FORM_data4``).

Hostile files (issue 25): every offset, length and count is checked against its section before it is used, and a
check that fails raises :class:`DwarfFormatError` (a ``ValueError``) saying what is damaged; the callers name the
file. A damaged location list costs only its variable (a problem line), not the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field

from isalens.binary.elf64 import Elf64

__all__ = ["DwarfFormatError", "Spans", "VariableLocation", "iter_variable_locations", "line_program_offsets",
           "reaches", "read_sleb", "read_uint", "read_uleb"]


class DwarfFormatError(ValueError):
    """The DWARF sections are damaged; the message says where."""


@dataclass(frozen=True, slots=True)
class VariableLocation:
    """A named ``DW_TAG_variable``/``DW_TAG_formal_parameter`` and where it lives: ``spans`` of (low address, high
    address exclusive, DWARF expression); ``problem``: why its location list could not be read (then no spans)."""

    name: str
    spans: tuple[tuple[int, int, bytes], ...]
    problem: str | None = None
    #: the ``.debug_info`` offset of the outermost ``DW_TAG_subprogram`` it lies in (its function; a C++ function's
    #: may sit in namespaces and classes), -1 outside any
    function: int = -1


_TAG_FORMAL_PARAMETER, _TAG_VARIABLE, _TAG_SUBPROGRAM = 0x05, 0x34, 0x2E
_AT_LOCATION, _AT_NAME, _AT_STMT_LIST, _AT_LOW_PC, _AT_HIGH_PC = 0x02, 0x03, 0x10, 0x11, 0x12
_AT_STR_OFFSETS_BASE, _AT_ADDR_BASE, _AT_LOCLISTS_BASE = 0x72, 0x73, 0x8C
_AT_RANGES, _AT_RNGLISTS_BASE, _AT_ABSTRACT_ORIGIN = 0x55, 0x74, 0x31
_WANTED = frozenset({_AT_LOCATION, _AT_NAME, _AT_STMT_LIST, _AT_LOW_PC, _AT_HIGH_PC, _AT_STR_OFFSETS_BASE,
                     _AT_ADDR_BASE, _AT_LOCLISTS_BASE, _AT_RANGES, _AT_RNGLISTS_BASE, _AT_ABSTRACT_ORIGIN})

# forms (§7.5.6, table 7.6) and the GNU extensions pyelftools also knows
_ADDR, _BLOCK2, _BLOCK4, _DATA2, _DATA4, _DATA8, _STRING, _BLOCK, _BLOCK1, _DATA1 = (
    0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B)
_FLAG, _SDATA, _STRP, _UDATA, _REF_ADDR, _REF1, _REF2, _REF4, _REF8, _REF_UDATA = (
    0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15)
_INDIRECT, _SEC_OFFSET, _EXPRLOC, _FLAG_PRESENT, _STRX, _ADDRX, _REF_SUP4, _STRP_SUP, _DATA16, _LINE_STRP = (
    0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F)
_REF_SIG8, _IMPLICIT_CONST, _LOCLISTX, _RNGLISTX, _REF_SUP8 = 0x20, 0x21, 0x22, 0x23, 0x24
_STRX1, _STRX2, _STRX3, _STRX4, _ADDRX1, _ADDRX2, _ADDRX3, _ADDRX4 = range(0x25, 0x2D)
_GNU_ADDR_INDEX, _GNU_STR_INDEX, _GNU_REF_ALT, _GNU_STRP_ALT = 0x1F01, 0x1F02, 0x1F20, 0x1F21

_STRX_FORMS = frozenset({_STRX, _STRX1, _STRX2, _STRX3, _STRX4, _GNU_STR_INDEX})
_ADDRX_FORMS = frozenset({_ADDRX, _ADDRX1, _ADDRX2, _ADDRX3, _ADDRX4, _GNU_ADDR_INDEX})
_LEB_FORMS = frozenset({_UDATA, _REF_UDATA, _STRX, _ADDRX, _LOCLISTX, _RNGLISTX, _GNU_ADDR_INDEX, _GNU_STR_INDEX})
_BLOCK_FORMS = frozenset({_BLOCK, _BLOCK1, _BLOCK2, _BLOCK4})
#: forms whose value is one LEB128 and nothing more (what a skipped DIE passes over without decoding)
_LEB_SKIPPED = _LEB_FORMS | {_SDATA}
_CONSTANT_SIZES = {_DATA1: 1, _DATA2: 2, _DATA4: 4, _DATA8: 8, _FLAG: 1, _REF1: 1, _REF2: 2, _REF4: 4, _REF8: 8,
                   _REF_SUP4: 4, _DATA16: 16, _REF_SIG8: 8, _REF_SUP8: 8, _FLAG_PRESENT: 0, _IMPLICIT_CONST: 0,
                   _STRX1: 1, _STRX2: 2, _STRX3: 3, _STRX4: 4, _ADDRX1: 1, _ADDRX2: 2, _ADDRX3: 3, _ADDRX4: 4}
_OFFSET_FORMS = frozenset({_STRP, _SEC_OFFSET, _STRP_SUP, _LINE_STRP, _GNU_REF_ALT, _GNU_STRP_ALT})
#: a LEB128 longer than this many bytes is damage (LLVM writes at most 10 for a 64-bit value)
_LEB_LIMIT = 16
_INDIRECT_LIMIT = 4

# location list entries (§7.7.3)
_LLE_END, _LLE_BASE_ADDRESSX, _LLE_STARTX_ENDX, _LLE_STARTX_LENGTH, _LLE_OFFSET_PAIR = 0, 1, 2, 3, 4
_LLE_DEFAULT, _LLE_BASE_ADDRESS, _LLE_START_END, _LLE_START_LENGTH = 5, 6, 7, 8
#: range list entries (§7.25, ``DW_RLE_*`` 0-7) as the location list entries of the same meaning: a range list is
#: a location list without expressions and without a default entry
_RLE_AS_LLE = {0: _LLE_END, 1: _LLE_BASE_ADDRESSX, 2: _LLE_STARTX_ENDX, 3: _LLE_STARTX_LENGTH, 4: _LLE_OFFSET_PAIR,
               5: _LLE_BASE_ADDRESS, 6: _LLE_START_END, 7: _LLE_START_LENGTH}
#: a scope's address ranges, (low, high exclusive) each
_Ranges = tuple[tuple[int, int], ...]
#: address spans a caller wants, (low, high exclusive) each
Spans = tuple[tuple[int, int], ...]


def reaches(ranges: Iterable[tuple[int, int]], within: Spans) -> bool:
    """Whether any of ``ranges`` overlaps any of the spans ``within`` (each (low, high exclusive))."""
    return any(low < end and start < high for low, high in ranges for start, end in within)


class _RangeList:
    """A scope's ``DW_AT_ranges``, read when a variable first needs it (a library's -g code object has tens of
    thousands of lexical blocks and inlined calls with range lists, most holding no variable of one location)."""

    __slots__ = ("form", "ranges", "value")

    def __init__(self, form: int, value: int) -> None:
        self.form, self.value = form, value
        self.ranges: _Ranges | None = None


def _uleb(data: bytes, at: int, end: int, what: str) -> tuple[int, int]:
    value = shift = 0
    start = at
    while True:
        if at >= end:
            raise DwarfFormatError(f"{what}: LEB128 at {start:#x} runs past the end ({end:#x})")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if at - start >= _LEB_LIMIT:
            raise DwarfFormatError(f"{what}: LEB128 at {start:#x} longer than {_LEB_LIMIT} bytes")


def _sleb(data: bytes, at: int, end: int, what: str) -> tuple[int, int]:
    start = at
    value, at = _uleb(data, at, end, what)
    bits = 7 * (at - start)
    return (value - (1 << bits) if value >> (bits - 1) & 1 else value), at


def _int(data: bytes, at: int, size: int, end: int, what: str) -> int:
    if at + size > end:
        raise DwarfFormatError(f"{what}: {size} bytes at {at:#x} run past the end ({end:#x})")
    return int.from_bytes(data[at:at + size], "little")


@dataclass(frozen=True, slots=True)
class _Abbrev:
    tag: int
    children: bool
    #: (attribute, form, implicit constant) in order
    attributes: tuple[tuple[int, int, int], ...]


def _abbrev_table(data: bytes, offset: int) -> dict[int, _Abbrev]:
    what = ".debug_abbrev"
    if offset >= len(data):
        raise DwarfFormatError(f"{what}: a unit's abbreviations at {offset:#x} lie past the end ({len(data):#x})")
    end = len(data)
    table: dict[int, _Abbrev] = {}
    at = offset
    while True:
        code, at = _uleb(data, at, end, what)
        if code == 0:
            return table
        tag, at = _uleb(data, at, end, what)
        if at >= end:
            raise DwarfFormatError(f"{what}: abbreviation {code} at {at:#x} is cut short")
        children = data[at] != 0
        at += 1
        attributes: list[tuple[int, int, int]] = []
        while True:
            name, at = _uleb(data, at, end, what)
            form, at = _uleb(data, at, end, what)
            if name == 0 and form == 0:
                break
            implicit = 0
            if form == _IMPLICIT_CONST:
                implicit, at = _sleb(data, at, end, what)
            attributes.append((name, form, implicit))
        table[code] = _Abbrev(tag, children, tuple(attributes))


@dataclass(slots=True)
class _Unit:
    offset: int
    end: int
    version: int
    offset_size: int
    address_size: int
    dies: int  # where the first DIE starts
    abbrevs: dict[int, _Abbrev]
    #: per abbreviation code: the plan of skips (a size >= 0, or -form for a form of varying size), or None when
    #: the DIE's attributes are decoded
    plans: dict[int, list[int] | None]
    #: per abbreviation code of a DIE that is decoded: its attribute reads (:meth:`_Reader._reads`)
    reads: dict[int, tuple[list[tuple[int, int, int, int, bool]], int]] = field(default_factory=dict)
    str_offsets_base: int | None = None
    addr_base: int | None = None
    loclists_base: int | None = None
    rnglists_base: int | None = None
    base: int = 0


class _Reader:
    """The sections of one ELF and the walk over its units."""

    def __init__(self, elf: Elf64) -> None:
        self.info = self._section(elf, ".debug_info")
        self.abbrev = self._section(elf, ".debug_abbrev")
        self.strings = self._section(elf, ".debug_str")
        self.line_strings = self._section(elf, ".debug_line_str")
        self.str_offsets = self._section(elf, ".debug_str_offsets")
        self.addresses = self._section(elf, ".debug_addr")
        self.loclists = self._section(elf, ".debug_loclists")
        self.loc = self._section(elf, ".debug_loc")
        self.rnglists = self._section(elf, ".debug_rnglists")
        self.ranges = self._section(elf, ".debug_ranges")
        self._abbrev_tables: dict[int, dict[int, _Abbrev]] = {}
        #: (unit offset, DIE offset in the unit) -> the name of an abstract origin
        self._origin_names: dict[tuple[int, int], bytes | None] = {}

    @staticmethod
    def _section(elf: Elf64, name: str) -> bytes:
        section = elf.section(name)
        return elf.contents(section) if section is not None else b""

    # -- units ---------------------------------------------------------------------------------------------------

    def units(self) -> Iterator[_Unit]:
        data = self.info
        at = 0
        while at < len(data):
            start = at
            length = _int(data, at, 4, len(data), ".debug_info unit header")
            at += 4
            offset_size = 4
            if length == 0xFFFFFFFF:
                length = _int(data, at, 8, len(data), ".debug_info unit header")
                at += 8
                offset_size = 8
            elif length >= 0xFFFFFFF0:
                raise DwarfFormatError(f".debug_info: unit at {start:#x} has the reserved length {length:#x}")
            end = at + length
            if end > len(data):
                raise DwarfFormatError(f".debug_info: unit at {start:#x} ({length:,} bytes) runs past the end of the "
                                       f"section ({len(data):#x})")
            what = f".debug_info unit at {start:#x}"
            version = _int(data, at, 2, end, what)
            at += 2
            if version >= 5:
                unit_type = _int(data, at, 1, end, what)
                address_size = _int(data, at + 1, 1, end, what)
                abbrev_offset = _int(data, at + 2, offset_size, end, what)
                at += 2 + offset_size
                if unit_type in (4, 5):  # skeleton, split compile: a DWO id
                    at += 8
                elif unit_type in (2, 6):  # type, split type: a signature and a type offset
                    at += 8 + offset_size
            else:
                abbrev_offset = _int(data, at, offset_size, end, what)
                address_size = _int(data, at + offset_size, 1, end, what)
                at += offset_size + 1
            if not 2 <= version <= 5:
                raise DwarfFormatError(f"{what}: DWARF version {version} is not read (2-5 are)")
            if address_size not in (1, 2, 4, 8):
                raise DwarfFormatError(f"{what}: address size {address_size}")
            if at > end:
                raise DwarfFormatError(f"{what}: the header runs past the unit's end")
            abbrevs = self._abbrev_tables.get(abbrev_offset)
            if abbrevs is None:
                abbrevs = self._abbrev_tables[abbrev_offset] = _abbrev_table(self.abbrev, abbrev_offset)
            yield _Unit(start, end, version, offset_size, address_size, at, abbrevs, {})
            at = end

    def _plan(self, unit: _Unit, code: int) -> list[int] | None:
        abbrev = unit.abbrevs.get(code)
        if abbrev is None:
            raise DwarfFormatError(f".debug_info unit at {unit.offset:#x}: abbreviation code {code} is not in its "
                                   f"table")
        # decoded: a variable with a location and a name (its own, or its abstract origin's: the copy of an inlined
        # helper's variable), a parent with a pc range of its own; skipped: any other variable, any other parent
        # (its children's scope is the one around it)
        plan: list[int] | None
        names = {name for name, _form, _implicit in abbrev.attributes}
        variable = abbrev.tag in (_TAG_VARIABLE, _TAG_FORMAL_PARAMETER) and _AT_LOCATION in names \
            and (_AT_NAME in names or _AT_ABSTRACT_ORIGIN in names)
        if variable or (abbrev.children and ({_AT_LOW_PC, _AT_HIGH_PC} <= names or _AT_RANGES in names)):
            plan = None
        else:
            plan = []
            for _name, form, _implicit in abbrev.attributes:
                size = self._fixed_size(unit, form)
                if size is None:
                    plan.append(-form)
                elif plan and plan[-1] >= 0:
                    plan[-1] += size
                else:
                    plan.append(size)
        unit.plans[code] = plan
        return plan

    @staticmethod
    def _fixed_size(unit: _Unit, form: int) -> int | None:
        size = _CONSTANT_SIZES.get(form)
        if size is not None:
            return size
        if form == _ADDR:
            return unit.address_size
        if form in _OFFSET_FORMS or (form == _REF_ADDR and unit.version >= 3):
            return unit.offset_size
        if form == _REF_ADDR:
            return unit.address_size  # DWARF 2's DW_FORM_ref_addr is address-sized
        return None

    def _value(self, unit: _Unit, at: int, form: int, implicit: int, depth: int = 0) -> tuple[int | bytes, int]:
        """(raw value, next offset) of one attribute: an integer, or the bytes of a string, block or expression."""
        data, end = self.info, unit.end
        what = f".debug_info unit at {unit.offset:#x}"
        size = self._fixed_size(unit, form)
        if size is not None:
            if form == _IMPLICIT_CONST:
                return implicit, at
            if form == _FLAG_PRESENT:
                return 1, at
            return _int(data, at, size, end, what), at + size
        if form in _LEB_FORMS:
            return _uleb(data, at, end, what)
        if form == _SDATA:
            return _sleb(data, at, end, what)
        if form == _STRING:
            stop = data.find(b"\0", at, end)
            if stop < 0:
                raise DwarfFormatError(f"{what}: string at {at:#x} has no end")
            return data[at:stop], stop + 1
        if form in _BLOCK_FORMS or form == _EXPRLOC:
            if form == _BLOCK1:
                length, at = _int(data, at, 1, end, what), at + 1
            elif form == _BLOCK2:
                length, at = _int(data, at, 2, end, what), at + 2
            elif form == _BLOCK4:
                length, at = _int(data, at, 4, end, what), at + 4
            else:
                length, at = _uleb(data, at, end, what)
            if at + length > end:
                raise DwarfFormatError(f"{what}: block of {length:,} bytes at {at:#x} runs past the unit's end")
            return data[at:at + length], at + length
        if form == _INDIRECT:
            if depth >= _INDIRECT_LIMIT:
                raise DwarfFormatError(f"{what}: DW_FORM_indirect nested more than {_INDIRECT_LIMIT} deep")
            real, at = _uleb(data, at, end, what)
            return self._value(unit, at, real, implicit, depth + 1)
        raise DwarfFormatError(f"{what}: attribute form {form:#x} is not a DWARF 5 form")

    def _reads(self, unit: _Unit, code: int) -> tuple[list[tuple[int, int, int, int, bool]], int]:
        """How to read the attributes of a DIE that is decoded: (bytes of fixed-size attributes not wanted to
        skip first, attribute, form, implicit constant, wanted) for each attribute that is wanted or of varying
        size, and the fixed-size bytes after the last (a DIE's type, file and line references are skipped
        without decoding them; the DIE's end is checked against its unit's after the walk)."""
        steps: list[tuple[int, int, int, int, bool]] = []
        skip = 0
        for name, form, implicit in unit.abbrevs[code].attributes:
            wanted = name in _WANTED
            size = self._fixed_size(unit, form)
            if size is not None and not wanted:
                skip += size
                continue
            steps.append((skip, name, form, implicit, wanted))
            skip = 0
        unit.reads[code] = (steps, skip)
        return steps, skip

    def _skip(self, unit: _Unit, at: int, plan: list[int]) -> int:
        # most DIEs a walk passes are skipped (librocsparse's gfx1030 -g code objects: ~190,000 skipped for 156
        # variables found); the attributes of varying size in their plans are nearly all LEB128s (loclistx,
        # rnglistx, addrx, udata, sdata) and expression blocks, passed over here without decoding their values.
        # Anything that would run past the unit's end, or a LEB128 past _LEB_LIMIT bytes, is read by _value
        # from where it starts, which raises the error it always raised
        data, end = self.info, unit.end
        for step in plan:
            if step >= 0:
                at += step
                continue
            form = -step
            if form in _LEB_SKIPPED:
                start = at
                while at < end and data[at] >= 0x80 and at - start < _LEB_LIMIT:
                    at += 1
                if at < end and at - start < _LEB_LIMIT:  # data[at] < 0x80: the last byte
                    at += 1
                    continue
                at = start
            elif form == _EXPRLOC:
                start = at
                length = shift = 0
                ended = False
                while at < end and at - start < _LEB_LIMIT:  # the block's length, a LEB128
                    byte = data[at]
                    at += 1
                    length |= (byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80:
                        ended = True
                        break
                if ended and at + length <= end:
                    at += length
                    continue
                at = start
            at = self._value(unit, at, form, 0)[1]
        return at

    # -- what the values mean ------------------------------------------------------------------------------------

    def _string(self, unit: _Unit, form: int, value: int | bytes) -> bytes | None:
        if isinstance(value, bytes):
            return value if form == _STRING else None
        if form == _STRP:
            return _cstring(self.strings, value, ".debug_str")
        if form == _LINE_STRP:
            return _cstring(self.line_strings, value, ".debug_line_str")
        if form in _STRX_FORMS:
            if unit.str_offsets_base is None:
                raise DwarfFormatError(f".debug_info unit at {unit.offset:#x}: a string index without "
                                       f"DW_AT_str_offsets_base")
            at = unit.str_offsets_base + value * unit.offset_size
            offset = _int(self.str_offsets, at, unit.offset_size, len(self.str_offsets), ".debug_str_offsets")
            return _cstring(self.strings, offset, ".debug_str")
        return None

    def _address(self, unit: _Unit, form: int, value: int | bytes) -> int | None:
        if isinstance(value, bytes):
            return None
        if form in _ADDRX_FORMS:
            return self._indexed_address(unit, value)
        return value

    def _indexed_address(self, unit: _Unit, index: int) -> int:
        if unit.addr_base is None:
            raise DwarfFormatError(f".debug_info unit at {unit.offset:#x}: an address index without DW_AT_addr_base")
        at = unit.addr_base + index * unit.address_size
        return _int(self.addresses, at, unit.address_size, len(self.addresses), ".debug_addr")

    # -- the walk ------------------------------------------------------------------------------------------------

    def variables(self, done: Container[int] = (), within: Spans | None = None) -> Iterator[VariableLocation]:
        for unit in self.units():
            yield from self._unit_variables(unit, done, within)

    def _unit_variables(self, unit: _Unit, done: Container[int], within: Spans | None
                        ) -> Iterator[VariableLocation]:
        data, end = self.info, unit.end
        what = f".debug_info unit at {unit.offset:#x}"
        plans = unit.plans
        reads = unit.reads
        abbrevs = unit.abbrevs
        at = unit.dies
        #: the effective scope (address ranges) of each open parent DIE: its own, or the one around it
        scopes: list[_Ranges | _RangeList | None] = []
        #: per open parent DIE, the outermost subprogram it lies in (-1: none)
        owners: list[int] = []
        #: subprograms whose code lies outside ``within``: their variables are passed over
        outside: set[int] = set()
        top = True
        while at < end:
            start = at
            byte = data[at]
            if byte < 0x80:
                code, at = byte, at + 1
            else:
                code, at = _uleb(data, at, end, what)
            if code == 0:
                if scopes:
                    scopes.pop()
                    owners.pop()
                continue
            plan = plans[code] if code in plans else self._plan(unit, code)
            function = owners[-1] if owners else -1
            if plan is not None and not top:
                at = self._skip(unit, at, plan)
                if at > end:
                    raise DwarfFormatError(f"{what}: a DIE runs past the unit's end ({end:#x})")
                if abbrevs[code].children:  # no range of its own (_plan): its children's scope is the enclosing
                    scopes.append(scopes[-1] if scopes else None)
                    owners.append(start if function < 0 and abbrevs[code].tag == _TAG_SUBPROGRAM else function)
                continue
            abbrev = abbrevs[code]  # known: _plan checked the code
            steps, tail = reads[code] if code in reads else self._reads(unit, code)
            found: dict[int, tuple[int, int | bytes]] = {}
            for skip, name, form, implicit, wanted in steps:
                value, at = self._value(unit, at + skip, form, implicit)
                if wanted:
                    found[name] = (form, value)
            at += tail
            if at > end:
                raise DwarfFormatError(f"{what}: a DIE runs past the unit's end ({end:#x})")
            if top:
                self._unit_bases(unit, found)
                top = False
            enclosing = scopes[-1] if scopes else None
            if abbrev.children:
                scope = self._scope(unit, found)
                scopes.append(scope or enclosing)
                owners.append(start if function < 0 and abbrev.tag == _TAG_SUBPROGRAM else function)
                if within is not None and function < 0 and abbrev.tag == _TAG_SUBPROGRAM \
                        and not self._overlaps(unit, scope, within):
                    outside.add(start)
            if abbrev.tag in (_TAG_VARIABLE, _TAG_FORMAL_PARAMETER) and function not in done \
                    and function not in outside:
                variable = self._variable(unit, found, enclosing)
                if variable is not None:
                    yield dataclasses.replace(variable, function=function) if function >= 0 else variable

    def _overlaps(self, unit: _Unit, scope: _Ranges | _RangeList | None, within: Spans) -> bool:
        """Whether a function's code may reach into ``within`` (a function without readable ranges may)."""
        if isinstance(scope, _RangeList):
            try:
                scope.ranges = scope.ranges if scope.ranges is not None else \
                    self._range_list(unit, scope.form, scope.value)
            except DwarfFormatError:
                return True  # its variables will say what is damaged
            scope = scope.ranges
        if scope is None:
            return True
        return reaches(scope, within)

    def _unit_bases(self, unit: _Unit, found: dict[int, tuple[int, int | bytes]]) -> None:
        for attribute, slot in ((_AT_STR_OFFSETS_BASE, "str_offsets_base"), (_AT_ADDR_BASE, "addr_base"),
                                (_AT_LOCLISTS_BASE, "loclists_base"), (_AT_RNGLISTS_BASE, "rnglists_base")):
            if attribute in found and isinstance(found[attribute][1], int):
                setattr(unit, slot, found[attribute][1])
        if _AT_LOW_PC in found:
            unit.base = self._address(unit, *found[_AT_LOW_PC]) or 0

    def _scope(self, unit: _Unit, found: dict[int, tuple[int, int | bytes]]) -> _Ranges | _RangeList | None:
        if _AT_LOW_PC in found and _AT_HIGH_PC in found:
            low = self._address(unit, *found[_AT_LOW_PC])
            form, value = found[_AT_HIGH_PC]
            if low is None or isinstance(value, bytes):
                return None
            high = self._address(unit, form, value) if form == _ADDR or form in _ADDRX_FORMS else low + value
            return ((low, high),) if high is not None else None
        if _AT_RANGES in found:
            form, value = found[_AT_RANGES]
            return None if isinstance(value, bytes) else _RangeList(form, value)
        return None

    def _range_list(self, unit: _Unit, form: int, value: int) -> _Ranges:
        if unit.version < 5:
            return tuple((low, high) for low, high, _ in self._pairs(self.ranges, ".debug_ranges", unit, value,
                                                                    expressions=False))
        data, what = self.rnglists, ".debug_rnglists"
        if form == _RNGLISTX:
            if unit.rnglists_base is None:
                raise DwarfFormatError("a range list index without DW_AT_rnglists_base")
            at = unit.rnglists_base + value * unit.offset_size
            value = unit.rnglists_base + _int(data, at, unit.offset_size, len(data), f"{what} offsets")
        return tuple((low, high) for low, high, _ in self._v5_entries(unit, data, what, value, ranges=True))

    def _variable(self, unit: _Unit, found: dict[int, tuple[int, int | bytes]],
                  enclosing: _Ranges | _RangeList | None) -> VariableLocation | None:
        if _AT_LOCATION not in found:
            return None
        if _AT_NAME in found:
            raw = self._string(unit, *found[_AT_NAME])
        elif _AT_ABSTRACT_ORIGIN in found:
            try:
                raw = self._origin_name(unit, *found[_AT_ABSTRACT_ORIGIN])
            except DwarfFormatError as exc:  # a bad reference costs this variable only, as a bad location list
                return VariableLocation("(abstract origin)", (), str(exc))
        else:
            return None
        if raw is None:
            return None
        name = raw.decode("utf-8", "replace")
        form, value = found[_AT_LOCATION]
        if isinstance(value, bytes):
            # an expression: DW_FORM_exprloc, or a block before DWARF 4 (later a block is a constant)
            if form == _EXPRLOC or (unit.version < 4 and form in _BLOCK_FORMS):
                if isinstance(enclosing, _RangeList):
                    if enclosing.ranges is None:
                        try:
                            enclosing.ranges = self._range_list(unit, enclosing.form, enclosing.value)
                        except DwarfFormatError as exc:  # a damaged range list costs its variables only
                            return VariableLocation(name, (), str(exc))
                    enclosing = enclosing.ranges
                spans = tuple((low, high, value) for low, high in enclosing or ())
                return VariableLocation(name, spans)
            return None
        if unit.version >= 5:
            if form not in (_SEC_OFFSET, _LOCLISTX):
                return None
        elif not (form == _SEC_OFFSET or (unit.version < 4 and form in (_DATA4, _DATA8))):
            return None
        try:
            return VariableLocation(name, tuple(self._location_list(unit, form, value)))
        except DwarfFormatError as exc:
            return VariableLocation(name, (), str(exc))

    def _origin_name(self, unit: _Unit, form: int, value: int | bytes, depth: int = 0) -> bytes | None:
        """The ``DW_AT_name`` of the DIE a ``DW_AT_abstract_origin`` refers to (in the same unit: LLVM's
        ``DW_FORM_ref4``), following its own abstract origin a few levels; None for another form or no name."""
        if isinstance(value, bytes) or form not in (_REF1, _REF2, _REF4, _REF8, _REF_UDATA) \
                or depth >= _INDIRECT_LIMIT:
            return None
        key = (unit.offset, value)
        if key in self._origin_names:
            return self._origin_names[key]
        what = f".debug_info unit at {unit.offset:#x}"
        at = unit.offset + value
        if not unit.dies <= at < unit.end:
            raise DwarfFormatError(f"{what}: an abstract origin at {at:#x} lies outside its unit")
        code, at = _uleb(self.info, at, unit.end, what)
        if code not in unit.abbrevs:
            raise DwarfFormatError(f"{what}: abbreviation code {code} is not in its table")
        name: bytes | None = None
        origin: tuple[int, int | bytes] | None = None
        for attribute, attribute_form, implicit in unit.abbrevs[code].attributes:
            raw, at = self._value(unit, at, attribute_form, implicit)
            if attribute == _AT_NAME:
                name = self._string(unit, attribute_form, raw)
                break
            if attribute == _AT_ABSTRACT_ORIGIN:
                origin = (attribute_form, raw)
        if name is None and origin is not None:
            name = self._origin_name(unit, *origin, depth + 1)
        self._origin_names[key] = name
        return name

    # -- location lists ------------------------------------------------------------------------------------------

    def _location_list(self, unit: _Unit, form: int, value: int) -> Iterator[tuple[int, int, bytes]]:
        if unit.version < 5:
            yield from self._loc(unit, value)
            return
        data = self.loclists
        if form == _LOCLISTX:
            if unit.loclists_base is None:
                raise DwarfFormatError("a location list index without DW_AT_loclists_base")
            at = unit.loclists_base + value * unit.offset_size
            value = unit.loclists_base + _int(data, at, unit.offset_size, len(data), ".debug_loclists offsets")
        yield from self._v5_entries(unit, data, ".debug_loclists", value, ranges=False)

    def _v5_entries(self, unit: _Unit, data: bytes, what: str, at: int, *, ranges: bool
                    ) -> Iterator[tuple[int, int, bytes]]:
        """The entries of a DWARF 5 list: a location list's (``DW_LLE_*``, each with its expression) or, with
        ``ranges``, a range list's (``DW_RLE_*``: the same entries without expressions or a default; their
        expression is empty)."""
        end, size = len(data), unit.address_size
        if at >= end:
            raise DwarfFormatError(f"{what}: a list at {at:#x} lies past the end ({end:#x})")
        base = unit.base
        while True:
            raw = _int(data, at, 1, end, what)
            at += 1
            kind = _RLE_AS_LLE.get(raw, -1) if ranges else raw
            if kind == _LLE_END:
                return
            if kind == _LLE_BASE_ADDRESSX:
                index, at = _uleb(data, at, end, what)
                base = self._indexed_address(unit, index)
                continue
            if kind == _LLE_BASE_ADDRESS:
                base, at = _int(data, at, size, end, what), at + size
                continue
            if kind == _LLE_STARTX_ENDX:
                first, at = _uleb(data, at, end, what)
                second, at = _uleb(data, at, end, what)
                low, high = self._indexed_address(unit, first), self._indexed_address(unit, second)
            elif kind == _LLE_STARTX_LENGTH:
                first, at = _uleb(data, at, end, what)
                length, at = _uleb(data, at, end, what)
                low = self._indexed_address(unit, first)
                high = low + length
            elif kind == _LLE_OFFSET_PAIR:
                low, at = _uleb(data, at, end, what)
                high, at = _uleb(data, at, end, what)
                low, high = low + base, high + base
            elif kind == _LLE_DEFAULT:
                low = high = -1  # as pyelftools: covers no address
            elif kind == _LLE_START_END:
                low, high = _int(data, at, size, end, what), _int(data, at + size, size, end, what)
                at += 2 * size
            elif kind == _LLE_START_LENGTH:
                low, at = _int(data, at, size, end, what), at + size
                length, at = _uleb(data, at, end, what)
                high = low + length
            else:
                code = "DW_RLE" if ranges else "DW_LLE"
                raise DwarfFormatError(f"{what}: entry kind {raw:#x} at {at - 1:#x} is not a {code} code")
            if ranges:
                yield low, high, b""
                continue
            length, at = _uleb(data, at, end, what)
            if at + length > end:
                raise DwarfFormatError(f"{what}: expression of {length:,} bytes at {at:#x} runs past the end")
            yield low, high, data[at:at + length]
            at += length

    def _loc(self, unit: _Unit, at: int) -> Iterator[tuple[int, int, bytes]]:
        for low, high, expression in self._pairs(self.loc, ".debug_loc", unit, at, expressions=True):
            yield low, high, expression or b""

    def _pairs(self, data: bytes, what: str, unit: _Unit, at: int, *, expressions: bool
               ) -> Iterator[tuple[int, int, bytes | None]]:
        """The address pairs of a DWARF 2-4 list (``.debug_loc`` with an expression after each, ``.debug_ranges``
        without)."""
        end, size = len(data), unit.address_size
        if at >= end:
            raise DwarfFormatError(f"{what}: a list at {at:#x} lies past the end ({end:#x})")
        all_ones = (1 << (8 * size)) - 1
        base = unit.base
        while True:
            low, high = _int(data, at, size, end, what), _int(data, at + size, size, end, what)
            at += 2 * size
            if low == 0 and high == 0:
                return
            if low == all_ones:
                base = high
                continue
            if not expressions:
                yield low + base, high + base, None
                continue
            length = _int(data, at, 2, end, what)
            at += 2
            if at + length > end:
                raise DwarfFormatError(f"{what}: expression of {length:,} bytes at {at:#x} runs past the end")
            yield low + base, high + base, data[at:at + length]
            at += length


#: the checked primitives, for binary/dwarf_line_program.py
read_uleb, read_sleb, read_uint = _uleb, _sleb, _int


def _cstring(table: bytes, offset: int, what: str) -> bytes:
    if offset >= len(table):
        raise DwarfFormatError(f"{what}: string offset {offset:#x} lies past the end ({len(table):#x})")
    stop = table.find(b"\0", offset)
    return table[offset:stop if stop >= 0 else len(table)]


def iter_variable_locations(elf: Elf64, done: Container[int] = (), within: Spans | None = None
                            ) -> Iterator[VariableLocation]:
    """Every named variable and parameter of ``elf``'s ``.debug_info`` with a location, in DIE order; none when
    the file has no ``.debug_info``. Raises :class:`DwarfFormatError` when the sections are damaged. ``done``:
    functions (:attr:`VariableLocation.function`) whose further variables are not wanted; the caller may add to
    it between two variables, and the walk passes over the rest of that function's without reading them.
    ``within``: (low, high exclusive) address spans; the variables of functions whose code lies outside all of
    them are passed over (one kernel of a library's code object needs its own function's, not ~200,000)."""
    reader = _Reader(elf)
    if not reader.info:
        return iter(())
    return reader.variables(done, within)


def line_program_offsets(elf: Elf64) -> list[tuple[int, int]]:
    """(``DW_AT_stmt_list`` offset into ``.debug_line``, address size) of each unit whose first DIE has one, in
    unit order."""
    reader = _Reader(elf)
    out: list[tuple[int, int]] = []
    for unit in reader.units():
        if unit.dies >= unit.end:
            continue
        code, at = _uleb(reader.info, unit.dies, unit.end, f".debug_info unit at {unit.offset:#x}")
        if code == 0:
            continue
        if code not in unit.abbrevs:
            reader._plan(unit, code)  # raises: the code is not in the table
        for name, form, implicit in unit.abbrevs[code].attributes:
            value, at = reader._value(unit, at, form, implicit)
            if name == _AT_STMT_LIST and isinstance(value, int):
                out.append((value, unit.address_size))
    return out
