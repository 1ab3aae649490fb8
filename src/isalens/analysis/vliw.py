"""Slot utilisation, clause checks and ALU/fetch bounds of VLIW5/VLIW4 programs (domain.md §1.4).

Per clause and per program: instruction groups, operations per slot (x, y, z, w, t), utilisation
(operations / (groups x slots per group)), literal slots, the clause's printed count against ours,
GPRs and clause temporaries, fetches, fetched bytes and the ALU:fetch ratio. Per loop: groups per
iteration (each group issues in one clock on a thread processor), MADs, MAD/clk and, for a device,

* ALU bound  = MAD/clk x 2 flop x SIMDs x thread processors per SIMD x clock,
* fetch bound = fetch bandwidth x (2 flop x MADs) / (bytes fetched per iteration),

and which of the two is lower. Slot rules (trans-only operations in t, DOT4-like operations across
x/y/z/w, vector-only operations not in t, no t on Cayman, one operation per slot) are diagnostics.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from isalens.analysis.vliw_timing import (
    DEFAULT_FETCH_LATENCY,
    Occupancy,
    Roofs,
    Timing,
    latency_hiding,
    occupancy,
    timing,
)
from isalens.arch.devices import DeviceSpec
from isalens.arch.vliw_occupancy import OccupancyFacts, occupancy_facts
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.vliw import SLOTS, AluGroup, AluOp, Clause, ClauseKind, Flow, Unit, VliwModule, VliwProgram

__all__ = ["ClauseStats", "DeviceRates", "LoopStats", "ProgramStats", "SlotCounts", "VliwAnalysis", "vliw"]

_VECTOR_SLOTS = frozenset("xyzw")


@dataclass(frozen=True, slots=True)
class SlotCounts:
    """Operations per slot."""

    x: int = 0
    y: int = 0
    z: int = 0
    w: int = 0
    t: int = 0

    @property
    def total(self) -> int:
        return self.x + self.y + self.z + self.w + self.t

    def as_dict(self) -> dict[str, int]:
        return {"x": self.x, "y": self.y, "z": self.z, "w": self.w, "t": self.t}

    @staticmethod
    def of(ops: list[AluOp]) -> SlotCounts:
        counts = dict.fromkeys(SLOTS, 0)
        for op in ops:
            counts[op.slot] += 1
        return SlotCounts(**counts)

    def __add__(self, other: SlotCounts) -> SlotCounts:
        return SlotCounts(self.x + other.x, self.y + other.y, self.z + other.z, self.w + other.w,
                          self.t + other.t)


@dataclass(frozen=True, slots=True)
class ClauseStats:
    """One CF instruction; ALU and fetch clauses with their counts."""

    kernel: str
    index: int
    line: int
    opcode: str
    kind: str
    flow: str
    loop_depth: int
    groups: int
    slot_ops: int
    per_slot: SlotCounts
    literal_slots: int
    slots: int                       # ALU: operations + literal slots; fetch clause: fetches
    count: int | None                # as printed
    declared: int | None             # what the printed count claims, in the unit of ``slots``
    utilization_pct: float | None
    gprs: int                        # distinct GPRs the clause names
    temps: int                       # distinct clause temporaries
    fetches: int
    fetch_bytes: int
    mads: int
    guessed_ops: int
    lds_ops: int = 0                 # Evergreen LDS_* operations (their widths are not printed)

    @property
    def count_ok(self) -> bool | None:
        return None if self.declared is None else self.declared == self.slots


@dataclass(frozen=True, slots=True)
class LoopStats:
    """One loop (LOOP_* .. END_LOOP), counted for one iteration with every clause in it executed once."""

    kernel: str
    start: int                       # CF index of the loop start
    end: int                         # CF index of the loop end
    line: int
    depth: int
    groups: int
    slot_ops: int
    mads: int
    fetches: int
    fetch_bytes: int
    guessed_ops: int
    mads_per_clock: float | None
    gflops: float | None             # ALU bound on the device
    fetch_bound_gflops: float | None
    bound: str | None                # "alu" or "fetch": the lower of the two
    fetch_clauses: int = 0
    timing: Timing | None = None     # clocks per iteration, bottleneck, latency hiding


@dataclass(frozen=True, slots=True)
class ProgramStats:
    """Totals over a program (or, for :attr:`VliwAnalysis.total`, over every program of the file)."""

    name: str
    width: int
    groups: int
    slot_ops: int
    per_slot: SlotCounts
    literal_slots: int
    gprs: int                        # highest GPR index + 1: what the program must allocate
    declared_gprs: int | None
    temps: int                       # most clause temporaries one clause uses
    fetches: int
    fetch_bytes: int
    mads: int
    guessed_ops: int
    clauses: tuple[ClauseStats, ...]
    loops: tuple[LoopStats, ...]
    occupancy: Occupancy | None = None   # per program; None for the total over several
    timing: Timing | None = None         # the whole program, every clause once

    @property
    def utilization_pct(self) -> float | None:
        return 100.0 * self.slot_ops / (self.groups * self.width) if self.groups else None

    @property
    def alu_fetch_ratio(self) -> float | None:
        """Instruction groups (ALU clocks) per fetch instruction."""
        return self.groups / self.fetches if self.fetches else None


@dataclass(frozen=True, slots=True)
class DeviceRates:
    """The device figures the bounds use."""

    name: str
    marketing_name: str
    simds: int
    thread_processors: int           # per SIMD
    clock_mhz: int
    alus_per_sp: int
    fetch_gbs: float | None
    fetch_gbs_source: str | None     # "device" or "override"
    chip: str | None = None
    max_wavefronts: int | None = None  # wavefront slots of the whole chip

    @property
    def fetch_bytes_per_clock(self) -> float | None:
        """Bytes the fetch path delivers per clock per SIMD: GB/s / (SIMDs x GHz)."""
        if self.fetch_gbs is None or not self.simds or not self.clock_mhz:
            return None
        return self.fetch_gbs * 1000 / (self.simds * self.clock_mhz)

    @property
    def peak_gflops(self) -> float:
        """Every slot doing a MAD every clock."""
        return self.alus_per_sp * 2 * self.simds * self.thread_processors * self.clock_mhz / 1000

    def alu_gflops(self, mads_per_clock: float) -> float:
        return mads_per_clock * 2 * self.simds * self.thread_processors * self.clock_mhz / 1000


@dataclass(frozen=True, slots=True)
class VliwAnalysis:
    """Everything :func:`vliw` found about a module."""

    file: str
    dialect: str
    generation: str
    generation_source: str
    width: int
    device: DeviceRates | None
    programs: tuple[ProgramStats, ...]
    total: ProgramStats
    diagnostics: tuple[Diagnostic, ...]


class _Checker:
    def __init__(self, file: str, width: int) -> None:
        self.file = file
        self.width = width
        self.items: list[Diagnostic] = []

    def add(self, severity: Severity, code: str, line: int | None, message: str) -> None:
        self.items.append(Diagnostic(severity, code, message, self.file, line))

    def group(self, group: AluGroup, where: str) -> None:
        by_slot: dict[str, list[AluOp]] = defaultdict(list)
        for op in group.ops:
            by_slot[op.slot].append(op)
        for slot, ops in by_slot.items():
            if len(ops) > 1:
                lines = ", ".join(str(op.line) for op in ops)
                self.add(Severity.ERROR, "vliw-slot-conflict", ops[1].line,
                         f"{where}: {len(ops)} operations in slot {slot} (lines {lines}); a slot holds one")
        if group.literal_slots > 2:
            self.add(Severity.WARNING, "vliw-literal", group.line,
                     f"{where}: {group.literal_slots} literal slots; a group holds at most 2 (4 dwords)")
        for op in group.ops:
            label = f"{where}: {op.opcode} in slot {op.slot}"
            if self.width == 4 and op.slot == "t":
                self.add(Severity.WARNING, "vliw-cayman-t", op.line, f"{label}, but Cayman (VLIW4) has no t slot")
            elif op.unit is Unit.TRANS and op.slot != "t":
                self.add(Severity.WARNING, "vliw-trans-slot", op.line, f"{label}: it runs only in the t slot")
            elif op.unit in (Unit.VECTOR, Unit.REDUCTION) and op.slot == "t":
                self.add(Severity.WARNING, "vliw-vector-slot", op.line, f"{label}: it runs only in x, y, z or w")
        reductions: dict[str, set[str]] = defaultdict(set)
        for op in group.ops:
            if op.unit is Unit.REDUCTION:
                reductions[op.name].add(op.slot)
        for name, slots in reductions.items():
            if slots != _VECTOR_SLOTS:
                have = ", ".join(s for s in SLOTS if s in slots)
                self.add(Severity.WARNING, "vliw-reduction", group.line,
                         f"{where}: {name} must occupy all of x, y, z and w (found in {have})")


def _clause_stats(kernel: str, clause: Clause, depth: int, width: int, checker: _Checker) -> ClauseStats:
    ops = [op for g in clause.groups for op in g.ops]
    for i, group in enumerate(clause.groups):
        number = group.number if group.number is not None else i
        checker.group(group, f"clause {clause.index:02d} group {number}")
    literal = sum(g.literal_slots for g in clause.groups)
    if clause.kind is ClauseKind.FETCH:
        slots = len(clause.fetches)
    elif clause.kind is ClauseKind.ALU:
        slots = len(ops) + literal
    else:
        slots = 0
    stats = ClauseStats(
        kernel=kernel, index=clause.index, line=clause.line, opcode=clause.opcode, kind=clause.kind.value,
        flow=clause.flow.value, loop_depth=depth, groups=len(clause.groups), slot_ops=len(ops),
        per_slot=SlotCounts.of(ops), literal_slots=literal, slots=slots, count=clause.count,
        declared=clause.declared,
        utilization_pct=100.0 * len(ops) / (len(clause.groups) * width) if clause.groups else None,
        gprs=len({r for op in ops for r in op.gprs} | {r for f in clause.fetches for r in f.gprs} | set(clause.gprs)),
        temps=len({r for op in ops for r in op.temps}),
        fetches=len(clause.fetches), fetch_bytes=sum(f.bytes for f in clause.fetches),
        mads=sum(1 for op in ops if op.mad),
        guessed_ops=sum(1 for op in ops if not op.known) + sum(1 for f in clause.fetches if not f.known),
        lds_ops=sum(1 for op in ops if op.name.startswith("LDS_")),
    )
    if stats.count_ok is False:
        if clause.kind is ClauseKind.ALU:
            detail = f"{stats.slot_ops} operations + {literal} literal slots = {slots} slots"
        else:
            detail = f"{slots} fetch instructions"
        checker.add(Severity.WARNING, "vliw-cnt", clause.line,
                    f"clause {clause.index:02d} {clause.opcode}: the header declares {stats.declared} but the "
                    f"body has {detail}")
    return stats


@dataclass(frozen=True, slots=True)
class _Context:
    """What the timing of every loop of a program shares."""

    device: DeviceRates | None
    facts: OccupancyFacts
    occupancy: Occupancy
    fetch_latency: int


def _bounds(device: DeviceRates | None, groups: int, mads: int,
            fetch_bytes: int) -> tuple[float | None, float | None, float | None, str | None]:
    """MAD/clk, the ALU-bound and fetch-bound Gflop/s, and which is lower."""
    per_clock = mads / groups if groups else None
    gflops = device.alu_gflops(per_clock) if device is not None and per_clock is not None else None
    fetch_bound: float | None = None
    if device is not None and device.fetch_gbs is not None and fetch_bytes and mads:
        fetch_bound = device.fetch_gbs * 2 * mads / fetch_bytes
    bound: str | None = None
    if gflops is not None and fetch_bound is not None:
        bound = "fetch" if fetch_bound < gflops else "alu"
    elif gflops is not None:
        bound = "alu"
    return per_clock, gflops, fetch_bound, bound


def _timing(ctx: _Context, body: list[ClauseStats], header_line: int, depth: int | None) -> Timing:
    groups, mads = sum(c.groups for c in body), sum(c.mads for c in body)
    fetch_bytes = sum(c.fetch_bytes for c in body)
    hiding = latency_hiding(ctx.occupancy, groups=groups,
                            fetch_clauses=sum(1 for c in body if c.kind == ClauseKind.FETCH.value),
                            fetch_latency=ctx.fetch_latency, clocks_per_group=ctx.facts.clocks_per_group)
    device = ctx.device
    result = timing(hiding, ctx.occupancy, header_line=header_line, depth=depth, mads=mads,
                    fetch_bytes=fetch_bytes, lds_ops=sum(c.lds_ops for c in body),
                    wavefront_size=ctx.facts.wavefront_size,
                    fetch_bytes_per_clock=None if device is None else device.fetch_bytes_per_clock)
    if device is None:
        return result
    _, alu, fetch, bound = _bounds(device, groups, mads, fetch_bytes)
    # flops per work-item x work-items per wavefront, per SIMD clock, on every SIMD
    estimate = (result.flops * ctx.facts.wavefront_size * device.simds * device.clock_mhz / 1000
                / result.cycles_per_iteration) if result.cycles_per_iteration else None
    return replace(result, roofs=Roofs(alu_gflops=alu, fetch_gflops=fetch, bound=bound, gflops=estimate))


def _loop(kernel: str, start: Clause, end: Clause, depth: int, body: list[ClauseStats], ctx: _Context) -> LoopStats:
    groups = sum(c.groups for c in body)
    mads = sum(c.mads for c in body)
    fetch_bytes = sum(c.fetch_bytes for c in body)
    per_clock, gflops, fetch_bound, bound = _bounds(ctx.device, groups, mads, fetch_bytes)
    return LoopStats(
        kernel=kernel, start=start.index, end=end.index, line=start.line, depth=depth, groups=groups,
        slot_ops=sum(c.slot_ops for c in body), mads=mads, fetches=sum(c.fetches for c in body),
        fetch_bytes=fetch_bytes, guessed_ops=sum(c.guessed_ops for c in body), mads_per_clock=per_clock,
        gflops=gflops, fetch_bound_gflops=fetch_bound, bound=bound,
        fetch_clauses=sum(1 for c in body if c.kind == ClauseKind.FETCH.value),
        timing=_timing(ctx, body, start.line, depth),
    )


def _gprs(program: VliwProgram) -> int:
    regs = [r for c in program.clauses for r in c.gprs]
    regs += [r for c in program.clauses for g in c.groups for op in g.ops for r in op.gprs]
    regs += [r for c in program.clauses for f in c.fetches for r in f.gprs]
    return max(regs) + 1 if regs else 0


def _program(program: VliwProgram, width: int, ctx: _Context, checker: _Checker) -> ProgramStats:
    clauses: list[ClauseStats] = []
    loops: list[LoopStats] = []
    open_loops: list[tuple[Clause, int]] = []   # (start clause, position in ``clauses``)
    for clause in program.clauses:
        if clause.flow is Flow.LOOP_END:
            if open_loops:
                start, pos = open_loops.pop()
                loops.append(_loop(program.name, start, clause, len(open_loops), clauses[pos + 1:], ctx))
            else:
                checker.add(Severity.WARNING, "vliw-loop", clause.line,
                            f"{clause.opcode} without a loop start before it")
        clauses.append(_clause_stats(program.name, clause, len(open_loops), width, checker))
        if clause.flow is Flow.LOOP_START:
            open_loops.append((clause, len(clauses) - 1))
    for start, _ in open_loops:
        checker.add(Severity.WARNING, "vliw-loop", start.line, f"{start.opcode} without a matching loop end")
    loops.sort(key=lambda lp: lp.start)
    ops_counts = SlotCounts()
    for c in clauses:
        ops_counts = ops_counts + c.per_slot
    if program.declared_gprs is not None and program.declared_gprs != _gprs(program):
        checker.add(Severity.NOTE, "vliw-gprs", program.line,
                    f"{program.name}: the code names {_gprs(program)} GPRs, the compiler declares "
                    f"{program.declared_gprs}")
    return ProgramStats(
        name=program.name, width=width, groups=sum(c.groups for c in clauses),
        slot_ops=sum(c.slot_ops for c in clauses), per_slot=ops_counts,
        literal_slots=sum(c.literal_slots for c in clauses), gprs=_gprs(program),
        declared_gprs=program.declared_gprs, temps=max((c.temps for c in clauses), default=0),
        fetches=sum(c.fetches for c in clauses), fetch_bytes=sum(c.fetch_bytes for c in clauses),
        mads=sum(c.mads for c in clauses), guessed_ops=sum(c.guessed_ops for c in clauses),
        clauses=tuple(clauses), loops=tuple(loops), occupancy=ctx.occupancy,
        timing=_timing(ctx, clauses, program.line, None),
    )


def _total(programs: list[ProgramStats], width: int) -> ProgramStats:
    if len(programs) == 1:
        return programs[0]
    per_slot = SlotCounts()
    for p in programs:
        per_slot = per_slot + p.per_slot
    declared = [p.declared_gprs for p in programs if p.declared_gprs is not None]
    return ProgramStats(
        name="total", width=width, groups=sum(p.groups for p in programs),
        slot_ops=sum(p.slot_ops for p in programs), per_slot=per_slot,
        literal_slots=sum(p.literal_slots for p in programs), gprs=max((p.gprs for p in programs), default=0),
        declared_gprs=max(declared) if declared else None, temps=max((p.temps for p in programs), default=0),
        fetches=sum(p.fetches for p in programs), fetch_bytes=sum(p.fetch_bytes for p in programs),
        mads=sum(p.mads for p in programs), guessed_ops=sum(p.guessed_ops for p in programs),
        clauses=tuple(c for p in programs for c in p.clauses), loops=tuple(lp for p in programs for lp in p.loops),
    )


def device_rates(device: DeviceSpec, fetch_gbs: float | None = None) -> DeviceRates:
    """The figures of ``device`` the bounds need; ``fetch_gbs`` overrides its fetch bandwidth."""
    per_simd = device.stream_processors // (device.compute_units * device.alus_per_sp) if device.compute_units else 0
    if fetch_gbs is not None:
        gbs, source = fetch_gbs, "override"
    elif device.tex_fetch_gbs is not None:
        gbs, source = device.tex_fetch_gbs, "device"
    else:
        gbs, source = None, None
    return DeviceRates(name=device.name, marketing_name=device.marketing_name, simds=device.compute_units,
                       thread_processors=per_simd, clock_mhz=device.boost_clock_mhz,
                       alus_per_sp=device.alus_per_sp, fetch_gbs=gbs, fetch_gbs_source=source,
                       chip=device.target if device.is_vliw else None, max_wavefronts=device.max_wavefronts)


def _program_occupancy(program: VliwProgram, module: VliwModule, rates: DeviceRates | None,
                       facts: OccupancyFacts) -> Occupancy:
    # the hardware allocates what the compiler declares (NUM_GPRS) when the dump says it
    gprs = program.declared_gprs if program.declared_gprs is not None else _gprs(program)
    if rates is None or rates.chip is None:
        return occupancy(facts, module.generation, gprs, chip=module.chip)
    return occupancy(facts, module.generation, gprs, chip=rates.chip, simds=rates.simds,
                     chip_wavefronts=rates.max_wavefronts)


def vliw(module: VliwModule, *, device: DeviceSpec | None = None, fetch_gbs: float | None = None,
         fetch_latency: int = DEFAULT_FETCH_LATENCY) -> VliwAnalysis:
    """Analyse every program of ``module``; with ``device``, bound its loops by the ALUs and the fetch path.

    ``fetch_latency`` is the clocks one fetch clause waits (default: the seed's 180-clock L1 hit).
    """
    checker = _Checker(module.file, module.width)
    rates = device_rates(device, fetch_gbs) if device is not None else None
    if device is not None:
        if not device.is_vliw:
            checker.add(Severity.WARNING, "vliw-device", None,
                        f"device {device.name} is not a VLIW part ({device.isa}); its rates do not apply")
        elif device.alus_per_sp != module.width:
            checker.add(Severity.WARNING, "vliw-device", None,
                        f"device {device.name} has {device.alus_per_sp} ALUs per thread processor but the code was "
                        f"read as {module.generation} ({module.width} slots per group)")
    facts = occupancy_facts()
    programs = [_program(p, module.width, _Context(rates, facts, _program_occupancy(p, module, rates, facts),
                                                   fetch_latency), checker)
                for p in module.programs]
    total = _total(programs, module.width)
    if rates is not None and rates.fetch_gbs is None and any(lp.fetch_bytes for lp in total.loops):
        checker.add(Severity.NOTE, "vliw-fetch-bandwidth", None,
                    f"no fetch bandwidth known for {rates.name}; give one (--fetch-gbs) for the fetch bound")
    return VliwAnalysis(
        file=module.file, dialect=module.dialect, generation=module.generation,
        generation_source=module.generation_source, width=module.width, device=rates, programs=tuple(programs),
        total=total, diagnostics=(*module.diagnostics, *checker.items),
    )
