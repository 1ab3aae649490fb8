"""Constants: a literal repeated in a loop that an SGPR would hold once, and literals an inline constant (or a
shorter encoding) can replace.

Sizes: a 32-bit literal adds one dword to its instruction. Hoisting ``n`` uses of one literal out of a loop
costs one ``s_mov_b32 sN, literal`` (8 bytes) before it and saves 4 bytes per use, and 4n bytes fetched per
iteration; a VALU reads at most one scalar value per instruction before gfx10 (two from gfx10), so uses that
already read another SGPR are left out. Inline integer constants are -16..64: an add of -17..-64 is a
subtract of an inline constant; a literal whose bit reverse is inline loads with ``v_bfrev_b32``/``s_brev_b32``;
a 16-bit signed literal loads with ``s_movk_i32``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter

from isalens.analysis.advice.model import Advice, AdviceInput
from isalens.analysis.occupancy import OccupancyInputError, occupancy, with_resource
from isalens.analysis.source_lines import loop_span
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, RegOperand
from isalens.ir.registers import RegFile, special

KIND = "constants"
MIN_REPEATS = 3
_MADMK = re.compile(r"^v_(mad|fma)(mk|ak)_")


def _literals(ins: Instruction) -> list[ImmOperand]:
    return [op for op in ins.operands if isinstance(op, ImmOperand) and op.literal]


def _has_literal(ins: Instruction) -> bool:
    """The encoding carries a literal dword (the ISA layer's facts; SOPK's 16-bit immediates are not one)."""
    return "literal" in ins.facts.constants


def _literal_indices(ins: Sequence[Instruction]) -> list[int]:
    """The indices of the :func:`_has_literal` instructions, in order: one test per distinct facts object
    (shared by the instructions of one text), the per-instruction walk in C calls (map/compress)."""
    ids = list(map(id, map(attrgetter("facts"), ins)))
    by_id = dict(zip(ids, ins, strict=True))
    literal = {f for f, x in by_id.items() if _has_literal(x)}
    return list(compress(range(len(ids)), map(literal.__contains__, ids)))


def _scalar_reads(ins: Instruction) -> int:
    return sum(1 for op in ins.operands if isinstance(op, RegOperand) and any(r.file is RegFile.SGPR for r in op.regs))


def _signed(value: int) -> int:
    value &= 0xFFFF_FFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _hoistable(ins: Instruction, generation: int) -> bool:
    if _MADMK.match(ins.mnemonic):
        return False  # the literal is part of the encoding: an SGPR form is no shorter
    if ins.mnemonic.startswith("s_"):
        return True
    return _scalar_reads(ins) < (2 if generation >= 10 else 1)


def _repeated(inp: AdviceInput, literal: Sequence[int]) -> list[Advice]:
    result = inp.analysis
    graph, ins = result.cfg, result.kernel.instructions
    innermost: dict[int, int] = {}
    for n, each in enumerate(graph.loops):
        for b in each.blocks:
            if b not in innermost or graph.loops[innermost[b]].depth < each.depth:
                innermost[b] = n
    uses: dict[tuple[int, str], list[int]] = defaultdict(list)
    for i in literal:
        x = ins[i]
        loop = innermost.get(graph.block_of[i])
        if loop is None or not _hoistable(x, result.arch.generation):
            continue
        for lit in _literals(x):
            key = f"{lit.value & 0xFFFF_FFFF:#x}" if isinstance(lit.value, int) else lit.text
            uses[(loop, key)].append(i)
    out = []
    requested = result.resources.sgpr.requested
    for (loop, shown_value), where in sorted(uses.items(), key=lambda kv: kv[1][0]):
        if len(where) < MIN_REPEATS:
            continue
        body = graph.loops[loop].blocks
        loop_bytes = sum(ins[i].facts.size for b in body for i in range(graph.blocks[b].start, graph.blocks[b].end))
        effect: dict[str, tuple[float, float]] = {
            "code_bytes": (float(inp.stats.code_bytes), float(inp.stats.code_bytes - 4 * len(where) + 8)),
            "loop_bytes_per_iteration": (float(loop_bytes), float(loop_bytes - 4 * len(where))),
            "sgprs": (float(requested), float(requested + 1)),
        }
        waves = ""
        if result.occupancy is not None:
            occ, occ_in = result.occupancy
            try:
                after = occupancy(result.arch, with_resource(occ_in, "sgprs", requested + 1))
            except OccupancyInputError:
                continue
            if after.waves_per_simd < occ.waves_per_simd:
                continue  # one more SGPR would cost a wave: not worth it
            effect["waves_per_simd"] = (occ.waves_per_simd, after.waves_per_simd)
            waves = f", waves per SIMD unchanged at {occ.waves_per_simd:g}"
        header = ins[graph.blocks[graph.loops[loop].header].start].line
        out.append(Advice(
            KIND, tuple(ins[i].line for i in where),
            f"literal {shown_value} appears {len(where)} times in the loop at line {header} (lines "
            f"{', '.join(str(ins[i].line) for i in where[:8])}{' ...' if len(where) > 8 else ''}): load it into "
            f"an SGPR once before the loop (s_mov_b32, 8 bytes) and read the SGPR: {4 * len(where)} bytes less "
            f"per iteration, {4 * len(where) - 8} bytes less code, one more SGPR ({requested} -> {requested + 1})"
            f"{waves}",
            effect, facts={"literal": shown_value, "uses": len(where)},
            loop=loop_span(result.kernel, graph, graph.loops[loop])))
    return out


def _inline_int(v: int) -> bool:
    return -16 <= v <= 64


def _shorter(ins: Instruction, generation: int, scc_live_after: bool) -> str | None:
    """A rewrite of ``ins`` without its literal, or None."""
    lits = _literals(ins)
    if len(lits) != 1 or not isinstance(lits[0].value, int):
        return None
    value = _signed(lits[0].value)
    base = ins.mnemonic.removesuffix("_e32")
    ops = ins.operands
    others = [op.text for op in ops[1:] if op is not lits[0]]
    if -64 <= value <= -17 and len(ops) == 3:
        if base in ("v_add_u32", "v_add_nc_u32") and _vgpr_operand(ops):
            rev = "v_subrev_u32" if base == "v_add_u32" else "v_subrev_nc_u32"
            return f"{rev}_e32 {ops[0].text}, {-value}, {others[0]}"
        if base == "s_add_i32" and not scc_live_after:
            return f"s_sub_i32 {ops[0].text}, {others[0]}, {-value}"
    if base in ("v_mov_b32", "s_mov_b32") and len(ops) == 2:
        mirrored = _signed(int(f"{value & 0xFFFF_FFFF:032b}"[::-1], 2))
        if _inline_int(mirrored):
            return f"{'v_bfrev_b32_e32' if base == 'v_mov_b32' else 's_brev_b32'} {ops[0].text}, {mirrored}"
        if base == "s_mov_b32" and -32768 <= value <= 32767:
            return f"s_movk_i32 {ops[0].text}, {value:#x}" if value >= 0 else f"s_movk_i32 {ops[0].text}, {value}"
    return None


def _vgpr_operand(ops: tuple[object, ...]) -> bool:
    return any(isinstance(op, RegOperand) and op.regs and op.regs[0].file is RegFile.VGPR for op in ops[1:])


def _inline(inp: AdviceInput, literal: Sequence[int]) -> list[Advice]:
    result = inp.analysis
    ins = result.kernel.instructions
    scc = special("scc").mask()
    rewrites = []
    live_out = result.liveness.live_out
    # the rewrite depends on the text (mnemonic and operands) and on SCC being live after it: each such pair
    # once (a kernel repeats its literal-carrying texts)
    shorter: dict[tuple[str, bool], str | None] = {}
    for i in literal:
        x = ins[i]
        key = (x.text, bool(live_out[i] & scc))
        if key in shorter:
            text = shorter[key]
        else:
            text = shorter[key] = _shorter(x, result.arch.generation, key[1])
        if text is not None:
            rewrites.append((i, text))
    if not rewrites:
        return []
    shown = "; ".join(f"line {ins[i].line} `{ins[i].text}` -> `{t}`" for i, t in rewrites[:6])
    more = f" and {len(rewrites) - 6} more" if len(rewrites) > 6 else ""
    saved = 4 * len(rewrites)
    return [Advice(KIND, tuple(ins[i].line for i, _ in rewrites),
                   f"{len(rewrites)} literal(s) an inline constant or a shorter form replaces: {shown}{more}: "
                   f"{saved} bytes less code",
                   {"code_bytes": (float(inp.stats.code_bytes), float(inp.stats.code_bytes - saved)),
                    "literals": (float(len(rewrites)), 0.0)},
                   facts={"rewrites": len(rewrites), "first_replacement": rewrites[0][1]})]


def detect(inp: AdviceInput) -> list[Advice]:
    """Repeated literals in loops, then literals with a shorter form."""
    literal = _literal_indices(inp.analysis.kernel.instructions)
    return _repeated(inp, literal) + _inline(inp, literal)
