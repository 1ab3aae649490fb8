"""Passes left out of a run (analysis.pipeline.LEAVABLE, what a scan does not need): their results are empty,
every other result equals that of the run with every pass (a differential check over the bundled examples),
and leaving out anything else, or leaving out with advice asked for, is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from isalens.analysis.pipeline import LEAVABLE, STATS_LISTS, TIMING_LINES
from isalens.engine.load import load
from isalens.scan.rows import rows_from_document
from isalens.scan.work import ROWLESS_PASSES, analyze_document
from tests.conftest import ROOT

EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))


#: the document's keys the left-out passes fill (report/json.py kernel_dict)
_THEIR_KEYS = {"longest_lived", "peak_live_set", "blocks", "source_lines"}
#: the statistics' lists STATS_LISTS leaves empty (scan.rows._SKIP holds each as ``stats.<key>``)
_STATS_LISTS = {"blocks", "literal_values", "lds", "lds_accesses", "classes_by_loop_depth", "modifiers",
                "classes_weighted"}


@pytest.mark.parametrize("path", EXAMPLES[:4], ids=lambda p: p.stem)
def test_left_out_passes_are_empty_and_the_rest_unchanged(path: Path) -> None:
    module = load(path.read_text(), None)
    whole = analyze_document(module, leave_out=())
    part = analyze_document(module, leave_out=tuple(LEAVABLE))
    assert part.keys() == whole.keys() and part["kernels"]
    for mine, full in zip(part["kernels"], whole["kernels"], strict=True):
        assert {k: v for k, v in mine.items() if k not in _THEIR_KEYS} == \
            {k: v for k, v in full.items() if k not in _THEIR_KEYS}
        assert not any(mine[k] for k in _THEIR_KEYS)
        # the example has what the left-out passes find: the comparison left something out
        assert full["longest_lived"] and full["blocks"]
    assert {k: v for k, v in part.items() if k != "kernels"} == {k: v for k, v in whole.items() if k != "kernels"}
    assert (*LEAVABLE, STATS_LISTS, TIMING_LINES) == ROWLESS_PASSES  # the scan leaves out every pass it may


@pytest.mark.parametrize("path", EXAMPLES[:4], ids=lambda p: p.stem)
def test_left_out_statistics_lists_are_empty_and_the_rest_unchanged(path: Path) -> None:
    from isalens.scan.rows import _SKIP

    module = load(path.read_text(), None)
    whole = analyze_document(module, leave_out=())
    part = analyze_document(module, leave_out=(STATS_LISTS,))
    assert {key.removeprefix("stats.") for key in _SKIP if key.startswith("stats.")} == _STATS_LISTS
    for mine, full in zip(part["kernels"], whole["kernels"], strict=True):
        assert {k: v for k, v in mine.items() if k != "stats"} == {k: v for k, v in full.items() if k != "stats"}
        assert {k: v for k, v in mine["stats"].items() if k not in _STATS_LISTS} == \
            {k: v for k, v in full["stats"].items() if k not in _STATS_LISTS}
        assert not any(mine["stats"][k] for k in _STATS_LISTS)
    # the examples have what the lists hold (blocks, per-depth counts): the comparison left something out
    assert all(full["stats"]["blocks"] and full["stats"]["classes_by_loop_depth"] for full in whole["kernels"])


def _without_line_lists(timing: dict[str, Any]) -> dict[str, Any]:
    """``timing`` with the lists TIMING_LINES leaves empty blanked: each loop's and the kernel's
    ``bottleneck_lines``, each block's ``critical_path``."""
    return {**timing, "kernel": {**timing["kernel"], "bottleneck_lines": []},
            "loops": [{**lp, "bottleneck_lines": []} for lp in timing["loops"]],
            "blocks": [{**b, "critical_path": []} for b in timing["blocks"]]}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_left_out_timing_lines_are_empty_and_the_rest_unchanged(path: Path) -> None:
    """The oracle is the timing pass with its lines: every figure the same without them, the scan's rows too."""
    module = load(path.read_text(), None)
    whole = analyze_document(module, leave_out=())
    part = analyze_document(module, leave_out=(TIMING_LINES,))
    for mine, full in zip(part["kernels"], whole["kernels"], strict=True):
        assert {k: v for k, v in mine.items() if k != "timing"} == {k: v for k, v in full.items() if k != "timing"}
        assert mine["timing"] == _without_line_lists(full["timing"])
        assert not mine["timing"]["kernel"]["bottleneck_lines"]
        assert not any(b["critical_path"] for b in mine["timing"]["blocks"])
    assert rows_from_document(part) == rows_from_document(whole)
    # the examples have what the lists hold: the comparison left something out
    timings = [full["timing"] for full in whole["kernels"]]
    assert any(t["kernel"]["bottleneck_lines"] for t in timings)
    assert any(b["critical_path"] for t in timings for b in t["blocks"])


def test_leaving_out_a_pass_others_read_is_refused() -> None:
    kernel = load(EXAMPLES[0].read_text(), None).kernels[0]
    with pytest.raises(ValueError, match="cannot leave out"):
        kernel.analyze(leave_out=("liveness",))
    with pytest.raises(ValueError, match="none with advice"):
        kernel.analyze(extra=("advice",), leave_out=("peak_live_set",))
