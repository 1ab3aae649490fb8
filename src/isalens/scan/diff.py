"""Compare two sets of scan rows kernel by kernel, and the ``--fail-on`` thresholds of a CI gate.

Kernels are matched by (file name, target, kernel, occurrence); when each side holds a single file, the file
name is left out so two builds with different names still match.

``--fail-on`` is a comma-separated list of ``METRIC OP [VALUE]``:

* ``occupancy<``: fail when the new value is below the old one (no value: compare with the base);
* ``vgpr>+8``: a signed value compares the change (new - base), here "grew by more than 8";
* ``spills>0``: an unsigned value compares the new value itself (added kernels too).
"""

from __future__ import annotations

import math
import operator
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from isalens.errors import IsalensError
from isalens.scan.rows import METRICS, row_place

__all__ = ["ALIASES", "Rule", "diff_rows", "parse_fail_on"]

ALIASES = {
    "occupancy": "occupancy_waves", "waves": "occupancy_waves",
    "vgpr": "vgpr_requested", "vgprs": "vgpr_requested", "sgpr": "sgpr_requested", "sgprs": "sgpr_requested",
    "agpr": "agpr_requested", "agprs": "agpr_requested",
    "spills": "spills", "scratch": "scratch_bytes", "lds": "lds_bytes",
    "code": "code_bytes", "size": "code_bytes", "code_bytes": "code_bytes", "instructions": "instructions",
    **{name: name for name in METRICS},
}
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}
_RULE_RE = re.compile(r"^\s*([A-Za-z_]+)\s*(<=|>=|==|!=|<|>)\s*([+-]?\d+(?:\.\d+)?)?\s*$")


@dataclass(frozen=True, slots=True)
class Rule:
    text: str
    metric: str
    op: str
    value: float | None
    relative: bool

    def measurable(self, base: float | None, new: float | None, *, added: bool = False) -> bool:
        """Whether the figures this rule compares are there: the new one, and the base one for a rule against
        the base (``vgpr>`` or ``vgpr>+8``; an added kernel has none and meets only absolute rules)."""
        if new is None:
            return False
        return added or not (self.value is None or self.relative) or base is not None

    def crossed(self, base: float | None, new: float | None) -> bool:
        """Whether this kernel's change crosses the rule."""
        compare = _OPS[self.op]
        if new is None:
            return False
        if self.value is None:
            return base is not None and compare(new, base)
        if self.relative:
            return base is not None and compare(new - base, self.value)
        return compare(new, self.value)


def parse_fail_on(text: str) -> list[Rule]:
    """The rules of a ``--fail-on`` string, or a one-line error naming the bad part."""
    rules = []
    for part in (p for p in text.split(",") if p.strip()):
        match = _RULE_RE.match(part)
        if not match:
            raise IsalensError(f"--fail-on: cannot read {part.strip()!r} (expected e.g. 'occupancy<', 'vgpr>+8', "
                               "'spills>0')", code="usage")
        name, op, value = match.groups()
        metric = ALIASES.get(name.lower())
        if metric is None:
            raise IsalensError(f"--fail-on: unknown metric {name!r} (choose from {', '.join(sorted(ALIASES))})",
                               code="usage")
        relative = value is not None and value[0] in "+-"
        rules.append(Rule(part.strip(), metric, op, float(value) if value is not None else None, relative))
    return rules


#: the columns a diff reads (a library's 88k rows of ~100 columns took 640 MB as dicts of every column)
COLUMNS = ("file", "source", "target", "kernel", "error", "error_line", *METRICS)
#: the rule a kernel that could not be analysed breaks (unless --allow-unanalysed)
UNANALYSED = "unanalysed"


def _keys(rows: list[dict[str, Any]], by_name: bool) -> dict[tuple[str, str, str, int], dict[str, Any]]:
    """Each row by (file name, or "" without ``by_name``; target; kernel; occurrence)."""
    seen: Counter[tuple[str, str, str]] = Counter()
    out = {}
    for row in sorted(rows, key=lambda r: (str(r.get("file")), str(r.get("source")), str(r.get("kernel")))):
        name = PurePath(str(row.get("file"))).name if by_name else ""
        base = (name, str(row.get("target")), str(row.get("kernel")))
        out[(*base, seen[base])] = row
        seen[base] += 1
    return out


def _number(value: Any) -> float | None:
    """A metric as a float; None for what is not a finite number (a result file from elsewhere can hold NaN,
    which compares unequal to itself and would make every kernel "changed")."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _ident(key: tuple[str, str, str, int], row: dict[str, Any]) -> dict[str, Any]:
    return {"file": row.get("file"), "target": key[1], "kernel": key[2], "occurrence": key[3]}


def _unanalysed(side: str, row: dict[str, Any]) -> dict[str, Any]:
    return {"side": side, "file": row.get("file"), "source": row.get("source"), "target": row.get("target"),
            "kernel": row.get("kernel"), "line": row.get("error_line"), "error": row["error"],
            "where": row_place(row)}


def diff_rows(base: list[dict[str, Any]], new: list[dict[str, Any]], rules: Sequence[Rule] = (), *,
              allow_unanalysed: bool = False) -> dict[str, Any]:
    """The diff document: changed, added and removed kernels, errors, and the rules crossed. A kernel that could
    not be analysed, on either side, is a failure (rule ``unanalysed``) unless ``allow_unanalysed``: a gate
    that compared nothing must not pass (issue 28: 460 of 580 kernels unanalysed and exit code 0). So is a rule
    whose figures a kernel's input does not give (``unmeasured``; in ``failures`` with ``measured`` false)."""
    # one file against one file (two builds of a library, renamed or not): kernels match whatever the files are
    # called; otherwise by file name. Decided for both sides at once: one side's single file keyed by "" never
    # met the same file keyed by its name on a side of several files (every kernel was added and removed)
    by_name = len({r.get("file") for r in base}) > 1 or len({r.get("file") for r in new}) > 1
    good_base = _keys([r for r in base if not r.get("error")], by_name)
    good_new = _keys([r for r in new if not r.get("error")], by_name)
    changed: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    # a rule whose figure a kernel's input does not give (ISA text without metadata has no spill count): not
    # kept, so a failure unless allow_unanalysed, as a kernel that could not be analysed
    unmeasured: list[dict[str, Any]] = []
    for key in sorted(good_base.keys() & good_new.keys()):
        b, n = good_base[key], good_new[key]
        metrics = {}
        for m in METRICS:
            vb, vn = _number(b.get(m)), _number(n.get(m))
            if vb != vn:
                metrics[m] = {"base": vb, "new": vn, "delta": None if vb is None or vn is None else vn - vb}
        if metrics:
            changed.append({**_ident(key, n), "metrics": metrics})
        for rule in rules:
            vb, vn = _number(b.get(rule.metric)), _number(n.get(rule.metric))
            if not rule.measurable(vb, vn):
                unmeasured.append({**_ident(key, n), "rule": rule.text, "metric": rule.metric, "base": vb, "new": vn})
            elif rule.crossed(vb, vn):
                failures.append({**_ident(key, n), "rule": rule.text, "base": vb, "new": vn})
    added = sorted(good_new.keys() - good_base.keys())
    for key in added:  # a new kernel can break only absolute rules ("spills>0")
        value = {rule.metric: _number(good_new[key].get(rule.metric)) for rule in rules}
        for rule in rules:
            if rule.value is None or rule.relative:
                continue
            if not rule.measurable(None, value[rule.metric], added=True):
                unmeasured.append({**_ident(key, good_new[key]), "rule": rule.text, "metric": rule.metric,
                                   "base": None, "new": None})
            elif rule.crossed(None, value[rule.metric]):
                failures.append({**_ident(key, good_new[key]), "rule": rule.text, "base": None,
                                 "new": value[rule.metric]})
    removed = sorted(good_base.keys() - good_new.keys())
    errors = [_unanalysed("base", r) for r in base if r.get("error")] + [
        _unanalysed("new", r) for r in new if r.get("error")]
    if not allow_unanalysed:
        failures += [{**u, "measured": False} for u in unmeasured]
        failures += [{"file": e["file"], "target": e["target"], "kernel": e["kernel"], "rule": UNANALYSED,
                      "side": e["side"], "where": e["where"], "error": e["error"], "base": None, "new": None}
                     for e in errors]
    return {
        "schema": 1,
        "changed": changed,
        "added": [_ident(k, good_new[k]) for k in added],
        "removed": [_ident(k, good_base[k]) for k in removed],
        "unchanged": len(good_base.keys() & good_new.keys()) - len(changed),
        "errors": errors,
        "unmeasured": unmeasured,
        "failures": failures,
    }
