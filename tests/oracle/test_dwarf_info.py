"""Our reader of ``.debug_info`` variable locations (binary/dwarf_info.py) against two oracles: pyelftools' DIE and
location-list parsers, walked the way isalens walked them before it had its own reader (every named
``DW_TAG_variable``/``DW_TAG_formal_parameter`` with ``DW_AT_location``; a single expression covers the address
ranges of the innermost enclosing DIE that has any, ``DW_AT_low_pc`` and ``DW_AT_high_pc`` or ``DW_AT_ranges``), and
``llvm-dwarfdump-19``'s own reading of the location lists. On clang-19 ``-g`` builds of our kernels (OpenCL for
wave64 and wave32 targets, HIP) and on every code object with variable locations among a sample of Debian's
librocsparse (clang 15), when it is unpacked.

Damaged input: the reader raises only :class:`DwarfFormatError` (one line saying what is damaged), whatever bytes of
its sections are overwritten or cut (tests/property/test_dwarf_damage_property.py checks the figures stay).
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from isalens.binary.dwarf_info import DwarfFormatError, iter_variable_locations
from isalens.binary.dwarf_variables import VariableRange, _pieces, read_variable_ranges
from isalens.binary.elf64 import Elf64
from isalens.errors import InputError
from tests import elf_edit as E
from tests.conftest import EXAMPLES, ROOT, require_tool
from tests.oracle.hipbuild import build
from tests.oracle.test_dwarf_variables import dwarfdump_locations
from tests.oracle.test_source_lines import _build

elftools = pytest.importorskip("elftools")
from elftools.dwarf.locationlists import (  # noqa: E402
    BaseAddressEntry,
    LocationEntry,
    LocationExpr,
    LocationParser,
)
from elftools.dwarf.ranges import BaseAddressEntry as RangeBaseAddressEntry  # noqa: E402
from elftools.elf.elffile import ELFFile  # noqa: E402

#: one librocsparse code object in this many is read (777 in all; a -g one is seconds for pyelftools)
_LIBRARY_STRIDE = 23
_KERNELS = [EXAMPLES / "kernels" / "fp16_layouts" / f"{name}.cl" for name in ("half3_two_uint", "fp32")]


# -- the pyelftools oracle -----------------------------------------------------------------------------------------

def _scope(die: Any, cu_base: int) -> list[tuple[int, int]]:
    """The address ranges of the innermost enclosing DIE that has any: ``DW_AT_low_pc`` and ``DW_AT_high_pc``, or
    ``DW_AT_ranges`` read by pyelftools' range-list parser (offsets from the unit's base unless absolute)."""
    parent = die.get_parent()
    while parent is not None:
        low, high = parent.attributes.get("DW_AT_low_pc"), parent.attributes.get("DW_AT_high_pc")
        if low is not None and high is not None:
            return [(int(low.value), int(high.value if high.form == "DW_FORM_addr" else low.value + high.value))]
        ranges = parent.attributes.get("DW_AT_ranges")
        if ranges is not None:
            out, base = [], cu_base
            for entry in parent.dwarfinfo.range_lists().get_range_list_at_offset(int(ranges.value), cu=parent.cu):
                if isinstance(entry, RangeBaseAddressEntry):
                    base = int(entry.base_address)
                else:
                    shift = 0 if entry.is_absolute else base
                    out.append((entry.begin_offset + shift, entry.end_offset + shift))
            return out
        parent = parent.get_parent()
    return []


def pyelftools_variables(data: bytes) -> list[tuple[str, tuple[tuple[int, int, bytes], ...]]]:
    """(name, spans) of every named variable and parameter with a location, by pyelftools."""
    elf = ELFFile(io.BytesIO(data))
    if not elf.has_dwarf_info() or elf.get_section_by_name(".debug_info") is None:
        return []
    dwarf = elf.get_dwarf_info()
    parser = LocationParser(dwarf.location_lists())
    out = []
    for cu in dwarf.iter_CUs():
        version = cu["version"]
        top_low = cu.get_top_DIE().attributes.get("DW_AT_low_pc")
        cu_base = int(top_low.value) if top_low is not None else 0
        for die in cu.iter_DIEs():
            if die.tag not in ("DW_TAG_variable", "DW_TAG_formal_parameter"):
                continue
            attr, name = die.attributes.get("DW_AT_location"), die.attributes.get("DW_AT_name")
            if name is None and "DW_AT_abstract_origin" in die.attributes:  # an inlined helper's copy
                name = die.get_DIE_from_attribute("DW_AT_abstract_origin").attributes.get("DW_AT_name")
            if attr is None or name is None or not LocationParser.attribute_has_location(attr, version):
                continue
            location = parser.parse_from_attribute(attr, version, die)
            spans = []
            if isinstance(location, LocationExpr):
                spans = [(low, high, bytes(location.loc_expr)) for low, high in _scope(die, cu_base)]
            else:
                base = cu_base
                for entry in location:
                    if isinstance(entry, BaseAddressEntry):
                        base = int(entry.base_address)
                    elif isinstance(entry, LocationEntry):
                        shift = 0 if entry.is_absolute else base
                        spans.append((entry.begin_offset + shift, entry.end_offset + shift, bytes(entry.loc_expr)))
            out.append((name.value.decode("utf-8", "replace"), tuple(spans)))
    return out


def _ours(data: bytes) -> list[tuple[str, tuple[tuple[int, int, bytes], ...]]]:
    found = list(iter_variable_locations(Elf64(data)))
    assert all(v.problem is None for v in found), [v.problem for v in found if v.problem]
    return [(v.name, v.spans) for v in found]


# -- the code objects ----------------------------------------------------------------------------------------------

def _built(tmp: Path) -> list[tuple[str, bytes, int]]:
    from isalens.binary.bundle import read_bundles

    out = []
    for source in _KERNELS:
        for target, wave in (("gfx902", 64), ("gfx1030", 32)):
            co = _build(source, target, tmp / f"{source.stem}.{target}.co", "-g")
            out.append((f"{source.stem} {target}", co.read_bytes(), wave))
    bundle = build(tmp / "debug.hipfb", "--cuda-device-only", "-g")
    out += [(f"hip {e.triple}", e.data, 32 if "gfx11" in e.triple else 64)
            for e in read_bundles(bundle.read_bytes(), file="debug.hipfb") if "amdgcn" in e.triple]
    return out


def _library() -> list[tuple[str, bytes, int]]:
    unpacked = ROOT / ".cache" / "debs" / "x" / "librocsparse0"
    found = sorted(p for p in unpacked.rglob("librocsparse.so.0*") if p.is_file() and not p.is_symlink())
    if not found:
        return []  # not downloaded here: tests/oracle/test_debian_libraries.py fetches it
    from isalens.binary.container import find_code_objects
    from isalens.engine.binary import mapped
    from isalens.reading import set_max_input_size

    set_max_input_size(4 << 30)  # 1.3 GB, over the 1 GiB default cap: for this read only
    picked = []
    try:
        with mapped(found[0]) as data:
            for index, ref in enumerate(find_code_objects(data, file=str(found[0]))):
                if index % _LIBRARY_STRIDE == 0 and Elf64(ref.data).section(".debug_loclists") is not None:
                    wave = 32 if ref.triple and ("--gfx10" in ref.triple or "--gfx11" in ref.triple) else 64
                    picked.append((f"librocsparse {ref.source}", ref.data, wave))
    finally:
        set_max_input_size(None)
    return picked


@pytest.fixture(scope="module")
def code_objects(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes, int]]:
    return _built(tmp_path_factory.mktemp("dwarf_info")) + _library()


def test_variable_locations_equal_pyelftools(code_objects: list[tuple[str, bytes, int]]) -> None:
    variables = spans = 0
    for label, data, _wave in code_objects:
        ours, oracle = _ours(data), pyelftools_variables(data)
        assert ours == oracle, label
        variables += len(ours)
        spans += sum(len(s) for _, s in ours)
    # the comparison covered something: our kernels alone have dozens of located variables
    assert variables >= 20 and spans >= 20, (variables, spans)


def test_register_ranges_equal_llvm_dwarfdump(code_objects: list[tuple[str, bytes, int]], tmp_path: Path) -> None:
    require_tool("llvm-dwarfdump-19")
    checked = 0
    for label, data, wave in code_objects:
        if not label.startswith(("half3", "fp32")):
            continue
        path = tmp_path / "x.co"
        path.write_bytes(data)
        ranges, problems = read_variable_ranges(data, file=str(path), where="code object", wave_size=wave)
        assert not problems, problems
        ours = {(r.name, r.low, r.high, str(r.register)) for r in ranges}
        # llvm-dwarfdump's pattern is a whole value held in one register (DW_OP_bregx REG+0 and the
        # address-space suffix): each must be among ours, named and ranged the same
        oracle = set(dwarfdump_locations(path, wave))
        assert oracle <= ours, (label, sorted(oracle - ours)[:5])
        checked += len(oracle)
    assert checked >= 10


def test_variables_of_a_kernel_by_wave_size(code_objects: list[tuple[str, bytes, int]]) -> None:
    # DWARF numbers VGPRs from 1536 in wave32 and 2560 in wave64 (LLVM's AMDGPUUsage): read with the other
    # wave size, a register location of a VGPR names no VGPR
    label, data, wave = next(c for c in code_objects if c[0].endswith("gfx1030"))
    assert wave == 32
    right = read_variable_ranges(data, file=label, where="code object", wave_size=32)[0]
    assert any(str(r.register).startswith("v") for r in right)
    wrong = read_variable_ranges(data, file=label, where="code object", wave_size=64)[0]
    assert not any(str(r.register).startswith("v") for r in wrong)


def test_one_variable_per_function_finds_the_kernels_every_variable_finds(
        code_objects: list[tuple[str, bytes, int]]) -> None:
    # a scan row shows only whether any variable covers its kernel, so a scan reads, per function, variables up to
    # the first with a register location (first_only; librocsparse's -g objects: up to ~200,000 locations).
    # Every kernel must get the same kind as from all variables: a C++ kernel's variables sit under namespaces
    # (the first reading took the unit's child DIE, a namespace, for the function: 991 of 12,591 gfx1030 rows of
    # librocsparse lost their variables)
    from isalens.binary.codeobject import read_code_object
    from isalens.engine.binary import load_code_object

    kinds = {"lines+variables": 0}
    library = 0
    for label, data, _wave in code_objects:
        if label.startswith("librocsparse"):
            library += 1
            if library > 4:  # a library object is seconds to disassemble: four of them
                continue
        co = read_code_object(data, file=label, source=label)
        every = load_code_object(co, file=label, inlines=False, locations=True).ir.kernels
        first = load_code_object(co, file=label, inlines=False, locations=False).ir.kernels
        got = [(k.name, k.source.debug_info if k.source else None) for k in first]
        assert got == [(k.name, k.source.debug_info if k.source else None) for k in every], label
        kinds["lines+variables"] += sum(kind == "lines+variables" for _, kind in got)
    assert kinds["lines+variables"] >= 10, kinds


# -- damaged input -------------------------------------------------------------------------------------------------

def _damaged(data: bytes, rng: random.Random) -> bytes:
    sections = [".debug_info", ".debug_abbrev", ".debug_loclists", ".debug_rnglists", ".debug_str_offsets",
                ".debug_addr"]
    return E.damage_section(data, sections, rng)


def test_damaged_sections_raise_one_format_error(code_objects: list[tuple[str, bytes, int]]) -> None:
    rng = random.Random(32)
    data = next(d for label, d, _ in code_objects if label.startswith("fp32 gfx902"))
    outcomes = {"read": 0, "error": 0}
    for _ in range(300):
        damaged = _damaged(data, rng)
        try:
            list(iter_variable_locations(Elf64(damaged)))
            outcomes["read"] += 1
        except DwarfFormatError as exc:  # anything else (IndexError, struct.error ...) fails the test
            assert "\n" not in str(exc) and str(exc)
            outcomes["error"] += 1
    assert outcomes["error"] >= 30, outcomes  # the damage really broke something


def test_a_damaged_unit_is_one_input_error_naming_the_file(code_objects: list[tuple[str, bytes, int]]) -> None:
    data = next(d for label, d, _ in code_objects if label.startswith("fp32 gfx902"))
    info = bytearray(E.section_bytes(data, ".debug_info"))
    info[0:4] = (len(info) * 2).to_bytes(4, "little")  # the first unit's length past the section's end
    damaged = E.replace_contents(data, ".debug_info", bytes(info))
    with pytest.raises(InputError) as caught:
        read_variable_ranges(damaged, file="k.co", where="code object", wave_size=64)
    assert caught.value.file == "k.co"
    assert "runs past the end of the section" in caught.value.message


def test_pieces_of_a_register_pair() -> None:
    # DW_OP_regx 2560 (v0 in wave64), DW_OP_piece 4, DW_OP_regx 2561, DW_OP_piece 4: a 64-bit value in v[0:1]
    expr = bytes([0x90, 0x80, 0x14, 0x93, 4, 0x90, 0x81, 0x14, 0x93, 4])
    pieces = _pieces(expr, 64)
    assert [(str(r), bit, bits) for r, bit, bits in pieces] == [("v0", 0, 32), ("v1", 32, 32)]
    assert VariableRange("x", 0, 4, pieces[0][0]).register == pieces[0][0]


def test_a_location_cut_short_is_reported_not_read() -> None:
    # DW_OP_regx with its ULEB128 operand's continuation bit set and no byte after it (DWARF 5, 7.6): unreadable
    from isalens.binary.dwarf_variables import _ranges
    problems: list[str] = []
    assert _ranges("x", ((0, 4, bytes([0x90, 0x80])),), 64, problems) == []
    assert problems == ["location of 'x' is cut short: dropped"]


def test_too_many_locations_are_cut_with_a_problem(code_objects: list[tuple[str, bytes, int]],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # a single location holds over every range of its scope: a hand-made unit could multiply a scope's ranges by
    # its variables, so one code object's locations are capped, and the cut is said (a warning), never silent
    import isalens.binary.dwarf_variables as dv

    label, data, wave = next(c for c in code_objects if c[0].startswith("fp32 gfx902"))
    every, problems = read_variable_ranges(data, file=label, where="code object", wave_size=wave)
    assert len(every) > 10 and not problems
    monkeypatch.setattr(dv, "MAX_VARIABLE_RANGES", 10)
    cut, problems = read_variable_ranges(data, file=label, where="code object", wave_size=wave)
    assert cut == every[:10]
    assert problems == ["more than 10 variable locations: the rest are not read"]


def test_a_kernel_asked_for_alone_gets_what_it_gets_among_all(code_objects: list[tuple[str, bytes, int]]) -> None:
    # with --kernel, only the functions whose code reaches the kernel's addresses have their variables and
    # inlining entries read (one kernel of librocsparse's largest -g object: 12.4 -> 8.2 s): every variable
    # location and inlining range over the kernel's addresses must be read as without the filter
    from isalens.binary.codeobject import read_code_object
    from isalens.binary.dwarf_inlines import read_frames
    from isalens.engine.binary import load_code_object

    checked = library = 0
    for label, data, wave in code_objects:
        if label.startswith("librocsparse"):
            library += 1
            if library > 2:
                continue
        co = read_code_object(data, file=label, source=label)
        kernels = load_code_object(co, file=label, inlines=False, locations=False).ir.kernels
        every_variables = read_variable_ranges(data, file=label, where="co", wave_size=wave)[0]
        every_frames = read_frames(data, file=label, where="co")[0]
        for kernel in kernels[:3]:
            first, last = kernel.instructions[0].address, kernel.instructions[-1].address
            assert first is not None and last is not None
            span = (first, last + 1)

            def over(rows: list[Any], span: tuple[int, int] = span) -> list[Any]:
                return [r for r in rows if r.low < span[1] and span[0] < r.high]

            variables = read_variable_ranges(data, file=label, where="co", wave_size=wave, within=(span,))[0]
            frames = read_frames(data, file=label, where="co", within=(span,))[0]
            assert over(variables) == over(every_variables), (label, kernel.name)
            assert over(frames) == over(every_frames), (label, kernel.name)
            assert len(variables) <= len(every_variables) and len(frames) <= len(every_frames)
            checked += bool(over(variables)) + bool(over(frames))
    assert checked >= 10, checked
