"""Every error code isalens reports: code -> what it means, one line each.

An :class:`isalens.errors.IsalensError` carries one of these codes; the JSON reports (``error.code``) and
the scan tables (``error_code``) show it, so scripts can tell the kinds of failure apart. A test parses
``src/`` and requires every ``code="..."`` to be listed here (and every entry to be used); docs/errors.md
lists the same table.
"""

from __future__ import annotations

__all__ = ["ERROR_CODES"]

ERROR_CODES: dict[str, str] = {
    # ------------------------------------------------------------------ targets
    "arch-conflict": "--arch names another target than the input declares",
    "arch-required": "the input does not name its target: pass --arch",
    "unknown-arch": "a target name isalens (or RADV) does not know",
    "unknown-device": "a device name (--device) isalens does not know",
    "unknown-target": "a VLIW target name the R600 readers do not know",
    "vliw-target": "a VLIW (R600-Cayman) target given to a command that reads GCN, CDNA and RDNA only",
    "wave-size": "a wave size the target does not run",
    "target-required": "a binary holds code objects for several targets: choose one with --target",
    "no-target": "a binary holds no code object for the target asked for",
    "timing-arch": "the timing model has no facts for this target's family",
    # ------------------------------------------------------------------ reading input
    "io": "a file cannot be read or written",
    "not-regular": "the path is a directory, device, pipe or socket, not a regular file",
    "too-large": "the input, a decompressed bundle or the instruction count is over isalens' cap",
    "empty": "the input holds no instructions",
    "binary": "binary data where ISA text was expected, or a binary isalens cannot read",
    "text-names-file": "the API was given a str that names a file: pass a pathlib.Path to read it",
    "dialect": "an unknown --dialect, or text in another dialect than the one chosen",
    "vliw-input": "VLIW (R600-Cayman) code given to a command that reads GCN, CDNA and RDNA only",
    "no-code": "the input is not ISA code isalens reads (the message says what it looks like)",
    "damaged": "a reader library failed on damaged input (the message names what)",
    # ------------------------------------------------------------------ ISA text
    "syntax": "an instruction's operands cannot be read, or there are too many or too few",
    "unknown-instruction": "a mnemonic isalens has no semantics for (--ignore-unknown continues)",
    "register-range": "a register beyond the target's addressable registers",
    "branch-target": "a branch without a target, or to a label or address that is not an instruction",
    "duplicate-label": "a label defined twice in one kernel",
    "unterminated": "a kernel without its .Lfunc_end label",
    "no-kernel": "no kernel or instruction found, or no kernel of the name asked for",
    "descriptor": "a kernel descriptor (or its .amdhsa directives) is missing or out of range",
    "truncated": "a RADV dump that ends or loses its encoding words inside the disassembly",
    "no-disasm": "a RADV dump without a 'disasm:' section",
    "no-program": "no VLIW program in the input",
    # ------------------------------------------------------------------ binaries
    "not-binary": "not a code object, offload bundle or ELF file",
    "elf": "an ELF header that is damaged or truncated",
    "not-amdgpu": "an ELF file for another machine, with no AMDGPU code inside",
    "bundle": "a damaged, truncated or unsupported offload bundle",
    "no-amdgpu": "an offload bundle with no AMDGPU entry",
    "no-code-object": "an offload bundle whose AMDGPU entries are empty, or no code object with code",
    "code-object": "a damaged AMDGPU code object (sections, notes, symbols)",
    "code-object-version": "a code object version isalens does not read (it reads v4-v6)",
    "metadata": "missing, damaged or unusable AMDGPU metadata",
    "dwarf": "damaged DWARF debug information",
    "binary-extra": "reading binaries needs an optional package that is not installed",
    # ------------------------------------------------------------------ decode
    "decode": "encoding words that do not decode into instructions (isalens' decoder or LLVM's)",
    "decode-input": "no words to decode: no .text section, no encoding words, not an ELF64 code object",
    "llvm-mc": "llvm-mc does not know the target",
    "llvm-mc-missing": "llvm-mc is not installed",
    # ------------------------------------------------------------------ compilers and tools
    "compiler": "a compiler or tool failed (the message carries its first error line)",
    "compile": "glslang or RADV could not compile the shader",
    "companion": "the generated companion shader does not compile for the shader's interface",
    "spirv": "the SPIR-V of a shader cannot be read",
    "stage": "the shader stage is unknown or its interface cannot be built",
    "layout": "one descriptor binding with different types in the pipeline's stages",
    "driver": "RADV/ACO returned no usable assembly",
    "unresolved": "the compiled code calls functions that were not linked in",
    "unsupported-target": "the compiler or driver does not support this target",
    "toolchain-missing": "a compiler isalens needs is not installed",
    "tool-missing": "an external tool cannot be run",
    "tool-timeout": "an external tool ran over its time limit and was stopped",
    "tool-memory": "an external tool ran out of its memory limit",
    "disassembler": "llvm-objdump failed",
    "disassembler-target": "LLVM 19's disassembler does not support the code object's target",
    # ------------------------------------------------------------------ commands
    "usage": "an option value or combination of options the command cannot use",
    "error": "an error with no more specific code",
    "plot": "a plot cannot be drawn or written",
    "occupancy-input": "occupancy inputs out of range",
    "tile-input": "tile inputs out of range",
    "timing": "inputs the timing model cannot use (waves, trip counts)",
    "budget": "a budget file (isalens check) that cannot be read or is invalid",
    "scan": "not a readable scan result",
    "scan-extra": "scans need optional packages that are not installed",
    "scan-memory": "reading a scan result needs more memory than allowed",
    "sql": "the SQL of isalens query failed",
    "dask": "the dask scheduler cannot be reached or used",
    "dask-extra": "--engine dask needs dask.distributed, which is not installed",
    "notebook-extra": "Analysis.frame needs pandas (isalens[notebook]), which is not installed",
    "serve-forbidden": "isalens serve: a file the server was not opened on",
}
