"""Two cuts of the timing step checked against the code they replaced (twenty-second session):

* ``BlockTimings.dicts`` (the JSON writer's block objects in one pass over the columns) against the definition:
  ``report.timing._block_dict`` of each block's record (``BlockTimings._item``), the same values and the same key
  order, issue units included (the JSON of ``timing --json`` without sorted keys lists them in this order).
* ``regions._inner_loops`` (which now walks the loop headers when there are fewer of them than member blocks)
  against its former body, which walked every member block in order."""

from __future__ import annotations

from array import array
from types import SimpleNamespace
from typing import Any, cast

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.cfg import Loop
from isalens.analysis.timing import regions
from isalens.analysis.timing.model import BlockTimings
from isalens.arch.timing import UNITS
from isalens.report.timing import _block_chunks, _block_dict


def _items(d: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(k, list(v.items()) if isinstance(v, dict) else v) for k, v in d.items()]


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_block_dicts_equal_the_records_dicts(data: st.DataObject) -> None:
    sizes = data.draw(st.lists(st.integers(0, 5), min_size=0, max_size=30))  # empty blocks too
    starts, ends, at = [], [], 0
    for size in sizes:
        starts.append(at)
        at += size
        ends.append(at)
    n_blocks, width = len(sizes), len(UNITS)
    lines = data.draw(st.lists(st.integers(1, 50), min_size=at, max_size=at))
    depths = data.draw(st.lists(st.integers(0, 3), min_size=n_blocks, max_size=n_blocks))
    # few distinct rows, mostly zeros, the others one unit away from the first: blocks share issue rows (the
    # memo of distinct rows is exercised) and rows that differ in one unit only must not be taken for each other
    base = data.draw(st.lists(st.sampled_from([0, 0, 0, 1, 4, 16]), min_size=width, max_size=width))
    rows = [base]
    for unit, cycles in data.draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, 16)), max_size=3)):
        rows.append([*base[:unit], cycles, *base[unit + 1:]])
    issue = array("q", [c for _b in range(n_blocks) for c in data.draw(st.sampled_from(rows))])
    lengths = data.draw(st.lists(st.integers(0, 99), min_size=n_blocks, max_size=n_blocks))
    paths = {b: tuple(data.draw(st.lists(st.integers(1, 50), max_size=4)))
             for b in data.draw(st.sets(st.integers(0, max(n_blocks - 1, 0)))) if b < n_blocks}
    blocks = BlockTimings(starts, ends, lines, depths, issue, lengths, paths)
    expected = [_items(_block_dict(blocks._item(b))) for b in range(n_blocks)]
    assert [_items(d) for d in blocks.dicts()] == expected
    assert [_items(d) for d in blocks.dicts()] == expected  # again, with the rows' memo filled
    # the objects' JSON text made directly: what the writer (orjson, keys sorted) makes of the dicts
    assert b"[" + b",".join(_block_chunks(blocks)) + b"]" == orjson.dumps(list(blocks.dicts()),
                                                                          option=orjson.OPT_SORT_KEYS)


def test_block_json_text_in_chunks() -> None:
    """10,000 blocks (more than one chunk of 4,096), some empty, some with a critical path: one array's text."""
    n, width = 10_000, len(UNITS)
    starts = [2 * b for b in range(n)]
    ends = [2 * b + (b % 3 != 0) * 2 for b in range(n)]
    issue = array("q", [(b * 7 + u) % 5 if u % 3 == 0 else 0 for b in range(n) for u in range(width)])
    blocks = BlockTimings(starts, ends, list(range(1, 2 * n + 1)), [b % 4 for b in range(n)], issue,
                          [b % 50 for b in range(n)], {b: (b, b + 1) for b in range(0, n, 97)})
    chunks = list(_block_chunks(blocks))
    assert len(chunks) == 3
    assert b"[" + b",".join(chunks) + b"]" == orjson.dumps(list(blocks.dicts()), option=orjson.OPT_SORT_KEYS)


def _former_inner_loops(k: Any, members: set[int], own_header: int | None) -> list[Loop]:
    """``_inner_loops`` as it was before the twenty-second session (every member block walked in order)."""
    candidates = [lp for b in sorted(members) if b != own_header and (lp := k.loops_by_header.get(b)) is not None
                  and lp.blocks <= members]
    chosen = {lp.header for lp in candidates}
    return [lp for lp in candidates
            if not any(o is not lp and o.header in chosen and lp.blocks < o.blocks for o in k.through[lp.header])]


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_inner_loops_equal_the_member_walk(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 40))
    loops = []
    for _ in range(data.draw(st.integers(0, 12))):
        body = data.draw(st.sets(st.integers(0, n - 1), min_size=1))
        header = data.draw(st.sampled_from(sorted(body)))
        loops.append(Loop(header=header, blocks=frozenset(body), depth=1))
    by_header = {lp.header: lp for lp in loops}
    through: dict[int, list[Loop]] = {}
    for lp in loops:
        for b in lp.blocks:
            through.setdefault(b, []).append(lp)
    k = SimpleNamespace(loops_by_header=by_header, headers=sorted(by_header), through=through)
    # the whole kernel, each loop's body, and a random set of blocks
    regions_: list[tuple[set[int], int | None]] = [(set(range(n)), None)]
    regions_ += [(set(lp.blocks), lp.header) for lp in loops]
    regions_.append((data.draw(st.sets(st.integers(0, n - 1))), None))
    for members, own in regions_:
        got = regions._inner_loops(cast(Any, k), members, own)
        want = _former_inner_loops(k, members, own)
        assert [id(lp) for lp in got] == [id(lp) for lp in want]
