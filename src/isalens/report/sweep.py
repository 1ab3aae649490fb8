"""Sweep results as one comparison table (text), JSON (``variants`` like ``compare --json``) and CSV."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from isalens.report.csv import SafeWriter


@dataclass(frozen=True, slots=True)
class SweepRow:
    """One kernel of one compile (or the compile's error): its defines, target and figures."""

    defines: dict[str, str]
    arch: str
    kernel: str | None = None
    error: str | None = None
    vgpr_peak: int | None = None
    vgprs: int | None = None
    vgprs_allocated: int | None = None
    sgprs: int | None = None
    waves_per_simd: float | None = None
    llvm_occupancy: int | None = None
    instructions: int | None = None
    code_bytes: int | None = None
    lds_bytes: int | None = None
    scratch_bytes: int | None = None
    pressure: tuple[int, ...] = field(default=(), repr=False)
    best: bool = False


_FIELDS = ("vgpr_peak", "vgprs", "vgprs_allocated", "sgprs", "waves_per_simd", "llvm_occupancy", "instructions",
           "code_bytes", "lds_bytes", "scratch_bytes")


def _label(row: SweepRow) -> str:
    return " ".join(f"{k}={v}" if v else k for k, v in row.defines.items()) or "(no defines)"


def sweep_dict(rows: Sequence[SweepRow]) -> dict[str, Any]:
    """``{"schema": 1, "variants": [{defines, arch, kernel, error, best, figures..., pressure}]}``."""
    out = []
    for r in rows:
        doc: dict[str, Any] = {"defines": dict(r.defines), "arch": r.arch, "kernel": r.kernel, "error": r.error,
                               "best": r.best}
        doc.update({f: getattr(r, f) for f in _FIELDS})
        doc["timing"] = None  # filled once the timing model exists
        doc["pressure"] = list(r.pressure)
        out.append(doc)
    return {"schema": 1, "variants": out}


def render_sweep_text(rows: Sequence[SweepRow]) -> str:
    """One row per variant and kernel; ``*`` marks the best variant per target (most waves, then fewest VGPRs
    and instructions); failed compiles show their error."""
    width = max([len("variant"), *(len(_label(r)) for r in rows)])
    head = (f"  {'variant':{width}} {'arch':>8} {'kernel':16} {'VGPR peak':>9} {'req':>5} {'alloc':>5} {'SGPR':>5} "
            f"{'waves':>6} {'LLVM':>5} {'instrs':>7} {'bytes':>7} {'LDS':>7} {'scratch':>7}")
    out = [head, "-" * len(head)]
    for r in rows:
        mark = "*" if r.best else " "
        if r.error:
            out.append(f"{mark} {_label(r):{width}} {r.arch:>8} error: {r.error}")
            continue
        cells = [_cell(getattr(r, f)) for f in _FIELDS]
        out.append(f"{mark} {_label(r):{width}} {r.arch:>8} {(r.kernel or '')[:16]:16} {cells[0]:>9} {cells[1]:>5} "
                   f"{cells[2]:>5} {cells[3]:>5} {cells[4]:>6} {cells[5]:>5} {cells[6]:>7} {cells[7]:>7} "
                   f"{cells[8]:>7} {cells[9]:>7}")
    out.append("* best variant per target: most waves per SIMD, then fewest VGPRs, then fewest instructions")
    return "\n".join(out) + "\n"


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def render_sweep_csv(rows: Sequence[SweepRow]) -> str:
    """One CSV line per row: variant, each define, arch, kernel, figures, best, error."""
    names = sorted({k for r in rows for k in r.defines})
    buf = io.StringIO()
    w = SafeWriter(buf)  # kernel names, defines and messages are text from elsewhere: no spreadsheet formulas
    w.writerow(["variant", *names, "arch", "kernel", *_FIELDS, "best", "error"])
    for r in rows:
        w.writerow([_label(r), *(r.defines.get(n, "") for n in names), r.arch, r.kernel or "",
                    *("" if getattr(r, f) is None else getattr(r, f) for f in _FIELDS), int(r.best), r.error or ""])
    return buf.getvalue()
