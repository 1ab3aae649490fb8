"""A dword stream cut into instructions by a cache of what each encoding is (the decoder listing's loop,
``isa.amdgcn.decoder.listing``): the readable reference of the compiled core's ``cached_runs``.

Nothing here knows an instruction set: an entry is any tuple whose item 5 is its length in dwords (0: the walk
stops there, for the caller to say why) and whose item 6 is its note (truthy when the caller wants the address).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["cached_runs", "draft_rows"]


def cached_runs(words: Sequence[int], index: int, stop: int, base: int, one: Mapping[int, Any],
                two: Mapping[tuple[int, int], Any], miss: Callable[[int], Any],
                ) -> tuple[list[tuple[int, Any] | None], list[int], int]:
    """Walk ``words[index:stop]``: a run of at least two zero dwords is one ``None`` row (skipped whole, as
    llvm-objdump prints ``...``); any other dword starts an instruction, whose entry is ``one[word]``, else
    ``two[(word, next dword or -1)]`` when that is not None, else ``miss(index)``. Each instruction is the row
    ``(base + 4 * index, entry)``, and its address also goes into the second list when its entry's note (item 6)
    is set. The walk stops before an entry of length 0 or one that runs past the end of ``words``; the last
    value is the index it stopped at (``stop`` or beyond when it finished; ``stop`` past the end of ``words``
    counts as its end)."""
    if index < 0:
        raise ValueError("index must not be negative")
    rows: list[tuple[int, Any] | None] = []
    noted: list[int] = []
    n = len(words)
    stop = min(stop, n)
    while index < stop:
        word = words[index]
        if not word and index + 1 < stop and not words[index + 1]:
            zeros = index + 2
            while zeros < stop and not words[zeros]:
                zeros += 1
            rows.append(None)
            index = zeros
            continue
        entry = one.get(word)
        if entry is None:
            entry = two.get((word, words[index + 1] if index + 1 < n else -1))
            if entry is None:
                entry = miss(index)
        size = entry[5]
        if not size or index + size > n:
            return rows, noted, index
        address = base + 4 * index
        if entry[6]:
            noted.append(address)
        rows.append((address, entry))
        index += size
    return rows, noted, index


# --- dec3 (twentieth session): the listing's rows as the reader's drafts -----------------------------------------

def draft_rows(rows: Sequence[tuple[int, Any] | None], line: int, end: int | None,
               make: Callable[[int, str, int, Any], Any], items: list[Any],
               branches: list[tuple[int, int]]) -> int:
    """The rows of one block (:func:`cached_runs`) as the reader's drafts: each row is a line (``line`` is the one
    before the first); a ``None`` row and a row at ``end`` or after it (``None``: no end) make nothing; any other
    ``(address, entry)`` appends ``make(its line, entry[1], address, entry[3])`` to ``items`` and, when
    ``entry[4]`` is set, ``(address, entry[3][0])`` to ``branches``. Returns the last row's line, or -1 at the
    first row made whose ``entry[2]`` is false (its text would not read back: the caller reads the text instead;
    what was appended until then is left as it is)."""
    for row in rows:
        line += 1
        if row is None:
            continue
        address, entry = row
        if end is not None and address >= end:
            continue
        if not entry[2]:
            return -1
        items.append(make(line, entry[1], address, entry[3]))
        if entry[4]:
            branches.append((address, entry[3][0]))
    return line
