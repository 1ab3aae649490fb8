"""Error hierarchy and diagnostics shared by every layer.

Errors carry a file and line so the CLI can print ``file:line: message`` and exit with code 2
without a traceback.
"""

from __future__ import annotations

from isalens.ir.diagnostics import Diagnostic, Severity

__all__ = ["ArchError", "Diagnostic", "InputError", "IsalensError", "ParseError", "Severity",
           "UnknownInstructionError"]


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
