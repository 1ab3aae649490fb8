"""Generate the straight-line benchmark kernel with calls: real clang-19 output for gfx902, no branch in the
kernel itself, a call (``s_swappc_b64``) to a non-inlined function every few lines, at about 100k and 1M
instructions.

The OpenCL C kernel is written here: it loads ``--values`` floats that stay live to the end and updates each
once per round through one of ``--functions`` ``noinline`` helpers, so every call site keeps many values live
across the call (callee-saved registers, spills) and the kernel body is one basic block between calls. The
body is repeated with :func:`dense_kernel.replicate` (labels renamed, ``s_endpgm`` only at the end; the
helpers after the kernel stay once). Written under ``.cache/bench`` (never committed). Run by hand:

    .venv/bin/python benchmarks/calls_kernel.py        # prints the paths of the kernels
    ISALENS_PEER_SHAE=/tmp/peer/shae .venv/bin/python benchmarks/core_ab.py \\
        --file "$(.venv/bin/python benchmarks/calls_kernel.py | awk '$1 == "100k" {print $2}')" --warm-up
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dense_kernel  # the benchmarks folder is not a package

CACHE = dense_kernel.CACHE
TARGET = dense_kernel.TARGET
SIZES = {"100k": 100_000, "1m": 1_000_000}


def kernel_source(values: int, functions: int, rounds: int) -> str:
    """``values`` floats live from the loads to the final sum, each updated ``rounds`` times by a call."""
    lines = []
    for f in range(functions):
        lines.append(f"__attribute__((noinline)) float f{f}(float x, float y, float t) "
                     f"{{ return fma(x, y, t * {f + 1}.0f) + {f}.5f; }}")
    lines.append("__kernel void calls(__global const float* in, __global float* out, float t) {")
    lines.append("  int g = get_global_id(0);")
    lines += [f"  float a{k} = in[g * {values} + {k}];" for k in range(values)]
    for r in range(rounds):
        for k in range(values):
            other = (k * 37 + 11 + r) % values
            lines.append(f"  a{k} = f{(k + r) % functions}(a{k}, a{other}, t);")
    terms = " + ".join(f"a{k} * {1.0 + k / 64:.4f}f" for k in range(values))
    lines.append(f"  out[g] = {terms};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build_all(values: int = 48, functions: int = 4, rounds: int = 8) -> dict[str, Path]:
    """The benchmark kernels by size label (``100k``, ``1m``)."""
    from isalens.frontends.clang import compile_opencl

    CACHE.mkdir(parents=True, exist_ok=True)
    stem = f"calls_v{values}_f{functions}_r{rounds}"
    source = CACHE / f"{stem}.cl"
    base = CACHE / f"{stem}.{TARGET}.s"
    if not base.exists():
        source.write_text(kernel_source(values, functions, rounds))
        t0 = time.perf_counter()
        compile_opencl(source, TARGET, out_asm=base)
        print(f"compiled {source.name} with clang-19 in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return dense_kernel.sized(base, stem, SIZES, symbol="calls")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--values", type=int, default=48, help="floats live across the whole kernel")
    parser.add_argument("--functions", type=int, default=4, help="distinct noinline helpers called")
    parser.add_argument("--rounds", type=int, default=8, help="calls per value")
    parser.add_argument("--source-only", action="store_true", help="print the OpenCL C and stop")
    args = parser.parse_args()
    if args.source_only:
        sys.stdout.write(kernel_source(args.values, args.functions, args.rounds))
        return 0
    for label, path in build_all(args.values, args.functions, args.rounds).items():
        print(f"{label}\t{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
