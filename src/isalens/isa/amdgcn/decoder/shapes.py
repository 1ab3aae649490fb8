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
#: the sentinels put in a shape's SGPR fields (twentieth session): multiples of 4 (LLVM spells a run of more than
#: two SGPRs from a multiple of 4, a pair from an even number: ``operands.scalar``) so the widest run
#: (16 SGPRs of ``s_load_dwordx16``) from the last ends at s99, none a VGPR sentinel (a VOP3 destination
#: field names an SGPR pair with a VGPR sentinel)
_SCALAR_SENTINELS = (36, 60, 72, 84)
#: the highest SGPR number an SGPR field's value is set aside at: below it every code is ``sN`` on every shaped
#: family (102 and up are flat_scratch, xnack_mask, vcc on gfx8/gfx9; gfx10's s102-s105 are left in the shape)
_LAST_SGPR = 101
#: the field kinds that name SGPRs (``field_layouts``), with the factor from the field's value to the SGPR number
_SCALAR_KINDS = {"ssrc": 1, "sgpr7": 1, "saddr": 1, "sbase": 2, "srsrc": 4}
_TOKEN = re.compile(r"\b([vsa])(?:(\d+)\b|\[(\d+):(\d+)\])", re.ASCII)

#: a shape: (format, size in bytes, mnemonic, the operand text's pieces between the registers, and per register
#: (the field's position among the shape's chosen fields, its letter, its width, 0 for ``vN`` else 1 for
#: ``v[N:M]``)); False when its encodings are decoded in full
_Shape = tuple[str, int, str, tuple[str, ...], tuple[tuple[int, str, int, int], ...]]
#: per (target, wave64): per shape key (the instruction's bits with its chosen register fields cleared, which of
#: them those are: VGPR fields in the low 16 bits, SGPR ones above, its dwords), the shape
Shapes = dict[tuple[int, int, int], "_Shape | bool"]
#: a field that names registers: (low bit, mask, class, scale): class 0 a VGPR field, 1 a 9-bit source (a VGPR
#: from 256, an SGPR below 102), 2 an SGPR field whose value times ``scale`` is the SGPR number
_Field = tuple[int, int, int, int]


@cache
def _register_fields(fmt: str, layout: str) -> tuple[_Field, ...]:
    """The fields of ``fmt`` that name VGPRs or SGPRs; () when the format has no plain field layout (SDWA, DPP,
    VOP3 with DPP)."""
    specs = _layout(fmt, layout)
    if specs is None or fmt.endswith(("_DPP", "_DPP8")):
        return ()
    return tuple((lo, (1 << (hi - lo + 1)) - 1, 0 if kind == "vgpr" else 1 if kind == "src9" else 2,
                  _SCALAR_KINDS.get(kind, 1)) for _name, hi, lo, kind in specs
                 if kind in ("vgpr", "src9") or kind in _SCALAR_KINDS)


@cache
def _vgpr_fields(fmt: str, layout: str) -> tuple[tuple[int, int, bool], ...]:
    """(low bit, mask, whether a 9-bit source naming a VGPR from 256) of each field of ``fmt`` that names a
    VGPR; () when the format has no plain field layout (SDWA, DPP, VOP3 with DPP)."""
    return tuple((lo, mask, kind == 1) for lo, mask, kind, _scale in _register_fields(fmt, layout) if kind < 2)


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
    fields = _register_fields(fmt, layout)
    if not fields or len(words) < n or (n == 1 and w0 in opcode_table(family, wave64).get("WORDS", {})):
        return decode_text(words, target, hardware=True, wave64=wave64)
    bits = 0
    for i in range(n):
        bits |= words[i] << (32 * i)
    chosen = 0
    values: list[int] = []
    key = bits
    nv = ns = 0
    for i, (lo, mask, kind, scale) in enumerate(fields):
        value = bits >> lo & mask
        if kind == 1 and value > 256:
            value -= 256
        elif kind and 0 < value * scale <= _LAST_SGPR:  # an SGPR (its number) of a source or SGPR field
            value *= scale
            chosen |= 1 << (i + 16)
            ns += 1
            values.append(value)
            key &= ~(mask << lo)
            continue
        elif kind or not value:  # v0, a constant, a special register or an unused field: part of the shape
            continue
        chosen |= 1 << i
        nv += 1
        values.append(value)
        key &= ~(mask << lo)
    if not chosen or nv > len(_SENTINELS) or ns > len(_SCALAR_SENTINELS):
        return decode_text(words, target, hardware=True, wave64=wave64)
    shape = shapes.get((key, chosen, n))
    if shape is None:
        result = decode_text(words, target, hardware=True, wave64=wave64)
        probe = list(words)
        sentinel = key
        sentinels: list[int] = []
        jv = js = 0
        for i, (lo, _mask, kind, scale) in enumerate(fields):
            if chosen >> i & 1:
                sentinels.append(_SENTINELS[jv])
                sentinel |= (_SENTINELS[jv] + 256 * (kind == 1)) << lo
                jv += 1
            elif chosen >> (i + 16) & 1:
                sentinels.append(_SCALAR_SENTINELS[js])
                sentinel |= _SCALAR_SENTINELS[js] // scale << lo
                js += 1
        if values == sentinels:  # the first full decoding would check nothing: a later encoding finds the shape
            return result
        for i in range(n):
            probe[i] = sentinel >> (32 * i) & 0xFFFFFFFF
        shapes[(key, chosen, n)] = _shape(decode_text(probe, target, hardware=True, wave64=wave64), result,
                                          values, sentinels, 4 * n) or False
        return result
    if shape is False or shape is True:
        return decode_text(words, target, hardware=True, wave64=wave64)
    operands = _spell(shape, values)
    if operands is None:
        return decode_text(words, target, hardware=True, wave64=wave64)
    return Text(shape[0], shape[1], shape[2], operands)


def _spell(shape: _Shape, values: list[int]) -> str | None:
    """The operand text of ``shape`` with ``values`` in its fields; None when an SGPR run would not be spelled
    ``sN`` / ``s[N:M]`` from its value (misaligned: LLVM drops the low bits; or past :data:`_LAST_SGPR`)."""
    pieces, registers = shape[3], shape[4]
    out = [pieces[0]]
    for k, (field, letter, width, ranged) in enumerate(registers):
        first = values[field]
        if letter == "s" and (first + width - 1 > _LAST_SGPR or first & (0 if width == 1 else 1 if width == 2 else 3)):
            return None
        out.append(f"{letter}[{first}:{first + width - 1}]" if ranged else f"{letter}{first}")
        out.append(pieces[k + 1])
    return "".join(out)


def _shape(probe: Text | Diagnostic, result: Text | Diagnostic, values: list[int], sentinels: list[int],
           size: int) -> _Shape | None:
    """The shape of ``probe`` (the instruction with ``sentinels`` in its chosen fields), checked against
    ``result`` (the same instruction with ``values`` there, decoded in full); None when either is not a plain
    text of ``size`` bytes, a sentinel is not spelled as one register run exactly once (a VGPR field's as a
    VGPR/AGPR run, or an SGPR run for a VOP3 destination naming SGPRs; an SGPR field's as an SGPR run), or the
    substituted text differs."""
    if not isinstance(probe, Text) or not isinstance(result, Text) or probe.note or result.note \
            or probe.size != size or result.size != size or (probe.format, probe.mnemonic) != (result.format,
                                                                                                 result.mnemonic):
        return None
    field_of = {s: j for j, s in enumerate(sentinels)}
    scalar = {s for s in sentinels if s in _SCALAR_SENTINELS}
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
        if (letter != "s" if first in scalar else letter not in "vas") or field in seen \
                or str(first) != (one if one is not None else lo):
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
    if _spell(shape, sentinels) != probe.operands or _spell(shape, values) != result.operands:
        return None
    return shape
