"""Recompile the bundled ISA examples (examples/isa) from our own kernels with clang-19.

    .venv/bin/python examples/regenerate.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from isalens.frontends.clang import compile_opencl

HERE = Path(__file__).resolve().parent
EXAMPLES = {
    "fp16_fp32.gfx902.s": ("kernels/fp16_layouts/fp32.cl", "gfx902"),
    "fp16_half3_two_uint.gfx902.s": ("kernels/fp16_layouts/half3_two_uint.cl", "gfx902"),
    "fp16_half3.gfx902.s": ("kernels/fp16_layouts/half3.cl", "gfx902"),
}


def main() -> int:
    for name, (source, target) in EXAMPLES.items():
        out = HERE / "isa" / name
        compile_opencl(HERE / source, target, out_asm=out)
        print(f"{out.relative_to(HERE)}  <-  {source} ({target})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
