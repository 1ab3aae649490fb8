"""Which registers an instruction writes and reads: the rules in ``data/semantics.toml`` applied to
parsed operands, plus the operand-level facts no table can hold (SDWA selects, op_sel, true16 halves).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from isalens import tomlcache
from isalens.ir.instruction import BranchKind
from isalens.ir.operands import Operand, RegOperand
from isalens.ir.registers import HALF_BOTH, HALF_HI, HALF_LO, Reg, RegFile, special, special_pair
from isalens.isa.amdgcn.mnemonics import base_mnemonic as base_mnemonic  # its old home: importers keep working
from isalens.lazyre import LazyPattern
from isalens.patterns import Patterns, matches
from isalens.records import dataclass, field

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

_SPECIALS_64 = ("vcc", "exec")
_HALF_TYPES = ("f16", "i16", "u16", "b16", "bf16")
_BRANCH_KINDS = {kind.value: kind for kind in BranchKind}


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the semantics table."""

    match: tuple[str, ...]
    generations: tuple[int, int] | None
    when_modifier: tuple[str, ...]
    fields: dict[str, Any]

    def applies(self, base: str, generation: int, modifiers: tuple[str, ...]) -> bool:
        if self.generations and not self.generations[0] <= generation <= self.generations[1]:
            return False
        if self.when_modifier and not any(
            m == w or m.startswith(w) for m in modifiers for w in self.when_modifier
        ):
            return False
        return matches(base, self.match)


_SCALAR_FIELDS = {
    "class": str, "defs": int, "sources": int, "reads_dst": bool, "in_place_return": bool,
    "half_return": bool, "swap": bool, "d16": str, "branch": str, "indexed": str, "address_dwords": int,
}
_LIST_FIELDS = ("implicit_defs", "implicit_uses")
_KNOWN_SPECIALS = ("vcc", "exec", "scc", "m0")


def _check_rule(index: int, raw: dict[str, Any]) -> Rule:
    where = f"semantics.toml rule #{index + 1}"
    match = raw.get("match")
    if not isinstance(match, list) or not match or not all(isinstance(p, str) for p in match):
        raise ValueError(f"{where}: 'match' must be a non-empty list of patterns")
    fields: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("match", "generations", "when_modifier"):
            continue
        if key in _SCALAR_FIELDS:
            if not isinstance(value, _SCALAR_FIELDS[key]):
                raise ValueError(f"{where}: '{key}' must be {_SCALAR_FIELDS[key].__name__}")
            fields[key] = value
        elif key in _LIST_FIELDS:
            if not all(v in _KNOWN_SPECIALS for v in value):
                raise ValueError(f"{where}: '{key}' names an unknown special register: {value}")
            fields[key] = tuple(value)
        else:
            raise ValueError(f"{where}: unknown field '{key}'")
    if "branch" in fields and fields["branch"] not in _BRANCH_KINDS:
        raise ValueError(f"{where}: unknown branch kind {fields['branch']!r}")
    if "indexed" in fields and fields["indexed"] not in ("src", "dst", "both", "swap"):
        raise ValueError(f"{where}: indexed must be 'src', 'dst', 'both' or 'swap'")
    if "d16" in fields and fields["d16"] not in ("lo", "hi"):
        raise ValueError(f"{where}: d16 must be 'lo' or 'hi'")
    gens = raw.get("generations")
    return Rule(
        tuple(match),
        (int(gens[0]), int(gens[1])) if gens else None,
        tuple(raw.get("when_modifier", ())),
        fields,
    )


@cache
def rules() -> tuple[Rule, ...]:
    """The semantics table, validated."""
    text = (_DATA / "semantics.toml").read_text("utf-8")
    doc = tomlcache.loads(text)
    return tuple(_check_rule(i, raw) for i, raw in enumerate(doc.get("rule", [])))


@cache
def _modifier_triggers() -> tuple[str, ...]:
    return tuple(sorted({w for r in rules() for w in r.when_modifier}))


@dataclass(frozen=True, slots=True)
class Effect:
    """The resolved table entry for one mnemonic on one target generation."""

    klass: str = "other"
    defs: int = 1
    sources: int | None = None
    reads_dst: bool = False
    in_place_return: bool = False
    half_return: bool = False
    swap: bool = False
    d16: str | None = None
    branch: BranchKind = BranchKind.NONE
    implicit_defs: tuple[str, ...] = ()
    implicit_uses: tuple[str, ...] = ()
    #: operands addressed through M0 (see :mod:`isalens.isa.amdgcn.indexing`)
    indexed: str | None = None
    #: registers the address (first source) operand reads when the printed tuple can be wider
    address_dwords: int | None = None
    matched: bool = False


@cache
def _resolve(base: str, generation: int, triggers: tuple[str, ...]) -> Effect:
    values: dict[str, Any] = {}
    idefs: list[str] = []
    iuses: list[str] = []
    matched = False
    for rule in rules():
        if rule.applies(base, generation, triggers):
            matched = True
            for key, value in rule.fields.items():
                if key == "implicit_defs":
                    idefs.extend(v for v in value if v not in idefs)
                elif key == "implicit_uses":
                    iuses.extend(v for v in value if v not in iuses)
                else:
                    values[key] = value
    return Effect(
        klass=values.get("class", "other"),
        defs=values.get("defs", 1),
        sources=values.get("sources"),
        reads_dst=values.get("reads_dst", False),
        in_place_return=values.get("in_place_return", False),
        half_return=values.get("half_return", False),
        swap=values.get("swap", False),
        d16=values.get("d16"),
        branch=_BRANCH_KINDS[values.get("branch", "none")],
        implicit_defs=tuple(idefs),
        implicit_uses=tuple(iuses),
        indexed=values.get("indexed"),
        address_dwords=values.get("address_dwords"),
        matched=matched,
    )


def effect_of(mnemonic: str, generation: int, modifiers: tuple[str, ...] = ()) -> Effect:
    """The table's verdict for ``mnemonic`` with ``modifiers`` on a target of ``generation``."""
    base, _ = base_mnemonic(mnemonic)
    present = tuple(t for t in _modifier_triggers() if any(m == t or m.startswith(t) for m in modifiers))
    return _resolve(base, generation, present)


@cache
def _indexing_patterns() -> Patterns:
    """Every pattern of the rules that set ``indexed`` (the M0-relative moves)."""
    return Patterns(tuple(p for rule in rules() if "indexed" in rule.fields for p in rule.match))


def indexed_kind(mnemonic: str, generation: int) -> str | None:
    """``effect_of(mnemonic, generation).indexed``. Only a rule that sets ``indexed`` sets it, so a mnemonic none of
    them names is not indexed, without resolving the whole table for it: the parser asks for every distinct
    mnemonic of every kernel (56 of a small kernel took ~3 ms of its first run, docs/performance.md)."""
    if not _indexing_patterns()(base_mnemonic(mnemonic)[0]):
        return None
    return effect_of(mnemonic, generation).indexed


def _special_mask(name: str, wave_size: int) -> int:
    if name in _SPECIALS_64:
        if wave_size == 32:
            return special(name + "_lo").mask()
        return special_pair(name).mask()
    return special(name).mask()


def _modifier_value(modifiers: tuple[str, ...], name: str) -> str | None:
    for mod in modifiers:
        if mod.startswith(name + ":"):
            return mod[len(name) + 1 :]
    return None


def _bits(text: str | None) -> list[int] | None:
    if text is None:
        return None
    inner = text.strip().strip("[]")
    try:
        return [int(x) for x in inner.split(",") if x.strip()]
    except ValueError:
        return None


_SDWA_HALF = {"WORD_0": HALF_LO, "BYTE_0": HALF_LO, "BYTE_1": HALF_LO,
              "WORD_1": HALF_HI, "BYTE_2": HALF_HI, "BYTE_3": HALF_HI, "DWORD": HALF_BOTH}


def _is_vector_reg(reg: Reg) -> bool:
    return reg.file in (RegFile.VGPR, RegFile.AGPR)


def _type_tokens(base: str) -> list[str]:
    return base.split("_")[1:]


def _sixteen_bit_sources(base: str) -> bool:
    """Sources of this VALU op are 16-bit (read one half), from the type suffix of the mnemonic."""
    if not base.startswith("v_") or base.startswith(("v_pk_", "v_dual_", "v_mfma", "v_wmma", "v_swmmac",
                                                      "v_smfmac", "v_dot", "v_cvt_pk", "v_fma_mix",
                                                      "v_mad_mix")):
        return False
    tokens = _type_tokens(base)
    if base.startswith("v_cvt_") and len(tokens) >= 3:
        return tokens[-1] in _HALF_TYPES
    return bool(tokens) and tokens[-1] in _HALF_TYPES


def _sixteen_bit_result(base: str) -> bool:
    if not _sixteen_bit_sources(base) and not base.startswith("v_cvt_"):
        return False
    if base.startswith(("v_cmp", "v_pack_", "v_cvt_pk")):
        return False
    tokens = _type_tokens(base)
    if base.startswith("v_cvt_") and len(tokens) >= 3:
        return tokens[1] in _HALF_TYPES
    return bool(tokens) and tokens[-1] in _HALF_TYPES and (len(tokens) < 2 or tokens[-2] not in
                                                            ("u32", "i32", "f32", "b32"))


def _packed_halves(base: str) -> bool:
    return base.startswith("v_pk_") and not base.endswith(("_f32", "_b32", "_u32", "_i32", "_f64"))


@dataclass(slots=True)
class RegisterEffects:
    """Result of applying semantics to one instruction."""

    defs: int = 0
    uses: int = 0
    branch: BranchKind = BranchKind.NONE
    klass: str = "other"
    notes: list[str] = field(default_factory=list)
    #: registers printed in an operand but not read (a tuple wider than the opcode's operand)
    unread: int = 0


def _mask_of(op: Operand) -> int:
    return op.mask if isinstance(op, RegOperand) else 0


@dataclass(frozen=True, slots=True)
class _Info:
    """Per-mnemonic facts, computed once: the table's effect plus what the mnemonic says itself."""

    eff: Effect
    base: str
    packed: bool
    packed32: bool
    sixteen: bool
    sixteen_result: bool
    sdwa: bool
    #: v_fma_mix*/v_mad_mix*: each source is f32 or (op_sel_hi) one f16 half
    mix: bool
    #: an 8/16-bit store: (data operand index, the half it reads)
    store16: tuple[int, int] | None
    implicit_uses: int
    implicit_defs: int


@cache
def _info(mnemonic: str, generation: int, wave_size: int, triggers: tuple[str, ...]) -> _Info:
    base, encoding = base_mnemonic(mnemonic)
    eff = _resolve(base, generation, triggers)
    uses = defs = 0
    for name in eff.implicit_uses:
        uses |= _special_mask(name, wave_size)
    for name in eff.implicit_defs:
        defs |= _special_mask(name, wave_size)
    packed32 = base.startswith("v_pk_") and base.endswith(("_f32", "_b32"))
    return _Info(eff, base, _packed_halves(base), packed32, _sixteen_bit_sources(base), _sixteen_bit_result(base),
                 encoding == "sdwa", base.startswith(("v_fma_mix", "v_mad_mix")),
                 _subdword_store(base), uses, defs)


_HALF_MODIFIERS = ("op_sel", "dst_sel:", "src0_sel:", "src1_sel:", "dst_unused:")


def _info_of(mnemonic: str, modifiers: tuple[str, ...], generation: int, wave_size: int) -> _Info:
    triggers = _modifier_triggers()
    present = tuple(t for t in triggers if any(m == t or m.startswith(t) for m in modifiers)) if modifiers else ()
    return _info(mnemonic, generation, wave_size, present)


def _written(eff: Effect, count: int) -> int:
    """How many of ``count`` operands, the first ones, the instruction writes."""
    ndefs = eff.defs
    if eff.sources is not None:
        ndefs = max(count - eff.sources, 0)
    return min(ndefs, count)


def _half_aware(info: _Info, modifiers: tuple[str, ...]) -> bool:
    return (info.sdwa or info.packed or info.sixteen or info.mix or info.eff.d16 is not None
            or any(m.startswith(_HALF_MODIFIERS) for m in modifiers))


def positional(mnemonic: str, modifiers: tuple[str, ...], count: int, *, generation: int,
               wave_size: int) -> tuple[int, bool, int, int] | None:
    """When :func:`apply` of ``mnemonic`` with ``modifiers`` and any ``count`` operands gives, whatever their
    registers, the register operands' masks among the first ``n`` as defs, the others' as uses (with the defs too
    when ``reads_dst``), the implicit registers, no branch, no note and nothing unread: ``(n, reads_dst, implicit
    uses, implicit defs)``; else None. Lets a reader apply the semantics of many texts of one shape without
    :func:`apply` each time (issue 28 speed); decided by the very tests :func:`apply` makes."""
    info = _info_of(mnemonic, modifiers, generation, wave_size)
    eff = info.eff
    if _half_aware(info, modifiers) or eff.swap or eff.in_place_return or eff.address_dwords is not None \
            or info.store16 is not None or eff.branch is not BranchKind.NONE:
        return None
    return _written(eff, count), eff.reads_dst, info.implicit_uses, info.implicit_defs


def apply(mnemonic: str, operands: tuple[Operand, ...], modifiers: tuple[str, ...], *,
          generation: int, wave_size: int) -> tuple[RegisterEffects, Effect]:
    """Compute the registers ``mnemonic operands modifiers`` writes and reads."""
    info = _info_of(mnemonic, modifiers, generation, wave_size)
    eff = info.eff
    out = RegisterEffects(branch=eff.branch, klass=eff.klass)

    ndefs = _written(eff, len(operands))

    half_aware = _half_aware(info, modifiers)
    if not half_aware:
        for k, op in enumerate(operands):
            if isinstance(op, RegOperand):
                if k < ndefs:
                    out.defs |= op.mask
                else:
                    out.uses |= op.mask
        if eff.reads_dst:
            out.uses |= out.defs
    else:
        _apply_halves(info, operands, modifiers, ndefs, out)

    if eff.swap:
        for op in operands[:2]:
            out.defs |= _mask_of(op)
            out.uses |= _mask_of(op)

    if eff.in_place_return and operands and isinstance(operands[0], RegOperand):
        data = operands[0]
        out.uses |= data.mask
        regs = data.regs
        if eff.half_return and len(regs) == 1 and regs[0].count >= 2:
            out.defs |= regs[0].subrange(0, regs[0].count // 2).mask()
        else:
            out.defs |= data.mask

    if eff.address_dwords is not None:
        _clip_address(operands, ndefs, eff.address_dwords, out)
    if info.store16 is not None:
        _clip_store_data(operands, info.store16, out)
    out.uses |= info.implicit_uses
    out.defs |= info.implicit_defs
    return out, eff


#: stores of 8 or 16 bits: they read the low half of their data VGPR, or the high half (``d16_hi``)
_SUBDWORD_STORE = LazyPattern(r"^(buffer|global|flat|scratch|ds)_(?:store|write)_(d16_hi_)?(?:short|byte|b16|b8)"
                              r"(_d16_hi)?$")


def _subdword_store(base: str) -> tuple[int, int] | None:
    """(data operand index, half read) of an 8/16-bit store, else None."""
    m = _SUBDWORD_STORE.match(base)
    if m is None:
        return None
    return (0 if m[1] == "buffer" else 1), (HALF_HI if m[2] or m[3] else HALF_LO)


def _clip_store_data(operands: tuple[Operand, ...], store: tuple[int, int], out: RegisterEffects) -> None:
    """An 8/16-bit store reads one 16-bit half of its data register (ISA: ``*_store_short``/``_byte`` store
    bits [15:0] or [7:0], the ``d16_hi`` forms bits [31:16] or [23:16])."""
    index, half = store
    if index >= len(operands):
        return
    op = operands[index]
    if not isinstance(op, RegOperand) or len(op.regs) != 1:
        return
    reg = op.regs[0]
    if not _is_vector_reg(reg) or reg.count != 1 or reg.halves != HALF_BOTH:
        return
    others = 0
    for k, other in enumerate(operands):
        if k != index and isinstance(other, RegOperand):
            others |= other.mask
    out.uses &= ~(op.mask & ~others)
    out.uses |= reg.with_halves(half).mask()


def _clip_address(operands: tuple[Operand, ...], ndefs: int, dwords: int, out: RegisterEffects) -> None:
    """A non-NSA address tuple printed wider than the opcode reads (the disassembler rounds it up to a
    register class): only its first ``dwords`` registers are read."""
    if ndefs >= len(operands):
        return
    op = operands[ndefs]
    if not isinstance(op, RegOperand) or len(op.regs) != 1 or op.regs[0].count <= dwords:
        return
    reg = op.regs[0]
    extra = reg.subrange(dwords, reg.count - dwords).mask()
    out.uses &= ~extra
    out.unread |= extra


def _apply_halves(info: _Info, operands: tuple[Operand, ...], modifiers: tuple[str, ...], ndefs: int,
                  out: RegisterEffects) -> None:
    """Sources and destinations when 16-bit halves matter (SDWA, op_sel, packed and 16-bit ops, D16)."""
    eff = info.eff
    dst_ops = operands[:ndefs]
    src_ops = operands[ndefs:]
    op_sel = _bits(_modifier_value(modifiers, "op_sel"))
    op_sel_hi = _bits(_modifier_value(modifiers, "op_sel_hi"))
    sdwa = info.sdwa or any(m.startswith(("dst_sel:", "src0_sel:", "src1_sel:")) for m in modifiers)
    for k, op in enumerate(src_ops):
        if not isinstance(op, RegOperand):
            continue
        if info.packed32 and len(op.regs) == 1 and op.regs[0].count == 2:
            # packed 32-bit ops read 64-bit pairs: each lane takes the dword op_sel / op_sel_hi selects
            lo_dword = op_sel[k] if op_sel and k < len(op_sel) else 0
            hi_dword = op_sel_hi[k] if op_sel_hi and k < len(op_sel_hi) else 1
            for dword in {lo_dword, hi_dword}:
                out.uses |= op.regs[0].subrange(dword, 1).mask()
            continue
        if len(op.regs) != 1 or not _is_vector_reg(op.regs[0]) or op.regs[0].halves != HALF_BOTH:
            out.uses |= op.mask
            continue
        reg = op.regs[0]
        halves = HALF_BOTH
        if sdwa and k < 2:
            sel = _modifier_value(modifiers, f"src{k}_sel")
            halves = _SDWA_HALF.get(sel or "DWORD", HALF_BOTH)
        elif info.packed and reg.count == 1:
            lo = HALF_HI if op_sel and k < len(op_sel) and op_sel[k] else HALF_LO
            hi = HALF_HI if (op_sel_hi[k] if op_sel_hi and k < len(op_sel_hi) else 1) else HALF_LO
            halves = lo | hi
        elif info.sixteen and reg.count == 1:
            halves = HALF_HI if op_sel and k < len(op_sel) and op_sel[k] else HALF_LO
        elif info.mix and reg.count == 1 and op_sel_hi and k < len(op_sel_hi) and op_sel_hi[k]:
            # v_fma_mix*/v_mad_mix*: op_sel_hi[k] = 1 makes source k a 16-bit value, op_sel[k] its half
            halves = HALF_HI if op_sel and k < len(op_sel) and op_sel[k] else HALF_LO
        out.uses |= reg.with_halves(halves).mask()

    for k, op in enumerate(dst_ops):
        if not isinstance(op, RegOperand):
            continue
        mask = op.mask
        if k == 0 and len(op.regs) == 1 and _is_vector_reg(op.regs[0]) and op.regs[0].halves == HALF_BOTH:
            reg = op.regs[0]
            written = HALF_BOTH
            if eff.d16 == "lo":
                written = HALF_LO
            elif eff.d16 == "hi":
                written = HALF_HI
            elif sdwa and _modifier_value(modifiers, "dst_unused") == "UNUSED_PRESERVE":
                sel = _modifier_value(modifiers, "dst_sel") or "DWORD"
                written = _SDWA_HALF.get(sel, HALF_BOTH)
                if sel.startswith("BYTE"):
                    # a byte write keeps the rest of its half too
                    out.uses |= reg.with_halves(written).mask()
            elif (op_sel and info.sixteen_result and reg.count == 1
                  and len(op_sel) == len(src_ops) + 1 and op_sel[-1]):
                written = HALF_HI
            if written != HALF_BOTH:
                # the other half is kept: neither read nor written, so its liveness passes through
                mask = reg.with_halves(written).mask()
        out.defs |= mask
        if eff.reads_dst:
            out.uses |= mask
