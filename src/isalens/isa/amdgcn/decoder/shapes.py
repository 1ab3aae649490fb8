"""Encodings that differ only in their VGPR numbers, spelled once per *shape* (issue 28 speed).

A library's code repeats few shapes of instruction (an opcode, its modifiers, scalar operands and constants) with
many VGPR numbers: librocsparse's first 10 MB hold 188,951 distinct encodings but ~30,000 once the non-zero VGPR
fields are set aside (docs/performance.md, nineteenth session). ``decode_text`` of one encoding costs tens of
microseconds; this module decodes a shape once with a distinct sentinel in each of those fields, finds where each
sentinel lands in the text, and spells every other encoding of the shape by putting its own register numbers
there. A shape is used only when that text names each sentinel as a VGPR/AGPR run and nothing else at those
numbers, and the first encoding of the shape decoded in full gives exactly the substituted text; otherwise its
encodings are decoded in full. ``tests/unit/test_decoder_shapes.py`` compares every encoding of decoded code
objects and hypothesis-made words with ``decode_text``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from isalens.isa.amdgcn.decoder.tables import layout_of, opcode_table
from isalens.isa.amdgcn.decoder.text import Diagnostic, Text, decode_text
from isalens.isa.amdgcn.field_layouts import DWORDS
from isalens.isa.amdgcn.fields import DecodeError, _extra_dwords, _format, _layout

__all__ = ["FAMILIES", "Shapes", "shaped_text"]

#: the families whose encodings are spelled by shape: gfx8-gfx10 print a VGPR field as ``vN`` or ``v[N:M]`` by
#: its value alone (gfx11+ spell 16-bit operands as register halves by the number's top bit; gfx12.5's VOPD3 and
#: 64-bit literals have forms of their own): the ones the oracle corpus and librocsparse cover
FAMILIES = frozenset({"gfx8", "gfx9", "gfx906", "gfx908", "gfx90a", "gfx10_1", "gfx10_3"})
#: the sentinels put in a shape's VGPR fields, in field order: even (64-bit register runs are even-aligned on
#: gfx90a) and 40 apart, so the widest run (32 AGPRs of a 32x32 MFMA) starting at one stays below 256
_SENTINELS = (8, 48, 88, 128, 168, 208)
_TOKEN = re.compile(r"\b([vsa])(?:(\d+)\b|\[(\d+):(\d+)\])", re.ASCII)

#: a shape: (format, size in bytes, mnemonic, the operand text's pieces between the registers, and per register
#: (the field's position among the shape's VGPR fields, its letter, its width, 0 for ``vN`` else 1 for
#: ``v[N:M]``)); False when its encodings are decoded in full
_Shape = tuple[str, int, str, tuple[str, ...], tuple[tuple[int, str, int, int], ...]]
#: per (target, wave64): per shape key (the instruction's bits with its non-zero VGPR fields cleared, which of
#: them those are, its dwords), the shape
Shapes = dict[tuple[int, int, int], "_Shape | bool"]


@cache
def _vgpr_fields(fmt: str, layout: str) -> tuple[tuple[int, int, bool], ...]:
    """(low bit, mask, whether a 9-bit source naming a VGPR from 256) of each field of ``fmt`` that names a
    VGPR; () when the format has no plain field layout (SDWA, DPP, VOP3 with DPP)."""
    specs = _layout(fmt, layout)
    if specs is None or fmt.endswith(("_DPP", "_DPP8")):
        return ()
    return tuple((lo, (1 << (hi - lo + 1)) - 1, kind == "src9") for _name, hi, lo, kind in specs
                 if kind in ("vgpr", "src9"))


def shaped_text(words: Sequence[int], target: str, family: str, generation: int, wave64: bool,
                shapes: Shapes) -> Text | Diagnostic:
    """``decode_text(words, target, hardware=True, wave64=wave64)`` (``words``: the instruction's dwords and up to
    seven after them; ``family`` in :data:`FAMILIES`), spelled from its shape when one was found before."""
    layout = layout_of(family)
    w0 = words[0]
    try:
        fmt = _format(w0, layout, generation)
        base = DWORDS[fmt]
        if len(words) < base:
            raise DecodeError("short")
        fmt, extra = _extra_dwords(fmt, words, layout)
    except DecodeError:
        return decode_text(words, target, hardware=True, wave64=wave64)
    n = base + extra
    fields = _vgpr_fields(fmt, layout)
    if not fields or len(words) < n or (n == 1 and w0 in opcode_table(family, wave64).get("WORDS", {})):
        return decode_text(words, target, hardware=True, wave64=wave64)
    bits = 0
    for i in range(n):
        bits |= words[i] << (32 * i)
    chosen = 0
    values: list[int] = []
    key = bits
    for i, (lo, mask, nine) in enumerate(fields):
        value = bits >> lo & mask
        if nine:
            if value <= 256:  # a scalar, constant or v0: part of the shape
                continue
            value -= 256
        elif not value:  # v0 or an unused field: part of the shape
            continue
        chosen |= 1 << i
        values.append(value)
        key &= ~(mask << lo)
    if not chosen or len(values) > len(_SENTINELS):
        return decode_text(words, target, hardware=True, wave64=wave64)
    shape = shapes.get((key, chosen, n))
    if shape is None:
        result = decode_text(words, target, hardware=True, wave64=wave64)
        probe = list(words)
        sentinel = key
        j = 0
        for i, (lo, _mask, nine) in enumerate(fields):
            if chosen >> i & 1:
                sentinel |= (_SENTINELS[j] + 256 * nine) << lo
                j += 1
        for i in range(n):
            probe[i] = sentinel >> (32 * i) & 0xFFFFFFFF
        shapes[(key, chosen, n)] = _shape(decode_text(probe, target, hardware=True, wave64=wave64), result,
                                          values, 4 * n) or False
        return result
    if shape is False or shape is True:
        return decode_text(words, target, hardware=True, wave64=wave64)
    return Text(shape[0], shape[1], shape[2], _spell(shape, values))


def _spell(shape: _Shape, values: list[int]) -> str:
    pieces, registers = shape[3], shape[4]
    out = [pieces[0]]
    for k, (field, letter, width, ranged) in enumerate(registers):
        first = values[field]
        out.append(f"{letter}[{first}:{first + width - 1}]" if ranged else f"{letter}{first}")
        out.append(pieces[k + 1])
    return "".join(out)


def _shape(probe: Text | Diagnostic, result: Text | Diagnostic, values: list[int], size: int) -> _Shape | None:
    """The shape of ``probe`` (the instruction with sentinels in its VGPR fields), checked against ``result``
    (the same instruction with ``values`` there, decoded in full); None when either is not a plain text of
    ``size`` bytes, a sentinel is not spelled as one VGPR/AGPR run, or the substituted text differs."""
    if not isinstance(probe, Text) or not isinstance(result, Text) or probe.note or result.note \
            or probe.size != size or result.size != size or (probe.format, probe.mnemonic) != (result.format,
                                                                                                 result.mnemonic):
        return None
    field_of = {s: j for j, s in enumerate(_SENTINELS[:len(values)])}
    parts = _TOKEN.split(probe.operands)
    pieces = [parts[0]]
    registers: list[tuple[int, str, int, int]] = []
    seen: set[int] = set()
    for i in range(1, len(parts), 5):
        letter, one, lo, hi = parts[i:i + 4]
        first = int(one if one is not None else lo)
        field = field_of.get(first)
        if field is None:  # a register of a field set aside (v0, a scalar): the shape's own text
            pieces[-1] += (f"{letter}{one}" if one is not None else f"{letter}[{lo}:{hi}]") + parts[i + 4]
            continue
        if letter not in "va" or str(first) != (one if one is not None else lo):
            return None
        width = 1 if one is not None else int(hi) - first + 1
        if width < 1:
            return None
        registers.append((field, letter, width, int(one is None)))
        seen.add(field)
        pieces.append(parts[i + 4])
    if len(seen) != len(values):  # a field whose number the text does not show (an unused field set)
        return None
    shape = (probe.format, probe.size, probe.mnemonic, tuple(pieces), tuple(registers))
    if _spell(shape, values) != result.operands:
        return None
    return shape
