"""Which mnemonics exist on which target family (``data/mnemonics_<family>.txt``).

An instruction whose mnemonic is not in its family's list is *unknown*: isalens reports it instead of
guessing its effects.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from isalens.isa.amdgcn.semantics import base_mnemonic
from isalens.lines import lines_of

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

# Which lists make up a target's instruction set is target data (``ArchSpec.mnemonic_lists``, handed to the
# readers as ``TargetInfo.mnemonic_lists``); this module only reads the lists.


def _data() -> Path:
    return _DATA


@cache
def _load(family: str) -> frozenset[str]:
    path = _data() / f"mnemonics_{family}.txt"
    if not path.is_file():
        return frozenset()
    names = set()
    for line in lines_of(path.read_text("utf-8")):
        line = line.strip()
        if line and not line.startswith("#"):
            names.add(line.lower())
    return frozenset(names)


def has_list(family: str) -> bool:
    """Whether ``mnemonics_<family>.txt`` exists."""
    return (_data() / f"mnemonics_{family}.txt").is_file()


@cache
def known_mnemonics(lists: tuple[str, ...]) -> frozenset[str]:
    """Base mnemonics in the union of the lists ``lists`` (empty when there are none)."""
    out: set[str] = set()
    for family in lists:
        out |= _load(family)
    return frozenset(out)


@cache
def all_families() -> tuple[str, ...]:
    """Every list there is (``gfx9``, ``cdna3``, ...)."""
    names = (entry.name for entry in _data().iterdir())
    return tuple(sorted(n[len("mnemonics_"):-len(".txt")] for n in names
                        if n.startswith("mnemonics_") and n.endswith(".txt")))


def is_known(mnemonic: str, lists: tuple[str, ...]) -> bool:
    """Whether ``mnemonic`` (with any encoding suffix) is in the union of ``lists``."""
    base, _ = base_mnemonic(mnemonic)
    known = known_mnemonics(lists)
    return base in known or mnemonic in known


def families_with(mnemonic: str) -> list[str]:
    """Families whose list has ``mnemonic``: to tell a user where an instruction *does* exist."""
    base, _ = base_mnemonic(mnemonic)
    return [f for f in all_families() if base in _load(f) or mnemonic in _load(f)]
