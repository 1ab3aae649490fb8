"""Code size of AMDGPU instructions: exact from encoding words when the input has them, otherwise from the
encoding rules in ``data/encoding.toml`` (format by mnemonic, suffix, modifiers and operands, plus a
literal dword where the format allows one).

Checked against ``llvm-mc-19 -show-encoding`` for every instruction of the compiled corpus and the ACO
samples (``tests/oracle/test_encoding_sizes.py``).
"""

from __future__ import annotations

import math
import struct
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from isalens import tomlcache
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, LabelOperand, Operand, OtherOperand, RegOperand
from isalens.ir.registers import RegFile, special, special_pair
from isalens.isa.amdgcn.mnemonics import DPP_CONTROLS, SDWA_SELECTS, base_mnemonic, dual_to_single, vopd_halves
from isalens.isa.amdgcn.semantics import effect_of
from isalens.lazyre import LazyPattern
from isalens.patterns import matches
from isalens.records import dataclass

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

__all__ = [
    "ConstantKind", "Size", "constant_kinds", "format_bytes", "format_of", "generation_of", "has_literal",
    "instruction_size", "is_inline_constant", "text_size",
]

#: modifiers only the 64-bit VALU encodings have
_VOP3_MODIFIERS = ("clamp", "omod:", "mul:", "div:", "op_sel:", "op_sel_hi:", "neg_lo:", "neg_hi:", "byte_sel:")
#: operand names that are inline sources, never a literal
_INLINE_NAMES = frozenset((
    "off", "null", "sgpr_null", "src_scc", "src_vccz", "src_execz", "src_lds_direct", "lds_direct",
    "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit", "src_pops_exiting_wave_id",
    "shared_base", "shared_limit", "private_base", "private_limit", "pops_exiting_wave_id", "src_flat_scratch_base_lo",
    "src_flat_scratch_base_hi",
))
_SYMBOL = LazyPattern(r"^[A-Za-z_.$][\w.$@]*(?:[-+][\w.$@]+)*$")
_TARGET = LazyPattern(r"^gfx(\d+)([0-9a-f])([0-9a-f])$")

# Inline float constants (AMD ISA guides, "Inline constants": 0.5, 1.0, 2.0, 4.0, their negatives and
# 1/(2*pi) from gfx8) as bit patterns of each width; 0 is the integer 0.
_INLINE_FLOATS = (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0)
_INV_2PI_F16 = 0x3118
_INV_2PI_F32 = 0x3E22F983
_INV_2PI_F64 = 0x3FC45F306DC9C882


def _bits(value: float, fmt: str) -> int:
    return int.from_bytes(struct.pack("<" + fmt, value), "little")


_F16_PATTERNS = frozenset({_bits(v, "e") for v in _INLINE_FLOATS} | {_INV_2PI_F16})
_F32_PATTERNS = frozenset({_bits(v, "f") for v in _INLINE_FLOATS} | {_INV_2PI_F32})
_F64_PATTERNS = frozenset({_bits(v, "d") for v in _INLINE_FLOATS} | {_INV_2PI_F64})
#: a 32-bit literal for a 64-bit float operand is its high half: these high halves are inline constants
_F64_HIGH_PATTERNS = frozenset(p >> 32 for p in _F64_PATTERNS if p & 0xFFFFFFFF == 0)


@cache
def generation_of(target: str) -> int:
    """Major generation of a ``gfxNNN`` target name (``gfx902`` -> 9, ``gfx1100`` -> 11)."""
    m = _TARGET.match(target.lower())
    if not m:
        raise ValueError(f"not a gfx target name: {target!r}")
    return int(m.group(1))


@dataclass(frozen=True, slots=True)
class _Rule:
    """One rule of ``data/encoding.toml``: the mnemonics it matches, their format, and the generations and targets
    it holds for."""

    match: tuple[str, ...]
    format: str
    generations: tuple[int, int] | None
    targets: tuple[str, ...]
    exclude: tuple[str, ...]

    def applies(self, base: str, generation: int, target: str) -> bool:
        if self.generations and not self.generations[0] <= generation <= self.generations[1]:
            return False
        if self.targets and target not in self.targets:
            return False
        if self.exclude and matches(base, self.exclude):
            return False
        return matches(base, self.match)


@dataclass(frozen=True, slots=True)
class _Format:
    """One encoding format: its size in bytes from each generation on, and the generation from which a literal
    dword may follow it."""

    steps: tuple[tuple[int, int], ...]
    literal_from: int | None

    def bytes_for(self, generation: int) -> int:
        size = self.steps[0][1]
        for first, value in self.steps:
            if generation >= first:
                size = value
        return size


@dataclass(frozen=True, slots=True)
class _Table:
    """The encoding rules of ``data/encoding.toml``: formats by name, and the rules of each section (the last match
    wins)."""

    formats: dict[str, _Format]
    rules: tuple[_Rule, ...]
    vop3_only: tuple[_Rule, ...]
    vop32_only: tuple[_Rule, ...]


def _rule(where: str, raw: dict[str, Any], formats: dict[str, _Format]) -> _Rule:
    unknown = set(raw) - {"match", "format", "generations", "targets", "except"}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    match = raw.get("match")
    if not isinstance(match, list) or not match or not all(isinstance(p, str) for p in match):
        raise ValueError(f"{where}: 'match' must be a non-empty list of patterns")
    fmt = raw.get("format")
    if fmt not in formats:
        raise ValueError(f"{where}: unknown format {fmt!r}")
    gens = raw.get("generations")
    return _Rule(tuple(match), str(fmt), (int(gens[0]), int(gens[1])) if gens else None,
                 tuple(raw.get("targets", ())), tuple(raw.get("except", ())))


@cache
def _table() -> _Table:
    doc = tomlcache.loads((_DATA / "encoding.toml").read_text("utf-8"))
    formats: dict[str, _Format] = {}
    for name, raw in doc.get("formats", {}).items():
        steps = raw.get("bytes")
        if not isinstance(steps, list) or not steps or not all(
                isinstance(s, list) and len(s) == 2 and all(isinstance(x, int) for x in s) for s in steps):
            raise ValueError(f"encoding.toml format {name}: 'bytes' must be a list of [generation, size]")
        formats[name] = _Format(tuple((s[0], s[1]) for s in steps), raw.get("literal_from"))
    sections = []
    for section in ("rule", "vop3_only", "vop32_only"):
        sections.append(tuple(_rule(f"encoding.toml {section} #{i + 1}", raw, formats)
                              for i, raw in enumerate(doc.get(section, []))))
    return _Table(formats, *sections)


def format_bytes(fmt: str, generation: int) -> int:
    """Size in bytes of format ``fmt`` without literal or NSA dwords."""
    return _table().formats[fmt].bytes_for(generation)


@cache
def _last_match(section: str, base: str, generation: int, target: str) -> str | None:
    """The format the last matching rule of ``section`` (rule, vop3_only, vop32_only) gives, if any."""
    table = _table()
    rules = {"rule": table.rules, "vop3_only": table.vop3_only, "vop32_only": table.vop32_only}[section]
    found = None
    for rule in rules:
        if rule.applies(base, generation, target):
            found = rule.format
    return found


# ---------------------------------------------------------------------------------------------- constants

class ConstantKind:
    """How a source operand supplies a value."""

    LITERAL = "literal"
    INLINE = "inline"
    SGPR = "sgpr"


def _operand_width(base: str) -> tuple[int, bool]:
    """(bits, is_float) of a VALU/SALU operation's source operands, from the mnemonic's last type token."""
    token = base.rsplit("_", 1)[-1]
    if base.startswith("v_pk_"):
        return (32, token.startswith("f")) if token in ("f32", "b32") else (16, token in ("f16", "bf16"))
    bits = {"f16": 16, "bf16": 16, "i16": 16, "u16": 16, "b16": 16, "f64": 64, "i64": 64, "u64": 64, "b64": 64}
    return bits.get(token, 32), token.startswith(("f", "bf"))


def is_inline_constant(value: int | float, bits: int, is_float: bool, *, scalar: bool = False) -> bool:
    """Whether an immediate is one of the hardware's inline constants for an operand of this width.

    Integers -16..64 are inline at every width; so are the float constants, as bit patterns of the
    operand's width (32-bit operands of any type accept the fp32 patterns; a 64-bit float VALU operand
    also accepts the high half of the fp64 patterns, as a 32-bit literal of such an operand is its high half).
    """
    if isinstance(value, float):
        return value == 0.0 or value in _INLINE_FLOATS or math.isclose(value, 0.15915494309189535, rel_tol=1e-6)
    if -16 <= value <= 64:
        return True
    if bits == 16:
        signed = value - 0x10000 if 0x8000 <= value <= 0xFFFF else value
        return (is_float and value in _F16_PATTERNS) or (is_float and -16 <= signed <= 64)
    if bits == 64:
        if value in _F64_PATTERNS:
            return True
        return is_float and not scalar and value in _F64_HIGH_PATTERNS
    signed = value - 0x100000000 if 0x80000000 <= value <= 0xFFFFFFFF else value
    return -16 <= signed <= 64 or value in _F32_PATTERNS


def _constant_kind(op: Operand, bits: int, is_float: bool, scalar: bool) -> str | None:
    if isinstance(op, ImmOperand):
        if op.value is None:
            return ConstantKind.LITERAL
        return ConstantKind.INLINE if is_inline_constant(op.value, bits, is_float, scalar=scalar) else \
            ConstantKind.LITERAL
    if isinstance(op, OtherOperand | LabelOperand):
        low = op.text.lower()
        if low in _INLINE_NAMES or "(" in low or low.startswith("attr"):
            return ConstantKind.INLINE if low.startswith(("src_", "shared_", "private_", "pops_")) else None
        # a symbol or symbol expression (sym@abs32@lo, .LBB0_2-.Lpost) needs a relocated 32-bit literal
        return ConstantKind.LITERAL if _SYMBOL.match(op.text) else None
    if isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].file is RegFile.SGPR:
        return ConstantKind.SGPR
    return None


@lru_cache(maxsize=65536)
def constant_kinds(mnemonic: str, operands: tuple[Operand, ...], generation: int) -> tuple[str | None, ...]:
    """For each operand of a VALU or SALU instruction: literal, inline, sgpr or None (anything else).

    Only sources count: the written operands come first and get None.
    """
    base, _ = base_mnemonic(mnemonic)
    if not base.startswith(("s_", "v_")):
        return tuple(None for _ in operands)
    if base.startswith("s_"):
        # SOPK/SOPP immediates and SMEM offsets live inside the instruction: they are not source constants
        fmt = _last_match("rule", base, generation, ())
        if fmt in ("SOPK", "SOPP", "SMEM"):
            return tuple(None for _ in operands)
        if fmt == "SOPK_LIT":
            return tuple("literal" if isinstance(op, ImmOperand) else None for op in operands)
    eff = effect_of(mnemonic, generation)
    ndefs = max(len(operands) - eff.sources, 0) if eff.sources is not None else eff.defs
    bits, is_float = _operand_width(base)
    scalar = base.startswith("s_")
    return tuple(None if i < ndefs else _constant_kind(op, bits, is_float, scalar) for i, op in enumerate(operands))


def _words(operands: tuple[Operand, ...], modifiers: tuple[str, ...]) -> tuple[str, ...]:
    """Modifiers plus bare operand words (``row_mirror`` is not a key:value modifier)."""
    return modifiers + tuple(op.text for op in operands if isinstance(op, OtherOperand))


def _has(words: tuple[str, ...], prefixes: tuple[str, ...]) -> bool:
    return any(w.startswith(prefixes) for w in words)


# ---------------------------------------------------------------------------------------------- formats

_VCC_MASKS = (special_pair("vcc").mask(), special("vcc_lo").mask())


def _is_vcc(op: Operand) -> bool:
    return isinstance(op, RegOperand) and op.mask in _VCC_MASKS


def _is_vgpr(op: Operand) -> bool:
    return (isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].file is RegFile.VGPR
            and not op.neg and not op.abs)


def _fits_32bit(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], generation: int) -> bool:
    """Can this VALU instruction (which has both forms) use its 4-byte VOP1/VOP2/VOPC form?

    Those forms have no source modifiers, clamp, omod or op_sel; the second source must be a VGPR; the
    destination a VGPR (VOPC: VCC or none); a carry-out, carry-in or select mask must be VCC.
    """
    if _has(modifiers, _VOP3_MODIFIERS):
        return False
    if any(isinstance(op, RegOperand) and (op.neg or op.abs) for op in operands):
        return False
    base, _ = base_mnemonic(mnemonic)
    eff = effect_of(mnemonic, generation)
    ndefs = max(len(operands) - eff.sources, 0) if eff.sources is not None else min(eff.defs, len(operands))
    dsts, srcs = operands[:ndefs], operands[ndefs:]
    if base.startswith(("v_cmp_", "v_cmpx_", "v_cmps_", "v_cmpsx_")):
        if any(not _is_vcc(d) for d in dsts):
            return False
    else:
        if dsts and not isinstance(dsts[0], RegOperand):
            return False
        if dsts and dsts[0].regs[0].file is not RegFile.VGPR:  # type: ignore[union-attr]
            return False
        if any(not _is_vcc(d) for d in dsts[1:]):
            return False
    if len(srcs) >= 2 and not _is_vgpr(srcs[1]):
        return False
    return all(_is_vcc(s) for s in srcs[2:])


def _valu_format(mnemonic: str, base: str, suffix: str, text: str, operands: tuple[Operand, ...],
                 modifiers: tuple[str, ...], generation: int, target: str) -> str:
    words = _words(operands, modifiers)
    if base.startswith("v_dual_") or "::" in text:
        return "VOPD"
    only32 = _last_match("vop32_only", base, generation, target)
    only64 = None if only32 else _last_match("vop3_only", base, generation, target)
    if suffix in ("e64_dpp", "e64_dpp8") or (suffix in ("dpp", "dpp8", "") and only64 and _has(words, DPP_CONTROLS)):
        return "VOP3_DPP"
    if suffix in ("dpp", "dpp8", "e32_dpp") or (not suffix and _has(words, DPP_CONTROLS)):
        return "DPP"
    if suffix == "sdwa" or (not suffix and _has(modifiers, SDWA_SELECTS)):
        return "SDWA"
    if only32:
        return only32
    if suffix == "e32":
        return "VOP1"
    if suffix == "e64":
        return "VOP3P" if only64 == "VOP3P" else "VOP3"
    if only64:
        return only64
    return "VOP1" if _fits_32bit(mnemonic, operands, modifiers, generation) else "VOP3"


def format_of(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], target: str,
              text: str = "") -> str:
    """The encoding format (a key of ``[formats]`` in ``encoding.toml``) an instruction's text implies."""
    generation = generation_of(target)
    base, suffix = base_mnemonic(mnemonic.lower())
    if base.startswith("v_"):
        return _valu_format(mnemonic, base, suffix, text, operands, modifiers, generation, target)
    fmt = _last_match("rule", base, generation, target)
    if fmt is None:
        raise ValueError(f"no encoding format for {mnemonic!r}")
    return fmt


def has_literal(mnemonic: str, operands: tuple[Operand, ...], generation: int) -> bool:
    """Whether any source operand needs a literal dword (VOPD halves share one literal)."""
    return ConstantKind.LITERAL in constant_kinds(mnemonic, operands, generation)


def _vopd_literal(text: str, generation: int) -> bool:
    # each half is an instruction of its own for operand purposes
    for raw in vopd_halves(text):
        if raw.mnemonic.startswith(("v_dual_fmaak", "v_dual_fmamk")):
            return True
        if has_literal(dual_to_single(raw.mnemonic), raw.operands, generation):
            return True
    return False


def _nsa_dwords(operands: tuple[Operand, ...]) -> int:
    """Extra dwords of a gfx10/gfx11 MIMG NSA address list: 4 addresses per dword after the first."""
    for op in operands:
        if isinstance(op, RegOperand) and len(op.regs) > 1:
            return math.ceil((len(op.regs) - 1) / 4)
    return 0


@dataclass(frozen=True, slots=True)
class Size:
    """Bytes of one instruction, its encoding format and whether it came from encoding words."""

    bytes: int
    format: str
    literal: bool
    exact: bool


@lru_cache(maxsize=65536)
def text_size(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], target: str,
              text: str = "") -> Size:
    """Size by the encoding rules alone (no encoding words)."""
    generation = generation_of(target)
    fmt = format_of(mnemonic, operands, modifiers, target, text)
    spec = _table().formats[fmt]
    size = spec.bytes_for(generation)
    literal = False
    if fmt == "VOPD":
        literal = _vopd_literal(text, generation) if text else has_literal(mnemonic, operands, generation)
    elif spec.literal_from is not None and generation >= spec.literal_from:
        literal = has_literal(mnemonic, operands, generation)
    if fmt == "MIMG" and 10 <= generation <= 11:
        size += 4 * _nsa_dwords(operands)
    return Size(size + (4 if literal else 0), fmt, literal or fmt == "VOP2_LIT", False)


def instruction_size(ins: Instruction, target: str) -> Size:
    """Exact size from the instruction's encoding words when present, else :func:`text_size`."""
    rule = text_size(ins.mnemonic, ins.operands, ins.modifiers, target, ins.text)
    if ins.encoding:
        return Size(4 * len(ins.encoding), rule.format, rule.literal, True)
    return rule
