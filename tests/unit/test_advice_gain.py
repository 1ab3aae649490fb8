"""Each advice item's gain (analysis/advice/gain.py), the figure the HTML table ranks by, from its effect.

Oracle: arithmetic on the effect figures and kernel totals the same ``--json`` document prints, worked out in
the comments; breaking the rule for local figures (dividing by the item's own count) fails the subdword case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.conftest import EXAMPLES, require_tool


def _kernel(capsys: pytest.CaptureFixture[str], path: Path, *flags: str) -> dict[str, Any]:
    assert main(["analyze", str(path), "--json", *flags]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
    return kernel


def test_gain_of_register_advice(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = _kernel(capsys, EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s")
    gains = {a["kind"]: a["gain"] for a in kernel["advice"]}
    # occupancy: waves 1 -> 2 is 2 / 1 - 1 = 100%; pressure also frees 102 -> 80 of the peak (22 / 102 = 21.6%)
    # but the larger gain is the waves'
    assert gains["occupancy"] == {"figure": "waves_per_simd", "relative": 1}
    assert gains["pressure"] == {"figure": "waves_per_simd", "relative": 1}
    # halves: waves stay 1; the peak drops 102 -> 90: 12 / 102 = 0.1176 (one line's count and the requested
    # registers rank nothing)
    assert gains["halves"] == {"figure": "peak_live_vgprs", "relative": pytest.approx(12 / 102, abs=1e-4)}


def test_gain_of_a_local_rewrite_is_its_share_of_the_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("clang-19")
    kernel = _kernel(capsys, EXAMPLES / "kernels" / "advice" / "scalar_halves.cl", "--arch", "gfx902")
    (sub,) = [a for a in kernel["advice"] if a["kind"] == "subdword"]
    # two VALU issues become one: 1 of the kernel's instructions; 12 -> 8 bytes: 4 of its code bytes; the larger
    # share names the gain
    saved_issues = (sub["effect"]["valu_instructions"][0] - sub["effect"]["valu_instructions"][1]) \
        / kernel["instructions"]
    saved_bytes = (sub["effect"]["code_bytes"][0] - sub["effect"]["code_bytes"][1]) / kernel["stats"]["code_bytes"]
    figure, share = max((("valu_instructions", saved_issues), ("code_bytes", saved_bytes)), key=lambda x: x[1])
    assert sub["gain"] == {"figure": figure, "relative": pytest.approx(share, abs=1e-4)}
    assert share < 0.05  # a local rewrite ranks below any occupancy step


def test_no_gain_when_no_kernel_figure_improves(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("clang-19")
    kernel = _kernel(capsys, EXAMPLES / "kernels" / "advice" / "subdword_halves.cl", "--arch", "gfx902")
    # halves at one line (8 -> 7 there) with the peak unchanged (8 -> 8): nothing the kernel gains
    (item,) = kernel["advice"]
    assert item["effect"]["peak_live_vgprs"] == [8, 8]
    assert item["gain"] is None
