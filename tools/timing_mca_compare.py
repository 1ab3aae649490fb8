"""Our per-block cycles next to llvm-mca-19's "Block RThroughput" for the same clang-19 kernels.

Each basic block (isalens' CFG) of each kernel becomes one llvm-mca code region (``# LLVM-MCA-BEGIN`` /
``# LLVM-MCA-END``); llvm-mca runs the target's LLVM scheduling model on it (one wave, the region repeated).
Blocks with ``buffer_*`` instructions are left out: llvm-mca-19 crashes on them (fixed upstream later).

    .venv/bin/python tools/timing_mca_compare.py [--markdown] [TARGET ...]   # default gfx902 gfx90a gfx1030 gfx1100
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import isalens
from isalens.engine.timing import kernel_timing
from isalens.frontends.clang import compile_opencl

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ("timing/sgemm_4x4.cl", "linalg/matvec.cl", "math/transcendental.cl", "math/fp64.cl",
           "math/half2_packed.cl")
#: blocks shorter than this are left out of the table (prologue/epilogue fragments of one or two instructions)
MIN_LINES = 4
#: cycles of ours per cycle of LLVM's model: its GCN models count one cycle per wave-instruction at full rate
#: ("latency values are 1 / (operations / cycle) / 4", SISchedule.td), where a wave64 occupies a SIMD16 for 4
UNIT = {"gfx902": 4, "gfx90a": 4, "gfx1030": 1, "gfx1100": 1}
TARGETS = ("gfx902", "gfx90a", "gfx1030", "gfx1100")
_REGION = re.compile(r"\[\d+\] Code Region - (\S+).*?Block RThroughput:\s*([\d.]+)", re.S)


def _mca(blocks: dict[str, list[str]], target: str) -> dict[str, float]:
    mca = shutil.which("llvm-mca-19") or shutil.which("llvm-mca")
    if mca is None or not blocks:
        return {}
    text = "".join(f"# LLVM-MCA-BEGIN {name}\n" + "".join(f"{ins}\n" for ins in body) + f"# LLVM-MCA-END {name}\n"
                   for name, body in blocks.items())
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
    proc = subprocess.run([mca, "-mtriple=amdgcn", f"-mcpu={target}", f.name], capture_output=True, text=True,
                          check=False)
    Path(f.name).unlink()
    return {m.group(1): float(m.group(2)) for m in _REGION.finditer(proc.stdout)}


def _reason(ours: float, busiest: int, mca: float, target: str, stall_kinds: list[str], texts: list[str]) -> str:
    """Why our block differs from llvm-mca by more than 20% (in LLVM's units)."""
    unit = UNIT.get(target, 1)
    if not mca or abs(ours / unit / mca - 1) <= 0.2:
        return ""
    reasons = []
    if ours / unit < mca:
        return ("ours is lower: LLVM's model issues one instruction per cycle on one pipe (IssueWidth 1) and charges "
                "branches 8 cycles (GCN) or 32 (GFX10+); ours overlaps SALU, SMEM and branches with the VALU")
    if ours > busiest * 1.2 and stall_kinds:
        reasons.append("latency: one wave waits (" + ", ".join(stall_kinds[:2]) + "); RThroughput counts only "
                       "resource use, as if iterations overlapped")
    if abs(busiest / unit / mca - 1) > 0.2:
        kinds = {t.split()[0] for t in texts}
        if any(k.startswith(("s_waitcnt", "s_nop", "s_barrier")) for k in kinds):
            reasons.append("waits/nops: we charge the issue slot they hold, LLVM none")
        if any(k.startswith(("v_exp", "v_log", "v_rcp", "v_rsq", "v_sqrt", "v_sin", "v_cos")) for k in kinds):
            reasons.append("transcendentals: quarter rate in ours, separate trans pipe in LLVM's gfx10+ model")
        if any("f64" in k for k in kinds):
            reasons.append("fp64 rates differ (ours: the chip's published ratio)")
        if any(k.startswith(("s_", )) for k in kinds) and not reasons:
            reasons.append("SALU/SMEM/branch run on other units than the busiest in ours; LLVM sums them")
        if not reasons:
            reasons.append("issue model: ours is the busiest unit, LLVM's is its resource-pressure bound")
    return "; ".join(reasons)


def main(argv: list[str]) -> int:
    markdown = "--markdown" in argv
    targets = [a for a in argv if not a.startswith("--")] or list(TARGETS)
    rows = []
    for kernel_file in KERNELS:
        source = ROOT / "examples" / "kernels" / kernel_file
        for target in targets:
            with tempfile.TemporaryDirectory() as tmp:
                asm = Path(tmp) / "k.s"
                compile_opencl(source, target, out_asm=asm)
                module = isalens.load(asm, target)
            for kernel in module.kernels:
                t = kernel_timing(kernel, waves=1)
                regions = {}
                for b in kernel.cfg.blocks:
                    texts = [ins.text for ins in kernel.ir.instructions[b.start:b.end]]
                    if len(texts) >= MIN_LINES and not any(x.startswith(("buffer_", "tbuffer_")) for x in texts):
                        regions[f"b{b.index}"] = texts
                mca = _mca(regions, target)
                for bt in t.profile.blocks:
                    name = f"b{bt.index}"
                    if name not in mca:
                        continue
                    busiest = max(bt.issue_cycles.values(), default=0)
                    stall_kinds = sorted({lt.reason for lt in t.profile.lines
                                          if bt.start_line <= lt.line <= bt.end_line and lt.stall > 0
                                          and lt.reason not in ("", "unit")})
                    texts = regions[name]
                    rows.append((kernel_file, kernel.name, target, bt.index, len(texts),
                                 bt.latency_cycles, busiest, mca[name],
                                 _reason(bt.latency_cycles, busiest, mca[name], target, stall_kinds, texts)))
    if markdown:
        print("| kernel | target | block | instr. | ours: cycles (busiest unit) | in LLVM units | llvm-mca "
              "RThroughput | ratio | why the gap (> 20%) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for file, name, target, index, n, ours, busiest, mca_rt, why in rows:
        unit = UNIT.get(target, 1)
        ratio = ours / unit / mca_rt if mca_rt else float("inf")
        if markdown:
            print(f"| {file} `{name}` | {target} | {index} | {n} | {ours} ({busiest}) | {ours / unit:g} | {mca_rt:g} | "
                  f"{ratio:.2f} | {why} |")
        else:
            print(f"{file:28} {name:22} {target:8} b{index:<3} {ours:6} ({busiest:5})  mca {mca_rt:7g}  "
                  f"x{ratio:5.2f}  {why}")
    within = sum(1 for r in rows if r[7] and abs(r[5] / UNIT.get(r[2], 1) / r[7] - 1) <= 0.2)
    print(f"\n{len(rows)} blocks; {within} within 20% of llvm-mca's RThroughput")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
