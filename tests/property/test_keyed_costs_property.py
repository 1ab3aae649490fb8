"""The timing step's memo lookup per instruction (``_core.keyed_costs``): the compiled core fills the same costs
and names the same positions missing (the first of each key) and untimed as the reference, on generated
instructions (repeated texts, classes and register sets, big-int sets, a memo holding some keys); and
``instruction_costs`` built on it names the untimed classes on every call."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isalens
from isalens._core import schedule
from isalens.analysis.timing import costs
from isalens.arch.timing import target_table, timing_family, timing_table

compiled = pytest.importorskip("isalens._core._compiled", reason="compiled core not built")

ROOT = Path(__file__).resolve().parents[2]


class Ins(NamedTuple):
    position: int
    line: int
    text: str
    mnemonic: str
    operands: tuple[Any, ...]
    modifiers: tuple[str, ...]
    defs: int
    uses: int


class Costs(NamedTuple):
    name: str
    untimed: bool


_TEXTS = st.sampled_from(["s_nop 0", "v_add_f32 v0, v1, v2", "s_mov_b32 s0, 1", "é"])
#: register sets: shared objects, and a big one made anew each time (equal values, other objects: the compiled loop
#: reuses an earlier line's answer only for the very same objects)
_SETS = st.sampled_from([0, 1, 6, 1 << 300]) | st.builds(lambda: int("1" + "0" * 90))
_CLASSES = st.sampled_from(["valu.f32", "salu", "x"])


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[Ins], list[str], dict[tuple[Any, ...], Costs]]:
    n = draw(st.integers(0, 30))
    instructions = [Ins(i, i + 1, draw(_TEXTS), "m", (), (), draw(_SETS), draw(_SETS)) for i in range(n)]
    classes = [draw(_CLASSES) for _ in range(n)]
    memo = {(draw(_TEXTS), draw(_CLASSES), draw(_SETS), draw(_SETS)): Costs(str(k), draw(st.booleans()))
            for k in range(draw(st.integers(0, 40)))}
    for ins, klass in zip(instructions, classes, strict=True):  # and some keys sure to be held
        if draw(st.booleans()):
            memo[(ins.text, klass, ins.uses, ins.defs)] = Costs("held", draw(st.booleans()))
    return instructions, classes, memo


@settings(max_examples=1000, deadline=None)
@given(cases())
def test_compiled_keyed_costs_equal_the_reference(case: tuple[list[Ins], list[str], dict[tuple[Any, ...], Costs]],
                                                   ) -> None:
    instructions, classes, memo = case
    want: list[Any] = [None] * len(instructions)
    got: list[Any] = [None] * len(instructions)
    expected = schedule.keyed_costs(instructions, classes, memo, want)
    assert compiled.keyed_costs(instructions, classes, memo, got) == expected
    assert got == want
    # the reference's own word: a position is filled with the memo's entry for its key, or named missing
    for i, ins in enumerate(instructions):
        held = memo.get((ins.text, classes[i], ins.uses, ins.defs))
        assert want[i] is held
    keys = [(ins.text, classes[i], ins.uses, ins.defs) for i, ins in enumerate(instructions)]
    assert expected == ([i for i, c in enumerate(want) if c is None and keys.index(keys[i]) == i],
                        [i for i, c in enumerate(want) if c is not None and c.untimed])


def test_lengths_must_agree() -> None:
    for function in (schedule.keyed_costs, compiled.keyed_costs):
        with pytest.raises(ValueError, match="differ in length"):
            function([Ins(0, 1, "a", "m", (), (), 0, 0)], ["c"], {}, [])


def test_untimed_classes_are_named_on_every_call() -> None:
    """A kernel (the bundled gfx902 example) with some instructions of classes the table lacks, twice over so the
    second call finds every key in the memo: each call names exactly the classes of the instructions costed alone
    (tests/property/test_timing_facts_key_property.py checks the costs themselves)."""
    kernel = isalens.load((ROOT / "examples/isa/fp16_half3_two_uint.gfx902.s").read_text(), "gfx902").kernels[0]
    family = timing_family(kernel.arch)
    assert family is not None
    table = target_table(timing_table(family), "gfx902")
    instructions = list(kernel.ir.instructions)
    classes = [ins.facts.klass if k % 7 else "no.such.class" for k, ins in enumerate(instructions)]
    opts: dict[str, Any] = {"wave_size": 64, "generation": 9, "lds_per_simd": 32.0}
    expected: set[str] = set()
    for ins, klass in zip(instructions, classes, strict=True):
        costs._MEMO.clear()
        expected |= costs.instruction_costs([ins], [klass], table, **opts)[1]
    assert any("(no.such.class)" in name for name in expected)
    costs._MEMO.clear()
    for _ in range(2):
        assert costs.instruction_costs(instructions, classes, table, **opts)[1] == expected
    costs._MEMO.clear()
