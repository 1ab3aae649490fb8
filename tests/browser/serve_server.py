"""Starts ``isalens serve`` as a child process for the serve tests and reads the URL it prints."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import ROOT


@dataclass(frozen=True)
class Server:
    url: str  # as printed, with ?token=
    base: str  # http://127.0.0.1:PORT
    token: str
    proc: subprocess.Popen[str]

    @property
    def host(self) -> str:
        return urlsplit(self.base).netloc


@contextmanager
def running_server(path: Path, *args: str) -> Iterator[Server]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "isalens", "serve", str(path), "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = ""
        assert proc.stdout is not None
        for line in proc.stdout:  # the URL line comes once the socket is bound
            if "http://" in line:
                url = line.split("open ", 1)[1].strip()
                break
        if not url:
            raise AssertionError(f"isalens serve printed no URL: {proc.stderr.read() if proc.stderr else ''}")
        base, token = url.split("/?token=")
        yield Server(url, base, token, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
