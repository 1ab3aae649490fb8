"""The walk of ``.debug_info`` for variable locations (binary/dwarf_info.py) skips the DIEs it needs nothing from
without decoding them: a parent without a pc range of its own and a variable without a name or a location of its own
(the copy of an inlined helper's variable takes its name from its abstract origin). These tests build a DWARF 4 unit
by hand (DWARF 4 standard, 7.5: unit header, abbreviations, DIEs) whose expected readings follow from the standard
by hand, not from our reader: a variable whose location is one expression (not a list) is valid over its innermost
enclosing DIE with ``DW_AT_low_pc`` and ``DW_AT_high_pc`` (pyelftools-walk rule of tests/oracle/test_dwarf_info.py),
a DWARF 4 ``DW_AT_high_pc`` of a constant form is an offset from ``DW_AT_low_pc`` (7.5.4 / 2.17.2)."""

from __future__ import annotations

import struct
from typing import Any

from isalens.binary.dwarf_info import iter_variable_locations

# tags, attributes and forms (DWARF 4, 7.5.3-7.5.4)
_CU, _SUBPROGRAM, _LEXICAL_BLOCK, _VARIABLE, _PARAMETER = 0x11, 0x2E, 0x0B, 0x34, 0x05
_LOCATION, _NAME, _LOW_PC, _HIGH_PC, _ABSTRACT_ORIGIN = 0x02, 0x03, 0x11, 0x12, 0x31
_ADDR, _DATA4, _STRING, _EXPRLOC, _REF4 = 0x01, 0x06, 0x08, 0x18, 0x13
_REG5 = 0x55  # DW_OP_reg5: a one-byte expression


def _abbrev(code: int, tag: int, children: bool, *attributes: tuple[int, int]) -> bytes:
    pairs = b"".join(bytes([a, f]) for a, f in attributes)  # every value here is < 0x80: one-byte ULEB128
    return bytes([code, tag, int(children)]) + pairs + b"\0\0"


_ABBREVS = b"".join([
    _abbrev(1, _CU, True, (_LOW_PC, _ADDR), (_HIGH_PC, _DATA4)),
    _abbrev(2, _SUBPROGRAM, True, (_LOW_PC, _ADDR), (_HIGH_PC, _DATA4)),
    _abbrev(3, _LEXICAL_BLOCK, True, (_NAME, _STRING)),  # a parent without a pc range
    _abbrev(4, _VARIABLE, False, (_NAME, _STRING), (_LOCATION, _EXPRLOC)),
    _abbrev(5, _PARAMETER, False, (_ABSTRACT_ORIGIN, _REF4), (_LOCATION, _EXPRLOC)),  # no name of its own
    _abbrev(6, _VARIABLE, True, (_NAME, _STRING), (_LOCATION, _EXPRLOC)),  # a variable with children
]) + b"\0"


def _variable(code: int, name: bytes) -> bytes:
    return bytes([code]) + name + b"\0" + bytes([1, _REG5])


def _unit(dies: bytes) -> bytes:
    # DWARF 4 header after the 32-bit unit length: version 4, abbreviation offset 0, address size 8
    body = struct.pack("<HIB", 4, 0, 8) + dies
    return struct.pack("<I", len(body)) + body


#: the offset of variable a's DIE in its unit: the 11-byte DWARF 4 header, the unit's DIE (13 bytes), the
#: function's (13) and the block's (7)
_A = 11 + 13 + 13 + 7


def _dies(origin: int = _A) -> bytes:
    return b"".join([
        bytes([1]) + struct.pack("<QI", 0x1000, 0x100),          # unit: [0x1000, 0x1100)
        bytes([2]) + struct.pack("<QI", 0x1010, 0x10),           # function: [0x1010, 0x1020)
        bytes([3]) + b"block\0",                                 # a block without a range of its own
        _variable(4, b"a"),                                      # -> the function's range
        b"\0",                                                   # end of the block's children
        _variable(4, b"b"),                                      # after the block: still the function's
        bytes([5]) + struct.pack("<I", origin) + bytes([1, _REG5]),  # an inlined copy's parameter: a's name
        _variable(6, b"d"), _variable(4, b"e"), b"\0",           # a variable with children, its child variable
        b"\0",                                                   # end of the function's children
        _variable(4, b"c"),                                      # -> the unit's range
        b"\0",                                                   # end of the unit's children
    ])


class _Elf:
    """The two sections the walk reads, as Elf64 gives them (section by name, then its contents)."""

    def __init__(self, sections: dict[str, bytes]) -> None:
        self.sections = sections

    def section(self, name: str) -> str | None:
        return name if name in self.sections else None

    def contents(self, name: str) -> bytes:
        return self.sections[name]


def _read(info: bytes) -> list[tuple[str, tuple[tuple[int, int, bytes], ...]]]:
    elf: Any = _Elf({".debug_info": info, ".debug_abbrev": _ABBREVS})
    found = list(iter_variable_locations(elf))
    assert all(v.problem is None for v in found)
    return [(v.name, v.spans) for v in found]


def test_skipped_parents_and_variables_keep_each_variables_scope() -> None:
    reg5 = bytes([_REG5])
    function, unit = (0x1010, 0x1020, reg5), (0x1000, 0x1100, reg5)
    assert _read(_unit(_dies())) == [
        ("a", (function,)), ("b", (function,)), ("a", (function,)), ("d", (function,)), ("e", (function,)),
        ("c", (unit,))]


def test_an_abstract_origin_outside_the_unit_costs_only_its_variable() -> None:
    # a reference to offset 0 points into the unit's header, not at a DIE: that variable is a problem, the
    # others read as before
    elf: Any = _Elf({".debug_info": _unit(_dies(origin=0)), ".debug_abbrev": _ABBREVS})
    found = list(iter_variable_locations(elf))
    assert [(v.name, v.problem is None) for v in found] == [
        ("a", True), ("b", True), ("(abstract origin)", False), ("d", True), ("e", True), ("c", True)]
    assert "outside its unit" in (found[2].problem or "")


def test_two_units_read_alike() -> None:
    # each unit keeps its own skip plans: the second reads as the first
    one = _read(_unit(_dies()))
    assert _read(_unit(_dies()) * 2) == one * 2


def test_a_scope_with_a_range_list_gives_its_variables_each_range() -> None:
    # DWARF 4 2.17.3 / 7.23: a lexical block's DW_AT_ranges (DW_FORM_sec_offset) is an offset into .debug_ranges,
    # pairs of addresses relative to the unit's base address (its DW_AT_low_pc); a first address of all ones
    # selects a new base, a pair of zeros ends the list. By hand: two pairs from the unit's 0x1000, then base
    # 0x2000 and one more pair
    ranges_attribute, sec_offset = 0x55, 0x17
    abbrevs = _ABBREVS[:-1] + _abbrev(7, _LEXICAL_BLOCK, True, (ranges_attribute, sec_offset)) + b"\0"
    dies = b"".join([
        bytes([1]) + struct.pack("<QI", 0x1000, 0x100),
        bytes([7]) + struct.pack("<I", 16),  # its list starts 16 bytes into the section
        _variable(4, b"inner"),
        b"\0",
        b"\0",
    ])
    ranges = bytes(16) + struct.pack("<6Q", 0x10, 0x14, 0x18, 0x20, 2**64 - 1, 0x2000) \
        + struct.pack("<4Q", 0, 4, 0, 0)
    elf: Any = _Elf({".debug_info": _unit(dies), ".debug_abbrev": abbrevs, ".debug_ranges": ranges})
    found = [(v.name, v.spans, v.problem) for v in iter_variable_locations(elf)]
    reg5 = bytes([_REG5])
    assert found == [("inner", ((0x1010, 0x1014, reg5), (0x1018, 0x1020, reg5), (0x2000, 0x2004, reg5)), None)]
