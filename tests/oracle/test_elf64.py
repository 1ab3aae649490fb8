"""``isalens.binary.elf64`` (our struct reader of the section table, symbols and notes) against pyelftools on
real code objects: the ones clang++-19 builds here (every target of tests/data/binaries/kernels.hip, plain and
compressed bundles, a debug build with its DWARF sections) and, when Debian's librocsparse0 is already unpacked
in .cache/debs (tests/oracle/debian.py), code objects of every target of that 1.3 GB library.

pyelftools' enums turn numbers into names (``SHT_PROGBITS``, ``STT_FUNC``, ``SHN_UNDEF``); its own enum tables
turn them back, so both sides are compared as the numbers the file holds.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from isalens.binary.elf64 import Elf64
from tests.conftest import ROOT
from tests.oracle.hipbuild import build

elftools = pytest.importorskip("elftools")
from elftools.elf import enums  # noqa: E402
from elftools.elf.elffile import ELFFile  # noqa: E402
from elftools.elf.sections import NoteSection, SymbolTableSection  # noqa: E402

pytestmark = pytest.mark.oracle

#: code objects taken from the library: one in this many (777 in all, seven targets, in file order)
_LIBRARY_STRIDE = 37


def _number(value: Any, *tables: dict[str, int]) -> int:
    """The number behind a pyelftools field: itself, or the value of its enum name."""
    if isinstance(value, int):
        return value
    for table in tables:
        if value in table:
            return table[value]
    raise AssertionError(f"no enum value for {value!r}")


def _pyelftools(data: bytes) -> dict[str, Any]:
    elf = ELFFile(io.BytesIO(data))
    sections, symbols, notes = [], {}, []
    for section in elf.iter_sections():
        h = section.header
        sections.append((section.name, _number(h["sh_type"], enums.ENUM_SH_TYPE_BASE, enums.ENUM_SH_TYPE_AMD64),
                         h["sh_flags"], h["sh_addr"], h["sh_offset"], h["sh_size"], h["sh_link"], h["sh_entsize"]))
        if isinstance(section, SymbolTableSection):
            symbols[section.name] = [
                (s.name, s["st_value"], s["st_size"], _number(s["st_info"]["type"], enums.ENUM_ST_INFO_TYPE),
                 _number(s["st_shndx"], enums.ENUM_ST_SHNDX)) for s in section.iter_symbols()]
        if isinstance(section, NoteSection):
            notes += [(n["n_name"], _number(n["n_type"], enums.ENUM_NOTE_N_TYPE), bytes(n["n_descdata"]))
                      for n in section.iter_notes()]
    return {"machine": _number(elf.header["e_machine"], enums.ENUM_E_MACHINE),
            "abi": elf.header["e_ident"]["EI_ABIVERSION"], "flags": elf.header["e_flags"],
            "sections": sections, "symbols": symbols, "notes": notes}


def _ours(data: bytes) -> dict[str, Any]:
    elf = Elf64(data)
    return {"machine": elf.machine, "abi": elf.abi_version, "flags": elf.flags,
            "sections": [(s.name, s.type, s.flags, s.address, s.offset, s.size, s.link, s.entsize)
                         for s in elf.sections],
            "symbols": {s.name: elf.symbols(s) for s in elf.sections if s.type in (2, 11)},
            "notes": [n for s in elf.sections if s.type == 7 for n in elf.notes(s)]}


def _built(tmp: Path) -> list[tuple[str, bytes]]:
    from isalens.binary.bundle import read_bundles

    out = []
    for label, extra in (("plain", ("--cuda-device-only",)),
                         ("compressed", ("--cuda-device-only", "--offload-compress")),
                         ("debug", ("--cuda-device-only", "-g"))):
        bundle = build(tmp / f"{label}.hipfb", *extra)
        out += [(f"{label} {e.triple}", e.data) for e in read_bundles(bundle.read_bytes(), file=label)
                if "amdgcn" in e.triple]
    return out


def _library() -> list[tuple[str, bytes]]:
    unpacked = ROOT / ".cache" / "debs" / "x" / "librocsparse0"
    found = sorted(p for p in unpacked.rglob("librocsparse.so.0*") if p.is_file() and not p.is_symlink())
    if not found:
        return []  # not downloaded here: tests/oracle/test_debian_libraries.py fetches it
    from isalens.binary.container import find_code_objects
    from isalens.engine.binary import mapped
    from isalens.reading import set_max_input_size

    # 1.3 GB, over the 1 GiB default cap: raised for this read only (an environment variable set here leaked
    # into every later test's subprocesses: test_hostile_binaries then met a 4 GiB cap)
    set_max_input_size(4 << 30)
    picked = []
    try:
        with mapped(found[0]) as data:
            for index, ref in enumerate(find_code_objects(data, file=str(found[0]))):
                if index % _LIBRARY_STRIDE == 0:
                    picked.append((f"librocsparse {ref.source}", ref.data))
    finally:
        set_max_input_size(None)
    return picked


@pytest.fixture(scope="module")
def code_objects(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    return _built(tmp_path_factory.mktemp("elf64")) + _library()


def test_sections_symbols_and_notes_equal_pyelftools(code_objects: list[tuple[str, bytes]]) -> None:
    assert len(code_objects) >= 3, [label for label, _ in code_objects]
    compared = 0
    for label, data in code_objects:
        ours, oracle = _ours(data), _pyelftools(data)
        for key in oracle:
            assert ours[key] == oracle[key], f"{label}: {key} differ"
        compared += sum(len(v) for v in ours["symbols"].values())
        # the parts the listing reads are really there: a metadata note and symbols
        assert any(name == "AMDGPU" and kind == 32 for name, kind, _ in ours["notes"]), label
    assert compared > 0


def test_debug_build_sections_are_read(code_objects: list[tuple[str, bytes]]) -> None:
    # -g adds the DWARF sections the scan reads with pyelftools; our table must list them (debug_info's source)
    debug = [data for label, data in code_objects if label.startswith("debug")]
    assert debug
    names = {s.name for s in Elf64(debug[0]).sections}
    assert {".debug_line", ".debug_info"} <= names, names
