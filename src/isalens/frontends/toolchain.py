"""Which compilers and drivers are installed, their versions and targets, and how to install the rest.

Nothing here is needed for plain ISA-text analysis; it only tells what the source front ends
(:mod:`isalens.frontends.clang`, :mod:`isalens.frontends.radv`) can use on this machine.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field

from isalens.frontends import clang as cc
from isalens.frontends import radv
from isalens.frontends.objdump import find_objdump
from isalens.frontends.run_tool import ToolError, run_tool
from isalens.isa.amdgcn.decoder.tables import DECODED_TARGETS
from isalens.lines import lines_of

__all__ = ["DEBIAN_PACKAGES", "Component", "install_command", "llvm_targets", "survey", "vulkan_loader_available"]

#: Every Debian (bookworm) package the front ends use; HIP's two are optional and large.
DEBIAN_PACKAGES = ("clang-19", "llvm-19", "libclc-19", "glslang-tools", "mesa-vulkan-drivers", "libvulkan1",
                   "libamdhip64-dev", "rocm-device-libs")


@dataclass(frozen=True)
class Component:
    """One tool or driver: whether it is usable, where, which version, what it targets, what provides it."""

    name: str
    purpose: str
    found: bool
    packages: tuple[str, ...]
    path: str | None = None
    version: str | None = None
    targets: tuple[str, ...] = ()
    note: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "purpose": self.purpose, "found": self.found, "packages": list(self.packages),
                "path": self.path, "version": self.version, "targets": list(self.targets), "note": self.note}


def _version(tool: str) -> str | None:
    try:
        return cc.tool_version(tool)
    except (cc.CompilerError, ToolError):
        return None


_GFX_RE = re.compile(r"^\s+(gfx[0-9a-f]{3,4})\s")  # gfx90a and gfx90c too (a letter in place of the last digit)


def llvm_targets(llc: str | None) -> tuple[str, ...]:
    """The gfx processors an llc knows (``llc -mtriple=amdgcn -mcpu=help``), generic targets left out."""
    if llc is None:
        return ()
    try:
        proc = run_tool([llc, "-mtriple=amdgcn", "-mcpu=help"], file=None)
    except ToolError:
        return ()
    names = {m.group(1) for line in lines_of(proc.stdout + proc.stderr) if (m := _GFX_RE.match(line))}
    return tuple(sorted(names, key=lambda t: (len(t), t)))


def vulkan_loader_available() -> bool:
    """Whether the Vulkan loader (libvulkan.so.1) can be loaded."""
    try:
        ctypes.CDLL("libvulkan.so.1")
    except OSError:
        return False
    return True


def survey(probe_radv: bool = True) -> list[Component]:
    """Look for every tool; with ``probe_radv`` also ask RADV which GPU families it can compile for."""
    out: list[Component] = []
    clang = cc.find_clang()
    llc = cc.find_llc()
    targets = llvm_targets(llc)
    out.append(Component("clang", "OpenCL C (.cl) and HIP (.hip) to AMDGPU assembly", clang is not None,
                         ("clang-19",), clang, _version(clang) if clang else None, targets))
    out.append(Component("llc", "LLVM IR (.ll/.bc) to AMDGPU assembly; lists the targets", llc is not None,
                         ("llvm-19",), llc, _version(llc) if llc else None, targets))
    objdump = find_objdump()
    out.append(Component(
        "llvm-objdump", "disassembles code objects with --disassembler llvm, and those our decoder does not read",
        objdump is not None, ("llvm-19",), objdump, _version(objdump) if objdump else None,
        note=f"binaries are disassembled by isalens' own decoder by default ({DECODED_TARGETS}); "
             "llvm-objdump is the fallback and --disassembler llvm"))
    libclc = cc.LIBCLC_AMDGCN
    out.append(Component("libclc", "OpenCL builtins (get_global_id, math...) linked into .cl kernels",
                         libclc.is_file(), ("libclc-19",), str(libclc) if libclc.is_file() else None))
    headers = cc.find_hip_headers()
    libs = cc.find_rocm_device_libs()
    hip_ok = headers is not None and libs is not None and clang is not None
    out.append(Component(
        "hip", "HIP (.hip) device code: HIP headers + ROCm device libraries, compiled by clang", hip_ok,
        ("libamdhip64-dev", "rocm-device-libs"), str(libs) if libs else None, None, tuple(cc.hip_targets(libs)),
        note=None if hip_ok else "optional; Debian's hipcc wrapper is not needed (clang is called directly)"))
    glslang = radv.find_glslang()
    out.append(Component("glslang", "GLSL and HLSL shaders to SPIR-V", glslang is not None, ("glslang-tools",),
                         glslang, _glslang_version(glslang) if glslang else None))
    loader = vulkan_loader_available()
    out.append(Component("vulkan-loader", "libvulkan.so.1, to reach the RADV driver", loader, ("libvulkan1",),
                         "libvulkan.so.1" if loader else None))
    icd = radv.find_radv_icd()
    families: tuple[str, ...] = ()
    version = None
    note = None
    if icd is not None and loader and probe_radv:
        found, version = radv.probe_families()
        old_mesa = bool(re.match(r"Mesa 22\.", version or ""))
        broken = radv.NULL_DEVICE_BROKEN if old_mesa else {}
        families = tuple(f"{f.lower()} ({radv.FAMILIES[f]}{', crashes' if f in broken else ''})" for f in found)
        if not found:
            note = "RADV created no null device (RADV_FORCE_FAMILY); see docs/frontends.md"
    out.append(Component("radv", "Mesa's Vulkan driver: compiles SPIR-V with ACO on a null device (no GPU needed)",
                         icd is not None and loader and (bool(families) or not probe_radv),
                         ("mesa-vulkan-drivers",), str(icd) if icd else None, version or None, families, note))
    return out


def _glslang_version(tool: str) -> str | None:
    try:
        proc = run_tool([tool, "--version"], file=None)
    except ToolError:
        return None
    first = lines_of(proc.stdout.strip())
    return first[0].strip() if first else None


def install_command(components: list[Component], *, include_optional: bool = True) -> str | None:
    """``apt-get install -y ...`` for what is missing (None when nothing is)."""
    missing: list[str] = []
    for comp in components:
        if comp.found or (comp.name == "hip" and not include_optional):
            continue
        for package in comp.packages:
            if package not in missing:
                missing.append(package)
    return f"apt-get install -y {' '.join(missing)}" if missing else None
