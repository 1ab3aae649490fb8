"""A static timing model for GCN/CDNA/RDNA code: per basic block and per natural loop, per wave, the issue
cycles each unit is busy and an in-order latency pass that honours ``s_waitcnt``, ``s_nop`` and the gfx9
scalar->vector hazard; then, for W waves sharing a SIMD, cycles per iteration, the bottleneck and the lines
that make it; work (flops by precision, bytes to global memory and LDS) and, on a device, the roofs.

The per-wave simulation (:func:`profile`) does not depend on W or the device, so ``--what-if`` re-evaluates
(:func:`evaluate`) without simulating again. Instruction facts arrive as class keys (see ``engine.timing``);
unit, issue and latency per class come from :mod:`isalens.arch.timing`.

Model (docs/timing.md): a wave issues in order, at most one instruction per ``issue_interval`` cycles; an
instruction starts when its unit is free, its source registers are ready (producer start + latency), the
counters an ``s_waitcnt`` names have drained to their limit (a memory op completes ``latency`` cycles after
it issued) and hazards are resolved. W waves hide latency: W iterations take
``max(W x busiest unit's issue, one wave's latency)``.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from isalens.analysis.cfg import CFG, Loop
from isalens.arch.devices import DeviceSpec
from isalens.arch.model import ArchSpec
from isalens.arch.timing import UNITS, ClassTiming, HazardRule, TimingTable
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, OtherOperand
from isalens.ir.program import Kernel
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, SPECIAL_BASE, SPECIAL_UNIT
from isalens.ondemand import OnDemand

__all__ = [
    "DEFAULT_TRIP_COUNT", "BlockTiming", "KernelProfile", "KernelTiming", "LineTiming", "LoopProfile",
    "LoopTiming", "Roofs", "TimingInputError", "evaluate", "profile",
]

#: trip count assumed for a loop without ``--trip-count`` (the same weight the statistics use per loop level)
DEFAULT_TRIP_COUNT = 10


class TimingInputError(ValueError):
    """A request the model cannot answer (unknown loop in a trip count, waves below 1)."""


class LineTiming(NamedTuple):
    """One instruction in the single-wave schedule of its block (a named tuple: one per instruction)."""

    index: int  # type: ignore[assignment]  # shadows tuple.index(), which rows never use
    line: int
    unit: str
    issue: int
    #: cycle (from the start of its block) at which it issued
    start: int
    #: cycles it waited beyond in-order issue
    stall: int
    #: what it waited for: "", "unit", "dependency", "vmcnt", "lgkmcnt", ..., "hazard"
    reason: str


@dataclass(frozen=True, slots=True)
class BlockTiming:
    index: int
    start_line: int
    end_line: int
    loop_depth: int
    issue_cycles: dict[str, int]
    latency_cycles: int
    #: lines on the block's critical path (producers and the instructions that waited for them)
    critical_path: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Work:
    """Work of one wave: floating-point operations by precision, bytes moved."""

    flops: dict[str, int] = field(default_factory=dict)
    bytes_global: int = 0
    bytes_lds: int = 0
    fma: int = 0

    def scaled(self, factor: int) -> Work:
        return Work({k: v * factor for k, v in self.flops.items()}, self.bytes_global * factor,
                    self.bytes_lds * factor, self.fma * factor)

    def __add__(self, other: Work) -> Work:
        flops = dict(self.flops)
        for k, v in other.flops.items():
            flops[k] = flops.get(k, 0) + v
        return Work(flops, self.bytes_global + other.bytes_global, self.bytes_lds + other.bytes_lds,
                    self.fma + other.fma)


@dataclass(frozen=True, slots=True)
class LoopProfile:
    """One natural loop, one wave, one iteration (inner loops x their trip counts)."""

    header_line: int
    depth: int
    trip_count: int
    trip_assumed: bool
    issue_cycles: dict[str, int]
    latency_cycles: int
    work: Work
    #: stall cycles by kind ("global-memory latency", "LDS latency", ...) and the lines that waited
    stalls: dict[str, int]
    stall_lines: dict[str, tuple[int, ...]]
    #: lines per unit, busiest instructions first
    unit_lines: dict[str, tuple[int, ...]]


class TimingLines(OnDemand[LineTiming]):
    """The per-instruction schedule as columns, read as :class:`LineTiming` rows on demand (a million
    instructions would otherwise keep a million rows); a pickled copy is the rows themselves."""

    __slots__ = ("_indices", "_lines", "_reasons", "_stalls", "_starts", "_statics")

    def __init__(self, indices: list[int], lines: list[int], statics: list[_Static], starts: array[int],
                 stalls: array[int], reasons: list[str]) -> None:
        self._indices, self._lines, self._statics = indices, lines, statics
        self._starts, self._stalls, self._reasons = starts, stalls, reasons

    def __len__(self) -> int:
        return len(self._indices)

    def _item(self, k: int) -> LineTiming:
        return self._row(self._indices[k])

    def __iter__(self) -> Iterator[LineTiming]:
        return (self._row(i) for i in self._indices)

    def _row(self, i: int) -> LineTiming:
        st = self._statics[i]
        return LineTiming(i, self._lines[i], st.timing.unit, st.issue, self._starts[i], self._stalls[i],
                          self._reasons[i])


@dataclass(frozen=True, slots=True)
class KernelProfile:
    """Everything per wave; W and the device are applied by :func:`evaluate`."""

    family: str
    wave_size: int
    lines: Sequence[LineTiming]
    blocks: tuple[BlockTiming, ...]
    loops: tuple[LoopProfile, ...]
    whole: LoopProfile
    occupancy_waves: int | None
    assumptions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Roofs:
    """Gflop/s bounds on a device (None where the device lacks the figure or there is no such traffic)."""

    compute: float | None
    dram: float | None
    lds: float | None
    issue_model: float | None
    bound: str
    arithmetic_intensity: float | None


@dataclass(frozen=True, slots=True)
class LoopTiming:
    header_line: int
    depth: int
    trip_count: int
    trip_assumed: bool
    issue_cycles: dict[str, int]
    latency_cycles: int
    waves: int
    cycles_per_iteration: float
    bottleneck: str
    bottleneck_lines: tuple[int, ...]
    work: Work
    fma_per_clock_per_cu: float
    roofs: Roofs | None


@dataclass(frozen=True, slots=True)
class KernelTiming:
    profile: KernelProfile
    waves: int
    waves_from: str
    device: DeviceSpec | None
    loops: tuple[LoopTiming, ...]
    kernel: LoopTiming
    assumptions: tuple[str, ...]


# ------------------------------------------------------------------------------------------ per instruction

_WIDTH = (("dwordx4", 16), ("b128", 16), ("dwordx3", 12), ("b96", 12), ("dwordx2", 8), ("b64", 8), ("u64", 8),
          ("i64", 8), ("f64", 8), ("x2", 8), ("dword", 4), ("b32", 4), ("u32", 4), ("i32", 4), ("f32", 4),
          ("short", 2), ("b16", 2), ("u16", 2), ("i16", 2), ("d16", 2), ("f16", 2), ("byte", 1), ("b8", 1),
          ("u8", 1), ("i8", 1))
_GLOBAL_PREFIXES = ("vmem.", "image.", "flat.", "global.", "scratch.")
_MFMA_SHAPE = re.compile(r"_(\d+)x(\d+)x(\d+)")
_MULTI_BLOCK = {"4x4": 16}
_COUNTER_RE = re.compile(r"(vmcnt|expcnt|lgkmcnt|vscnt)\((\d+)\)")
_GFX12_WAIT = re.compile(r"s_wait_(loadcnt|storecnt|samplecnt|bvhcnt|dscnt|kmcnt|expcnt)(?:_(dscnt))?$")


def _lane_bytes(mnemonic: str, klass: str, ins: Instruction) -> int:
    """Bytes one lane moves: from the width suffix; x2 for two-address LDS forms; image: dmask x 4."""
    if klass.startswith("image."):
        dmask = ins.modifier("dmask")
        try:
            return 4 * bin(int(dmask, 0)).count("1") if dmask else 16
        except ValueError:
            return 16
    tail = mnemonic.split("_", 1)[1] if "_" in mnemonic else mnemonic
    width = 4
    for suffix, nbytes in _WIDTH:
        if suffix in tail:
            width = nbytes
            break
    if klass in ("ds.read2", "ds.read2st64", "ds.write2", "ds.write2st64"):
        width *= 2
    return width


def _precision(mnemonic: str) -> str:
    for p in ("f64", "bf16", "f16", "f32"):
        if p in mnemonic:
            return p
    return "f32"


def _lane_flops(mnemonic: str, klass: str) -> tuple[str, int, int]:
    """(precision, flops per lane, FMAs per lane) of one VALU operation; an FMA is 2 flops."""
    fused = any(t in mnemonic for t in ("fma", "mad", "mac"))
    if klass in ("valu.fma.f32", "valu.fma.f16"):
        return _precision(mnemonic), 2, 1
    if klass in ("valu.f32", "valu.f16", "valu.f64"):
        if any(t in mnemonic for t in ("add", "sub", "mul", "min", "max", "fma", "mad", "mac")):
            return _precision(mnemonic), 2 if fused else 1, 1 if fused else 0
        return _precision(mnemonic), 0, 0
    if klass in ("valu.pk.f16", "valu.pk.f32"):
        if any(t in mnemonic for t in ("add", "mul", "fma", "mad", "min", "max")):
            return _precision(mnemonic), 4 if fused else 2, 2 if fused else 0
        return _precision(mnemonic), 0, 0
    if klass == "valu.dot" and ("f16" in mnemonic or "bf16" in mnemonic):
        return "bf16" if "bf16" in mnemonic else "f16", 4, 2
    return "f32", 0, 0


def _work(ins: Instruction, klass: str, wave_size: int) -> Work:
    mnemonic = ins.mnemonic.lower()
    if klass.startswith(_GLOBAL_PREFIXES):
        return Work(bytes_global=_lane_bytes(mnemonic, klass, ins) * wave_size)
    if klass.startswith("ds.") and klass not in ("ds.gws", "ds.append", "ds.permute"):
        return Work(bytes_lds=_lane_bytes(mnemonic, klass, ins) * wave_size)
    if klass in ("mfma", "wmma"):
        m = _MFMA_SHAPE.search(mnemonic)
        if not m:
            return Work()
        a, b, k = (int(g) for g in m.groups())
        blocks = _MULTI_BLOCK.get(f"{a}x{b}", 1)
        src = mnemonic[m.end():] or mnemonic
        n = 2 * a * b * k * blocks
        return Work({_precision(src) if "i8" not in src else "i8": n}, fma=n // 2)
    if klass == "valu.dual":
        total = Work()
        for half in ins.text.split("::"):
            name = half.strip().split()[0].lower().replace("v_dual_", "v_", 1) if half.strip() else ""
            if not name:
                continue
            if "fma" in name or "mac" in name or "fmaak" in name or "fmamk" in name:
                total = total + Work({_precision(name): 2 * wave_size}, fma=wave_size)
            elif any(t in name for t in ("add_f", "sub_f", "mul_f", "min_f", "max_f", "subrev_f")):
                total = total + Work({_precision(name): wave_size})
        return total
    if klass.startswith("valu."):
        precision, flops, fma = _lane_flops(mnemonic, klass)
        if flops:
            return Work({precision: flops * wave_size}, fma=fma * wave_size)
    return Work()


def _issue(ins: Instruction, klass: str, timing: ClassTiming, table: TimingTable, wave_size: int,
           lds_bytes_per_clk_per_simd: float) -> int:
    issue = timing.issue(wave_size)
    mnemonic = ins.mnemonic.lower()
    if klass == "nop":
        count = next((op.value for op in ins.operands if isinstance(op, ImmOperand)), 0)
        # s_nop N is N+1 wait states [ISA: program flow, s_nop]
        return max(issue, int(count if isinstance(count, int) else 0) + 1)
    if klass == "mfma":
        m = _MFMA_SHAPE.search(mnemonic)
        if m:
            return 4 * table.mfma_passes.get(f"{m.group(1)}x{m.group(2)}", issue // 4)
    if klass.startswith("ds.") and lds_bytes_per_clk_per_simd > 0:
        nbytes = _lane_bytes(mnemonic, klass, ins) * wave_size
        return max(issue, math.ceil(nbytes / lds_bytes_per_clk_per_simd))
    return issue


def _wait_limits(ins: Instruction, generation: int) -> dict[str, int]:
    """Counter -> the most outstanding ops allowed once this instruction issues (empty: not a wait)."""
    m = ins.mnemonic.lower()
    out: dict[str, int] = {}
    if m == "s_waitcnt":
        for op in ins.operands:
            if isinstance(op, OtherOperand):
                for name, n in _COUNTER_RE.findall(op.text):
                    out[name] = int(n)
            elif isinstance(op, ImmOperand) and isinstance(op.value, int):
                out.update(_decode_waitcnt(op.value, generation))
        return out
    if m.startswith("s_waitcnt_") and m[10:] in ("vmcnt", "vscnt", "lgkmcnt", "expcnt"):
        imm = next((op.value for op in ins.operands if isinstance(op, ImmOperand)), None)
        if isinstance(imm, int):
            out[m[10:]] = imm
        return out
    g = _GFX12_WAIT.match(m)
    if g:
        imm = next((op.value for op in ins.operands if isinstance(op, ImmOperand)), None)
        if isinstance(imm, int):
            if g.group(2):  # s_wait_loadcnt_dscnt: loadcnt in bits 13:8, dscnt in 5:0 [RDNA4 ISA ch. 4]
                out[g.group(1)] = (imm >> 8) & 0x3F
                out["dscnt"] = imm & 0x3F
            else:
                out[g.group(1)] = imm
    return out


def _decode_waitcnt(imm: int, generation: int) -> dict[str, int]:
    """The fields of an ``s_waitcnt`` immediate [Vega/RDNA/RDNA3 ISA guides, SOPP S_WAITCNT]."""
    if generation >= 11:
        return {"vmcnt": (imm >> 10) & 0x3F, "lgkmcnt": (imm >> 4) & 0x3F, "expcnt": imm & 0x7}
    vm = (imm & 0xF) | (((imm >> 14) & 0x3) << 4 if generation >= 9 else 0)
    lgkm = (imm >> 8) & (0x3F if generation >= 10 else 0xF)
    return {"vmcnt": vm, "expcnt": (imm >> 4) & 0x7, "lgkmcnt": lgkm}


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ------------------------------------------------------------------------------------------ simulation

_STALL_KIND = {"vmem": "global-memory latency", "lds": "LDS latency", "smem": "SMEM latency",
               "export": "export latency"}


@dataclass(slots=True)
class _Static:
    """Per-instruction facts the simulation reads, computed once."""

    klass: str
    timing: ClassTiming
    issue: int
    uses: tuple[int, ...]
    defs: tuple[int, ...]
    waits: dict[str, int]
    work: Work
    memory: bool
    #: (wait states, producer kind, register units read) per hazard rule this instruction is a consumer of
    hazard_checks: tuple[tuple[int, str, tuple[int, ...]], ...] = ()
    #: producer kind ("valu", "salu") when some hazard rule names it, else ""
    producer: str = ""
    # copies of hot fields for the simulation loop
    unit: str = ""
    latency: int = 0
    nop: bool = False

    def __post_init__(self) -> None:
        self.unit = self.timing.unit
        self.latency = self.timing.latency
        self.nop = self.klass == "nop"


_REGISTER_KINDS: dict[str, Callable[[int], bool]] = {
    "sgpr": lambda u: SGPR_BASE <= u < SPECIAL_BASE,
    "vgpr": lambda u: u < AGPR_BASE,
    "vcc": lambda u: u in (SPECIAL_UNIT["vcc_lo"], SPECIAL_UNIT["vcc_hi"]),
    "exec": lambda u: u in (SPECIAL_UNIT["exec_lo"], SPECIAL_UNIT["exec_hi"]),
    "m0": lambda u: u == SPECIAL_UNIT["m0"],
}
_DPP_MODIFIERS = ("quad_perm", "row_", "wave_", "dpp8", "bank_mask")


def _hazard_facts(ins: Instruction, klass: str, uses: tuple[int, ...],
                  rules: Sequence[HazardRule]) -> tuple[tuple[tuple[int, str, tuple[int, ...]], ...], str]:
    """The hazard rules ``ins`` must respect as a consumer, and its producer kind."""
    mnemonic = ins.mnemonic.lower()
    dpp = "_dpp" in mnemonic or any(m.startswith(_DPP_MODIFIERS) for m in ins.modifiers)
    base = mnemonic.removesuffix("_e32").removesuffix("_e64").removesuffix("_dpp").removesuffix("_sdwa")
    checks = []
    for rule in rules:
        if rule.applies(klass, base, dpp):
            units = tuple(u for u in uses if _REGISTER_KINDS[rule.registers](u))
            if units:
                checks.append((rule.wait_states, rule.producer, units))
    producer = next((r.producer for r in rules if klass == r.producer or klass.startswith(r.producer + ".")), "")
    return tuple(checks), producer


def _stall_kind(reason: str, blocker: int | None, statics: Sequence[_Static]) -> str:
    if reason == "dependency" and blocker is not None:
        unit = statics[blocker].timing.unit
        return {"trans": "transcendental latency", "matrix": "matrix-core latency",
                "salu": "SALU latency"}.get(unit, f"{unit.upper()} dependency chain")
    if reason in ("unit", ""):
        return "issue"
    if reason == "hazard":
        return "hazard wait states"
    if blocker is not None:
        return _STALL_KIND.get(statics[blocker].timing.unit, f"{reason} wait")
    return f"{reason} wait"


@dataclass(slots=True)
class _Pass:
    starts: list[tuple[int, int, int, str, int | None]]
    end: int


def _run(order: Sequence[int], statics: Sequence[_Static], interval: int, hazards: bool, passes: int) -> list[_Pass]:
    """Simulate one wave's in-order schedule through ``order``, ``passes`` times back to back (a loop's
    iterations), one record per pass: (index, start from the pass's beginning, stall, reason, index waited
    for). The step is written out in this loop, state in locals: it runs a few times per instruction."""
    next_issue = end = wait_states = 0  # earliest cycle of the next issue; schedule end; wait states so far
    unit_free: dict[str, int] = {}
    ready: dict[int, int] = {}  # register unit -> cycle its value is ready
    producer: dict[int, int] = {}  # register unit -> index of the instruction that wrote it
    queues: dict[str, deque[tuple[int, int]]] = {}  # counter -> (completion cycle, index) in issue order
    #: (producer kind, register unit) -> wait-state count when it was last written (hazard rules)
    written: dict[tuple[str, int], int] = {}
    out = []
    for _ in range(passes):
        begin = end
        recs: list[tuple[int, int, int, str, int | None]] = []
        append = recs.append
        for i in order:
            st = statics[i]
            earliest = start = next_issue
            reason, blocker = "", None
            unit = st.unit
            free = unit_free.get(unit, 0)
            if free > start:
                start, reason = free, "unit"
            for u in st.uses:
                t = ready.get(u, 0)
                if t > start:
                    start, reason, blocker = t, "dependency", producer.get(u)
            if st.waits:
                for counter, limit in st.waits.items():
                    q = queues.get(counter)
                    while q is not None and len(q) > limit:
                        done, who = q.popleft()
                        if done > start:
                            start, reason, blocker = done, counter, who
            if st.hazard_checks:
                for needed, kind, units in st.hazard_checks:
                    for u in units:
                        at = written.get((kind, u))
                        if at is not None and wait_states - at < needed:
                            # the data hazard table of the ISA guide: leave ``needed`` after the producer
                            start, reason, blocker = start + needed - (wait_states - at), "hazard", None
            issue = st.issue
            unit_free[unit] = start + issue
            defs = st.defs
            if defs:
                done = start + (issue if st.memory else st.latency)
                for u in defs:
                    ready[u] = done
                    producer[u] = i
            if st.memory:
                for counter in st.timing.counters:
                    q = queues.get(counter)
                    if q is None:
                        q = queues[counter] = deque()
                    q.append((start + st.latency, i))
            if hazards:
                wait_states += issue if st.nop else 1
                if st.producer:
                    for u in defs:
                        written[(st.producer, u)] = wait_states
            # s_nop holds the wave for its wait states; anything else lets the next instruction follow
            next_issue = start + (issue if st.nop else interval)
            finish = start + (issue if issue > interval else interval)
            if finish > end:
                end = finish
            append((i, start - begin, start - earliest, reason, blocker))
        out.append(_Pass(recs, end - begin))
    return out


def _critical_path(recs: Sequence[tuple[int, int, int, str, int | None]], lines: Sequence[int]) -> tuple[int, ...]:
    """Lines of the instructions that stalled most and of what they waited for (up to 8, in order)."""
    stalled = sorted((r for r in recs if r[2] > 0 and r[3] not in ("", "unit")), key=lambda r: -r[2])[:4]
    chosen: set[int] = set()
    for index, _s, _st, _r, blocker in stalled:
        chosen.add(lines[index])
        if blocker is not None:
            chosen.add(lines[blocker])
    return tuple(sorted(chosen))


_TOP = 16


@dataclass(slots=True)
class _Summary:
    """Issue, work and stalls of some instructions, with the lines that weigh most (merged by region)."""

    issue: dict[str, int] = field(default_factory=dict)
    unit_lines: dict[str, dict[int, int]] = field(default_factory=dict)
    flops: dict[str, int] = field(default_factory=dict)
    bytes_global: int = 0
    bytes_lds: int = 0
    fma: int = 0
    stalls: dict[str, int] = field(default_factory=dict)
    stall_lines: dict[str, dict[int, int]] = field(default_factory=dict)

    @staticmethod
    def of_block(indices: range, statics: Sequence[_Static], lines: Sequence[int]) -> _Summary:
        out = _Summary()
        issue, unit_lines, flops = out.issue, out.unit_lines, out.flops
        for i in indices:
            st = statics[i]
            unit = st.timing.unit
            issue[unit] = issue.get(unit, 0) + st.issue
            costs = unit_lines.setdefault(unit, {})
            costs[lines[i]] = costs.get(lines[i], 0) + st.issue
            w = st.work
            if w.flops:
                for k, v in w.flops.items():
                    flops[k] = flops.get(k, 0) + v
                out.fma += w.fma
            out.bytes_global += w.bytes_global
            out.bytes_lds += w.bytes_lds
        for unit, costs in unit_lines.items():
            if len(costs) > _TOP:
                unit_lines[unit] = dict(sorted(costs.items(), key=lambda kv: -kv[1])[:_TOP])
        return out

    @staticmethod
    def of_profile(p: LoopProfile) -> _Summary:
        out = _Summary(dict(p.issue_cycles), {u: dict.fromkeys(lns, 1) for u, lns in p.unit_lines.items()},
                       dict(p.work.flops), p.work.bytes_global, p.work.bytes_lds, p.work.fma, dict(p.stalls),
                       {k: dict.fromkeys(lns, 1) for k, lns in p.stall_lines.items()})
        return out

    def add_stalls(self, recs: Sequence[tuple[int, int, int, str, int | None]], statics: Sequence[_Static],
                   lines: Sequence[int]) -> None:
        for i, _s, stall, reason, blocker in recs:
            if stall <= 0:
                continue
            kind = _stall_kind(reason, blocker, statics)
            self.stalls[kind] = self.stalls.get(kind, 0) + stall
            per_line = self.stall_lines.setdefault(kind, {})
            per_line[lines[i]] = per_line.get(lines[i], 0) + stall
            if blocker is not None:
                per_line[lines[blocker]] = per_line.get(lines[blocker], 0) + stall

    def merge(self, other: _Summary, times: int, *, stalls: bool) -> None:
        for u, c in other.issue.items():
            self.issue[u] = self.issue.get(u, 0) + c * times
        for u, costs in other.unit_lines.items():
            mine = self.unit_lines.setdefault(u, {})
            for ln, c in costs.items():
                mine[ln] = mine.get(ln, 0) + c * times
        for k, v in other.flops.items():
            self.flops[k] = self.flops.get(k, 0) + v * times
        self.bytes_global += other.bytes_global * times
        self.bytes_lds += other.bytes_lds * times
        self.fma += other.fma * times
        if stalls:
            for kind, c in other.stalls.items():
                self.stalls[kind] = self.stalls.get(kind, 0) + c * times
                mine = self.stall_lines.setdefault(kind, {})
                for ln, c2 in other.stall_lines.get(kind, {}).items():
                    mine[ln] = mine.get(ln, 0) + c2 * times

    def work(self) -> Work:
        return Work(dict(self.flops), self.bytes_global, self.bytes_lds, self.fma)

    def unit_tops(self) -> dict[str, tuple[int, ...]]:
        return {u: tuple(ln for ln, _c in sorted(costs.items(), key=lambda kv: (-kv[1], kv[0]))[:_TOP])
                for u, costs in self.unit_lines.items()}

    def stall_tops(self) -> dict[str, tuple[int, ...]]:
        return {k: tuple(ln for ln, _c in sorted(v.items(), key=lambda kv: (-kv[1], kv[0]))[:_TOP])
                for k, v in self.stall_lines.items()}


# ------------------------------------------------------------------------------------------ profile

def _loop_header_line(loop: Loop, cfg: CFG, instructions: Sequence[Instruction]) -> int:
    return instructions[cfg.blocks[loop.header].start].line


#: per-instruction facts by (text, class, uses, defs), per timing table (kept alive beside its memo, so its id
#: stays its own), wave size, generation and LDS rate; a memo past the limit starts again
_STATICS: dict[tuple[int, int, int, float], tuple[TimingTable, dict[tuple[str, str, int, int], _Static]]] = {}
_STATICS_LIMIT = 100_000


def _static_memo(table: TimingTable, wave_size: int, generation: int, lds_per_simd: float,
                 ) -> dict[tuple[str, str, int, int], _Static]:
    key = (id(table), wave_size, generation, lds_per_simd)
    held = _STATICS.get(key)
    if held is None or held[0] is not table or len(held[1]) > _STATICS_LIMIT:
        held = _STATICS[key] = (table, {})
    return held[1]


def profile(instructions: Sequence[Instruction], cfg: CFG, classes: Sequence[str], table: TimingTable, *,
            wave_size: int, generation: int, simds_per_cu: int, trip_counts: Mapping[int, int] | None = None,
            occupancy_waves: int | None = None) -> KernelProfile:
    """Simulate one wave through every block and loop of a kernel (see the module docstring).

    ``trip_counts`` maps a loop's header line to its trip count; other loops get :data:`DEFAULT_TRIP_COUNT`.
    """
    trip_counts = dict(trip_counts or {})
    lines = [ins.line for ins in instructions]
    header_lines = {_loop_header_line(loop, cfg, instructions): loop for loop in cfg.loops}
    for line, count in trip_counts.items():
        if line not in header_lines:
            known = ", ".join(str(h) for h in sorted(header_lines)) or "none"
            raise TimingInputError(f"no loop has its header at line {line} (loop header lines: {known})")
        if count < 0:
            raise TimingInputError(f"trip count for the loop at line {line} must be >= 0, not {count}")
    assumptions: list[str] = []
    lds_per_simd = table.lds_bytes_per_clk / max(simds_per_cu, 1)
    unknown_classes: set[str] = set()
    statics: list[_Static] = []
    fallback = table.classes["valu.int"]
    # compiler output repeats instruction texts, within a kernel and across the kernels of a library:
    # compute each distinct one once per process
    memo = _static_memo(table, wave_size, generation, lds_per_simd)
    regs: dict[int, tuple[int, ...]] = {}
    for ins, klass in zip(instructions, classes, strict=True):
        key = (ins.text, klass, ins.uses, ins.defs)
        st = memo.get(key)
        if st is None:
            timing = table.of(klass)
            if timing is None:
                unknown_classes.add(f"{ins.mnemonic} ({klass})")
                timing = fallback
            uses = regs.get(ins.uses)
            if uses is None:
                uses = regs[ins.uses] = tuple(_bits(ins.uses))
            defs = regs.get(ins.defs)
            if defs is None:
                defs = regs[ins.defs] = tuple(_bits(ins.defs))
            st = memo[key] = _Static(klass, timing, _issue(ins, klass, timing, table, wave_size, lds_per_simd),
                                     uses, defs, _wait_limits(ins, generation), _work(ins, klass, wave_size),
                                     bool(timing.counters), *_hazard_facts(ins, klass, uses, table.hazards))
        statics.append(st)
    if unknown_classes:
        assumptions.append("no timing entry (timed as a full-rate VALU op): " + ", ".join(sorted(unknown_classes)))
    hazards = bool(table.hazards)
    interval = table.issue_interval

    n = len(instructions)
    timed = array("b", bytes(n))  # 1 where a block schedule gave the instruction a start
    starts, stalls = array("q", bytes(8 * n)), array("q", bytes(8 * n))
    reasons: list[str] = [""] * n
    blocks: list[BlockTiming] = []
    loops_by_header = {loop.header: loop for loop in cfg.loops}
    through: dict[int, list[Loop]] = {}  # block -> the loops containing it
    for loop in cfg.loops:
        for b in loop.blocks:
            through.setdefault(b, []).append(loop)
    unreachable = set(cfg.unreachable)
    # Each block's issue, work and (outside loops) stalls go straight into the total of the region that owns
    # it: the innermost loop around it (the deepest; natural loops nest), None for the kernel outside loops.
    # Block order is the order region() merges its own blocks in, and no summary or schedule per block is
    # kept (a 1M-instruction kernel has 250,000 blocks).
    own_totals: dict[int | None, _Summary] = {}
    block_end: list[int] = []
    for block in cfg.blocks:
        order = list(range(block.start, block.end))
        (one,) = _run(order, statics, interval, hazards, 1)
        block_end.append(one.end)
        for i, start, stall, reason, _b in one.starts:
            timed[i], starts[i], stalls[i], reasons[i] = 1, start, stall, reason
        issue: dict[str, int] = {}
        for i in order:
            u = statics[i].timing.unit
            issue[u] = issue.get(u, 0) + statics[i].issue
        blocks.append(BlockTiming(block.index, lines[block.start] if order else 0,
                                  lines[block.end - 1] if order else 0, cfg.loop_depth[block.index],
                                  _ordered(issue), one.end, _critical_path(one.starts, lines)))
        if block.index in unreachable:
            continue
        owner = max(through.get(block.index, ()), key=lambda lp: lp.depth, default=None)
        region_of = None if owner is None else owner.header
        summary = _Summary.of_block(range(block.start, block.end), statics, lines)
        if region_of is None:
            summary.add_stalls(one.starts, statics, lines)
        own_totals.setdefault(region_of, _Summary()).merge(summary, 1, stalls=region_of is None)

    trips = {h: trip_counts.get(line, DEFAULT_TRIP_COUNT) for line, h in
             ((line, loop.header) for line, loop in header_lines.items())}
    assumed = sorted(line for line in header_lines if line not in trip_counts)
    if assumed:
        assumptions.append(f"trip count {DEFAULT_TRIP_COUNT} assumed for the loop(s) with header line(s) "
                           f"{', '.join(map(str, assumed))} (pass --trip-count LINE=N)")

    regions: dict[int | None, LoopProfile] = {}

    def region(blocks_in: frozenset[int] | None, own_header: int | None) -> LoopProfile:
        """A loop body (or the whole kernel when ``blocks_in`` is None): inner loops x their trip counts."""
        if own_header in regions:
            return regions[own_header]
        members = set(range(len(cfg.blocks))) if blocks_in is None else set(blocks_in)
        # the loops inside this region: their header is a member and all their blocks are (one natural
        # loop per header); looked up through the member headers, not by testing every loop of the kernel
        candidates = [lp for b in sorted(members) if b != own_header and (lp := loops_by_header.get(b)) is not None
                      and lp.blocks <= members]
        chosen = {lp.header for lp in candidates}
        # only the outermost inner loops: deeper ones are inside them. A loop strictly containing ``lp``
        # contains its header, so only the loops through that block need testing.
        inner = [lp for lp in candidates
                 if not any(o is not lp and o.header in chosen and lp.blocks < o.blocks for o in through[lp.header])]
        nested: set[int] = set()
        for lp in inner:
            nested |= lp.blocks
        own = sorted(b for b in members if b not in nested and b not in unreachable)
        total = own_totals.pop(own_header, None) or _Summary()  # its own blocks, merged in block order
        if own_header is not None:
            order = [i for b in own for i in range(cfg.blocks[b].start, cfg.blocks[b].end)]
            _first, second = _run(order, statics, interval, hazards, 2)
            latency = second.end  # steady state: the second iteration
            total.add_stalls(second.starts, statics, lines)
        else:
            # outside loops the kernel is its blocks one after the other: reuse their schedules
            latency = sum(block_end[b] for b in own)
        for lp in inner:
            sub = regions[lp.header]  # deeper loops are profiled first (below)
            n = trips[lp.header]
            latency += sub.latency_cycles * n
            total.merge(_Summary.of_profile(sub), n, stalls=True)
        header_line = lines[cfg.blocks[own_header].start] if own_header is not None else 0
        depth = loops_by_header[own_header].depth if own_header is not None else 0
        prof = LoopProfile(header_line, depth, trips.get(own_header, 1) if own_header is not None else 1,
                           own_header is not None and header_line not in trip_counts, _ordered(total.issue),
                           latency, total.work(), dict(total.stalls), total.stall_tops(), total.unit_tops())
        regions[own_header] = prof
        return prof

    # innermost first, so a loop finds its inner loops' profiles ready: an inner loop is deeper than the
    # loop around it (natural loops nest). No recursion: a recursive closure is a reference cycle, which
    # would keep every block schedule alive while the CLI pauses the garbage collector (cli.main).
    for lp in sorted(cfg.loops, key=lambda lp: -lp.depth):
        region(lp.blocks, lp.header)
    loops = tuple(regions[lp.header] for lp in sorted(cfg.loops, key=lambda lp: cfg.blocks[lp.header].start))
    whole = region(None, None)
    if any(ins.mnemonic.lower().startswith("s_barrier") for ins in instructions):
        assumptions.append("s_barrier waits for the other waves of the workgroup: not modelled (0 cycles)")
    indices = [i for i in range(n) if timed[i]]
    return KernelProfile(table.family, wave_size, TimingLines(indices, lines, statics, starts, stalls, reasons),
                         tuple(blocks), loops, whole, occupancy_waves, tuple(assumptions))


def _ordered(issue: Mapping[str, int]) -> dict[str, int]:
    return {u: issue[u] for u in UNITS if issue.get(u)}


# ------------------------------------------------------------------------------------------ evaluate

_UNIT_NAMES = {"valu": "VALU", "trans": "transcendental unit", "matrix": "matrix cores", "salu": "SALU",
               "smem": "SMEM", "vmem": "vector memory", "lds": "LDS", "export": "export/GDS",
               "branch": "branch/message", "sequencer": "sequencer (waits, nops)"}


def _peak(device: DeviceSpec, flops: Mapping[str, int]) -> float | None:
    if not flops:
        return None
    main = max(flops, key=lambda k: flops[k])
    return {"f64": device.fp64_gflops, "f16": device.fp16_gflops, "bf16": device.fp16_gflops,
            "f32": device.fp32_gflops}.get(main, device.fp32_gflops)


def _roofs(work: Work, cycles_per_iteration: float, waves: int, device: DeviceSpec, simds_per_cu: int) -> Roofs:
    flops = sum(work.flops.values())
    compute = _peak(device, work.flops)
    intensity = flops / work.bytes_global if work.bytes_global else None
    dram = intensity * device.memory_bandwidth_gbs if intensity is not None else None
    lds = None
    if work.bytes_lds and device.lds_bandwidth_bytes_per_clk_per_cu:
        lds_gbs = device.lds_bandwidth_bytes_per_clk_per_cu * device.compute_units * device.boost_clock_mhz / 1000
        lds = flops / work.bytes_lds * lds_gbs
    model = None
    if cycles_per_iteration > 0 and flops:
        per_clock_per_simd = flops * waves / cycles_per_iteration
        model = per_clock_per_simd * simds_per_cu * device.compute_units * device.boost_clock_mhz / 1000
    candidates = {"compute": compute, "dram bandwidth": dram, "LDS bandwidth": lds, "issue model": model}
    known = {k: v for k, v in candidates.items() if v is not None}
    bound = min(known, key=lambda k: known[k]) if known and flops else "no floating-point work"
    return Roofs(compute, dram, lds, model, bound, intensity)


def _evaluate_loop(lp: LoopProfile, waves: int, device: DeviceSpec | None, simds_per_cu: int) -> LoopTiming:
    busiest = max(lp.issue_cycles, key=lambda u: lp.issue_cycles[u]) if lp.issue_cycles else "valu"
    busy = lp.issue_cycles.get(busiest, 0)
    throughput = waves * busy
    cycles = float(max(throughput, lp.latency_cycles))
    if throughput >= lp.latency_cycles and busy:
        bottleneck = f"{_UNIT_NAMES.get(busiest, busiest)} issue"
        lines = lp.unit_lines.get(busiest, ())[:8]
    else:
        stalls = {k: v for k, v in lp.stalls.items() if k != "issue"}
        kind = max(stalls, key=lambda k: stalls[k]) if stalls else "in-order issue latency"
        plural = "wave" if waves == 1 else "waves"
        bottleneck = f"{kind} with {waves} {plural} per SIMD"
        lines = lp.stall_lines.get(kind, ())[:8]
    fma_per_clock = lp.work.fma * waves / cycles * simds_per_cu if cycles else 0.0
    roofs = _roofs(lp.work, cycles, waves, device, simds_per_cu) if device is not None else None
    return LoopTiming(lp.header_line, lp.depth, lp.trip_count, lp.trip_assumed, lp.issue_cycles, lp.latency_cycles,
                      waves, cycles, bottleneck, tuple(lines), lp.work, fma_per_clock, roofs)


def evaluate(prof: KernelProfile, *, waves: int | None = None, device: DeviceSpec | None = None,
             simds_per_cu: int = 4) -> KernelTiming:
    """Apply W waves per SIMD (``waves``, else the occupancy model's, else 1) and a device to a profile."""
    assumptions = list(prof.assumptions)
    if waves is not None:
        if waves < 1:
            raise TimingInputError(f"the wave count must be at least 1, not {waves}")
        w, source = waves, "--waves"
    elif prof.occupancy_waves is not None:
        w, source = max(prof.occupancy_waves, 1), "occupancy"
    else:
        w, source = 1, "assumed"
        assumptions.append("1 wave per SIMD assumed: the occupancy is unknown (pass --waves N)")
    loops = tuple(_evaluate_loop(lp, w, device, simds_per_cu) for lp in prof.loops)
    kernel = _evaluate_loop(prof.whole, w, device, simds_per_cu)
    return KernelTiming(prof, w, source, device, loops, kernel, tuple(assumptions))


def kernel_profile_on(kernel: Kernel, arch: ArchSpec, graph: CFG, *, occupancy_waves: int | None = None,
                      trip_counts: Mapping[int, int] | None = None) -> KernelProfile | None:
    """:func:`profile` of a whole kernel with its target's timing table and the class keys the reader stored;
    None when the target has no timing facts (gfx6/gfx7). The pipeline's pass and the ``timing`` command share it."""
    from isalens.arch.timing import timing_family, timing_table

    family = timing_family(arch)
    if family is None:
        return None
    return profile(kernel.instructions, graph, [ins.facts.klass for ins in kernel.instructions],
                   timing_table(family), wave_size=kernel.wave_size, generation=arch.generation,
                   simds_per_cu=arch.simds_per_cu, trip_counts=trip_counts, occupancy_waves=occupancy_waves)
