"""The register map built with big-integer arithmetic equals the obvious per-register loop (brute force)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.ir.registers import RegFile, registers_in
from isalens.report.regmap import register_map


def _by_hand(occupied: int, defs: int, uses: int, file: RegFile, width: int) -> str:
    cells = [" "] * width
    for r in registers_in(occupied, file):
        if r < width:
            cells[r] = ":"
    written, read = set(registers_in(defs, file)), set(registers_in(uses, file))
    for r in written | read:
        if r < width:
            cells[r] = "x" if r in written and r in read else ("^" if r in written else "v")
    return "".join(cells)


masks = st.integers(min_value=0, max_value=(1 << 3000) - 1)


@settings(max_examples=400, deadline=None)
@given(masks, masks, masks, st.sampled_from(list(RegFile)), st.integers(min_value=0, max_value=300))
def test_register_map_equals_the_loop(occupied: int, defs: int, uses: int, file: RegFile, width: int) -> None:
    assert register_map(occupied, defs, uses, file, width) == _by_hand(occupied, defs, uses, file, width)
