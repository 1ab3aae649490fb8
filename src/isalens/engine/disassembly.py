"""What a bare ``llvm-objdump -d`` listing leaves out and its code still shows, filled in by the finishing step
(:func:`isalens.engine.load.finish_module`), so that a code object's disassembly read as text gives the figures
the code object itself gives (``tests/oracle/test_binary_text.py``).

A code object's reader knows which functions are kernels (its metadata) and where each function ends (its
symbols' sizes); the listing shows neither, so:

* a function that returns through ``s_setpc_b64`` and never ends the program (``s_endpgm``) is a callee,
  not a kernel (kernels are entered by the dispatcher and end with ``s_endpgm``);
* the alignment padding after a function's last instruction (``s_nop 0`` up to the next 256-byte boundary,
  ``s_code_end`` at the end of ``.text`` on gfx10+) is not the function's code: LLVM's ``codeLenInByte``
  leaves it out, and nothing branches into it.
"""

from __future__ import annotations

from isalens import records
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.program import Kernel, Module

__all__ = ["listing_gaps"]

#: instructions that end a function's code: nothing after them runs unless a branch leads there
_NO_FALLTHROUGH = (BranchKind.END, BranchKind.RETURN, BranchKind.JUMP, BranchKind.INDIRECT)


def listing_gaps(module: Module) -> Module:
    """``module`` with callees marked and padding cut, when it was read from an ``objdump`` listing."""
    if module.dialect != "objdump":
        return module
    kernels = tuple(_without_padding(_callee_or_kernel(k)) for k in module.kernels)
    if all(new is old for new, old in zip(kernels, module.kernels, strict=True)):
        return module
    return records.replace(module, kernels=kernels)


def _callee_or_kernel(kernel: Kernel) -> Kernel:
    if not kernel.is_kernel:  # a code object's metadata already said so
        return kernel
    names = {ins.mnemonic for ins in kernel.instructions}
    if "s_setpc_b64" in names and "s_endpgm" not in names:
        return records.replace(kernel, is_kernel=False)
    return kernel


def _is_padding(ins: Instruction) -> bool:
    if ins.mnemonic == "s_code_end":
        return True
    return ins.mnemonic == "s_nop" and ins.text.split()[1:] == ["0"]


def _without_padding(kernel: Kernel) -> Kernel:
    code = kernel.instructions
    end = len(code)
    while end > 0 and _is_padding(code[end - 1]):
        end -= 1
    if end == len(code) or end == 0 or code[end - 1].branch not in _NO_FALLTHROUGH:
        return kernel
    if any(index >= end for index in kernel.labels.values()):  # a branch may lead into it: it is code
        return kernel
    source = kernel.source
    if len(source.locs) > end:
        source = records.replace(source, locs=source.locs[:end])
    return records.replace(kernel, instructions=code[:end], source=source,
                               block_starts={n: i for n, i in kernel.block_starts.items() if i < end})
