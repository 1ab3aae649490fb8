"""Register, occupancy and size budgets for a project's own kernels (``isalens check --budget isalens.toml``).

    paths = ["build/kernels.hipfb"]      # what to check (command-line paths replace these)

    [defaults]                           # limits every kernel gets
    spills = 0

    [[budget]]                           # limits for the kernels that match (later entries win)
    kernel = "gemm_*"                    # shell glob on the kernel name (default "*")
    target = "gfx90a*"                   # shell glob on the target (default "*")
    vgpr = 128                           # at most: vgpr sgpr agpr spills scratch lds code_bytes instructions
    occupancy = 4                        # at least: occupancy (waves per SIMD)

A budget file often comes with the code it checks (``isalens check`` on a pull request), so it is read as
hostile: its ``paths`` stay inside the budget file's own directory tree (relative, no ``..`` or symlink leading
out, no devices or pipes), nothing from a file it names is echoed, and every value is checked against the shape
above (types, finite numbers in range); all problems are named on one line.
"""

from __future__ import annotations

import fnmatch
import math
import os
import re
import stat
import tomllib
from pathlib import Path, PurePath
from typing import Any

from isalens.errors import IsalensError
from isalens.names import name_matches
from isalens.reading import read_file
from isalens.scan.diff import ALIASES
from isalens.scan.rows import printable, row_place

__all__ = ["Budget", "check_rows", "read_budget"]

_AT_LEAST = {"occupancy_waves"}
#: a budget file is a few lines; the cap keeps ``--budget`` on a huge or endless file from being read whole
_MAX_BUDGET_BYTES = 1 << 20
#: largest limit: every integer up to 2**53 is exact as a float, and no register count or byte size comes near
_MAX_LIMIT = 2**53
#: longest kernel/target glob (fnmatch compiles each into a regular expression)
_MAX_GLOB = 4096
#: how many problems the one-line message names before it counts the rest
_SHOWN = 5
_TOP_KEYS = ("paths", "defaults", "budget")


class Budget:
    """The parsed budget file."""

    def __init__(self, paths: list[str], defaults: dict[str, float], entries: list[dict[str, Any]]) -> None:
        self.paths, self.defaults, self.entries = paths, defaults, entries

    def columns(self) -> set[str]:
        """The scan-result columns checking needs: who the row is, and every metric a limit names."""
        names = {"file", "source", "target", "kernel", "error", "error_code", "error_line"} | set(self.defaults)
        for entry in self.entries:
            names |= set(entry["limits"])
        return names

    def limits(self, kernel: str, target: str) -> dict[str, float]:
        out = dict(self.defaults)
        for entry in self.entries:
            if name_matches(entry["kernel"], kernel) and fnmatch.fnmatchcase(target, entry["target"]):
                out.update(entry["limits"])
        return out


def _shown(text: str, limit: int = 60) -> str:
    """A key or path from the file as a message shows it: printable and short."""
    clean = printable(text[:limit])
    return repr(clean + ("..." if len(text) > limit else ""))


def _kind(value: object) -> str:
    return {dict: "a table", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number"}.get(type(value), "a date or time")


def _limits(table: dict[str, Any], where: str, problems: list[str], *, globs: bool) -> dict[str, float]:
    """The limits of one table; what is wrong goes to ``problems`` (one message per key)."""
    out = {}
    for key, value in table.items():
        if globs and key in ("kernel", "target"):
            continue
        metric = ALIASES.get(key.lower())
        if metric is None:
            problems.append(f"{where}: unknown limit {_shown(key)} (choose from {', '.join(sorted(ALIASES))})")
        elif not isinstance(value, int | float) or isinstance(value, bool):
            problems.append(f"{where}: {key} must be a number, not {_kind(value)}")
        elif isinstance(value, float) and not math.isfinite(value):
            problems.append(f"{where}: {key} must be a finite number (not nan or inf)")
        elif not 0 <= value <= _MAX_LIMIT:  # compared before float(): a 5,000-digit hex integer overflows it
            problems.append(f"{where}: {key} must be between 0 and 2**53")
        else:
            out[metric] = float(value)
    return out


def _glob(table: dict[str, Any], key: str, where: str, problems: list[str]) -> str:
    value = table.get(key, "*")
    if not isinstance(value, str):
        problems.append(f"{where}: {key} must be a string (a shell glob), not {_kind(value)}")
        return "*"
    if len(value) > _MAX_GLOB:
        problems.append(f"{where}: {key} is longer than {_MAX_GLOB} characters")
        return "*"
    return value


def _confined(raw: str, base: Path, where: str, problems: list[str], *, exists: bool) -> str | None:
    """``raw`` resolved inside ``base`` (the budget file's resolved directory), or None with the problem noted;
    ``exists``: it must also be a regular file or a directory now. Only the path is ever named: nothing of a
    file is read here, so nothing of it can reach a message."""
    pure = PurePath(raw)
    if not raw or "\0" in raw:
        problems.append(f"{where}: empty or holds a NUL character")
        return None
    if pure.is_absolute():
        problems.append(f"{where}: {_shown(raw)} is absolute; paths are relative to the budget file's directory")
        return None
    try:
        resolved = (base / pure).resolve()  # symlinks and ".." followed, then the result checked
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python 3.11)
        problems.append(f"{where}: {_shown(raw)}: cannot resolve ({getattr(exc, 'strerror', None) or 'loop'})")
        return None
    if not resolved.is_relative_to(base):
        problems.append(f"{where}: {_shown(raw)} leads outside the budget file's directory")
        return None
    if not exists:
        return str(resolved)
    try:
        mode = os.stat(resolved).st_mode
    except FileNotFoundError:
        problems.append(f"{where}: {_shown(raw)}: no such file or directory")
        return None
    except OSError as exc:
        problems.append(f"{where}: {_shown(raw)}: {exc.strerror}")
        return None
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        problems.append(f"{where}: {_shown(raw)} is not a regular file or directory (a device, pipe or socket)")
        return None
    return str(resolved)


def _paths(doc: dict[str, Any], base: Path, problems: list[str], *, exists: bool) -> list[str]:
    paths = doc.get("paths", [])
    if not isinstance(paths, list):
        problems.append(f"paths must be an array of strings, not {_kind(paths)}")
        return []
    out = []
    for i, raw in enumerate(paths):
        if not isinstance(raw, str):
            problems.append(f"paths[{i}] must be a string, not {_kind(raw)}")
        elif (resolved := _confined(raw, base, f"paths[{i}]", problems, exists=exists)) is not None:
            out.append(resolved)
    return out


def _entries(doc: dict[str, Any], problems: list[str]) -> list[dict[str, Any]]:
    tables = doc.get("budget", [])
    if not isinstance(tables, list):
        problems.append(f"budget must be an array of tables ([[budget]]), not {_kind(tables)} ([budget])")
        return []
    entries = []
    for i, table in enumerate(tables):
        where = f"[[budget]] #{i + 1}"
        if not isinstance(table, dict):
            problems.append(f"{where} must be a table, not {_kind(table)}")
            continue
        entries.append({"kernel": _glob(table, "kernel", where, problems),
                        "target": _glob(table, "target", where, problems),
                        "limits": _limits(table, where, problems, globs=True)})
    return entries


#: dotted parts a budget key may have (it needs two: [[budget]] tables and their limits)
_MAX_KEY_PARTS = 64


def _parse(path: Path) -> dict[str, Any]:
    file = str(path)
    data = read_file(path, cap=_MAX_BUDGET_BYTES, what="budget file")  # devices, pipes, huge files refused
    # tomllib's time grows with the square of a dotted key's parts ("[a.a.a...]" of 200 KB: 27 s); a budget
    # needs two levels, so a key of more than 64 parts is refused before parsing
    for number, line in enumerate(data.splitlines(), start=1):
        if line.count(b".") > _MAX_KEY_PARTS and re.match(rb"\s*\[|\s*[\w\"'-]+\s*\.", line):
            raise IsalensError(f"not a TOML budget: a key of more than {_MAX_KEY_PARTS} dotted parts", file=file,
                               line=number, code="budget")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise IsalensError(f"not a TOML budget: not UTF-8 text (byte {exc.start})", file=file,
                           code="budget") from None
    except tomllib.TOMLDecodeError as exc:
        raise IsalensError(f"not a TOML budget: {exc}", file=file, code="budget") from None
    except RecursionError:
        raise IsalensError("not a TOML budget: arrays or tables nested too deeply", file=file,
                           code="budget") from None


def read_budget(path: Path, *, paths_needed: bool = True) -> Budget:
    """Parse ``path``; a one-line error names the file and every problem in it. ``paths_needed=False`` (the
    command line names what to check): ``paths`` are still confined, but need not exist."""
    doc = _parse(path)
    problems: list[str] = []
    for key in doc:
        if key not in _TOP_KEYS:
            problems.append(f"unknown key {_shown(key)} (a budget file has {', '.join(_TOP_KEYS)})")
    try:
        base = path.parent.resolve(strict=True)
    except (OSError, RuntimeError):
        raise IsalensError("cannot resolve the budget file's directory", file=str(path), code="io") from None
    paths = _paths(doc, base, problems, exists=paths_needed)
    defaults = doc.get("defaults", {})
    if not isinstance(defaults, dict):
        problems.append(f"defaults must be a table ([defaults]), not {_kind(defaults)}")
        defaults = {}
    limits = _limits(defaults, "[defaults]", problems, globs=False)
    entries = _entries(doc, problems)
    if problems:
        more = f"; and {len(problems) - _SHOWN} more" if len(problems) > _SHOWN else ""
        raise IsalensError("; ".join(problems[:_SHOWN]) + more, file=str(path), code="budget")
    return Budget(paths, limits, entries)


def check_rows(rows: list[dict[str, Any]], budget: Budget, *, allow_unanalysed: bool = False) -> dict[str, Any]:
    """The check document: every limit a kernel breaks, the kernels checked and those that could not be analysed
    (each a violation, metric ``error``, unless ``allow_unanalysed``: a budget nothing was measured against is
    not kept), and the limits whose figure a kernel's input does not give (``unmeasured``; each a violation with
    ``value`` None unless ``allow_unanalysed``)."""
    violations = []
    unanalysed = []
    unmeasured = []
    checked = 0
    for row in rows:
        if row.get("error"):
            where = row_place(row)
            unanalysed.append({"file": row.get("file"), "target": row.get("target"), "kernel": row.get("kernel"),
                               "line": row.get("error_line"), "where": where, "error": row["error"]})
            if not allow_unanalysed:
                violations.append({"file": row.get("file"), "target": row.get("target"),
                                   "kernel": row.get("kernel"), "where": where, "metric": "error", "limit": None,
                                   "value": row["error"]})
            continue
        checked += 1
        for metric, limit in budget.limits(str(row.get("kernel")), str(row.get("target"))).items():
            value = row.get(metric)
            entry = {"file": row.get("file"), "target": row.get("target"), "kernel": row.get("kernel"),
                     "metric": metric, "limit": limit, "kind": "at least" if metric in _AT_LEAST else "at most"}
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                # the input does not give this figure (ISA text without metadata has no LDS size): a limit
                # nothing was measured against is not kept, as a kernel that could not be analysed
                unmeasured.append(entry)
                if not allow_unanalysed:
                    violations.append({**entry, "value": None})
            elif value < limit if metric in _AT_LEAST else value > limit:
                violations.append({**entry, "value": value})
    return {"schema": 1, "kernels": checked, "unanalysed": unanalysed, "unmeasured": unmeasured,
            "violations": violations}
