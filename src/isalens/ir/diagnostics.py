"""Diagnostics: messages about the input, anchored to a file and line."""

from __future__ import annotations

from enum import StrEnum

from isalens.records import dataclass


class Severity(StrEnum):
    """How serious a diagnostic is."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A message about the input, anchored to a file and 1-based line when known."""

    severity: Severity
    code: str
    message: str
    file: str | None = None
    line: int | None = None

    def location(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}"
        return self.file or "<input>"

    def format(self) -> str:
        if not self.file:
            return f"{self.severity.value}: {self.message}"
        return f"{self.location()}: {self.severity.value}: {self.message}"
