"""What a long run is doing, for someone watching a terminal.

The steps of a run (reading a file, each analysis pass of each kernel) name themselves with :func:`step`.
Nothing is shown by default: the API and the tests see no output. The CLI installs a :class:`StatusLine`
for the command when stderr is a terminal; it writes one line, rewritten in place, once the run has taken
more than a second, and clears it before the command's own output appears (and at the end), so a listing
printed to the same terminal is never interleaved with it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

__all__ = ["StatusLine", "reporting", "step"]

_reporter: Callable[[str], None] | None = None


def step(what: str) -> None:
    """Say what the run does now (``reading k.s``, ``kernel main: liveness``); free when nobody listens."""
    if _reporter is not None:
        _reporter(what)


class StatusLine:
    """One self-rewriting line on ``stream`` (a terminal), shown only after ``after`` seconds."""

    def __init__(self, stream: IO[str], *, after: float = 1.0, clock: Callable[[], float] | None = None,
                 width: int = 100) -> None:
        self._stream, self._after, self._width = stream, after, width
        self._clock = clock or time.monotonic
        self._start = self._clock()
        self._pid = os.getpid()  # a forked worker inherits this object: only the process that made it draws
        self._shown = False
        self.stopped = False

    def __call__(self, what: str) -> None:
        if self.stopped or os.getpid() != self._pid:
            return
        elapsed = self._clock() - self._start
        if elapsed < self._after:
            return
        text = f"isalens: {what} ({elapsed:.0f} s)"
        if len(text) > self._width:
            text = text[: self._width - 1] + "…"
        self._stream.write("\r\x1b[K" + text)  # carriage return, erase the line, write the new status
        self._stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the line (if shown) and show nothing more."""
        if self._shown and os.getpid() == self._pid:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False
        self.stopped = True


@contextmanager
def reporting(reporter: Callable[[str], None] | None) -> Iterator[None]:
    """Send every :func:`step` of the block to ``reporter`` (None: to nobody)."""
    global _reporter
    before, _reporter = _reporter, reporter
    try:
        yield
    finally:
        _reporter = before
