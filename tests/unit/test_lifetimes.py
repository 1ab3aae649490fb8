"""Live ranges and the peak queries (reaching writes, next reads) on a diamond worked out by hand.

The batched walk (every register at once) and the single-register walk (runs, half registers) must give
the answers derived below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import isalens
from isalens.analysis.cfg import CFG, cfg
from isalens.analysis.lifetimes import definitions_reaching, live_ranges, next_uses
from isalens.analysis.liveness import Liveness, liveness
from isalens.ir.program import Kernel
from isalens.ir.registers import HALF_LO, Reg, RegFile

# index: 0 v0 = 1 | 1 v1 = 2 | 2 branch on SCC | then 3 v0 = v0 + v1, 4 jump | else 5 v0 = 3 | join 6 v2 = v0 * v1,
# 7 store v2 to the address in v[4:5] (live at entry), 8 end
DIAMOND = """\
v_mov_b32 v0, 1
v_mov_b32 v1, 2
s_cbranch_scc0 .LBB0_2
v_add_f32 v0, v0, v1
s_branch .LBB0_3
.LBB0_2:
v_mov_b32 v0, 3
.LBB0_3:
v_mul_f32 v2, v0, v1
global_store_dword v[4:5], v2, off
s_endpgm
"""


@pytest.fixture(scope="module")
def diamond(tmp_path_factory: pytest.TempPathFactory) -> tuple[Kernel, CFG, Liveness]:
    path: Path = tmp_path_factory.mktemp("lt") / "diamond.s"
    path.write_text(DIAMOND)
    kernel = isalens.load(path, "gfx902").kernels[0].ir
    assert [i.mnemonic for i in kernel.instructions][5:7] == ["v_mov_b32", "v_mul_f32"]
    graph = cfg(kernel)
    return kernel, graph, liveness(kernel, graph)


def v(index: int, **kw: int) -> Reg:
    return Reg(RegFile.VGPR, index, **kw)


def test_live_ranges_by_hand(diamond: tuple[Kernel, CFG, Liveness]) -> None:
    kernel, graph, live = diamond
    got = [(r.reg, r.start, r.end) for r in live_ranges(kernel, graph, live)]
    # v0: written at 0, live to its last read at 6 on both paths (rewritten at 5 but live out there);
    # v1: written at 1, read at 3 and 6; v2: 6 -> 7; v4/v5 (the store address) live from entry to 7
    assert got == [("v0", 0, 6), ("v4", 0, 7), ("v5", 0, 7), ("v1", 1, 6), ("v2", 6, 7)]


def test_reaching_writes_by_hand(diamond: tuple[Kernel, CFG, Liveness]) -> None:
    kernel, graph, _ = diamond
    assert definitions_reaching(kernel, graph, 6, v(0)) == (3, 5)  # one write per side of the diamond
    assert definitions_reaching(kernel, graph, 6, v(1)) == (1,)
    assert definitions_reaching(kernel, graph, 4, v(0)) == (3,)
    assert definitions_reaching(kernel, graph, 7, v(4)) == ()  # from the entry: nobody wrote it
    assert definitions_reaching(kernel, graph, 6, v(0, halves=HALF_LO)) == (3, 5)  # single-register walk
    assert definitions_reaching(kernel, graph, 6, v(0, count=2)) == (3, 5)  # v[0:1]: the nearest write of either


def test_next_reads_by_hand(diamond: tuple[Kernel, CFG, Liveness]) -> None:
    kernel, graph, _ = diamond
    assert next_uses(kernel, graph, 0, v(0)) == (3,)  # the else side rewrites v0 at 5 before reading it
    assert next_uses(kernel, graph, 1, v(1)) == (3, 6)  # then side reads at 3, else side first at the join
    assert next_uses(kernel, graph, 5, v(0)) == (6,)
    assert next_uses(kernel, graph, 0, v(3)) == ()
    assert next_uses(kernel, graph, 0, v(0, halves=HALF_LO)) == (3,)  # single-register walk
    assert next_uses(kernel, graph, 1, v(0, count=2)) == (3,)  # v[0:1]: the write at 5 ends the else path


def test_next_uses_of_a_live_set_equal_each_registers_own_walk() -> None:
    """``DefUse.next_uses_of`` follows only the registers asked (the peak's live set) in one walk; each answer
    must equal the single-register walk's for that register alone, at every example kernel's peaks and at a
    few other lines, whole registers and half ones (those take the single walk) alike."""
    from isalens.analysis.lifetimes import DefUse, _next_uses_walk
    from isalens.ir.registers import HALF_HI, registers_in
    from tests.conftest import ROOT

    asked = 0
    for path in sorted((ROOT / "examples" / "isa").glob("*.s")):
        for loaded in isalens.load(path).kernels:
            kernel = loaded.ir
            graph = cfg(kernel)
            live = liveness(kernel, graph)
            n = len(kernel.instructions)
            for at in {0, n // 3, n // 2, n - 1}:
                mask = live.live_in[at] | live.live_out[at]
                for file in (RegFile.VGPR, RegFile.SGPR):
                    regs = [Reg(file, i) for i in registers_in(mask, file)]
                    if file is RegFile.VGPR and regs:
                        regs.append(Reg(file, regs[0].index, halves=HALF_HI))
                    got = DefUse(kernel, graph).next_uses_of(at, regs)
                    assert got == [_next_uses_walk(kernel, graph, at, r) for r in regs], (path.name, at, file)
                    asked += len(regs)
    assert asked > 500
