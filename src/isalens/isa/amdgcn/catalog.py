"""Which mnemonics exist on which target family (``data/mnemonics_<family>.txt``).

An instruction whose mnemonic is not in its family's list is *unknown*: isalens reports it instead of
guessing its effects.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from isalens.isa.amdgcn.semantics import base_mnemonic

#: target name pattern -> mnemonic list files that together make up its instruction set
_FAMILY_FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"gfx8\w+", ("gfx8",)),
    (r"gfx908", ("cdna1",)),
    (r"gfx90a", ("cdna2",)),
    (r"gfx94[0-2]", ("cdna3",)),
    (r"gfx950", ("cdna3", "cdna4")),
    (r"gfx9\w+", ("gfx9",)),
    (r"gfx101[0-3]", ("gfx10_1",)),
    (r"gfx10\w+", ("gfx10_3",)),
    (r"gfx11\w+", ("gfx11",)),
    (r"gfx12\w+", ("gfx12",)),
)


def families_of(target: str) -> tuple[str, ...]:
    """The mnemonic list files for ``target`` (e.g. ``gfx902`` -> ``("gfx9",)``)."""
    for pattern, files in _FAMILY_FILES:
        if re.fullmatch(pattern, target):
            return files
    return ()


@cache
def _load(family: str) -> frozenset[str]:
    path = resources.files("isalens.isa.amdgcn") / "data" / f"mnemonics_{family}.txt"
    if not path.is_file():
        return frozenset()
    names = set()
    for line in path.read_text("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.add(line.lower())
    return frozenset(names)


@cache
def known_mnemonics(target: str) -> frozenset[str]:
    """Base mnemonics valid on ``target`` (empty when there is no list for it)."""
    out: set[str] = set()
    for family in families_of(target):
        out |= _load(family)
    return frozenset(out)


@cache
def all_families() -> tuple[str, ...]:
    return tuple(sorted({f for _, files in _FAMILY_FILES for f in files}))


def is_known(mnemonic: str, target: str) -> bool:
    """Whether ``mnemonic`` (with any encoding suffix) exists on ``target``."""
    base, _ = base_mnemonic(mnemonic)
    return base in known_mnemonics(target) or mnemonic in known_mnemonics(target)


def families_with(mnemonic: str) -> list[str]:
    """Families whose list has ``mnemonic``: to tell a user where an instruction *does* exist."""
    base, _ = base_mnemonic(mnemonic)
    return [f for f in all_families() if base in _load(f) or mnemonic in _load(f)]
