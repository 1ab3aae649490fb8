"""Run an external tool (clang, llc, llvm-mc, llvm-objdump, glslang, the RADV child) inside bounds.

Every tool gets its standard input from ``/dev/null`` (or from a pipe holding only the text we pass and then
end-of-file), a time limit and an address-space limit, and runs in a process group of its own, so that on
timeout the whole group (clang's own children included) is killed. Running out of time, out of memory or not
starting at all becomes one :class:`ToolError` naming the input file and the tool; any other exit status is
the caller's to read.

Limits: ``ISALENS_TOOL_TIMEOUT`` (seconds, default 300) and ``ISALENS_TOOL_MEMORY`` (``4G``, ``512M``, bytes;
``0`` or ``unlimited`` for none; default 4 GiB), or :class:`Limits` passed by the caller.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import math
import os
import re
import resource
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from isalens.errors import IsalensError
from isalens.reading import parse_size, size_text

__all__ = ["DEFAULT_MEMORY", "DEFAULT_TIMEOUT", "MEMORY_ENV", "TIMEOUT_ENV", "Limits", "ToolError", "run_tool",
           "tool_limits"]

TIMEOUT_ENV = "ISALENS_TOOL_TIMEOUT"
MEMORY_ENV = "ISALENS_TOOL_MEMORY"
#: seconds: a large OpenCL kernel compiles in seconds; five minutes means the tool is stuck (a FIFO, a loop)
DEFAULT_TIMEOUT = 300.0
#: bytes of address space: clang -O3 on our largest corpus kernels stays well under 1 GiB
DEFAULT_MEMORY = 4 << 30

# What a tool prints when an allocation fails under RLIMIT_AS: LLVM's "LLVM ERROR: out of memory" /
# "Allocation failed", C++'s std::bad_alloc, Python's MemoryError (the RADV child), glibc's strerror(ENOMEM),
# and the dynamic loader's "failed to map segment from shared object" (the limit is below the tool's own size).
# Anchored at the start of a line: a compiler quoting the user's source ("  1 | #error out of memory") or
# repeating a message from it ("a.cl:1:2: error: ...") must not read as exhaustion.
_OUT_OF_MEMORY = re.compile(r"^(?:LLVM ERROR: out of memory|Allocation failed|terminate called after throwing an "
                            r"instance of 'std::bad_alloc'|MemoryError\b|[^:\n]+: error while loading shared "
                            r"libraries: .*(?:failed to map segment|Cannot allocate memory))", re.MULTILINE)
# After the kill, how long to wait for the pipes to close (a grandchild that left the group may hold them).
_DRAIN_SECONDS = 5.0


class ToolError(IsalensError):
    """An external tool ran out of time or memory, or could not be started; ``details`` has the command."""

    def __init__(self, message: str, *, file: str | None, code: str, details: str = "") -> None:
        super().__init__(message, file=file, code=code)
        self.details = details


@dataclass(frozen=True)
class Limits:
    """Wall-clock seconds and address-space bytes (None: no memory limit) for one tool run."""

    seconds: float = DEFAULT_TIMEOUT
    memory: int | None = DEFAULT_MEMORY


def _env_timeout() -> float:
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise IsalensError(f"{TIMEOUT_ENV}={text!r}: expected a number of seconds above 0", code="usage")
    return seconds


def _env_memory() -> int | None:
    text = os.environ.get(MEMORY_ENV, "").strip()
    if not text:
        return DEFAULT_MEMORY
    if text.lower() in ("0", "none", "unlimited"):
        return None
    try:
        return parse_size(text)
    except ValueError:
        raise IsalensError(f"{MEMORY_ENV}={text!r}: expected a size such as 4G or 512M (or 0 for no limit)",
                           code="usage") from None


def tool_limits() -> Limits:
    """The limits in force: ``ISALENS_TOOL_TIMEOUT`` and ``ISALENS_TOOL_MEMORY``, else the defaults."""
    return Limits(_env_timeout(), _env_memory())


def _address_space_cap(memory: int | None) -> Callable[[], None] | None:
    """The child's pre-exec step: lower RLIMIT_AS (never above the hard limit we were given ourselves).

    A bound builtin, not a Python function: the forked child runs as little interpreter code as possible."""
    if memory is None:
        return None
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    return functools.partial(resource.setrlimit, resource.RLIMIT_AS, (cap, cap))


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(proc.pid, signal.SIGKILL)


def run_tool(cmd: Sequence[str], *, file: str | Path | None, input: str | None = None,
             env: Mapping[str, str] | None = None, limits: Limits | None = None,
             name: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` (text mode, stdout and stderr captured) within ``limits`` (default: :func:`tool_limits`).

    ``input`` is written to the tool's stdin, which then ends; without it stdin is ``/dev/null``. ``file`` is
    the user's input the run is for (named in errors), ``name`` what to call the tool (default: its file name).
    Raises :class:`ToolError` on timeout, memory exhaustion or a tool that cannot be started.
    """
    bounds = limits or tool_limits()
    tool = name or Path(cmd[0]).name
    where = None if file is None else str(file)
    command = " ".join(cmd)
    try:
        proc = subprocess.Popen(
            list(cmd), stdin=subprocess.DEVNULL if input is None else subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, errors="replace", env=None if env is None else dict(env),
            process_group=0, preexec_fn=_address_space_cap(bounds.memory))
    except OSError as exc:
        if exc.errno == errno.ENOMEM:  # the tool could not even be loaded within the memory limit
            raise _memory_error(tool, where, bounds, command) from None
        raise ToolError(f"cannot run {tool}: {exc.strerror or exc}", file=where, code="tool-missing",
                        details=command) from None
    try:
        stdout, stderr = proc.communicate(input, timeout=bounds.seconds)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            proc.communicate(timeout=_DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        raise ToolError(f"{tool} did not finish within {bounds.seconds:g} s and was stopped (the limit is set by "
                        f"{TIMEOUT_ENV})", file=where, code="tool-timeout", details=command) from None
    except BaseException:  # Ctrl-C, or an error while writing input: leave nothing running behind us
        _kill_group(proc)
        proc.wait()
        raise
    if proc.returncode != 0 and bounds.memory is not None and _OUT_OF_MEMORY.search(stderr):
        raise _memory_error(tool, where, bounds, f"{command}\n{stderr.strip()}")
    return subprocess.CompletedProcess(list(cmd), proc.returncode, stdout, stderr)


def _memory_error(tool: str, where: str | None, bounds: Limits, details: str) -> ToolError:
    limit = size_text(bounds.memory) if bounds.memory is not None else "none"
    return ToolError(f"{tool} ran out of memory (limit {limit}, set by {MEMORY_ENV})", file=where,
                     code="tool-memory", details=details)
