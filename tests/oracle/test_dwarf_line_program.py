"""Our reader of ``.debug_line`` (binary/dwarf_line_program.py, behind dwarf_lines.read_line_table) against
pyelftools' line-program decoder, read the way isalens read it before (kept here as the oracle): every row's
address range, file path, line and column, and the problems reported, on clang-19 ``-g`` and
``-gline-tables-only`` builds of our kernels (OpenCL for wave64 and wave32 targets, HIP) and on a sample of
Debian's librocsparse (clang 15, DWARF 5), when it is unpacked. tests/oracle/test_source_lines.py checks the
lines against llvm-objdump's; damaged sections raise only :class:`DwarfFormatError`.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from isalens.binary.dwarf_info import DwarfFormatError
from isalens.binary.dwarf_line_program import iter_line_programs
from isalens.binary.dwarf_lines import file_names, read_line_table
from isalens.binary.elf64 import Elf64
from isalens.ir.source import SourceLoc
from tests import elf_edit as E
from tests.oracle.test_dwarf_info import _KERNELS, _library
from tests.oracle.test_source_lines import _build

elftools = pytest.importorskip("elftools")
from elftools.elf.elffile import ELFFile  # noqa: E402


def pyelftools_table(data: bytes) -> tuple[list[tuple[int, int, SourceLoc]], list[str]]:
    """(start, end, location) rows and problems, by pyelftools' line programs."""
    elf = ELFFile(io.BytesIO(data))
    if elf.get_section_by_name(".debug_line") is None or not elf.has_dwarf_info():
        return [], []
    dwarf = elf.get_dwarf_info(relocate_dwarf_sections=False)
    rows: list[tuple[int, int, SourceLoc]] = []
    problems: list[str] = []
    for cu in dwarf.iter_CUs():
        program = dwarf.line_program_for_CU(cu)
        if program is None:
            continue
        version = int(program.header["version"])
        names = file_names(program.header, version)
        pending: tuple[int, SourceLoc] | None = None
        for entry in program.get_entries():
            state: Any = entry.state
            if state is None:
                continue
            if pending is not None and state.address >= pending[0]:
                rows.append((pending[0], state.address, pending[1]))
            elif pending is not None:
                problems.append(f"line table row at {state.address:#x} goes back from {pending[0]:#x}")
            pending = None
            if state.end_sequence:
                continue
            if not 0 <= state.file < len(names):
                problems.append(f"line table row at {state.address:#x} names file {state.file}, which the "
                                "table does not list")
                continue
            pending = (state.address, SourceLoc(names[state.file], int(state.line), int(state.column)))
    rows.sort(key=lambda r: r[0])
    return rows, problems


@pytest.fixture(scope="module")
def code_objects(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    from isalens.binary.bundle import read_bundles
    from tests.oracle.hipbuild import build

    tmp = tmp_path_factory.mktemp("dwarf_lines")
    out = []
    for source in _KERNELS:
        for target in ("gfx902", "gfx1030"):
            for flag in ("-g", "-gline-tables-only"):
                co = _build(source, target, tmp / f"{source.stem}.{target}{flag}.co", flag)
                out.append((f"{source.stem} {target} {flag}", co.read_bytes()))
    bundle = build(tmp / "debug.hipfb", "--cuda-device-only", "-g")
    out += [(f"hip {e.triple}", e.data) for e in read_bundles(bundle.read_bytes(), file="debug.hipfb")
            if "amdgcn" in e.triple]
    return out + [(label, data) for label, data, _wave in _library()]


def test_line_tables_equal_pyelftools(code_objects: list[tuple[str, bytes]]) -> None:
    compared = 0
    for label, data in code_objects:
        oracle_rows, oracle_problems = pyelftools_table(data)
        ours = read_line_table(data, file=label, where="code object")
        assert list(zip(ours.starts, ours.ends, ours.locs, strict=True)) == oracle_rows, label
        assert list(ours.problems) == oracle_problems, label
        compared += len(oracle_rows)
    # our kernels alone give hundreds of rows: the comparison covered something
    assert compared >= 500, compared


def _damaged(data: bytes, rng: random.Random) -> bytes:
    sections = [".debug_line", ".debug_line", ".debug_info", ".debug_abbrev", ".debug_line_str"]
    return E.damage_section(data, sections, rng)


def test_damaged_sections_raise_one_format_error(code_objects: list[tuple[str, bytes]]) -> None:
    rng = random.Random(32)
    data = next(d for label, d in code_objects if label == "fp32 gfx902 -g")
    outcomes = {"read": 0, "error": 0}
    for _ in range(300):
        try:
            for program in iter_line_programs(Elf64(_damaged(data, rng))):
                assert isinstance(program.rows, tuple)
            outcomes["read"] += 1
        except DwarfFormatError as exc:  # anything else (IndexError, struct.error ...) fails the test
            assert "\n" not in str(exc) and str(exc)
            outcomes["error"] += 1
    assert outcomes["error"] >= 30, outcomes


def test_a_damaged_program_is_one_input_error_naming_the_file(code_objects: list[tuple[str, bytes]],
                                                             tmp_path: Path) -> None:
    from isalens.errors import InputError

    data = next(d for label, d in code_objects if label == "fp32 gfx902 -g")
    line = bytearray(E.section_bytes(data, ".debug_line"))
    line[0:4] = (len(line) * 2).to_bytes(4, "little")  # the first program's length past the section's end
    with pytest.raises(InputError) as caught:
        read_line_table(E.replace_contents(data, ".debug_line", bytes(line)), file="k.co", where="code object")
    assert caught.value.file == "k.co" and caught.value.code == "dwarf"
    assert "run past the end of the section" in caught.value.message


def test_an_extended_opcode_cut_off_at_the_end_is_a_format_error(code_objects: list[tuple[str, bytes]]) -> None:
    data = next(d for label, d in code_objects if label == "fp32 gfx902 -g")
    line = bytes(E.section_bytes(data, ".debug_line"))
    # one program (one unit) ending in DW_LNE_end_sequence: 0x00, length 1, opcode 1 (DWARF 5 §6.2.5.3)
    assert int.from_bytes(line[:4], "little") + 4 == len(line) and line[-3:] == b"\x00\x01\x01"
    # drop the opcode byte: the length says one byte follows, and none does
    cut = (len(line) - 5).to_bytes(4, "little") + line[4:-1]
    with pytest.raises(DwarfFormatError, match="extended opcode of 1 bytes"):
        list(iter_line_programs(Elf64(E.replace_contents(data, ".debug_line", cut))))
