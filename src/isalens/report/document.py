"""The one JSON document every command prints (schema 3): a version header and either ``files`` (each with its
``kernels``) or the calculator's own section (``occupancy``, ``tile``, ``decode``).

Every kernel object uses the section names ``analyze --json`` uses (``vgpr``, ``occupancy``, ``timing``,
``advice`` ...), so a script reads one vocabulary whichever command made the document. The JSON Schemas are
``isalens/schema/*.json``; docs/schema/README.md lists what changed from schema 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from isalens.errors import Diagnostic
from isalens.report.model import SCHEMA_VERSION

__all__ = ["SCHEMA", "diagnostic_dict", "document", "error_entry", "file_entry"]

#: the document version: 3 since every command shares the envelope (docs/schema/README.md)
SCHEMA = SCHEMA_VERSION


def document(command: str, **body: Any) -> dict[str, Any]:
    """``{"schema", "isalens_version", "command", **body}``: the envelope of every command's ``--json``."""
    from isalens.version import __version__

    return {"schema": SCHEMA, "isalens_version": __version__, "command": command, **body}


def error_entry(file: str | None, code: str, line: int | None, message: str,
                where: str | None = None) -> dict[str, Any]:
    """A file that could not be read: its ``error`` instead of kernels (``where``: the file the error names)."""
    return {"file": file, "kernels": [], "error": {"code": code, "file": where, "line": line, "message": message}}


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    return {"severity": d.severity.value, "code": d.code, "file": d.file, "line": d.line, "message": d.message}


def file_entry(file: str | None, kernels: list[dict[str, Any]], *, dialect: str | None = None,
               diagnostics: Sequence[Diagnostic] = (), compiler_stats: dict[str, str | int] | None = None,
               **extra: Any) -> dict[str, Any]:
    """One input's entry of ``files``: what ``analyze`` gives every file, with the kernels a command made."""
    return {"file": file, "dialect": dialect, "kernels": kernels, "compiler_stats": compiler_stats or None,
            "diagnostics": [diagnostic_dict(d) for d in diagnostics], **extra}
