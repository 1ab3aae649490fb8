"""``isalens serve`` refuses requests without its token, from a foreign Origin or a foreign Host, and never reads
or writes a file it was not opened on (``../``, absolute paths, links out of the tree, a file swapped for a link
after start). Each check was seen failing once with the guard or the file table disabled."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.serve_server import Server, running_server

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
ws_exceptions = pytest.importorskip("websockets.exceptions")

KERNEL = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n"
SECRET = "secret: must never be read or written\n"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("serve")
    (base / "secret.cl").write_text(SECRET)
    proj = base / "proj"
    (proj / "sub").mkdir(parents=True)
    (proj / "a.cl").write_text(KERNEL)
    (proj / "sub" / "b.cl").write_text(KERNEL)
    (proj / "notes.txt").write_text("not a source\n")
    (proj / "link.cl").symlink_to(base / "secret.cl")  # leads out of the tree: not served
    return proj


@pytest.fixture(scope="module")
def server(tree: Path) -> Iterator[Server]:
    with running_server(tree) as s:
        yield s


def _get(server: Server, path: str, headers: dict[str, str] | None = None, token: bool = True) -> tuple[int, str]:
    h = dict(headers or {})
    if token:
        h.setdefault("Authorization", f"token {server.token}")
    req = urllib.request.Request(server.base + path, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _ws(server: Server, **headers: str) -> Any:
    return ws_client.connect(f"ws://{server.host}/ws", additional_headers=headers, open_timeout=30,
                             max_size=None)


def test_token_required_on_every_route(server: Server) -> None:
    for path in ("/", "/api/state", "/api/file?name=a.cl", "/static/serve.js", "/api/snapshot/x"):
        assert _get(server, path, token=False)[0] == 403, path
        assert _get(server, path, {"Authorization": "token wrong"})[0] == 403, path
    assert _get(server, "/api/state")[0] == 200
    assert _get(server, f"/api/state?token={server.token}", token=False)[0] == 200


def test_first_page_load_sets_a_cookie_that_then_suffices(server: Server) -> None:
    req = urllib.request.Request(server.url)
    with urllib.request.urlopen(req, timeout=60) as resp:
        cookie = resp.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    pair = cookie.split(";", 1)[0]
    assert _get(server, "/api/state", {"Cookie": pair}, token=False)[0] == 200
    assert _get(server, "/api/state", {"Cookie": pair.split("=")[0] + "=forged"}, token=False)[0] == 403


def test_foreign_origin_and_host_refused(server: Server) -> None:
    assert _get(server, "/api/state", {"Origin": "http://evil.example"})[0] == 403
    assert _get(server, "/api/state", {"Origin": f"http://{server.host}"})[0] == 200
    # DNS rebinding: a foreign name pointed at 127.0.0.1 arrives with its own Host
    assert _get(server, "/api/state", {"Host": "evil.example:80"})[0] == 403


def test_websocket_needs_token_and_own_origin(server: Server) -> None:
    for headers in ({}, {"Authorization": "token wrong"},
                    {"Authorization": f"token {server.token}", "Origin": "http://evil.example"}):
        with pytest.raises(ws_exceptions.InvalidStatus) as info:
            _ws(server, **headers).close()
        assert info.value.response.status_code == 403
    with _ws(server, Authorization=f"token {server.token}", Origin=f"http://{server.host}") as ws:
        ws.send(json.dumps({"id": 1, "type": "nonsense"}))
        assert json.loads(ws.recv(timeout=30))["type"] == "error"


def test_only_the_opened_files_are_listed_and_read(server: Server, tree: Path) -> None:
    status, body = _get(server, "/api/state")
    assert json.loads(body)["files"] == ["a.cl", "sub/b.cl"]  # no link out, no .txt
    assert json.loads(_get(server, "/api/file?name=a.cl")[1])["text"] == KERNEL
    for name in ("../secret.cl", str(tree.parent / "secret.cl"), "link.cl", "sub/../a.cl", "./a.cl",
                 "%2e%2e/secret.cl", "notes.txt", "sub"):
        status, body = _get(server, "/api/file?name=" + urllib.request.quote(name, safe=""))
        assert status == 404, name
        assert "secret" not in body.replace("secret.cl", "")


def test_saves_only_to_the_opened_files(server: Server, tree: Path) -> None:
    outside = tree.parent / "secret.cl"
    with _ws(server, Authorization=f"token {server.token}") as ws:
        for i, name in enumerate(("../secret.cl", str(outside), "link.cl", "new.cl", "../proj/a.cl")):
            ws.send(json.dumps({"id": i, "type": "save", "file": name, "source": "pwned\n"}))
            answer = json.loads(ws.recv(timeout=30))
            assert answer["type"] == "error" and "not a file this server was opened on" in answer["message"], name
        ws.send(json.dumps({"id": 9, "type": "save", "file": "sub/b.cl", "source": "// saved\n" + KERNEL}))
        assert json.loads(ws.recv(timeout=30))["type"] == "saved"
    assert outside.read_text() == SECRET
    assert not (tree / "new.cl").exists() and not (tree.parent / "new.cl").exists()
    assert (tree / "a.cl").read_text() == KERNEL
    assert (tree / "sub" / "b.cl").read_text() == "// saved\n" + KERNEL


def test_compiles_and_snapshots_name_only_the_opened_files(server: Server, tree: Path) -> None:
    # a compile's file names its include directory (the compiler runs on a copy beside nothing else, with -I of
    # that file's directory): a name outside the tree would let `#include "secret.cl"` read the file beside it
    source = '#include "secret.cl"\n' + KERNEL
    names = ("../secret.cl", str(tree.parent / "secret.cl"), "link.cl", "../proj/a.cl", "%2e%2e/secret.cl")
    with _ws(server, Authorization=f"token {server.token}") as ws:
        for i, name in enumerate(names):
            for kind in ("compile", "snapshot"):
                ws.send(json.dumps({"id": i, "type": kind, "file": name, "source": source, "targets": ["gfx902"]}))
                answer = json.loads(ws.recv(timeout=60))
                assert answer == {"type": "error", "id": i, "message": answer["message"]}, (kind, name, answer)
                assert "not a file this server was opened on" in answer["message"], (kind, name)
                assert "must never be read" not in answer["message"]
        ws.send(json.dumps({"id": 7, "type": "compile", "source": source, "targets": ["gfx902"]}))  # no file
        answer = json.loads(ws.recv(timeout=60))
        assert answer["type"] == "error" and answer["id"] == 7, answer  # answered, not dropped
        assert answer["message"].endswith("a compile request names the file it is for"), answer


def test_a_file_swapped_for_a_link_after_start_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.cl").write_text(SECRET)
    (tmp_path / "proj").mkdir()
    opened = tmp_path / "proj" / "k.cl"
    opened.write_text(KERNEL)
    with running_server(opened) as s:
        opened.unlink()
        opened.symlink_to(tmp_path / "secret.cl")
        status, body = _get(s, "/api/file?name=k.cl")
        assert status == 400 and SECRET not in body
        with _ws(s, Authorization=f"token {s.token}") as ws:
            ws.send(json.dumps({"id": 1, "type": "save", "file": "k.cl", "source": "pwned\n"}))
            assert json.loads(ws.recv(timeout=30))["type"] == "error"
    assert (tmp_path / "secret.cl").read_text() == SECRET
