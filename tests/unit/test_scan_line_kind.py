"""A scan's kernels carry only their ``debug_info`` kind from the DWARF line table
(binary.dwarf_lines.attach_line_kind), no location per instruction: the kind must be the one the full attachment
(attach_line_table, which every other command uses) gives, for every way a table can cover a kernel: real lines,
line 0 before or after a real line (line 0 is carried forward, isalens.ir.source), no row covering it."""

from __future__ import annotations

import pytest

from isalens import records
from isalens.binary.dwarf_lines import LineTable, attach_line_kind, attach_line_table
from isalens.engine.load import load
from isalens.ir.program import Kernel
from isalens.ir.source import SourceLoc
from tests.conftest import ROOT


def _kernel() -> Kernel:
    """The first bundled example's first kernel, its instructions at addresses 0, 4, 8 ..."""
    path = sorted((ROOT / "examples" / "isa").glob("*.s"))[0]
    kernel = load(path.read_text(), None).kernels[0].ir
    return records.replace(kernel, instructions=tuple(ins._replace(address=4 * i)
                                                      for i, ins in enumerate(kernel.instructions)))


def _table(*rows: tuple[int, int, int]) -> LineTable:
    """Rows of (first address, end address, line) in file a.cl."""
    return LineTable(tuple(r[0] for r in rows), tuple(r[1] for r in rows),
                     tuple(SourceLoc("a.cl", r[2]) for r in rows))


@pytest.mark.parametrize("rows", [
    ((0, 8, 3), (8, 10**6, 4)),        # every instruction has a line
    ((0, 8, 0), (8, 10**6, 7)),        # line 0 first, a real line later
    ((0, 8, 5), (8, 10**6, 0)),        # a real line, then line 0 carried forward
    ((0, 10**6, 0),),                  # only line 0: no line at all
    ((10**6, 2 * 10**6, 9),),          # a table that covers none of the kernel
    ((12, 16, 2),),                    # one instruction in the middle
], ids=["lines", "zero-first", "zero-after", "only-zero", "elsewhere", "one"])
def test_the_kind_equals_the_full_attachment(rows: tuple[tuple[int, int, int], ...]) -> None:
    kernel = _kernel()
    assert len(kernel.instructions) > 4
    full = attach_line_table(kernel, _table(*rows))
    kind = attach_line_kind(kernel, _table(*rows))
    assert kind.source.debug_info == full.source.debug_info
    assert kind.source.locs == ()  # no location per instruction: what the scan saves
    assert kind.instructions == kernel.instructions


def test_the_kinds_differ_between_cases() -> None:
    # the cases above cover both kinds (a check that could not fail would prove nothing)
    kernel = _kernel()
    assert attach_line_kind(kernel, _table((0, 10**6, 3))).source.debug_info == "lines"
    assert attach_line_kind(kernel, _table((0, 10**6, 0))).source.debug_info == "none"
