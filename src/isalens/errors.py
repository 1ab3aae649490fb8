"""Error hierarchy and diagnostics shared by every layer.

Errors carry a file and line so the CLI can print ``file:line: message`` and exit with code 2
without a traceback.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager

from isalens.ir.diagnostics import Diagnostic, Severity

__all__ = ["READER_LIBRARIES", "ArchError", "Diagnostic", "InputError", "IsalensError", "MissingPathError",
           "ParseError", "Severity", "UnknownInstructionError", "guarded", "raised_by_library"]


class IsalensError(Exception):
    """Base for every error isalens reports to users (exit code 2)."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 code: str = "error") -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.code = code

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(Severity.ERROR, self.code, self.message, self.file, self.line)

    def __str__(self) -> str:
        return self.diagnostic().format()


class ParseError(IsalensError):
    """The input text is not ISA we can read."""


class UnknownInstructionError(ParseError):
    """A mnemonic we have no semantics for (use --ignore-unknown to continue)."""


class ArchError(IsalensError):
    """Unknown, missing or conflicting target architecture."""


class InputError(IsalensError):
    """The input file cannot be read or contains no kernel."""


class MissingPathError(InputError, FileNotFoundError):
    """A ``str`` given to the API that can only be a file name names no file. It is an input error like any
    other (one line, exit 2; the fuzzer's API targets count it as a rejection), and also the
    :class:`FileNotFoundError` (``errno`` ENOENT, ``filename``) a Python caller expects of a missing path."""

    def __init__(self, name: str) -> None:
        reason = "no such file (a one-word str that looks like a path is taken as one; ISA text has instructions)"
        InputError.__init__(self, reason, file=name, code="io")
        self.errno, self.strerror, self.filename = errno.ENOENT, reason, name


#: the libraries whose exceptions on damaged input are the input's fault, not ours (issue 25: "one guarded
#: boundary per reader"); an exception raised in our own code stays an internal error (a bug to fix)
READER_LIBRARIES = frozenset({"elftools", "construct", "msgpack", "zstandard", "zstd", "zlib", "duckdb",
                              "pyarrow", "tomllib", "_duckdb"})


def raised_by_library(exc: BaseException, libraries: frozenset[str] = READER_LIBRARIES) -> bool:
    """Whether ``exc`` comes from one of ``libraries``: its type is theirs (``zlib.error``, ``ELFError``), or
    the innermost Python frame it passed through is theirs (a ``struct.error`` inside pyelftools)."""
    if type(exc).__module__.split(".", 1)[0] in libraries:
        return True
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return False
    module = str(last.tb_frame.f_globals.get("__name__", ""))
    return module.split(".", 1)[0] in libraries


@contextmanager
def guarded(file: str, what: str, *, code: str = "damaged",
            libraries: frozenset[str] = READER_LIBRARIES) -> Iterator[None]:
    """``with guarded(file, "code object"):`` turns any exception a reader library raises on damaged input into
    one :class:`InputError` naming ``file`` and what was damaged; :class:`IsalensError` and our own bugs pass."""
    try:
        yield
    except IsalensError:
        raise
    except Exception as exc:
        if not raised_by_library(exc, libraries):
            raise
        text = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise InputError(f"{what}: damaged ({type(exc).__name__}: {text})", file=file, code=code) from None
