"""Memory instructions for the decoder (SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF): address operands, offsets and
cache flags in LLVM's spelling for each family."""

from __future__ import annotations

import re

from isalens.isa.amdgcn.decoder.operands import _bits, _fill, _hex, _range, _signed, _Unsupported, scalar
from isalens.isa.amdgcn.decoder.tables import CDNA3, layout_of
from isalens.isa.amdgcn.fields import Decoded, Field


def _smem(template: str, d: Decoded, layout: str, family: str) -> str:
    if family == "gfx8" and (d.value("SOE") or d.value("NV") or d.value("OFFSET") >> 20):
        raise _Unsupported("gfx8 SMEM bits")  # gfx8: 20-bit unsigned offset, no SOE/NV (GCN3 ISA guide)
    for name in ("TH", "SCOPE", "NV"):  # gfx12 cache policy, gfx9 NV: printed by LLVM, not spelled here yet
        f = d.get(name)
        if f is not None and f.value:
            raise _Unsupported(f"SMEM {name} set")
    head, _, last = template.rpartition(", ")
    # the table's text after the probed offset ``0x0``: gfx12.5's ``nv`` (opcode bit 7, word 0 bit 20; ROCm LLVM)
    flags = last.removeprefix("0x0").split() if last.startswith("0x0") else []
    if any(f != "nv" for f in flags):
        raise _Unsupported(f"SMEM operand {last!r}")
    out = _fill(head, d, layout, None)
    field = d.get("OFFSET")
    assert field is not None
    width = field.hi - field.lo + 1
    offset = field.value if family == "gfx8" else _signed(field.value, width)
    if layout == "gfx9":
        # IMM: OFFSET is an immediate, else an SGPR number; SOE: SOFFSET adds an SGPR (Vega ISA guide, SMEM)
        if not d.value("IMM"):
            out += ", " + scalar(offset, 1, layout)
        elif d.value("SOE"):
            out += f", {scalar(d.value('SOFFSET'), 1, layout)} offset:{_hex(offset)}"
        else:
            out += f", {_hex(offset)}"
    else:
        soffset = d.value("SOFFSET")
        null = 0x7D if layout == "gfx10" else 0x7C
        if soffset != null:
            out += f", {scalar(soffset, 1, layout)}" + (f" offset:{_hex(offset)}" if offset or layout == "gfx12"
                                                        else "")
        else:  # no register offset: the immediate, or (gfx10/gfx11) "null" when that is 0 too
            out += f", {_hex(offset)}" if offset or layout == "gfx12" else ", null"
    for flag in ("GLC", "DLC"):
        f = d.get(flag)
        if f is not None and f.value:
            out += " " + flag.lower()
    if family == "gfx12_5" and _bits(d.words, 56, 56):
        out += " scale_offset"  # word 1 bit 24 on gfx12.5 (ROCm LLVM; LLVM 19 ignores it on gfx12)
    return out + "".join(f" {f}" for f in flags)


def _smrd(template: str, d: Decoded, layout: str) -> str:
    """gfx6/gfx7 SMRD (SI/CI ISA guides): IMM 1: OFFSET is an immediate in dwords, printed in hex as LLVM does
    (``s_load_dword s5, s[2:3], 0x4``); IMM 0: an SGPR, or on gfx7 (OFFSET 255) the literal dword after the
    instruction (the field decoder reads it as LITERAL; a gfx6 word with it is refused there)."""
    if not template.endswith(", 0x0"):  # s_memtime, s_dcache_inv: the table lists SBASE/IMM/OFFSET as left 0
        return _fill(template, d, layout, None)
    out = _fill(template.removesuffix(", 0x0"), d, layout, None)
    literal = d.get("LITERAL")
    if literal is not None:
        return f"{out}, {literal.value:#x}"
    if d.value("IMM"):
        return f"{out}, {d.value('OFFSET'):#x}"
    return f"{out}, {scalar(d.value('OFFSET'), 1, layout)}"


def _ds(template: str, d: Decoded, layout: str, family: str) -> str:
    if _acc(d, family, "DS"):
        template = _to_acc(template, ("VDST", "DATA0", "DATA1"))
    # the table was probed with OFFSET0 = 1, OFFSET1 = 2: its text says how the offsets print
    o0, o1 = d.value("OFFSET0"), d.value("OFFSET1")
    if template.endswith(" offset0:1 offset1:2"):
        head = template.removesuffix(" offset0:1 offset1:2")
        tail = (f" offset0:{o0}" if o0 else "") + (f" offset1:{o1}" if o1 else "")
    elif template.endswith(" offset:513"):
        head, offset = template.removesuffix(" offset:513"), o0 | o1 << 8
        tail = f" offset:{offset}" if offset else ""
    elif template.endswith(_SWIZZLE_PROBE):
        head, tail = template.removesuffix(_SWIZZLE_PROBE), _swizzle(o0 | o1 << 8, family)
    elif o0 or o1:
        raise _Unsupported("DS offset form")
    else:
        head, tail = template, ""
    out = _fill(head, d, layout, None) + tail
    if d.value("GDS") and family in ("gfx90a", *CDNA3):
        raise _Unsupported("GDS bit on gfx90a/gfx940")  # LLVM ignores the bit there
    if d.value("GDS"):
        out += " gds"
    return out


#: ``ds_swizzle_b32``'s table text: probed with OFFSET0 = 1, OFFSET1 = 2 (offset 0x201)
_SWIZZLE_PROBE = ' offset:swizzle(BITMASK_PERM,"1000p")'
_QUAD_PERM, _BITMASK_MAX = "QUAD_PERM", 0x1F


def _swizzle(offset: int, family: str) -> str:
    """``ds_swizzle_b32``'s 16-bit offset as LLVM 19 prints it (rules of ``AMDGPUInstPrinter::printSwizzle``,
    facts, checked against llvm-mc-19 for all 65,536 offsets: ``test_ds_swizzle_offsets_equal_llvm_mc``): nothing
    for 0; high byte 0x80: ``swizzle(QUAD_PERM,l0,l1,l2,l3)`` (2 bits per lane); bit 15 clear: the bitmask mode
    (and mask 4:0, or mask 9:5, xor mask 14:10) as ``SWAP``, ``REVERSE``, ``BROADCAST`` or the 5-character
    ``BITMASK_PERM`` string; any other value in decimal."""
    if offset == 0:
        return ""
    if offset >> 8 == 0x80:
        return f" offset:swizzle({_QUAD_PERM}," + ",".join(str(offset >> (2 * i) & 3) for i in range(4)) + ")"
    if offset & 0x8000:
        if family == "gfx950":  # newer LLVM (ROCm's, gfx950's oracle) names more of these modes (FFT, ROTATE)
            raise _Unsupported("ds_swizzle offset mode")
        return f" offset:{offset}"
    and_mask, or_mask, xor_mask = offset & 0x1F, offset >> 5 & 0x1F, offset >> 10 & 0x1F
    if and_mask == _BITMASK_MAX and or_mask == 0 and xor_mask.bit_count() == 1:
        return f" offset:swizzle(SWAP,{xor_mask})"
    if and_mask == _BITMASK_MAX and or_mask == 0 and xor_mask and not xor_mask & (xor_mask + 1):
        return f" offset:swizzle(REVERSE,{xor_mask + 1})"
    group = _BITMASK_MAX - and_mask + 1
    if group > 1 and not group & (group - 1) and or_mask < group and xor_mask == 0:
        return f" offset:swizzle(BROADCAST,{group},{or_mask})"
    # each lane-id bit, high to low: what lane 0 (all bits 0) and lane 31 (all 1) read there: the same constant
    # bit ("0"/"1"), the lane's own bit ("p", preserved) or its inverse ("i")
    lo, hi = or_mask ^ xor_mask, (and_mask | or_mask) ^ xor_mask
    bits = "".join(("1" if lo >> b & 1 else "0") if (lo ^ hi) >> b & 1 == 0 else ("i" if lo >> b & 1 else "p")
                   for b in range(4, -1, -1))
    return f' offset:swizzle(BITMASK_PERM,"{bits}")'


def _cache_flags(fmt: str, d: Decoded, family: str, glc_printed: bool) -> list[str]:
    """Cache-policy bits as LLVM names them: glc/slc/dlc; gfx940 calls them sc0/sc1/nt (sc1 is bit 25 in FLAT,
    bit 15 in MUBUF, 53 in MTBUF; AMD CDNA3 ISA guide, "Memory scope"); gfx12 has th:/scope: (RDNA4 ISA guide)."""
    if layout_of(family) == "gfx12":  # gfx12 and gfx12.5
        th, scope = d.value("TH"), d.value("SCOPE")
        if th and not glc_printed:
            raise _Unsupported(f"temporal hint {th}")
        return ["th:TH_ATOMIC_RETURN"] * bool(th) + [f"scope:{_SCOPES[scope]}"] * bool(scope)
    if family in CDNA3:
        at = {"MUBUF": 15, "MTBUF": 53}.get(fmt, 25)  # MTBUF: bit 53 (llvm-mc-19 -show-encoding)
        sc1 = _bits(d.words, at, at)
        bits = (("sc0", d.value("GLC") and glc_printed), ("nt", d.value("SLC")), ("sc1", sc1))
        return [name for name, on in bits if on]
    out = []
    for flag in ("GLC", "SLC", "DLC"):
        f = d.get(flag)
        if f is not None and f.value and (flag != "GLC" or glc_printed):
            out.append(flag.lower())
    # gfx90a's scc (system coherence): the bit gfx940 calls sc1 (llvm-mc-19 -show-encoding)
    at = {"MUBUF": 15, "MTBUF": 53}.get(fmt, 25)
    if family == "gfx90a" and _bits(d.words, at, at):
        out.append("scc")
    return out


_SCOPES = ("SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS")


# gfx12 VFLAT/VSCRATCH/VGLOBAL, which isa.amdgcn.fields does not lay out (bits checked with llvm-mc-19
# -show-encoding): name, hi, lo
_GFX12_VFLAT = (("SADDR", 6, 0), ("OP", 21, 14), ("VDST", 39, 32), ("SVE", 49, 49), ("SCOPE", 51, 50),
                ("TH", 54, 52), ("DATA", 62, 55), ("ADDR", 71, 64), ("OFFSET", 95, 72))


def _gfx12_vflat(d: Decoded) -> Decoded:
    """The fields of a gfx12 flat-family instruction, as a FLAT ``Decoded`` with SEG 0/1/2 and GLC = TH."""
    seg = {"VFLAT": 0, "VSCRATCH": 1, "VGLOBAL": 2}[d.format]
    fields = [Field(n, hi, lo, _bits(d.words, hi, lo), "") for n, hi, lo in _GFX12_VFLAT]
    fields += [Field("SEG", 0, 0, seg, ""), Field("GLC", 54, 52, fields[5].value, "")]
    return Decoded("FLAT", d.words, tuple(fields))


def _acc(d: Decoded, family: str, fmt: str) -> bool:
    """gfx90a/gfx940: the data registers are AGPRs (FLAT/MUBUF bit 55, DS bit 25)."""
    if family not in ("gfx90a", *CDNA3):
        return False
    return bool(_bits(d.words, 25, 25) if fmt == "DS" else _bits(d.words, 55, 55))


def _to_acc(template: str, names: tuple[str, ...]) -> str:
    for name in names:
        template = template.replace(f"{{{name}:v:", f"{{{name}:a:")
    return template


def _flat(fmt: str, template: str, d: Decoded, layout: str, family: str, glc_printed: bool) -> str:
    if layout == "gfx6":
        return _flat_gfx7(template, d, family, glc_printed)
    if layout in ("gfx9", "gfx10") and _bits(d.words, 13, 13) and not (family in CDNA3 and fmt == "SCRATCH"):
        raise _Unsupported("FLAT LDS bit")  # gfx9/gfx10 "lds" (gfx940 scratch: SVE)
    if layout == "gfx9" and family not in ("gfx90a", *CDNA3) and _bits(d.words, 55, 55):
        raise _Unsupported("FLAT NV bit")
    if template == "":  # global_wb, global_inv ... (gfx12): cache policy only
        if d.value("OFFSET") or d.value("ADDR") or d.value("VDST") or d.value("DATA"):
            raise _Unsupported("cache operation with operands")
        if family == "gfx12_5" and _bits(d.words, 48, 48):
            raise _Unsupported("scale_offset on a cache operation")
        return " ".join(_cache_flags(fmt, d, family, glc_printed))
    saddr = d.value("SADDR")
    off = saddr == 0x7F or (layout != "gfx9" and saddr == (0x7D if layout == "gfx10" else 0x7C))
    parts = template.split(", ")
    if fmt in ("GLOBAL", "SCRATCH"):
        if parts[-1] != "off":
            raise _Unsupported(f"{fmt} template without saddr")
        if not off:
            parts[-1] = scalar(saddr, 2 if fmt == "GLOBAL" else 1, layout)
            parts = [p.replace("{ADDR:v:2}", "{ADDR:v:1}") for p in parts]
    elif not off and saddr:
        raise _Unsupported("FLAT with saddr")
    if fmt == "SCRATCH":
        # the address VGPR is used with SVE (gfx940: bit 13, gfx11: bit 55), before that whenever saddr is off
        at = [i for i, p in enumerate(parts[:-1]) if p in ("off", "{ADDR:v:1}")]
        if len(at) != 1:
            raise _Unsupported("scratch address form")
        sve = {"gfx942": _bits(d.words, 13, 13), "gfx11": _bits(d.words, 55, 55),
               "gfx12": d.value("SVE") if layout == "gfx12" else 0}.get("gfx942" if family in CDNA3 else layout,
                                                                        int(off))
        parts[at[0]] = "{ADDR:v:1}" if sve else "off"
    text = ", ".join(parts)
    if _acc(d, family, fmt):
        text = _to_acc(text, ("VDST", "DATA"))
    out = _fill(text, d, layout, None)
    offset = _signed(d.value("OFFSET"), {"gfx9": 13, "gfx11": 13, "gfx12": 24}.get(layout, 12))
    if fmt == "FLAT" and layout == "gfx9" and (offset < 0 or (family == "gfx8" and offset)):
        raise _Unsupported("FLAT offset")  # gfx8 FLAT has no offset, gfx9 FLAT no negative one
    if offset:
        out += f" offset:{offset}"
    if family == "gfx12_5" and _bits(d.words, 48, 48):
        out += " scale_offset"  # bit 48 on gfx12.5, printed before th/scope (ROCm LLVM; LLVM 19 ignores it)
    return " ".join([out, *_cache_flags(fmt, d, family, glc_printed)])


def _flat_gfx7(template: str, d: Decoded, family: str, glc_printed: bool) -> str:
    """CI's FLAT (CI ISA guide, FLAT: no offset, segment or saddr; ``flat_load_dword v1, v[2:3] glc slc``):
    bits 15:0 and 54:48 are unused, TFE (55) is not spelled."""
    if _bits(d.words, 15, 0) or _bits(d.words, 55, 48):
        raise _Unsupported("FLAT with its unused bits or TFE set")
    return " ".join([_fill(template, d, "gfx6", None), *_cache_flags("FLAT", d, family, glc_printed)])


def _mubuf(template: str, d: Decoded, layout: str, family: str, glc_printed: bool, data_format: str = "") -> str:
    """MUBUF, and MTBUF with its ``data_format`` text (`` format:[…]``), which LLVM prints after SOFFSET."""
    offen, idxen = d.value("OFFEN"), d.value("IDXEN")
    if template == "":
        if offen or idxen or d.value("OFFSET"):
            raise _Unsupported("MUBUF cache operation with an address")
        # LLVM prints the cache bits of gfx940's buffer_wbl2/buffer_inv only (buffer_gl1_inv slc prints none)
        return " ".join(_cache_flags("MUBUF", d, family, glc_printed)) if family in CDNA3 else ""
    head, _, _soff = template.rpartition(", ")
    parts = head.split(", ")
    if len(parts) < 2 or parts[1] != "off":
        raise _Unsupported("MUBUF template")
    mods = []
    addr64 = d.get("ADDR64")  # gfx6/gfx7: a 64-bit address in VADDR (SI/CI ISA guides, MUBUF)
    if addr64 is not None and addr64.value:
        if offen or idxen:
            raise _Unsupported("MUBUF addr64 with offen/idxen")
        parts[1] = _range("v", d.value("VADDR"), 2)
        mods.append("addr64")
    elif offen and idxen:
        parts[1] = _range("v", d.value("VADDR"), 2)
        mods.append("idxen offen")
    elif offen or idxen:
        parts[1] = _range("v", d.value("VADDR"), 1)
        mods.append("offen" if offen else "idxen")
    lds = d.get("LDS")
    if lds is not None and lds.value:  # the data goes to LDS: LLVM prints no VDATA
        parts = parts[1:]
    text = ", ".join(parts)
    # gfx90a/gfx940 use bit 55 for ACC, they have no TFE
    tfe = d.get("TFE") if family not in ("gfx90a", *CDNA3) else None
    if tfe is not None and tfe.value:  # TFE returns a status dword after the data: one more data register
        text = re.sub(r"\{VDATA:v:(\d+)\}", lambda m: f"{{VDATA:v:{int(m.group(1)) + 1}}}", text)
    if _acc(d, family, "MUBUF"):
        text = _to_acc(text, ("VDATA",))
    out = _fill(text, d, layout, None) + ", " + scalar(d.value("SOFFSET"), 1, layout) + data_format
    if d.value("OFFSET"):
        mods.append(f"offset:{d.value('OFFSET')}")
    mods += _cache_flags("MTBUF" if d.format == "MTBUF" else "MUBUF", d, family, glc_printed)
    for f in (lds, tfe):
        if f is not None and f.value:
            mods.append(f.name.lower())
    return " ".join([out, *mods])
