"""isalens's VLIW reader against LLVM's r600 backend on our kernels (examples/vliw/*.cl).

clang-19 compiles each kernel for Cypress (Evergreen, VLIW5) and Cayman (VLIW4) with libclc linked:

    clang-19 -x cl -cl-std=CL1.2 -target r600 -mcpu=CPU -S -O2 \
        -Xclang -mlink-builtin-bitcode -Xclang /usr/lib/clc/CPU-r600--.bc

Checks, for every clause of every kernel:

* our slot count (operations + literal slots, groups recovered from the ``*`` markers) equals LLVM's
  printed ``ALU n`` + 1, and our fetch count equals ``TEX n`` + 1;
* our slot recovery (destination channel, trans-only operations and non-increasing channels in t)
  never puts two operations in one slot nor breaks a slot rule in LLVM's own packing;
* the GPRs we count equal the NUM_GPRS LLVM writes into SQ_PGM_RESOURCES.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from isalens.engine.vliw import analyze_vliw, load_vliw
from isalens.ir.diagnostics import Severity
from tests.conftest import EXAMPLES, require_tool

pytestmark = pytest.mark.oracle

KERNELS = sorted((EXAMPLES / "vliw").glob("*.cl"))
CPUS = {"cypress": "evergreen", "cayman": "cayman"}


def compile_r600(source: Path, cpu: str, out_dir: Path) -> Path:
    clang = require_tool("clang-19")
    libclc = Path(f"/usr/lib/clc/{cpu}-r600--.bc")
    if not libclc.is_file():
        pytest.skip(f"libclc for {cpu} is not installed ({libclc})")
    out = out_dir / f"{source.stem}.{cpu}.s"
    cmd = [clang, "-x", "cl", "-cl-std=CL1.2", "-target", "r600", f"-mcpu={cpu}", "-S", "-O2",
           "-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(libclc), "-o", str(out), str(source)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return out


def test_at_least_five_kernels() -> None:
    assert len(KERNELS) >= 5


@pytest.mark.parametrize("cpu", sorted(CPUS))
@pytest.mark.parametrize("source", KERNELS, ids=lambda p: p.stem)
def test_clause_slots_equal_llvm(source: Path, cpu: str, tmp_path: Path) -> None:
    asm = compile_r600(source, cpu, tmp_path)
    module = load_vliw(asm, target=cpu)
    assert (module.dialect, module.generation) == ("llvm", CPUS[cpu])
    result = analyze_vliw(module)
    problems = [d.format() for d in result.diagnostics if d.severity is not Severity.NOTE]
    assert problems == []
    compared = 0
    for program in result.programs:
        for clause in program.clauses:
            if clause.kind == "cf":
                continue
            assert clause.declared is not None
            assert clause.slots == clause.declared, (program.name, clause.index, clause.opcode)
            compared += 1
        assert program.gprs == program.declared_gprs, program.name
    assert compared > 0
    # Cayman is VLIW4: four slots, never t (the checks of the reference r600 samples, on our kernels)
    assert result.width == (4 if cpu == "cayman" else 5)
    if cpu == "cayman":
        assert result.total.per_slot.t == 0
    # one loop per LOOP_START_DX10 LLVM printed
    assert len(result.total.loops) == len(re.findall(r"\bLOOP_START_DX10\b", asm.read_text()))


@pytest.mark.parametrize("source", KERNELS, ids=lambda p: p.stem)
def test_cayman_is_recognised_without_a_target(source: Path, tmp_path: Path) -> None:
    # every kernel computes get_global_id, whose MULLO_INT Cayman spreads over x/y/z/w
    asm = compile_r600(source, "cayman", tmp_path)
    assert load_vliw(asm).generation == "cayman"
    evergreen = compile_r600(source, "cypress", tmp_path)
    assert load_vliw(evergreen).generation == "evergreen"
