"""The stats section's per-block objects written as text from the block columns (``report.stats._block_chunks``)
equal what the writer's orjson makes of the same objects as dicts: generated blocks with shared and distinct class
counts, class names that JSON must escape, and more blocks than one chunk."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.cfg import Block
from isalens.analysis.stats import BlockStatsRows
from isalens.report.stats import _block_chunks, _block_object

_NAMES = st.sampled_from(["valu.f32", "salu", "branch", 'q"uote', "back\\slash", "é", "tab\t", "\x01", "z" * 40])


def _rows(sizes: list[int], depths: list[int], counts: list[dict[str, int]], which: list[int]) -> BlockStatsRows:
    blocks, at = [], 0
    for b, size in enumerate(sizes):
        blocks.append(Block(b, at, at + size, (), ()))
        at += size
    return BlockStatsRows(blocks, depths, [4 * s for s in sizes], which, counts)


def _text(rows: BlockStatsRows) -> bytes:
    return b"[" + b",".join(_block_chunks(rows)) + b"]"


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_block_text_equals_orjson(data: st.DataObject) -> None:
    counts = data.draw(st.lists(st.dictionaries(_NAMES, st.integers(0, 1 << 40), max_size=5), min_size=1,
                                max_size=4))
    n = data.draw(st.integers(0, 30))
    sizes = data.draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    depths = data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    which = data.draw(st.lists(st.integers(0, len(counts) - 1), min_size=n, max_size=n))
    rows = _rows(sizes, depths, counts, which)
    assert _text(rows) == orjson.dumps([_block_object(b) for b in rows], option=orjson.OPT_SORT_KEYS)


def test_many_blocks_in_chunks() -> None:
    n = 9_000
    rows = _rows([b % 5 for b in range(n)], [b % 3 for b in range(n)], [{"salu": 1}, {"valu.f32": 2, "lds": 7}],
                 [b % 2 for b in range(n)])
    assert len(list(_block_chunks(rows))) == 3
    assert _text(rows) == orjson.dumps([_block_object(b) for b in rows], option=orjson.OPT_SORT_KEYS)
