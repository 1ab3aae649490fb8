"""Side-by-side comparison of builds: kernels paired by name, one row per variant, as text, JSON and HTML."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

from isalens.analysis.stats import KernelStats
from isalens.report.html import script_json
from isalens.report.model import KernelReport


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


@dataclass(frozen=True, slots=True)
class Build:
    """One input file of ``compare``: its label and every kernel it holds."""

    label: str
    file: str
    kernels: tuple[KernelReport, ...]


@dataclass(frozen=True, slots=True)
class Pair:
    """One kernel across the builds that hold it (``name``: its name, or ``a vs b`` for one-kernel builds)."""

    name: str
    variants: tuple[Variant, ...]


@dataclass(frozen=True, slots=True)
class Pairing:
    """Kernels paired by name; ``added``/``removed``: (name, labels) of kernels the first build lacks / that
    some later build lacks."""

    pairs: tuple[Pair, ...]
    added: tuple[tuple[str, tuple[str, ...]], ...] = ()
    removed: tuple[tuple[str, tuple[str, ...]], ...] = ()


def pair_kernels(builds: list[Build]) -> Pairing:
    """Pair kernels by name across ``builds``. When every build has one kernel they form one pair whatever
    their names (two builds of one kernel under different names, the layout comparison's case)."""
    if all(len(b.kernels) == 1 for b in builds):
        names = list(dict.fromkeys(b.kernels[0].name for b in builds))
        return Pairing((Pair(" vs ".join(names), tuple(Variant(b.label, b.kernels[0]) for b in builds)),))
    if len(builds) == 1:  # one build: each kernel is shown alone
        return Pairing(tuple(Pair(k.name, (Variant(builds[0].label, k),)) for k in builds[0].kernels))
    order = list(dict.fromkeys(k.name for b in builds for k in b.kernels))
    by_build = [{k.name: k for k in b.kernels} for b in builds]
    pairs = []
    for name in order:
        have = [Variant(b.label, kernels[name]) for b, kernels in zip(builds, by_build, strict=True)
                if name in kernels]
        if len(have) > 1:
            pairs.append(Pair(name, tuple(have)))
    first = by_build[0]
    added = tuple((n, tuple(b.label for b, ks in zip(builds, by_build, strict=True) if n in ks))
                  for n in order if n not in first)
    removed = tuple((n, tuple(b.label for b, ks in zip(builds, by_build, strict=True) if n not in ks))
                    for n in order if n in first and any(n not in ks for ks in by_build[1:]))
    return Pairing(tuple(pairs), added, removed)


def _figures(k: KernelReport) -> dict[str, Any]:
    occ = k.occupancy.occupancy
    return {"vgpr": {"peak_live": k.vgpr.peak_live, "requested": k.vgpr.requested, "allocated": k.vgpr.allocated,
                     "declared": k.vgpr.declared},
            "sgpr": {"peak_live": k.sgpr.peak_live, "requested": k.sgpr.requested, "allocated": k.sgpr.allocated,
                     "declared": k.sgpr.declared},
            "occupancy": None if occ is None else {"waves_per_simd": occ.waves_per_simd,
                                                   "llvm_occupancy": occ.llvm_occupancy}}


def compare_kernel_dict(k: KernelReport) -> dict[str, Any]:
    """A kernel object of ``compare --json``: analyze's names for the figures it shares (``vgpr``, ``sgpr``,
    ``occupancy``, ``instructions``, ``stats.code_bytes``), ``mix`` for the layout figures, ``pressure`` the
    live VGPRs per instruction (analyze's ``lines[].live_vgpr``)."""
    if k.stats is None:
        raise ValueError("a compared kernel needs its statistics (run the stats pass)")
    m = Mix.of(k.stats)
    return {"name": k.name, "arch": k.arch, "instructions": k.instructions, **_figures(k),
            "stats": {"code_bytes": m.code_bytes, "code_bytes_exact": m.code_bytes_exact},
            "mix": {"lds_reads": m.lds_reads, "lds_writes": m.lds_writes, "packed_f16": m.packed_f16,
                    "conversions": m.conversions, "literals": m.literals},
            "pressure": list(k.vgpr_counts)}


def compare_dict(builds: list[Build]) -> dict[str, Any]:
    """``compare --json``: each build a ``files`` entry with its kernel objects, then ``pairs`` (per kernel
    name, the builds' labels and kernel names) and the kernels ``added``/``removed``."""
    from isalens.report.document import document, file_entry

    pairing = pair_kernels(builds)
    files = [file_entry(b.file, [compare_kernel_dict(k) for k in b.kernels], label=b.label) for b in builds]
    return document(
        "compare", files=files,
        pairs=[{"name": p.name, "variants": [{"label": v.label, "kernel": v.kernel.name} for v in p.variants]}
               for p in pairing.pairs],
        added=[{"name": n, "labels": list(labels)} for n, labels in pairing.added],
        removed=[{"name": n, "missing_from": list(labels)} for n, labels in pairing.removed])


def _row(v: Variant) -> dict[str, Any]:
    """One variant's row of the HTML page's table and chart."""
    k, m = v.kernel, v.mix
    return {"label": v.label, "kernel": k.name, "arch": k.arch, "instructions": k.instructions, **_figures(k),
            "code_bytes": m.code_bytes, "code_bytes_exact": m.code_bytes_exact, "lds_reads": m.lds_reads,
            "lds_writes": m.lds_writes, "packed_f16": m.packed_f16, "conversions": m.conversions,
            "literals": m.literals, "pressure": list(k.vgpr_counts),
            # the chart's peak marker: the first instruction at the VGPR peak and its input line
            "peak": None if not k.vgpr.peak_indices else {"index": k.vgpr.peak_indices[0],
                                                           "line": k.vgpr.peak_lines[0]}}


def render_pairing_text(pairing: Pairing) -> str:
    """Each pair's table (headed by the kernel's name when there are several), then the unpaired kernels."""
    out = []
    for p in pairing.pairs:
        if len(pairing.pairs) > 1:
            out.append(f"== {p.name}\n")
        out.append(render_compare_text(list(p.variants)))
    if pairing.added:
        out.append("added (not in the first file): "
                   + ", ".join(f"{n} (in {', '.join(labels)})" for n, labels in pairing.added) + "\n")
    if pairing.removed:
        out.append("removed (in the first file only): "
                   + ", ".join(f"{n} (missing from {', '.join(labels)})" for n, labels in pairing.removed) + "\n")
    if not pairing.pairs:
        out.append("no kernel name is in two files: nothing to pair\n")
    return "\n".join(out)


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


def render_compare_html(pairing: Pairing) -> str:
    """A self-contained page: per pair its table and overlaid pressure curves (absolute or normalised)."""
    data = {"pairs": [{"name": p.name, "variants": [_row(v) for v in p.variants]} for p in pairing.pairs]}
    payload = script_json(data)  # inert inside the page's script element
    page = (resources.files("isalens.report") / "assets" / "compare.html").read_text("utf-8")
    return page.replace("{{DATA}}", payload)
