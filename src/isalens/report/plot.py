"""Static plots (matplotlib, PNG or SVG by the file's extension). matplotlib is optional: install
``isalens[plot]``; without it plotting is a clear error, nothing else changes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from isalens.analysis.occupancy import Curve, Occupancy

_LABELS = {"vgprs": "VGPRs per thread", "lds_bytes": "LDS bytes per workgroup",
           "workgroup_size": "threads per workgroup"}


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("plots need matplotlib: pip install 'isalens[plot]'") from None
    return plt


def plot_occupancy(occ: Occupancy, curves: tuple[Curve, ...], current: dict[str, int], out: Path) -> Path:
    """The three occupancy graphs (vs VGPRs, LDS, workgroup size) with the current point marked."""
    if out.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"{out}: plots are written as .png or .svg")
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(curves), figsize=(5 * len(curves), 3.6), squeeze=False)
    for ax, curve in zip(axes[0], curves, strict=True):
        ax.step(curve.x, curve.waves_per_simd, where="post", label="waves per SIMD (whole workgroups)")
        ax.step(curve.x, curve.llvm_occupancy, where="post", linestyle="--", alpha=0.7,
                label="LLVM '; Occupancy:'")
        if curve.resource in current:
            ax.axvline(current[curve.resource], color="red", linewidth=1)
            ax.plot([current[curve.resource]], [occ.waves_per_simd], "o", color="red")
        ax.set_xlabel(_LABELS.get(curve.resource, curve.resource))
        ax.set_ylabel("waves per SIMD")
        ax.set_ylim(0, occ.max_waves_per_simd + 1)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize="small", loc="upper right")
    fig.suptitle(f"{occ.arch} wave{occ.wave_size}: occupancy {occ.waves_per_simd:g}/{occ.max_waves_per_simd}")
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None} if out.suffix.lower() == ".svg" else None)
    plt.close(fig)
    return out


def plot_pressure(series: list[tuple[str, tuple[int, ...]]], out: Path, *, title: str,
                  thresholds: Sequence[tuple[int, str]] = (), normalise: bool = False) -> Path:
    """Live VGPRs per instruction for one or more kernels (overlaid), with occupancy threshold lines.

    ``normalise`` plots against the position in each kernel (0-100%) so variants of different lengths align.
    """
    if out.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"{out}: plots are written as .png or .svg")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(10, 4))
    for label, counts in series:
        n = max(len(counts), 1)
        xs = [100.0 * i / n for i in range(len(counts))] if normalise else list(range(len(counts)))
        ax.plot(xs, counts, linewidth=1, label=label)
        if counts:
            peak = max(counts)
            at = counts.index(peak)
            ax.plot([xs[at]], [peak], "v", markersize=7)
    for level, text in thresholds:
        ax.axhline(level, color="grey", linestyle=":", linewidth=1)
        ax.text(0, level, f" {text}", va="bottom", fontsize="small", color="grey")
    ax.set_xlabel("position in kernel (%)" if normalise else "instruction index")
    ax.set_ylabel("live VGPRs")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None} if out.suffix.lower() == ".svg" else None)
    plt.close(fig)
    return out
