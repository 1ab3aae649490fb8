"""Shell-style name patterns (``v_pk_*``, ``ds_read2*``) as the data tables write them, matched fast.

The instruction tables hold several hundred patterns; matching them one ``fnmatch`` at a time compiled a
regex per pattern on first use, most of a small file's run time. A :class:`Patterns` keeps the plain names
in a set, the prefix ones (``v_pk_*``: 89 of the 95 wildcard patterns a small `livereg` run builds) in a tuple
for one ``str.startswith``, and compiles the rest into one regex, once: compiling a regex of every wildcard
pattern was ~0.015 s of that run's start-up (docs/performance.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fnmatch import translate
from functools import cache

__all__ = ["Patterns", "matches"]

_WILDCARDS = frozenset("*?[")


class Patterns:
    """A set of shell-style patterns; ``patterns(name)`` is ``fnmatchcase(name, p)`` for any ``p``."""

    __slots__ = ("_names", "_prefixes", "_regex", "patterns")

    def __init__(self, patterns: tuple[str, ...] | list[str]) -> None:
        self.patterns = tuple(patterns)
        self._names = frozenset(p for p in self.patterns if not _WILDCARDS & set(p))
        # "abc*" with no other wildcard matches exactly the names starting with "abc" (`*` matches anything)
        self._prefixes = tuple(p[:-1] for p in self.patterns if p.endswith("*") and not _WILDCARDS & set(p[:-1]))
        wild = [translate(p) for p in self.patterns
                if _WILDCARDS & set(p) and not (p.endswith("*") and not _WILDCARDS & set(p[:-1]))]
        self._regex = re.compile("|".join(f"(?:{w})" for w in wild)) if wild else None

    def __call__(self, name: str) -> bool:
        if name in self._names or name.startswith(self._prefixes):
            return True
        return self._regex is not None and self._regex.match(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.patterns)

    def __repr__(self) -> str:
        return f"Patterns({self.patterns!r})"


@cache
def _compiled(patterns: tuple[str, ...]) -> Patterns:
    return Patterns(patterns)


def matches(name: str, patterns: tuple[str, ...]) -> bool:
    """``fnmatchcase(name, p)`` for any ``p`` of ``patterns`` (compiled once per tuple)."""
    return _compiled(patterns)(name)
