"""The web application: the page, its two small JSON routes, the snapshot download and the WebSocket that carries
compiles, results and saves. Starlette routes behind :class:`~isalens.serve.guard.Guard`.

Messages on ``/ws`` (JSON text frames). From the page: ``{"type": "compile", "id", "file", "source", "targets":
[...], "defines": [...], "opt", "cl_std", "debug_variables"}`` (a newer compile cancels the running one),
``{"type": "save", "file", "source"}``, ``{"type": "snapshot", ...compile fields, one target}``. From the server:
``status`` (a target started compiling), ``cancelled`` (a newer compile stopped this one), ``result`` (one
target's answer, see ``child``; for a source a ``partial`` one without advice comes first), ``saved``,
``snapshot`` (a URL to download) and ``error`` (a request refused, with why).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from isalens.errors import IsalensError
from isalens.reading import size_text
from isalens.serve.files import OpenedFiles
from isalens.serve.worker import CompileLimits, Compiler

__all__ = ["CODEMIRROR_DIR", "ServeSettings", "build_app", "targets"]

#: Debian's libjs-codemirror (CodeMirror 5); without it the page falls back to a plain text area
CODEMIRROR_DIR = Path("/usr/share/javascript/codemirror")
#: the CodeMirror files the page loads: a fixed list, never a path from a request
_CODEMIRROR_FILES = {"codemirror.js": "lib/codemirror.js", "codemirror.css": "lib/codemirror.css",
                     "clike.js": "mode/clike/clike.js", "matchbrackets.js": "addon/edit/matchbrackets.js"}
_STATIC = {"serve.js": "text/javascript", "serve.css": "text/css"}
_OPT_LEVELS = ("", "0", "1", "2", "3", "s", "z")
_CL_STDS = ("", "CL1.2", "CL2.0", "CL3.0")
#: at most this many targets compile per edit (each one after the other: the machine may have two cores)
MAX_TARGETS = 6
#: snapshots kept for download (oldest dropped first)
_SNAPSHOTS_KEPT = 8
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self' ws: ; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@dataclass
class ServeSettings:
    """What ``isalens serve`` was started with."""

    files: OpenedFiles
    targets: tuple[str, ...] = ("gfx902",)
    defines: tuple[str, ...] = ()
    limits: CompileLimits = field(default_factory=CompileLimits)
    #: largest source the page may send for a compile or a save, in bytes
    max_source: int = 4 << 20
    codemirror: Path | None = CODEMIRROR_DIR


def targets() -> list[dict[str, str]]:
    """What ``isalens arch list`` lists: each target once under its own name, with its family."""
    from isalens.arch.loader import all_archs

    return [{"name": name, "family": spec.family} for name, spec in sorted(all_archs().items()) if spec.name == name]


def _asset(name: str) -> bytes:
    return (resources.files("isalens.serve") / "static" / name).read_bytes()


class _Server:
    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.compiler = Compiler(settings.limits, warm=settings.targets[0] if settings.targets else None)
        self.snapshots: dict[str, tuple[str, str]] = {}
        self.background: set[asyncio.Task[None]] = set()
        self.known_targets = {t["name"] for t in targets()}
        cm = settings.codemirror
        self.editor = "codemirror" if cm is not None and (cm / "lib" / "codemirror.js").is_file() else "textarea"

    async def index(self, request: Request) -> Response:
        return Response(_asset("index.html"), media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": _CSP, "cache-control": "no-store",
                                 "referrer-policy": "no-referrer"})

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name in _STATIC:
            return Response(_asset(name), media_type=_STATIC[name])
        cm = self.settings.codemirror
        if name in _CODEMIRROR_FILES and cm is not None and self.editor == "codemirror":
            data = (cm / _CODEMIRROR_FILES[name]).read_bytes()
            return Response(data, media_type="text/css" if name.endswith(".css") else "text/javascript")
        return PlainTextResponse("not found\n", status_code=404)

    async def state(self, request: Request) -> Response:
        s = self.settings
        return JSONResponse({"files": list(s.files.files), "targets": targets(), "initial_targets": list(s.targets),
                             "defines": list(s.defines), "editor": self.editor, "max_source": s.max_source,
                             "limits": {"seconds": s.limits.seconds, "memory": s.limits.memory}})

    async def file(self, request: Request) -> Response:
        name = request.query_params.get("name", "")
        try:
            text = self.settings.files.read(name, self.settings.max_source)
        except IsalensError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404 if exc.code == "serve-forbidden" else 400)
        return JSONResponse({"name": name, "text": text})

    async def snapshot(self, request: Request) -> Response:
        found = self.snapshots.get(request.path_params["key"])
        if found is None:
            return PlainTextResponse("no such snapshot\n", status_code=404)
        name, html = found
        return Response(html, media_type="text/html; charset=utf-8", headers={
            "content-disposition": f'attachment; filename="{Path(name).stem}.html"'})

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with lock:
                await ws.send_text(orjson.dumps(message).decode())

        running: asyncio.Task[None] | None = None
        running_id: Any = None
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    message = self._checked(raw)
                except IsalensError as exc:
                    await send({"type": "error", "id": _id_in(raw), "message": str(exc)})
                    continue
                kind = message["type"]
                if kind == "compile":
                    if running is not None and not running.done():
                        running.cancel()  # its child is stopped (worker.Compiler.run)
                        await send({"type": "cancelled", "id": running_id})
                    running, running_id = asyncio.create_task(self._compile(message, send)), message.get("id")
                elif kind == "snapshot":
                    task = asyncio.create_task(self._snapshot(message, send))
                    self.background.add(task)  # held until done: the loop keeps only a weak reference
                    task.add_done_callback(self.background.discard)
                elif kind == "save":
                    await send(self._save(message))
                else:
                    await send({"type": "error", "id": message.get("id"), "message": f"unknown request {kind!r}"})
        except WebSocketDisconnect:
            pass
        finally:
            if running is not None:
                running.cancel()

    def _checked(self, raw: str) -> dict[str, Any]:
        """The message, refused when it is too large, not JSON, or names a file or option it may not."""
        cap = self.settings.max_source
        if len(raw) > cap + 65536:  # characters >= bytes/4: checked again on the source's bytes below
            raise IsalensError(f"the source is {size_text(len(raw))}, over the {size_text(cap)} a page may send "
                               f"(isalens serve --max-source)", code="too-large")
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise IsalensError("not a JSON message", code="usage") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise IsalensError("not a request", code="usage")
        if "file" in message:
            self.settings.files.path_of(str(message["file"]))  # UnknownFile: not one we were opened on
        elif message["type"] in ("compile", "snapshot", "save"):  # each works on a file: without one, no answer came
            raise IsalensError(f"a {message['type']} request names the file it is for", code="usage")
        source = message.get("source")
        if source is not None:
            if not isinstance(source, str):
                raise IsalensError("the source must be text", code="usage")
            size = len(source.encode("utf-8", "surrogatepass"))
            if size > cap:
                raise IsalensError(f"the source is {size_text(size)}, over the {size_text(cap)} the page compiles "
                                   f"(isalens serve --max-source)", code="too-large")
        return message

    def _request(self, message: dict[str, Any], arch: str, mode: str) -> dict[str, Any]:
        path = self.settings.files.path_of(str(message["file"]))
        defines = message.get("defines") or []
        if not isinstance(defines, list) or len(defines) > 64 or not all(
                isinstance(d, str) and 0 < len(d) <= 256 and not d.startswith("-") for d in defines):
            raise IsalensError("defines: up to 64 NAME[=VALUE] entries", code="usage")
        opt, cl_std = str(message.get("opt") or ""), str(message.get("cl_std") or "")
        if opt not in _OPT_LEVELS or cl_std not in _CL_STDS:
            raise IsalensError(f"options: -O one of {', '.join(_OPT_LEVELS[1:])}; cl-std one of "
                               f"{', '.join(_CL_STDS[1:])}", code="usage")
        if arch not in self.known_targets:
            raise IsalensError(f"unknown target {arch!r} (see `isalens arch list`)", code="usage")
        return {"name": path.name, "source": message.get("source", ""), "include_dir": str(path.parent),
                "arch": arch, "defines": defines, "opt": opt, "cl_std": cl_std,
                "debug_variables": bool(message.get("debug_variables")), "mode": mode}

    async def _compile(self, message: dict[str, Any], send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        key = message.get("id")
        wanted = message.get("targets") or list(self.settings.targets)
        if not isinstance(wanted, list) or not wanted:
            wanted = list(self.settings.targets)
        for arch in [str(a) for a in wanted[:MAX_TARGETS]]:
            try:
                request = self._request(message, arch, "view")
            except IsalensError as exc:
                await send({"type": "result", "id": key, "arch": arch, "ok": False,
                            "error": {"message": str(exc), "line": None, "messages": []}})
                continue
            await send({"type": "status", "id": key, "arch": arch, "state": "compiling"})
            start = time.monotonic()

            async def forward(answer: dict[str, Any], arch: str = arch, start: float = start) -> None:
                await send({"type": "result", "id": key, "arch": arch,
                            "seconds": round(time.monotonic() - start, 3), **answer})
            await forward(await self.compiler.run(request, forward))

    async def _snapshot(self, message: dict[str, Any], send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        arch = str((message.get("targets") or [""])[0])
        try:
            request = self._request(message, arch, "html")
        except IsalensError as exc:
            await send({"type": "error", "id": message.get("id"), "message": str(exc)})
            return
        answer = await self.compiler.run(request)
        if not answer.get("ok"):
            await send({"type": "error", "id": message.get("id"),
                        "message": f"snapshot: {answer.get('error', {}).get('message')}"})
            return
        key = secrets.token_urlsafe(12)
        self.snapshots[key] = (request["name"], str(answer["html"]))
        while len(self.snapshots) > _SNAPSHOTS_KEPT:
            self.snapshots.pop(next(iter(self.snapshots)))
        await send({"type": "snapshot", "id": message.get("id"), "url": f"/api/snapshot/{key}"})

    def _save(self, message: dict[str, Any]) -> dict[str, Any]:
        name = str(message.get("file"))
        try:
            written = self.settings.files.write(name, str(message.get("source", "")))
        except IsalensError as exc:
            return {"type": "error", "id": message.get("id"), "message": f"not saved: {exc}"}
        return {"type": "saved", "id": message.get("id"), "file": name, "bytes": written}


def _id_in(raw: str) -> Any:
    """The request id of a refused message, when its head says (a 50 MB paste is not parsed for it)."""
    head = raw[:200]
    marker = '"id":'
    if marker in head:
        value = head.split(marker, 1)[1].split(",", 1)[0].strip()
        with contextlib.suppress(ValueError):
            return int(value)
    return None


def build_app(settings: ServeSettings) -> Starlette:
    """The application (without the guard: :func:`isalens.serve.run.serve` puts it in front)."""
    server = _Server(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        with contextlib.suppress(OSError):
            await server.compiler.prepare()
        yield
        await server.compiler.close()

    return Starlette(routes=[
        Route("/", server.index),
        Route("/static/{name}", server.static),
        Route("/api/state", server.state),
        Route("/api/file", server.file),
        Route("/api/snapshot/{key}", server.snapshot),
        WebSocketRoute("/ws", server.socket),
    ], lifespan=lifespan)
