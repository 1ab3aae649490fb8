"""JSON text from report dicts: compact and fast by default (orjson), indented for people with ``pretty``.

Keys are sorted and there are no timestamps, so the same input always gives the same bytes.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps"]

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def dumps(doc: Any, *, pretty: bool = False) -> str:
    """``doc`` as JSON text ending in a newline (non-finite floats become null, as JSON has no such numbers)."""
    return orjson.dumps(doc, option=_OPTIONS | (orjson.OPT_INDENT_2 if pretty else 0)).decode("utf-8") + "\n"
