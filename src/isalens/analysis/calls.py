"""The call graph of a module: call targets resolved from the code, and per function the registers its
callees need, computed the way LLVM's AMDGPU resource-usage analysis does.

Targets: ``s_swappc_b64 s[30:31], s[4:5]`` (and a tail call ``s_setpc_b64 s[4:5]``) jumps to the address
in ``s[4:5]``. LLVM materialises it as ``s_getpc_b64 s[4:5]`` + ``s_add_u32 s4, s4, f@rel32@lo+4`` +
``s_addc_u32 s5, s5, f@rel32@hi+12`` (or loads it from the GOT after ``f@gotpcrel32@lo``); disassembly
shows the same with literals, which give the target address relative to the ``s_getpc_b64``. Anything
else (a pointer loaded from memory) is an indirect call whose target is unknown.

Registers (LLVM 19, ``AMDGPUResourceUsageAnalysis.cpp``): functions are visited in post-order of the
call graph; a function with calls needs the maximum of its own registers and each callee's figure
(which already covers the callee's callees), and inherits its callees' VCC and flat-scratch use. A call
whose callee is unknown, not defined in the module, or still being visited (a callee on a recursive
cycle other than the function itself) counts as an indirect call: it uses VCC and flat scratch, and at
the end every function with such a call gets at least the largest figure of any non-kernel function.
A call to itself adds nothing (its own figure is already counted).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import reduce
from itertools import compress
from operator import attrgetter, or_

from isalens import _core, records
from isalens.analysis.abi import CallingConvention, calling_convention
from isalens.analysis.cfg import CFG, cfg
from isalens.analysis.liveness import Liveness, liveness
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.operands import ImmOperand, OtherOperand, RegOperand
from isalens.ir.program import CallSummary, Kernel, Module
from isalens.ir.registers import Reg, RegFile, highest_register, registers_in, special_pair
from isalens.lazyre import LazyPattern

_SYMBOL = LazyPattern(r"^([.A-Za-z_$][\w.$]*)@(rel32|gotpcrel32)@lo(?:[+-]\d+)?$")
_FILES = ("v", "a", "s")
_DEFS = attrgetter("defs")
_USES = attrgetter("uses")
_REFERENCED = attrgetter("referenced")
_BRANCH = attrgetter("branch")
#: the branches a walk back from a call stops at (:class:`_Writers`)
_STOPS_WALK = frozenset(BranchKind) - {BranchKind.NONE, BranchKind.CALL}
#: the branches that may go to another function: a call, or a return through a register (a tail call)
_TRANSFERS = frozenset({BranchKind.CALL, BranchKind.RETURN})


def _union(sets: Iterable[int]) -> int:
    """The union of unit sets (one C loop: these run over every line of every function, 100k in
    ``benchmarks/calls_kernel.py``)."""
    return reduce(or_, sets, 0)


def _operand_regs(op: object) -> tuple[RegFile, int, int] | None:
    if isinstance(op, RegOperand) and len(op.regs) == 1:
        reg = op.regs[0]
        return reg.file, reg.index, reg.count
    return None


def _address_register(ins: Instruction) -> int | None:
    """Index of the SGPR pair holding the target of a call or jump through a register."""
    regs = [r for op in ins.operands if (r := _operand_regs(op)) is not None]
    if ins.branch is BranchKind.CALL and len(regs) >= 2:
        file, index, count = regs[1]
    elif ins.branch is BranchKind.RETURN and regs:
        file, index, count = regs[0]
    else:
        return None
    return index if file is RegFile.SGPR and count == 2 else None


class _Writers:
    """Answers "the closest instruction before ``before`` that writes SGPR ``sgpr``" for one function.

    Each answer equals a walk back from ``before`` that stops at a branch other than a call: in straight-line
    code the closest write is the value the register holds (a callee that clobbered it would have made the
    compiler write it again before the next use). The walk once stopped after 256 lines, which bounded its cost
    (calls x lines walked) but left the calls of ``benchmarks/calls_kernel.py``, through SGPR pairs set up once at
    its top, unknown. Here the writes of each SGPR asked about and the function's branches are listed once, and
    an answer is two binary searches, whatever the distance."""

    __slots__ = ("_branches", "_instructions", "_writes", "resolved")

    def __init__(self, instructions: Sequence[Instruction]) -> None:
        self._instructions = instructions
        self._branches: list[int] | None = None
        self._writes: dict[int, list[int]] = {}
        #: per index of the instruction that last wrote a call's address register (-1: none found), the
        #: function that address leads to (:func:`_resolve`)
        self.resolved: dict[int, str | None] = {}

    def before(self, before: int, sgpr: int) -> Instruction | None:
        """The writer of ``sgpr`` closest before line ``before`` in the same straight-line code, or None."""
        instructions = self._instructions
        if self._branches is None:
            self._branches = list(compress(range(len(instructions)),
                                           map(_STOPS_WALK.__contains__, map(_BRANCH, instructions))))
        writes = self._writes.get(sgpr)
        if writes is None:
            mask = Reg(RegFile.SGPR, sgpr).mask()
            # the running core's loop: the 16 SGPRs asked about in benchmarks/calls_kernel.py's 100k kernel
            # took 71 ms as compress() over map()s
            writes = self._writes[sgpr] = _core.rows_masked(instructions, _DEFS_AT, mask)
        k = bisect_left(writes, before)
        written = writes[k - 1] if k else -1
        k = bisect_left(self._branches, before)
        branch = self._branches[k - 1] if k else -1
        # the walk checks a line's branch before its writes: a branch at the writer's own line stops it too
        if written < 0 or branch >= written:
            return None
        return instructions[written]


def _resolve(kernel: Kernel, ins: Instruction, pair: int | None, by_address: dict[int, str],
             writers: _Writers) -> str | None:
    """The function ``ins`` (a call or jump through the SGPR pair starting at ``pair``, its
    :func:`_address_register`) transfers to, or None (``writers``: the SGPR writers of ``kernel``)."""
    if pair is None:
        return None
    writer = writers.before(ins.index, pair)
    # the rest depends on the writer alone: calls whose address one instruction wrote share its answer (the
    # 19,584 calls of benchmarks/calls_kernel.py go through four pairs set up at its top)
    key = -1 if writer is None else writer.index
    if key in writers.resolved:
        return writers.resolved[key]
    found = writers.resolved[key] = _target_of(kernel, writer, by_address, writers)
    return found


def _target_of(kernel: Kernel, writer: Instruction | None, by_address: dict[int, str],
               writers: _Writers) -> str | None:
    """The function the address ``writer`` put into a call's SGPR pair leads to, or None."""
    instructions = kernel.instructions
    if writer is not None and writer.mnemonic.startswith("s_load_dwordx2"):
        # a GOT entry: the address of the entry is built the same way as a direct target
        base = next((r for op in writer.operands[1:] if (r := _operand_regs(op)) is not None), None)
        if base is None or base[0] is not RegFile.SGPR:
            return None
        writer = writers.before(writer.index, base[1])
    if writer is None or not writer.mnemonic.startswith(("s_add_u32", "s_add_co_u32")):
        return None
    for op in writer.operands[1:]:
        if isinstance(op, OtherOperand):
            m = _SYMBOL.match(op.text.strip())
            if m:
                return m.group(1)
        if isinstance(op, ImmOperand) and isinstance(op.value, int) and writer.address is not None:
            return _by_literal(instructions, writer, op.value, by_address, writers)
    return None


def _by_literal(instructions: Sequence[Instruction], add_lo: Instruction, lo: int,
                by_address: dict[int, str], writers: _Writers) -> str | None:
    """Disassembly: target = address after ``s_getpc_b64`` + the 64-bit offset the add pair applies."""
    pair = _operand_regs(add_lo.operands[0])
    if pair is None:
        return None
    getpc = writers.before(add_lo.index, pair[1])
    if getpc is None or getpc.mnemonic != "s_getpc_b64" or getpc.address is None:
        return None
    hi = 0
    nxt = instructions[add_lo.index + 1] if add_lo.index + 1 < len(instructions) else None
    if nxt is not None and nxt.mnemonic.startswith(("s_addc_u32", "s_add_co_ci_u32")):
        imm = next((op.value for op in nxt.operands[1:] if isinstance(op, ImmOperand)
                    and isinstance(op.value, int)), 0)
        hi = int(imm) & 0xFFFFFFFF
    offset = ((hi << 32) | (lo & 0xFFFFFFFF))
    if offset >= 1 << 63:
        offset -= 1 << 64
    return by_address.get(getpc.address + 4 + offset)


@records.dataclass(slots=True)
class _Usage:
    """What one function uses, with its callees': registers per file, where each count came from, VCC, flat
    scratch, and whether a call is indirect or its target unresolved."""

    counts: dict[str, int]
    origin: dict[str, str]
    uses_vcc: bool
    uses_flat: bool
    indirect: bool
    unresolved: bool


class _Unions:
    """The unions over a function's lines of what they write, read and name (``defs``, ``uses``,
    ``referenced``), each made once per instruction tuple: the register counts, the call summaries and the
    liveness linking all read them (a union over the 100k lines of ``benchmarks/calls_kernel.py`` is ~4 ms and
    was made up to four times each)."""

    __slots__ = ("_made",)

    def __init__(self) -> None:
        # by id of the instruction tuple (a kernel and its copy with a call summary share it), which is kept
        # here too so that the id cannot be reused while this object lives
        self._made: dict[int, tuple[tuple[Instruction, ...], dict[str, int]]] = {}

    def _of(self, kernel: Kernel, field: str) -> int:
        instructions = kernel.instructions
        made = self._made.get(id(instructions))
        if made is None:
            made = self._made[id(instructions)] = (instructions, {})
        found = made[1].get(field)
        if found is None:
            found = made[1][field] = _union(map(attrgetter(field), instructions))
        return found

    def defs(self, kernel: Kernel) -> int:
        return self._of(kernel, "defs")

    def uses(self, kernel: Kernel) -> int:
        return self._of(kernel, "uses")

    def referenced(self, kernel: Kernel) -> int:
        return self._of(kernel, "referenced")


def _own(kernel: Kernel, unions: _Unions) -> _Usage:
    referenced = unions.referenced(kernel)
    touched = unions.defs(kernel) | unions.uses(kernel) | referenced
    counts = {
        "v": highest_register(referenced, RegFile.VGPR) + 1,
        "a": highest_register(referenced, RegFile.AGPR) + 1,
        "s": highest_register(referenced, RegFile.SGPR) + 1,
    }
    return _Usage(counts, dict.fromkeys(_FILES, kernel.name), bool(touched & special_pair("vcc").mask()),
                  bool(touched & special_pair("flat_scratch").mask()), False, False)


#: per function name: the linked function, its CFG and its liveness, as linking solved them (:func:`link_liveness`)
Solved = dict[str, tuple[Kernel, CFG, Liveness]]


def link_calls(module: Module, *, has_flat_address_space: bool = True, unified_vgpr_file: bool = False,
               scratch_descriptor: bool = True, llvm_major: int | None = None,
               solved: Solved | None = None) -> Module:
    """``module`` with each function's :class:`CallSummary` filled in, a warning per unknown call, and
    calls and returns given their register effects under the calling convention of LLVM release
    ``llvm_major`` (the input's producer; None: the default release) (:func:`link_liveness`; ``solved``, when
    given, receives the CFG and liveness linking computed for the functions as returned)."""
    functions = {k.name: k for k in module.kernels}
    sites = _call_sites(module)
    if not any(sites.values()):
        if all(k.is_kernel for k in module.kernels):
            return module
        # no calls, but functions that callers outside the file call: their returns read the results they set
        # up and not the return address, as in a file with calls (particle_double.cl calcLikelihoodSum
        # returns its double in v[0:1]: LLVM 19's S_SETPC_B64_return reads them, and they were dead before it)
        cc = calling_convention(unified_vgpr_file, scratch_descriptor, llvm_major)
        return records.replace(module, kernels=tuple(
            k if k.is_kernel else _with_effects(k, {}, {}, cc, 0, unknown_callers=True) for k in module.kernels))
    unions = _Unions()
    info = _usages(functions, sites, has_flat_address_space, unions)
    if any(u.indirect for u in info.values()):
        _widen_indirect(info, functions)
    diagnostics = list(module.diagnostics)
    kernels = [records.replace(k, calls=_summary(k, sites[k.name], info[k.name], functions, diagnostics,
                                                     unions))
               for k in module.kernels]
    order = [name for name in info]  # post-order: callees before callers
    linked = link_liveness(kernels, order, calling_convention(unified_vgpr_file, scratch_descriptor,
                                                                       llvm_major), solved, unions)
    return records.replace(module, kernels=tuple(linked), diagnostics=tuple(diagnostics))


def _call_sites(module: Module) -> dict[str, list[tuple[int, str | None]]]:
    """Per function, its calls and tail calls: (instruction index, callee name or None when unknown)."""
    by_address = {k.instructions[0].address: k.name for k in module.kernels
                  if k.instructions and k.instructions[0].address is not None}
    sites: dict[str, list[tuple[int, str | None]]] = {}
    for k in module.kernels:
        found: list[tuple[int, str | None]] = []
        writers = _Writers(k.instructions)
        # the address pair per operands tuple (the lines of one text share it; kept alive by the kernel): the
        # 19,584 calls of benchmarks/calls_kernel.py have a few texts
        pairs: dict[tuple[int, BranchKind], int | None] = {}
        for ins in compress(k.instructions, map(_TRANSFERS.__contains__, map(_BRANCH, k.instructions))):
            key = (id(ins.operands), ins.branch)
            pair = pairs[key] if key in pairs else pairs.setdefault(key, _address_register(ins))
            if ins.branch is BranchKind.CALL:
                found.append((ins.index, _resolve(k, ins, pair, by_address, writers)))
            elif pair not in (None, 30):
                callee = _resolve(k, ins, pair, by_address, writers)
                if callee is not None:
                    found.append((ins.index, callee))  # a tail call
        sites[k.name] = found
    return sites


def _usages(functions: dict[str, Kernel], sites: dict[str, list[tuple[int, str | None]]],
            has_flat_address_space: bool, unions: _Unions) -> dict[str, _Usage]:
    """Each function's registers with its callees', in post-order of the call graph (callees first)."""
    info: dict[str, _Usage] = {}
    visiting: set[str] = set()
    # each function's known callees, listed once: made at every step of the walk, the list cost (calls^2)
    # (2,759 calls of one function: 3.2 s, benchmarks/calls_kernel.py)
    known = {name: [c for _i, c in found if c is not None and c in functions] for name, found in sites.items()}
    # post-order DFS from every function in listing order (LLVM walks its call graph the same way)
    for root in functions:
        if root in info or root in visiting:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        visiting.add(root)
        while stack:
            name, pos = stack[-1]
            callees = known[name]
            if pos < len(callees):
                stack[-1] = (name, pos + 1)
                c = callees[pos]
                if c not in info and c not in visiting:
                    visiting.add(c)
                    stack.append((c, 0))
            else:
                stack.pop()
                info[name] = _with_callees(functions[name], sites[name], info, functions, has_flat_address_space,
                                           unions)
    return info


def _with_callees(kernel: Kernel, sites: list[tuple[int, str | None]], info: dict[str, _Usage],
                  functions: dict[str, Kernel], has_flat_address_space: bool, unions: _Unions) -> _Usage:
    """``kernel``'s registers with those of the callees already visited (``info``); any other call is
    indirect."""
    usage = _own(kernel, unions)
    for _index, callee in sites:
        if callee == kernel.name:
            continue  # LLVM finds its own (empty) entry for a call to itself
        known = info.get(callee) if callee is not None and callee in functions else None
        if known is None:
            usage.indirect = True
            usage.unresolved |= callee is None or callee not in functions
            usage.uses_vcc = True
            usage.uses_flat |= has_flat_address_space
            continue
        for f in _FILES:
            if known.counts[f] > usage.counts[f]:
                usage.counts[f] = known.counts[f]
                usage.origin[f] = known.origin[f]
        usage.uses_vcc |= known.uses_vcc
        usage.uses_flat |= known.uses_flat
        usage.indirect |= known.indirect
        usage.unresolved |= known.unresolved
    return usage


def _widen_indirect(info: dict[str, _Usage], functions: dict[str, Kernel]) -> None:
    """Give every function with an indirect call at least the largest figure of any non-kernel function
    (an unknown callee may be any of them)."""
    widest = dict.fromkeys(_FILES, 0)
    widest_origin = dict.fromkeys(_FILES, "")
    before = {n: dict(u.counts) for n, u in info.items()}
    for name, counts in before.items():
        if functions[name].is_kernel:
            continue
        for f in _FILES:
            if counts[f] > widest[f]:
                widest[f], widest_origin[f] = counts[f], name
    for usage in info.values():
        if usage.indirect:
            for f in _FILES:
                if widest[f] > usage.counts[f]:
                    usage.counts[f], usage.origin[f] = widest[f], widest_origin[f]


def _summary(k: Kernel, sites: list[tuple[int, str | None]], usage: _Usage, functions: dict[str, Kernel],
             diagnostics: list[Diagnostic], unions: _Unions) -> CallSummary:
    """``k``'s call summary; a note naming the callees that set its figures and a warning per unknown call
    are appended to ``diagnostics``."""
    own = _own(k, unions)
    summary = CallSummary(
        sites=tuple(sites),
        vgprs=usage.counts["v"], agprs=usage.counts["a"], sgprs=usage.counts["s"],
        uses_vcc=usage.uses_vcc, uses_flat_scratch=usage.uses_flat,
        limiters=tuple((f, usage.origin[f]) for f in _FILES
                       if usage.counts[f] > own.counts[f] and usage.origin[f] != k.name),
        lower_bound=usage.unresolved,
    )
    if summary.limiters:
        names = {"v": "VGPRs", "a": "AGPRs", "s": "SGPRs"}
        said = ", ".join(f"{names[f]} by {origin}" for f, origin in summary.limiters)
        diagnostics.append(Diagnostic(
            Severity.NOTE, "callee-registers",
            f"requested registers of {k.name} include its callees' ({said} sets the figure)", k.file,
            k.instructions[0].line if k.instructions else None))
    # one message text per callee, shared by its calls' warnings (a text per call was 3.4 MB for 16,830 unknown
    # calls, what benchmarks/calls_kernel.py's 100k kernel had while call targets were looked for 256 lines back)
    messages: dict[str | None, str] = {}
    for index, callee in sites:
        if callee is None or callee not in functions:
            message = messages.get(callee)
            if message is None:
                what = f"'{callee}' is not defined in this file" if callee else "its target cannot be resolved"
                message = messages[callee] = (
                    f"call in {k.name}: {what}; register figures assume LLVM's rule for unknown callees (the "
                    "largest non-kernel function here) and are a lower bound")
            diagnostics.append(Diagnostic(Severity.WARNING, "unknown-call", message, k.file,
                                          k.instructions[index].line))
    return summary


def _is_return(ins: Instruction, cc: CallingConvention) -> bool:
    return ins.branch is BranchKind.RETURN and any(
        isinstance(op, RegOperand) and op.mask == cc.return_address for op in ins.operands)


#: where ``defs`` and ``uses`` sit in an :class:`Instruction` (next to each other)
_DEFS_AT = Instruction._fields.index("defs")
_USES_AT = Instruction._fields.index("uses")
assert _USES_AT == _DEFS_AT + 1


def _with_effects(kernel: Kernel, site_uses: dict[int, int], site_defs: dict[int, int], cc: CallingConvention,
                  exit_live: int, unknown_callers: bool = False) -> Kernel:
    instructions = list(kernel.instructions)
    new = tuple.__new__
    # equal unit sets kept once: the calls of one text get equal effects (a new int per call was ~6 MB of the
    # 19,584 calls of benchmarks/calls_kernel.py's 100k kernel, held as long as the kernel)
    same: dict[int, int] = {}
    for index, uses in site_uses.items():
        ins = instructions[index]
        defs = ins.defs | site_defs[index]
        uses = ins.uses | uses
        # ``ins._replace(defs=..., uses=...)`` built as one tuple: _replace's keyword pass cost ~4 us per call
        instructions[index] = new(type(ins), (*ins[:_DEFS_AT], same.setdefault(defs, defs),
                                              same.setdefault(uses, uses), *ins[_USES_AT + 1:]))
    if not kernel.is_kernel:
        for i, ins in enumerate(instructions):
            if _is_return(ins, cc):
                # LLVM's return reads the results (``implicit killed $vgpr0``) and the return address as
                # undefined: the address is not live for the return
                # a function no code here calls directly returns to callers we cannot see: it returns the
                # result registers it sets up for them (as an unknown callee receives its arguments)
                results = _returned(kernel, i, cc) if unknown_callers else 0
                instructions[i] = ins._replace(uses=(ins.uses & ~cc.return_address) | exit_live | results)
    reserved = cc.function_reserved if not kernel.is_kernel else (cc.caller_reserved if site_uses else 0)
    return records.replace(kernel, instructions=tuple(instructions), reserved=reserved)


def _returned(kernel: Kernel, index: int, cc: CallingConvention) -> int:
    """The results a return at ``index`` hands to callers we cannot see: of the result registers set up for
    it (:func:`_set_up_before`), LLVM returns a value in v0, v1, ... in order, so where the return's block
    writes results (a copy into v0 before ``s_setpc_b64``) none above the highest of them, else the run from
    v0 up. A pointer incremented in a loop and not read after it looks set up too (llc-19, a function
    summing ``a[k] * a[k]``: ``v_addc_co_u32 v1, vcc, 0, v1, vcc`` in the loop, ``v_mov_b32 v0, v3`` before
    the return, which reads v0 alone). Such a pointer, the address a loop reads memory at and advances
    (:func:`_advanced_pointers`), is not a result (Rodinia particle_double.cl cdfCalc, void: v[0:1] and
    v[2:3] advanced in its loop; calcLikelihoodSum, double: LLVM 19's return reads v[0:1], not the pointer
    in v[2:3])."""
    graph = cfg(kernel)
    found = _set_up_before(kernel, index, cc.results, graph) & ~_advanced_pointers(kernel, graph)
    if not found:
        return 0
    block = graph.blocks[graph.block_of[index]]
    written = 0
    for i in range(block.start, index):
        written |= kernel.instructions[i].defs
    regs = registers_in(found, RegFile.VGPR)
    if written & found:
        top = max(registers_in(written & found, RegFile.VGPR))
        keep = [r for r in regs if r <= top]
    else:
        keep = [r for k, r in enumerate(regs) if r == k]
    mask = 0
    for r in keep:
        mask |= Reg(RegFile.VGPR, r).mask()
    return found & mask


#: memory instructions whose address is a 64-bit VGPR pair (without an SGPR base)
_POINTER_ACCESSES = ("global_", "flat_")
#: how a loop advances a pointer: integer adds (``v_add_co_u32`` + ``v_addc_co_u32``, gfx10+
#: ``v_add_co_ci_u32``, gfx940 ``v_lshl_add_u64``) and subtracts
_ADVANCES = ("v_add_", "v_add3_", "v_addc_", "v_sub_", "v_subb_", "v_subrev_", "v_lshl_add_u64")


def _advanced_pointers(kernel: Kernel, graph: CFG) -> int:
    """VGPR units of the 64-bit addresses that a loop reads memory at (``global_``/``flat_``) and advances by
    integer adds only, and that no block the loop leads to writes again: the loop's walking pointers, spent
    when it ends. A function returning such a pointer advanced (a ``char *skip(char *p)``) would be missed, a
    shape OpenCL code rarely has."""
    instructions = kernel.instructions
    mask = 0
    for loop in graph.loops:
        addresses = advanced = other = 0
        for b in loop.blocks:
            block = graph.blocks[b]
            for i in range(block.start, block.end):
                ins = instructions[i]
                if ins.mnemonic.startswith(_ADVANCES):
                    advanced |= ins.defs
                else:
                    other |= ins.defs
                if ins.mnemonic.startswith(_POINTER_ACCESSES):
                    addresses |= _address_pair(ins)
        walked = addresses & advanced & ~other
        if walked:
            # a write after the loop (``v_mov_b32 v0, v3`` putting the result where the pointer was) is the
            # value the return sees
            mask |= walked & ~_written_after(kernel, graph, loop.blocks)
    return mask


def _written_after(kernel: Kernel, graph: CFG, body: frozenset[int]) -> int:
    """The units written in the blocks outside ``body`` that control can reach from it."""
    seen: set[int] = set()
    work = [s for b in body for s in graph.blocks[b].succs if s not in body]
    written = 0
    while work:
        b = work.pop()
        if b in seen or b in body:
            continue
        seen.add(b)
        block = graph.blocks[b]
        for i in range(block.start, block.end):
            written |= kernel.instructions[i].defs
        work.extend(block.succs)
    return written


def _address_pair(ins: Instruction) -> int:
    """The units of a ``global_``/``flat_`` instruction's address when it is a VGPR pair, else 0: the first
    operand, or the second where the first is the loaded or returned value."""
    regs = [op for op in ins.operands if isinstance(op, RegOperand)]
    if regs and regs[0].mask & ins.defs:
        regs = regs[1:]
    if not regs or len(regs[0].regs) != 1:
        return 0
    reg = regs[0].regs[0]
    return regs[0].mask if reg.file is RegFile.VGPR and reg.count == 2 else 0


def link_liveness(kernels: list[Kernel], order: list[str], cc: CallingConvention,
                  solved: Solved | None = None, unions: _Unions | None = None) -> list[Kernel]:
    """Give calls and returns their register effects, so liveness crosses calls as LLVM's does.

    A call to a function of the module reads what the callee has live at its entry plus the scratch
    descriptor s[0:3], and writes what the callee (and everything it calls) may write outside its
    callee-saved registers: the callee's results and clobbers. A call to an unknown function reads the
    argument registers set up for it in its block (:func:`_set_up_before`) and the kernel inputs that
    already sit where a callee expects them (:func:`_inputs_in_place`), and clobbers every register that
    is not callee-saved. A function's results, live when it returns, are the result registers its callers
    read after calling it; a function no code here calls directly (called through a pointer, or from
    another file) returns the result registers it sets up before returning. Two rounds settle results
    and entry live-ins (results rarely change live-ins).

    ``solved`` (when given) receives, per function returned, the CFG and liveness solved here for that very
    function object, when they were: the same solution the analysis passes would compute again (one liveness
    solution of the 100k lines of ``benchmarks/calls_kernel.py``, about a fifth of its ``livereg``).
    """
    unions = unions if unions is not None else _Unions()
    by_name = {k.name: k for k in kernels}
    writes: dict[str, int] = {}
    for k in kernels:
        w = unions.defs(k)
        writes[k.name] = w & ~cc.callee_saved if not k.is_kernel else w
    # what a call may write: the callee's writes and its callees' (fixpoint over recursive cycles)
    changed = True
    while changed:
        changed = False
        for k in kernels:
            assert k.calls is not None
            w = writes[k.name]
            for _i, callee in k.calls.sites:
                if callee in by_name:
                    w |= writes[callee] & ~(cc.callee_saved if not k.is_kernel else 0)
            if w != writes[k.name]:
                writes[k.name] = w
                changed = True
    called = {callee for k in kernels if k.calls is not None for _i, callee in k.calls.sites if callee in by_name}
    entry: dict[str, int] = {}
    results: dict[str, int] = {}
    current = dict(by_name)
    # per function, its calls to functions defined here and its unknown calls' effects (they depend on the
    # function alone: made in the first round), and the inputs its last round was linked with: a second round
    # with the same inputs would link the same function and solve the same liveness (a kernel whose calls are
    # all unknown: 0.45 s of 2.9 s of the 100k kernel of benchmarks/calls_kernel.py). Listed once, not looked
    # at per call in every round: 19,584 calls there, each read four times per round before.
    known_calls: dict[str, list[tuple[int, str]]] = {}
    unknown: dict[str, tuple[dict[int, int], dict[int, int]]] = {}
    linked_with: dict[str, tuple[dict[int, int], dict[int, int], int]] = {}
    for _round in range(2):
        for name in order + [k.name for k in kernels if k.name not in order]:
            k = by_name[name]
            assert k.calls is not None
            if name not in unknown:
                # a tail call (a RETURN through a register) has no effects here: the callee's are the rest
                # of this function
                calls = [(index, callee) for index, callee in k.calls.sites
                         if k.instructions[index].branch is BranchKind.CALL]
                known_calls[name] = [(index, callee) for index, callee in calls
                                     if callee is not None and callee in by_name]
                unknown[name] = _unknown_effects(k, [index for index, callee in calls if callee not in by_name],
                                                 cc, unions)
            unknown_uses, unknown_defs = unknown[name]
            uses = dict(unknown_uses)
            defs = dict(unknown_defs)
            for index, callee in known_calls[name]:
                # the callee reads the return address the call itself writes, and its prologue saves
                # the callee-saved registers it uses: a save is not a read of the caller's value (LLVM's
                # call reads only the arguments, ``implicit $vgpr0``...)
                uses[index] = (entry.get(callee, 0) & ~cc.return_address & ~cc.callee_saved) \
                    | cc.scratch_descriptor
                defs[index] = writes[callee]
            exit_live = results.get(name, 0) if not k.is_kernel else 0
            if linked_with.get(name) == (uses, defs, exit_live):
                continue  # linked with these inputs already: the same function, liveness, entry and results
            linked_with[name] = (uses, defs, exit_live)
            linked = _with_effects(k, uses, defs, cc, exit_live, unknown_callers=name not in called)
            current[name] = linked
            # the solution below gives this function's entry live-ins (read only by its callers) and its callees'
            # results (only of callees defined here): without either, nothing reads it (a kernel whose calls are
            # all unknown: one liveness solution of its 100k lines, 0.21 of 1.28 s CPU in benchmarks/calls_kernel.py)
            if (not k.calls.sites and k.is_kernel) or (name not in called and not known_calls[name]):
                continue
            graph = cfg(linked)
            live = liveness(linked, graph)
            if solved is not None:
                solved[name] = (linked, graph, live)
            entry[name] = live.entry & ~linked.reserved
            live_out = live.live_out
            for index, callee in known_calls[name]:
                results[callee] = results.get(callee, 0) | (live_out[index] & writes[callee] & cc.results)
    if solved is not None:  # a function linked again after its solution is not the one solved
        for name in [n for n, (k, _g, _l) in solved.items() if current.get(n) is not k]:
            del solved[name]
    return [current[k.name] for k in kernels]


def _unknown_effects(kernel: Kernel, indices: list[int], cc: CallingConvention,
                     unions: _Unions) -> tuple[dict[int, int], dict[int, int]]:
    """What each call to an unknown function at ``indices`` reads (the arguments set up for it, the inputs
    already in place, the scratch descriptor) and writes (every register it may clobber), per index."""
    if not indices:
        return {}, {}
    # once per function, not per call site: per site, both made linking quadratic in the length of a
    # function with many unknown calls (1,980 calls in 5,917 lines took 35 s, benchmarks/calls_kernel.py)
    graph = cfg(kernel)
    passed = _inputs_in_place(kernel, cc, unions.defs(kernel)) | cc.scratch_descriptor
    uses = {index: _set_up_before(kernel, index, cc.arguments, graph) | passed for index in indices}
    return uses, dict.fromkeys(indices, ~cc.callee_saved & (cc.arguments | cc.results | unions.referenced(kernel)))


#: register-to-register moves: how LLVM puts a value into an argument register (a COPY before the call)
_COPIES = frozenset({"s_mov_b32", "s_mov_b64", "v_mov_b32", "v_mov_b32_e32", "v_mov_b32_e64"})


def _set_up_before(kernel: Kernel, index: int, registers: int, graph: CFG | None = None) -> int:
    """Of ``registers`` (the convention's arguments or results), those the code sets up for an unknown
    callee (or caller) at ``index``: whose last write before it, on some path (in its block or an earlier
    one, :func:`_set_up_in_earlier_blocks`), is a register copy in its block, or is not read before it. Any other value
    written there and read before the call is the caller's temporary:
    llc-19 passes neither ``s11`` in ``s_load_dword s11 ... / s_cmp_eq_u32 s11, 0`` nor ``v2`` in
    ``v_addc_co_u32 v2 ... / global_load_dword v1, v[1:2]`` (its SI_CALL reads them ``undef`` or not at
    all), but it does pass ``s12`` in ``s_mov_b32 s12, s4 / s_mul_i32 s4, s4, s12`` (the workgroup id
    copied into place, then read)."""
    graph = graph if graph is not None else cfg(kernel)  # ``graph``: the caller's, of this same kernel
    block = graph.block_of[index]
    found = written = read_after = 0
    instructions = kernel.instructions
    none = BranchKind.NONE
    for i in range(index - 1, graph.blocks[block].start - 1, -1):
        ins = instructions[i]
        if ins.branch is not none:
            return found  # an earlier call: what it leaves in the registers is its own business
        # :func:`_last_write_sets_up` written out: this loop runs over every line before each unknown call (16,830
        # in benchmarks/calls_kernel.py while call targets were looked for 256 lines back), and most lines write
        # no argument register
        if ins.defs & registers & ~written:
            found |= _last_write_sets_up(ins, registers & ~written, read_after)
        written |= ins.defs
        read_after |= ins.uses
    rest = registers & ~written
    if rest:
        found |= _set_up_in_earlier_blocks(kernel, graph, block, rest, read_after)
    return found


def _last_write_sets_up(ins: Instruction, registers: int, read_after: int, copies: bool = True) -> int:
    """Of ``registers`` whose last write before a call is ``ins``, those it sets up for the call: a copy (in
    the call's block, ``copies``), or a value nothing read since (``read_after``)."""
    last_write = ins.defs & registers
    copy = copies and ins.mnemonic.lower() in _COPIES and bool(ins.operands) \
        and isinstance(ins.operands[-1], RegOperand)
    return last_write if copy else last_write & ~read_after


def _set_up_in_earlier_blocks(kernel: Kernel, graph: CFG, first: int, registers: int, read_after: int) -> int:
    """Argument registers not written in the call's block (``first``) but set
    up in an earlier one: a value that reaches the call along some path from its last write there
    with no read in between (``read_after``: what the call's block reads before the call). LLVM's register
    allocator often puts a value computed in a branch straight into the argument register, with no copy
    left next to the call."""
    found = 0
    # (block, registers still looked for, registers read on the way): each block is entered once per state.
    # Only blocks listed earlier: a value written after the call and carried around a loop back to it is the
    # previous iteration's (a result kept for later), not an argument set up for it.
    stack: list[tuple[int, int, int]] = [(p, registers, read_after) for p in graph.blocks[first].preds
                                         if p < first]
    seen: set[tuple[int, int, int]] = set()
    budget = 8 * len(graph.blocks)  # states grow only by reads; a bound keeps huge loop nests linear
    while stack and budget:
        budget -= 1
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        block, looking, reads = state
        block_info = graph.blocks[block]
        for i in range(block_info.end - 1, block_info.start - 1, -1):
            ins = kernel.instructions[i]
            if ins.branch is BranchKind.CALL:
                looking = 0  # an earlier call, as in the call's own block: the path ends there
                break
            # a copy in an earlier block that something read since is a temporary (``v_mov_b32 v4, s13``
            # feeding an address), not an argument: only unread values count there
            found |= _last_write_sets_up(ins, looking, reads, copies=False)
            looking &= ~ins.defs
            reads |= ins.uses
            if not looking:
                break
        if looking:
            stack.extend((p, looking, reads) for p in block_info.preds if p < block)
    return found


def _inputs_in_place(kernel: Kernel, cc: CallingConvention, written: int) -> int:
    """Inputs that already sit where a callee expects them and that the code never overwrites: a call passes
    them untouched. In a kernel, hardware-loaded inputs (llc-19: ``implicit killed $sgpr4_sgpr5``, the
    dispatch ptr a kernel with a private segment buffer receives in s[4:5]); in a function, the workitem ids
    it received in v31 (``implicit $vgpr31``). ``written``: the units the kernel's lines write."""
    if not kernel.is_kernel:
        return cc.function_passes & ~written
    mask = 0
    for name, first, count in kernel.user_sgprs:
        units = Reg(RegFile.SGPR, first, count).mask()
        if cc.special_inputs.get(name) == units and not units & written:
            mask |= units
    return mask
