"""A text's decoded entry made from another text of its shape (``instructions._by_shape``: the same text but
for register numbers) equals decoding the text in full (``instructions._decode``, the reader's definition).

Compared: every field of the entry but its lazily filled size cache, and the error of a text that does not read
(its message). Inputs: every distinct instruction text of the examples and of a third of the oracle corpus's
``llc.s`` files (gfx6 to gfx12), read as plain lines and as disassembly lines (with encoding words), in a
shuffled order so another text stands for each shape; and hypothesis-made texts, a corpus text with other
register numbers (some past their file's end).
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isalens.engine.target import resolve_arch, target_info
from isalens.errors import IsalensError
from isalens.isa.amdgcn import instructions
from isalens.isa.amdgcn.drafts import DraftInstruction
from isalens.isa.amdgcn.instructions import ReadContext
from tests.conftest import ROOT

SOURCES = sorted((ROOT / "examples" / "isa").glob("*.s")) + sorted((ROOT / ".cache" / "corpus").glob("*/llc.s"))[::3]
_TARGET = re.compile(r'\.amdgcn_target "amdgcn-amd-amdhsa--(gfx\w+)')
_INSTRUCTION = re.compile(r"\t([a-z][a-z0-9_]*)(?:[ \t]|$)")
_FIELDS = [f.name for f in dataclasses.fields(instructions._Decoded) if f.name != "sized"]


def _texts(path: Path) -> tuple[str, list[str]] | None:
    text = path.read_text("utf-8", errors="replace")
    target = _TARGET.search(text)
    if target is None:
        return None
    out = []
    for line in text.splitlines():
        if _INSTRUCTION.match(line):
            out.append(line.split("//")[0].split(";")[0].strip())
    return target.group(1), sorted(set(out))


def _context(target: str) -> ReadContext:
    info = target_info(resolve_arch(target, file="t.s"), None)
    return ReadContext("t.s", info, 32 if target.startswith(("gfx10", "gfx11", "gfx12")) else 64, True, [])


def _full(item: DraftInstruction, ctx: ReadContext) -> Any:
    try:
        decoded = instructions._decode(item, ctx)
    except IsalensError as exc:
        return str(exc)
    return [getattr(decoded, f) for f in _FIELDS]


def _shaped(item: DraftInstruction, ctx: ReadContext) -> tuple[Any, bool]:
    """(the entry as the reader makes it, whether it was made from its shape)."""
    found = instructions._shape_of(item.text)
    made = found is not None and ctx.shapes.get((found[0], not item.encoding)) is not None
    try:
        decoded = instructions._by_shape(item, ctx) or instructions._decode(item, ctx)
    except IsalensError as exc:
        return str(exc), False
    return [getattr(decoded, f) for f in _FIELDS], made


def _fresh() -> None:
    instructions._TEXTS.clear()


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, list[str]]]:
    found = [t for p in SOURCES if (t := _texts(p)) is not None]
    by_target: dict[str, set[str]] = {}
    for target, texts in found:
        by_target.setdefault(target, set()).update(texts)
    return sorted((t, sorted(texts)) for t, texts in by_target.items())


@pytest.mark.parametrize("encoded", [False, True])
def test_every_corpus_text_equals_its_full_decoding(corpus: list[tuple[str, list[str]]], encoded: bool) -> None:
    made = compared = 0
    for target, texts in corpus:
        _fresh()
        ctx, ref = _context(target), _context(target)
        order = list(texts)
        random.Random(len(order)).shuffle(order)
        for n, text in enumerate(order):
            item = DraftInstruction(n, text, 4 * n if encoded else None, (0xBF800000,) if encoded else ())
            got, shaped = _shaped(item, ctx)
            assert got == _full(item, ref), f"{target}: {text}"
            made += shaped
            compared += 1
    assert compared > 500 and made > 100, (compared, made)


_REG = re.compile(r"\b([vsa])(?:(\d+)\b|\[(\d+):(\d+)\])")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(pick=st.integers(0, 1 << 30), numbers=st.lists(st.integers(0, 300), min_size=8, max_size=8),
       encoded=st.booleans())
def test_hypothesis_texts_with_other_register_numbers(corpus: list[tuple[str, list[str]]], pick: int,
                                                      numbers: list[int], encoded: bool) -> None:
    """A corpus text read first (it stands for its shape), then the same text with other register numbers: the
    second's entry equals its full decoding, or both give the same error."""
    target, texts = corpus[pick % len(corpus)]
    candidates = [t for t in texts if _REG.search(t)]
    text = candidates[pick // len(corpus) % len(candidates)]
    counter = iter(numbers * 4)

    def other(m: re.Match[str]) -> str:
        n = next(counter)
        if m.group(2) is not None:
            return f"{m.group(1)}{n}"
        return f"{m.group(1)}[{n}:{n + int(m.group(4)) - int(m.group(3))}]"

    variant = _REG.sub(other, text)
    _fresh()
    ctx, ref = _context(target), _context(target)
    words = (0xBF800000,) if encoded else ()
    _shaped(DraftInstruction(1, text, 0 if encoded else None, words), ctx)
    item = DraftInstruction(2, variant, 4 if encoded else None, words)
    assert _shaped(item, ctx)[0] == _full(item, ref), f"{target}: {text} -> {variant}"
