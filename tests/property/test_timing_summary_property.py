"""The timing step's region totals summed straight from a block's instructions and schedule columns
(``Summary.add_block``, ``Summary.add_stall_columns``, eighteenth session) equal the per-block way they replace:
``Summary.of_block`` and ``Summary.add_stalls`` on the block's records, then ``merge`` into the total. The per-block
way is the definition (it is what the model describes: a block's summary, cut to its heaviest lines per unit,
summed into its region); equal means the same values and the same key order in every dict (the JSON lists
units, flops and stall kinds in first-seen order)."""

from __future__ import annotations

from typing import Any, NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.timing.model import Work
from isalens.analysis.timing.summary import TOP, Summary


class _Timing(NamedTuple):
    unit: str


class _Costs(NamedTuple):
    unit: str
    issue: int
    work: Work
    timing: _Timing


def _costs(unit: str, issue: int, work: Work) -> _Costs:
    return _Costs(unit, issue, work, _Timing(unit))


_WORK = st.one_of(
    st.just(Work()),
    st.builds(lambda f, n: Work({f: n}, fma=n // 2), st.sampled_from(["fp32", "fp64", "fp16"]), st.integers(0, 64)),
    st.builds(lambda n: Work(bytes_global=n), st.integers(0, 256)),
    st.builds(lambda n: Work(bytes_lds=n), st.integers(0, 256)),
)
_COST = st.builds(_costs, st.sampled_from(["valu", "salu", "vmem", "lds", "trans"]), st.integers(0, 8), _WORK)
_REASONS = st.sampled_from(["", "unit", "dependency", "vmcnt", "lgkmcnt", "hazard"])


def _shape(s: Summary) -> tuple[Any, ...]:
    """Every field, dicts as their item lists (order included)."""
    return (list(s.issue.items()), [(u, list(d.items())) for u, d in s.unit_lines.items()], list(s.flops.items()),
            s.bytes_global, s.bytes_lds, s.fma, list(s.stalls.items()),
            [(k, list(d.items())) for k, d in s.stall_lines.items()])


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_block_sums_equal_merged_block_summaries(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 40))
    statics = data.draw(st.lists(_COST, min_size=n, max_size=n))
    # lines repeat now and then (two instructions of one line), and need not increase
    lines = data.draw(st.lists(st.integers(1, 30), min_size=n, max_size=n))
    stalls = data.draw(st.lists(st.integers(-1, 9), min_size=n, max_size=n))
    reasons = data.draw(st.lists(_REASONS, min_size=n, max_size=n))
    blockers = data.draw(st.lists(st.integers(-1, n - 1), min_size=n, max_size=n))
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=6)))
    blocks = [(lo, hi) for lo, hi in zip([0, *cuts], [*cuts, n], strict=True) if hi - lo <= TOP]
    with_stalls = data.draw(st.booleans())
    start = data.draw(st.sampled_from([Summary(), Summary({"valu": 3}, {"valu": {7: 3}}, {"fp32": 2}, 1, 2, 1,
                                                          {"issue": 4}, {"issue": {7: 4}})]))

    expected, got = Summary(), Summary()
    for total in (expected, got):
        total.merge(start, 1, stalls=True)
    for lo, hi in blocks:
        one = Summary.of_block(range(lo, hi), statics, lines)  # type: ignore[arg-type]
        if with_stalls:
            recs = [(i, 0, stalls[i], reasons[i], None if blockers[i] < 0 else blockers[i]) for i in range(lo, hi)]
            one.add_stalls(recs, statics, lines)  # type: ignore[arg-type]
        expected.merge(one, 1, stalls=with_stalls)
        issue: dict[str, int] = {}
        got.add_block(lo, hi, statics, lines, issue)  # type: ignore[arg-type]
        assert list(issue.items()) == list(one.issue.items())  # the block's own issue cycles, in the same order
        if with_stalls:
            got.add_stall_columns(range(lo, hi), stalls, reasons, blockers, statics, lines)  # type: ignore[arg-type]
    assert _shape(got) == _shape(expected)


def test_block_sums_example() -> None:
    """By hand: a VALU op of 1 cycle at line 3 doing 2 fp32 flops (1 FMA), a VALU op of 2 cycles at line 5, a
    vector load of 4 cycles at line 4 moving 64 bytes; the total holds VALU 3 cycles (line 3: 1, line 5: 2), VMEM
    4 (line 4: 4), fp32 2, FMA 1, 64 global bytes. Line 5 stalled 6 cycles on the load's counter (blocker index
    2, line 4): the kind is the blocker's unit's, "global-memory latency", 6 cycles charged to lines 5 and 4."""
    statics = [_costs("valu", 1, Work({"fp32": 2}, fma=1)), _costs("valu", 2, Work()),
               _costs("vmem", 4, Work(bytes_global=64))]
    lines = [3, 5, 4]
    total = Summary()
    issue: dict[str, int] = {"salu": 1}
    total.add_block(0, 3, statics, lines, issue)  # type: ignore[arg-type]
    assert issue == {"salu": 1, "valu": 3, "vmem": 4}
    total.add_stall_columns(range(3), [0, 6, 0], ["", "vmcnt", ""], [-1, 2, -1], statics, lines)  # type: ignore[arg-type]
    assert total.issue == {"valu": 3, "vmem": 4}
    assert total.unit_lines == {"valu": {3: 1, 5: 2}, "vmem": {4: 4}}
    assert (total.flops, total.fma, total.bytes_global, total.bytes_lds) == ({"fp32": 2}, 1, 64, 0)
    assert total.stalls == {"global-memory latency": 6}
    assert total.stall_lines == {"global-memory latency": {5: 6, 4: 6}}


@settings(max_examples=1000, deadline=None)
@given(st.dictionaries(st.integers(0, 200), st.integers(-3, 12), max_size=60))
def test_tops_are_the_sorted_cut(weights: dict[int, int]) -> None:
    """A region's heaviest lines per unit and per stall kind (``unit_tops``/``stall_tops``, taken through
    ``heapq.nsmallest`` when there are more than TOP lines, nineteenth session) are by definition the lines
    sorted by weight descending, ties by line ascending, cut to TOP: that sort is the oracle. Small weights
    make many ties."""
    expected = tuple(ln for ln, _w in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP])
    s = Summary(unit_lines={"valu": dict(weights)}, stall_lines={"issue": dict(weights)})
    assert s.unit_tops() == ({"valu": expected})
    assert s.stall_tops() == ({"issue": expected})


_UNIT_NAMES = ["valu", "salu", "vmem", "lds", "trans"]


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_range_sums_equal_block_by_block(data: st.DataObject) -> None:
    """``Summary.add_ranges`` (twentieth session: a region's own blocks in one call, sums per distinct costs
    object, each unit's lines through the core) against its definition, block by block: ``add_block`` for a
    block of at most TOP instructions, ``merge(of_block(...), 1)`` for a longer one (whose lines are cut to its
    heaviest), into an empty summary or one holding some figures already. Costs objects repeat (instructions of
    one text share one); blocks long and short, in any order and overlapping; lines repeat."""
    pool = data.draw(st.lists(_COST, min_size=1, max_size=6))
    n = data.draw(st.integers(1, 60))
    statics = data.draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    lines = data.draw(st.lists(st.integers(1, 40), min_size=n, max_size=n))
    bound = st.integers(0, n)
    ranges = data.draw(st.lists(st.tuples(bound, bound).map(sorted), max_size=5)
                       | st.lists(st.integers(0, n), max_size=4).map(lambda cuts: [
                           (a, b) for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), n], strict=True)]))
    start = data.draw(st.sampled_from([Summary(), Summary({"vmem": 3}, {"vmem": {7: 3}}, {"fp64": 2}, 1, 2, 1)]))
    expected, got = Summary(), Summary()
    for total in (expected, got):
        total.merge(start, 1, stalls=True)
    for lo, hi in ranges:
        if hi - lo <= TOP:
            expected.add_block(lo, hi, statics, lines, {})  # type: ignore[arg-type]
        else:
            expected.merge(Summary.of_block(range(lo, hi), statics, lines), 1, stalls=False)  # type: ignore[arg-type]
    names = list(_UNIT_NAMES)
    codes = [names.index(c.unit) for c in statics]
    got.add_ranges([lo for lo, _ in ranges], [hi for _, hi in ranges], statics,  # type: ignore[arg-type]
                   {id(c): c for c in statics}, lines, codes, [c.issue for c in statics], names)  # type: ignore[misc]
    assert _shape(got) == _shape(expected)


def test_range_sums_example() -> None:
    """By hand: a block of 17 instructions (one more than TOP), each a 1-cycle VALU op at lines 1..17, except
    line 9, a 2-cycle one; then a short block of one 1-cycle VALU op at line 1. The long block keeps its 16
    heaviest lines: line 9 (2), then lines 1..8, 10..16 (1 each, first met first); line 17 is cut. The short
    block then adds 1 to line 1: 2. Issue cycles are all 18 instructions': 17 + 1 + 1 = 19."""
    one, two = _costs("valu", 1, Work()), _costs("valu", 2, Work())
    statics = [two if k == 8 else one for k in range(17)] + [one]
    lines = [*range(1, 18), 1]
    total = Summary()
    total.add_ranges([0, 17], [17, 18], statics, {id(c): c for c in statics}, lines,  # type: ignore[arg-type]
                     [0] * 18, [c.issue for c in statics], ["valu"])
    assert total.issue == {"valu": 19}
    assert list(total.unit_lines["valu"].items()) == [(9, 2), *((k, 2 if k == 1 else 1) for k in
                                                                  [*range(1, 9), *range(10, 17)])]
