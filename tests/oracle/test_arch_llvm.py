"""Target facts of the arch data against LLVM 19 itself: whether a target's flat scratch is architected (set up by
the hardware, gfx940 and gfx11+). LLVM prints a kernel descriptor's private-segment field as
``.amdhsa_enable_private_segment`` exactly when the target has architected flat scratch
(``hasArchitectedFlatScratch`` in AMDGPUTargetStreamer.cpp), else as
``.amdhsa_system_sgpr_private_segment_wavefront_offset``; a kernel that uses scratch shows which."""

from __future__ import annotations

import subprocess

import pytest

from isalens.arch.loader import all_archs
from tests.conftest import require_tool

#: a kernel with a stack array indexed by an argument: it lives in scratch on every target
SCRATCH_KERNEL = """\
define amdgpu_kernel void @k(ptr addrspace(1) %o, i32 %n) {
  %a = alloca [64 x float], align 4, addrspace(5)
  %p = getelementptr [64 x float], ptr addrspace(5) %a, i32 0, i32 %n
  store volatile float 1.0, ptr addrspace(5) %p
  %q = getelementptr [64 x float], ptr addrspace(5) %a, i32 0, i32 3
  %v = load volatile float, ptr addrspace(5) %q
  store float %v, ptr addrspace(1) %o
  ret void
}
"""


def _llc_processors(llc: str) -> set[str]:
    text = subprocess.run([llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=help"], capture_output=True, text=True).stderr
    return {word for line in text.splitlines() for word in line.split()[:1] if word.startswith("gfx")}


def test_architected_flat_scratch_equals_llvm() -> None:
    llc = require_tool("llc-19")
    known = _llc_processors(llc)
    targets = sorted(name for name, spec in all_archs().items()
                     if name == spec.name and name in known and spec.generation >= 7 and "generic" not in name)
    if len(targets) < 20:
        pytest.fail(f"llc-19 lists too few of our targets: {targets}")
    wrong = []
    for target in targets:
        asm = subprocess.run([llc, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-o", "-"], input=SCRATCH_KERNEL,
                             capture_output=True, text=True, check=True).stdout
        assert ".amdhsa_private_segment_fixed_size 260" in asm, target  # the array is in scratch
        if ("\t.amdhsa_enable_private_segment" in asm) != all_archs()[target].architected_flat_scratch:
            wrong.append(target)
    assert not wrong, f"architected_flat_scratch differs from LLVM 19 for {wrong}"
