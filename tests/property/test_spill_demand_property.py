"""The spills advice's demand (``advice/spills.demand``): per instruction its live count plus the dwords of the
slots whose spans strictly cross it; the answer is (the most of those sums, the most slot dwords at once), each
at least 0. The oracle is that definition computed instruction by instruction, slot by slot (the function sums
the crossings as a running sum, nineteenth session)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.advice.spills import Slot, demand


@st.composite
def cases(draw: st.DrawFn) -> tuple[tuple[int, ...], list[Slot]]:
    counts = tuple(draw(st.lists(st.integers(0, 256), max_size=40)))
    n = max(len(counts), 1)
    slots = [Slot(f"scratch+{4 * k}", draw(st.integers(1, 4)), ((draw(st.integers(0, n - 1)), "v0"),),
                  ((draw(st.integers(0, n - 1)), "v0"),)) for k in range(draw(st.integers(0, 6)))]
    return counts, slots


@settings(max_examples=1000, deadline=None)
@given(cases())
def test_demand_is_the_crossing_sum(case: tuple[tuple[int, ...], list[Slot]]) -> None:
    counts, slots = case
    held = [sum(s.dwords for s in slots if s.span[0] < i < s.span[1]) for i in range(len(counts))]
    need = max([0, *(c + h for c, h in zip(counts, held, strict=True))])
    assert demand(counts, slots) == (need, max([0, *held]))


def test_demand_example() -> None:
    """Worked by hand: live counts 10, 12, 11, 9; a 2-dword slot stored at 0 and reloaded at 3 crosses
    instructions 1 and 2: 12 + 2 = 14 at most, 2 dwords held at once."""
    slot = Slot("scratch+0", 2, ((0, "v1"),), ((3, "v1"),))
    assert demand((10, 12, 11, 9), [slot]) == (14, 2)
