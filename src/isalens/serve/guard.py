"""Every request must carry the server's token and come from its own page (as Jupyter's server does).

An ASGI middleware in front of every route, HTTP and WebSocket alike:

* ``Host`` must name this server (127.0.0.1, localhost or [::1] with its port, or the ``--host`` given): a web
  page elsewhere that points a DNS name at 127.0.0.1 ("DNS rebinding") sends its own name and is refused;
* ``Origin``, when present (browsers send it on every WebSocket and cross-origin request), must be this
  server's own ``http://host:port``: a page on another site cannot drive the compiler or save files;
* the token: ``?token=`` in the URL printed at start, then a cookie the first page load sets (HttpOnly,
  SameSite=Strict), or an ``Authorization: token ...`` header for scripts. Compared in constant time.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

__all__ = ["Guard", "cookie_name"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def cookie_name(port: int) -> str:
    """One cookie per port: two servers on one machine keep their own tokens."""
    return f"isalens_serve_{port}"


class Guard:
    """Refuses (HTTP 403, or a WebSocket closed before it opens) what fails one of the three checks."""

    def __init__(self, app: App, *, token: str, port: int, hosts: tuple[str, ...], any_host: bool = False) -> None:
        self._app = app
        self._token = token.encode()
        self._cookie = cookie_name(port)
        self._hosts = frozenset(f"{h}:{port}" for h in hosts)
        #: bound to every interface (--host 0.0.0.0): the Host is whatever name reached us; token and Origin still count
        self._any_host = any_host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        why = self._refusal(scope, headers)
        if why is not None:
            await _refuse(scope, send, why)
            return
        if scope["type"] == "http" and self._from_query(scope) and scope.get("path") == "/":
            send = self._setting_cookie(send)
        await self._app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> str | None:
        host = headers.get("host", "")
        if not self._any_host and host not in self._hosts:
            return "unknown Host"
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            return "foreign Origin"
        if not self._token_given(scope, headers):
            return "missing or wrong token (open the URL isalens serve printed)"
        return None

    def _token_given(self, scope: Scope, headers: dict[str, str]) -> bool:
        candidates = [self._from_query(scope)]
        auth = headers.get("authorization", "")
        if auth.lower().startswith("token "):
            candidates.append(auth[6:].strip())
        if "cookie" in headers:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(headers["cookie"])
            except Exception:  # a malformed Cookie header is no token, not a server error
                jar = SimpleCookie()
            if self._cookie in jar:
                candidates.append(jar[self._cookie].value)
        return any(c and hmac.compare_digest(c.encode(), self._token) for c in candidates)

    @staticmethod
    def _from_query(scope: Scope) -> str:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        return str((query.get("token") or [""])[0])

    def _setting_cookie(self, send: Send) -> Send:
        cookie = f"{self._cookie}={self._token.decode()}; Path=/; HttpOnly; SameSite=Strict".encode()

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie)]
            await send(message)
        return sending


async def _refuse(scope: Scope, send: Send, why: str) -> None:
    if scope["type"] == "websocket":
        # closing before accepting: the server answers the handshake with HTTP 403
        await send({"type": "websocket.close", "code": 1008, "reason": why})
        return
    body = f"403 forbidden: {why}\n".encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
