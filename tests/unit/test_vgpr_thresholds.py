"""The occupancy thresholds the pressure chart and ``--plot`` draw come from the kernel's own occupancy model.

Oracle: the ``--json`` occupancy section. The band holding the requested VGPRs must carry the kernel's
``waves_per_simd`` (the HTML once drew a "2 waves" band beside a kernel that ran at 1), and the VGPR count of
``next_step`` (requested minus ``vgprs_to_remove``) must sit in a band of at least ``next_step.waves_per_simd``
while one VGPR more does not reach it (the smallest cut, searched one VGPR at a time by the occupancy module).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from isalens.engine import LoadOptions, livereg
from tests.conftest import EXAMPLES, ROOT, SAMPLES, require_tool

CORPUS = sorted((ROOT / ".cache" / "corpus").glob("*/llc.s"))[::12]  # every 12th: targets and kernels vary
#: a fragment shader through glslang and RADV: its occupancy follows RADV's convention (analysis/occupancy.py)
SHADER = EXAMPLES / "shaders" / "alpha_test.frag"
INPUTS = [*sorted((EXAMPLES / "isa").glob("*.s")), *sorted((SAMPLES / "aco").glob("*.aco.s")), *CORPUS, SHADER]


def _band(thresholds: tuple[tuple[int, float], ...], vgprs: int) -> float:
    """Waves of the band holding ``vgprs``: the first whose ceiling is at least that count."""
    return next(w for most, w in thresholds if most >= vgprs)


def _arch(path: Path) -> str | None:
    """ACO's listings do not name their target; their file names do (``name.navi21.aco.s``); shaders need one."""
    if path == SHADER:
        return "navi21"
    return path.name.split(".")[-3] if path.name.endswith(".aco.s") else None


def _json_kernels(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    arch = _arch(path)
    assert main(["analyze", str(path), "--json", *(["--arch", arch] if arch else [])]) == 0
    return [k for f in json.loads(capsys.readouterr().out)["files"] for k in f["kernels"]]


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_band_of_requested_vgprs_is_the_reported_occupancy(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if path == SHADER:
        require_tool("glslangValidator")
    docs = _json_kernels(path, capsys)
    checked = 0
    for k, doc in zip(livereg(path, LoadOptions(arch=_arch(path))).kernels, docs, strict=True):
        occ = doc["occupancy"]
        if occ is None or not doc["vgpr"]["requested"]:
            continue
        thresholds = k.registers.vgpr_thresholds
        ceilings = [most for most, _w in thresholds]
        assert ceilings == sorted(set(ceilings)), thresholds
        assert all(a[1] != b[1] for a, b in itertools.pairwise(thresholds))  # bands merged
        requested = k.registers.vgprs_with_agprs if k.agpr.requested else doc["vgpr"]["requested"]
        assert _band(thresholds, requested) == occ["waves_per_simd"], (doc["name"], requested, thresholds)
        step = occ["next_step"]
        if step is not None and step["vgprs_to_remove"] is not None and not k.agpr.requested:
            at = requested - step["vgprs_to_remove"]
            assert _band(thresholds, at) >= step["waves_per_simd"]
            assert _band(thresholds, at + 1) < step["waves_per_simd"]
        checked += 1
    assert checked or not docs
