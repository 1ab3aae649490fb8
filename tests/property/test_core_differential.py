"""The compiled core against the pure-Python reference (isalens._core): identical answers.

The reference is the oracle here: it is the readable definition, and it is itself checked against brute force
(test_liveness_property.py) and against LLVM (the oracle tests). Three levels:

* the core function alone on >= 1,000 hypothesis-generated problems: random unit bitsets spanning several
  64-bit words, implicit-def markers before and after, half-lane facts, random block graphs with EXEC skip
  edges, exit sets and visiting orders;
* ``liveness()`` on hypothesis-generated kernels (random branches), each core in turn;
* ``isalens livereg --json`` (and ``analyze --json`` on the examples) on every ISA example and every program of
  the compiled oracle corpus (``.cache/corpus``, when built), byte for byte.

Skipped when the extension is not built (a machine without a C compiler runs only the reference).
"""

from __future__ import annotations

import contextlib
import io
import json
import types
from array import array
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isalens import _core
from isalens._core import dwarf as _core_dwarf
from isalens._core import graph, lines, listing, ranges, reading, reference, schedule, totals, words
from isalens._core.listing import LineColumns
from isalens.analysis.cfg import cfg
from isalens.analysis.liveness import liveness
from isalens.binary.dwarf_info import DwarfFormatError
from isalens.binary.dwarf_line_program import _run as line_program_run
from isalens.cli import main
from isalens.ir.instruction import Instruction
from tests.property.test_liveness_property import programs

compiled = pytest.importorskip("isalens._core._compiled", reason="compiled core not built")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))
CORPUS = sorted((ROOT / ".cache" / "corpus").glob("*/clang.s"))

#: units up to three 64-bit words and a bit, so word boundaries and a ragged last word are crossed
UNITS = 3 * 64 + 5
#: the units small sets are drawn from: few enough that reads, writes, markers and lane halves overlap often
POOL = (0, 1, 2, 63, 64, 65, 127, 128, 191, 192, UNITS - 1)


class Facts(NamedTuple):
    defs: int
    uses: int
    undef_before: int
    undef_after: int


class Lanes(NamedTuple):
    lo_def: int
    hi_def: int
    lo_uses: int
    hi_uses: int
    sources: int


def _bits(draw: st.DrawFn, dense: bool = False) -> int:
    """A unit set: empty, a few units, or a dense random mask."""
    kind = draw(st.sampled_from(["empty", "few", "few", "dense"] if not dense else ["few", "dense"]))
    if kind == "empty":
        return 0
    if kind == "few":
        return sum(1 << u for u in draw(st.sets(st.sampled_from(POOL), max_size=4)))
    return draw(st.integers(0, 2**UNITS - 1))


@st.composite
def problems(draw: st.DrawFn) -> tuple[Any, ...]:
    nblocks = draw(st.integers(1, 8))
    sizes = [draw(st.integers(0, 5)) for _ in range(nblocks)]
    starts, ends, at = [], [], 0
    for size in sizes:
        starts.append(at)
        at += size
        ends.append(at)
    instructions = []
    lanes: list[Lanes | None] = []
    for _ in range(at):
        marker = draw(st.sampled_from(["none", "none", "before", "after"]))
        instructions.append(Facts(_bits(draw), _bits(draw), _bits(draw) if marker == "before" else 0,
                                  _bits(draw) if marker == "after" else 0))
        lanes.append(Lanes(*(_bits(draw) for _ in range(5))) if draw(st.integers(0, 3)) == 0 else None)
    succs = [tuple(draw(st.lists(st.integers(0, nblocks - 1), max_size=2))) for _ in range(nblocks)]
    skips = [list(draw(st.lists(st.integers(0, nblocks - 1), max_size=1))) for _ in range(nblocks)]
    order = draw(st.permutations(range(nblocks)))
    return (instructions, lanes, starts, ends, succs, skips, _bits(draw, dense=True), _bits(draw), order)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_solve_liveness_same_answers(problem: tuple[Any, ...]) -> None:
    """On a list, and on a tuple (a kernel's instructions: the compiled core then reads their sets through the
    table the later passes keep, whose width its lane facts and exit set may exceed)."""
    expected = reference.solve_liveness(*problem)
    assert compiled.solve_liveness(*problem) == expected
    assert compiled.solve_liveness(tuple(problem[0]), *problem[1:]) == expected


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.data())
def test_defined_passes_same_answers(problem: tuple[Any, ...], data: st.DataObject) -> None:
    """The "maybe defined" passes: the fixpoint, the reads outside it, the masking of live sets (in place).
    The instructions are a tuple, as a kernel's are: the compiled core keeps its table for the next pass."""
    instructions, lanes, starts, ends, succs, skips, mask, exit_live, order = problem
    instructions = tuple(instructions)
    preds: list[list[int]] = [[] for _ in starts]
    for b, ss in enumerate(succs):
        for s in ss:
            preds[s].append(b)
    entry = data.draw(st.builds(lambda x: x, st.integers(0, 2**(UNITS + 70) - 1)) | st.just(0))
    defined = reference.maybe_defined(instructions, starts, ends, preds, order, entry)
    assert compiled.maybe_defined(instructions, starts, ends, preds, order, entry) == defined
    skip = [data.draw(st.booleans()) for _ in instructions]
    reads = reference.undefined_reads(instructions, starts, ends, defined, skip)
    assert compiled.undefined_reads(instructions, starts, ends, defined, skip) == reads
    live_in, live_out, *_ = reference.solve_liveness(instructions, lanes, starts, ends, succs, skips, mask,
                                                     exit_live, order)
    expected_in, expected_out = list(live_in), list(live_out)
    reference.mask_defined(instructions, starts, ends, defined, expected_in, expected_out)
    got_in, got_out = list(live_in), list(live_out)
    compiled.mask_defined(instructions, starts, ends, defined, got_in, got_out)
    assert (got_in, got_out) == (expected_in, expected_out)


@settings(max_examples=300, deadline=None)
@given(programs())
def test_liveness_same_with_each_core(kernel: Any) -> None:
    with _core_set(REFERENCE):
        expected_cfg = cfg(kernel)
        expected = liveness(kernel, expected_cfg)
    with _core_set(compiled):
        got_cfg = cfg(kernel)
        assert got_cfg == expected_cfg
        assert liveness(kernel, got_cfg) == expected


#: the functions isalens._core exports from the running core
_FUNCTIONS = ("solve_liveness", "maybe_defined", "undefined_reads", "mask_defined", "line_objects_json",
              "block_graph", "natural_loops", "keyed_rows", "schedule_passes",
              # the per-line passes after liveness
              "occupied_runs", "line_counts", "block_unions", "value_lines", "next_reads",
              # dread (seventeenth session): the front half
              "control_flow", "instruction_lines", "rows_masked", "rows_prefixed",
              # dtime (eighteenth session): the timing step's per-block pass
              "block_schedules",
              # decfast (eighteenth session): the decoder listing's word loop
              "cached_runs")
#: the pure-Python core as one namespace (the graph, the dataflow, the listing writer, the reader's loop and the
#: schedule are five modules)
REFERENCE = types.SimpleNamespace(**{name: next(getattr(m, name) for m in (reference, graph, listing, reading,
                                                                           schedule, lines, words)
                                                if hasattr(m, name)) for name in _FUNCTIONS})


@contextlib.contextmanager
def _core_set(impl: Any) -> Any:
    saved = {name: getattr(_core, name) for name in _FUNCTIONS}
    for name in _FUNCTIONS:
        setattr(_core, name, getattr(impl, name))
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(_core, name, function)


def _output(argv: list[str], impl: Any) -> bytes:
    out = io.StringIO()
    with _core_set(impl), contextlib.redirect_stdout(out):
        code = main(argv)
    return f"exit {code}\n{out.getvalue()}".encode()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("command", [["livereg", "--json"], ["analyze", "--json"]], ids=" ".join)
def test_examples_same_json(path: Path, command: list[str]) -> None:
    argv = [*command, str(path)]
    assert _output(argv, compiled) == _output(argv, REFERENCE)


@pytest.mark.skipif(not CORPUS, reason="oracle corpus not built (.cache/corpus)")
def test_corpus_same_json() -> None:
    differ = [p.parent.name for p in CORPUS
              if _output(["livereg", "--json", str(p)], compiled)
              != _output(["livereg", "--json", str(p)], REFERENCE)]
    assert not differ, f"{len(differ)} of {len(CORPUS)} corpus programs differ: {differ[:5]}"


class Line(NamedTuple):
    line: int
    text: str
    defs: int


class Loc(NamedTuple):
    file: str
    line: int


#: texts with what JSON must escape (quotes, backslashes, every control character) and non-ASCII
_TEXTS = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12) | st.sampled_from(
    ["v_add_f32 v0, v1, v2", 'a"b\\c', "\x00\x1f\x7f\t\n\r\x0b\x0c\x08\x1a", "é\u2028😀"])
_NUMBERS = st.integers(-(1 << 63), (1 << 63) - 1) | st.integers(0, 300)
#: a value the compiled writer leaves to the reference (orjson writes it, or refuses it): a bool, a float, an
#: int beyond 64 bits, a lone surrogate
_ODD = st.sampled_from([True, False, 1.5, 1 << 64, -(1 << 70), "x\udcff"])


@st.composite
def listings(draw: st.DrawFn) -> LineColumns:
    n = draw(st.integers(0, 12))
    nblocks = draw(st.integers(1, 4))
    ints = st.lists(_NUMBERS, min_size=n, max_size=n)
    locs = [Loc("a.cl", 1), Loc('q"\\.cl', 7)]
    sources = draw(st.just(()) | st.lists(st.sampled_from([None, *locs]), min_size=n, max_size=n))
    names = draw(st.lists(_TEXTS, max_size=3))
    instructions: list[Any] = [Line(draw(_NUMBERS), draw(_TEXTS), draw(st.integers(0, 255))) for _ in range(n)]
    counts: list[list[Any]] = [draw(ints) for _ in range(5)]
    if n and draw(st.integers(0, 9)) == 0:  # now and then one odd value, in a line number, a text or a count
        odd, at, where = draw(_ODD), draw(st.integers(0, n - 1)), draw(st.integers(0, 5))
        if where == 5:
            instructions[at] = instructions[at]._replace(**{"text" if isinstance(odd, str) else "line": odd})
        else:
            counts[where][at] = odd
    return LineColumns(
        instructions=instructions,
        live_in=draw(st.lists(st.integers(0, (1 << 130) - 1), min_size=n, max_size=n)),
        live_out=draw(st.lists(st.integers(0, (1 << 130) - 1), min_size=n, max_size=n)),
        counts=(counts[0], counts[1], counts[2], counts[3], counts[4]),
        block_of=draw(st.lists(st.integers(0, nblocks - 1), min_size=n, max_size=n)),
        depth_of=draw(st.lists(_NUMBERS, min_size=nblocks, max_size=nblocks)),
        labels_at=draw(st.dictionaries(st.integers(0, max(n - 1, 0)), st.lists(_TEXTS, max_size=2), max_size=3)),
        sources=sources,
        special_mask=0b1111_0000,
        # the set's bits pick names: a different list per set, sometimes with characters to escape
        special_names=lambda mask: [f"{names[k % len(names)]}{k}" for k in range(8) if mask >> k & 1] if names
        else [f"r{k}" for k in range(8) if mask >> k & 1],
        source_dict=lambda loc: {"line": loc.line, "file": loc.file})


def _text_or_error(function: Any, cols: LineColumns) -> str:
    try:
        parts = list(function(cols))
        assert all(type(part) is bytes for part in parts)  # UTF-8 bytes, which the JSON writer puts out as they are
        return b"".join(parts).decode("utf-8")
    except (TypeError, UnicodeError) as exc:  # orjson: "str is not valid UTF-8", "Integer exceeds 64-bit range"
        return f"error {type(exc).__name__}"


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(listings())
def test_listing_json_same_text(cols: LineColumns) -> None:
    expected = _text_or_error(listing.line_objects_json, cols)
    assert _text_or_error(compiled.line_objects_json, cols) == expected
    if not expected.startswith("error"):
        # and the text is the objects' JSON: the reference's dicts parse back from it (orjson is the oracle of
        # the spelling; json.loads checks the content independently)
        objects = json.loads(f"[{expected}]")
        assert objects == json.loads(json.dumps(list(listing.line_objects(cols, 0, len(cols.instructions)))))


@st.composite
def flows(draw: st.DrawFn) -> tuple[list[int], list[bool], list[bool], list[int]]:
    """What block_graph takes: per instruction a jump target or -1, ends-block and falls-through flags (in any
    combination, jumps backwards and forwards), and extra block starts."""
    n = draw(st.integers(1, 40))
    jump_to = draw(st.lists(st.integers(-1, n - 1) | st.just(-1), min_size=n, max_size=n))
    ends = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    falls = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    extra = draw(st.lists(st.integers(0, n - 1), max_size=4))
    return jump_to, ends, falls, extra


def _graph_or_error(function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except ValueError as exc:
        return f"ValueError {exc}"


@settings(max_examples=1000, deadline=None)
@given(flows())
def test_block_graph_same_answers(flow: tuple[list[int], list[bool], list[bool], list[int]]) -> None:
    assert compiled.block_graph(*flow) == graph.block_graph(*flow)


@settings(max_examples=300, deadline=None)
@given(flows(), st.sampled_from(["target", "start"]))
def test_block_graph_same_errors(flow: tuple[list[int], list[bool], list[bool], list[int]], bad: str) -> None:
    jump_to, ends, falls, extra = flow
    n = len(jump_to)
    if bad == "target":
        jump_to = [*jump_to[:-1], n]  # past the last instruction: the caller maps it to -1
    else:
        extra = [*extra, n]
    expected = _graph_or_error(graph.block_graph, jump_to, ends, falls, extra)
    assert expected.startswith("ValueError")
    assert _graph_or_error(compiled.block_graph, jump_to, ends, falls, extra) == expected
    assert _graph_or_error(graph.block_graph, [], [], [], []) == _graph_or_error(compiled.block_graph, [], [], [],
                                                                                 [])


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, 30).flatmap(lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=3), min_size=n,
                                                      max_size=n)))
def test_natural_loops_same_answers(succs: list[list[int]]) -> None:
    """Any graph, repeated edges and self loops included (block_graph makes at most two distinct successors;
    the loop search must not depend on it)."""
    n = len(succs)
    preds: list[list[int]] = [[] for _ in range(n)]
    for b, out in enumerate(succs):
        for x in out:
            preds[x].append(b)
    rpo = graph._reverse_postorder(succs)[0]
    assert compiled.natural_loops(rpo, succs, preds, n) == graph.natural_loops(rpo, succs, preds, n)


class Item:
    """A line as the reader drafts it (``DraftInstruction``'s attributes, in a slotted class of its own)."""

    __slots__ = ("address", "encoding", "line", "text")

    def __init__(self, line: int, text: str, address: int | None, encoding: tuple[int, ...]) -> None:
        self.line, self.text, self.address, self.encoding = line, text, address, encoding


class Row(NamedTuple):
    index: int
    line: int
    text: str
    size: int
    target: str | None


_KEYS = ("a", "b", "c", "s_nop 0", "é😀")


@st.composite
def line_items(draw: st.DrawFn) -> tuple[int, list[Item], dict[str, tuple[Any, ...]], list[Any]]:
    """Lines of a few texts (most repeated), now and then with an address or encoding words, tails for some of
    the texts, and some rows already made (a sentinel object each)."""
    n = draw(st.integers(0, 30))
    items = [Item(draw(_NUMBERS), draw(st.sampled_from(_KEYS)), draw(st.none() | st.none() | st.integers(0, 99)),
                  draw(st.just(()) | st.just(()) | st.tuples(st.integers(0, 9)))) for _ in range(n)]
    tails = {key: (key, draw(st.integers(0, 16)), draw(st.none() | _TEXTS))
             for key in draw(st.sets(st.sampled_from(_KEYS)))}
    rows: list[Any] = [draw(st.none() | st.none() | st.just(object())) for _ in range(n)]
    return draw(_NUMBERS), items, tails, rows


@settings(max_examples=1000, deadline=None)
@given(line_items())
def test_keyed_rows_same_rows(case: tuple[int, list[Item], dict[str, tuple[Any, ...]], list[Any]]) -> None:
    first, items, tails, rows = case
    want, got = list(rows), list(rows)
    missing = reading.keyed_rows(Row, first, items, tails, want)
    assert compiled.keyed_rows(Row, first, items, tails, got) == missing
    assert [(type(r), r) for r in got] == [(type(r), r) for r in want]
    # and the reference keeps its word: a made row is the tail behind its index and line, made only for a line
    # without address and encoding words; every other empty row is named missing, in order
    for k, item in enumerate(items):
        if rows[k] is not None:
            assert want[k] is rows[k]
        elif item.address is None and not item.encoding and item.text in tails:
            assert type(want[k]) is Row and want[k] == (first + k, item.line, *tails[item.text])
        else:
            assert want[k] is None
    assert missing == [k for k, row in enumerate(want) if row is None]


def test_keyed_rows_same_error_on_short_rows() -> None:
    items = [Item(1, "a", None, ())]
    for function in (reading.keyed_rows, compiled.keyed_rows):
        with pytest.raises(ValueError, match="differ in length"):
            function(Row, 0, items, {"a": ("a", 4, None)}, [])


class Timing(NamedTuple):
    counters: tuple[str, ...]


class Costs(NamedTuple):
    """What the schedule reads of an instruction (``InstructionCosts``' fields, in a class of its own)."""

    unit: str
    issue: int
    latency: int
    uses: tuple[int, ...]
    defs: tuple[int, ...]
    waits: tuple[tuple[str, int], ...]
    hazard_checks: tuple[tuple[int, str, tuple[int, ...]], ...]
    producer: str
    memory: bool
    nop: bool
    timing: Timing


#: register units: a few that collide often, a high one, now and then one the compiled arrays do not take
_UNITS = st.sampled_from([0, 1, 2, 3, 64, 300]) | st.integers(-2, 1 << 21)
_COUNTERS = st.sampled_from(["vmcnt", "lgkmcnt", "expcnt"])
#: cycle counts: small, and now and then beyond what the compiled core keeps in C (it hands those back)
_CYCLES = st.integers(0, 40) | st.integers(-(1 << 42), 1 << 42)


@st.composite
def schedules(draw: st.DrawFn) -> tuple[list[list[int]], list[Costs], int, bool, int, Costs]:
    """A kernel's costs (units shared, memory ops on counters, waits, hazard producers and checks), orders
    through some of its instructions (repeated, in any order) scheduled one after the other on the same costs
    (the compiled core keeps a kernel's costs between calls), the interval, hazard flag and passes, and a cost
    that replaces the first one for a last call."""
    n = draw(st.integers(1, 10))
    units = st.lists(st.sampled_from([0, 1, 2, 3, 64, 300]), max_size=3).map(tuple)

    def cost() -> Costs:
        memory = draw(st.booleans())
        return Costs(
            unit=draw(st.sampled_from(["valu", "salu", "vmem", "lds"])),
            issue=draw(st.integers(0, 8) | _CYCLES), latency=draw(st.integers(0, 30) | _CYCLES),
            uses=draw(units | st.lists(_UNITS, max_size=2).map(tuple)), defs=draw(units),
            # a wait's limit is a count of outstanding operations: never negative
            waits=tuple(draw(st.lists(st.tuples(_COUNTERS, st.integers(0, 3) | st.integers(0, 1 << 42)),
                                      max_size=2))),
            hazard_checks=tuple(draw(st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["valu", "salu"]),
                                                        units), max_size=2))),
            producer=draw(st.sampled_from(["", "", "valu", "salu"])), memory=memory,
            nop=draw(st.integers(0, 5)) == 0,
            timing=Timing(tuple(draw(st.lists(_COUNTERS, max_size=2))) if memory else ()))

    statics = [cost() for _ in range(n)]
    orders = draw(st.lists(st.lists(st.integers(0, n - 1), max_size=14), min_size=1, max_size=3))
    return (orders, statics, draw(st.integers(1, 8) | _CYCLES), draw(st.booleans()), draw(st.integers(0, 3)),
            cost())


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules())
def test_schedule_same_records(case: tuple[list[list[int]], list[Costs], int, bool, int, Costs]) -> None:
    orders, statics, interval, hazards, passes, other = case
    for order in [*orders, orders[0]]:
        expected = schedule.schedule_passes(order, statics, interval, hazards, passes)
        got = compiled.schedule_passes(order, statics, interval, hazards, passes)
        assert got == expected
        assert [type(x) for recs, _ in got for r in recs for x in r] == \
            [type(x) for recs, _ in expected for r in recs for x in r]
    statics[0] = other  # an element replaced in the same list: read again
    order = [0, *orders[0], 0]
    assert compiled.schedule_passes(order, statics, interval, hazards, passes) == \
        schedule.schedule_passes(order, statics, interval, hazards, passes)


# --- the per-line passes after liveness (isalens._core.lines) ------------------------------------------------


@st.composite
def line_sets(draw: st.DrawFn) -> tuple[tuple[Facts, ...], tuple[int, ...], tuple[int, ...]]:
    """Instructions and two live sets per line; a line's set is often the same int as the line before (as the
    dataflow shares them) or as the other list's, and the lists may be longer than the instructions."""
    n = draw(st.integers(0, 12))
    instructions = tuple(Facts(_bits(draw), _bits(draw), _bits(draw), _bits(draw)) for _ in range(n))
    sets: list[list[int]] = [[], []]
    for i in range(n + draw(st.integers(0, 2))):
        for side in (0, 1):
            how = draw(st.sampled_from(["new", "before", "other"]))
            if how == "before" and i:
                sets[side].append(sets[side][-1])
            elif how == "other" and side == 1 and sets[0]:
                sets[1].append(sets[0][-1])
            else:
                sets[side].append(_bits(draw))
    return instructions, tuple(sets[0]), tuple(sets[1])


#: the live-range masks of the register files (analysis/lifetimes.py): pair slots at the even units, singles
_PAIRS = int("01" * (UNITS // 2), 2)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_sets(), st.data())
def test_occupied_runs_same_answers(case: tuple[Any, ...], data: st.DataObject) -> None:
    """The same runs, in the same order; a second call on the same tuples (the compiled core keeps their
    table), on lists (not kept) and on other tuples of the same length (not mistaken for the kept ones)."""
    instructions, live_in, live_out = case
    pairs = data.draw(st.just(_PAIRS) | st.builds(lambda x: x, st.integers(0, 2**(UNITS + 3) - 1)))
    singles = data.draw(st.just(~_PAIRS & (2**UNITS - 1)) | st.integers(0, 2**UNITS - 1))
    expected = lines.occupied_runs(instructions, live_in, live_out, pairs, singles)
    assert compiled.occupied_runs(instructions, live_in, live_out, pairs, singles) == expected
    assert compiled.occupied_runs(instructions, live_in, live_out, pairs, singles) == expected
    assert compiled.occupied_runs(instructions, list(live_in), list(live_out), pairs, singles) == expected
    other_in = tuple(x ^ 1 for x in live_in)
    assert compiled.occupied_runs(instructions, other_in, live_out, pairs, singles) == \
        lines.occupied_runs(instructions, other_in, live_out, pairs, singles)


def test_occupied_runs_example() -> None:
    """Worked by hand: pair slot 0 (units 0 and 1) and single unit 2. Line 0 writes unit 0 (live out), line 1
    reads it and line 2 writes unit 2 only: slot 0 is occupied on lines 0-1 and ends before line 2, slot 2
    starts on line 2 and is still open at the last line. The high half alone (unit 1) occupies the pair."""
    ins = (Facts(0b001, 0, 0, 0), Facts(0, 0b001, 0, 0), Facts(0b100, 0, 0, 0))
    for impl in (lines, compiled):
        assert impl.occupied_runs(ins, (0, 0b001, 0), (0b001, 0, 0), 0b001, 0b100) == [(0, 0, 1), (2, 2, 2)]
        assert impl.occupied_runs(ins[:1], (0b010,), (0,), 0b001, 0) == [(0, 0, 0)]


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_sets(), st.data())
def test_line_counts_same_answers(case: tuple[Any, ...], data: st.DataObject) -> None:
    instructions, live_in, live_out = case
    columns = data.draw(st.lists(st.tuples(st.integers(0, 2), st.builds(lambda x: x, st.integers(0, 2**UNITS - 1))
                                           | st.just(_PAIRS | _PAIRS << 1)), max_size=5))
    uncounted = data.draw(st.sets(st.integers(-1, len(instructions) + 1)))
    expected = lines.line_counts(instructions, live_in, live_out, uncounted, columns)
    assert compiled.line_counts(instructions, live_in, live_out, uncounted, columns) == expected
    assert compiled.line_counts(instructions, list(live_in), list(live_out), sorted(uncounted), columns) == expected


def test_line_counts_example() -> None:
    """Worked by hand: one line with units 0, 1 (one whole pair), 2 (half of pair 2-3) and 5 live, 6 written.
    Within units 0-7: 5 units; pairs with any unit live: (0,1), (2,3), (4,5), (6,7) = 4; pairs with exactly
    one: (2,3), (4,5), (6,7) = 3. With the line's write not counted: 4 units, 3 pairs, 2 split."""
    ins = (Facts(0b1000000, 0, 0, 0),)
    columns = [(lines.COUNT_UNITS, 0xFF), (lines.COUNT_PAIRS, 0xFF), (lines.COUNT_SPLIT_PAIRS, 0xFF)]
    for impl in (lines, compiled):
        assert impl.line_counts(ins, (0b000111,), (0b100000,), (), columns) == [[5], [4], [3]]
        assert impl.line_counts(ins, (0b000111,), (0b100000,), {0}, columns) == [[4], [3], [2]]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_block_unions_same_answers(problem: tuple[Any, ...]) -> None:
    instructions, _lanes, starts, ends, *_ = problem
    instructions = tuple(instructions)
    assert compiled.block_unions(instructions, starts, ends) == lines.block_unions(instructions, starts, ends)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_sets(), st.data())
def test_value_lines_same_answers(case: tuple[Any, ...], data: st.DataObject) -> None:
    """Masks of one, two or a few units (a register's halves, across a word boundary too) and dense ones, a
    line anywhere, a region of any lines (some outside the kernel)."""
    instructions, live_in, live_out = case
    if not instructions:
        return
    masks = data.draw(st.lists(st.sampled_from([1, 3, 3 << 62, 3 << 63, 3 << 128]) | st.builds(
        lambda x: x, st.integers(0, 2**UNITS - 1)), max_size=4))
    at = data.draw(st.integers(0, len(instructions) - 1))
    region = data.draw(st.frozensets(st.integers(-1, len(instructions) + 1)))
    expected = lines.value_lines(instructions, live_in, live_out, masks, at, region)
    got = compiled.value_lines(instructions, live_in, live_out, masks, at, region)
    assert got == expected
    assert [type(x) for value in got for x in value] == [type(x) for value in expected for x in value]


def test_value_lines_example() -> None:
    """Worked by hand, the register of units 0-1 at line 2 of five: line 0 writes it, line 1 reads it, line 2
    holds it (live through), line 3 reads it, line 4 writes it again. Its value runs from line 0 to the next
    write at line 4: reads at 1 and 3; of region {2, 4} it frees line 2 only (line 4 writes it)."""
    ins = (Facts(0b01, 0, 0, 0), Facts(0, 0b01, 0, 0), Facts(0, 0, 0, 0), Facts(0, 0b11, 0, 0),
           Facts(0b11, 0, 0, 0))
    live_in = (0, 0b01, 0b11, 0b11, 0)
    live_out = (0b01, 0b11, 0b11, 0, 0b11)
    for impl in (lines, compiled):
        assert impl.value_lines(ins, live_in, live_out, [0b11], 2, {2, 4}) == [(0, 4, [1, 3], array("q", [2]))]
        # no write at or before line 0 asked about (the mask of unit 5 is never written): from line 0 to the end
        assert impl.value_lines(ins, live_in, live_out, [1 << 5], 0, {0}) == [(None, 4, [], array("q"))]


# --- dread (seventeenth session): the front half ---------------------------------------------------------------


class Branchy(NamedTuple):
    """What control_flow reads of an instruction (its kind and target), between fields it does not read."""

    index: int
    kind: Any
    text: str
    target: str | None


class Kind(str):
    """A kind whose hash is a Python-level call, as an enum member's is (the compiled core looks kinds up by
    identity first)."""

    def __hash__(self) -> int:
        return hash(str(self))


_KINDS = (Kind("none"), Kind("jump"), Kind("cond"), Kind("end"), "call", 7, None, ("odd",), Kind("a"), Kind("b"),
          Kind("c"))
_NAMES = ("L0", "L1", "L2", "L3", ".LBB0_1", "é")


@st.composite
def flow_rows(draw: st.DrawFn) -> tuple[list[Any], dict[Any, int], dict[str, int]]:
    """Rows of kinds (more than the compiled core remembers by identity, now and then one without flags) and
    targets (None, a label, now and then a name no label has), in a named tuple, a plain tuple or a list;
    flags in any combination; label indices before, inside and past the rows."""
    n = draw(st.integers(0, 30))
    shape = draw(st.sampled_from(["named", "named", "tuple", "list"]))
    kinds = draw(st.lists(st.sampled_from(_KINDS), min_size=1, max_size=len(_KINDS), unique_by=repr))
    flags = {k: draw(st.integers(0, 15)) for k in kinds}
    if draw(st.integers(0, 9)) == 0:
        kinds = [*kinds, "unmapped"]
    labels = {name: draw(st.integers(-2, n + 2)) for name in draw(st.sets(st.sampled_from(_NAMES)))}
    rows: list[Any] = []
    for i in range(n):
        row = Branchy(i, draw(st.sampled_from(kinds)), "x", draw(st.none() | st.sampled_from(_NAMES)))
        rows.append(row if shape == "named" else tuple(row) if shape == "tuple" else list(row))
    return rows, flags, labels


def _flow_or_error(function: Any, rows: list[Any], flags: dict[Any, int], labels: dict[str, int]) -> Any:
    try:
        return function(rows, 1, 3, flags, labels)
    except KeyError as exc:
        return f"KeyError {exc}"


@settings(max_examples=1200, deadline=None)
@given(flow_rows())
def test_control_flow_same_answers(case: tuple[list[Any], dict[Any, int], dict[str, int]]) -> None:
    rows, flags, labels = case
    expected = _flow_or_error(graph.control_flow, rows, flags, labels)
    got = _flow_or_error(compiled.control_flow, rows, flags, labels)
    assert got == expected
    assert type(got) is type(expected)
    if isinstance(expected, str):
        return
    # and the reference keeps its word, checked here from the flags' meaning
    n = len(rows)
    for i, row in enumerate(rows):
        f = flags[row[1]]
        assert expected.ends_block[i] is bool(f & graph.ENDS)
        assert expected.falls_through[i] is bool(f & graph.FALLS)
        if f & graph.JUMPS and row[3] is not None:
            at = labels[row[3]]
            assert expected.jump_to[i] == (at if at < n else -1)
            assert expected.successors[i] == [t for t in (at, *((i + 1,) if f & graph.FALLS else ())) if t < n]
        else:
            assert expected.jump_to[i] == -1
            assert expected.successors.get(i) == ([] if f & graph.STOPS else None)


#: the characters reader lines are drawn from: tab, blanks Python's str.strip and str.split() take (non-breaking,
#: em and ideographic spaces, the \x1c-\x1f separators), the comment marks, a colon, letters of both cases, digits,
#: non-ASCII
_LINE_CHARS = st.sampled_from(["\t", " ", "\u00a0", "\u2003", "\u3000", "\x1c", "\x1f", "\x85", ";", "#", ":", "a",
                               "s", "z", "A", "Z", "0", "_", ",", ".", "é", "😀"])
_CODE_LINES = st.builds(lambda head, tail: head + tail,
                        st.sampled_from(["\t", "\ts", "\tv", "\tz", "\ta", "\tA", "\t.", " v", "\t\t", "", "\t0"]),
                        st.lists(_LINE_CHARS, max_size=16).map("".join))


@settings(max_examples=1200, deadline=None)
@given(st.lists(_CODE_LINES, max_size=12), st.integers(0, 13), st.sampled_from([";", "#", ":"]))
def test_instruction_lines_same_items(lines: list[str], start: int, comment: str) -> None:
    want: list[tuple[int, str]] = []
    got: list[tuple[int, str]] = []
    stop = reading.instruction_lines(lines, start, comment, lambda k, code: (k, code), want)
    assert compiled.instruction_lines(lines, start, comment, lambda k, code: (k, code), got) == stop
    assert got == want
    # and the reference keeps its word: every line taken is tab + a-z, its code what comes before the mark,
    # stripped, and not a label; the line it stops at (if any) is not such a line
    assert [k for k, _ in want] == list(range(start + 1, stop + 1))
    for k, code in want:
        raw = lines[k - 1]
        assert raw[0] == "\t" and raw[1] in "abcdefghijklmnopqrstuvwxyz"
        assert code == raw.partition(comment)[0].strip() and ":" not in code.split()[0]
    if stop < len(lines):
        raw = lines[stop]
        assert not (raw[:1] == "\t" and "a" <= raw[1:2] <= "z") or ":" in raw.partition(comment)[0].split()[0]


def test_instruction_lines_same_errors() -> None:
    for function in (reading.instruction_lines, compiled.instruction_lines):
        for start, comment in ((0, ";;"), (0, ""), (0, "a"), (0, "\t"), (-1, ";")):
            with pytest.raises(ValueError):
                function(["\tv_nop"], start, comment, lambda k, code: (k, code), [])


class Field(NamedTuple):
    mask: int
    name: Any


class Prefix(str):
    """A str subclass (its startswith is str's, reached another way in the compiled core)."""


_PREFIXES = ("s_and", "s_and_saveexec_b", "v_", "", "é", "s_andn2")
_FIELD_NAMES = st.sampled_from(["s_and_saveexec_b64", "s_and_b32", "v_cmpx_eq_u32", "s_andn2_saveexec_b64", "",
                                "é😀", "s"]) | st.text(max_size=6)


@settings(max_examples=1200, deadline=None)
@given(st.lists(st.builds(Field, st.integers(-(1 << 70), 1 << 200) | st.sampled_from([0, 1, 1 << 64, -1]),
                          _FIELD_NAMES | _FIELD_NAMES.map(Prefix)), max_size=20),
       st.integers(-(1 << 70), 1 << 200) | st.sampled_from([0, 1, 1 << 64]),
       st.lists(st.sampled_from(_PREFIXES), min_size=1, max_size=3).map(tuple),
       st.sampled_from(["named", "tuple", "list"]))
def test_rows_selected_same_positions(fields: list[Field], mask: int, prefixes: tuple[str, ...], shape: str) -> None:
    rows: list[Any] = [f if shape == "named" else tuple(f) if shape == "tuple" else list(f) for f in fields]
    masked = graph.rows_masked(rows, 0, mask)
    prefixed = graph.rows_prefixed(rows, 1, prefixes)
    assert compiled.rows_masked(rows, 0, mask) == masked
    assert compiled.rows_prefixed(rows, 1, prefixes) == prefixed
    # and the reference keeps its word, by brute force over the bits and the prefixes
    assert masked == [i for i, f in enumerate(fields) if any(f.mask >> b & 1 and mask >> b & 1 for b in range(202))
                      or (f.mask < 0 and mask < 0)]
    assert prefixed == [i for i, f in enumerate(fields) if any(f.name[:len(p)] == p for p in prefixes)]


# --- the per-line passes after liveness, continued: the peak's def-use walk ------------------------------------


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.data())
def test_next_reads_same_answers(problem: tuple[Any, ...], data: st.DataObject) -> None:
    """Random block graphs (loops, blocks entered again through a back edge, empty blocks), a line anywhere
    (also one past the last), the blocks' unions of reads and writes or random ones, pair and single slots."""
    instructions, _lanes, starts, ends, succs, *_ = problem
    instructions = tuple(instructions)
    if not instructions:
        return
    touches = data.draw(st.just(lines.block_unions(instructions, starts, ends)[1])
                        | st.lists(st.integers(0, 2**UNITS - 1), min_size=len(starts), max_size=len(starts)))
    first = data.draw(st.integers(0, len(starts) - 1))
    index = data.draw(st.integers(0, len(instructions)))
    pending = data.draw(st.just(2**UNITS - 1) | st.integers(0, 2**UNITS - 1))
    pairs = data.draw(st.just(_PAIRS) | st.integers(0, 2**UNITS - 1))
    singles = data.draw(st.just(~_PAIRS & (2**UNITS - 1)) | st.integers(0, 2**UNITS - 1))
    args = (instructions, starts, ends, succs, touches, first, index, pending, pairs, singles)
    assert compiled.next_reads(*args) == lines.next_reads(*args)


def test_next_reads_example() -> None:
    """Worked by hand: block 0 (lines 0-1) branches to block 1 (line 2) and block 2 (line 3). From line 0: the
    pair of units 0-1 is read at line 0 itself; unit 2 (a single) is written at line 1, so its read at line 2
    is another value; unit 3 is read at line 2 on one path and at line 3 on the other."""
    ins = (Facts(0, 0b0001, 0, 0), Facts(0b0100, 0, 0, 0), Facts(0, 0b1100, 0, 0), Facts(0, 0b1000, 0, 0))
    args = ((0, 2, 3), (2, 3, 4), ((1, 2), (), ()), (0b0101, 0b1100, 0b1000), 0, 0, 0b1111, 0b0001, 0b1100)
    for impl in (lines, compiled):
        assert impl.next_reads(ins, *args) == {0: (0,), 3: (2, 3)}


# --- dtime (eighteenth session): every block's schedule in one call (isalens._core.schedule) -------------------


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules(), st.data())
def test_block_schedules_same_columns(case: tuple[list[list[int]], list[Costs], int, bool, int, Costs],
                                      data: st.DataObject) -> None:
    """Random blocks over a kernel's costs (empty, overlapping, reversed, now and then one past the end: the
    same error), scheduled between single-order calls on the same costs (the compiled core keeps their state),
    and again after an element is replaced. The reference is itself ``schedule_passes`` once per block."""
    orders, statics, interval, hazards, _passes, other = case
    n = len(statics)
    bound = st.integers(0, n) | st.integers(-2, n + 2)
    blocks = data.draw(st.lists(st.tuples(bound, bound), max_size=6)
                       | st.lists(st.integers(0, n), max_size=5).map(lambda cuts: [
                           (a, b) for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), n], strict=True)]))
    starts, ends = [a for a, _ in blocks], [b for _, b in blocks]

    def both(fn: str, *args: Any) -> tuple[Any, Any]:
        answers = []
        for impl in (schedule, compiled):
            try:
                answers.append(getattr(impl, fn)(*args))
            except (IndexError, OverflowError) as exc:
                answers.append(type(exc))
        return answers[0], answers[1]

    for _ in range(2):
        expected, got = both("block_schedules", starts, ends, statics, interval, hazards)
        assert got == expected
        if isinstance(got, tuple):
            assert [type(x) for x in got] == [type(x) for x in expected]
            assert all(type(r) is str for r in got[2])
        expected, got = both("schedule_passes", orders[0], statics, interval, hazards, 1)
        assert got == expected
    statics[0] = other  # an element replaced in the same list: read again
    expected, got = both("block_schedules", starts, ends, statics, interval, hazards)
    assert got == expected


def test_block_schedules_example() -> None:
    """Worked by hand: two blocks of the same two instructions, a VALU write of unit 5 (latency 4, issue 1) and
    a VALU read of it; interval 1. In each block the reader waits for the writer: the writer starts at 0, the
    value is ready at 0 + 4, so the reader starts at 4, stalled 4 - 1 = 3 cycles for "dependency" on index 0 or
    2 (its own block's writer: each block starts from an empty state); each block lasts until 4 + 1 = 5."""
    write = Costs("valu", 1, 4, (), (5,), (), (), "", False, False, Timing(()))
    read = Costs("valu", 1, 4, (5,), (), (), (), "", False, False, Timing(()))
    statics = [write, read, write, read]
    for impl in (schedule, compiled):
        starts, stalls, reasons, blockers, lengths = impl.block_schedules([0, 2], [2, 4], statics, 1, False)
        assert list(starts) == [0, 4, 0, 4]
        assert list(stalls) == [0, 3, 0, 3]
        assert reasons == ["", "dependency", "", "dependency"]
        assert list(blockers) == [-1, 0, -1, 2]
        assert lengths == [5, 5]
# --- decfast (eighteenth session): the decoder listing's word loop (isalens._core.words.cached_runs) ---


@st.composite
def word_streams(draw: st.DrawFn) -> tuple[array[int], int, int, int, dict[int, Any], dict[tuple[int, int], Any]]:
    """A dword stream from a small alphabet (so zero runs, cache hits and repeats are common), a window of it,
    and caches: one-dword entries by their dword, longer ones by their first two dwords (None there: longer than
    two), lengths 0-4 (0: the walk stops) and notes now and then."""
    alphabet = [*draw(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=6)), 0]
    stream = array("I", draw(st.lists(st.sampled_from(alphabet), max_size=60)))
    stop = draw(st.integers(0, len(stream) + 3))
    index = draw(st.integers(0, stop))
    entry = st.tuples(st.just("r"), st.just("t"), st.booleans(), st.just(()), st.booleans(), st.integers(0, 4),
                      st.sampled_from(["", "", "note"]))
    one = draw(st.dictionaries(st.sampled_from(alphabet), entry, max_size=4))
    two = draw(st.dictionaries(st.tuples(st.sampled_from(alphabet), st.sampled_from([*alphabet, -1])),
                               st.none() | entry, max_size=6))
    return stream, index, stop, draw(st.integers(0, 2**40)), one, two


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_streams(), st.data())
def test_cached_runs_same_rows(case: tuple[Any, ...], data: st.DataObject) -> None:
    """Both cores give the same rows, noted addresses and stopping index, and ask ``miss`` about the same
    indices in the same order (its answers drawn once per index, so both see the same ones)."""
    stream, index, stop, base, one, two = case
    answers: dict[int, tuple[Any, ...]] = {}
    asked: dict[str, list[int]] = {"reference": [], "compiled": []}

    def miss_for(name: str) -> Any:
        def miss(at: int) -> tuple[Any, ...]:
            asked[name].append(at)
            if at not in answers:
                answers[at] = ("m", "t", False, (), False, data.draw(st.integers(0, 3)), "")
            return answers[at]
        return miss
    want = words.cached_runs(stream, index, stop, base, one, two, miss_for("reference"))
    got = compiled.cached_runs(stream, index, stop, base, one, two, miss_for("compiled"))
    assert got == want
    assert asked["compiled"] == asked["reference"]


def test_cached_runs_example() -> None:
    """Worked by hand: dwords A, 0, 0, 0, B, C at base 0x100; A is one dword (noted), B starts a two-dword entry
    keyed (B, C). Rows: A at 0x100, one None for the three zero dwords, B at 0x110; A's address noted; the walk
    ends at index 6. With B's length 0 the walk stops at index 4, before it."""
    a, b, c = 7, 9, 11
    stream = array("I", [a, 0, 0, 0, b, c])
    ea = ("a", "", True, (), False, 1, "set")
    eb = ("b", "", True, (), False, 2, "")
    for impl in (words, compiled):
        rows, noted, end = impl.cached_runs(stream, 0, 6, 0x100, {a: ea}, {(b, c): eb}, lambda at: None)
        assert (rows, noted, end) == ([(0x100, ea), None, (0x110, eb)], [0x100], 6)
        stopped = impl.cached_runs(stream, 0, 6, 0x100, {a: ea}, {(b, c): (*eb[:5], 0, "")}, lambda at: None)
        assert stopped == ([(0x100, ea), None], [0x100], 4)


# --- lead (nineteenth session): live ranges as int columns (isalens._core.ranges) ------------------------------


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_sets(), st.data())
def test_ranked_runs_same_columns(case: tuple[Any, ...], data: st.DataObject) -> None:
    """The same columns in the same order: ranks drawn with repeats (equal keys keep occupied_runs' order), the
    lifetimes' masks or any; a rank list too short for a slot fails as the reference fails."""
    instructions, live_in, live_out = case
    pairs = data.draw(st.just(_PAIRS) | st.integers(0, 2**(UNITS + 3) - 1))
    singles = data.draw(st.just(~_PAIRS & (2**UNITS - 1)) | st.integers(0, 2**UNITS - 1))
    rank = data.draw(st.lists(st.integers(0, 5), min_size=UNITS + 4, max_size=UNITS + 4))
    expected = ranges.ranked_runs(instructions, live_in, live_out, pairs, singles, rank)
    got = compiled.ranked_runs(instructions, live_in, live_out, pairs, singles, tuple(rank))
    assert got == expected
    assert all(type(column) is array and column.typecode == "i" for column in got)
    if any(slot >= 2 for slot in expected[0]):
        for impl in (ranges, compiled):
            with pytest.raises(IndexError):
                impl.ranked_runs(instructions, live_in, live_out, pairs, singles, rank[:2])


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 30), st.integers(0, 12)), max_size=40),
       st.integers(0, 12), st.integers(-2, 10), st.integers(-2, 12))
def test_longest_runs_same_positions(runs: list[tuple[int, int, int]], count: int, low: int, high: int) -> None:
    slots = array("i", [slot for slot, _, _ in runs])
    firsts = array("i", [first for _, first, _ in runs])
    lasts = array("i", [first + length for _, first, length in runs])
    assert compiled.longest_runs(slots, firsts, lasts, count, low, high) == \
        ranges.longest_runs(slots, firsts, lasts, count, low, high)


def test_longest_runs_example() -> None:
    """Worked by hand: spans 3, 5, 5, 1, 5 at positions 0-4, slots 0-4. The three longest are the three 5s in
    position order (1, 2, 4); without slot 2 (slots 3 and up) the longest is 4 (span 5), then 3 (span 1)."""
    slots, firsts = array("i", [0, 1, 2, 3, 4]), array("i", [0, 0, 1, 2, 2])
    lasts = array("i", [3, 5, 6, 3, 7])
    for impl in (ranges, compiled):
        assert impl.longest_runs(slots, firsts, lasts, 3, 0, 5) == [1, 2, 4]
        assert impl.longest_runs(slots, firsts, lasts, 5, 3, 9) == [4, 3]
        assert impl.longest_runs(slots, firsts, lasts, 0, 0, 5) == []


# --- dtime2 (nineteenth session): costs objects shared by several instructions, read once ---------------------


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules(), st.data())
def test_schedules_with_shared_costs(case: tuple[list[list[int]], list[Costs], int, bool, int, Costs],
                                     data: st.DataObject) -> None:
    """A kernel's instructions share costs objects (one per distinct text: the compiled core reads each object
    once and copies its columns to the other instructions that hold it). A list drawn from a few objects, some
    of them ones the compiled arrays refuse (the reference runs); then an element replaced by a new object and
    another by an object held elsewhere in the list; each time both functions give the reference's answer."""
    _orders, pool, interval, hazards, passes, other = case
    statics = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=14))
    n = len(statics)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=5)))
    starts, ends = [0, *cuts], [*cuts, n]
    order = data.draw(st.lists(st.integers(0, n - 1), max_size=14))
    for step in range(3):
        for _ in range(2):  # the second call finds the costs already read
            assert compiled.block_schedules(starts, ends, statics, interval, hazards) == \
                schedule.block_schedules(starts, ends, statics, interval, hazards)
            assert compiled.schedule_passes(order, statics, interval, hazards, passes) == \
                schedule.schedule_passes(order, statics, interval, hazards, passes)
        if step == 0:
            statics[0] = other  # a new object where a shared one was
        else:
            statics[-1] = statics[data.draw(st.integers(0, n - 1))]  # an object held elsewhere in the list


# --- dec3 (twentieth session): a disassembly's lines of texts decoded before (encoded_rows) ---------------------


class Wide(NamedTuple):
    """A row of the shape ``encoded_rows`` makes: index, line, two fields, address, words, one field, facts."""

    index: int
    line: int
    text: str
    size: int
    address: int
    encoding: tuple[int, ...]
    flag: bool
    facts: Any


@st.composite
def encoded_items(draw: st.DrawFn) -> tuple[int, list[Item], dict[str, Any], list[Any]]:
    """Lines of a few texts, most with an address and one to three encoding words, some with neither or one of
    them; heads for some texts, each with facts for some word counts; some rows already made."""
    n = draw(st.integers(0, 30))
    items = [Item(draw(_NUMBERS), draw(st.sampled_from(_KEYS)), draw(st.none() | st.integers(0, 1 << 40)),
                  draw(st.just(()) | st.tuples(st.integers(0, 9)) | st.tuples(st.integers(0, 9), st.integers(0, 9))
                       | st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))))
             for _ in range(n)]
    heads: dict[str, Any] = {}
    for key in draw(st.sets(st.sampled_from(_KEYS))):
        sized = {size: draw(_TEXTS) for size in draw(st.sets(st.integers(1, 3)))}
        if draw(st.booleans()):
            heads[key] = ((key, draw(st.integers(0, 16))), (draw(st.booleans()),), sized)
        else:  # a branch to an address relative to its own: the row's target from the offset (one field before)
            heads[key] = ((key,), (draw(st.booleans()),), sized, draw(st.integers(-(1 << 18), 1 << 18)))
    rows: list[Any] = [draw(st.none() | st.none() | st.just(object())) for _ in range(n)]
    return draw(_NUMBERS), items, heads, rows


@settings(max_examples=1000, deadline=None)
@given(encoded_items())
def test_encoded_rows_same_rows(case: tuple[int, list[Item], dict[str, Any], list[Any]]) -> None:
    first, items, heads, rows = case
    want, got = list(rows), list(rows)
    missing = reading.encoded_rows(Wide, first, items, heads, want)
    assert compiled.encoded_rows(Wide, first, items, heads, got) == missing
    assert [(type(r), r) for r in got] == [(type(r), r) for r in want]
    # and the reference keeps its word: a row is made only for a line with an address and words whose text has
    # a head with facts for that many words, as the head around the line's own address and words
    for k, item in enumerate(items):
        head = heads.get(item.text)
        if rows[k] is not None:
            assert want[k] is rows[k]
        elif item.address is not None and item.encoding and head is not None and len(item.encoding) in head[2]:
            target = (f"@{item.address + head[3]:#x}",) if len(head) == 4 else ()
            assert type(want[k]) is Wide and want[k] == (first + k, item.line, *head[0], *target, item.address,
                                                           item.encoding, *head[1], head[2][len(item.encoding)])
        else:
            assert want[k] is None
    assert missing == [k for k, row in enumerate(want) if row is None]


def test_encoded_rows_same_error_on_short_rows() -> None:
    items = [Item(1, "a", 4, (1,))]
    for function in (reading.encoded_rows, compiled.encoded_rows):
        with pytest.raises(ValueError, match="differ in length"):
            function(Wide, 0, items, {"a": (("a", 4), (True,), {1: "f"})}, [])


# --- time4 (twentieth session): the timing step's per-block sums as columns (isalens._core.totals) ------------


@st.composite
def unit_columns(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """A kernel's unit codes (now and then one outside the width, negative, or beyond 64 bits), issue cycles (large
    ones now and then: the compiled sums refuse those) and lines (repeating, not increasing), with ranges over it:
    empty, overlapping, reversed, and now and then past either end (the reference's error, or Python's negative
    index)."""
    n = draw(st.integers(0, 30))
    codes = draw(st.lists(st.integers(0, 4) | st.integers(-2, 12) | st.integers(-(2**70), 2**70), min_size=n,
                          max_size=n))
    issues = draw(st.lists(st.integers(0, 9) | st.integers(-(2**40), 2**40), min_size=n, max_size=n))
    lines = draw(st.lists(st.integers(1, 12), min_size=n, max_size=n))
    bound = st.integers(0, n) | st.integers(-2, n + 2)
    pairs = draw(st.lists(st.tuples(bound, bound), max_size=6)
                 | st.lists(st.integers(0, n), max_size=5).map(lambda cuts: [
                     (a, b) for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), n], strict=True)]))
    return [a for a, _ in pairs], [b for _, b in pairs], codes, issues, lines


def _answer(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except (IndexError, OverflowError) as exc:
        return type(exc)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unit_columns(), st.integers(1, 6), st.data())
def test_block_issue_same_columns(case: tuple[list[int], list[int], list[int], list[int], list[int]], width: int,
                                  data: st.DataObject) -> None:
    starts, ends, codes, issues, _lines = case
    expected = _answer(totals.block_issue, starts, ends, codes, issues, width)
    got = _answer(compiled.block_issue, starts, ends, codes, issues, width)
    assert got == expected
    assert type(got) is type(expected)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unit_columns(), st.data())
def test_unit_line_sums_same_dicts(case: tuple[list[int], list[int], list[int], list[int], list[int]],
                                   data: st.DataObject) -> None:
    """Also into dicts already holding some codes and lines (a later run of ranges adds to an earlier one's),
    compared with their order (a code's dict and a line are added where first met)."""
    starts, ends, codes, issues, lines = case
    held = data.draw(st.dictionaries(st.integers(-2, 6), st.dictionaries(st.integers(1, 12), st.integers(0, 5),
                                                                          max_size=3), max_size=3))

    def run(fn: Any) -> Any:
        out = {c: dict(d) for c, d in held.items()}
        answer = _answer(fn, starts, ends, codes, issues, lines, out)
        # the dict itself, order included, also after an error part-way (both stop at the same instruction)
        return answer if isinstance(answer, type) else (answer is out,), [(c, list(d.items())) for c, d in
                                                                             out.items()]

    assert run(compiled.unit_line_sums) == run(totals.unit_line_sums)


def test_totals_example() -> None:
    """Worked by hand: instructions of units 0, 1, 0, 2 (width 2: unit 2 counts nowhere) issuing 1, 2, 4, 8 cycles
    at lines 5, 6, 5, 7; blocks [0, 2) and [2, 4). Block 0: unit 0 1 cycle, unit 1 2; block 1: unit 0 4. Lines
    over both blocks: unit 0 line 5 1 + 4 = 5, unit 1 line 6 2, unit 2 line 7 8, in that order."""
    codes, issues, lines = [0, 1, 0, 2], [1, 2, 4, 8], [5, 6, 5, 7]
    for impl in (totals, compiled):
        assert list(impl.block_issue([0, 2], [2, 4], codes, issues, 2)) == [1, 2, 4, 0]
        out = impl.unit_line_sums([0, 2], [2, 4], codes, issues, lines, {})
        assert [(c, list(d.items())) for c, d in out.items()] == [(0, [(5, 5)]), (1, [(6, 2)]), (2, [(7, 8)])]


def test_release_costs_then_schedule_again() -> None:
    """The costs the compiled schedule keeps are forgotten (the timing step releases them after a kernel): the
    next call reads them again and gives the reference's answer, as after a new kernel."""
    write = Costs("valu", 1, 4, (), (5,), (), (), "", False, False, Timing(()))
    read = Costs("valu", 1, 4, (5,), (), (), (), "", False, False, Timing(()))
    statics = [write, read, write, read]
    expected = schedule.block_schedules([0, 2], [2, 4], statics, 1, False)
    assert compiled.block_schedules([0, 2], [2, 4], statics, 1, False) == expected
    compiled.release_costs()
    schedule.release_costs()
    assert compiled.block_schedules([0, 2], [2, 4], statics, 1, False) == expected
    assert compiled.schedule_passes([0, 1], statics, 1, False, 2) == schedule.schedule_passes([0, 1], statics, 1,
                                                                                                False, 2)
def test_costs_rows_shared_between_kernels() -> None:
    """The compiled schedule keeps one row per distinct costs object for every kernel after it (a library repeats
    texts): two kernels' lists of the same two objects hold two rows, a third object a third; the answers stay
    the reference's, before and after the rows are forgotten (a scan worker bounding its caches), and with a
    unit beyond every earlier row met by a later kernel (the per-unit arrays grow)."""
    write = Costs("valu", 1, 4, (), (5,), (), (), "", False, False, Timing(()))
    read = Costs("valu", 1, 4, (5,), (), (), (), "", False, False, Timing(()))
    far = Costs("valu", 2, 9, (5,), (900,), (), (), "", False, False, Timing(()))
    assert schedule.costs_held() == 0
    compiled.forget_costs()
    assert compiled.costs_held() == 0
    for statics in ([write, read, write, read], [read, write, read], [write, far, read, far], [far, read]):
        starts, ends = [0, 2], [2, len(statics)]
        assert compiled.block_schedules(starts, ends, statics, 1, False) == \
            schedule.block_schedules(starts, ends, statics, 1, False)
        compiled.release_costs()  # the next list is another kernel's
    assert compiled.costs_held() == 3
    compiled.forget_costs()
    assert compiled.costs_held() == 0
    statics = [far, write, read]
    assert compiled.schedule_passes([0, 1, 2], statics, 1, False, 2) == \
        schedule.schedule_passes([0, 1, 2], statics, 1, False, 2)
    assert compiled.costs_held() == 3


class Drafted(NamedTuple):
    """What ``draft_rows`` makes of a row (``DraftInstruction``'s four fields)."""

    line: int
    text: str
    address: int
    words: tuple[int, ...]


@st.composite
def listing_rows(draw: st.DrawFn) -> tuple[list[Any], int, int | None]:
    """A block's rows: ``None`` (a ``...`` line) or ``(address, entry)`` with entry ``(decoded, text, reads
    back, words, branches, size, note)``, addresses rising, mostly reading back; a first line and an end (or
    none) somewhere among the addresses."""
    rows: list[Any] = []
    address = draw(st.integers(0, 1 << 40))
    for _ in range(draw(st.integers(0, 25))):
        if draw(st.integers(0, 7)) == 0:
            rows.append(None)
            continue
        words = tuple(draw(st.lists(st.integers(0, (1 << 32) - 1), min_size=1, max_size=3)))
        entry = (None, draw(_TEXTS), draw(st.integers(0, 12)) > 0, words, draw(st.booleans()), len(words), "")
        rows.append((address, entry))
        address += 4 * len(words) + 4 * draw(st.integers(0, 3))
    end = draw(st.none() | st.integers(0, address + 8))
    return rows, draw(st.integers(0, 1 << 48)), end  # a line number (the compiled loop counts in a C integer)


@settings(max_examples=1000, deadline=None)
@given(listing_rows())
def test_draft_rows_same_drafts(case: tuple[list[Any], int, int | None]) -> None:
    rows, line, end = case
    want_items: list[Any] = []
    want_branches: list[tuple[int, int]] = []
    got_items: list[Any] = []
    got_branches: list[tuple[int, int]] = []
    want = words.draft_rows(rows, line, end, Drafted, want_items, want_branches)
    assert compiled.draft_rows(rows, line, end, Drafted, got_items, got_branches) == want
    assert (got_items, got_branches) == (want_items, want_branches)
    # and the reference keeps its word, counted here row by row: each row is a line; the rows before ``end``
    # are made, a branch also named, until one that does not read back
    made = [(line + 1 + k, row) for k, row in enumerate(rows) if row is not None and (end is None or row[0] < end)]
    stop = next((i for i, (_, row) in enumerate(made) if not row[1][2]), None)
    kept = made if stop is None else made[:stop]
    assert want == (-1 if stop is not None else line + len(rows))
    assert want_items == [Drafted(n, row[1][1], row[0], row[1][3]) for n, row in kept]
    assert want_branches == [(row[0], row[1][3][0]) for _, row in kept if row[1][4]]


# --- dec4 (twenty-first session): a text's numbered registers set aside (reading.register_shape) ---

#: pieces instruction texts are made of, numbered registers or nearly so among them: ranges and leading zeros,
#: letters inside words, numbers past a file, brackets left open, non-ASCII letters and digits (not word
#: characters for ``re.ASCII``'s boundary)
_SHAPE_PIECES = ("v", "s", "a", "v12", "s[4:5]", "a[0:31]", "v[255:256]", "s[10:9]", "v01", "v0", "s127",
                 "s128", "v[4]", "v[1:", "[", "]", ":", "0", "7", "12345", "99999", "_", "x", "vcc", "ttmp5",
                 "v_add_f32", " ", ", ", ".l", "op_sel:[0,1]", "\u00e9", "\u0663", "s1\u0663", "a\u00e9", "-")


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_SHAPE_PIECES) | st.text(alphabet="vsa0123456789[]:_ .,x", max_size=6),
                max_size=12),
       st.sampled_from(((256, 128, 256), (3, 2, 1), (10000, 10000, 10000))))
def test_register_shape_same_shape(pieces: list[str], limits: tuple[int, int, int]) -> None:
    text = "".join(pieces)
    want = reading.register_shape(text, *limits)
    assert compiled.register_shape(text, *limits) == want
    if want is not None:  # and the reference keeps its word: the registers' spellings put back give the text
        shape, firsts, spelled = want
        rebuilt = shape.split("\0")
        out = rebuilt[0]
        for k, spelling in enumerate(spelled):
            out += spelling + rebuilt[5 * k + 5]
            assert spelling[0] == rebuilt[5 * k + 1] and int(spelling[1:].lstrip("[").split(":")[0]) == firsts[k]
        assert out == text


# --- live6 (twenty-second session): where a saved lane mask is restored -----------------------------------------

#: the units of the walk's rows: EXEC (two), a flag, four SGPRs that may carry the mask, two vector units
_EXEC_UNITS, _FLAG_UNIT = 0b11, 0b100
_S2, _S3, _S4, _S5 = 1 << 3, 1 << 4, 1 << 5, 1 << 6
_MOVES = ("s_mov_b32", "s_mov_b64", "s_xor_b32", "s_xor_b64", "s_and_b32", "s_and_b64")
_MNEMONICS = st.sampled_from(["s_mov_b32", "s_mov_b64", "s_xor_b64", "s_and_b32", "s_or_b64", "s_or_saveexec_b64",
                              "v_add_f32", "s_movk_i32", "s_mov", ""]) | st.sampled_from(["s_mov_b32"]).map(Prefix)


class MaskRow(NamedTuple):
    defs: int
    uses: int
    mnemonic: str


def _restores_by_states(rows: list[MaskRow], start: int, saved: int, succs_of: dict[int, list[int]]) -> set[int]:
    """The restores by brute force: every reachable (row, carriers) state, one step of the spec at a time."""
    found: set[int] = set()
    states = {(start, saved)}
    frontier = [(start, saved)]
    while frontier:
        i, carriers = frontier.pop()
        if i >= len(rows) or not carriers:
            continue
        row = rows[i]
        if row.defs & _EXEC_UNITS and row.uses & carriers:
            found.add(i)
            continue
        sources = row.uses & ~_FLAG_UNIT
        if row.defs & _EXEC_UNITS or not row.uses & carriers or not row.mnemonic.startswith(_MOVES):
            moved = 0
        elif row.mnemonic.startswith("s_mov_b"):
            moved = 0 if sources & ~carriers else row.defs & ~_FLAG_UNIT
        else:
            moved = row.defs & ~_FLAG_UNIT if sources & _EXEC_UNITS and not sources & ~(carriers | _EXEC_UNITS) else 0
        after = carriers | moved if moved else carriers & ~row.defs if row.defs & carriers and not row.uses & carriers \
            else carriers
        for s in succs_of.get(i, [i + 1]):
            if (s, after) not in states:
                states.add((s, after))
                frontier.append((s, after))
    return found


@st.composite
def mask_walks(draw: st.DrawFn) -> tuple[list[MaskRow], int, int, dict[int, list[int]]]:
    units = st.integers(0, (1 << 9) - 1) | st.sampled_from([_S2, _S2 | _S3, _EXEC_UNITS | _S4, _S4 | _FLAG_UNIT])
    rows = draw(st.lists(st.builds(MaskRow, units, units, _MNEMONICS), max_size=14))
    n = len(rows)
    targets = st.lists(st.integers(0, n + 1), max_size=2)  # n and n + 1: control leaves the rows
    succs_of = draw(st.dictionaries(st.integers(0, max(n - 1, 0)), targets, max_size=4))
    start = draw(st.integers(0, n + 1))
    saved = draw(st.sampled_from([_S2, _S2 | _S3, _S5, 0]) | st.integers(0, (1 << 9) - 1))
    return rows, start, saved, succs_of


_INSTRUCTION_AT = (Instruction._fields.index("defs"), Instruction._fields.index("uses"),
                   Instruction._fields.index("mnemonic"))


@settings(max_examples=1200, deadline=None)
@given(mask_walks(), st.sampled_from(["named", "tuple", "list", "instructions"]))
def test_mask_restores_same_answers(walk: tuple[list[MaskRow], int, int, dict[int, list[int]]], shape: str) -> None:
    """Random rows (moves, restores, overwrites of carriers), branches (loops, targets past the end), starts
    and saved masks: both cores give the same restores, and those of a brute force over every reachable state.
    The shape "instructions" is a kernel's tuple of :class:`Instruction`, whose sets the compiled walk reads
    from the table the liveness shares (its other shapes get a table of their own)."""
    rows, start, saved, succs_of = walk
    at: tuple[int, int, int] = (0, 1, 2)
    if shape == "instructions":
        given_rows: Any = tuple(Instruction(i, i + 1, r.mnemonic, r.mnemonic, (), (), r.defs, r.uses)
                                for i, r in enumerate(rows))
        at = _INSTRUCTION_AT
    else:
        given_rows = rows if shape == "named" else tuple(tuple(r) for r in rows) if shape == "tuple" \
            else [list(r) for r in rows]
    args = (given_rows, *at, start, saved, _EXEC_UNITS, _FLAG_UNIT, ("s_mov_b",), _MOVES, succs_of)
    want = graph.mask_restores(*args)
    assert compiled.mask_restores(*args) == want
    assert want == _restores_by_states(rows, start, saved, succs_of)


def test_mask_restores_else_mask_reads_exec() -> None:
    """An else mask (``s_xor_b64 s4, exec, s2``) moves the saved mask only when it reads EXEC besides carriers:
    the same instruction reading s2 alone (or s2 and a register holding no mask) makes no carrier, so the
    restore from s4 after it is none; an ``s_mov`` copy needs no EXEC. By hand from the rule."""
    restore = MaskRow(_EXEC_UNITS | _FLAG_UNIT, _S4, "s_or_saveexec_b64")
    tail = (_EXEC_UNITS, _FLAG_UNIT, ("s_mov_b",), _MOVES)
    for core in (graph, compiled):
        for shape in ("named", "instructions"):
            def walk(first: MaskRow, shape: str = shape, core: Any = core) -> set[int]:
                rows: Any = [first, restore]
                at: tuple[int, int, int] = (0, 1, 2)
                if shape == "instructions":
                    rows = tuple(Instruction(i, i + 1, r.mnemonic, r.mnemonic, (), (), r.defs, r.uses)
                                 for i, r in enumerate(rows))
                    at = _INSTRUCTION_AT
                return set(core.mask_restores(rows, *at, 0, _S2, *tail, {}))
            assert walk(MaskRow(_S4 | _FLAG_UNIT, _EXEC_UNITS | _S2, "s_xor_b64")) == {1}
            assert walk(MaskRow(_S4 | _FLAG_UNIT, _S2, "s_xor_b64")) == set()
            assert walk(MaskRow(_S4 | _FLAG_UNIT, _EXEC_UNITS | _S2 | _S5, "s_and_b64")) == set()
            assert walk(MaskRow(_S4, _S2, "s_mov_b64")) == {1}


def test_mask_restores_beyond_the_rows() -> None:
    """The compiled walk keeps the rows' sets as words as wide as the widest set (unit 200 here); a saved mask
    beyond them (unit 300), a start or a branch counted from the end (row -1: Python's index) and a set that is
    no non-negative int are walked as the reference walks them. By hand: row 0 copies the mask to s4 only when
    all it reads (s2, unit 200) carries the mask; row 1 restores from s4."""
    rows = [MaskRow(_S4, _S2 | (1 << 200), "s_mov_b64"), MaskRow(_EXEC_UNITS, _S4, "s_or_saveexec_b64")]
    args: tuple[Any, ...] = (0, 1, 2)
    tail = (_EXEC_UNITS, _FLAG_UNIT, ("s_mov_b",), _MOVES)
    for core in (graph, compiled):
        assert core.mask_restores(rows, *args, 0, _S2 | (1 << 300), *tail, {}) == set()  # reads 200: no copy
        assert core.mask_restores(rows, *args, 0, _S2 | (1 << 200), *tail, {}) == {1}
        assert core.mask_restores(rows[1:], *args, 0, 1 << 300 | _S4, *tail, {}) == {0}
        assert core.mask_restores(rows, *args, -1, _S4, *tail, {}) == {-1}  # found as it was named
        assert core.mask_restores([MaskRow(1 << 7, 1 << 8, "v_add_f32"), rows[1]], *args, 0, _S4, *tail,
                                  {0: [-1]}) == {-1}
        assert core.mask_restores([MaskRow(-1, _S4, "s_mov_b32")], *args, 0, _S4, *tail, {}) == {0}  # -1: all


def test_mask_restores_example() -> None:
    """Worked by hand, an if/else as LLVM lowers it (``s_and_saveexec_b64 s2`` before row 0): row 0 makes the
    else mask ``s4 = exec ^ s2`` (a carrier now), row 2 overwrites s2 with a constant (no longer one), row 3
    switches lanes on from s4: the restore. From row 2 with s2 alone the mask is gone before row 3: none. A
    branch at row 1 to row 3 and to past the end: the restore is reached one way, the other leaves."""
    rows = [MaskRow(_S4 | _FLAG_UNIT, _EXEC_UNITS | _S2, "s_xor_b64"), MaskRow(1 << 7, 1 << 8, "v_add_f32"),
            MaskRow(_S2, 0, "s_mov_b32"),
            MaskRow(_EXEC_UNITS | _S2 | _FLAG_UNIT, _EXEC_UNITS | _S4, "s_or_saveexec_b64")]
    for core in (graph, compiled):
        walk = core.mask_restores
        common = (0, 1, 2)
        tail = (_EXEC_UNITS, _FLAG_UNIT, ("s_mov_b",), _MOVES)
        assert walk(rows, *common, 0, _S2, *tail, {}) == {3}
        assert walk(rows, *common, 2, _S2, *tail, {}) == set()
        assert walk(rows, *common, 1, _S2 | _S4, *tail, {1: [3, 9]}) == {3}
        assert walk(rows, *common, 1, _S2, *tail, {1: [2]}) == set()


# --- a DWARF line program's rows (compiled: isalens._core._compiled.line_rows; reference:
# --- isalens.binary.dwarf_line_program._run) ---------------------------------------------------------------------

def _uleb_bytes(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _sleb_bytes(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        done = (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40)
        out.append(byte | (0 if done else 0x80))
        if done:
            return bytes(out)


_BIG = st.integers(0, 1 << 70)


@st.composite
def line_programs(draw: st.DrawFn, clean: bool = False) -> tuple[bytes, int, int, int, int, int, int, list[int]]:
    """A line program as LLVM writes them (special opcodes, copy, advance_pc/line, set_file/column, const_add_pc,
    fixed_advance_pc, set_address, end_sequence, set_discriminator) and unknown standard opcodes, the header's
    figures drawn; unless ``clean``, also values past 56 bits, damage (a cut end, a zero-length extended opcode,
    stray bytes), define_file and a 9-byte address."""
    # a base below 13 makes the higher standard opcodes special ones (their operands then read as opcodes)
    opcode_base = draw(st.sampled_from([13, 14] if clean else [13, 13, 10, 14, 1]))
    address_size = draw(st.sampled_from([8, 8, 4, 2, 0] if clean else [8, 8, 4, 2, 9, 0]))
    small, signed = st.integers(0, 1 << 12), st.integers(-(1 << 12), 1 << 12)
    values = small if clean else small | _BIG
    out = bytearray()
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.integers(0, 12 if clean else 15))
        if kind <= 3:
            out.append(draw(st.integers(opcode_base, 255)))
        elif kind == 4:
            out.append(1)
        elif kind == 5:
            out += bytes([2]) + _uleb_bytes(draw(values))
        elif kind == 6:
            out += bytes([3]) + _sleb_bytes(draw(signed if clean else signed | st.integers(-(1 << 70), 1 << 70)))
        elif kind == 7:
            out += bytes([draw(st.sampled_from([4, 5, 12]))]) + _uleb_bytes(draw(values))
        elif kind == 8:
            out.append(draw(st.sampled_from([6, 7, 8, 10, 11])))
        elif kind == 9:
            out += bytes([9]) + draw(st.binary(min_size=2, max_size=2))
        elif kind == 10:
            top = 1 << min(8 * address_size, 48 if clean else 56)  # clean: room for the advances after it
            address = draw(st.integers(0, top - 1)) if address_size else 0
            raw = address.to_bytes(address_size, "little") if address_size <= 8 else bytes(address_size)
            out += bytes([0]) + _uleb_bytes(1 + len(raw)) + bytes([2]) + raw
        elif kind == 11:
            out += bytes([0, 1, 1])  # end_sequence
        elif kind == 12:
            out += bytes([0, 2, 4, draw(st.integers(0, 127))])  # set_discriminator
        elif kind == 13:
            out += bytes([0]) + draw(st.sampled_from([b"\x00", b"\x05\x03a\x00\x00\x00", b"\x7f"]))
        elif kind == 14:
            out += bytes([draw(st.sampled_from([13, 14, 15]))]) + _uleb_bytes(draw(st.integers(0, 300)))
        else:
            out += draw(st.binary(max_size=3))
    data = draw(st.binary(max_size=3)) + bytes(out)
    at = len(data) - len(out)
    end = len(data) - (0 if clean else draw(st.sampled_from([0, 0, 0, 1, 2])))
    operands = [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, *draw(st.lists(st.integers(0, 2), min_size=3, max_size=3))]
    # the last of the list is the line range (the others: the standard opcodes' operand counts)
    tail = [*operands[:max(opcode_base, 1)], draw(st.integers(1, 255))]
    return (data, at, max(end, at), address_size, draw(st.sampled_from([1, 4, 255])),
            draw(st.sampled_from([1, 1, 3])), draw(st.integers(-128, 127)), tail)


def _line_rows_both(case: tuple[bytes, int, int, int, int, int, int, list[int]]) -> tuple[Any, Any]:
    data, at, end, address_size, minimum_length, max_ops, line_base, tail = case
    line_range, operands = tail[-1], tail[:-1]
    args = (data, at, end, address_size, minimum_length, max_ops, line_base, line_range, len(operands))
    assert _core_dwarf.line_rows(*args, operands) is None  # the pure core leaves every program to the reference
    try:
        want = line_program_run(data, at, end, "test", *args[3:], list(operands), [])
    except DwarfFormatError:
        want = None
    return compiled.line_rows(*args, operands), want


@settings(max_examples=1500, deadline=None)
@given(line_programs())
def test_line_rows_same_as_the_reference(case: tuple[bytes, int, int, int, int, int, int, list[int]]) -> None:
    """Whatever rows the compiled state machine gives are the reference's, element for element and type for type
    (values past 56 bits, damage, define_file, unknown opcodes and stray bytes among the programs); where it
    gives None the reference reads the program (and names the damage, if any)."""
    got, want = _line_rows_both(case)
    if got is not None:
        assert got == want
        assert [type(x) for row in got for x in row] == [type(x) for row in want for x in row]


@settings(max_examples=500, deadline=None)
@given(line_programs(clean=True))
def test_line_rows_takes_clean_programs(case: tuple[bytes, int, int, int, int, int, int, list[int]]) -> None:
    """A program of values within 56 bits, undamaged, without define_file: the compiled machine takes it whole."""
    got, want = _line_rows_both(case)
    assert got is not None
    assert got == want


def test_line_rows_example() -> None:
    """By hand (DWARF 5 §6.2.5): opcode base 13, line base -5, line range 14, minimum length 4. set_address 0x100;
    special opcode 0x4B (75 - 13 = 62: advance 62 // 14 = 4 operations = 16 bytes, line 1 + (-5 + 62 % 14 = 1) =
    2): row (0x110, 1, 2, 0); advance_line -1, copy: row (0x110, 1, 1, 0); set_column 7, const_add_pc ((255 - 13)
    // 14 = 17 operations = 68 bytes), copy: row (0x154, 1, 1, 7); end_sequence: row (0x154, 1, 1, 7, end)."""
    program = (bytes([0, 9, 2]) + (0x100).to_bytes(8, "little") + bytes([0x4B, 3]) + _sleb_bytes(-1)
               + bytes([1, 5, 7, 8, 1, 0, 1, 1]))
    operands = [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]
    want = [(0x110, 1, 2, 0, False), (0x110, 1, 1, 0, False), (0x154, 1, 1, 7, False), (0x154, 1, 1, 7, True)]
    args = (program, 0, len(program), 8, 4, 1, -5, 14, 13)
    assert compiled.line_rows(*args, operands) == want
    assert line_program_run(program, 0, len(program), "test", *args[3:], operands, []) == want
