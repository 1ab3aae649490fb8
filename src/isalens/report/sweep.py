"""Sweep results as one comparison table (text), JSON (the schema-3 document, a ``files`` entry per compile) and CSV."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from isalens.analysis.tiles import TilePlan
from isalens.names import demangled
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
    #: the staged tile the workgroup shape and LDS size describe (the model of `isalens tile`), if any
    tile: TilePlan | None = None
    #: memory store instructions in the code (global, flat, buffer, image; not spills): how many outputs a
    #: work-item writes, where no loop repeats them
    stores: int | None = None

    @property
    def useful_share(self) -> float:
        """Useful items per item loaded into the tile (1 without a tile: no border to pay for)."""
        return self.tile.useful / self.tile.loads if self.tile is not None else 1.0

    @property
    def work_score(self) -> float | None:
        """What "best" weighs: useful work per instruction per SIMD, ``waves_per_simd x useful_share /
        instructions`` (each thread runs the kernel's instructions for one output, and a tile's border makes
        ``loads / useful`` items of staging work per output), None when a figure is missing."""
        if self.waves_per_simd is None or not self.instructions:
            return None
        return self.waves_per_simd * self.useful_share / self.instructions


#: how the text and JSON name what "best" weighed
WEIGHED = ("useful work per instruction per SIMD: waves per SIMD x useful share of the items a tile loads "
           "(tile model of `isalens tile`: workgroup shape + border, from the LDS bytes) / instructions; "
           "ties: fewer VGPRs, fewer instructions")


_FIELDS = ("vgpr_peak", "vgprs", "vgprs_allocated", "sgprs", "waves_per_simd", "llvm_occupancy", "instructions",
           "code_bytes", "lds_bytes", "scratch_bytes")


def _label(row: SweepRow) -> str:
    return " ".join(f"{k}={v}" if v else k for k, v in row.defines.items()) or "(no defines)"


def _kernel_dict(r: SweepRow) -> dict[str, Any]:
    """A kernel object of ``sweep --json``, in the names ``analyze --json`` gives the same figures."""
    occ = None if r.waves_per_simd is None else {"waves_per_simd": r.waves_per_simd,
                                                 "llvm_occupancy": r.llvm_occupancy}
    tile = None if r.tile is None else {
        "dims": list(r.tile.dims), "radius": r.tile.radius, "bytes_per_item": r.tile.bytes_per_item,
        "loads": r.tile.loads, "useful": r.tile.useful,
        "overhead_vs_useful_pct": round(r.tile.overhead_vs_useful_pct, 2)}
    score = r.work_score
    return {"name": r.kernel, "arch": r.arch, "best": r.best, "instructions": r.instructions,
            "vgpr": {"peak_live": r.vgpr_peak, "requested": r.vgprs, "allocated": r.vgprs_allocated},
            "sgpr": {"requested": r.sgprs}, "occupancy": occ, "stats": {"code_bytes": r.code_bytes},
            "lds_bytes": r.lds_bytes, "scratch_bytes": r.scratch_bytes, "stores": r.stores,
            "pressure": list(r.pressure),
            # what "best" weighed, beside the figures it came from
            "work": {"tile": tile, "useful_share": round(r.useful_share, 6),
                     "score": None if score is None else round(score, 6), "weighed": WEIGHED}}


def sweep_dict(rows: Sequence[SweepRow], source: str | None = None) -> dict[str, Any]:
    """The schema-3 document: one ``files`` entry per compile (``file`` the source, its ``defines`` and
    ``arch``, the compile's ``error`` or its kernels)."""
    from isalens.report.document import document, file_entry

    files: list[dict[str, Any]] = []
    last: tuple[Any, ...] | None = None
    for r in rows:
        key = (tuple(r.defines.items()), r.arch)
        if key != last:  # a compile's rows are adjacent: one per kernel, or its one error row
            files.append(file_entry(source, [], defines=dict(r.defines), arch=r.arch, error=None))
            last = key
        if r.error:
            files[-1]["error"] = {"code": "compile", "file": source, "line": None, "message": r.error}
        else:
            files[-1]["kernels"].append(_kernel_dict(r))
    return document("sweep", files=files)


def render_sweep_text(rows: Sequence[SweepRow]) -> str:
    """One row per variant and kernel; ``*`` marks the best variant per target (the most useful work per
    instruction per SIMD, :attr:`SweepRow.work_score`); failed compiles show their error."""
    width = max([len("variant"), *(len(_label(r)) for r in rows)])
    names = [_kernel_name(r.kernel) for r in rows]
    name_width = max([len("kernel"), *map(len, names)])
    head = (f"  {'variant':{width}} {'arch':>8} {'kernel':{name_width}} {'VGPR peak':>9} {'req':>5} {'alloc':>5} "
            f"{'SGPR':>5} {'waves':>6} {'LLVM':>5} {'instrs':>7} {'bytes':>7} {'LDS':>7} {'scratch':>7} {'tile':>10} "
            f"{'+border':>7} {'work':>7}")
    out = [head, "-" * len(head)]
    for r, name in zip(rows, names, strict=True):
        mark = "*" if r.best else " "
        if r.error:
            out.append(f"{mark} {_label(r):{width}} {r.arch:>8} error: {r.error}")
            continue
        cells = [_cell(getattr(r, f)) for f in _FIELDS]
        tile = "-" if r.tile is None else "x".join(map(str, r.tile.dims)) + f" r{r.tile.radius}"
        border = "-" if r.tile is None else f"{r.tile.overhead_vs_useful_pct:.1f}%"
        score = r.work_score
        work = "-" if score is None else f"{1000 * score:.1f}"
        out.append(f"{mark} {_label(r):{width}} {r.arch:>8} {name:{name_width}} {cells[0]:>9} {cells[1]:>5} "
                   f"{cells[2]:>5} {cells[3]:>5} {cells[4]:>6} {cells[5]:>5} {cells[6]:>7} {cells[7]:>7} "
                   f"{cells[8]:>7} {cells[9]:>7} {tile:>10} {border:>7} {work:>7}")
    out.append(f"* best variant per target, weighing {WEIGHED}")
    out.append("  work = 1000 x waves x useful / loads / instructions; +border = border items per useful item")
    out.extend(f"  note: {n}" for n in unequal_work_notes(rows))
    return "\n".join(out) + "\n"


def unequal_work_notes(rows: Sequence[SweepRow]) -> list[str]:
    """Per target and kernel whose variants store different numbers of values, that "work" does not weigh it:
    the score counts one output per work-item, so a define that makes each work-item write more (a transpose
    tile covered by fewer threads) looks worse per instruction while it may be better per output."""
    groups: dict[tuple[str, str], list[SweepRow]] = {}
    for r in rows:
        if not r.error and r.kernel is not None and r.stores is not None:
            groups.setdefault((r.arch, r.kernel), []).append(r)
    notes = []
    for (arch, kernel), group in groups.items():
        if len({r.stores for r in group}) > 1:
            each = ", ".join(f"{_label(r)}: {r.stores}" for r in group)
            notes.append(f"{_kernel_name(kernel)} on {arch}: the variants write different numbers of values per "
                         f"work-item (store instructions: {each}); work assumes the same work per work-item, so "
                         f"compare instructions per store")
    return notes


#: longest kernel name the table shows in full: a C++ kernel's demangled name with its parameter list
_NAME_WIDTH = 40


def _kernel_name(name: str | None) -> str:
    """A kernel as the table names it: demangled (``_Z9transposePfPKfi`` -> ``transpose(float*, float const*,
    int)``), shortened with ``...`` past :data:`_NAME_WIDTH` characters (the JSON and CSV keep the full name)."""
    readable = demangled(name or "")
    return readable if len(readable) <= _NAME_WIDTH else readable[:_NAME_WIDTH - 3] + "..."


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
