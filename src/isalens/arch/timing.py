"""Per-family timing facts (``arch/data/timing_<family>.toml``): for every instruction class key, the unit
it occupies, issue cycles per wave32/wave64 instruction, latency to a dependent instruction and the
``s_waitcnt`` counter it increments. Each figure's source is cited in the TOML files."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from typing import Any

from isalens.arch.devices import DeviceSpec
from isalens.arch.model import ArchSpec
from isalens.patterns import matches

__all__ = ["MEMORY_LEVELS", "UNITS", "AcoCosts", "AcoPerf", "ClassTiming", "HazardRule", "MemoryLatency",
           "TimingTable", "aco_costs", "device_table", "memory_latency", "memory_table", "target_table",
           "timing_family", "timing_table", "timing_tables"]

#: execution resources, in display order
UNITS = ("valu", "trans", "matrix", "salu", "smem", "vmem", "lds", "export", "branch", "sequencer")
#: every family that has a table
FAMILIES = ("gfx8", "gfx9", "cdna1", "cdna2", "cdna3", "gfx10", "gfx11", "gfx12")
_FIELDS = {"unit", "issue32", "issue64", "latency", "counter"}
_COUNTERS = {"vmcnt", "vscnt", "lgkmcnt", "expcnt", "loadcnt", "storecnt", "samplecnt", "bvhcnt", "dscnt", "kmcnt"}


@dataclass(frozen=True, slots=True)
class ClassTiming:
    """Timing of one instruction class on one family."""

    unit: str
    issue32: int
    issue64: int
    latency: int
    #: counters the instruction increments (``("vmcnt", "lgkmcnt")`` for flat), empty for none
    counters: tuple[str, ...] = ()

    def issue(self, wave_size: int) -> int:
        return self.issue32 if wave_size == 32 else self.issue64


@dataclass(frozen=True, slots=True)
class HazardRule:
    """Wait states a consumer must leave after a producer wrote registers it reads (see the TOML)."""

    producer: str
    registers: str
    consumer: tuple[str, ...]
    mnemonics: tuple[str, ...]
    dpp: bool
    wait_states: int

    def applies(self, klass: str, mnemonic: str, is_dpp: bool) -> bool:
        if self.dpp and not is_dpp:
            return False
        if self.mnemonics:
            return matches(mnemonic, self.mnemonics)
        return matches(klass, self.consumer)


_HAZARD_REGISTERS = {"sgpr", "vgpr", "vcc", "exec", "m0"}

#: the levels a vector-memory load may hit, nearest first (``--memory-level``); ``mall`` is AMD's Infinity Cache
MEMORY_LEVELS = ("l1", "l2", "mall", "dram")


@dataclass(frozen=True, slots=True)
class MemoryLatency:
    """Load-to-use latency (cycles at the shader clock) of a vector-memory load by the level it hits, and of an
    LDS read (``[memory]`` of a family table, a device's own figures over it; each figure cited there)."""

    l1: int
    l2: int
    dram: int
    #: None where no LDS latency was measured for the family (its classes keep their own latency)
    lds: int | None = None
    #: None where the part has no MALL (Infinity Cache) or no published figure
    mall: int | None = None
    #: where the figures come from (the family's table, a device)
    source: str = ""

    def of(self, level: str) -> int | None:
        return {"l1": self.l1, "l2": self.l2, "mall": self.mall, "dram": self.dram}[level]


def _memory(where: str, raw: Any) -> MemoryLatency:
    fields_ = {"l1", "l2", "mall", "dram", "lds"}
    if not isinstance(raw, dict) or set(raw) - fields_ or not {"l1", "l2", "dram"} <= set(raw):
        raise ValueError(f"{where}: expected l1, l2, dram (and optionally mall, lds) in cycles")
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{where}: {key} must be a positive number of cycles, not {value!r}")
    return MemoryLatency(raw["l1"], raw["l2"], raw["dram"], raw.get("lds"), raw.get("mall"), where)


def _hazard(where: str, raw: Any) -> HazardRule:
    if not isinstance(raw, dict) or set(raw) - {"producer", "registers", "consumer", "mnemonics", "dpp",
                                                "wait_states"}:
        raise ValueError(f"{where}: unknown fields")
    if raw.get("registers") not in _HAZARD_REGISTERS or not isinstance(raw.get("wait_states"), int):
        raise ValueError(f"{where}: registers must be one of {sorted(_HAZARD_REGISTERS)}, wait_states a number")
    return HazardRule(str(raw["producer"]), str(raw["registers"]), tuple(raw.get("consumer", ())),
                      tuple(raw.get("mnemonics", ())), bool(raw.get("dpp", False)), int(raw["wait_states"]))


@dataclass(frozen=True, slots=True)
class TimingTable:
    family: str
    classes: dict[str, ClassTiming]
    #: MFMA passes (4 cycles each) by ``MxN`` shape
    mfma_passes: dict[str, int]
    lds_bytes_per_clk: int
    wave64_only: bool
    #: cycles between two instructions of one wave (4 on GCN, 1 on RDNA)
    issue_interval: int = 1
    hazards: tuple[HazardRule, ...] = ()
    #: classes whose rate differs on one target of the family (``[target.gfx906.classes]``)
    targets: dict[str, dict[str, ClassTiming]] = field(default_factory=dict)
    #: latencies by memory level (``[memory]``); None in a table without one
    memory: MemoryLatency | None = None

    def of(self, klass: str) -> ClassTiming | None:
        return self.classes.get(klass)


def _entry(where: str, raw: Any) -> ClassTiming:
    if not isinstance(raw, dict) or set(raw) - _FIELDS:
        raise ValueError(f"{where}: expected a table with fields {sorted(_FIELDS)}")
    unit = raw.get("unit")
    if unit not in UNITS:
        raise ValueError(f"{where}: unit {unit!r} is not one of {', '.join(UNITS)}")
    issue64 = raw.get("issue64")
    issue32 = raw.get("issue32", issue64)
    latency = raw.get("latency")
    for name, value in (("issue64", issue64), ("issue32", issue32), ("latency", latency)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{where}: {name} must be a non-negative integer, not {value!r}")
    counters = tuple(c for c in str(raw.get("counter", "")).split("+") if c)
    if set(counters) - _COUNTERS:
        raise ValueError(f"{where}: unknown counter in {raw.get('counter')!r}")
    assert isinstance(issue32, int) and isinstance(issue64, int) and isinstance(latency, int)
    return ClassTiming(str(unit), issue32, issue64, latency, counters)


@cache
def _raw(family: str) -> dict[str, Any]:
    path = resources.files("isalens.arch") / "data" / f"timing_{family}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


@cache
def timing_table(family: str) -> TimingTable:
    """The table of ``family`` (one of :data:`FAMILIES`), inherited entries resolved; ValueError if malformed."""
    if family not in FAMILIES:
        raise ValueError(f"no timing facts for family {family!r} (known: {', '.join(FAMILIES)})")
    doc = _raw(family)
    base = timing_table(doc["inherit"]) if "inherit" in doc else None
    unknown = set(doc) - {"family", "inherit", "classes", "mfma_passes", "lds_bytes_per_clk", "wave64_only",
                             "issue_interval", "hazard", "target", "memory"}
    if unknown:
        raise ValueError(f"timing_{family}.toml: unknown keys {sorted(unknown)}")
    classes = dict(base.classes) if base else {}
    for key, raw in doc.get("classes", {}).items():
        classes[key] = _entry(f"timing_{family}.toml [classes.{key}]", raw)
    passes = dict(base.mfma_passes) if base else {}
    passes.update(doc.get("mfma_passes", {}))
    lds = doc.get("lds_bytes_per_clk", base.lds_bytes_per_clk if base else 128)
    wave64_only = doc.get("wave64_only", base.wave64_only if base else False)
    interval = doc.get("issue_interval", base.issue_interval if base else 1)
    hazards = tuple(_hazard(f"timing_{family}.toml [[hazard]] #{i + 1}", raw)
                    for i, raw in enumerate(doc.get("hazard", []))) if "hazard" in doc else (
        base.hazards if base else ())
    targets = {name: dict(classes) for name, classes in (base.targets if base else {}).items()}
    for name, raw in doc.get("target", {}).items():
        targets.setdefault(name, {}).update(
            {key: _entry(f"timing_{family}.toml [target.{name}.classes.{key}]", entry)
             for key, entry in raw.get("classes", {}).items()})
    memory = _memory(f"timing_{family}.toml [memory]", doc["memory"]) if "memory" in doc else (
        base.memory if base else None)
    return TimingTable(family, classes, passes, int(lds), bool(wave64_only), int(interval), hazards, targets, memory)


def target_table(table: TimingTable, target: str) -> TimingTable:
    """``table`` with the class rates that differ on ``target`` (gfx906's half-rate ``v_mul_lo_u32``); the
    same object when nothing differs."""
    changes = table.targets.get(target)
    if not changes:
        return table
    key = (table.family, target)
    held = _TARGET_TABLES.get(key)
    if held is None or held[0] is not table:
        held = _TARGET_TABLES[key] = (table, replace(table, classes={**table.classes, **changes}, targets={}))
    return held[1]


_TARGET_TABLES: dict[tuple[str, str], tuple[TimingTable, TimingTable]] = {}


def device_table(table: TimingTable, device: DeviceSpec | None) -> TimingTable:
    """``table`` with the rates that differ by product taken from ``device`` (issue 29 item 1).

    Today that is the FP64 rate: ``valu.f64`` issues in (full-rate issue) / (the device's FP64 ratio) cycles,
    the ratio from its cited FP64 and FP32 peaks (Radeon VII 1/4, MI50/MI60 and Radeon Pro VII 1/2, MI200/MI300
    1:1). The table without a device keeps the family's consumer rate. The same table object comes back when
    nothing differs, so per-table memos stay shared."""
    ratio = device.fp64_ratio if device is not None else None
    f64 = table.classes.get("valu.f64")
    full = table.classes.get("valu.int")
    if ratio is None or f64 is None or full is None:
        return table
    issue32 = max(1, round(full.issue32 / ratio))
    issue64 = max(1, round(full.issue64 / ratio))
    if (issue32, issue64) == (f64.issue32, f64.issue64):
        return table
    # the family's latency scales with the rate (it is the issue time plus the pipeline on these tables)
    latency = max(issue64, round(f64.latency * issue64 / max(f64.issue64, 1)))
    scaled = ClassTiming(f64.unit, issue32, issue64, latency, f64.counters)
    key = (table.family, id(table), ratio)
    held = _DEVICE_TABLES.get(key)
    if held is None or held[0] is not table:
        held = _DEVICE_TABLES[key] = (table, replace(table, classes={**table.classes, "valu.f64": scaled}))
    return held[1]


#: per-device tables by (family, FP64 ratio), with the family table they were made from
_DEVICE_TABLES: dict[tuple[str, int, float], tuple[TimingTable, TimingTable]] = {}


def memory_latency(table: TimingTable, device: DeviceSpec | None) -> MemoryLatency | None:
    """The family's latencies by memory level with ``device``'s own measured figures over them."""
    base = table.memory
    if base is None:
        return None
    if device is None:
        return base
    own = {"l1": device.l1_latency_cycles, "l2": device.l2_latency_cycles, "mall": device.mall_latency_cycles,
           "dram": device.dram_latency_cycles, "lds": device.lds_latency_cycles}
    given = {k: v for k, v in own.items() if v is not None}
    if not given:
        return base
    return replace(base, **given, source=f"device {device.name} ({', '.join(sorted(given))}), else {base.source}")


def scalar_level_latency(table: TimingTable, mem: MemoryLatency, level: str) -> int | None:
    """A scalar load's latency when it misses the scalar cache to ``level`` (l2, mall, dram; None at l1, where it
    hits the scalar cache, or without a figure): the vector path's latency at that level with the vector L1/L0's
    own hit latency replaced by the scalar cache's. Beyond the first-level cache both paths share the L2 and
    what lies behind it (AMD's GCN and RDNA whitepapers: the scalar cache, like the vector L1, is backed by L2),
    so they differ by what the first-level lookup costs."""
    smem = table.classes.get("smem.load")
    cycles = mem.of(level)
    if level == "l1" or smem is None or cycles is None:
        return None
    return max(cycles - mem.l1 + smem.latency, smem.latency)


def _level_latency(klass: str, timing: ClassTiming, mem: MemoryLatency, load_cycles: int,
                   scalar_cycles: int | None = None) -> int | None:
    """The latency a class takes at a memory level; None for classes levels do not touch."""
    if timing.unit == "lds" and klass.startswith("ds."):
        return mem.lds
    if klass == "smem.load":
        return scalar_cycles
    if timing.unit != "vmem":
        return None
    # a store completes when L2 has it (the vector L1/L0 is write-through: AMD GCN and RDNA whitepapers), so
    # its latency is L2's at every level; loads, samples and atomics return from the level they hit
    return mem.l2 if klass.endswith(".store") else load_cycles


def memory_table(table: TimingTable, mem: MemoryLatency | None, level: str, *, scalar: bool = False) -> TimingTable:
    """``table`` with vector-memory loads taking ``level``'s latency and LDS reads ``mem.lds`` (issue 29 item 3);
    with ``scalar`` (an explicit ``--memory-level``) scalar loads miss the scalar cache to ``level`` too
    (:func:`scalar_level_latency`). The same table when it has no memory figures. ValueError when the level has no
    figure (no MALL)."""
    if mem is None:
        return table
    cycles = mem.of(level)
    if cycles is None:
        raise ValueError(f"no {level.upper()} latency: the part has no MALL (Infinity Cache) or no published figure")
    scalar_cycles = scalar_level_latency(table, mem, level) if scalar else None
    key = (id(table), mem, level, scalar)
    held = _MEMORY_TABLES.get(key)
    if held is not None and held[0] is table:
        return held[1]
    changed = {}
    for klass, timing in table.classes.items():
        latency = _level_latency(klass, timing, mem, cycles, scalar_cycles)
        if latency is not None and latency != timing.latency:
            changed[klass] = replace(timing, latency=latency)
    out = replace(table, classes={**table.classes, **changed}) if changed else table
    _MEMORY_TABLES[key] = (table, out)
    return out


_MEMORY_TABLES: dict[tuple[int, MemoryLatency, str, bool], tuple[TimingTable, TimingTable]] = {}


def timing_tables() -> dict[str, TimingTable]:
    return {f: timing_table(f) for f in FAMILIES}


_CDNA = {"gfx908": "cdna1", "gfx90a": "cdna2"}


def timing_family(arch: ArchSpec) -> str | None:
    """Which table applies to ``arch``; None for gfx6/gfx7 (no sourced figures)."""
    if arch.family == "cdna":
        return _CDNA.get(arch.name, "cdna3")
    if re.fullmatch(r"gfx(8|9|10|11|12)", arch.family):
        return arch.family
    return None


# ------------------------------------------------------------------------------------------ ACO's model

@dataclass(frozen=True, slots=True)
class AcoPerf:
    """One row of ACO's cost table: latency and up to two (resource, cycles) uses."""

    latency: int
    uses: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class AcoCosts:
    """Mesa 22.3 ACO's cost model (``timing_aco.toml``)."""

    gfx6: dict[str, AcoPerf]
    gfx10: dict[str, AcoPerf]
    wait: dict[str, int]
    rules: tuple[tuple[tuple[str, ...], str], ...]
    waves: dict[str, int]

    def perf(self, gfx_level: int, cls: str) -> AcoPerf:
        table = self.gfx10 if gfx_level >= 10 else self.gfx6
        return table.get(cls, table["other"])

    def class_of(self, base_mnemonic: str) -> str:
        for patterns, cls in self.rules:
            if any(fnmatchcase(base_mnemonic, p) for p in patterns):
                return cls
        return "other"


def _perf_row(where: str, row: Any) -> AcoPerf:
    if not isinstance(row, list) or not row or len(row) % 2 != 1 or not isinstance(row[0], int):
        raise ValueError(f"{where}: expected [latency, resource, cycles, ...]")
    uses = tuple((str(row[i]), int(row[i + 1])) for i in range(1, len(row), 2))
    return AcoPerf(int(row[0]), uses)


@cache
def aco_costs() -> AcoCosts:
    """ACO's cost tables and instruction classes; ValueError if malformed."""
    doc = _raw("aco")
    perf = doc["perf"]
    tables = [{cls: _perf_row(f"timing_aco.toml [perf.{g}] {cls}", row) for cls, row in perf[g].items()}
              for g in ("gfx6", "gfx10")]
    rules = tuple((tuple(r["match"]), str(r["class"])) for r in doc["class"])
    return AcoCosts(tables[0], tables[1], {k: int(v) for k, v in doc["wait"].items()}, rules,
                    {k: int(v) for k, v in doc["waves"].items()})
