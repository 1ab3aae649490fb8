"""Start the server: bind the socket (so ``--port 0`` can print the port it got), wrap the application in the
guard, print the URL with the token, and run uvicorn until Ctrl-C."""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from typing import IO

from isalens.errors import IsalensError
from isalens.serve.app import ServeSettings, build_app
from isalens.serve.guard import Guard

__all__ = ["LOOPBACK_NAMES", "bind", "serve"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free one); a port in use is one clear error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise IsalensError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", code="usage") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def serve(settings: ServeSettings, *, host: str = "127.0.0.1", port: int = 8765, out: IO[str] = sys.stdout,
          token: str | None = None) -> None:
    """Serve until interrupted; prints ``http://host:port/?token=...`` first (flushed: scripts read it)."""
    import uvicorn

    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = token or secrets.token_urlsafe(24)
    shown = f"[{host}]" if ":" in host else host
    any_host = _unspecified(host)
    hosts = (*LOOPBACK_NAMES, shown)
    app = Guard(build_app(settings), token=token, port=port, hosts=hosts, any_host=any_host)
    url_host = "127.0.0.1" if any_host else shown
    out.write(f"isalens serve: {len(settings.files.files)} file(s) under {settings.files.root}\n"
              f"isalens serve: open http://{url_host}:{port}/?token={token}\n")
    out.flush()
    # ws_max_size: a pasted source larger than --max-source still arrives, so the page gets a message about it
    # instead of a dropped connection
    config = uvicorn.Config(app, log_level="warning", ws_max_size=max(settings.max_source * 4, 1 << 20) + (64 << 20),
                            lifespan="on", access_log=False, loop="asyncio")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def _unspecified(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False
