"""The reference of the reader's per-line loops: the lines of code of a function (:func:`instruction_lines`), and
instruction objects made from a text's known tail (:func:`keyed_rows`).

A listing repeats its instruction texts (the dense 100k benchmark kernel: 101,385 lines, 12,375 distinct
texts), and everything of an instruction but its index and line follows from its text once the reader has
decoded it (``isa/amdgcn/instructions.py``: decoded operands, register sets, the label it branches to). The
reader keeps that tail per text; :func:`keyed_rows` makes the instruction of every line whose text has a
tail, as ``cls._make((index, line, *tail))``, and leaves the others (first seen, or needing the line itself:
an address, encoding words) to the reader. The compiled core (``_compiled.pyx``) does the same loop without a
Python frame per line and must give identical rows (tests/property/test_core_differential.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["LineItem", "encoded_rows", "instruction_lines", "keyed_rows", "labelled_rows", "register_shape"]

_Item = TypeVar("_Item")


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


def _is_dot_label(word: str) -> bool:
    """``word`` is a ``.`` and one or more ASCII letters, digits, ``_``, ``.`` or ``$``: a plain symbol, read as an
    operand of its own (a leading "." is no register, constant or modifier; none of these characters joins it to
    the word before it)."""
    return len(word) > 1 and word[0] == "." and all(c.isascii() and (c.isalnum() or c in "_.$") for c in word[1:])


def labelled_rows(cls: type[tuple[Any, ...]], first: int, items: Sequence[LineItem], missing: Sequence[int],
                  tails: dict[str, tuple[Any, ...]], decoded: Collection[str], rows: list[Any], placeholder: str,
                  label: Callable[[str], Any], unknown: dict[str, int]) -> list[int]:
    """Fill ``rows[k]`` for each ``k`` of ``missing`` (in order) whose item has no address and no encoding words
    and whose text either has a tail in ``tails`` (the row as :func:`keyed_rows` makes it) or is a branch to a
    label: a text starting ``s_`` and not in ``decoded``, ending in a blank and a plain label (:func:`_is_dot_label`,
    not ``placeholder``), ``::`` nowhere before it, whose text with ``placeholder`` for that label has a tail.
    The branch's tail is that one with its own text, ``label(name)`` for the last operand and the name as its
    target (tail fields 0, 2 and 7), kept in ``tails`` under its text. A branch whose placeholder text has no
    tail is left empty and that text is put in ``unknown`` with the position of its first such line (unless it
    is there already). Return the positions left empty, in order."""
    left: list[int] = []
    for k in missing:
        item = items[k]
        if rows[k] is not None:
            continue
        if item.address is not None or item.encoding:
            left.append(k)
            continue
        text = item.text
        tail = tails.get(text)
        if tail is None and text.startswith("s_") and text not in decoded:
            head, space, name = text.rpartition(" ")
            if space and name != placeholder and _is_dot_label(name) and "::" not in head:
                generic = head + " " + placeholder
                shared = tails.get(generic)
                if shared is None:
                    unknown.setdefault(generic, k)
                else:
                    operands = shared[2]
                    tail = tails[text] = (text, shared[1], (*operands[:-1], label(name)), *shared[3:7], name,
                                          *shared[8:])
        if tail is None:
            left.append(k)
        else:
            rows[k] = tuple.__new__(cls, (first + k, item.line, *tail))
    return left


def instruction_lines(lines: Sequence[str], start: int, comment: str, make: Callable[[int, str], _Item],
                      items: list[_Item]) -> int:
    """The reader's loop over the lines of code inside a function (most of a listing): from ``lines[start]`` on,
    while a line is a tab, a lower-case ASCII letter and more, and the first word of its code (the line up to
    the first ``comment`` character, stripped) holds no ``:`` (not a label), append ``make(k + 1, code)`` for
    the line ``lines[k]`` (its number as editors count) to ``items``; return the index of the first line that
    is not such a line (``len(lines)`` when none is left). ``comment`` is one character, not a letter or a
    blank."""
    if len(comment) != 1 or comment.isalpha() or comment.isspace():
        raise ValueError("the comment marker is one character, not a letter or a blank")
    if start < 0:
        raise ValueError("start must not be negative")
    n = len(lines)
    k = start
    while k < n:
        raw = lines[k]
        if raw[:1] != "\t" or not "a" <= raw[1:2] <= "z":
            break
        code = raw.split(comment, 1)[0].strip()
        if ":" in code.split(None, 1)[0]:
            break
        items.append(make(k + 1, code))
        k += 1
    return k


# --- dec3 (twentieth session): a disassembly's lines of texts decoded before ------------------------------------

def encoded_rows(cls: type[tuple[Any, ...]], first: int, items: Sequence[LineItem],
                 heads: dict[str, tuple[Any, ...]], rows: list[Any]) -> list[int]:
    """Fill each empty (None) ``rows[k]`` whose item has an address and encoding words and whose text has a head
    ``(before, after, sized)`` in ``heads`` with ``cls`` of ``(first + k, items[k].line, *before, address,
    encoding, *after, sized[len(encoding)])``, when ``sized`` holds that length; return the positions ``k``
    left empty, in order. A disassembly's line (address, words) of a text decoded before is most of a library's
    instructions (docs/performance.md, twentieth session): its row is its text's fields around its own address
    and words, and the facts sized for that many words. A head ``(before, after, sized, offset)`` (a branch to
    an address relative to its own) puts its line's target, ``f"@{address + offset:#x}"``, between ``before`` and
    the address. ``rows`` is as long as ``items``."""
    if len(rows) != len(items):
        raise ValueError("rows and items differ in length")
    missing: list[int] = []
    for k, item in enumerate(items):
        if rows[k] is not None:
            continue
        address, encoding = item.address, item.encoding
        head = heads.get(item.text) if address is not None and encoding else None
        facts = head[2].get(len(encoding)) if head is not None else None
        if head is None or facts is None:
            missing.append(k)
        elif len(head) == 4:
            rows[k] = tuple.__new__(cls, (first + k, item.line, *head[0], f"@{address + head[3]:#x}", address,
                                          encoding, *head[1], facts))
        else:
            rows[k] = tuple.__new__(cls, (first + k, item.line, *head[0], address, encoding, *head[1], facts))
    return missing


# --- dec4 (twenty-first session): a text's numbered registers set aside (isa/amdgcn/instructions._shape_of) ---

#: a numbered register of a text: ``v12``, ``s[4:5]``, ``a3`` (letter, then one index or a range, no leading
#: zero); the rest of the text (``vcc``, ``ttmp5``, ``v[4]``, ``v01``, halves ``.l``, modifiers, constants) is its
#: *shape*'s literal text
_NUMBER = "(0|[1-9][0-9]*)"
REGISTER_TOKEN = re.compile(rf"\b([vsa])(?:{_NUMBER}\b|\[{_NUMBER}:{_NUMBER}\])", re.ASCII)


def register_shape(text: str, v_limit: int, s_limit: int, a_limit: int) -> tuple[str, list[int], list[str]] | None:
    """``text`` with each numbered register (:data:`REGISTER_TOKEN`) replaced by its letter and width, the
    registers' first indices in order, and their spellings; None when it names none, or one a reader would bound
    (an index at or past its letter's limit, a range ending before it starts, a number of more than 4 digits).

    The shape is the pieces of ``REGISTER_TOKEN.split(text)`` joined by NUL, each register's groups written as
    (letter, "", "", "") for ``vN`` and (letter, "", "[", last - first) for ``v[N:M]``. The compiled core scans the
    text without the regular expression and must give the same answer (tests/property/test_core_differential.py).
    """
    parts = REGISTER_TOKEN.split(text)
    if len(parts) == 1:
        return None
    firsts: list[int] = []
    spelled: list[str] = []
    for i in range(1, len(parts), 5):
        letter, one = parts[i], parts[i + 1]
        if max(len(one or ""), len(parts[i + 2] or ""), len(parts[i + 3] or "")) > 4:
            return None  # past every file (and int() refuses 4,300 digits)
        if one is not None:
            n = m = int(one)
            spelled.append(letter + one)
            parts[i + 1] = ""
        else:
            lo, hi = parts[i + 2], parts[i + 3]
            n, m = int(lo), int(hi)
            spelled.append(f"{letter}[{lo}:{hi}]")
            parts[i + 2] = "["
            parts[i + 3] = str(m - n)
            if m < n:
                return None
        if m >= (v_limit if letter == "v" else s_limit if letter == "s" else a_limit):
            return None
        firsts.append(n)
    return "\0".join([p or "" for p in parts]), firsts, spelled
