"""Operands in LLVM's spelling for the decoder: registers and ranges, inline constants and literals, and
the opcode table's templates filled from decoded fields."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from isalens.isa.amdgcn.fields import Decoded, inline_integer


class _Unsupported(Exception):
    """Raised inside the decoder: the instruction is not one it spells."""


# ---------------------------------------------------------------------------------------------- operands
# Inline constants (AMD ISA guides, "Inline constants"): 128..192 = 0..64, 193..208 = -1..-16, 240..248 floats.
_FLOATS = {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0", 245: "-2.0", 246: "4.0", 247: "-4.0"}


_SPECIALS = {235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
             239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz", 253: "src_scc",
             254: "src_lds_direct"}


def _range(file: str, first: int, count: int) -> str:
    return f"{file}{first}" if count == 1 else f"{file}[{first}:{first + count - 1}]"


def scalar(code: int, count: int, layout: str, literal: int | None = None) -> str:
    """An 8-bit scalar operand code as LLVM prints it, ``count`` registers wide."""
    # a range of SGPRs/TTMPs starts at a multiple of 2 (pairs) or 4 (wider); LLVM drops the low bits of a
    # misaligned register number, so we do the same
    align = 1 if count == 1 else 2 if count == 2 else 4
    if code <= 105 and not (layout == "gfx9" and code >= 102) and not (layout == "gfx6" and code >= 104):
        return _range("s", code & -align, count)
    pairs = {106: "vcc", 126: "exec"}
    if layout == "gfx9":
        pairs |= {102: "flat_scratch", 104: "xnack_mask"}
    elif layout == "gfx6":
        # SI/CI (SI/CI ISA guides, "SGPRs"; llvm-mc-19): s0-s103, CI's flat_scratch at 104 (the decoder refuses 104
        # and 105 for SI, which has neither); no null (125), src_shared_base... (235-239), nor 1/(2*pi) (248)
        if code in (125, 248) or 235 <= code <= 239:
            raise _Unsupported(f"scalar operand code {code} (reserved on gfx6/gfx7)")
        pairs |= {104: "flat_scratch"}
    if code in pairs or code - 1 in pairs:
        base = pairs.get(code) or pairs[code - 1]
        if count == 2 and code in pairs:
            return base
        if count == 1:
            return base + ("_lo" if code in pairs else "_hi")
        raise _Unsupported(f"{count}-register operand at scalar code {code}")
    if 108 <= code <= 123:
        return _range("ttmp", (code - 108) & -align, count)
    m0, null = (125, 124) if layout in ("gfx11", "gfx12") else (124, 125)
    if code == m0 and count == 1:
        return "m0"
    if code == null and layout != "gfx9":
        return "null"
    integer = inline_integer(code)
    if integer is not None:
        return integer
    if code in _FLOATS:
        return _FLOATS[code]
    if code == 248:
        return "0.15915494309189532" if count == 2 else "0.15915494"
    if code in _SPECIALS:
        return _SPECIALS[code]
    if code == 255 and literal is not None:
        return _literal_text(literal, count, layout)
    raise _Unsupported(f"scalar operand code {code}")


_F32_INLINE = {0x3F000000: "0.5", 0xBF000000: "-0.5", 0x3F800000: "1.0", 0xBF800000: "-1.0",
               0x40000000: "2.0", 0xC0000000: "-2.0", 0x40800000: "4.0", 0xC0800000: "-4.0",
               0x3E22F983: "0.15915494"}


def _literal_text(value: int, count: int, layout: str = "") -> str:
    """A 32-bit literal dword: LLVM prints a value that an inline constant could encode as that constant (gfx6/gfx7
    have no 1/(2*pi) inline constant: its bits print in hex there, llvm-mc-19)."""
    if count == 1:
        if value <= 64 or value >= 0xFFFFFFF0:
            return str(value - (1 << 32) if value >> 31 else value)
        if value in _F32_INLINE and not (layout == "gfx6" and value == 0x3E22F983):
            return _F32_INLINE[value]
    return f"{value:#x}"


_F16_INLINE = {0x3800: "0.5", 0xB800: "-0.5", 0x3C00: "1.0", 0xBC00: "-1.0", 0x4000: "2.0", 0xC000: "-2.0",
               0x4400: "4.0", 0xC400: "-4.0", 0x3118: "0.15915494"}


def _literal16(value: int, kind: str) -> str:
    """A literal dword read by a gfx11+ 16-bit VOP1/VOP2/VOPC operand (``kind`` ``f``: half float, ``i``: 16-bit
    integer), as LLVM 19 prints it (llvm-mc-19 probes, ``test_sixteen_bit_literals_equal_llvm_mc``): the hardware
    reads the low half; a float prints that half as an inline constant where one encodes it, an integer only
    when the whole dword is one (``0xffff0005`` prints ``0x5``), otherwise the low half in hex."""
    low = value & 0xFFFF
    if kind == "f":
        if low <= 64 or low >= 0xFFF0:
            return str(low - (1 << 16) if low >> 15 else low)
        return _F16_INLINE.get(low, f"{low:#x}")
    if value <= 64 or value >= 0xFFFFFFF0:
        return str(value - (1 << 32) if value >> 31 else value)
    return f"{low:#x}"


def _source(code: int, file: str, count: int, layout: str, literal: int | None) -> str:
    """A 9-bit source field (VGPR from 256) or an 8-bit scalar field."""
    if code >= 256:
        return _range(file if file in "va" else "v", code - 256, count)
    return scalar(code, count, layout, literal)


#: ``{FIELD}`` or ``{FIELD:file:count}``; files ``t`` and ``h`` are gfx11+ 16-bit VGPR operands (half registers,
#: :func:`_true16`; ``h``: of an opcode LLVM 19 always spells as halves, such as v_mov_b16)
_PLACEHOLDER = re.compile(r"\{(\w+)(?::([vsath]):(\d+))?\}")


_NINE_BIT = frozenset({"SRC0", "SRC1", "SRC2", "SRCX0", "SRCY0"})


def _bits(words: Sequence[int], hi: int, lo: int) -> int:
    value = 0
    for i, w in enumerate(words):
        value |= w << (32 * i)
    return (value >> lo) & ((1 << (hi - lo + 1)) - 1)


#: the source fields that can name a literal (255; gfx12.5 also 254, a 64-bit literal)
SOURCE_FIELDS = ("SSRC0", "SSRC1", "SRC0", "SRC1", "SRC2", "SRCX0", "SRCY0")
#: float64 values LLVM names when a 64-bit literal holds them (ROCm LLVM, gfx1250 probes)
_F64_NAMED = {0x3FE0000000000000: "0.5", 0xBFE0000000000000: "-0.5", 0x3FF0000000000000: "1.0",
              0xBFF0000000000000: "-1.0", 0x4000000000000000: "2.0", 0xC000000000000000: "-2.0",
              0x4010000000000000: "4.0", 0xC010000000000000: "-4.0"}


def _literal64_text(value: int, kind: str) -> str:
    """A 64-bit operand's literal value on gfx12.5 as ROCm LLVM prints it (probes of v_add_f64, v_add_nc_u64,
    s_add_nc_u64, s_mov_b64 and v_mov_b64 with 32- and 64-bit literals; ``kind`` ``f``: a float64 operand, ``i``:
    an integer one): a float that an integer or a 32-bit literal (its high half) spells prints so, an integer
    from 0 to 64 in decimal and below 2**31 in hex; anything else as ``lit64(0x…)``, the 64-bit literal."""
    if kind == "f":
        if value == 0:
            return "0"
        if value in _F64_NAMED:
            return _F64_NAMED[value]
        if not value & 0xFFFFFFFF:
            return f"{value >> 32:#x}"
    elif kind != "i":
        raise _Unsupported("64-bit literal of an operand of unknown type")
    elif value <= 64:
        return str(value)
    elif value < 1 << 31:
        return f"{value:#x}"
    return f"lit64({value:#x})"


def _fill(template: str, d: Decoded, layout: str, literal: int | None,
          wrap: dict[str, tuple[int, int]] | None = None, half_kind: str = "", wide: str | None = None) -> str:
    """The template with every field placeholder spelled from the instruction's field values; ``half_kind``:
    how a literal of a 16-bit operand prints (:func:`_literal16`); ``wide``: gfx12.5 only, the type of the
    instruction's 64-bit operands (:func:`_literal64_text`), whose literals ROCm LLVM prints by rules of their
    own (a 32-bit literal is the high half of a float64, an integer's low half)."""
    parts = _template_parts(template)
    halves = _true16(template, d)
    lit64 = d.get("LIT64")

    def sub(name: str, file: str | None, count: int) -> str:
        if name == "LITERAL":
            if literal is None:
                raise _Unsupported("literal operand without a literal dword")
            return _literal_text(literal, count, layout)
        if file is None:  # every template names the file of its fields' placeholders but {LITERAL}'s
            raise _Unsupported(f"placeholder {name} without a register file")
        value = _value(d, name)
        nine = name in _NINE_BIT or (name == "SRC0" and d.format in ("VOP1", "VOP2", "VOPC"))
        if name in SOURCE_FIELDS and value == 254 and lit64 is not None:
            if wide is None or count != 2 or file not in "vs":
                raise _Unsupported(f"64-bit literal in {name}")
            text = _literal64_text(lit64.value, wide)
        elif name in SOURCE_FIELDS and value == 255 and count == 2 and wide is not None and literal is not None:
            text = _literal64_text(literal << 32 if wide == "f" else literal, wide)
        elif file in "th" and (value >= 256 or not nine):
            register = value - 256 if nine else value
            text = f"v{register & 127}.{'h' if register & 128 else 'l'}" if halves else f"v{register}"
        elif value == 255 and literal is not None and (half_kind or file in "th") and nine:
            if not half_kind:
                raise _Unsupported("literal of a 16-bit operand of unknown type")
            text = _literal16(literal, half_kind)
        elif nine:
            text = _source(value, file, count, layout, literal)
        elif file in "va":
            text = _range(file, value, count)
        else:
            text = scalar(value, count, layout, literal)
        neg, abs_ = (wrap or {}).get(name, (0, 0))
        constant = name in _NINE_BIT and 128 <= value < 256  # inline constant or literal, not a register
        if abs_:
            if constant:
                raise _Unsupported(f"abs of constant {text}")
            text = f"|{text}|"
        if neg:
            text = f"neg({text})" if constant else f"-{text}"  # LLVM: neg(0.5), but -v1
        return text

    head, placeholders = parts
    out = [head]
    for name, file, count, after in placeholders:
        out.append(sub(name, file, count))
        out.append(after)
    return "".join(out)


#: (the text before the first placeholder, then per placeholder: its field name, register file (None when it
#: names none), operand count and the text after it up to the next)
_Parts = tuple[str, tuple[tuple[str, "str | None", int, str], ...]]


@lru_cache(maxsize=8192)
def _template_parts(template: str) -> _Parts:
    """``template`` cut at its placeholders for :func:`_fill`, what ``_PLACEHOLDER.sub`` would visit: parsed
    once per template instead of once per instruction."""
    matches = list(_PLACEHOLDER.finditer(template))
    if not matches:
        return template, ()
    ends = [m.start() for m in matches[1:]] + [len(template)]
    return template[:matches[0].start()], tuple((m.group(1), m.group(2), int(m.group(3) or 1), template[m.end():end])
                                                for m, end in zip(matches, ends, strict=True))


def _true16(template: str, d: Decoded) -> bool:
    """Whether a 16-bit VGPR operand (``{FIELD:t:1}``) of the instruction names a high half: bit 7 of its register
    number (RDNA3/RDNA4 ISA guides, VOP1/VOP2/VOPC 16-bit operands: v132 is v4.h). LLVM 19 spells these
    operands "fake16" (``v132/*Invalid register*/``, or rejects the word); such an instruction is spelled as
    LLVM's true16 assembler syntax has it, every 16-bit VGPR operand ``vN.l`` or ``vN.h`` (docs/decoder.md)."""
    if ":h:" in template:
        return True
    if ":t:" not in template:
        return False
    for m in _PLACEHOLDER.finditer(template):
        if m.group(2) == "t":
            value = _value(d, m.group(1))
            nine = m.group(1) == "SRC0"
            if (value >= 256 + 128) if nine else value >= 128:
                return True
    return False


def _value(d: Decoded, name: str) -> int:
    if name == "SDST" and d.format == "VOP3":
        return _bits(d.words, 14, 8)  # VOP3B: the scalar carry-out/condition destination
    field = d.get(name)
    if field is None:
        raise _Unsupported(f"no field {name} in {d.format}")
    if name == "VDSTY" and d.format == "VOPD":  # RDNA3 ISA guide, VOPD: VDSTY's low bit is the inverse of VDSTX's
        return field.value << 1 | (d.value("VDSTX") & 1) ^ 1
    if name == "SBASE":
        return 2 * field.value
    if name == "SRSRC":
        return 4 * field.value
    return field.value


_SCALAR_FIELDS = ("SDST", "SSRC0", "SSRC1", "SDATA", "SOFFSET", "SADDR", "SRC0", "SRC1", "SRC2")


def _gfx8_scalars(d: Decoded, template: str, family: str = "gfx8") -> None:
    """gfx6-gfx8 number TBA/TMA/TTMP differently (108-111 tba/tma, ttmp from 112; SI/CI/GCN3 ISA guides): not
    spelled. SI (gfx6) has no SGPR codes 104/105 (CI's flat_scratch): refused too."""
    nine = ("SRC0", "SRC1", "SRC2") if d.format in ("VOP1", "VOP2", "VOPC", "VOP3") else ()
    for name in (*_SCALAR_FIELDS, *(("VDST",) if "{VDST:s:" in template else ()),
                 *(("VSRC1",) if "{VSRC1:s:" in template else ())):
        f = d.get(name)
        if f is None or (name in nine and f.value >= 256):
            continue
        if 108 <= f.value <= 123:
            raise _Unsupported(f"gfx8 trap register in {name}")
        if family == "gfx6" and f.value in (104, 105):
            raise _Unsupported(f"SGPR code {f.value} in {name} (none on gfx6)")
    base = d.get("SBASE")
    if base is not None and 108 <= 2 * base.value <= 123:
        raise _Unsupported("gfx8 trap register in SBASE")
    rsrc = d.get("SRSRC")
    if rsrc is not None and 108 <= 4 * rsrc.value <= 123:
        raise _Unsupported("gfx8 trap register in SRSRC")


def _zero_field_value(d: Decoded, name: str) -> int:
    if name == "OFFSET" and d.format == "DS":
        return d.value("OFFSET0") | d.value("OFFSET1")
    return _value(d, name)


def _literal(d: Decoded) -> int | None:
    f = d.get("LITERAL")
    return None if f is None else f.value


def _hex(value: int) -> str:
    return f"-{-value:#x}" if value < 0 else f"{value:#x}"


def _signed(value: int, width: int) -> int:
    return value - (1 << width) if value >> (width - 1) else value
