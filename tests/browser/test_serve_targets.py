"""One edit in ``isalens serve`` compiles every open target tab, the visible one first, each through the engine
exactly as ``isalens analyze --arch`` does (oracle: its JSON for each target); the early answer sent before
the advice pass carries the same figures. Seen failing once with every request compiled for the first target
only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.cli import main
from tests.browser.serve_server import running_server
from tests.conftest import EXAMPLES, require_tool

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

SOURCE = EXAMPLES / "kernels" / "fp16_layouts" / "half3_two_uint.cl"
TARGETS = ["gfx1100", "gfx902"]


def test_every_target_tab_gets_its_own_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("clang-19")
    (tmp_path / SOURCE.name).write_text(SOURCE.read_text())
    oracle = {}
    for arch in TARGETS:
        capsys.readouterr()
        assert main(["analyze", str(SOURCE), "--arch", arch, "--json"]) == 0
        (kernel,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
        oracle[arch] = (kernel["vgpr"]["peak_live"], kernel["vgpr"]["requested"],
                        kernel["occupancy"]["waves_per_simd"], kernel["instructions"])
    assert oracle[TARGETS[0]] != oracle[TARGETS[1]]  # else a mix-up would pass unnoticed
    with running_server(tmp_path / SOURCE.name, "--compile-timeout", "600") as s, ws_client.connect(
            f"ws://{s.host}/ws", additional_headers={"Authorization": f"token {s.token}"}, open_timeout=30) as ws:
        ws.send(json.dumps({"id": 1, "type": "compile", "file": SOURCE.name, "source": SOURCE.read_text(),
                            "targets": TARGETS}))
        got, partial = [], []
        while len(got) < len(TARGETS):
            m = json.loads(ws.recv(timeout=600))
            if m["type"] == "result":
                assert m["ok"], m
                f = m["view"]["kernels"][0]["figures"]
                figures = (m["arch"], (f["vgpr_peak"], f["vgpr_requested"], f["waves_per_simd"], f["instructions"]))
                (partial if m.get("partial") else got).append(figures)
                # the early answer (before the advice pass) has the final figures and no advice yet
                assert bool(m["view"]["kernels"][0]["advice"]) != bool(m.get("partial")), m["arch"]
    assert got == [(arch, oracle[arch]) for arch in TARGETS]
    assert partial == got
