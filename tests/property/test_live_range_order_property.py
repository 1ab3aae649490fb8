"""Live ranges come in (start, name) order, and ``longest`` picks as a full sort by (-span, start, name) would.

``live_ranges`` sorts by packed int keys and ``longest`` takes the top ``count`` without sorting all ranges
(both for kernels with a million ranges); the oracles here are the plain sorts by the named fields."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isalens
from isalens.analysis import lifetimes
from isalens.analysis.cfg import cfg
from isalens.analysis.lifetimes import LiveRange, LiveRanges, live_ranges, longest
from isalens.analysis.liveness import liveness
from isalens.ir.registers import RegFile

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "isa").glob("*.s"))
_FILES = {"v": RegFile.VGPR, "a": RegFile.AGPR, "s": RegFile.SGPR}

_range = st.builds(
    lambda prefix, index, start, length: LiveRange(f"{prefix}{index}", _FILES[prefix], start, start + length),
    st.sampled_from("vas"), st.integers(0, 20), st.integers(0, 30), st.integers(0, 12))


@settings(max_examples=500, deadline=None)
@given(st.lists(_range, max_size=60), st.integers(0, 15), st.sampled_from([None, *_FILES.values()]))
def test_longest_equals_the_full_sort(ranges: list[LiveRange], count: int, file: RegFile | None) -> None:
    ordered = tuple(sorted(ranges, key=lambda r: (r.start, r.reg)))  # live_ranges' order, its precondition
    chosen = [r for r in ordered if file is None or r.file is file]
    expected = tuple(sorted(chosen, key=lambda r: (-r.span, r.start, r.reg))[:count])
    assert longest(ordered, count, file) == expected
    # the analyses' columns (the compiled core's top-count pick and each file's bits) against the same sort
    bits = {name: bit for bit, (name, _file) in enumerate(lifetimes._NAMES)}
    columns = LiveRanges(array("i", [bits[r.reg] for r in ordered]), array("i", [r.start for r in ordered]),
                         array("i", [r.end for r in ordered]))
    assert list(columns) == list(ordered)
    assert longest(columns, count, file) == expected


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_live_ranges_come_in_start_then_name_order(path: Path) -> None:
    for k in isalens.load(path).kernels:
        kernel = k.ir
        graph = cfg(kernel)
        ranges = live_ranges(kernel, graph, liveness(kernel, graph))
        assert ranges
        # (the examples hold lines where registers' bit order is not their names' order: v10 before v2)
        assert list(ranges) == sorted(ranges, key=lambda r: (r.start, r.reg))
