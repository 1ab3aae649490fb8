"""Benchmark: parse + CFG + VGPR/SGPR liveness of a >= 100,000-instruction kernel.

The instructions are real compiler output: an OpenCL C kernel generated here (a long chain of unrolled
stencil taps with data-dependent branches and loops) is compiled by clang-19 for the chosen target, and its
body is repeated (labels renamed, ``s_endpgm`` only at the end) until the kernel has at least
``--min-instructions``; clang alone takes minutes per 10,000 instructions of this kind. Run by hand:

    .venv/bin/python benchmarks/large_kernel.py [--target gfx90a] [--taps 1500] [--repeat 5]

Each timing runs in a fresh process so peak memory (ru_maxrss) belongs to the analysis alone.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dense_kernel  # the benchmarks folder is not a package

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "benchmarks"


def kernel_source(taps: int) -> str:
    """A stencil whose unrolled taps keep many values live, with branches every 64 taps."""
    lines = [
        "__kernel void big(__global const float* in, __global float* out, float t, int n) {",
        "  int g = get_global_id(0);",
        "  float a0 = in[g], a1 = in[g + 1], a2 = in[g + 2], a3 = in[g + 3];",
    ]
    for k in range(taps):
        src = f"in[g + {(k * 37) % 4093}]"
        lines.append(f"  a{k % 4} = fma({src}, {1.0 + k % 13 / 7.0:.4f}f, a{(k + 1) % 4});")
        if k % 64 == 63:
            lines.append(f"  if (a{k % 4} > t) {{ a{(k + 2) % 4} += a{(k + 3) % 4} * {k % 5 + 1}.0f; }}")
        if k % 500 == 499:
            lines.append(f"  for (int i = 0; i < n; ++i) {{ a0 = a0 * a1 + in[g + i + {k}]; }}")
    lines.append("  out[g] = a0 + a1 + a2 + a3;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def replicate(asm: str, min_instructions: int) -> tuple[str, int]:
    """Repeat the body of the kernel in ``asm`` until it has ``min_instructions`` (see dense_kernel.py)."""
    return dense_kernel.replicate(asm, min_instructions, symbol="big")


def build(target: str, taps: int, min_instructions: int) -> Path:
    from isalens.frontends.clang import compile_opencl

    CACHE.mkdir(parents=True, exist_ok=True)
    source = CACHE / f"big_{taps}.cl"
    asm = CACHE / f"big_{taps}.{target}.s"
    if not asm.exists():
        source.write_text(kernel_source(taps))
        t0 = time.perf_counter()
        compile_opencl(source, target, out_asm=asm)
        print(f"compiled {source.name} for {target} with clang in {time.perf_counter() - t0:.1f} s",
              file=sys.stderr)
    big = CACHE / f"big_{taps}.{target}.x{min_instructions}.v2.s"  # v2: the kernel descriptor appears once
    if not big.exists():
        text, count = replicate(asm.read_text(), min_instructions)
        big.write_text(text)
        print(f"{big.name}: {count} instructions", file=sys.stderr)
    return big


def measure(path: Path) -> dict[str, float]:
    """Time one parse + CFG + liveness (``total_s``), then the per-line counts (``pressure_s``)."""
    import isalens
    from isalens.analysis.cfg import cfg
    from isalens.analysis.liveness import liveness
    from isalens.analysis.pressure import pressure

    t0 = time.perf_counter()
    module = isalens.load(path)
    t1 = time.perf_counter()
    kernel = max(module.ir.kernels, key=lambda k: len(k.instructions))
    graph = cfg(kernel)
    t2 = time.perf_counter()
    live = liveness(kernel, graph)
    t3 = time.perf_counter()
    press = pressure(kernel, graph, live)
    t4 = time.perf_counter()
    return {
        "instructions": len(kernel.instructions),
        "blocks": len(graph.blocks),
        "parse_s": t1 - t0,
        "cfg_s": t2 - t1,
        "liveness_s": t3 - t2,
        "total_s": t3 - t0,
        "pressure_s": t4 - t3,
        "peak_vgpr": press.vgpr.peak,
        "peak_sgpr": press.sgpr.peak,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", default="gfx90a")
    parser.add_argument("--taps", type=int, default=1500)
    parser.add_argument("--min-instructions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    asm = build(args.target, args.taps, args.min_instructions)
    runs = []
    for _ in range(args.repeat):
        out = subprocess.run([sys.executable, __file__, "--measure", str(asm)], capture_output=True, text=True,
                             check=True).stdout
        runs.append(json.loads(out))
    best = min(runs, key=lambda r: r["total_s"])
    print(json.dumps({"target": args.target, "file": str(asm.relative_to(ROOT)), "runs": len(runs),
                      "best": best, "median_total_s": sorted(r["total_s"] for r in runs)[len(runs) // 2]},
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
