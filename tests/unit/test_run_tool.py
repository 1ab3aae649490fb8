"""External tools run inside bounds: stdin never ours, a time limit that kills the whole process group, a
memory limit, and one :class:`ToolError` naming the input file and the tool.

The "tools" here are small Python programs (``sys.executable -c ...``) whose behaviour is known by
construction: one reads stdin to its end, one sleeps with a child of its own, one allocates 1 GiB.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from isalens.errors import IsalensError
from isalens.frontends.run_tool import MEMORY_ENV, TIMEOUT_ENV, Limits, ToolError, run_tool, tool_limits

PY = sys.executable


@pytest.fixture()
def stdin_is_an_open_pipe() -> Iterator[int]:
    """Our fd 0 becomes a pipe nobody writes to and nobody closes: a tool reading it would wait for ever."""
    read_end, write_end = os.pipe()
    saved = os.dup(0)
    os.dup2(read_end, 0)
    try:
        yield write_end
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read_end, write_end):
            os.close(fd)


def test_a_tool_reads_dev_null_not_our_stdin(stdin_is_an_open_pipe: int) -> None:
    # inherited, the pipe would block the read until the time limit; /dev/null ends at once with nothing
    proc = run_tool([PY, "-c", "import sys; print(repr(sys.stdin.read()))"], file="x.cl",
                    limits=Limits(seconds=60))
    assert proc.returncode == 0
    assert proc.stdout.strip() == "''"


def test_input_we_pass_is_all_the_tool_reads(stdin_is_an_open_pipe: int) -> None:
    proc = run_tool([PY, "-c", "import sys; sys.stdout.write(sys.stdin.read()[::-1])"], file=None,
                    input="0x01 0x02\n", limits=Limits(seconds=60))
    assert proc.stdout == "\n20x0 10x0"


def _state(pid: int) -> str | None:
    """The process state letter from /proc (None when the process is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _ended(pid: int, grace: float = 10.0) -> bool:
    """True once the process is gone or a zombie. SIGKILL to a group is delivered asynchronously: a loaded
    machine can show the grandchild running for a moment after ``killpg`` returned (CI saw state R once)."""
    deadline = time.monotonic() + grace
    while _state(pid) not in (None, "Z"):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_tool_past_its_time_limit_is_killed_with_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = ("import subprocess, sys, time\n"
              "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
              f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
              "time.sleep(600)\n")
    grandchild = None
    try:
        with pytest.raises(ToolError) as err:
            run_tool([PY, "-c", script], file="kernel.cl", limits=Limits(seconds=5), name="slowtool")
        grandchild = int(pid_file.read_text())
        assert err.value.code == "tool-timeout"
        assert err.value.file == "kernel.cl"
        assert "slowtool did not finish within 5 s" in err.value.message
        assert TIMEOUT_ENV in err.value.message
        # killed with its group: gone, or a zombie waiting for a reaper (it can no longer run)
        assert _ended(grandchild), _state(grandchild)
    finally:
        if grandchild is not None and _state(grandchild) not in (None, "Z"):
            os.kill(grandchild, signal.SIGKILL)


def test_a_tool_past_its_memory_limit_is_reported() -> None:
    # 1 GiB in one allocation cannot fit an address space of 256 MiB: Python raises MemoryError and exits 1
    with pytest.raises(ToolError) as err:
        run_tool([PY, "-c", "bytearray(1 << 30)"], file="big.cl", limits=Limits(seconds=120, memory=256 << 20))
    assert err.value.code == "tool-memory"
    assert err.value.file == "big.cl"
    assert "ran out of memory (limit 256 MiB" in err.value.message


def test_the_same_allocation_passes_without_the_limit() -> None:
    # the control for the test above: it is the limit, not the program, that fails
    proc = run_tool([PY, "-c", "bytearray(1 << 30)"], file=None, limits=Limits(seconds=120, memory=None))
    assert proc.returncode == 0


def test_quoted_source_saying_out_of_memory_is_not_exhaustion() -> None:
    # a compiler quoting the user's line, or repeating its #error text, is an ordinary failure the caller reads
    script = ("import sys; sys.stderr.write(\"a.cl:1:2: error: LLVM ERROR: out of memory\\n"
              "    1 | #error MemoryError\\n\"); sys.exit(1)")
    proc = run_tool([PY, "-c", script], file="a.cl", limits=Limits(seconds=60))
    assert proc.returncode == 1


def test_a_missing_tool_names_the_tool_and_the_file(tmp_path: Path) -> None:
    with pytest.raises(ToolError) as err:
        run_tool([str(tmp_path / "no-such-clang"), "--version"], file="k.cl")
    assert err.value.code == "tool-missing"
    assert err.value.file == "k.cl"
    assert "cannot run no-such-clang" in err.value.message


def test_limits_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TIMEOUT_ENV, raising=False)
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    assert tool_limits() == Limits(300.0, 4 << 30)
    monkeypatch.setenv(TIMEOUT_ENV, "2.5")
    monkeypatch.setenv(MEMORY_ENV, "512M")
    assert tool_limits() == Limits(2.5, 512 << 20)
    monkeypatch.setenv(MEMORY_ENV, "unlimited")
    assert tool_limits().memory is None


@pytest.mark.parametrize(("name", "value"), [(TIMEOUT_ENV, "abc"), (TIMEOUT_ENV, "0"), (TIMEOUT_ENV, "nan"),
                                             (TIMEOUT_ENV, "inf"), (MEMORY_ENV, "lots"), (MEMORY_ENV, "-1")])
def test_bad_limits_are_one_usage_error(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(IsalensError, match=name):
        tool_limits()
