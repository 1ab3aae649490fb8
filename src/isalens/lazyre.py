"""A regular expression compiled when it is first used, not when its module is imported.

A small ``livereg`` run imports the readers of ``.file``/``.loc`` lines, of other dialects' headers, of call
symbols and of encoding rules, and compiled their 20 patterns at import without matching a single line against
most of them (docs/performance.md, eighteenth session). :class:`LazyPattern` keeps the source and flags and
compiles on the first call of one of its methods (through ``re``'s own cache, so two equal patterns share one
compiled object); each later call costs one Python call more than the compiled pattern's own, so patterns of the
per-text hot paths stay compiled at import.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

__all__ = ["LazyPattern"]


class LazyPattern:
    """The methods of ``re.compile(source, flags)`` used in isalens, compiling on first use."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return compiled

    @property
    def pattern(self) -> str:
        return self._source

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[str]:
        return self.compiled.findall(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def __repr__(self) -> str:
        return f"LazyPattern({self._source!r}, {self._flags!r})"
