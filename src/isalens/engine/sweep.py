"""``isalens sweep``: compile every combination of defines and targets with the real front end, in parallel
(a process pool), and analyse each compile like ``isalens analyze`` does."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from isalens.analysis.tiles import tile_of_workgroup
from isalens.engine.decode import kernel_stats
from isalens.engine.pool import each_in_order
from isalens.engine.sources import is_source, load_source
from isalens.engine.target import resolve_arch
from isalens.errors import InputError, IsalensError
from isalens.report.sweep import SweepRow

__all__ = ["SweepRow", "mark_best", "parse_sweep_defines", "sweep", "variants"]


def parse_sweep_defines(specs: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``NAME=v1,v2`` (or a bare ``NAME``) -> (name, values); one-line errors for malformed specs."""
    out: list[tuple[str, list[str]]] = []
    for spec in specs:
        name, sep, values = spec.partition("=")
        if not name or not name.replace("_", "").isalnum() or name[0].isdigit():
            raise InputError(f"-D {spec!r}: expected NAME=v1,v2,...", code="usage")
        vals = [v.strip() for v in values.split(",")] if sep else [""]
        if sep and (not vals or any(not v for v in vals)):
            raise InputError(f"-D {spec!r}: empty value in the list", code="usage")
        if name in (n for n, _ in out):
            raise InputError(f"-D {name} is given twice", code="usage")
        out.append((name, vals))
    return out


def variants(defines: Sequence[tuple[str, list[str]]], archs: Sequence[str]) -> list[tuple[dict[str, str], str]]:
    """Every combination, targets outermost, in the order given."""
    names = [n for n, _ in defines]
    combos = itertools.product(*(vals for _, vals in defines)) if defines else [()]
    per = [dict(zip(names, c, strict=True)) for c in combos]
    return [(d, a) for a in archs for d in per]


def _flags(defines: dict[str, str]) -> list[str]:
    return [f"{k}={v}" if v else k for k, v in defines.items()]


#: the instruction classes that write a kernel's outputs to memory (``scratch.store`` is a spill)
_STORES = ("global.store", "flat.store", "vmem.store", "image.store")


def compile_one(source: str, defines: dict[str, str], arch: str) -> list[SweepRow]:
    """Compile and analyse one variant; a failed compile is one row with its error."""
    try:
        module, _ = load_source(Path(source), arch, defines=_flags(defines))
        rows = []
        for kernel in module.kernels:
            result = kernel.analyze()
            stats = kernel_stats(kernel)
            occ = result.occupancy[0] if result.occupancy else None
            d = kernel.ir.declared
            rows.append(SweepRow(
                defines, module.arch.name, kernel.name, None, result.pressure.vgpr.peak,
                result.resources.vgpr.requested, result.resources.vgpr.allocated, result.resources.sgpr.requested,
                occ.waves_per_simd if occ else None, occ.llvm_occupancy if occ else None,
                len(kernel.instructions), stats.code_bytes, d.lds_bytes, d.scratch_bytes,
                result.pressure.vgpr.counts,
                tile=tile_of_workgroup(d.workgroup_size, d.lds_bytes or 0, kernel.arch)
                if d.workgroup_size else None,
                stores=sum(stats.classes.get(c, 0) for c in _STORES)))
        return rows or [SweepRow(defines, arch, error="no kernel in the output")]
    except IsalensError as exc:
        return [SweepRow(defines, arch, error=str(exc))]


def mark_best(rows: Sequence[SweepRow]) -> list[SweepRow]:
    """Mark, per target and kernel, the compiled variant with the most useful work per instruction per SIMD
    (:attr:`SweepRow.work_score`: waves, the tile's border overhead and instructions weighed together; then
    fewest VGPRs, then fewest instructions). Most waves alone called an 8x8 tile best whose border costs
    twice a 16x16 tile's (56% vs 27% more loads than outputs) at the same waves."""
    best: dict[tuple[str, str], SweepRow] = {}
    for row in rows:
        if row.error or row.kernel is None or row.work_score is None:
            continue
        key = (row.arch, row.kernel)
        cur = best.get(key)
        if cur is None or _rank(row) < _rank(cur):
            best[key] = row
    chosen = {id(r) for r in best.values()}
    return [replace(r, best=True) if id(r) in chosen else r for r in rows]


def _rank(row: SweepRow) -> tuple[float, int, int]:
    return (-(row.work_score or 0.0), row.vgprs or 0, row.instructions or 0)


def sweep(source: str | Path, defines: Sequence[tuple[str, list[str]]], archs: Sequence[str],
          jobs: int | None = None) -> list[SweepRow]:
    """Every variant of ``source`` compiled and analysed, in parallel; rows in variant order, best marked."""
    path = Path(source)
    if not is_source(path):
        raise InputError("sweep compiles a source file (.cl .hip .ll .comp .frag .vert .hlsl ...)",
                         file=str(path), code="usage")
    if not path.is_file():
        raise InputError("cannot read: no such file", file=str(path), code="io")
    if not archs:
        raise InputError("sweep needs --arch with one or more targets", code="arch-required")
    for arch in archs:  # a mistyped target is the command's error, not a row per variant (and exit code 0)
        resolve_arch(arch)
    todo = [(str(path), d, a) for d, a in variants(defines, archs)]
    results = each_in_order(_compile_task, todo, jobs, "variants compiled and analysed")
    return mark_best([row for rows in results for row in rows])


def _compile_task(args: tuple[str, dict[str, str], str]) -> list[SweepRow]:
    return compile_one(*args)
