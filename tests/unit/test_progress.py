"""The status line of long runs (isalens.progress): shown on a terminal after a second, erased before the
command's own output, never shown elsewhere or by a forked worker."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from isalens import progress
from isalens.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "isa" / "fp16_half3.gfx902.s"
ERASE = "\r\x1b[K"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _ticking(step: float) -> Callable[[], float]:
    """A clock that advances ``step`` seconds each time it is read."""
    counter = itertools.count()
    return lambda: next(counter) * step


def test_nothing_is_shown_in_the_first_second_and_the_line_is_erased_at_the_end() -> None:
    out = _Terminal()
    line = progress.StatusLine(out, after=1.0, clock=_ticking(0.4))  # read at 0 when made
    line("reading")  # 0.4 s
    line("cfg")  # 0.8 s
    assert out.getvalue() == ""
    line("liveness")  # 1.2 s
    assert out.getvalue() == ERASE + "isalens: liveness (1 s)"
    line.clear()
    assert out.getvalue().endswith("(1 s)" + ERASE)
    line("pressure")  # after clear: nothing more
    assert out.getvalue().endswith(ERASE)


def test_steps_reach_only_an_installed_reporter() -> None:
    seen: list[str] = []
    progress.step("before")
    with progress.reporting(seen.append):
        progress.step("inside")
        with progress.reporting(None):
            progress.step("silenced")
    progress.step("after")
    assert seen == ["inside"]


def test_a_forked_worker_does_not_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _Terminal()
    line = progress.StatusLine(out, after=0.0, clock=_ticking(1.0))
    monkeypatch.setattr(progress.os, "getpid", lambda: -1)  # another process than the one that made it
    line("liveness")
    assert out.getvalue() == ""


def test_cli_shows_the_passes_on_a_terminal_and_erases_them_before_its_output(
        monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()  # stdout and stderr on the same terminal, as a user running it sees them
    monkeypatch.setattr(progress.time, "monotonic", _ticking(1.0))
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr("sys.stdout", terminal)
    assert main(["livereg", "--summary", "--color", "never", str(EXAMPLE)]) == 0
    shown = terminal.getvalue()
    report = shown.index("kernel resolve_half3")
    # reading, then each pass of the kernel, named with its size; erased before the report's first line
    assert ERASE + "isalens: reading " in shown[:report]
    assert "isalens: resolve_half3 (" in shown and "instructions): liveness (" in shown[:report]
    assert shown[:report].endswith(ERASE)
    assert "\x1b" not in shown[report:] and "isalens: " not in shown[report:]


def test_cli_shows_nothing_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress.time, "monotonic", _ticking(1.0))
    assert main(["livereg", "--summary", str(EXAMPLE)]) == 0
    assert capsys.readouterr().err == ""
