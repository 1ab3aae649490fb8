"""Stable instruction class keys (``valu.fma.f32``, ``ds.read2st64``, ``global.load`` ...) from
``data/classes.toml``: the one table that instruction-mix statistics and pipe models share."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from isalens import tomlcache
from isalens.isa.amdgcn.semantics import base_mnemonic
from isalens.patterns import matches
from isalens.records import dataclass

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

__all__ = ["UNKNOWN", "ClassRule", "class_keys", "class_of", "class_rules"]

#: what :func:`class_of` answers for a mnemonic no rule matches (never for a listed mnemonic: tested)
UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class ClassRule:
    """One ``[[rule]]``: patterns on the base mnemonic, an optional generation range, the class key."""

    match: tuple[str, ...]
    klass: str
    generations: tuple[int, int] | None = None

    def applies(self, base: str, generation: int | None) -> bool:
        if self.generations and generation is not None and not (
                self.generations[0] <= generation <= self.generations[1]):
            return False
        return matches(base, self.match)


def _check(index: int, raw: dict[str, Any], keys: dict[str, str]) -> ClassRule:
    where = f"classes.toml rule #{index + 1}"
    unknown = set(raw) - {"match", "class", "generations"}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    match = raw.get("match")
    if not isinstance(match, list) or not match or not all(isinstance(p, str) for p in match):
        raise ValueError(f"{where}: 'match' must be a non-empty list of patterns")
    klass = raw.get("class")
    if not isinstance(klass, str) or klass not in keys:
        raise ValueError(f"{where}: class {klass!r} is not declared in [keys]")
    gens = raw.get("generations")
    if gens is not None and (not isinstance(gens, list) or len(gens) != 2 or not all(isinstance(g, int) for g in gens)):
        raise ValueError(f"{where}: 'generations' must be [min, max]")
    return ClassRule(tuple(match), klass, (gens[0], gens[1]) if gens else None)


@cache
def _table() -> tuple[dict[str, str], tuple[ClassRule, ...]]:
    text = (_DATA / "classes.toml").read_text("utf-8")
    doc = tomlcache.loads(text)
    keys = doc.get("keys", {})
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise ValueError("classes.toml: [keys] must map class keys to descriptions")
    rules = tuple(_check(i, raw, keys) for i, raw in enumerate(doc.get("rule", [])))
    return dict(keys), rules


def class_keys() -> dict[str, str]:
    """Every declared class key with its one-line description."""
    return dict(_table()[0])


def class_rules() -> tuple[ClassRule, ...]:
    """The validated rules, in file order."""
    return _table()[1]


@cache
def class_of(mnemonic: str, generation: int | None = None) -> str:
    """The class key of ``mnemonic`` (any encoding suffix); :data:`UNKNOWN` when no rule matches."""
    base, _ = base_mnemonic(mnemonic.lower())
    found = UNKNOWN
    for rule in class_rules():
        if rule.applies(base, generation):
            found = rule.klass
    return found
