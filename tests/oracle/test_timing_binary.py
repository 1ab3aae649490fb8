"""``isalens timing`` reads a code object as the other commands do (docs/binaries.md lists it among them): its
check for VLIW code once read every input as text first, so a code object failed as "binary file: expected ISA
text". The kernels of a code object compiled and linked by clang-19 get the same timing as ``analyze --json``
gives them (the path every binary test checks against llvm-objdump's text, tests/oracle/test_binary_text.py),
but for what only ``timing`` adds: the memory-latency range and its words in the assumptions."""

from __future__ import annotations

import json
from typing import Any

import pytest

from isalens.cli import main
from tests.conftest import EXAMPLES
from tests.oracle.test_decoder_objdump import _code_object

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

#: what ``timing`` adds to the section ``analyze`` shows: each figure's range over the memory levels
_TIMING_ONLY = frozenset({"memory_range", "range", "assumptions"})


def _without(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: _without(v) for k, v in doc.items() if k not in _TIMING_ONLY}
    if isinstance(doc, list):
        return [_without(v) for v in doc]
    return doc


def test_timing_of_a_code_object_equals_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    co = _code_object(EXAMPLES / "kernels" / "control" / "loops.cl", "gfx1030")
    assert co is not None
    assert main(["timing", "--json", str(co)]) == 0
    timing = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    assert main(["analyze", "--json", str(co)]) == 0
    analyzed = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    assert [k["name"] for k in timing] == [k["name"] for k in analyzed] and len(timing) >= 2
    assert all(k["timing"]["loops"] for k in timing)  # the kernels' loops were found in the binary
    assert any("memory_range" in k["timing"]["kernel"] for k in timing)  # what timing adds is there
    assert [_without(k["timing"]) for k in timing] == [_without(k["timing"]) for k in analyzed]
