"""A scan row made from the report's kernel objects (scan.rows.rows_from_kernels, no JSON text) equals the row
made from the ``analyze --json`` document's text (rows_from_document of analyze_document), the table the scan
wrote before: a differential check over the bundled ISA examples and over values the text changes."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from isalens.engine.load import load
from isalens.report.serialize import dumps
from isalens.scan.rows import _flatten, _flatten_direct, rows_from_document
from isalens.scan.work import analyze_document, analyze_rows
from tests.conftest import ROOT

EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_rows_without_the_json_text_equal_the_documents(path: Path) -> None:
    module = load(path.read_text(), None)
    identity = {"file": str(path), "source": "file", "target": module.arch.name}
    expected = rows_from_document(analyze_document(module), **identity)
    rows = analyze_rows(module, **identity)
    assert expected  # every example has a kernel
    assert rows == expected
    # and the columns come in the same order
    assert [list(r) for r in rows] == [list(r) for r in expected]


class _Level(enum.Enum):
    L2 = "l2"


@dataclass(frozen=True)
class _Pair:
    b: int
    a: float


def test_values_the_json_text_changes_flatten_as_the_text_holds_them() -> None:
    """Expected: the value written by report.serialize.dumps (orjson) and read back, then flattened; each of
    these differs from the Python value (a NaN and an infinity become null, keys become sorted strings, an
    enum its value, a dataclass an object, a tuple a list)."""
    value: dict[str, Any] = {"z": 1, "nan": math.nan, "inf": -math.inf, "ints": {3: 1, 10: 2}, "level": _Level.L2,
                             "pair": _Pair(2, 0.5), "tuple": (1, 2), "nested": {"b": True, "a": None, "s": "x"}}
    expected: dict[str, Any] = {}
    _flatten(orjson.loads(dumps(value)), "", expected)
    got: dict[str, Any] = {}
    _flatten_direct(value, "", got)
    assert got == expected
    assert list(got) == list(expected)
    assert got["nan"] is None and got["ints_10"] == 2 and got["level"] == "l2" and got["pair_a"] == 0.5
