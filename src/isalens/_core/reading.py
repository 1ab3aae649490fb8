"""The reference of the reader's per-line loop: instruction objects made from a text's known tail.

A listing repeats its instruction texts (the dense 100k benchmark kernel: 101,385 lines, 12,375 distinct
texts), and everything of an instruction but its index and line follows from its text once the reader has
decoded it (``isa/amdgcn/instructions.py``: decoded operands, register sets, the label it branches to). The
reader keeps that tail per text; :func:`keyed_rows` makes the instruction of every line whose text has a
tail, as ``cls._make((index, line, *tail))``, and leaves the others (first seen, or needing the line itself:
an address, encoding words) to the reader. The compiled core (``_compiled.pyx``) does the same loop without a
Python frame per line and must give identical rows (tests/property/test_core_differential.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["LineItem", "keyed_rows"]


class LineItem(Protocol):
    """What :func:`keyed_rows` reads of a line (``isa.amdgcn.drafts.DraftInstruction`` has these)."""

    @property
    def line(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def address(self) -> int | None: ...
    @property
    def encoding(self) -> tuple[int, ...]: ...


def keyed_rows(cls: type[tuple[Any, ...]], first: int, items: Sequence[LineItem],
               tails: dict[str, tuple[Any, ...]], rows: list[Any]) -> list[int]:
    """Fill each empty (None) ``rows[k]`` with ``cls`` of ``(first + k, items[k].line, *tails[items[k].text])``
    when the item has no address and no encoding words and its text has a tail; return the positions ``k``
    left empty, in order. ``rows`` is as long as ``items``; rows already made are kept as they are."""
    if len(rows) != len(items):
        raise ValueError("rows and items differ in length")
    missing: list[int] = []
    for k, item in enumerate(items):
        if rows[k] is not None:
            continue
        tail = tails.get(item.text) if item.address is None and not item.encoding else None
        if tail is None:
            missing.append(k)
        else:
            rows[k] = tuple.__new__(cls, (first + k, item.line, *tail))
    return missing
