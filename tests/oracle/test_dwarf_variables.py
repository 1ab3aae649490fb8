"""Source variables at the VGPR peak of a code object built with ``-g`` (issue 27): the variables isalens names
for the peak's registers equal what ``llvm-dwarfdump-19 --debug-info`` location lists say for the peak's
address (the oracle), and the "held there" summary's counts add up to the peak's live count.

The oracle reads llvm-dwarfdump's text (its own DWARF reader and its own register names: ``VGPR77_LO16`` is
LLVM's first register with the DWARF number of v77), not pyelftools, which isalens uses.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
from pathlib import Path

import pytest

from isalens.binary.dwarf_variables import dwarf_register
from isalens.cli import main
from isalens.engine.binary import load_binary
from isalens.ir.registers import RegFile
from tests.conftest import EXAMPLES, require_tool
from tests.oracle.test_source_lines import _build

KERNELS = [EXAMPLES / "kernels" / "fp16_layouts" / f"{name}.cl" for name in ("half3_two_uint", "fp32")]
_DIE = re.compile(r"^0x[0-9a-f]+:\s+(DW_TAG_\w+)", re.M)
_RANGE = re.compile(r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\): (.*?)\)?$")
#: a variable held in a register, as LLVM 19 writes it: the register +0 and the address-space suffix, no
#: DW_OP_stack_value (which would make it a value computed from the register). llvm-dwarfdump names the registers
#: of wave64 (``VGPR3_LO16``, LLVM's first register with that number); a wave32 VGPR or AGPR it prints as a number
_HELD = re.compile(r"^DW_OP_bregx (?:(VGPR|SGPR|AGPR)(\d+)(?:_LO16|_HI16)?|0x([0-9a-f]+) )\+0, DW_OP_lit\d+, "
                   r"DW_OP_swap, DW_OP_xderef$")


def dwarfdump_locations(code_object: Path, wave_size: int = 64) -> list[tuple[str, int, int, str]]:
    """(variable, low, high, register such as ``v3``) for every register location llvm-dwarfdump prints: the
    entries of a location list, and a single location (``DW_AT_location (DW_OP_bregx ...)``) over every address
    range of the innermost enclosing scope (subprogram, lexical block or inlined subroutine), as DWARF defines it."""
    return dwarfdump_variables(code_object, wave_size)[0]


def dwarfdump_variables(code_object: Path, wave_size: int = 64) -> tuple[list[tuple[str, int, int, str]],
                                                                          dict[str, list[tuple[int, int]]]]:
    """:func:`dwarfdump_locations`, and each variable name's scopes: the address ranges of the innermost scope
    enclosing each DIE of that name."""
    text = subprocess.run([require_tool("llvm-dwarfdump-19"), "--debug-info", str(code_object)], check=True,
                          capture_output=True, text=True).stdout
    out = []
    in_scope: dict[str, list[tuple[int, int]]] = {}
    scopes: list[tuple[int, list[tuple[int, int]]]] = []  # (depth: the tag's column, its address ranges)
    starts = [m.start() for m in _DIE.finditer(text)] + [len(text)]
    for begin, end in itertools.pairwise(starts):
        block = text[begin:end]
        header = block.split("\n", 1)[0]
        tag = header.split()[1]
        depth = header.index("DW_TAG")
        while scopes and scopes[-1][0] >= depth:
            scopes.pop()
        if tag in ("DW_TAG_subprogram", "DW_TAG_lexical_block", "DW_TAG_inlined_subroutine"):
            scopes.append((depth, _scope_ranges(block) or (scopes[-1][1] if scopes else [])))
            continue
        if tag not in ("DW_TAG_variable", "DW_TAG_formal_parameter"):
            continue
        # its own name, or (the copy of an inlined helper's variable) its abstract origin's, which llvm-dwarfdump
        # prints beside the reference
        name = re.search(r'DW_AT_name\s+\("([^"]+)"\)', block) \
            or re.search(r'DW_AT_abstract_origin\s+\(0x[0-9a-f]+ "([^"]+)"\)', block)
        if name is None:
            continue
        in_scope.setdefault(name.group(1), []).extend(scopes[-1][1] if scopes else [])
        single = re.search(r"DW_AT_location\s+\((DW_OP_[^\n]*)\)$", block, re.M)
        if single:
            held = _HELD.match(single.group(1).strip())
            reg = _reg(held, wave_size) if held else None
            if reg and scopes:
                out += [(name.group(1), low, high, reg) for low, high in scopes[-1][1]]
            continue
        for line in block.splitlines():
            found = _RANGE.search(line.strip())
            if found is None:
                continue
            held = _HELD.match(found.group(3).strip())
            reg = _reg(held, wave_size) if held else None
            if reg:
                out.append((name.group(1), int(found.group(1), 16), int(found.group(2), 16), reg))
    return out, in_scope


def _reg(held: re.Match[str], wave_size: int) -> str | None:
    if held.group(1):
        return {"VGPR": "v", "SGPR": "s", "AGPR": "a"}[held.group(1)] + held.group(2)
    # AMDGPUUsage, "DWARF Register Number Mapping": wave32 VGPRs at 1536, AGPRs at 2048
    number = int(held.group(3), 16)
    if wave_size == 32 and 1536 <= number < 1536 + 256:
        return f"v{number - 1536}"
    if wave_size == 32 and 2048 <= number < 2048 + 256:
        return f"a{number - 2048}"
    return None


def _scope_ranges(block: str) -> list[tuple[int, int]]:
    """A scope DIE's address ranges: ``DW_AT_low_pc`` and ``DW_AT_high_pc``, or the list of ``DW_AT_ranges``."""
    low = re.search(r"DW_AT_low_pc\s+\(0x([0-9a-f]+)\)", block)
    high = re.search(r"DW_AT_high_pc\s+\(0x([0-9a-f]+)\)", block)
    if low and high:
        return [(int(low.group(1), 16), int(high.group(1), 16))]
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r"^\s*\[0x([0-9a-f]+), 0x([0-9a-f]+)\)", block, re.M)]


@pytest.mark.parametrize("source", KERNELS, ids=lambda p: p.stem)
def test_variables_at_the_vgpr_peak_equal_llvm_dwarfdump(source: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    co = _build(source, "gfx902", tmp_path / f"{source.stem}.co", "-g")
    assert main(["analyze", "--json", str(co)]) == 0
    kernel = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]
    assert kernel["debug_info"] == "lines+variables"
    peak = kernel["vgpr"]["peak_indices"][0]
    address = load_binary(co).ir.kernels[0].instructions[peak].address
    assert address is not None
    live = {entry["reg"] for entry in kernel["peak_live_set"]["vgpr"]}
    ours = {(name, entry["reg"]) for entry in kernel["peak_live_set"]["vgpr"] for name in entry["variables"]}
    oracle = {(name, reg) for name, low, high, reg in dwarfdump_locations(co)
              if low <= address < high and reg in live}
    assert oracle, "the oracle names no variable at the peak: the test would prove nothing"
    assert ours == oracle

    # the summary: each variable's registers plus the temporaries make up the peak's live count
    assert main(["analyze", str(co)]) == 0
    held = next(line for line in capsys.readouterr().out.splitlines() if "held there:" in line)
    counts = [int(n) for n in re.findall(r"(\d+) (?:VGPRs?|temporar(?:y|ies))", held)]
    assert sum(counts) == kernel["vgpr"]["peak_live"], held


@pytest.mark.parametrize(("number", "wave_size", "expected"), [
    # AMDGPUUsage, "DWARF Register Number Mapping": SGPR0-63 at 32-95, SGPR64-105 at 1088-1129, VGPRs at 1536
    # (wave32) / 2560 (wave64), AGPRs at 2048 (wave32) / 3072 (wave64); EXEC (1, 17), SCC (128), VCC (512, 768)
    # are no general-purpose registers
    (32, 64, ("s", 0)), (95, 64, ("s", 63)), (1088, 64, ("s", 64)), (1129, 32, ("s", 105)),
    (2560, 64, ("v", 0)), (2815, 64, ("v", 255)), (1536, 32, ("v", 0)), (1537, 32, ("v", 1)),
    (3072, 64, ("a", 0)), (2048, 32, ("a", 0)), (2563, 32, None), (1539, 64, None),
    (17, 64, None), (1, 32, None), (128, 64, None), (768, 64, None), (96, 64, None), (1130, 64, None),
])
def test_dwarf_register_numbers(number: int, wave_size: int, expected: tuple[str, int] | None) -> None:
    reg = dwarf_register(number, wave_size)
    if expected is None:
        assert reg is None
    else:
        assert reg is not None and (RegFile(expected[0]), reg.index) == (reg.file, expected[1])
