"""Inlined helpers in a code object (issue 27): for every instruction, the function isalens names and the chain
of call sites that inlined it equal what ``llvm-symbolizer-19 --inlining`` says for the same address (the
oracle: LLVM's own DWARF reader; isalens reads ``DW_TAG_inlined_subroutine`` with pyelftools), and each
per-source-line row carries its first instruction's function and chain. Built with ``-gline-tables-only``,
which in LLVM 19 keeps the inlined-subroutine entries (``llvm-dwarfdump-19 --debug-info`` shows them)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from isalens.engine import load_input
from tests.conftest import EXAMPLES, require_tool
from tests.oracle.test_source_lines import TARGETS, _build

SOURCES = [EXAMPLES / "kernels" / p for p in ("source/inlined.cl", "calls/calls.cl", "control/loops.cl")]
#: helpers inlined two deep, so a call chain has two sites (the examples inline one deep)
NESTED = """\
static inline float inner(float x) { return x * x + 1.0f; }
static inline float outer(float x) { return inner(x) * inner(x + 2.0f); }
__kernel void nested(__global float *a) { const int i = get_global_id(0); a[i] = outer(a[i]) + outer(a[i + 1]); }
"""


def symbolized(code_object: Path, addresses: list[int]) -> dict[int, tuple[str, list[tuple[str, int]]]]:
    """Address -> (innermost function, [(file, call line), ...] outward) as llvm-symbolizer-19 prints them."""
    tool = require_tool("llvm-symbolizer-19")
    text = subprocess.run([tool, "--inlining", "--output-style=JSON", f"--obj={code_object}"],
                          input="\n".join(hex(a) for a in addresses), check=True, capture_output=True,
                          text=True).stdout
    out = {}
    for line in text.splitlines():
        entry = json.loads(line)
        frames = entry["Symbol"]
        out[int(entry["Address"], 16)] = (frames[0]["FunctionName"],
                                         [(f["FileName"], f["Line"]) for f in frames[1:]])
    return out


def test_functions_and_call_chains_equal_llvm_symbolizer(tmp_path: Path) -> None:
    compared = inlined = deep = rows = 0
    nested = tmp_path / "nested.cl"
    nested.write_text(NESTED)
    for source in [*SOURCES, nested]:
        for target in TARGETS:
            co = _build(source, target, tmp_path / f"{source.stem}.{target}.co", "-gline-tables-only")
            _module, kernels, _ = load_input(co)
            for kernel in kernels:
                ir = kernel.ir
                addresses = [ins.address for ins in ir.instructions]
                assert all(a is not None for a in addresses)
                theirs = symbolized(co, addresses)  # type: ignore[arg-type]
                assert len(ir.source.frames) == len(addresses), (co.name, ir.name)
                for address, frame in zip(addresses, ir.source.frames, strict=True):
                    assert frame is not None, (co.name, hex(address))  # type: ignore[arg-type]
                    ours = (frame.function, [(c.file, c.line) for c in frame.inlined_at])
                    assert ours == theirs[address], (co.name, ir.name, hex(address))  # type: ignore[index]
                    compared += 1
                    inlined += bool(frame.inlined_at)
                    deep += len(frame.inlined_at) > 1
                for row in kernel.analyze().source_lines:
                    function, chain = theirs[addresses[row.first_index]]  # type: ignore[index]
                    assert (row.function, [(c.file, c.line) for c in row.inlined_at]) == (function, chain)
                    rows += 1
    print(f"\nfunctions and call chains equal llvm-symbolizer: {compared} instructions ({inlined} inlined, "
          f"{deep} two deep), {rows} source-line rows")
    assert deep > 0 and compared > 500


#: C++ as HIP programs are written: a kernel in a namespace, a template helper, a member function, a lambda
CXX = """\
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
template <typename T> __device__ inline T clampv(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
struct Taps {
    float w;
    __device__ float at(const float *in, int i, int n) const { return w * in[clampv(i, 0, n - 1)]; }
};
namespace img {
namespace detail {
__device__ inline float sq(float x) { return x * x; }
}
__global__ void blur(const float *in, float *out, int n) {
    int x = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    Taps taps{0.2f};
    auto energy = [&](float v) { return detail::sq(v) + 1.0f; };
    float acc = 0.0f;
    for (int d = -2; d <= 2; ++d) acc += energy(taps.at(in, x + d, n));
    out[x] = acc;
}
}
"""


def test_cxx_functions_in_namespaces_equal_llvm_symbolizer(tmp_path: Path) -> None:
    # a C++ kernel's subprogram sits in its namespace's entry, not among the unit's children: it was not found,
    # so every inlined helper's code counted as the kernel's own, named by its mangled symbol; the symbolizer
    # names functions by their demangled linkage names (``int clampv<int>(int, int, int)``)
    from isalens.binary.bundle import read_bundles
    from tests.oracle import hipbuild

    source = tmp_path / "blur.hip"
    source.write_text(CXX)
    compared = inlined = 0
    functions: set[str] = set()
    # -g gives the helpers' linkage names too (the symbolizer demangles them: int clampv<int>(int, int, int))
    entries = [(flag, entry) for flag in ("-gline-tables-only", "-g")
               for entry in read_bundles(hipbuild.build(tmp_path / f"blur{flag}.hipfb", "--cuda-device-only", flag,
                                                        source=source, targets=("gfx90a", "gfx1030")).read_bytes(),
                                         file="blur.hipfb")]
    for flag, entry in entries:
        if "amdgcn" not in entry.triple:
            continue
        co = tmp_path / f"{entry.triple.rsplit('-', 1)[-1]}{flag}.co"
        co.write_bytes(entry.data)
        _module, kernels, _ = load_input(co)
        for kernel in kernels:
            addresses = [ins.address for ins in kernel.ir.instructions]
            theirs = symbolized(co, addresses)  # type: ignore[arg-type]
            for address, frame in zip(addresses, kernel.ir.source.frames, strict=True):
                assert frame is not None
                ours = (frame.function, [(c.file, c.line) for c in frame.inlined_at])
                assert ours == theirs[address], (co.name, hex(address))  # type: ignore[index]
                compared += 1
                inlined += bool(frame.inlined_at)
                functions.add(frame.function)
    print(f"\nC++ functions and call chains equal llvm-symbolizer: {compared} instructions ({inlined} inlined), "
          f"functions {sorted(functions)}")
    assert inlined > 10 and {"img::blur(float const*, float*, int)", "int clampv<int>(int, int, int)"} <= functions


def test_a_loop_with_inlined_helpers_is_named_by_its_own_lines(tmp_path: Path) -> None:
    # inlined.cl's loop is `for` at line 21 with body lines 22-24 (read off the file); its helpers (lines 6-13,
    # above the kernel) are inlined into it at lines 22 and 23, so they count as those lines. The binary's DWARF
    # says which code is a helper; the assembly cannot, and there the helpers widen the span to 6-24
    source = EXAMPLES / "kernels" / "source" / "inlined.cl"
    for target in TARGETS:
        co = _build(source, target, tmp_path / f"inlined.{target}.co", "-gline-tables-only")
        asm = _build(source, target, tmp_path / f"inlined.{target}.s", "-gline-tables-only")
        for path, expected in ((co, "inlined.cl:21-24"), (asm, "inlined.cl:6-24")):
            _module, (kernel,), _ = load_input(path)
            assert list(kernel.analyze().loop_sources.values()) == [expected], (path.name, target)
