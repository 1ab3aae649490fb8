"""Tables for notebooks: the rows of one section of the ``analyze --json`` document as a pandas DataFrame.

pandas is an optional extra (``isalens[notebook]``); the rows come from the same document ``--json`` prints,
so a frame's values are the JSON's values (nested objects become dotted columns: ``source.file``,
``issue_cycles.valu``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from isalens.errors import IsalensError

if TYPE_CHECKING:
    import pandas

__all__ = ["FRAMES", "frame", "section_rows"]

#: the sections :func:`frame` makes tables of, and what one row is
FRAMES = {"lines": "one instruction", "source_lines": "one line of the programmer's source",
          "loops": "one loop of the timing model"}


def section_rows(doc: dict[str, Any], what: str) -> list[dict[str, Any]]:
    """One dict per row of ``what`` over every file and kernel of ``doc``, each led by its ``file`` and ``kernel``."""
    if what not in FRAMES:
        raise ValueError(f"no frame {what!r}: choose one of {', '.join(FRAMES)}")
    rows: list[dict[str, Any]] = []
    for entry in doc["files"]:
        for k in entry.get("kernels", ()):
            if what == "loops":
                timing = k.get("timing") or {}
                items = timing.get("loops", ())
            else:
                items = k.get(what, ())
            rows.extend({"file": entry["file"], "kernel": k["name"], **item} for item in items)
    return rows


def frame(doc: dict[str, Any], what: str) -> pandas.DataFrame:
    """The rows of ``what`` as a DataFrame (nested objects as dotted columns)."""
    try:
        import pandas
    except ImportError:
        raise IsalensError("frames need pandas: pip install 'isalens[notebook]'", code="notebook-extra") from None
    rows = section_rows(doc, what)
    if not rows:
        return pandas.DataFrame(columns=["file", "kernel"])
    return pandas.json_normalize(rows, sep=".")
