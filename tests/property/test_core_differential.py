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
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isalens import _core
from isalens._core import reference
from isalens.analysis.cfg import cfg
from isalens.analysis.liveness import liveness
from isalens.cli import main
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
    assert compiled.solve_liveness(*problem) == reference.solve_liveness(*problem)


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
    graph = cfg(kernel)
    with _core_set(reference):
        expected = liveness(kernel, graph)
    with _core_set(compiled):
        assert liveness(kernel, graph) == expected


#: the functions isalens._core exports from the running core
_FUNCTIONS = ("solve_liveness", "maybe_defined", "undefined_reads", "mask_defined")


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
    assert _output(argv, compiled) == _output(argv, reference)


@pytest.mark.skipif(not CORPUS, reason="oracle corpus not built (.cache/corpus)")
def test_corpus_same_json() -> None:
    differ = [p.parent.name for p in CORPUS
              if _output(["livereg", "--json", str(p)], compiled)
              != _output(["livereg", "--json", str(p)], reference)]
    assert not differ, f"{len(differ)} of {len(CORPUS)} corpus programs differ: {differ[:5]}"
