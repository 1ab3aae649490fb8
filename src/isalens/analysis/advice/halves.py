"""Wasted halves: 16-bit values that each occupy a whole VGPR at the peak and could share one.

At the peak instruction with the most such registers, a VGPR with exactly one live 16-bit half (the unit
liveness of :mod:`isalens.analysis.liveness`) wastes the other; pairing them two by two (``v_pack_b32_f16``,
``v_pk_*`` ops, ``*_d16_hi`` loads or SDWA/op_sel writes to the high half) frees one register per pair.
Packed everywhere, each instruction's count drops by half its half-only registers, rounded down.
"""

from __future__ import annotations

from isalens.analysis.advice.model import Advice, AdviceInput, Value, with_resource
from isalens.analysis.lifetimes import definitions_reaching, next_uses
from isalens.analysis.occupancy import OccupancyInputError, occupancy
from isalens.ir.registers import HALF_HI, HALF_LO, Reg, RegFile

KIND = "halves"


def half_only(mask: int) -> list[tuple[int, str]]:
    """(VGPR, live half ``l``/``h``) of every VGPR of ``mask`` with exactly one live half."""
    out = []
    part = mask & ((1 << 512) - 1)
    reg = 0
    while part:
        pair = part & 3
        if pair == 1:
            out.append((reg, "l"))
        elif pair == 2:
            out.append((reg, "h"))
        part >>= 2
        reg += 1
    return out


def detect(inp: AdviceInput) -> list[Advice]:
    """Fires when two or more VGPRs at a peak instruction hold one live half each."""
    result = inp.analysis
    press = result.pressure
    if not press.vgpr.peak_indices:
        return []
    at = max(press.vgpr.peak_indices, key=lambda i: (press.vgpr_half_only[i], -i))
    ins = result.kernel.instructions
    mask = result.liveness.live_in[at] | result.liveness.live_out[at] | ins[at].defs
    lonely = half_only(mask)
    pairs = len(lonely) // 2
    if pairs == 0:
        return []
    values = []
    for reg, half in lonely:
        r = Reg(RegFile.VGPR, reg, 1, HALF_LO if half == "l" else HALF_HI)
        defs = definitions_reaching(result.kernel, result.cfg, at + 1, r)
        uses = next_uses(result.kernel, result.cfg, at + 1, r)
        values.append(Value(f"v{reg}.{half}", ins[defs[0]].line if defs else 0,
                            tuple(ins[u].line for u in uses), 0,
                            ins[defs[0]].mnemonic if defs else "kernel entry"))
    named = [f"{a.reg} ({a.defined_by} line {a.def_line}) + {b.reg} ({b.defined_by} line {b.def_line})"
             for a, b in zip(values[0::2], values[1::2], strict=False)]
    count = press.vgpr.counts[at]
    packed_peak = max(c - h // 2 for c, h in zip(press.vgpr.counts, press.vgpr_half_only, strict=True))
    peak = press.vgpr.peak
    effect: dict[str, tuple[float, float]] = {
        "live_vgprs_at_line": (float(count), float(count - pairs)),
        "peak_live_vgprs": (float(peak), float(packed_peak)),
    }
    requested = result.resources.vgpr.requested
    saved = peak - packed_peak
    tail = ""
    if result.occupancy is not None and saved:
        occ, occ_in = result.occupancy
        try:
            after = occupancy(result.arch, with_resource(occ_in, "vgprs", requested - saved))
            effect["vgprs"] = (float(requested), float(requested - saved))
            effect["waves_per_simd"] = (occ.waves_per_simd, after.waves_per_simd)
            tail = (f"; packed at every line the peak drops to {packed_peak}: {requested} -> {requested - saved} "
                    f"VGPRs requested (slack kept), {occ.waves_per_simd:g} -> {after.waves_per_simd:g} waves per SIMD")
        except OccupancyInputError:
            pass
    shown = "; ".join(named[:8]) + (f"; and {len(named) - 8} more pairs" if len(named) > 8 else "")
    message = (f"at line {ins[at].line}, {len(lonely)} VGPRs hold one live 16-bit half each; packing them in pairs "
               f"({shown}) frees {pairs} VGPR(s) there: {count} -> {count - pairs} live{tail}")
    lines = tuple(sorted({ins[at].line, *(v.def_line for v in values if v.def_line)}))
    return [Advice(KIND, lines, message, effect, tuple(values), {"pairs": pairs})]
