"""Side-by-side comparison of variants: one row per kernel, rendered as text and as a JSON-ready dict."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

from isalens.analysis.stats import KernelStats
from isalens.report.html import script_json
from isalens.report.model import SCHEMA_VERSION, KernelReport


@dataclass(frozen=True, slots=True)
class Mix:
    """The figures a layout comparison shows, all read from the kernel's statistics (the same figures
    ``analyze`` prints: nothing is counted twice)."""

    lds_reads: dict[str, int]
    lds_writes: dict[str, int]
    packed_f16: int
    conversions: int
    literals: int
    code_bytes: int
    code_bytes_exact: bool

    @classmethod
    def of(cls, s: KernelStats) -> Mix:
        reads: Counter[str] = Counter(a.mnemonic for a in s.lds_accesses if a.form.startswith("read"))
        writes: Counter[str] = Counter(a.mnemonic for a in s.lds_accesses if a.form.startswith("write"))
        return cls(dict(sorted(reads.items())), dict(sorted(writes.items())), s.classes.get("valu.pk.f16", 0),
                   s.classes.get("valu.cvt", 0), s.constants.get("literal", 0), s.code_bytes, s.code_bytes_exact)


@dataclass(frozen=True, slots=True)
class Variant:
    label: str
    kernel: KernelReport

    @property
    def mix(self) -> Mix:
        if self.kernel.stats is None:
            raise ValueError("a compared kernel needs its statistics (run the stats pass)")
        return Mix.of(self.kernel.stats)


def compare_dict(variants: list[Variant]) -> dict[str, Any]:
    rows = []
    for v in variants:
        k, m = v.kernel, v.mix
        occ = k.occupancy.occupancy
        rows.append({
            "label": v.label, "kernel": k.name, "arch": k.arch, "instructions": k.instructions,
            "vgpr": {"peak_live": k.vgpr.peak_live, "requested": k.vgpr.requested, "allocated": k.vgpr.allocated,
                     "declared": k.vgpr.declared},
            "sgpr": {"peak_live": k.sgpr.peak_live, "requested": k.sgpr.requested, "allocated": k.sgpr.allocated,
                     "declared": k.sgpr.declared},
            "occupancy": None if occ is None else {"waves_per_simd": occ.waves_per_simd,
                                                   "llvm_occupancy": occ.llvm_occupancy},
            "code_bytes": m.code_bytes, "code_bytes_exact": m.code_bytes_exact, "lds_reads": m.lds_reads,
            "lds_writes": m.lds_writes,
            "packed_f16": m.packed_f16, "conversions": m.conversions, "literals": m.literals,
            "pressure": list(k.vgpr_counts),
        })
    return {"schema": SCHEMA_VERSION, "variants": rows}


def render_compare_text(variants: list[Variant]) -> str:
    head = (f"{'variant':24} {'arch':>8} {'VGPR peak':>9} {'req':>5} {'alloc':>5} {'SGPR':>5} {'waves':>6} {'LLVM':>5} "
            f"{'instrs':>7} {'bytes':>7} {'LDS rd':>7} {'LDS wr':>7} {'pk f16':>7} {'cvt':>5} {'lit':>5}")
    out = [head, "-" * len(head)]
    forms: set[str] = set()
    for v in variants:
        k, m = v.kernel, v.mix
        occ = k.occupancy.occupancy
        waves = "-" if occ is None else f"{occ.waves_per_simd:g}"
        llvm = "-" if occ is None else str(occ.llvm_occupancy)
        code = str(m.code_bytes) if m.code_bytes_exact else f"~{m.code_bytes}"
        out.append(f"{v.label[:24]:24} {k.arch:>8} {k.vgpr.peak_live:9d} {k.vgpr.requested:5d} {k.vgpr.allocated:5d} "
                   f"{k.sgpr.requested:5d} {waves:>6} {llvm:>5} {k.instructions:7d} {code:>7} "
                   f"{sum(m.lds_reads.values()):7d} {sum(m.lds_writes.values()):7d} {m.packed_f16:7d} "
                   f"{m.conversions:5d} {m.literals:5d}")
        forms |= set(m.lds_reads) | set(m.lds_writes)
    if forms:
        out += ["", "LDS operations by form:"]
        names = sorted(forms)
        out.append(f"{'variant':24} " + " ".join(f"{n:>{max(len(n), 5)}}" for n in names))
        for v in variants:
            counts = {**v.mix.lds_reads, **v.mix.lds_writes}
            out.append(f"{v.label[:24]:24} " + " ".join(f"{counts.get(n, 0):>{max(len(n), 5)}}" for n in names))
    if any(not v.mix.code_bytes_exact for v in variants):
        out += ["", "~ code bytes from the encoding rules (the input has no encoding words)"]
    return "\n".join(out) + "\n"


def render_compare_html(variants: list[Variant]) -> str:
    """A self-contained page: the table and the overlaid pressure curves (absolute or normalised)."""
    payload = script_json(compare_dict(variants))  # inert inside the page's script element
    page = (resources.files("isalens.report") / "assets" / "compare.html").read_text("utf-8")
    return page.replace("{{DATA}}", payload)
