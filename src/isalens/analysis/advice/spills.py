"""Spills and scratch: which values go to scratch and back, where, and what register budget keeps them.

A VGPR spill slot is a scratch dword stored from a register at a constant address and reloaded from the same
address (private arrays indexed at run time use computed addresses and are left out). Slots whose store-to-last-
reload spans overlap need a register each at the same time, so the budget that removes every spill is the
most registers live at once had nothing been spilled: at each instruction, the live count plus the slot dwords
whose store-to-last-reload span (layout order) crosses it. SGPR spills into VGPR lanes (``v_writelane_b32`` read
back by ``v_readlane_b32``) count the same way, one SGPR per lane.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from operator import add

from isalens import _core
from isalens.analysis.advice.model import Advice, AdviceInput, Value
from isalens.analysis.occupancy import OccupancyInputError, occupancy, with_resource
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, OtherOperand, RegOperand

KIND = "spills"
_MNEMONIC_AT = Instruction._fields.index("mnemonic")
_DWORDS = {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4, "b32": 1, "b64": 2, "b96": 3, "b128": 4}


@dataclass(frozen=True, slots=True)
class Slot:
    """One spill slot: a scratch address (or a VGPR lane) written by a store and read back."""

    key: str
    dwords: int
    stores: tuple[tuple[int, str], ...]
    reloads: tuple[tuple[int, str], ...]

    @property
    def span(self) -> tuple[int, int]:
        return (min(i for i, _ in self.stores), max(i for i, _ in self.reloads))


def _constant_scratch_address(ins: Instruction) -> int | None:
    """The byte offset of a scratch access with no per-lane address (``off``), else None."""
    m = ins.mnemonic
    if not (m.startswith("scratch_") or m.startswith("buffer_")):
        return None
    if not any(isinstance(op, OtherOperand) and op.text == "off" for op in ins.operands):
        return None
    offset = 0
    value = ins.modifier("offset")
    if value:
        try:
            offset = int(value, 0)
        except ValueError:
            return None
    # a constant soffset operand adds to the address; an SGPR soffset would make the slot unknown
    tail = ins.operands[-1] if ins.operands else None
    if m.startswith("buffer_") and isinstance(tail, ImmOperand) and isinstance(tail.value, int):
        offset += tail.value
    elif m.startswith("buffer_") and isinstance(tail, RegOperand) and len(ins.operands) >= 4:
        return None
    return offset


def _width(mnemonic: str) -> int:
    return _DWORDS.get(mnemonic.rsplit("_", 1)[-1], 1)


def vgpr_slots(inp: AdviceInput) -> list[Slot]:
    """Scratch slots stored and reloaded at constant addresses."""
    instructions = inp.analysis.kernel.instructions
    # only scratch and buffer accesses can have a constant scratch address: the others are left out by the core's
    # walk (compiled when built; C calls over the mnemonics took ~10 ms per walk of the dense 100k kernel, a Python
    # generator step each ~0.05 s), and none is looked at without scratch
    accesses = _core.rows_prefixed(instructions, _MNEMONIC_AT, ("scratch_", "buffer_"))
    if not inp.analysis.kernel.declared.scratch_bytes and not any(
            instructions[i].mnemonic.startswith("scratch_") for i in accesses):
        return []
    stores: dict[int, list[tuple[int, str]]] = {}
    loads: dict[int, list[tuple[int, str]]] = {}
    width: dict[int, int] = {}
    for ins in map(instructions.__getitem__, accesses):
        addr = _constant_scratch_address(ins)
        if addr is None or not ins.operands or not isinstance(ins.operands[0], RegOperand):
            continue
        reg = ins.operands[0].text
        kind = ins.mnemonic.split("_")[1]
        if kind.startswith("store"):
            stores.setdefault(addr, []).append((ins.index, reg))
        elif kind.startswith("load"):
            loads.setdefault(addr, []).append((ins.index, reg))
        width[addr] = _width(ins.mnemonic)
    return [Slot(f"scratch+{a}", width[a], tuple(stores[a]), tuple(loads[a])) for a in sorted(stores)
            if a in loads and min(i for i, _ in stores[a]) < max(i for i, _ in loads[a])]


def sgpr_slots(inp: AdviceInput) -> list[Slot]:
    """VGPR lanes written by ``v_writelane_b32`` and read back by ``v_readlane_b32``."""
    writes: dict[str, list[tuple[int, str]]] = {}
    reads: dict[str, list[tuple[int, str]]] = {}
    instructions = inp.analysis.kernel.instructions
    lanes = ("v_writelane_b32", "v_readlane_b32")  # the others left out by the core's walk, as above
    for ins in map(instructions.__getitem__, _core.rows_prefixed(instructions, _MNEMONIC_AT, lanes)):
        if ins.mnemonic not in lanes:
            continue
        ops = ins.operands
        if len(ops) != 3:
            continue
        lane = ops[2]
        if not isinstance(lane, ImmOperand):
            continue
        if ins.mnemonic == "v_writelane_b32":
            writes.setdefault(f"{ops[0].text}[{lane.text}]", []).append((ins.index, ops[1].text))
        else:
            reads.setdefault(f"{ops[1].text}[{lane.text}]", []).append((ins.index, ops[0].text))
    return [Slot(k, 1, tuple(writes[k]), tuple(reads[k])) for k in sorted(writes)
            if k in reads and min(i for i, _ in writes[k]) < max(i for i, _ in reads[k])]


def demand(counts: tuple[int, ...], slots: list[Slot]) -> tuple[int, int]:
    """(registers needed with no spill, most slot dwords held at once): per instruction the live count plus
    the slot dwords whose spans strictly cross it."""
    crossing = [0] * (len(counts) + 1)
    for s in slots:
        lo, hi = s.span
        if hi - lo > 1:
            crossing[lo + 1] += s.dwords
            crossing[hi] -= s.dwords
    # the running sum of the crossings and its maxima in C calls, not a Python step per instruction
    held_at = list(accumulate(crossing[:len(counts)]))
    return max(max(map(add, counts, held_at), default=0), 0), max(max(held_at, default=0), 0)


def _advice(inp: AdviceInput, slots: list[Slot], file: str) -> Advice | None:
    result = inp.analysis
    ins = result.kernel.instructions
    counts = result.pressure.vgpr.counts if file == "VGPR" else result.pressure.sgpr.counts
    need, held = demand(counts, slots)
    if not held:
        return None
    requested = result.resources.vgpr.requested if file == "VGPR" else result.resources.sgpr.requested
    if file == "SGPR":  # the reserved VCC/XNACK/flat-scratch SGPRs come on top of the live ones
        need += result.resources.extra_sgprs
    field = "vgprs" if file == "VGPR" else "sgprs"
    budget = max(requested, need)
    effect: dict[str, tuple[float, float]] = {f"{file.lower()}_spill_slots": (float(len(slots)), 0.0),
                                              field: (float(requested), float(budget))}
    waves = ""
    if result.occupancy is not None:
        occ, occ_in = result.occupancy
        try:
            after = occupancy(result.arch, with_resource(occ_in, field, budget))
            effect["waves_per_simd"] = (occ.waves_per_simd, after.waves_per_simd)
            waves = f" ({occ.waves_per_simd:g} -> {after.waves_per_simd:g} waves per SIMD)"
        except OccupancyInputError:
            waves = f" (more than {result.arch.name} can address: restructure instead)"
    stored = [i for s in slots for i, _ in s.stores]
    reloaded = [i for s in slots for i, _ in s.reloads]
    values = tuple(Value(reg=s.stores[0][1], def_line=ins[s.stores[0][0]].line,
                         use_lines=tuple(ins[i].line for i, _ in s.reloads), frees=s.dwords,
                         defined_by=s.key) for s in slots)
    where = "scratch" if file == "VGPR" else "VGPR lanes"
    message = (f"{len(slots)} {file} spill slot(s) in {where}, at most {held} dword(s) held at once: stored at "
               f"lines {_few(ins[i].line for i in stored)}, reloaded at lines {_few(ins[i].line for i in reloaded)}. "
               f"Without spilling, at most {need} {file}s are live at once (live count plus the slots crossing each "
               f"line): a budget of {budget} {file}s keeps them in registers{waves}")
    lines = tuple(sorted({ins[i].line for i in stored + reloaded}))
    return Advice(KIND, lines, message, effect, values, {"register_file": file.lower(), "budget": budget})


def _few(lines: object) -> str:
    seen = sorted(set(lines))  # type: ignore[call-overload]
    text = ", ".join(str(x) for x in seen[:6])
    return text + (f" ... ({len(seen)} lines)" if len(seen) > 6 else "")


def detect(inp: AdviceInput) -> list[Advice]:
    """Fires when values are stored to scratch (or VGPR lanes) and read back."""
    out = []
    for slots, file in ((vgpr_slots(inp), "VGPR"), (sgpr_slots(inp), "SGPR")):
        item = _advice(inp, slots, file)
        if item is not None:
            out.append(item)
    return out
