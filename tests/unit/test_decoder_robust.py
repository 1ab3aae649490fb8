"""Random dwords never crash our decoder: every word becomes an instruction text or one diagnostic, and the
results tile the input exactly (no word skipped, none decoded twice)."""

from __future__ import annotations

import random

import pytest

from isalens.isa.amdgcn.decoder import Diagnostic, Text, decode_stream, decode_text


@pytest.mark.parametrize("target", ["gfx902", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200", "gfx601", "gfx700"])
def test_random_words_decode_or_diagnose(target: str) -> None:
    rng = random.Random(target)
    words = [rng.getrandbits(32) for _ in range(4000)]
    results = decode_stream(words, target)
    offsets = [offset for offset, _ in results]
    sizes = [r.size for _, r in results]
    # each result starts where the previous one ended, and the last one ends at (or, truncated, past) the end
    assert offsets == [0, *[o + s for o, s in zip(offsets, sizes, strict=False)][:-1]]
    assert offsets[-1] < 4 * len(words) <= offsets[-1] + sizes[-1]
    assert all(isinstance(r, (Text, Diagnostic)) and r.size % 4 == 0 and r.size > 0 for _, r in results)
    assert any(isinstance(r, Diagnostic) for _, r in results)


def test_truncated_instruction_is_a_diagnostic() -> None:
    # a VOP3 word (bits 31:26 = 0x35 on gfx11) needs two dwords; only the first is given
    r = decode_text([0xD6140008], "gfx1100")
    assert isinstance(r, Diagnostic)
    assert "needs 2 dwords" in r.reason
