"""Bounded reading of input files: every file isalens reads is checked before it is read.

A file is opened without blocking (a FIFO would otherwise wait for a writer), checked to be a regular file
(devices such as ``/dev/zero``, pipes and terminals never end or never answer), and its size compared with the
input cap *before* any byte is read; the read itself stops at the cap too, so a file that grows meanwhile
cannot exceed it. The same cap bounds what a compressed input may decompress to.

The cap is one figure for the process: ``--max-input-size`` on the command line, ``ISALENS_MAX_INPUT_SIZE``
in the environment (both take ``512M``, ``1G``, bytes ...), :func:`set_max_input_size` in the API; 1 GiB
by default. Worker processes forked by a command inherit it.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from isalens.errors import InputError
from isalens.lazyre import LazyPattern

__all__ = ["DEFAULT_MAX_INPUT", "StdinText", "map_file", "max_input_size", "open_regular", "parse_size", "read_file",
           "read_head", "set_max_input_size", "size_text"]

DEFAULT_MAX_INPUT = 1 << 30
_ENV = "ISALENS_MAX_INPUT_SIZE"
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
          "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40}
_SIZE_RE = LazyPattern(r"^\s*(\d+)\s*([A-Za-z]*)\s*$")
_override: int | None = None


class StdinText(str):
    """ISA text read from standard input: read as text like any ``str``, reported as ``<stdin>`` (a plain
    ``str`` from the API is ``<text>``) and never mistaken for a file name."""

    __slots__ = ()
    name = "<stdin>"


def parse_size(text: str) -> int:
    """``512M``, ``1G``, ``4096`` -> bytes (binary units); ValueError for anything else or below 1 KiB."""
    match = _SIZE_RE.match(text)
    unit = _UNITS.get(match.group(2).lower()) if match else None
    if match is None or unit is None or len(match.group(1)) > 20:
        raise ValueError(f"cannot read the size {text!r} (e.g. 512M, 2G, or a number of bytes)")
    value = int(match.group(1)) * unit
    if value < 1024:
        raise ValueError(f"the size {text!r} is below 1 KiB")
    return value


def size_text(n: int) -> str:
    """``1 GiB``, ``512 MiB``, ``1,234,567 bytes``: how messages name a size."""
    for shift, name in ((40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {name}"
    return f"{n:,} bytes"


def set_max_input_size(size: int | None) -> None:
    """Set the cap for this process (None: back to the environment's or the default)."""
    global _override
    _override = size


def max_input_size() -> int:
    """The input cap in force: :func:`set_max_input_size`, else ``ISALENS_MAX_INPUT_SIZE``, else 1 GiB."""
    if _override is not None:
        return _override
    env = os.environ.get(_ENV)
    if env:
        try:
            return parse_size(env)
        except ValueError as exc:
            raise InputError(f"{_ENV}: {exc}", code="usage") from None
    return DEFAULT_MAX_INPUT


def _reason(exc: OSError) -> str:
    return "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


@contextmanager
def open_regular(path: Path, *, cap: int | None = None, what: str = "input") -> Iterator[tuple[int, int]]:
    """The open descriptor and size of the regular file ``path``; one-line errors for anything else (a
    device, a pipe, a directory, a file over ``cap``: default :func:`max_input_size`)."""
    file = str(path)
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; regular files ignore it
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(f"cannot read: {_reason(exc)}", file=file, code="io") from None
    except ValueError as exc:  # a NUL byte in the name
        raise InputError(f"cannot read: {exc}", file=file, code="io") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            hint = " (use '-' for standard input)" if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode) else ""
            raise InputError(f"cannot read: {_kind(st.st_mode)}, not a regular file{hint}", file=file,
                             code="not-regular")
        limit = max_input_size() if cap is None else cap
        if st.st_size > limit:
            raise InputError(f"{what} is {size_text(st.st_size)}, over the {size_text(limit)} input cap "
                             "(--max-input-size)", file=file, code="too-large")
        yield fd, st.st_size
    finally:
        os.close(fd)


def read_file(path: Path, *, cap: int | None = None, what: str = "input") -> bytes:
    """The whole regular file ``path``, at most ``cap`` bytes (checked before reading, and while reading)."""
    with open_regular(path, cap=cap, what=what) as (fd, size):
        limit = max_input_size() if cap is None else cap
        chunks: list[bytes] = []
        got = 0
        try:
            while True:
                chunk = os.read(fd, min(max(size, 1 << 16), limit + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
                if got > limit:
                    raise InputError(f"{what} grew past the {size_text(limit)} input cap while being read",
                                     file=str(path), code="too-large")
        except OSError as exc:
            raise InputError(f"cannot read: {_reason(exc)}", file=str(path), code="io") from None
    return b"".join(chunks)


def read_head(path: Path, n: int = 64) -> bytes:
    """The first ``n`` bytes of ``path`` when it is a regular file, else ``b""`` (used to sniff formats: it
    never blocks on a pipe nor reads a device)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, n)
    except OSError:
        return b""
    finally:
        os.close(fd)


@contextmanager
def map_file(path: Path, *, cap: int | None = None) -> Iterator[bytes | mmap.mmap]:
    """The bytes of the regular file ``path`` memory-mapped (a 1.3 GiB library is not read into memory),
    after the same checks as :func:`read_file`."""
    with open_regular(path, cap=cap, what="binary") as (fd, size):
        if size == 0:  # an empty file cannot be mapped
            yield b""
            return
        try:
            view = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:
            raise InputError(f"cannot map the file: {exc}", file=str(path), code="io") from None
        try:
            yield view
        finally:
            with contextlib.suppress(BufferError):  # a view still exported: the mapping goes with its last user
                view.close()
