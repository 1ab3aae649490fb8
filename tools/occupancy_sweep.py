#!/usr/bin/env python3
"""Build an oracle table of LLVM's ``; Occupancy:`` figures by compiling tiny OpenCL kernels.

Every kernel is empty apart from one ``asm volatile`` statement whose clobber list names the
highest register it must "use" (``v<N-1>``, ``a<N-1>``, ``s<N-1>``), and, when local memory is
wanted, a ``__local char lds[B]`` array passed to the same statement as an ``"s"`` operand, so
the array is referenced and allocated without costing a VGPR. Register counts, LDS size,
work-group attribute, wave size and CU/WGP mode are therefore under our control, and the
assembly's ``; Kernel info:`` comments plus the HSA metadata give LLVM's view of the result.

Many kernels share one ``.cl`` file (one compile per target configuration and chunk), and two
compiles run at a time. The table goes to ``tests/data/occupancy_llvm19.csv``, with a companion
``.md`` that records how it was made. ``--check`` recompiles a random sample of the committed
rows and exits 1 if any value differs.

Work-group settings (column ``wg_attr``):

* ``reqd``: ``reqd_work_group_size(X, 1, 1)``; clang turns it into ``amdgpu-flat-work-group-size="X,X"``.
* ``flat``: ``amdgpu_flat_work_group_size(1, X)``.
* ``none``: no attribute; clang's OpenCL front end still writes ``amdgpu-flat-work-group-size="1,256"``.
* ``ir_none``: no attribute at all in the IR (clang to IR, attribute removed, then ``llc``), so
  the backend falls back to its own default of 1024 work-items.

``wg_size`` is the maximum flat work-group size the backend used, read back from the
``.max_flat_workgroup_size`` metadata. A target written ``gfx1030:cumode`` was compiled with
``-mcumode`` (CU mode instead of the gfx10+ default WGP mode). Standard library only.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

from isalens.frontends import clang as cc  # noqa: E402

DEFAULT_CSV = REPO / "tests" / "data" / "occupancy_llvm19.csv"

FIELDS = (
    "target", "wave_size", "vgprs", "agprs", "sgprs", "lds_bytes", "wg_attr", "wg_size", "llvm_occupancy",
    "num_vgprs", "num_agprs", "num_sgprs", "vgpr_count_md", "sgpr_count_md", "group_segment",
)  # fmt: skip

#: Targets to sweep. The last three are unknown to clang 19 and end up listed as unsupported.
TARGETS = (
    "gfx803", "gfx900", "gfx902", "gfx906", "gfx908", "gfx90a", "gfx942",
    "gfx1010", "gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1150", "gfx1151", "gfx1200", "gfx1201",
    "gfx950", "gfx1153", "gfx1250",
)  # fmt: skip

MAI_TARGETS = frozenset({"gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"})
UNIFIED_TARGETS = frozenset({"gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"})

WORKGROUPS: tuple[tuple[str, int], ...] = (
    ("reqd", 64), ("reqd", 256), ("reqd", 1024),
    ("flat", 64), ("flat", 256), ("flat", 1024),
    ("none", 0),
)  # fmt: skip
LDS_MAIN = (0, 16384, 32768, 65536)
LDS_MAX = 65536


def _fine_lds_sizes() -> tuple[int, ...]:
    """LDS sizes around every integer share of 64 KiB and 128 KiB (1/1 .. 1/20), plus a few small ones."""
    sizes = {1, 4, 100, 1000}
    for total in (65536, 131072):
        for parts in range(1, 21):
            base = total // parts
            sizes.update({base - 1, base, base + 1})
    return tuple(sorted(s for s in sizes if 0 < s <= LDS_MAX))


def _coarse_vgprs() -> tuple[int, ...]:
    """0..3, multiples of 8 and 12 (the allocation granules' common multiples) and each plus one, 256."""
    values = {0, 1, 2, 3, 256}
    for step in (8, 12):
        for base in range(step, 257, step):
            values.update({base, base + 1})
    return tuple(sorted(v for v in values if v <= 256))


LDS_FINE = _fine_lds_sizes()
VGPR_COARSE = _coarse_vgprs()
VGPR_FULL = tuple(range(257))
#: VGPR counts paired with the SGPR sweep on gfx8/gfx9: both sides of the 10/9/8/7-wave steps
#: of a 256-register file (24/28/32/36) and of gfx90a's 512-register file (64/72).
SGPR_SWEEP_VGPRS = (1, 24, 25, 28, 29, 32, 33, 36, 37, 64, 65, 72, 73)
AGPR_MIX_V = (0, 1, 2, 3, 4, 5, 63, 64, 65, 127, 128, 129, 255, 256)
AGPR_MIX_A = (1, 2, 3, 4, 5, 64, 65, 128, 129, 255, 256)


def gfx_major(target: str) -> int:
    """Major ISA version from a processor name: gfx803 -> 8, gfx90a -> 9, gfx1030 -> 10."""
    digits = target.removeprefix("gfx")
    return int(digits[:-2])


@dataclass(frozen=True, order=True)
class Build:
    """One compiler configuration: every kernel of a chunk is built with the same flags."""

    target: str
    wave_size: int
    cumode: bool
    llc: bool  # True: clang -> IR, amdgpu-flat-work-group-size removed, llc -> asm

    @property
    def label(self) -> str:
        """The ``target`` column: the processor, with ``:cumode`` when built in CU mode."""
        return f"{self.target}:cumode" if self.cumode else self.target

    def flags(self) -> list[str]:
        """Extra clang flags for wave size and CU mode (gfx10+ only)."""
        out: list[str] = []
        if gfx_major(self.target) >= 10:
            out.append("-mwavefrontsize64" if self.wave_size == 64 else "-mno-wavefrontsize64")
            if self.cumode:
                out.append("-mcumode")
        return out


@dataclass(frozen=True, order=True)
class Case:
    """One kernel: its configuration and the resources it is forced to use."""

    build: Build
    vgprs: int
    agprs: int
    sgprs: int
    lds_bytes: int
    wg_attr: str
    wg_req: int  # X of reqd/flat; 0 for none/ir_none


def kernel_source(name: str, case: Case) -> str:
    """OpenCL C for one kernel that uses exactly the case's registers and LDS bytes."""
    attr = ""
    if case.wg_attr == "reqd":
        attr = f"__attribute__((reqd_work_group_size({case.wg_req}, 1, 1)))\n"
    elif case.wg_attr == "flat":
        attr = f"__attribute__((amdgpu_flat_work_group_size(1, {case.wg_req})))\n"
    clobbers = [f'"{kind}{n - 1}"' for kind, n in (("v", case.vgprs), ("a", case.agprs), ("s", case.sgprs)) if n]
    clobber_list = ", ".join(clobbers)
    if case.lds_bytes:
        body = f'  __local char lds[{case.lds_bytes}];\n  __asm__ volatile("; lds %0" :: "s"(lds) : {clobber_list});\n'
    else:
        body = f'  __asm__ volatile("" ::: {clobber_list});\n'
    return f"{attr}__kernel void {name}(void) {{\n{body}}}\n"


# ----------------------------------------------------------------------------------------------
# The sweep


def _cases_for(build: Build) -> list[Case]:
    """The kernels compiled for one configuration (see the module docstring and the .md file)."""
    cases: list[Case] = []

    def add(
        vgprs: Iterable[int], lds: Iterable[int], wgs: Iterable[tuple[str, int]], agprs: int = 0, sgprs: int = 0
    ) -> None:
        for wg_attr, wg_req in wgs:
            for b in lds:
                for v in vgprs:
                    cases.append(Case(build, v, agprs, sgprs, b, wg_attr, wg_req))

    if build.llc:
        add(VGPR_COARSE, LDS_MAIN, [("ir_none", 0)])
        add([1], LDS_FINE, [("ir_none", 0)])
        return cases
    if build.cumode:
        add([1], (*LDS_MAIN, *LDS_FINE), WORKGROUPS)
        add(VGPR_COARSE, [0], [("none", 0)])
        return cases

    major = gfx_major(build.target)
    add(VGPR_FULL, [0], WORKGROUPS)
    add(VGPR_COARSE, LDS_MAIN[1:], WORKGROUPS)
    add([1], LDS_FINE, WORKGROUPS)
    # SGPRs: clobber s0..s101 (gfx8/9 address 102 SGPRs) or s0..s105 (gfx10+ address 106).
    s_max = 102 if major < 10 else 106
    for s in range(1, s_max + 1):
        add(SGPR_SWEEP_VGPRS if major < 10 else [1], [0], [("none", 0)], sgprs=s)
    if build.target in MAI_TARGETS:
        wgs = WORKGROUPS if build.target in UNIFIED_TARGETS else [("none", 0)]
        for a in range(1, 257):  # totals 257..512 on the unified register file
            add([256], [0], wgs, agprs=a)
        for a in range(1, 257):  # AGPRs only
            add([0], [0], [("none", 0)], agprs=a)
        for a in AGPR_MIX_A:
            add(AGPR_MIX_V, [0], [("none", 0)], agprs=a)
    return cases


def builds_for(target: str) -> list[Build]:
    """Configurations of one target: wave64 only before gfx10; wave32/64, WGP/CU mode from gfx10."""
    if gfx_major(target) < 10:
        return [Build(target, 64, False, False), Build(target, 64, False, True)]
    return [
        Build(target, w, cu, llc) for w in (32, 64) for cu in (False, True) for llc in (False, True) if not (cu and llc)
    ]


# ----------------------------------------------------------------------------------------------
# Compiling and reading the output

_KERNEL_LABEL = re.compile(r"^(k\d+):")
_AMDHSA_KERNEL = re.compile(r"^\s*\.amdhsa_kernel\s+(k\d+)")
_AMDHSA_FIELD = re.compile(r"^\s*\.amdhsa_(\w+)\s+(\S+)")
_COMMENT = re.compile(r"^; (\w+): (\S+)")
_MD_ENTRY = re.compile(r"^  - \.([\w.-]+):\s*(.*)$")
_MD_KEY = re.compile(r"^    \.([\w.-]+):\s*(.*)$")
_STRIP_FLAT_WG = re.compile(r'\s*"amdgpu-flat-work-group-size"="[^"]*"')


def parse_asm(text: str) -> dict[str, dict[str, str]]:
    """Per kernel name: the ``; Key: value`` comments, ``.amdhsa_*`` fields (prefixed ``kd.``) and
    the top-level HSA metadata keys of the kernel (prefixed ``md.``)."""
    info: dict[str, dict[str, str]] = defaultdict(dict)
    current: str | None = None
    entries: list[dict[str, str]] = []
    in_metadata = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_metadata:
            if stripped == ".end_amdgpu_metadata":
                in_metadata = False
            elif m := _MD_ENTRY.match(line):
                entries.append({m.group(1): m.group(2).strip()})
            elif entries and (m := _MD_KEY.match(line)):
                entries[-1][m.group(1)] = m.group(2).strip()
        elif stripped == ".amdgpu_metadata":
            in_metadata = True
        elif (m := _KERNEL_LABEL.match(line)) or (m := _AMDHSA_KERNEL.match(line)):
            current = m.group(1)
        elif current is not None and (m := _AMDHSA_FIELD.match(line)):
            info[current][f"kd.{m.group(1)}"] = m.group(2)
        elif current is not None and (m := _COMMENT.match(line)):
            info[current].setdefault(m.group(1), m.group(2))
    for entry in entries:
        if "name" in entry:
            info[entry["name"]].update({f"md.{k}": v for k, v in entry.items()})
    return dict(info)


def compile_chunk(cases: Sequence[Case], workdir: Path, tag: str) -> dict[str, dict[str, str]]:
    """Compile one file holding ``cases`` (all of the same build); return :func:`parse_asm` of it."""
    build = cases[0].build
    source = workdir / f"{tag}.cl"
    source.write_text("".join(kernel_source(f"k{i}", c) for i, c in enumerate(cases)))
    asm = workdir / f"{tag}.s"
    if build.llc:
        ll = workdir / f"{tag}.ll"
        cc.compile_opencl_to_ir(source, build.target, ll, extra_flags=build.flags())
        ll.write_text(_STRIP_FLAT_WG.sub("", ll.read_text()))
        cc.llc_compile(ll, build.target, asm)
    else:
        cc.compile_opencl(source, build.target, out_asm=asm, extra_flags=build.flags())
    return parse_asm(asm.read_text())


def make_row(case: Case, info: dict[str, str]) -> dict[str, str]:
    """One CSV row: the case's inputs and LLVM's figures (empty where LLVM printed nothing)."""
    return {
        "target": case.build.label,
        "wave_size": str(case.build.wave_size),
        "vgprs": str(case.vgprs),
        "agprs": str(case.agprs),
        "sgprs": str(case.sgprs),
        "lds_bytes": str(case.lds_bytes),
        "wg_attr": case.wg_attr,
        "wg_size": info.get("md.max_flat_workgroup_size", ""),
        "llvm_occupancy": info.get("Occupancy", ""),
        "num_vgprs": info.get("NumVgprs", ""),
        "num_agprs": info.get("NumAgprs", ""),
        "num_sgprs": info.get("NumSgprs", ""),
        "vgpr_count_md": info.get("md.vgpr_count", ""),
        "sgpr_count_md": info.get("md.sgpr_count", ""),
        "group_segment": info.get("md.group_segment_fixed_size", ""),
    }


def sanity_problems(case: Case, info: dict[str, str]) -> list[str]:
    """Ways in which LLVM's view of a kernel differs from what the case meant to force."""
    problems: list[str] = []
    build = case.build
    if "Occupancy" not in info:
        return ["no '; Occupancy:' comment"]
    if info.get("md.wavefront_size") != str(build.wave_size):
        problems.append(f"wavefront_size {info.get('md.wavefront_size')} != {build.wave_size}")
    if gfx_major(build.target) >= 10:
        want = "0" if build.cumode else "1"
        if info.get("kd.workgroup_processor_mode") != want:
            problems.append(f"workgroup_processor_mode {info.get('kd.workgroup_processor_mode')} != {want}")
    if info.get("NumVgprs") != str(case.vgprs):
        problems.append(f"NumVgprs {info.get('NumVgprs')} != {case.vgprs}")
    if case.agprs == 0 and info.get("md.vgpr_count") != str(case.vgprs):
        problems.append(f".vgpr_count {info.get('md.vgpr_count')} != {case.vgprs}")
    if build.target in MAI_TARGETS and info.get("NumAgprs") != str(case.agprs):
        problems.append(f"NumAgprs {info.get('NumAgprs')} != {case.agprs}")
    if info.get("md.group_segment_fixed_size") != str(case.lds_bytes):
        problems.append(f".group_segment_fixed_size {info.get('md.group_segment_fixed_size')} != {case.lds_bytes}")
    if case.wg_req and info.get("md.max_flat_workgroup_size") != str(case.wg_req):
        problems.append(f".max_flat_workgroup_size {info.get('md.max_flat_workgroup_size')} != {case.wg_req}")
    return problems


def probe(build: Build, workdir: Path, lds_bytes: int = 0) -> str | None:
    """None when clang accepts the configuration with ``lds_bytes`` of LDS; else its first error line."""
    case = Case(build, 1, 0, 0, lds_bytes, "none", 0)
    try:
        compile_chunk([case], workdir, f"probe-{build.label.replace(':', '-')}-w{build.wave_size}-{lds_bytes}")
    except cc.CompilerError as exc:
        lines = [ln for ln in str(exc).splitlines() if "error" in ln]
        return (lines[0] if lines else str(exc).splitlines()[-1]).strip()
    return None


def run_cases(
    cases: Sequence[Case], workdir: Path, jobs: int, chunk: int
) -> tuple[dict[Case, dict[str, str]], list[str]]:
    """Compile all cases (grouped per build, ``chunk`` kernels a file); return rows and problems."""
    by_build: dict[Build, list[Case]] = defaultdict(list)
    for case in cases:
        by_build[case.build].append(case)
    tasks: list[tuple[str, list[Case]]] = []
    for build in sorted(by_build):
        group = by_build[build]
        for start in range(0, len(group), chunk):
            tag = f"{build.label.replace(':', '-')}-w{build.wave_size}{'-llc' if build.llc else ''}-{start // chunk}"
            tasks.append((tag, group[start : start + chunk]))
    rows: dict[Case, dict[str, str]] = {}
    problems: list[str] = []
    started = time.monotonic()
    done_kernels = 0
    total = sum(len(t[1]) for t in tasks)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(compile_chunk, group, workdir, tag): (tag, group) for tag, group in tasks}
        for n, future in enumerate(as_completed(futures), 1):
            tag, group = futures[future]
            try:
                info = future.result()
            except cc.CompilerError as exc:
                problems.append(f"{tag}: compile failed: {str(exc).splitlines()[-1]}")
                print(f"[{n}/{len(tasks)}] {tag}: FAILED", file=sys.stderr)
                continue
            for i, case in enumerate(group):
                kinfo = info.get(f"k{i}", {})
                problems += [f"{tag} k{i} {case}: {p}" for p in sanity_problems(case, kinfo)]
                rows[case] = make_row(case, kinfo)
            done_kernels += len(group)
            elapsed = time.monotonic() - started
            print(
                f"[{n}/{len(tasks)}] {tag}: {len(group)} kernels ({done_kernels}/{total}, {elapsed:.0f}s)",
                file=sys.stderr,
            )
    return rows, problems


# ----------------------------------------------------------------------------------------------
# Modes


def _summary_md(
    args: argparse.Namespace,
    rows: list[dict[str, str]],
    unsupported: dict[str, str],
    problems: list[str],
    compiles: int,
    seconds: float,
    out: Path,
) -> str:
    """The companion .md text describing how the table was produced."""
    clang = cc.find_clang() or "clang"
    llc = cc.find_llc() or "llc"
    per_target = Counter(r["target"].split(":")[0] for r in rows)
    supported = [t for t in args.targets if t in per_target]
    shown = out.relative_to(REPO) if out.is_relative_to(REPO) else out
    lines = [
        "# occupancy_llvm19.csv: how it was produced",
        "",
        "Generated by `tools/occupancy_sweep.py`; do not edit by hand. Each row is one tiny OpenCL kernel",
        "compiled by the real compiler; the figures are read from the `; Kernel info:` comments and the",
        "HSA metadata of `clang -S`. Regenerate with the command below; verify with `--check`.",
        "",
        f"- command: `PYTHONPATH=src python3 tools/occupancy_sweep.py --jobs {args.jobs} --out {shown}`",
        "- check: `PYTHONPATH=src python3 tools/occupancy_sweep.py --check 40`",
        f"- clang: `{cc.tool_version(clang)}` ({clang}); llc: `{cc.tool_version(llc)}` ({llc})",
        f"- clang flags: `{' '.join(cc.opencl_flags('<target>'))}` plus per configuration `-mwavefrontsize64` /",
        "  `-mno-wavefrontsize64` and `-mcumode` (gfx10+ only)",
        f"- date (UTC): {datetime.now(UTC).strftime('%Y-%m-%d %H:%M')}",
        f"- time taken: {seconds:.0f} s on {os.cpu_count()} cores, {args.jobs} compiles at a time, {compiles} compiles",
        f"- rows: {len(rows)}",
        f"- sanity problems (LLVM's counts differing from the forced ones): {len(problems)}",
        "",
        "## Targets",
        "",
        "| target | rows |",
        "| --- | --- |",
        *[f"| {t} | {per_target[t]} |" for t in supported],
        "",
        "Rejected by this clang (recorded, not swept):",
        "",
        *([f"- {t}: {msg}" for t, msg in sorted(unsupported.items())] or ["- none"]),
        "",
        "## Columns",
        "",
        "- `target`: processor; `gfxNNNN:cumode` rows were compiled with `-mcumode` (CU mode; gfx10+ default is WGP",
        "  mode).",
        "- `wave_size`: 32 or 64 (gfx10+ default is 32; `-mwavefrontsize64` gives 64).",
        "- `vgprs`, `agprs`, `sgprs`: registers forced by clobbering `v<n-1>`, `a<n-1>`, `s<n-1>` (0 = none).",
        "- `lds_bytes`: size of the kernel's `__local char` array.",
        "- `wg_attr`: `reqd` = `reqd_work_group_size(X,1,1)`; `flat` = `amdgpu_flat_work_group_size(1,X)`;",
        "  `none` = no attribute (clang's OpenCL front end then writes `amdgpu-flat-work-group-size`=`1,256`",
        "  itself); `ir_none` = that attribute removed from the IR before `llc` (the backend default, 1024, applies).",
        "- `wg_size`: `.max_flat_workgroup_size` from the metadata, i.e. the flat work-group size limit LLVM used.",
        "- `llvm_occupancy`: `; Occupancy:`; `num_vgprs`/`num_agprs`/`num_sgprs`: `; NumVgprs:`/`; NumAgprs:`",
        "  (empty where not printed: targets without AGPRs)/`; NumSgprs:`; `vgpr_count_md`/`sgpr_count_md`/",
        "  `group_segment`: `.vgpr_count`/`.sgpr_count`/`.group_segment_fixed_size` from the metadata.",
        "",
        "## Sweep",
        "",
        "Per target, wave size (and, for gfx10+, CU mode) configuration:",
        "",
        "- VGPRs 0..256 at LDS 0 for every work-group setting (reqd/flat 64, 256, 1024; none);",
        f"- VGPRs {{{', '.join(map(str, VGPR_COARSE))}}} at LDS 16384, 32768, 65536 for every work-group setting;",
        f"- VGPRs 1 at LDS {{{', '.join(map(str, LDS_FINE))}}} for every work-group setting;",
        f"- SGPRs 1..102 (gfx8/9; with VGPRs {{{', '.join(map(str, SGPR_SWEEP_VGPRS))}}}) or 1..106 (gfx10+; VGPRs 1),",
        "  LDS 0, no attribute;",
        "- AGPR targets (gfx908, gfx90a, gfx942): VGPRs 256 + AGPRs 1..256 (totals 257..512; every work-group setting",
        "  where the register file is unified), AGPRs 1..256 alone, and a grid of mixed VGPR/AGPR counts;",
        "- `ir_none` (through `llc`): the coarse VGPR set at LDS 0/16384/32768/65536 and VGPRs 1 at the fine LDS",
        "  sizes;",
        "- CU mode (gfx10+): VGPRs 1 at LDS 0/16384/32768/65536 and at the fine LDS sizes for every work-group",
        "  setting, and the coarse VGPR set at LDS 0 without attribute.",
        "",
    ]
    if problems:
        lines += ["## Sanity problems (first 50)", "", *[f"- {p}" for p in problems[:50]], ""]
    return "\n".join(lines)


def generate(args: argparse.Namespace) -> int:
    """Run the whole sweep and write the CSV and its companion .md."""
    out: Path = args.out
    started = time.monotonic()
    unsupported: dict[str, str] = {}
    cases: list[Case] = []
    with tempfile.TemporaryDirectory(prefix="occsweep-") as tmp:
        workdir = Path(tmp)
        for target in args.targets:
            builds = builds_for(target)
            wave_sizes = sorted({b.wave_size for b in builds}, reverse=gfx_major(target) < 10)
            for wave in wave_sizes:
                error = probe(Build(target, wave, False, False), workdir)
                if error is None:
                    lds_error = probe(Build(target, wave, False, False), workdir, LDS_MAX)
                    if lds_error is not None:  # keep to the sizes below the largest one
                        unsupported[f"{target} (wave{wave}, LDS {LDS_MAX})"] = lds_error
                    cases += [
                        c
                        for b in builds
                        if b.wave_size == wave
                        for c in _cases_for(b)
                        if lds_error is None or c.lds_bytes <= LDS_MAX // 2
                    ]
                    continue
                key = target if wave == wave_sizes[0] else f"{target} (wave{wave})"
                unsupported[key] = error
                print(f"{key}: not supported: {error}", file=sys.stderr)
                if wave == wave_sizes[0]:
                    break
        print(f"{len(cases)} kernels to compile", file=sys.stderr)
        results, problems = run_cases(cases, workdir, args.jobs, args.chunk)
    rows = [results[c] for c in cases if c in results]
    seconds = time.monotonic() - started
    compiles = sum(math.ceil(n / args.chunk) for n in Counter(c.build for c in cases).values())
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    out.with_suffix(".md").write_text(_summary_md(args, rows, unsupported, problems, compiles, seconds, out))
    for problem in problems[:20]:
        print(f"problem: {problem}", file=sys.stderr)
    print(f"wrote {len(rows)} rows to {out} in {seconds:.0f}s ({len(problems)} sanity problems)", file=sys.stderr)
    return 0


def case_from_row(row: dict[str, str]) -> Case:
    """Rebuild the kernel description of a CSV row."""
    target, _, mode = row["target"].partition(":")
    wg_attr = row["wg_attr"]
    build = Build(target, int(row["wave_size"]), mode == "cumode", wg_attr == "ir_none")
    wg_req = int(row["wg_size"]) if wg_attr in ("reqd", "flat") else 0
    return Case(build, int(row["vgprs"]), int(row["agprs"]), int(row["sgprs"]), int(row["lds_bytes"]), wg_attr, wg_req)


def check(args: argparse.Namespace) -> int:
    """Recompile a random sample of the table's rows; 1 if any reproduced value differs."""
    with args.out.open(newline="") as fh:
        table = list(csv.DictReader(fh))
    rng = random.Random(args.seed)
    sample = rng.sample(table, min(args.check, len(table)))
    print(f"checking {len(sample)} of {len(table)} rows (seed {args.seed})", file=sys.stderr)
    cases = [case_from_row(row) for row in sample]
    with tempfile.TemporaryDirectory(prefix="occcheck-") as tmp:
        results, _ = run_cases(sorted(set(cases)), Path(tmp), args.jobs, args.chunk)
    mismatches = 0
    for case, want in zip(cases, sample, strict=True):
        have = results.get(case)
        if have is None or any(have[k] != want[k] for k in FIELDS):
            mismatches += 1
            print(f"MISMATCH: table {want}\n          now   {have}", file=sys.stderr)
    print(f"{len(sample) - mismatches}/{len(sample)} rows reproduced", file=sys.stderr)
    return 1 if mismatches else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_CSV, help="CSV to write (or to check)")
    parser.add_argument("--targets", nargs="+", default=list(TARGETS), help="processors to sweep")
    parser.add_argument("--jobs", type=int, default=2, help="compiles at a time (default 2)")
    parser.add_argument("--chunk", type=int, default=1000, help="kernels per compiled file (default 1000)")
    parser.add_argument(
        "--check",
        type=int,
        nargs="?",
        const=40,
        default=None,
        metavar="N",
        help="recompile N random rows (default 40) and compare with the table",
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed for --check")
    args = parser.parse_args(argv)
    if cc.find_clang() is None:
        print("clang not found", file=sys.stderr)
        return 2
    if args.check is not None:
        if args.seed is None:
            args.seed = random.randrange(1 << 30)
        return check(args)
    return generate(args)


if __name__ == "__main__":
    sys.exit(main())
