"""What the ISA says about one instruction's timing, independent of the chip family: its base mnemonic, the
bytes one lane moves, its floating-point work by precision, the counter limits an ``s_waitcnt`` sets, the
facts hazard rules match on (base mnemonic, DPP), the MFMA shape and the ``s_nop`` count. Computed once per
class, mnemonic and DPP form, or per text where the facts read operands (:func:`timing_facts`); the timing model
(``analysis/timing``) only reads them and adds the family's cycles from ``arch/timing``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, OtherOperand
from isalens.isa.amdgcn.mnemonics import base_mnemonic, dual_to_single, is_dpp, vopd_halves

__all__ = ["FactsKey", "TimingFacts", "decode_waitcnt", "facts_key", "timing_facts"]

_WIDTH = (("dwordx4", 16), ("b128", 16), ("dwordx3", 12), ("b96", 12), ("dwordx2", 8), ("b64", 8), ("u64", 8),
          ("i64", 8), ("f64", 8), ("x2", 8), ("dword", 4), ("b32", 4), ("u32", 4), ("i32", 4), ("f32", 4),
          ("short", 2), ("b16", 2), ("u16", 2), ("i16", 2), ("d16", 2), ("f16", 2), ("byte", 1), ("b8", 1),
          ("u8", 1), ("i8", 1))
#: a format buffer access (``buffer_load_format_d16_hi_x``, ``tbuffer_store_format_xyzw``): its 16-bit form
#: and its channels
_FORMAT = re.compile(r"_format_(d16_)?(?:hi_)?(xyzw|xyz|xy|x)$")
_GLOBAL_PREFIXES = ("vmem.", "image.", "flat.", "global.", "scratch.")
_TWO_ADDRESS = ("ds.read2", "ds.read2st64", "ds.write2", "ds.write2st64")
#: LDS classes that move no data per lane (global wave sync, append counters, lane permutes)
_NO_LDS_TRAFFIC = ("ds.gws", "ds.append", "ds.permute")
_MFMA_SHAPE = re.compile(r"_(\d+)x(\d+)x(\d+)")
#: MFMA shapes that compute several blocks at once [CDNA ISA guides, MFMA tables]
_MULTI_BLOCK = {"4x4": 16}
_COUNTER_RE = re.compile(r"(vmcnt|expcnt|lgkmcnt|vscnt)\((\d+)\)")
_GFX12_WAIT = re.compile(r"s_wait_(loadcnt|storecnt|samplecnt|bvhcnt|dscnt|kmcnt|expcnt)(?:_(dscnt))?$")
_FUSED = ("fma", "mad", "mac")


@dataclass(frozen=True, slots=True)
class TimingFacts:
    """The timing facts of one instruction text (see the module docstring)."""

    #: mnemonic without any encoding suffix (what hazard rules name)
    base: str
    #: a DPP form (hazard rules single these out)
    dpp: bool
    #: bytes one lane moves, for memory and LDS classes (0 for the rest)
    lane_bytes: int
    #: "global" or "lds" when the bytes count as traffic to that memory, else ""
    traffic: str
    #: (precision, flops) in order of appearance, and FMAs; per lane, or per wave when ``per_wave``
    flops: tuple[tuple[str, int], ...]
    fma: int
    per_wave: bool
    #: (counter, most outstanding ops allowed) of a wait instruction, in the order the instruction names them
    waits: tuple[tuple[str, int], ...]
    #: ``MxN`` of an MFMA (its passes come from the family's table), else ""
    mfma_shape: str
    #: an ``s_nop``'s immediate (N+1 wait states), else 0
    nop_count: int
    #: ``s_barrier*``: waits for the other waves of the workgroup
    barrier: bool
    #: an image or format buffer access: ``lane_bytes`` are its register data, converted from or to a memory
    #: format that the resource descriptor holds, not the code (an rgba8 texel is 4 bytes in memory, 16 in VGPRs)
    converted: bool = False


def _lane_bytes(mnemonic: str, klass: str, ins: Instruction) -> int:
    """Bytes one lane moves: from the width suffix; x2 for two-address LDS forms. Images and format buffer
    accesses: their register data, 4 bytes per channel, 2 with ``d16`` (dmask's channels; a gather4 returns one
    channel of four texels; a format op's ``x``/``xy``/``xyz``/``xyzw``)."""
    if klass.startswith("image."):
        per_channel = 2 if ins.modifier("d16") is not None or "_d16" in mnemonic else 4
        if mnemonic.startswith("image_gather4"):
            return 4 * per_channel
        dmask = ins.modifier("dmask")
        try:
            return per_channel * (bin(int(dmask, 0)).count("1") if dmask else 4)
        except ValueError:
            return 4 * per_channel
    fmt = _FORMAT.search(mnemonic)
    if fmt:
        return (2 if fmt.group(1) else 4) * len(fmt.group(2))
    tail = mnemonic.split("_", 1)[1] if "_" in mnemonic else mnemonic
    width = next((nbytes for suffix, nbytes in _WIDTH if suffix in tail), 4)
    return 2 * width if klass in _TWO_ADDRESS else width


def _precision(mnemonic: str) -> str:
    return next((p for p in ("f64", "bf16", "f16", "f32") if p in mnemonic), "f32")


def _lane_flops(mnemonic: str, klass: str) -> tuple[str, int, int]:
    """(precision, flops per lane, FMAs per lane) of one VALU operation; an FMA is 2 flops."""
    fused = any(t in mnemonic for t in _FUSED)
    if klass in ("valu.fma.f32", "valu.fma.f16"):
        return _precision(mnemonic), 2, 1
    if klass in ("valu.f32", "valu.f16", "valu.f64"):
        if any(t in mnemonic for t in ("add", "sub", "mul", "min", "max", *_FUSED)):
            return _precision(mnemonic), 2 if fused else 1, 1 if fused else 0
        return _precision(mnemonic), 0, 0
    if klass in ("valu.pk.f16", "valu.pk.f32"):
        if any(t in mnemonic for t in ("add", "mul", "fma", "mad", "min", "max")):
            return _precision(mnemonic), 4 if fused else 2, 2 if fused else 0
        return _precision(mnemonic), 0, 0
    if klass == "valu.dot" and ("f16" in mnemonic or "bf16" in mnemonic):
        return "bf16" if "bf16" in mnemonic else "f16", 4, 2
    return "f32", 0, 0


def _dual_flops(ins: Instruction) -> tuple[dict[str, int], int]:
    """Per-lane flops by precision and FMAs of the two halves of a VOPD pair."""
    flops: dict[str, int] = {}
    fma = 0
    for half in vopd_halves(ins.text):
        name = dual_to_single(half.mnemonic)
        if not name:
            continue
        if "fma" in name or "mac" in name:  # fmaak/fmamk included
            flops[_precision(name)] = flops.get(_precision(name), 0) + 2
            fma += 1
        elif any(t in name for t in ("add_f", "sub_f", "mul_f", "min_f", "max_f", "subrev_f")):
            flops[_precision(name)] = flops.get(_precision(name), 0) + 1
    return flops, fma


def _work(ins: Instruction, mnemonic: str, klass: str) -> tuple[dict[str, int], int, bool]:
    """(flops by precision, FMAs, per wave) of one instruction; per lane unless it is a matrix op."""
    if klass in ("mfma", "wmma"):
        m = _MFMA_SHAPE.search(mnemonic)
        if not m:
            return {}, 0, False
        a, b, k = (int(g) for g in m.groups())
        src = mnemonic[m.end():] or mnemonic
        n = 2 * a * b * k * _MULTI_BLOCK.get(f"{a}x{b}", 1)
        return {_precision(src) if "i8" not in src else "i8": n}, n // 2, True
    if klass == "valu.dual":
        return (*_dual_flops(ins), False)
    if klass.startswith("valu."):
        precision, flops, fma = _lane_flops(mnemonic, klass)
        if flops:
            return {precision: flops}, fma, False
    return {}, 0, False


def decode_waitcnt(imm: int, generation: int) -> dict[str, int]:
    """The fields of an ``s_waitcnt`` immediate [Vega/RDNA/RDNA3 ISA guides, SOPP S_WAITCNT]."""
    if generation >= 11:
        return {"vmcnt": (imm >> 10) & 0x3F, "lgkmcnt": (imm >> 4) & 0x3F, "expcnt": imm & 0x7}
    vm = (imm & 0xF) | (((imm >> 14) & 0x3) << 4 if generation >= 9 else 0)
    lgkm = (imm >> 8) & (0x3F if generation >= 10 else 0xF)
    return {"vmcnt": vm, "expcnt": (imm >> 4) & 0x7, "lgkmcnt": lgkm}


def _first_imm(ins: Instruction) -> object:
    return next((op.value for op in ins.operands if isinstance(op, ImmOperand)), None)


def _wait_limits(ins: Instruction, m: str, generation: int) -> dict[str, int]:
    """Counter -> the most outstanding ops allowed once this instruction issues (empty: not a wait)."""
    out: dict[str, int] = {}
    if m == "s_waitcnt":
        for op in ins.operands:
            if isinstance(op, OtherOperand):
                for name, n in _COUNTER_RE.findall(op.text):
                    out[name] = int(n)
            elif isinstance(op, ImmOperand) and isinstance(op.value, int):
                out.update(decode_waitcnt(op.value, generation))
        return out
    if m.startswith("s_waitcnt_") and m[10:] in ("vmcnt", "vscnt", "lgkmcnt", "expcnt"):
        imm = _first_imm(ins)
        if isinstance(imm, int):
            out[m[10:]] = imm
        return out
    g = _GFX12_WAIT.match(m)
    if g:
        imm = _first_imm(ins)
        if isinstance(imm, int):
            if g.group(2):  # s_wait_loadcnt_dscnt: loadcnt in bits 13:8, dscnt in 5:0 [RDNA4 ISA ch. 4]
                out[g.group(1)] = (imm >> 8) & 0x3F
                out["dscnt"] = imm & 0x3F
            else:
                out[g.group(1)] = imm
    return out


def describe_timing(ins: Instruction, klass: str, generation: int) -> TimingFacts:
    """The timing facts of ``ins`` read as class ``klass`` on a target of ``generation``."""
    mnemonic = ins.mnemonic.lower()
    memory = klass.startswith(_GLOBAL_PREFIXES) or klass.startswith("ds.")
    traffic = "global" if klass.startswith(_GLOBAL_PREFIXES) else (
        "lds" if klass.startswith("ds.") and klass not in _NO_LDS_TRAFFIC else "")
    flops, fma, per_wave = ({}, 0, False) if memory else _work(ins, mnemonic, klass)
    shape = _MFMA_SHAPE.search(mnemonic) if klass == "mfma" else None
    count = _first_imm(ins) if klass == "nop" else 0
    return TimingFacts(base_mnemonic(mnemonic)[0], is_dpp(mnemonic, ins.modifiers),
                       _lane_bytes(mnemonic, klass, ins) if memory else 0, traffic, tuple(flops.items()), fma,
                       per_wave, tuple(_wait_limits(ins, mnemonic, generation).items()),
                       f"{shape.group(1)}x{shape.group(2)}" if shape else "",
                       count if isinstance(count, int) else 0, mnemonic.startswith("s_barrier"),
                       memory and (klass.startswith("image.") or bool(_FORMAT.search(mnemonic))))


#: classes whose facts read an instruction's operands, text or modifiers beyond DPP: ``s_nop``'s count, an image's
#: dmask, the two halves of a VOPD pair (mnemonics of waits, ``s_wait*``, read their operands too)
_READS_TEXT = ("nop", "valu.dual")
#: what the facts of an instruction are computed from (see :func:`facts_key`)
FactsKey = tuple[str, str, bool] | tuple[str, str]


def facts_key(ins: Instruction, klass: str) -> FactsKey:
    """What :func:`describe_timing` reads of ``ins`` read as ``klass``: (class, lower-case mnemonic, DPP form) for
    most instructions, whose facts come from their mnemonic, class and DPP controls alone (an offset or a register
    changes none); (class, text) for those whose facts read more (waits, ``s_nop``, images, VOPD pairs)."""
    mnemonic = ins.mnemonic.lower()
    if klass in _READS_TEXT or klass.startswith("image.") or mnemonic.startswith("s_wait"):
        return klass, ins.text
    return klass, mnemonic, is_dpp(mnemonic, ins.modifiers)


#: facts by (:func:`facts_key`, generation); compiler output repeats instruction texts and mnemonics, within a
#: kernel and across the kernels of a library (the dense 1M-instruction benchmark has 110,091 distinct texts and a
#: few hundred keys). A memo past the limit starts again.
_MEMO: dict[tuple[FactsKey, int], TimingFacts] = {}
_MEMO_LIMIT = 100_000


def timing_facts(ins: Instruction, klass: str, generation: int, key: FactsKey | None = None) -> TimingFacts:
    """:func:`describe_timing`, computed once per :func:`facts_key` (``key``, when the caller has it already)."""
    memo_key = (facts_key(ins, klass) if key is None else key, generation)
    facts = _MEMO.get(memo_key)
    if facts is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        facts = _MEMO[memo_key] = describe_timing(ins, klass, generation)
    return facts
