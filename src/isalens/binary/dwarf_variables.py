"""Where source variables live in a code object built with ``-g``: the DWARF location lists of its variables and
parameters, as address ranges and the registers holding them.

Read with our own walk of ``.debug_info`` (binary/dwarf_info.py; DWARF 5 ``.debug_loclists``, ``DW_FORM_loclistx``
included; a single location expression covers its scope). Registers by AMDGPU's DWARF numbering (LLVM's AMDGPUUsage,
"DWARF Register Number Mapping"): SGPR0-63 are 32-95, SGPR64-105 are 1088-1129; VGPRs are 1536+ in wave32 and 2560+
in wave64; AGPRs 2048+ in wave32 and 3072+ in wave64. A location is a register when its expression is
``DW_OP_regN``/``DW_OP_regx`` or, as LLVM 19 writes for OpenCL variables, ``DW_OP_bregx REG+0`` followed only by its
address-space suffix (``DW_OP_litN, DW_OP_swap, DW_OP_xderef``); ``DW_OP_piece`` splits a value over several
registers (the pieces are named in bits: ``acc[32:64]``). Anything else (a constant, memory, a value computed from a
register with ``DW_OP_stack_value``) is in no register: it is left out, as ``;DEBUG_VALUE:`` constants are in
assembly.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
from dataclasses import dataclass

from isalens.binary.dwarf_info import DwarfFormatError, Spans, iter_variable_locations, read_sleb, read_uleb
from isalens.binary.elf64 import Elf64, ElfFormatError
from isalens.errors import InputError
from isalens.ir.program import Kernel
from isalens.ir.registers import Reg, RegFile
from isalens.ir.source import SourceMap, VariableLoc

__all__ = ["VariableRange", "attach_variables", "attach_variables_to_each", "dwarf_register",
           "read_variable_ranges"]

_OP_REG0, _OP_REG31, _OP_REGX, _OP_BREGX, _OP_PIECE = 0x50, 0x6F, 0x90, 0x92, 0x93
_OP_LIT0, _OP_LIT31, _OP_SWAP, _OP_XDEREF = 0x30, 0x4F, 0x16, 0x18


@dataclass(frozen=True, slots=True)
class VariableRange:
    """A variable (or a piece of it, in bits) held in ``register`` over addresses ``low``..``high`` (exclusive)."""

    name: str
    low: int
    high: int
    register: Reg


def dwarf_register(number: int, wave_size: int) -> Reg | None:
    """The register AMDGPU's DWARF numbering gives ``number`` (None: not a general-purpose register)."""
    if 32 <= number <= 95:
        return Reg(RegFile.SGPR, number - 32)
    if 1088 <= number <= 1129:
        return Reg(RegFile.SGPR, 64 + number - 1088)
    vgpr, agpr = (1536, 2048) if wave_size == 32 else (2560, 3072)
    if vgpr <= number < vgpr + 256:
        return Reg(RegFile.VGPR, number - vgpr)
    if agpr <= number < agpr + 256:
        return Reg(RegFile.AGPR, number - agpr)
    return None


def _uleb(expr: bytes, at: int) -> tuple[int, int]:
    return read_uleb(expr, at, len(expr), "location expression")


def _sleb(expr: bytes, at: int) -> tuple[int, int]:
    return read_sleb(expr, at, len(expr), "location expression")


def _register_of(ops: bytes) -> tuple[int | None, int]:
    """(DWARF register number or None, index after it) for one piece's expression at the start of ``ops``."""
    if not ops:
        return None, 0
    op = ops[0]
    if _OP_REG0 <= op <= _OP_REG31:
        return op - _OP_REG0, 1
    if op == _OP_REGX:
        return _uleb(ops, 1)
    if op == _OP_BREGX:
        number, at = _uleb(ops, 1)
        offset, at = _sleb(ops, at)
        # LLVM 19's address-space suffix: DW_OP_litN, DW_OP_swap, DW_OP_xderef (then a piece or the end)
        if (offset == 0 and at + 2 < len(ops) and _OP_LIT0 <= ops[at] <= _OP_LIT31
                and ops[at + 1] == _OP_SWAP and ops[at + 2] == _OP_XDEREF):
            return number, at + 3
    return None, len(ops)


def _pieces(expr: bytes, wave_size: int) -> list[tuple[Reg, int, int | None]]:
    """(register, first bit, bits or None for the whole value) for each register piece of ``expr``."""
    out: list[tuple[Reg, int, int | None]] = []
    bit = 0
    at = 0
    while at < len(expr):
        number, used = _register_of(expr[at:])
        at += used
        size: int | None = None
        if at < len(expr) and expr[at] == _OP_PIECE:
            size, at = _uleb(expr, at + 1)
            size *= 8
        elif at < len(expr):
            return []  # an operation after the location we do not read: the value is not simply a register
        reg = dwarf_register(number, wave_size) if number is not None else None
        if reg is not None:
            out.append((reg, bit, size))
        if size is None:
            break
        bit += size
    return out


#: more register locations than this in one code object are not read: a single location holds over every range of
#: its scope, so a hand-made unit with a scope of many ranges and many variables in it would multiply them
#: (librocsparse's largest -g code object has 197,808)
MAX_VARIABLE_RANGES = 1_000_000


def read_variable_ranges(data: bytes, *, file: str, where: str, wave_size: int, first_only: bool = False,
                         within: Spans | None = None) -> tuple[list[VariableRange], list[str]]:
    """Every register location of every named variable and parameter, and what could not be read.
    ``first_only``: per function, only the first variable with a register location over some address (a scan
    row says only whether any variable covers its kernel; a library's -g code object has ~200,000 locations).
    ``within``: only the functions whose code reaches into these address spans (the kernels asked for)."""
    try:
        elf = Elf64(data)
        out: list[VariableRange] = []
        problems: list[str] = []
        # a library's -g code object repeats a few hundred distinct expressions over ~200,000 locations
        known: dict[bytes, list[tuple[Reg, int, int | None]] | None] = {}
        done: set[int] = set()
        for variable in iter_variable_locations(elf, done, within):
            if variable.problem is not None:
                problems.append(f"location of '{variable.name}' unreadable ({variable.problem}): dropped")
                continue
            found = _ranges(variable.name, variable.spans, wave_size, problems, known)
            out += found
            if len(out) > MAX_VARIABLE_RANGES:
                del out[MAX_VARIABLE_RANGES:]
                problems.append(f"more than {MAX_VARIABLE_RANGES:,} variable locations: the rest are not read")
                break
            if first_only and variable.function >= 0 and any(r.low < r.high for r in found):
                done.add(variable.function)
        return out, problems
    except (DwarfFormatError, ElfFormatError) as exc:
        raise InputError(f"{where}: DWARF variable locations: damaged ({exc})", file=file, code="damaged") from None


def _ranges(name: str, spans: tuple[tuple[int, int, bytes], ...], wave_size: int, problems: list[str],
            known: dict[bytes, list[tuple[Reg, int, int | None]] | None] | None = None) -> list[VariableRange]:
    out: list[VariableRange] = []
    known = {} if known is None else known
    for low, high, expr in spans:
        if expr in known:
            pieces = known[expr]
        else:
            try:
                pieces = known[expr] = _pieces(expr, wave_size)
            except DwarfFormatError:
                pieces = known[expr] = None
        if pieces is None:
            problems.append(f"location of '{name}' is cut short: dropped")
            continue
        for reg, bit, bits in pieces:
            piece = f"{name}[{bit}:{bit + bits}]" if bits is not None and (bit or len(pieces) > 1) else name
            out.append(VariableRange(piece, low, high, reg))
    return out


def attach_variables_to_each(kernels: tuple[Kernel, ...], ranges: list[VariableRange]) -> tuple[Kernel, ...]:
    """:func:`attach_variables` for every kernel of one code object, each given only the ranges that overlap its
    addresses: a library's ``-g`` code object has tens of thousands of ranges (every inlined copy of a template's
    variables) over hundreds of kernels, and each kernel looking through all of them took minutes."""
    spans = sorted((k.instructions[0].address, k.instructions[-1].address, i) for i, k in enumerate(kernels)
                   if k.instructions and k.instructions[0].address is not None
                   and k.instructions[-1].address is not None)
    firsts = [first for first, _last, _i in spans]
    reach = list(itertools.accumulate((last for _first, last, _i in spans), max))  # the furthest end so far
    buckets: dict[int, list[VariableRange]] = {}
    for r in ranges:
        j = bisect.bisect_right(firsts, r.high - 1) - 1  # the last kernel starting before the range ends
        while j >= 0 and reach[j] >= r.low:  # no kernel before j reaches the range: stop
            if spans[j][1] >= r.low:
                buckets.setdefault(spans[j][2], []).append(r)
            j -= 1
    return tuple(attach_variables(k, buckets[i]) if i in buckets else k for i, k in enumerate(kernels))


def attach_variables(kernel: Kernel, ranges: list[VariableRange]) -> Kernel:
    """``kernel`` with the variables of ``ranges`` that cover its instructions (by address), as
    :class:`~isalens.ir.source.VariableLoc` ranges of instruction indices."""
    ins = kernel.instructions
    if not ranges or not ins or ins[0].address is None:
        return kernel
    addresses = [i.address if i.address is not None else -1 for i in ins]
    found: list[VariableLoc] = []
    for r in ranges:
        start = bisect.bisect_left(addresses, r.low)
        end = bisect.bisect_left(addresses, r.high) - 1
        if start <= end:
            found.append(VariableLoc(r.name, r.register.mask(), start, end))
    if not found:
        return kernel
    found.sort(key=lambda v: (v.start, v.name))
    source = kernel.source if kernel.source is not None else SourceMap()
    return dataclasses.replace(kernel, source=dataclasses.replace(source, variables=tuple(found),
                                                                  debug_info="lines+variables"))
