"""Load :class:`ArchSpec` objects from the TOML files in ``arch/data``.

A file describes one family: ``[defaults]`` for the family, ``[targets.<name>]`` per target with
overrides, and an optional top-level ``extends = "<file stem>"`` whose defaults it inherits.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from isalens import records, tomlcache
from isalens.arch.model import ArchSpec

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

_FIELDS = {f.name for f in records.fields(ArchSpec)}


class UnknownArchError(KeyError):
    """No target of that name in the architecture data."""


@cache
def _family_files() -> dict[str, dict[str, Any]]:
    data = _DATA
    out: dict[str, dict[str, Any]] = {}
    for entry in data.iterdir():
        if entry.name.endswith(".toml"):
            text = entry.read_text(encoding="utf-8")
            # a family file has targets or is extended by one; the timing and device tables (two thirds of
            # the data, read by their own modules) are not parsed on every command's start
            if "[targets." in text or "[defaults]" in text:
                out[entry.name[:-5]] = tomlcache.loads(text)
    return out


def _family_defaults(stem: str, files: dict[str, dict[str, Any]]) -> dict[str, Any]:
    doc = files[stem]
    base: dict[str, Any] = {}
    if "extends" in doc:
        base = _family_defaults(doc["extends"], files)
    return {**base, **doc.get("defaults", {})}


@cache
def all_archs() -> dict[str, ArchSpec]:
    """Every known target by name (aliases included)."""
    files = _family_files()
    out: dict[str, ArchSpec] = {}
    for stem, doc in sorted(files.items()):
        defaults = _family_defaults(stem, files)
        for name, overrides in doc.get("targets", {}).items():
            values = {**defaults, **overrides, "name": name}
            unknown = set(values) - _FIELDS
            if unknown:
                raise ValueError(f"arch data {stem}.toml [{name}]: unknown fields {sorted(unknown)}")
            for key in ("wave_sizes", "aliases", "mnemonic_lists", "mesa_families"):
                if key in values:
                    values[key] = tuple(values[key])
            if "sgpr_waves" in values:
                values["sgpr_waves"] = tuple((int(n), int(w)) for n, w in values["sgpr_waves"])
            spec = ArchSpec(**values)
            out[name] = spec
            for alias in spec.aliases:
                out[alias] = spec
    return out


@cache
def mesa_families() -> dict[str, str]:
    """Every Mesa family name (``RAVEN``) and the target it compiles for (``gfx902``)."""
    specs = sorted((s for n, s in all_archs().items() if n == s.name), key=lambda s: (s.generation, s.name))
    return {family: spec.name for spec in specs for family in spec.mesa_families}


#: a processor name, the generic targets of code object v6 first (``gfx10-3-generic``, ``gfx11-generic``)
_TARGET_RE = re.compile(r"(gfx[0-9a-f]+(?:-[0-9a-f]+)?-generic|gfx[0-9a-f]+)", re.IGNORECASE)


def normalize_arch_name(text: str) -> str:
    """``amdgcn-amd-amdhsa--gfx90a:xnack+``, ``GFX902`` or ``gfx11-generic`` -> ``gfx90a`` / ``gfx902`` /
    ``gfx11-generic``."""
    t = text.strip().lower()
    m = _TARGET_RE.search(t)
    return m.group(1) if m else t


def get_arch(name: str) -> ArchSpec:
    """The target called ``name`` (a gfx name, a triple with one, or an alias such as ``raven``)."""
    archs = all_archs()
    key = name.strip().lower()
    if key in archs:
        return archs[key]
    key = normalize_arch_name(name)
    if key in archs:
        return archs[key]
    raise UnknownArchError(name)
