"""Per-family timing facts (``arch/data/timing_<family>.toml``): for every instruction class key, the unit
it occupies, issue cycles per wave32/wave64 instruction, latency to a dependent instruction and the
``s_waitcnt`` counter it increments. Each figure's source is cited in the TOML files."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from typing import Any

from isalens.arch.model import ArchSpec

__all__ = ["UNITS", "AcoCosts", "AcoPerf", "ClassTiming", "HazardRule", "TimingTable", "aco_costs", "timing_family",
           "timing_table", "timing_tables"]

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
            return any(fnmatchcase(mnemonic, p) for p in self.mnemonics)
        return any(fnmatchcase(klass, p) for p in self.consumer)


_HAZARD_REGISTERS = {"sgpr", "vgpr", "vcc", "exec", "m0"}


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
                             "issue_interval", "hazard"}
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
    return TimingTable(family, classes, passes, int(lds), bool(wave64_only), int(interval), hazards)


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
