"""The opcode tables of ``data/vliw.toml``: names, slot units per generation, MADs, fetches, control flow."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from isalens.ir.vliw import Flow, Unit

__all__ = ["GENERATIONS", "CfInfo", "Tables", "generation_of", "tables"]

#: the generations in age order
GENERATIONS = ("r600", "r700", "evergreen", "cayman")


@dataclass(frozen=True, slots=True)
class CfInfo:
    """What the tables say about one control-flow opcode."""

    kind: str       # "alu", "fetch" or "cf"
    flow: Flow
    known: bool


def _strings(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"vliw.toml: {where} must be a list of non-empty strings")
    return tuple(value)


@dataclass(frozen=True)
class Tables:
    """All of ``vliw.toml``, validated."""

    widths: dict[str, int]
    chips: dict[str, str]
    evergreen_markers: frozenset[str]
    alu_known: frozenset[str]
    mad: frozenset[str]
    no_dst: frozenset[str]
    ends_group: frozenset[str]
    units: dict[str, dict[str, Unit]]      # generation -> name -> unit (absent: any)
    aliases: dict[str, str]
    fetch_known: frozenset[str]
    fetch_no_memory: frozenset[str]
    fetch_bytes: dict[str, int]
    cf_alu: frozenset[str]
    cf_fetch: frozenset[str]
    cf_flow: dict[str, Flow]
    export_prefixes: tuple[str, ...]

    def alu_name(self, opcode: str) -> tuple[str, bool]:
        """The ISA name of a printed ALU opcode and whether we know it."""
        upper = opcode.upper()
        name = self.aliases.get(upper, upper)
        return name, name in self.alu_known

    def unit(self, generation: str, name: str) -> Unit:
        return self.units[generation].get(name, Unit.ANY)

    def fetch_name(self, opcode: str) -> tuple[str, bool]:
        """The name of a printed fetch opcode (LLVM's ``TEX_SAMPLE`` is ``SAMPLE``) and whether we know it."""
        upper = opcode.upper()
        if upper not in self.fetch_known and upper.startswith("TEX_") and upper[4:] in self.fetch_known:
            upper = upper[4:]
        return upper, upper in self.fetch_known

    def cf(self, opcode: str) -> CfInfo:
        upper = opcode.upper()
        if upper in self.cf_alu:
            return CfInfo("alu", self.cf_flow.get(upper, Flow.NONE), True)
        if upper in self.cf_fetch:
            return CfInfo("fetch", Flow.NONE, True)
        if upper in self.cf_flow:
            return CfInfo("cf", self.cf_flow[upper], True)
        if upper.startswith(self.export_prefixes):
            return CfInfo("cf", Flow.EXPORT, True)
        return CfInfo("cf", Flow.NONE, False)


def _load(doc: dict[str, Any]) -> Tables:
    gens = doc.get("generations", {})
    if set(gens) != set(GENERATIONS):
        raise ValueError(f"vliw.toml: [generations] must define exactly {', '.join(GENERATIONS)}")
    widths = {g: int(gens[g]["width"]) for g in GENERATIONS}
    chips = dict(doc.get("chips", {}))
    for chip, gen in chips.items():
        if gen not in GENERATIONS:
            raise ValueError(f"vliw.toml: chip {chip} has unknown generation {gen!r}")
    alu = doc["alu"]
    known = frozenset(_strings("alu.known", alu["known"]))
    units: dict[str, dict[str, Unit]] = {g: {} for g in GENERATIONS}
    for i, rule in enumerate(alu.get("unit", [])):
        unit = Unit(rule["unit"])
        for gen in _strings(f"alu.unit[{i}].generations", rule["generations"]):
            if gen not in GENERATIONS:
                raise ValueError(f"vliw.toml: alu.unit[{i}] names unknown generation {gen!r}")
            for op in _strings(f"alu.unit[{i}].ops", rule["ops"]):
                if op not in known:
                    raise ValueError(f"vliw.toml: alu.unit[{i}] names unknown operation {op}")
                old = units[gen].get(op)
                if old is not None and old is not unit:
                    raise ValueError(f"vliw.toml: {op} is both {old} and {unit} on {gen}")
                units[gen][op] = unit
    aliases = {k.upper(): v for k, v in alu.get("aliases", {}).items()}
    for alias, target in aliases.items():
        if target not in known:
            raise ValueError(f"vliw.toml: alias {alias} points at unknown operation {target}")
    named = {"mad": alu["mad"], "no_dst": alu["no_dst"], "ends_group": alu["ends_group"]}
    for key, ops in named.items():
        unknown = set(_strings(f"alu.{key}", ops)) - known
        if unknown:
            raise ValueError(f"vliw.toml: alu.{key} names unknown operations {sorted(unknown)}")
    markers = frozenset(_strings("generations.evergreen.markers", gens["evergreen"].get("markers", [])))
    if markers - known:
        raise ValueError(f"vliw.toml: unknown Evergreen markers {sorted(markers - known)}")
    fetch = doc["fetch"]
    fetch_known = frozenset(_strings("fetch.known", fetch["known"]))
    no_memory = frozenset(_strings("fetch.no_memory", fetch["no_memory"]))
    fetch_bytes = {k.upper(): int(v) for k, v in fetch.get("bytes", {}).items()}
    if (no_memory | set(fetch_bytes)) - fetch_known:
        raise ValueError("vliw.toml: fetch.no_memory / fetch.bytes name unknown fetches")
    cf = doc["cf"]
    return Tables(
        widths=widths, chips=chips, evergreen_markers=markers, alu_known=known,
        mad=frozenset(alu["mad"]), no_dst=frozenset(alu["no_dst"]), ends_group=frozenset(alu["ends_group"]),
        units=units, aliases=aliases, fetch_known=fetch_known, fetch_no_memory=no_memory,
        fetch_bytes=fetch_bytes, cf_alu=frozenset(_strings("cf.alu", cf["alu"])),
        cf_fetch=frozenset(_strings("cf.fetch", cf["fetch"])),
        cf_flow={k.upper(): Flow(v) for k, v in cf.get("flow", {}).items()},
        export_prefixes=_strings("cf.export_prefixes", cf["export_prefixes"]),
    )


@cache
def tables() -> Tables:
    """The validated tables (raises :class:`ValueError` when the data file is malformed)."""
    text = (resources.files("isalens.isa.r600") / "data" / "vliw.toml").read_text(encoding="utf-8")
    return _load(tomllib.loads(text))


def generation_of(name: str) -> str | None:
    """The generation of a chip (``rv770``) or a generation name (``r700``); ``None`` if neither."""
    key = name.strip().lower()
    if key in GENERATIONS:
        return key
    return tables().chips.get(key)
