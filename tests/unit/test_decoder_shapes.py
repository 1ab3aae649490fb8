"""Encodings spelled from their shape (``isa/amdgcn/decoder/shapes.py``) equal ``decode_text``'s full decoding.

The oracle is ``decode_text`` itself (whose text ``tests/oracle/test_decoder_objdump.py`` compares with
llvm-objdump-19 and llvm-mc-19): every encoding of the compiled examples' code objects and of a slice of
librocsparse (when they are on this machine), in a shuffled order so that another encoding stands for each shape,
and hypothesis-made words whose VGPR fields are varied around one encoding. Compared: the whole result (format,
size, mnemonic, operand text, note; or the diagnostic).
"""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isalens.isa.amdgcn.decoder import shapes
from isalens.isa.amdgcn.decoder.listing import _shaping
from isalens.isa.amdgcn.decoder.shapes import FAMILIES, shaped_text
from isalens.isa.amdgcn.decoder.tables import family_of, layout_of
from isalens.isa.amdgcn.decoder.text import Text, decode_stream, decode_text
from isalens.isa.amdgcn.fields import _format
from tests.conftest import ROOT

#: targets of the shaped families the compiled examples are built for (tests/oracle/test_decoder_objdump.py)
TARGETS = ("gfx803", "gfx902", "gfx90a", "gfx1010", "gfx1030")
LIBRARY = ROOT / ".cache" / "debs" / "x" / "librocsparse0" / "usr" / "lib" / "x86_64-linux-gnu" / \
    "librocsparse.so.0.1"


def _compare(encodings: list[tuple[int, ...]], target: str, wave64: bool = False, seed: int = 0) -> tuple[int, int]:
    """(encodings compared, shapes found usable); asserts each result equals ``decode_text``'s."""
    family = family_of(target)
    assert family in FAMILIES
    layout = layout_of(family)
    generation = {"gfx8": 8}.get(family) or (9 if layout == "gfx9" else int(layout[3:]))
    found: shapes.Shapes = {}
    order = sorted(set(encodings))
    random.Random(seed).shuffle(order)
    for encoding in order:
        words = [*encoding, 0xBF810000, 0xBF810000]  # what follows an instruction does not change it
        got = shaped_text(words, target, family, generation, wave64, found)
        want = decode_text(words, target, hardware=True, wave64=wave64)
        assert got == want, f"{target} {' '.join(f'{w:08X}' for w in encoding)}"
    return len(order), sum(1 for v in found.values() if v)


def _stream_encodings(words: list[int], target: str) -> list[tuple[int, ...]]:
    out = []
    at = 0
    for _offset, result in decode_stream(words, target):
        size = max(result.size // 4, 1)
        if isinstance(result, Text):
            out.append(tuple(words[at:at + size]))
        at += size
    return out


def _code_objects(target: str) -> list[Path]:
    return sorted((ROOT / ".cache" / "decoder_objects" / target).glob("*.co"))


@pytest.mark.parametrize("target", TARGETS)
def test_every_encoding_of_the_compiled_examples(target: str) -> None:
    pytest.importorskip("elftools")
    from elftools.elf.elffile import ELFFile

    objects = _code_objects(target)
    if not objects:
        pytest.skip("no compiled examples in .cache/decoder_objects (tests/oracle/test_decoder_objdump.py builds "
                    "them with clang-19)")
    encodings: list[tuple[int, ...]] = []
    for co in objects:
        with co.open("rb") as f:
            data = ELFFile(f).get_section_by_name(".text").data()
        encodings += _stream_encodings(list(array("I", data[:len(data) // 4 * 4])), target)
    compared, shaped = _compare(encodings, target)
    assert compared > 100 and shaped > 10, (compared, shaped)


def test_every_encoding_of_a_library_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first two code objects of at least 200 kB of each of librocsparse's six targets (ROCm 5.3, all of
    shaped families), every distinct encoding our listing decoded."""
    if not LIBRARY.is_file():
        pytest.skip("librocsparse not unpacked in .cache/debs (benchmarks/decoder_speed.py fetches it)")
    from isalens.engine.binary import list_code_objects
    from isalens.engine.code_listing import code_reading
    from isalens.isa.amdgcn.decoder import listing

    monkeypatch.setenv("ISALENS_MAX_INPUT_SIZE", "2G")  # the library is 1.3 GB

    per_target: dict[tuple[str, bool], set[tuple[int, ...]]] = {}
    seen: dict[str, int] = {}
    for item in list_code_objects(LIBRARY):
        co = item.code_object
        if co is None or family_of(co.processor) not in FAMILIES or seen.get(co.processor, 0) >= 2 \
                or len(co.data) < 200_000:  # the first code objects of a target hold a few instructions
            continue
        seen[co.processor] = seen.get(co.processor, 0) + 1
        listing._CACHE.clear()
        listing._SHAPES.clear()
        code_reading(co, file=str(LIBRARY), disassembler="ours")
        for (target, wave64), caches in listing._CACHE.items():
            for cache in caches:
                per_target.setdefault((target, wave64), set()).update(
                    e[3] for e in cache.values() if e is not None and e[3])
        if len(seen) >= 6 and all(n >= 2 for n in seen.values()):
            break
    assert len(per_target) >= 6
    for (target, wave64), encodings in per_target.items():
        compared, shaped = _compare(list(encodings), target, wave64, seed=len(encodings))
        assert compared > 100 and shaped > 10, (target, compared, shaped)


def _sgpr_neighbours(encoding: tuple[int, ...], target: str) -> list[tuple[int, ...]]:
    """``encoding`` with the SGPR number of each of its SGPR fields (and 9-bit sources naming an SGPR) moved by
    1, 2 and 3 (misaligned for a pair or a wider run: LLVM drops the low bits) and to the last SGPRs (s96-s101:
    a wide run would end past s101), one field at a time, then all together."""
    family = family_of(target)
    assert family is not None
    layout = layout_of(family)
    generation = {"gfx8": 8}.get(family) or (9 if layout == "gfx9" else int(layout[3:]))
    try:
        fmt = _format(encoding[0], layout, generation)
    except Exception:
        return []
    bits = 0
    for i, w in enumerate(encoding):
        bits |= w << (32 * i)
    out = []
    scalars = [(lo, mask, scale) for lo, mask, kind, scale in shapes._register_fields(fmt, layout)
               if kind and 0 < (bits >> lo & mask) * scale <= 101]
    for step in (1, 2, 3, 96, 97, 98, 99, 100, 101):
        together = bits
        for lo, mask, scale in scalars:
            number = (bits >> lo & mask) * scale
            moved = (number + step if step < 4 else step) % 102 // scale
            out.append(bits & ~(mask << lo) | moved << lo)
            together = together & ~(mask << lo) | moved << lo
        out.append(together)
    return [tuple(v >> (32 * i) & 0xFFFFFFFF for i in range(len(encoding))) for v in out]


@pytest.mark.parametrize("target", TARGETS)
def test_compiled_examples_with_their_sgpr_numbers_moved(target: str) -> None:
    """Every encoding of the compiled examples and its neighbours with other SGPR numbers (misaligned ones, ones
    near the last SGPR), in a shuffled order: spelled from the shape another left equals ``decode_text``'s."""
    pytest.importorskip("elftools")
    from elftools.elf.elffile import ELFFile

    objects = _code_objects(target)
    if not objects:
        pytest.skip("no compiled examples in .cache/decoder_objects (tests/oracle/test_decoder_objdump.py builds "
                    "them with clang-19)")
    encodings: set[tuple[int, ...]] = set()
    for co in objects:
        with co.open("rb") as f:
            data = ELFFile(f).get_section_by_name(".text").data()
        encodings.update(_stream_encodings(list(array("I", data[:len(data) // 4 * 4])), target))
    moved = {n for e in encodings for n in _sgpr_neighbours(e, target)}
    _compared, shaped = _compare([*encodings, *moved], target, seed=3)
    assert len(moved) > 1000 and shaped > 10, (len(moved), shaped)


#: (target, first-dword top bits to force, how many) for hypothesis: VOP2/VOP1 (bit 31 clear), VOP3, DS, FLAT,
#: MUBUF on gfx9 and gfx10 (their ISA guides' encoding fields)
_TOPS = {"gfx90a": (0x0, 0x7E, 0xD0, 0xD1, 0xD8, 0xDC, 0xE0), "gfx803": (0x0, 0x7E, 0xD0, 0xD1, 0xD8, 0xDC, 0xE0),
         "gfx1030": (0x0, 0x7E, 0xD4, 0xD5, 0xD8, 0xDC, 0xE0)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.sampled_from(sorted(_TOPS)), top=st.integers(0, 6), low=st.integers(0, (1 << 56) - 1),
       tail=st.integers(0, (1 << 32) - 1), variants=st.lists(st.integers(0, (1 << 64) - 1), min_size=1, max_size=6))
def test_hypothesis_words_with_their_vgpr_fields_varied(target: str, top: int, low: int, tail: int,
                                                         variants: list[int]) -> None:
    """One encoding, then the same with other values in its VGPR fields: each spelled from the shape the first
    (or an earlier one) left equals ``decode_text``'s."""
    prefix = _TOPS[target][top]
    bits = (prefix << 56 | low) if prefix else low
    shaping = _shaping(target, False)
    assert shaping is not None
    family, generation, _ = shaping
    layout = layout_of(family)
    found: shapes.Shapes = {}
    try:
        fmt = _format(bits & 0xFFFFFFFF, layout, generation)
    except Exception:
        fmt = ""
    fields = shapes._vgpr_fields(fmt, layout) if fmt else ()
    for variant in [0, *variants]:
        value = bits
        for k, (lo, mask, nine) in enumerate(fields):
            if variant:
                field = variant >> (8 * k) & 0xFF
                value = value & ~(mask << lo) | ((256 + field) if nine and value >> lo & mask >= 256 else field) << lo
        words = [value & 0xFFFFFFFF, value >> 32 & 0xFFFFFFFF, tail, 0xBF810000]
        got = shaped_text(words, target, family, generation, False, found)
        assert got == decode_text(words, target, hardware=True, wave64=False), [f"{w:08X}" for w in words]


#: (target, first-dword top bits to force) for the SGPR fields (twentieth session): SOP2, SOPK, SOP1/SOPC (top byte
#: 0xBE/0xBF), SMEM, VOP3 (sources, the SGPR-pair destination of compares), VOP2/VOP1 (an SGPR source), MUBUF and
#: FLAT/GLOBAL (SOFFSET, SRSRC, SADDR) on gfx8, gfx9 and gfx10 (their ISA guides' encoding fields)
_SCALAR_TOPS = {"gfx90a": (0x80, 0x8A, 0xB0, 0xBE, 0xBF, 0xC0, 0xC2, 0xD0, 0xD1, 0x02, 0x7E, 0xE0, 0xDC),
                "gfx803": (0x80, 0x8A, 0xB0, 0xBE, 0xBF, 0xC0, 0xC2, 0xD0, 0xD1, 0x02, 0x7E, 0xE0, 0xDC),
                "gfx1030": (0x80, 0x8A, 0xB0, 0xBE, 0xBF, 0xF4, 0xD4, 0xD5, 0x02, 0x7E, 0xE0, 0xDC)}


def _scalar_value(variant: int, k: int, mask: int, kind: int, before: int) -> int:
    """A value for register field ``k`` from ``variant``: SGPR numbers and the codes after them (vcc, ttmp, m0,
    exec, constants: 0-127, aligned or not) for an SGPR field or a 9-bit source that held one, a VGPR for one
    that held a VGPR or a VGPR field; a field that held an SGPR number mostly gets another one (s1-s101), so the
    variants share its shape."""
    byte = variant >> (8 * k) & 0xFF
    if kind == 0:
        return byte & mask
    if kind == 1 and before >= 256:
        return 256 + byte
    if 0 < before <= 101 and byte < 192:  # mostly another SGPR number (the same shape), odd ones too
        return min(1 + byte % 101, mask)
    return (byte & 0x7F) & mask


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.sampled_from(sorted(_SCALAR_TOPS)), top=st.integers(0, 12), low=st.integers(0, (1 << 56) - 1),
       tail=st.integers(0, (1 << 32) - 1), variants=st.lists(st.integers(0, (1 << 64) - 1), min_size=1, max_size=8))
def test_hypothesis_words_with_their_sgpr_fields_varied(target: str, top: int, low: int, tail: int,
                                                         variants: list[int]) -> None:
    """One encoding, then the same with other values in its SGPR and VGPR fields (SGPR numbers aligned and not,
    near the last SGPR, and the special registers and constants after them): each spelled from the shape the
    first (or an earlier one) left equals ``decode_text``'s."""
    tops = _SCALAR_TOPS[target]
    bits = tops[top % len(tops)] << 56 | low
    shaping = _shaping(target, False)
    assert shaping is not None
    family, generation, _ = shaping
    layout = layout_of(family)
    found: shapes.Shapes = {}
    try:
        fmt = _format(bits & 0xFFFFFFFF, layout, generation)
    except Exception:
        fmt = ""
    fields = shapes._register_fields(fmt, layout) if fmt else ()
    for variant in [0, *variants]:
        value = bits
        for k, (lo, mask, kind, _scale) in enumerate(fields):
            if variant:
                field = _scalar_value(variant, k, mask, kind, bits >> lo & mask)
                value = value & ~(mask << lo) | field << lo
        words = [value & 0xFFFFFFFF, value >> 32 & 0xFFFFFFFF, tail, 0xBF810000]
        got = shaped_text(words, target, family, generation, False, found)
        assert got == decode_text(words, target, hardware=True, wave64=False), [f"{w:08X}" for w in words]
