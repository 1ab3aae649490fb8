"""The one line splitter every reader uses, so that line numbers are the ones editors show.

``str.splitlines`` also ends a line at form feed, vertical tab, ``\\x1c``-``\\x1e``, ``\\x85`` and
``\\u2028``/``\\u2029``: a form feed (old sources separate pages with one) would shift every later line number
by one, and one inside a ``;`` comment would make the rest of the comment a line of its own. Here a line ends
at ``\\n``, ``\\r\\n`` or ``\\r`` only. Like ``splitlines``, a final line terminator does not start an empty
last line.
"""

from __future__ import annotations


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` without their terminators (``\\n``, ``\\r\\n`` or ``\\r``)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # "a\n" is one line, as splitlines and editors count it
    return lines
