"""Per-instruction costs the schedule reads: the ISA's timing facts (``isa/amdgcn/timing_facts``) joined with the
family's cycles (``arch/timing``): unit, issue cycles, latency, counter limits, work and hazard checks."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from isalens import _core
from isalens.analysis.timing.model import Work
from isalens.arch.timing import ClassTiming, HazardRule, TimingTable
from isalens.ir.instruction import Instruction
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, SPECIAL_BASE, SPECIAL_UNIT
from isalens.isa.amdgcn.timing_facts import FactsKey, TimingFacts, facts_key, timing_facts

__all__ = ["InstructionCosts", "instruction_costs"]


@dataclass(slots=True)
class InstructionCosts:
    """Per-instruction facts the simulation reads, computed once."""

    klass: str
    timing: ClassTiming
    issue: int
    uses: tuple[int, ...]
    defs: tuple[int, ...]
    #: (counter, most outstanding ops allowed) of a wait, in the order the instruction names them
    waits: tuple[tuple[str, int], ...]
    work: Work
    memory: bool
    #: (wait states, producer kind, register units read) per hazard rule this instruction is a consumer of
    hazard_checks: tuple[tuple[int, str, tuple[int, ...]], ...] = ()
    #: producer kind ("valu", "salu") when some hazard rule names it, else ""
    producer: str = ""
    barrier: bool = False
    #: its class has no timing entry: timed as a full-rate VALU op (the kernel's assumptions say so)
    untimed: bool = False
    #: its bytes are register data of a format conversion (:attr:`TimingFacts.converted`)
    converted: bool = False
    # copies of hot fields for the simulation loop
    unit: str = ""
    latency: int = 0
    nop: bool = False

    def __post_init__(self) -> None:
        self.unit = self.timing.unit
        self.latency = self.timing.latency
        self.nop = self.klass == "nop"


def _work(facts: TimingFacts, wave_size: int) -> Work:
    if facts.traffic == "global":
        return Work(bytes_global=facts.lane_bytes * wave_size)
    if facts.traffic == "lds":
        return Work(bytes_lds=facts.lane_bytes * wave_size)
    if facts.flops:
        scale = 1 if facts.per_wave else wave_size
        return Work({p: n * scale for p, n in facts.flops}, fma=facts.fma * scale)
    return Work()


def _issue(facts: TimingFacts, klass: str, timing: ClassTiming, table: TimingTable, wave_size: int,
           lds_bytes_per_clk_per_simd: float) -> int:
    issue = timing.issue(wave_size)
    if klass == "nop":
        return max(issue, facts.nop_count + 1)  # s_nop N is N+1 wait states [ISA: program flow, s_nop]
    if facts.mfma_shape:
        return 4 * table.mfma_passes.get(facts.mfma_shape, issue // 4)
    if klass.startswith("ds.") and lds_bytes_per_clk_per_simd > 0:
        return max(issue, math.ceil(facts.lane_bytes * wave_size / lds_bytes_per_clk_per_simd))
    return issue


_REGISTER_KINDS: dict[str, Callable[[int], bool]] = {
    "sgpr": lambda u: SGPR_BASE <= u < SPECIAL_BASE,
    "vgpr": lambda u: u < AGPR_BASE,
    "vcc": lambda u: u in (SPECIAL_UNIT["vcc_lo"], SPECIAL_UNIT["vcc_hi"]),
    "exec": lambda u: u in (SPECIAL_UNIT["exec_lo"], SPECIAL_UNIT["exec_hi"]),
    "m0": lambda u: u == SPECIAL_UNIT["m0"],
}


def _rules_of(klass: str, base: str, dpp: bool, rules: Sequence[HazardRule],
              ) -> tuple[tuple[HazardRule, ...], str]:
    """The hazard rules a (class, base mnemonic, DPP) consumer is under, and the class's producer kind."""
    applying = tuple(rule for rule in rules if rule.applies(klass, base, dpp))
    producer = next((r.producer for r in rules if klass == r.producer or klass.startswith(r.producer + ".")), "")
    return applying, producer


def _hazard_facts(facts: TimingFacts, klass: str, uses: tuple[int, ...], rules: Sequence[HazardRule],
                  by_kind: dict[tuple[str, str, bool], tuple[tuple[HazardRule, ...], str]] | None = None,
                  ) -> tuple[tuple[tuple[int, str, tuple[int, ...]], ...], str]:
    """The hazard rules an instruction must respect as a consumer, and its producer kind (``by_kind``: a memo of
    :func:`_rules_of` for these ``rules``: a kernel's ~12k distinct texts have a few hundred such kinds)."""
    kind = (klass, facts.base, facts.dpp)
    held = by_kind.get(kind) if by_kind is not None else None
    if held is None:
        held = _rules_of(klass, facts.base, facts.dpp, rules)
        if by_kind is not None:
            by_kind[kind] = held
    applying, producer = held
    checks = []
    for rule in applying:
        units = tuple(u for u in uses if _REGISTER_KINDS[rule.registers](u))
        if units:
            checks.append((rule.wait_states, rule.producer, units))
    return tuple(checks), producer


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_ByText = dict[tuple[str, str, int, int], InstructionCosts]
_ByShape = dict[tuple[FactsKey, int, int], InstructionCosts]
#: costs by (text, class, uses, defs), and by (:func:`~isalens.isa.amdgcn.timing_facts.facts_key`, uses, defs)
#: (what the costs are computed from: texts that differ only in an offset share one), per timing table (kept
#: alive beside its memos, so its id stays its own), wave size, generation and LDS rate; memos past the limit
#: start again
_MEMO: dict[tuple[int, int, int, float], tuple[TimingTable, _ByText, _ByShape]] = {}
_MEMO_LIMIT = 100_000


def _memo(table: TimingTable, wave_size: int, generation: int, lds_per_simd: float) -> tuple[_ByText, _ByShape]:
    key = (id(table), wave_size, generation, lds_per_simd)
    held = _MEMO.get(key)
    if held is None or held[0] is not table or len(held[1]) > _MEMO_LIMIT or len(held[2]) > _MEMO_LIMIT:
        held = _MEMO[key] = (table, {}, {})
    return held[1], held[2]


def instruction_costs(instructions: Sequence[Instruction], classes: Sequence[str], table: TimingTable, *,
                      wave_size: int, generation: int, lds_per_simd: float,
                      ) -> tuple[list[InstructionCosts], set[str]]:
    """The costs of every instruction and the instructions whose class has no timing entry (timed as the
    full-rate VALU op ``valu.int``). Instructions whose costs are computed from the same facts key, uses and defs
    share one costs object."""
    unknown_classes: set[str] = set()
    fallback = table.classes["valu.int"]
    # compiler output repeats instruction texts, within a kernel and across the kernels of a library: look each
    # distinct one up once per process; and texts that differ only in an offset or a literal have the same costs
    # (the dense 100k benchmark: 12,375 texts, 925 costs): compute those once
    memo, shapes = _memo(table, wave_size, generation, lds_per_simd)
    regs: dict[int, tuple[int, ...]] = {}
    by_kind: dict[tuple[str, str, bool], tuple[tuple[HazardRule, ...], str]] = {}
    # the memo's costs are looked up by the core's loop (_core.keyed_costs, compiled when built: a gfx1030 scan
    # sample's 1.08 M lookups); the first instruction of each key it lacks is costed here, then the loop again
    costs: list[Any] = [None] * len(instructions)
    missing, untimed_at = _core.keyed_costs(instructions, classes, memo, costs)
    if missing:
        for i in missing:
            ins, klass = instructions[i], classes[i]
            fkey = facts_key(ins, klass)
            shape = (fkey, ins.uses, ins.defs)
            st = shapes.get(shape)
            if st is None:
                timing = table.of(klass)
                untimed = timing is None
                if timing is None:
                    timing = fallback
                uses = regs.get(ins.uses)
                if uses is None:
                    uses = regs[ins.uses] = tuple(_bits(ins.uses))
                defs = regs.get(ins.defs)
                if defs is None:
                    defs = regs[ins.defs] = tuple(_bits(ins.defs))
                facts = timing_facts(ins, klass, generation, fkey)
                st = shapes[shape] = InstructionCosts(
                    klass, timing, _issue(facts, klass, timing, table, wave_size, lds_per_simd), uses, defs,
                    facts.waits, _work(facts, wave_size), bool(timing.counters),
                    *_hazard_facts(facts, klass, uses, table.hazards, by_kind), facts.barrier, untimed,
                    facts.converted)
            memo[(ins.text, klass, ins.uses, ins.defs)] = st
        missing, untimed_at = _core.keyed_costs(instructions, classes, memo, costs)
        assert not missing
    for i in untimed_at:  # on every kernel that has one, not only the first to meet its text
        ins = instructions[i]
        unknown_classes.add(f"{ins.mnemonic} ({classes[i]})")
    return costs, unknown_classes
