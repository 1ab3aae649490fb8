"""Compiles in child processes (``python -m isalens.serve.child``) under a time and a memory limit.

One spare child is started ahead of need, so its imports are paid while the user types. A compile that runs over
its time is stopped: SIGTERM first (the child then kills the compiler's process group, see ``child``), SIGKILL of
the child's group after a grace period; a child killed by its address-space limit or a signal becomes a message.
Whatever happens to a child, the server process itself is never at risk.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import resource
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson

from isalens.reading import size_text

__all__ = ["CompileLimits", "Compiler"]

#: after SIGTERM, how long the child has to kill its compiler and exit before SIGKILL
_GRACE_SECONDS = 2.0
#: longest answer line read from a child (a view of a 100,000-instruction kernel is tens of MB)
_LINE_LIMIT = 1 << 30

Partial = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class CompileLimits:
    """Wall-clock seconds and address-space bytes per compile (the child and the compiler it runs alike)."""

    seconds: float = 60.0
    memory: int = 2 << 30


class Compiler:
    """Runs compiles one at a time per caller; cancelling the awaiting task stops its child."""

    def __init__(self, limits: CompileLimits = CompileLimits(), warm: str | None = None) -> None:
        self.limits = limits
        #: the target the spare child compiles a small kernel for while it waits (see ``child``)
        self.warm = warm
        self._spare: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def _start(self) -> asyncio.subprocess.Process:
        env = dict(os.environ)
        # the compiler inside the child gets the same bounds (run_tool reads these; it never raises its own
        # address-space limit above the one the child inherits)
        # (the compiler gets most of the time: the child's own message names what was stopped)
        env["ISALENS_TOOL_TIMEOUT"] = f"{self.limits.seconds * 0.8:g}"
        env["ISALENS_TOOL_MEMORY"] = str(self.limits.memory)
        cap = self.limits.memory
        warm = ("--warm", self.warm) if self.warm else ()
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "isalens.serve.child", *warm, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True,
            limit=_LINE_LIMIT,
            preexec_fn=functools.partial(resource.setrlimit, resource.RLIMIT_AS, (cap, cap)))

    async def prepare(self) -> None:
        """Start the spare child now, unless one is ready (at start-up, and after each compile)."""
        async with self._lock:
            if self._spare is None or self._spare.returncode is not None:
                self._spare = await self._start()

    async def _take(self) -> asyncio.subprocess.Process:
        """The spare child for a compile; the next spare starts at once, so that it imports and warms up while
        this compile runs and an edit that cancels it finds a ready process (started only after the cancel, the
        new child was still importing when the next request came)."""
        async with self._lock:
            proc = self._spare if self._spare is not None and self._spare.returncode is None else await self._start()
            self._spare = await self._start()
            return proc

    async def run(self, request: dict[str, Any], partial: Partial | None = None) -> dict[str, Any]:
        """The child's final answer to ``request``, or ``{"ok": false, "error": ...}`` when it was stopped or
        died; ``partial`` gets each earlier answer as it comes (the figures before the advice)."""
        proc = await self._take()
        try:
            answers, err = await asyncio.wait_for(self._talk(proc, request, partial), self.limits.seconds)
        except TimeoutError:
            await _stop(proc)
            return _failure(f"the compile did not finish within {self.limits.seconds:g} s and was stopped "
                            f"(isalens serve --compile-timeout)", "timeout")
        except BaseException:  # cancelled by a newer edit, or the server is stopping
            await asyncio.shield(_stop(proc))
            raise
        finally:
            with contextlib.suppress(Exception):
                await self.prepare()
        if proc.returncode == 0 and answers:
            return answers[-1]
        return _died(proc.returncode, err.decode("utf-8", "replace"), self.limits.memory)

    @staticmethod
    async def _talk(proc: asyncio.subprocess.Process, request: dict[str, Any],
                    partial: Partial | None) -> tuple[list[dict[str, Any]], bytes]:
        """Send the request, pass on partial answers, collect the rest; ends when the child has exited."""
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        errors = asyncio.create_task(proc.stderr.read())
        try:
            proc.stdin.write(orjson.dumps(request))
            await proc.stdin.drain()
            proc.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the child died before reading: its exit status tells
        answers: list[dict[str, Any]] = []
        while line := await proc.stdout.readline():
            try:
                answer = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue  # a line cut short when the child was killed
            if answer.get("partial") and partial is not None:
                await partial(answer)
            answers.append(answer)
        await proc.wait()
        return [a for a in answers if not a.get("partial")], await errors

    async def close(self) -> None:
        if self._spare is not None:
            await _stop(self._spare)
            self._spare = None


async def _stop(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), _GRACE_SECONDS)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # the child's group: anything it started and left behind
    await proc.wait()


def _died(code: int | None, stderr: str, memory: int) -> dict[str, Any]:
    last = [line for line in stderr.strip().splitlines() if line.strip()][-1:] or [""]
    if "MemoryError" in stderr or code == -signal.SIGKILL:
        return _failure(f"the compile ran out of its memory limit ({size_text(memory)}; isalens serve "
                        f"--compile-memory) and was stopped", "memory")
    return _failure(f"the compile process stopped with exit status {code}: {last[0][:300]}", "crashed")


def _failure(message: str, code: str) -> dict[str, Any]:
    return {"ok": False, "error": {"message": message, "line": None, "code": code, "messages": []}}
