"""Generate dense benchmark kernels: real clang-19 output for gfx902 with >= 200 VGPRs live at the peak,
>= 100 basic blocks and nested loops, at about 10k, 100k and 1M instructions.

The OpenCL C kernel is written here: it loads ``--values`` floats that all stay live to the end (each is
updated inside a doubly nested loop and summed with its own weight at the end), and every update sits
behind a data-dependent branch with a store in it, so the compiler can neither if-convert the branch nor
move the loads past the stores. One compile gives several thousand instructions; the kernel body is then
repeated with renamed labels (``s_endpgm`` only at the end) to reach each size, as ``large_kernel.py``
does. Everything is written under ``.cache/bench`` (never committed). Run by hand:

    .venv/bin/python benchmarks/dense_kernel.py            # prints the paths of the three kernels

Other scripts import :func:`build_all`.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "bench"
TARGET = "gfx902"
SIZES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}


def kernel_source(values: int, sections: int) -> str:
    """``values`` floats live from the first loads to the final sum; ``sections`` nested loop nests."""
    lines = [
        "__kernel void dense(__global const float* in, __global float* out, int n, int m, float t) {",
        "  int g = get_global_id(0);",
    ]
    lines += [f"  float a{k} = in[g * {values} + {k}];" for k in range(values)]
    per = -(-values // sections)
    for s in range(sections):
        lines.append("  for (int i = 0; i < n; ++i) {")
        lines.append(f"    for (int j = 0; j < m + {s}; ++j) {{")
        lines.append(f"      float x = in[g + i * m + j + {s * 7919}];")
        for k in range(s * per, min(values, (s + 1) * per)):
            other = (k * 37 + 11) % values
            # a store in the branch keeps it a real (EXEC-masked) branch instead of a select
            lines.append(f"      if (x > t + {k}.0f) {{ a{k} = fma(a{k}, x, a{other}); out[g + j] = a{k}; }}")
        lines.append("    }")
        lines.append("  }")
    terms = " + ".join(f"a{k} * {1.0 + k / 64:.4f}f" for k in range(values))
    lines.append(f"  out[g] = {terms};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def replicate(asm: str, min_instructions: int, symbol: str = "dense") -> tuple[str, int]:
    """Repeat the body of kernel ``symbol`` in ``asm`` (labels renamed per copy) until it has
    ``min_instructions``; the kernel descriptor and metadata after the last ``s_endpgm`` stay once."""
    lines = asm.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{symbol}:")) + 1
    end = max(i for i, line in enumerate(lines) if line.strip() == "s_endpgm")  # the kernel descriptor follows
    body = lines[start:end]
    per_copy = sum(1 for line in body if line[:1] == "\t" and line[1:2].isalpha())
    copies = max(1, -(-(min_instructions - 1) // per_copy))
    out = lines[:start]
    for c in range(copies):
        out += [re.sub(r"\.LBB0_(\d+)", rf".LBB0_{c}x\1", line) for line in body]
    out += lines[end:]
    return "\n".join(out) + "\n", copies * per_copy + 1


def compile_base(values: int, sections: int) -> Path:
    """The clang-19 ``-S`` output of the generated kernel (compiled once, then cached)."""
    from isalens.frontends.clang import compile_opencl

    CACHE.mkdir(parents=True, exist_ok=True)
    stem = f"dense_v{values}_s{sections}"
    source = CACHE / f"{stem}.cl"
    asm = CACHE / f"{stem}.{TARGET}.s"
    if not asm.exists():
        source.write_text(kernel_source(values, sections))
        t0 = time.perf_counter()
        compile_opencl(source, TARGET, out_asm=asm)
        print(f"compiled {source.name} with clang-19 in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return asm


def build_all(values: int = 216, sections: int = 8) -> dict[str, Path]:
    """The three benchmark kernels by size label (``10k``, ``100k``, ``1m``)."""
    base = compile_base(values, sections)
    return sized(base, base.stem, SIZES)


def sized(base: Path, stem: str, sizes: dict[str, int], symbol: str = "dense") -> dict[str, Path]:
    """``base`` replicated to each size (label -> instructions at least), written once under the cache and
    rewritten when ``base`` is newer: label -> path."""
    out = {}
    for label, size in sizes.items():
        path = CACHE / f"{stem}.{label}.s"
        if not path.exists() or path.stat().st_mtime < base.stat().st_mtime:
            text, count = replicate(base.read_text(), size, symbol=symbol)
            path.write_text(text)
            print(f"{path.name}: {count} instructions", file=sys.stderr)
        out[label] = path
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--values", type=int, default=216, help="floats live across the whole kernel")
    parser.add_argument("--sections", type=int, default=8, help="doubly nested loops, one after the other")
    parser.add_argument("--source-only", action="store_true", help="print the OpenCL C and stop")
    args = parser.parse_args()
    if args.source_only:
        sys.stdout.write(kernel_source(args.values, args.sections))
        return 0
    for label, path in build_all(args.values, args.sections).items():
        print(f"{label}\t{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
