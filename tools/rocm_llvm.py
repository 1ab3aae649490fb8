#!/usr/bin/env python3
"""ROCm LLVM's AMDGPU disassembler as an oracle (issue 28): the optional PyPI package ``rocm-llvm-python``
(extra ``rocm-oracle``; x86_64 Linux wheels only) ships ``rocm/llvm/librocmllvm.so``, ROCm's LLVM (22.0git in
7.2.2) with the LLVM-C disassembler (``LLVMCreateDisasmCPUFeatures``, ``LLVMDisasmInstruction``), which knows
targets LLVM 19 does not: gfx950, gfx1250, gfx1251.

Used by tools/gen_opcode_tables.py (``--rocm-llvm``: tables for those targets) and the oracle tests. The library
is driven with ctypes in a child process (this file run as a script), because LLVM aborts the whole process on a
processor name it does not know ("LLVM ERROR: disassembly not yet supported for subtarget"). Standard library only.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

__all__ = ["disassemble", "library", "listing", "occupancy"]

#: a processor name as LLVM spells AMDGPU targets; anything else never reaches the library
_CPU = re.compile(r"gfx[0-9a-f]{3,4}")
_FEATURES = re.compile(r"(?:[+-][a-z0-9-]+(?:,[+-][a-z0-9-]+)*)?")


def library() -> Path | None:
    """``librocmllvm.so`` of an installed rocm-llvm-python, found on sys.path without importing ``rocm.llvm``
    (which loads every binding module); None when the package is not installed."""
    for entry in sys.path:
        lib = Path(entry or ".") / "rocm" / "llvm" / "librocmllvm.so"
        if lib.is_file():
            return lib
    return None


def listing(cpu: str, chunks: list[bytes], features: str = "") -> list[list[tuple[int, str | None]]]:
    """Each chunk disassembled from its first byte to its end: (length in bytes, text or None for bytes LLVM
    rejects, which count as 4) per instruction, in order. Texts have single spaces. Raises RuntimeError when the
    package is missing or the child process fails (an unknown ``cpu`` or ``features``)."""
    lib = library()
    if lib is None:
        raise RuntimeError("rocm-llvm-python is not installed (pip install '.[rocm-oracle]')")
    if not _CPU.fullmatch(cpu) or not _FEATURES.fullmatch(features):
        raise RuntimeError(f"not an AMDGPU processor/feature string: {cpu!r} {features!r}")
    run = subprocess.run([sys.executable, __file__, str(lib), cpu, features],
                         input="".join(c.hex() + "\n" for c in chunks), capture_output=True, text=True, check=False)
    lines = run.stdout.splitlines()
    if run.returncode != 0 or len(lines) != len(chunks):
        raise RuntimeError(f"ROCm LLVM disassembler failed for {cpu}: {run.stderr.strip()[-300:]}")
    return [[(n, t) for n, t in json.loads(line)] for line in lines]


def disassemble(cpu: str, probes: list[tuple[int, ...]], features: str = "") -> list[str | None]:
    """Text of each probe (dwords) when LLVM decodes it as exactly one instruction of the probe's length, else
    None (the contract of gen_opcode_tables.disassemble, whose llvm-mc needs s_nop markers to learn lengths)."""
    chunks = [b"".join(w.to_bytes(4, "little") for w in p) for p in probes]
    out: list[str | None] = []
    for chunk, insts in zip(chunks, listing(cpu, chunks, features), strict=True):
        n, text = insts[0] if insts else (0, None)
        out.append(text if n == len(chunk) else None)
    return out


def occupancy(cpu: str, kernels: list[tuple[int, int, int]], features: str = "") -> list[tuple[int, int] | None]:
    """ROCm LLVM's ``; NumVgprs`` and ``; Occupancy`` for tiny kernels compiled for ``cpu`` (its LLVM-C target
    machine, verbose assembly), each (VGPRs it clobbers: v0 .. v(n-1) by inline asm, bytes of LDS it uses,
    maximum workgroup size); None when ROCm LLVM emits no kernel (a feature the target lacks, e.g.
    +wavefrontsize64 on gfx1250). Raises RuntimeError like :func:`listing`."""
    lib = library()
    if lib is None:
        raise RuntimeError("rocm-llvm-python is not installed (pip install '.[rocm-oracle]')")
    if not _CPU.fullmatch(cpu) or not _FEATURES.fullmatch(features):
        raise RuntimeError(f"not an AMDGPU processor/feature string: {cpu!r} {features!r}")
    run = subprocess.run([sys.executable, __file__, str(lib), cpu, features, "compile"],
                         input="".join(f"{v} {lds} {wg}\n" for v, lds, wg in kernels), capture_output=True,
                         text=True, check=False)
    lines = run.stdout.splitlines()
    if run.returncode != 0 or len(lines) != len(kernels):
        raise RuntimeError(f"ROCm LLVM code generation failed for {cpu}: {run.stderr.strip()[-300:]}")
    return [None if line == "-" else (int(line.split()[0]), int(line.split()[1])) for line in lines]


def _kernel_ir(vgprs: int, lds: int, workgroup: int) -> str:
    """LLVM IR of a kernel that clobbers v(vgprs-1) and stores one byte to an LDS array of ``lds`` bytes."""
    decl = f"@lds = internal addrspace(3) global [{lds} x i8] poison, align 4\n" if lds else ""
    use = (f"  store volatile i8 1, ptr addrspace(3) getelementptr ([{lds} x i8], ptr addrspace(3) @lds, i32 0, "
           "i32 1)\n") if lds else ""
    return (f'target triple = "amdgcn-amd-amdhsa"\n{decl}define amdgpu_kernel void @k() #0 {{\n'
            f'  call void asm sideeffect "; use", "~{{v{vgprs - 1}}}"()\n{use}  ret void\n}}\n'
            f'attributes #0 = {{ "amdgpu-flat-work-group-size"="1,{workgroup}" }}\n')


def _compile_child(lib: object, cpu: str, features: str) -> None:
    """Read ``VGPRS LDS WORKGROUP`` lines; print ``NUMVGPRS OCCUPANCY`` (or ``-``) for each kernel."""
    import ctypes

    vp = ctypes.c_void_p
    fn = getattr
    for name, res, args in (
            ("LLVMContextCreate", vp, []), ("LLVMCreateMemoryBufferWithMemoryRangeCopy", vp,
                                            [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p]),
            ("LLVMParseIRInContext", ctypes.c_int, [vp, vp, ctypes.POINTER(vp), ctypes.POINTER(ctypes.c_char_p)]),
            ("LLVMGetTargetFromTriple", ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(vp),
                                                       ctypes.POINTER(ctypes.c_char_p)]),
            ("LLVMCreateTargetMachine", vp, [vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                             ctypes.c_int, ctypes.c_int]),
            ("LLVMSetTargetMachineAsmVerbosity", None, [vp, ctypes.c_int]),
            ("LLVMTargetMachineEmitToMemoryBuffer", ctypes.c_int, [vp, vp, ctypes.c_int,
                                                                   ctypes.POINTER(ctypes.c_char_p),
                                                                   ctypes.POINTER(vp)]),
            ("LLVMGetBufferStart", vp, [vp]), ("LLVMGetBufferSize", ctypes.c_size_t, [vp])):
        f = fn(lib, name)
        f.restype, f.argtypes = res, args
    for init in ("LLVMInitializeAMDGPUTargetInfo", "LLVMInitializeAMDGPUTarget", "LLVMInitializeAMDGPUTargetMC",
                 "LLVMInitializeAMDGPUAsmPrinter"):
        fn(lib, init)()
    triple, err = b"amdgcn-amd-amdhsa", ctypes.c_char_p()
    target = vp()
    if fn(lib, "LLVMGetTargetFromTriple")(triple, ctypes.byref(target), ctypes.byref(err)):
        sys.exit("no AMDGPU target")
    machine = fn(lib, "LLVMCreateTargetMachine")(target, triple, cpu.encode(), features.encode(), 2, 0, 0)
    fn(lib, "LLVMSetTargetMachineAsmVerbosity")(machine, 1)
    for line in sys.stdin:
        vgprs, lds, workgroup = (int(x) for x in line.split())
        ir = _kernel_ir(vgprs, lds, workgroup).encode()
        context = fn(lib, "LLVMContextCreate")()
        buf = fn(lib, "LLVMCreateMemoryBufferWithMemoryRangeCopy")(ir, len(ir), b"k")
        module, out = vp(), vp()
        if fn(lib, "LLVMParseIRInContext")(context, buf, ctypes.byref(module), ctypes.byref(err)) or \
                fn(lib, "LLVMTargetMachineEmitToMemoryBuffer")(machine, module, 0, ctypes.byref(err),
                                                               ctypes.byref(out)):
            sys.exit(f"cannot compile: {err.value!r}")
        text = ctypes.string_at(fn(lib, "LLVMGetBufferStart")(out), fn(lib, "LLVMGetBufferSize")(out)).decode()
        found = re.search(r"; NumVgprs: (\d+).*?; Occupancy: (\d+)", text, re.S)
        print(f"{found.group(1)} {found.group(2)}" if found else "-", flush=False)


def _child(lib_path: str, cpu: str, features: str) -> None:
    """Read hex chunks from stdin, one a line; print each one's instructions as a JSON list of [length, text]."""
    import ctypes

    lib = ctypes.CDLL(lib_path)
    for init in ("LLVMInitializeAMDGPUTargetInfo", "LLVMInitializeAMDGPUTargetMC", "LLVMInitializeAMDGPUDisassembler"):
        getattr(lib, init)()
    lib.LLVMCreateDisasmCPUFeatures.restype = ctypes.c_void_p
    lib.LLVMCreateDisasmCPUFeatures.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_void_p, ctypes.c_int,
                                                                         ctypes.c_void_p, ctypes.c_void_p]
    lib.LLVMDisasmInstruction.restype = ctypes.c_size_t
    lib.LLVMDisasmInstruction.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64,
                                          ctypes.c_char_p, ctypes.c_size_t]
    lib.LLVMDisasmDispose.argtypes = [ctypes.c_void_p]
    context = lib.LLVMCreateDisasmCPUFeatures(b"amdgcn-amd-amdhsa", cpu.encode(), features.encode(), None, 0,
                                              None, None)
    if not context:
        sys.exit(f"no disassembler for {cpu}")
    text = ctypes.create_string_buffer(512)
    for line in sys.stdin:
        data = bytes.fromhex(line.strip())
        buf = (ctypes.c_ubyte * max(len(data), 1)).from_buffer_copy(data or b"\0")
        insts: list[tuple[int, str | None]] = []
        at = 0
        while at < len(data):
            n = lib.LLVMDisasmInstruction(context, ctypes.byref(buf, at), len(data) - at, at, text, len(text))
            insts.append((n or 4, " ".join(text.value.decode().split()) if n else None))
            at += n or 4
        print(json.dumps(insts), flush=False)
    lib.LLVMDisasmDispose(context)


if __name__ == "__main__":
    if sys.argv[4:5] == ["compile"]:
        import ctypes

        _compile_child(ctypes.CDLL(sys.argv[1]), sys.argv[2], sys.argv[3])
    else:
        _child(*sys.argv[1:4])
