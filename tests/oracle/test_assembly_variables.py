"""Source variables at every instruction of LLVM assembly built with ``-g`` (its ``;DEBUG_VALUE:`` comments)
and of the code object assembled from that very text (its DWARF location lists), against
``llvm-dwarfdump-19 --debug-info`` of the same object (the oracle): for every instruction, the (variable,
register) pairs isalens says are held there equal the location lists' register entries at its address.

The assembly is assembled by clang itself, so both are one program by construction: instruction i of the text is
instruction i of the object. LLVM ends every location at the end of its machine block, and the ``.Ltmp`` labels
the line table puts between the instructions of one block end none (a reading that ended them at every label
kept a loop's accumulator for one instruction of the loop).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from isalens.engine import load_input
from isalens.ir.instruction import Instruction
from isalens.ir.registers import iter_bits, unit_name
from isalens.ir.source import VariableLoc
from tests.conftest import EXAMPLES, require_tool
from tests.oracle.test_dwarf_variables import dwarfdump_variables
from tests.oracle.test_source_lines import _build

SOURCES = [EXAMPLES / "kernels" / p for p in (
    "control/loops.cl", "source/inlined.cl", "fp16_layouts/fp32.cl", "calls/calls.cl", "reduce/reductions.cl",
    "control/switch.cl")]
TARGETS = ("gfx902", "gfx1100")


def _held(variables: tuple[VariableLoc, ...], index: int) -> set[tuple[str, str]]:
    """(variable, register) for the variables in one whole register at instruction ``index``: the oracle's
    register entries are whole registers without a piece. A variable in a register tuple (``$vgpr2_vgpr3``, a
    64-bit value) is left out: LLVM 19 writes no DWARF location for it at all (a tuple has no DWARF register
    number, and the address-space suffix cannot follow pieces), so only the assembly names it."""
    out = set()
    for v in variables:
        registers = {unit_name(u).split(".")[0] for u in iter_bits(v.mask)}
        if v.start <= index <= v.end and "[" not in v.name and len(registers) == 1:
            out |= {(v.name, reg) for reg in registers}
    return out


def _paired(text: tuple[Instruction, ...], binary: tuple[Instruction, ...]) -> list[tuple[int, int]]:
    """(text index, object index) of the same instruction: the object has the ``s_nop`` the assembler fills a
    ``.p2align`` with (loop headers on gfx10+), which the text has not."""
    pairs, t = [], 0
    for b, ins in enumerate(binary):
        if t < len(text) and text[t].mnemonic == ins.mnemonic:
            pairs.append((t, b))
            t += 1
        else:
            assert ins.mnemonic == "s_nop", f"instruction {b} of the object ({ins.text}) is not in the text"
    return pairs


def _assembled(asm: Path, target: str) -> Path:
    clang = require_tool("clang-19")
    require_tool("ld.lld-19")
    obj, co = asm.with_suffix(".o"), asm.with_suffix(".co")
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", "-c", str(asm), "-o", str(obj)],
                   check=True, capture_output=True)
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", str(obj), "-o", str(co)],
                   check=True, capture_output=True)
    return co


@pytest.mark.parametrize("target", TARGETS)
def test_variables_at_every_instruction_equal_llvm_dwarfdump(target: str, tmp_path: Path) -> None:
    compared = named = past_scope = 0
    for source in SOURCES:
        if not source.exists():
            pytest.fail(f"{source} is missing")
        asm = _build(source, target, tmp_path / f"{source.stem}.s", "-g")
        co = _assembled(asm, target)
        oracle, scopes = dwarfdump_variables(co, 32 if target.startswith("gfx11") else 64)
        texts = {k.ir.name: k.ir for k in load_input(asm)[1]}
        for kernel in load_input(co)[1]:
            binary = kernel.ir
            text = texts[binary.name]
            pairs = _paired(text.instructions, binary.instructions)
            assert len(pairs) == len(text.instructions), (source.name, binary.name)
            for t, b in pairs:
                address = binary.instructions[b].address
                assert address is not None
                expected = {(name, reg) for name, low, high, reg in oracle if low <= address < high}
                where = (source.name, binary.name, t, hex(address), binary.instructions[b].text)
                assert _held(binary.source.variables, b) == expected, ("code object", *where)
                ours = _held(text.source.variables, t)
                assert expected <= ours, ("assembly", *where)
                # the one thing assembly cannot know: a variable's lexical scope (its ``{ }`` block, an inlined
                # helper's body), which only the DWARF records. The assembly keeps a variable in its register
                # until the register is written or the block ends, past its scope: allowed only outside every
                # scope of that name, and only in a register the DWARF puts it in elsewhere
                for name, reg in ours - expected:
                    assert not any(low <= address < high for low, high in scopes.get(name, ())), \
                        ("assembly", name, reg, *where)
                    assert any(n == name and r == reg for n, _low, _high, r in oracle), ("assembly", name, reg, *where)
                    past_scope += 1
                compared += 1
                named += len(expected)
    print(f"\n{target}: variables equal llvm-dwarfdump at {compared} instructions ({named} variable registers; "
          f"the assembly names {past_scope} more past their scope)")
    assert compared > 300 and named > 300, "too little compared: the test would prove little"
