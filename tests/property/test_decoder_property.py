"""Fuzzed machine code never crashes our decoder (issue 28): random dwords, truncated instructions and every
opcode of every table with random fields. Each instruction becomes a text or exactly one diagnostic that covers
its own words (the stream tiles the input), and no text claims more bytes than it was given."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.isa.amdgcn.decoder import Diagnostic, Text, decode_stream, decode_text
from isalens.isa.amdgcn.decoder.tables import WAVE64_FAMILIES, family_of, layout_of, opcode_table
from isalens.isa.amdgcn.fields import DecodeError, decode

#: one target per table family, plus one without tables (every word a diagnostic)
TARGETS = ("gfx803", "gfx902", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150",
           "gfx1200", "gfx1250", "gfx601")
dwords = st.integers(min_value=0, max_value=0xFFFFFFFF)


def _check(result: Text | Diagnostic, given_words: int) -> None:
    assert isinstance(result, (Text, Diagnostic))
    assert result.size > 0 and result.size % 4 == 0
    if isinstance(result, Text):
        assert result.size <= 4 * given_words, "a text claims words it was not given"
        assert result.mnemonic and "{" not in result.text  # no template placeholder left unfilled
    else:
        assert result.reason and "\n" not in result.reason  # one line each


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TARGETS), st.lists(dwords, min_size=1, max_size=40), st.booleans())
def test_random_words_tile_the_stream(target: str, words: list[int], wave64: bool) -> None:
    results = decode_stream(words, target, wave64=wave64)
    at = 0
    for offset, result in results:
        assert offset == at  # each result starts where the previous one ended: one result per instruction
        _check(result, len(words) - at // 4 if isinstance(result, Text) else 8)
        at += result.size
    assert at >= 4 * len(words) and at - results[-1][1].size < 4 * len(words)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TARGETS), st.lists(dwords, min_size=1, max_size=8), st.booleans(), st.booleans())
def test_every_prefix_decodes_or_diagnoses(target: str, words: list[int], hardware: bool, wave64: bool) -> None:
    """Truncated instructions: every prefix of the words is a text no longer than the prefix, or a diagnostic."""
    for n in range(1, len(words) + 1):
        _check(decode_text(words[:n], target, hardware=hardware, wave64=wave64), n)


def _generation(family: str) -> int:
    layout = layout_of(family)
    return 8 if family == "gfx8" else 9 if layout == "gfx9" else int(layout[3:])


def _with(words: Sequence[int], lo: int, hi: int, value: int) -> list[int]:
    """``words`` with bits hi:lo (of the little-endian concatenation) set to ``value``."""
    whole = sum(w << (32 * i) for i, w in enumerate(words))
    whole = whole & ~(((1 << (hi - lo + 1)) - 1) << lo) | value << lo
    return [whole >> (32 * i) & 0xFFFFFFFF for i in range(len(words))]


_SEGMENTS = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


@pytest.mark.parametrize("target", [t for t in TARGETS if family_of(t)])
def test_every_opcode_with_random_fields(target: str) -> None:
    """Every opcode of every format of the target's table, three times with random other fields (found by
    decoding random words until each format turns up, then setting the opcode field): never an exception,
    and each a text or one diagnostic; most opcodes give a text at least once."""
    family = family_of(target)
    assert family is not None
    generation, layout = _generation(family), layout_of(family)
    rng = random.Random(target)
    seeds: dict[str, list[list[int]]] = {}
    for _ in range(60_000):
        words = [rng.getrandbits(32) for _ in range(8)]
        try:
            d = decode(words, generation, layout)
        except DecodeError:
            continue
        if len(seeds.setdefault(d.format, [])) < 40:
            seeds[d.format].append(words)
    tables = opcode_table(family)
    decoded, tried = 0, 0
    for fmt, rows in tables.items():
        base = "FLAT" if fmt.removesuffix("_GLC") in _SEGMENTS else fmt.removesuffix("_GLC")
        base = {"MAI": "VOP3P", "DPP_VOP1": "DPP", "DPP_VOP2": "DPP", "DPP_VOPC": "DPP"}.get(base, base)
        if base not in seeds or fmt in ("VOPDY", "WORDS", "DPP_CTRL", "EXP", "EXP_FLAGS", "MTBUF_FMT"):
            continue
        for op in rows:
            texts = 0
            for _ in range(3):
                words = rng.choice(seeds[base])
                d = decode(words, generation, layout)
                field = d.get("OPX" if fmt == "VOPDX" else "OP")
                if field is None:
                    break
                words = _with(words, field.lo, field.hi, op)
                seg = d.get("SEG")
                if base == "FLAT" and seg is not None:
                    words = _with(words, seg.lo, seg.hi, _SEGMENTS[fmt.removesuffix("_GLC")])
                for hardware in (False, True):
                    result = decode_text(words, target, hardware=hardware)
                    _check(result, len(words))
                    texts += isinstance(result, Text)
                tried += 1
            decoded += texts > 0
    wave64 = family in WAVE64_FAMILIES
    print(f"{target}: {tried} words, formats seeded {sorted(seeds)}, opcodes with a text {decoded}"
          f"{' (wave64 tables too)' if wave64 else ''}")
    assert tried > 1000 and decoded > tried // 20
