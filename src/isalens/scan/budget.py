"""Register, occupancy and size budgets for a project's own kernels (``isalens check --budget isalens.toml``).

    paths = ["build/kernels.hipfb"]      # what to check (command-line paths replace these)

    [defaults]                           # limits every kernel gets
    spills = 0

    [[budget]]                           # limits for the kernels that match (later entries win)
    kernel = "gemm_*"                    # shell glob on the kernel name (default "*")
    target = "gfx90a*"                   # shell glob on the target (default "*")
    vgpr = 128                           # at most: vgpr sgpr agpr spills scratch lds code_bytes instructions
    occupancy = 4                        # at least: occupancy (waves per SIMD)
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path
from typing import Any

from isalens.errors import IsalensError
from isalens.scan.diff import ALIASES

__all__ = ["Budget", "check_rows", "read_budget"]

_AT_LEAST = {"occupancy_waves"}


class Budget:
    """The parsed budget file."""

    def __init__(self, paths: list[str], defaults: dict[str, float], entries: list[dict[str, Any]]) -> None:
        self.paths, self.defaults, self.entries = paths, defaults, entries

    def limits(self, kernel: str, target: str) -> dict[str, float]:
        out = dict(self.defaults)
        for entry in self.entries:
            if fnmatch.fnmatchcase(kernel, entry["kernel"]) and fnmatch.fnmatchcase(target, entry["target"]):
                out.update(entry["limits"])
        return out


def _limits(table: dict[str, Any], where: str, file: str) -> dict[str, float]:
    out = {}
    for key, value in table.items():
        if key in ("kernel", "target"):
            continue
        metric = ALIASES.get(key.lower())
        if metric is None:
            raise IsalensError(f"{where}: unknown limit {key!r} (choose from {', '.join(sorted(ALIASES))})",
                               file=file, code="budget")
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise IsalensError(f"{where}: {key} must be a number", file=file, code="budget")
        out[metric] = float(value)
    return out


def read_budget(path: Path) -> Budget:
    """Parse ``path``; a one-line error names the file and what is wrong."""
    file = str(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise IsalensError(f"cannot read: {exc.strerror}", file=file, code="io") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise IsalensError(f"not a TOML budget: {exc}", file=file, code="budget") from None
    paths = doc.get("paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise IsalensError("paths must be a list of strings", file=file, code="budget")
    entries = []
    for i, table in enumerate(doc.get("budget", [])):
        entries.append({"kernel": str(table.get("kernel", "*")), "target": str(table.get("target", "*")),
                        "limits": _limits(table, f"[[budget]] #{i + 1}", file)})
    base = path.parent
    return Budget([str(base / p) for p in paths], _limits(doc.get("defaults", {}), "[defaults]", file), entries)


def check_rows(rows: list[dict[str, Any]], budget: Budget) -> dict[str, Any]:
    """The check document: every limit a kernel breaks, and the kernels checked."""
    violations = []
    checked = 0
    for row in rows:
        if row.get("error"):
            violations.append({"file": row.get("file"), "target": row.get("target"), "kernel": row.get("kernel"),
                               "metric": "error", "limit": None, "value": row["error"]})
            continue
        checked += 1
        for metric, limit in budget.limits(str(row.get("kernel")), str(row.get("target"))).items():
            value = row.get(metric)
            if not isinstance(value, int | float):
                continue
            broken = value < limit if metric in _AT_LEAST else value > limit
            if broken:
                violations.append({"file": row.get("file"), "target": row.get("target"), "kernel": row.get("kernel"),
                                   "metric": metric, "limit": limit, "value": value,
                                   "kind": "at least" if metric in _AT_LEAST else "at most"})
    return {"schema": 1, "kernels": checked, "violations": violations}
