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


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(masks, masks, masks), min_size=1, max_size=12),
       st.sampled_from([RegFile.VGPR, RegFile.SGPR]), st.integers(min_value=1, max_value=300))
def test_a_shared_memo_changes_nothing(rows: list[tuple[int, int, int]], file: RegFile, width: int) -> None:
    """Lines of one listing share a memo (write/read marks per (defs, uses), occupied cells per live set),
    also across its clearing when full (limit lowered to 3 here): each line still equals the loop."""
    import isalens.report.regmap as regmap

    memo: dict[tuple[int, int] | int, int] = {}
    limit, regmap._MEMO_LIMIT = regmap._MEMO_LIMIT, 3
    try:
        for occupied, defs, uses in rows + rows[::-1]:  # every set seen again, some after a clear
            assert register_map(occupied, defs, uses, file, width, memo) == _by_hand(occupied, defs, uses, file,
                                                                                     width)
    finally:
        regmap._MEMO_LIMIT = limit
