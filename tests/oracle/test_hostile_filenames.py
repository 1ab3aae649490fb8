"""File names that look like options never reach a compiler as options.

``str(Path("./-load=x.ll"))`` is ``-load=x.ll``: handed to llc as such it is the option that loads a shared
object, so an untrusted file name was enough to run code. Each test compiles a real, valid source whose
name starts with ``-`` (in a directory whose name starts with ``-`` too) through the real compiler and the
CLI, from that directory with a relative path as a user would type it, and checks that the kernel inside
the file was analysed: the tool read the name as a file, not as an option.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from isalens.frontends import clang as cc
from isalens.frontends import radv

pytestmark = pytest.mark.oracle

# A kernel written by hand in LLVM IR: one store, so llc gives a tiny, valid kernel named from_ir.
IR_KERNEL = """target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @from_ir(ptr addrspace(1) %out) {
  store i32 42, ptr addrspace(1) %out
  ret void
}
"""
CL_KERNEL = "kernel void from_cl(global float* x) { x[get_global_id(0)] *= 2.0f; }\n"
COMP_SHADER = """#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float x[]; };
void main() { x[gl_GlobalInvocationID.x] *= 2.0; }
"""


def _analyze(directory: Path, name: str, arch: str) -> dict[str, object]:
    """Run ``isalens analyze ./NAME --json`` inside ``directory``; return the document (fail on any error)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run([sys.executable, "-m", "isalens", "analyze", f"./{name}", "--arch", arch, "--json"],
                          cwd=directory, capture_output=True, text=True, check=False, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc: dict[str, object] = json.loads(proc.stdout)
    return doc


def _kernel_names(doc: dict[str, object]) -> list[str]:
    files = doc["files"]
    assert isinstance(files, list)
    kernels = files[0]["kernels"]
    return [k["name"] for k in kernels]


@pytest.fixture()
def dash_dir(tmp_path: Path) -> Path:
    d = tmp_path / "-dir"
    d.mkdir()
    return d


def test_llc_reads_a_file_named_like_its_load_option(dash_dir: Path) -> None:
    if cc.find_llc() is None:
        pytest.skip("llc is not installed (apt-get install llvm-19)")
    (dash_dir / "-load=x.ll").write_text(IR_KERNEL)
    assert _kernel_names(_analyze(dash_dir, "-load=x.ll", "gfx902")) == ["from_ir"]


def test_clang_reads_a_file_named_like_its_output_option(dash_dir: Path) -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")
    (dash_dir / "-o.cl").write_text(CL_KERNEL)
    assert _kernel_names(_analyze(dash_dir, "-o.cl", "gfx902")) == ["from_cl"]


def test_glslang_reads_a_file_named_like_its_vulkan_option(dash_dir: Path) -> None:
    if radv.find_glslang() is None or radv.find_radv_icd() is None:
        pytest.skip("glslang or RADV is not installed")
    (dash_dir / "-V.comp").write_text(COMP_SHADER)
    doc = _analyze(dash_dir, "-V.comp", "navi21")
    assert len(_kernel_names(doc)) == 1
