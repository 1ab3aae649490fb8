"""``isalens serve``'s HTML download is the ``analyze --html`` report of the text on the page (not of the file on
disk), served only with the token. Oracle: the page ``isalens analyze --html`` writes for the same text holds the
same summary cards. Seen failing once with the snapshot compiled from the file on disk."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from isalens.cli import main
from tests.browser.serve_server import running_server
from tests.conftest import require_tool

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

KERNEL = "__kernel void k(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n"
EDITED = "__kernel void k(__global float *p) { for (int i = 0; i < 4; ++i) p[get_global_id(0) + i] *= 3.0f; }\n"


def _cards(html: str) -> str:
    """The embedded data's summary cards (the part that does not name the file)."""
    m = re.search(r'"cards":(\[\[.*?\]\])', html)
    assert m is not None
    return m.group(1)


def test_snapshot_is_the_report_of_the_edited_text(tmp_path: Path) -> None:
    require_tool("clang-19")
    (tmp_path / "k.cl").write_text(KERNEL)
    oracle = tmp_path / "oracle" / "k.cl"
    oracle.parent.mkdir()
    oracle.write_text(EDITED)
    assert main(["analyze", str(oracle), "--arch", "gfx902", "--html", str(tmp_path / "oracle.html")]) == 0
    with running_server(tmp_path / "k.cl") as s:
        with ws_client.connect(f"ws://{s.host}/ws", additional_headers={"Authorization": f"token {s.token}"},
                               open_timeout=30) as ws:
            ws.send(json.dumps({"id": 1, "type": "snapshot", "file": "k.cl", "source": EDITED,
                                "targets": ["gfx902"]}))
            answer = json.loads(ws.recv(timeout=300))
        assert answer["type"] == "snapshot", answer
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(s.base + answer["url"], timeout=60)
        assert refused.value.code == 403
        req = urllib.request.Request(s.base + answer["url"], headers={"Authorization": f"token {s.token}"})
        with urllib.request.urlopen(req, timeout=60) as resp:
            assert "attachment" in resp.headers["content-disposition"]
            html = resp.read().decode()
    assert _cards(html) == _cards((tmp_path / "oracle.html").read_text())
    assert (tmp_path / "k.cl").read_text() == KERNEL  # a snapshot never saves
