"""Our decoder against ROCm LLVM's disassembler (issue 28, item 2): the optional ``rocm-llvm-python`` package
(extra ``rocm-oracle``, tools/rocm_llvm.py; skipped without it) knows gfx950, gfx1250 and gfx1251, which LLVM 19
does not. Every instruction of torch-cluster-rocm's code objects for those targets, and for gfx942 and gfx1200
(where LLVM 19, the oracle of test_decoder_objdump.py, and ROCm LLVM 22 should agree), is decoded by us and by
ROCm LLVM, address by address.

Asserted: our instruction boundaries are ROCm LLVM's, and no instruction we spell gets a text different from
ROCm LLVM's, except the documented cases (docs/decoder.md, "ROCm LLVM oracle"), each counted and printed:
- ``halves``: gfx11+ 16-bit registers. LLVM spells them "fake16" by default (``v132/*Invalid register*/`` for
  ``v4.h``, or it rejects the word) and as halves with ``+real-true16`` (every 16-bit operand ``vN.l``/``vN.h``);
  ours follows LLVM 19 (fake16 where every half is low, halves otherwise), so our text must equal one of ROCm
  LLVM's two spellings of the word.
Coverage (instructions spelled / all) is printed per target; docs/decoder.md records it.
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType

import pytest

from isalens.isa.amdgcn.decoder import Diagnostic, decode_stream
from tests.conftest import load_tool

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

#: targets LLVM 19 does not know, then two it knows (the two LLVMs should agree there)
TARGETS = ("gfx950", "gfx1250", "gfx1251", "gfx942", "gfx1200")
#: instructions spelled identically / all, at least (a lower share is a regression); gfx12.5 has no
#: opcode table yet (gfx950 has: generated from ROCm LLVM's behaviour)
COVERAGE_FLOOR = {"gfx950": 1.0, "gfx1250": 0.0, "gfx1251": 0.0, "gfx942": 1.0, "gfx1200": 0.9}


def _oracle() -> ModuleType:
    module = load_tool("rocm_llvm")
    if module.library() is None:
        pytest.skip("rocm-llvm-python is not installed (scripts/setup.sh --dev on x86_64 Linux, or "
                    "pip install '.[rocm-oracle]')")
    return module


def _sections(target: str) -> list[tuple[bytes, bool]]:
    """(.text bytes, wave64) of every torch-cluster-rocm code object for ``target``."""
    from isalens.binary.codeobject import read_code_object
    from isalens.binary.container import find_code_objects
    from isalens.binary.sections import code_sections
    from isalens.engine.code_listing import wave64_code
    from tests.oracle.test_rocm_wheel import _libraries

    out = []
    for lib in _libraries():
        for ref in find_code_objects(lib.read_bytes(), file=str(lib)):
            co = read_code_object(ref.data, file=str(lib), source=ref.source)
            if co.processor == target:
                wave64 = wave64_code(co) and not target.startswith("gfx9")
                out += [(bytes(s.data), wave64) for s in code_sections(co.data, file=str(lib), where=co.source)]
    return out


def _by_offset(listing: list[tuple[int, str | None]]) -> dict[int, str | None]:
    out, at = {}, 0
    for size, text in listing:
        out[at] = text
        at += size
    return out


def compare(oracle: ModuleType, target: str) -> tuple[Counter[str], list[str]]:
    """(counts: ``same``, ``halves``, ``not decoded`` (ours a diagnostic), ``both reject``, ``instructions``;
    the instructions whose text or boundary differs from ROCm LLVM's)."""
    counts: Counter[str] = Counter()
    wrong: list[str] = []
    sections = _sections(target)
    if not sections:
        pytest.fail(f"torch-cluster-rocm holds no {target} code object")
    for wave64 in (False, True):
        chunks = [data for data, w64 in sections if w64 == wave64]
        if not chunks:
            continue
        features = ["+wavefrontsize64"] if wave64 else []
        fake16 = oracle.listing(target, chunks, ",".join(features))
        true16 = oracle.listing(target, chunks, ",".join([*features, "+real-true16"])) \
            if target.startswith("gfx1") else fake16
        for n, data in enumerate(chunks):
            theirs, halves = _by_offset(fake16[n]), _by_offset(true16[n])
            words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data) - 3, 4)]
            for offset, result in decode_stream(words, target, wave64=wave64):
                counts["instructions"] += 1
                if offset not in theirs:  # a diagnostic's length is a guess where there is no table
                    if isinstance(result, Diagnostic):
                        counts["not decoded"] += 1
                    else:
                        wrong.append(f"{target} section {n} +{offset:#x}: ROCm LLVM starts no instruction here")
                    continue
                text, text16 = theirs[offset], halves.get(offset)
                if isinstance(result, Diagnostic):
                    counts["both reject" if text is None else "not decoded"] += 1
                elif result.text == text:
                    counts["same"] += 1
                elif result.text == text16:
                    counts["halves"] += 1
                else:
                    wrong.append(f"{target} +{offset:#x}: ours {result.text!r}, ROCm LLVM {text!r} / {text16!r}")
    return counts, wrong


@pytest.mark.parametrize("target", TARGETS)
def test_decoder_text_equals_rocm_llvm(target: str) -> None:
    oracle = _oracle()
    counts, wrong = compare(oracle, target)
    spelled = counts["same"] + counts["halves"]
    share = spelled / counts["instructions"]
    print(f"{target}: {spelled}/{counts['instructions']} identical ({100 * share:.2f}%; {counts['halves']} as "
          f"+real-true16 halves), {counts['not decoded']} not decoded, {counts['both reject']} rejected by both, "
          f"{len(wrong)} differ")
    assert counts["instructions"] > 1000
    assert not wrong, f"{len(wrong)} instructions differ, e.g. {wrong[:5]}"
    assert share >= COVERAGE_FLOOR[target]
