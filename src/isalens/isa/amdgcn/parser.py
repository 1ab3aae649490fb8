"""Turn AMDGPU ISA text into an :class:`isalens.ir.program.Module`.

Reading is two-staged: a dialect reader (:mod:`.dialects`) finds kernels, labels, instruction texts
and declarations (:mod:`.drafts`); then each instruction is parsed and checked against the target
(:mod:`.instructions`), what the kernel declares is collected (:mod:`.declarations`), and this module
resolves branch targets, places ``implicit-def`` markers and builds the kernels of the module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from isalens.errors import ParseError
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.program import Kernel, KernelFacts, Module, TargetInfo
from isalens.ir.registers import Reg, RegFile
from isalens.isa.amdgcn.declarations import declared_resources, entry_live_in, user_sgprs, wave_size_of
from isalens.isa.amdgcn.dialects import read, sniff
from isalens.isa.amdgcn.drafts import Draft, ReadResult
from isalens.isa.amdgcn.indexing import Limits, apply_indexing
from isalens.isa.amdgcn.instructions import ReadContext, build_instructions, check_kernel_ranges
from isalens.isa.amdgcn.syntax import parse_mir_register
from isalens.progress import step

__all__ = ["MAX_INSTRUCTIONS", "detect_target", "parse_drafts", "parse_module", "sniff"]

#: the most instructions one input may hold (1.2-1.9 GB of analysis per million instructions of 256-VGPR
#: code: docs/performance.md, docs/robustness.md)
MAX_INSTRUCTIONS = 2_000_000


def detect_target(text: str, dialect: str) -> str | None:
    """The target named in the input itself (``.amdgcn_target``; a RADV dump's family), if any."""
    if dialect == "radv":
        from isalens.isa.amdgcn.radv_dump import declared_family  # on use, as the RADV reader (dialects.read)

        named = declared_family(text)
        return named[0] if named else None
    if dialect != "llvm":
        return None
    m = re.search(r"""\.amdgcn_target\s+"([^"]+)\"""", text[:100_000])
    return m.group(1) if m else None


def _implicit_def_mask(spellings: str, ctx: ReadContext, line: int) -> int:
    mask = 0
    for name in re.split(r"[\s,]+", spellings.split(" : ")[0].strip()):
        if not name:
            continue
        regs = parse_mir_register(name)
        if regs is None:
            ctx.diagnostics.append(Diagnostic(Severity.NOTE, "implicit-def",
                                              f"ignored implicit-def of {name}", ctx.file, line))
            continue
        for reg in regs:
            mask |= reg.mask()
    return mask


_PROGRESS_EVERY = 1 << 16


def _build_kernel(draft: Draft, target: TargetInfo, file: str, ignore_unknown: bool, packed_tid: bool,
                  diagnostics: list[Diagnostic]) -> Kernel:
    wave = wave_size_of(draft, target)
    if draft.metadata.get("wave_size_source") == "default" and target.generation >= 10 \
            and not target.wave_size_forced:
        diagnostics.append(Diagnostic(Severity.NOTE, "wave-size", f"{draft.name}: the code does not show the wave "
                                      f"size; RADV's default wave{wave} assumed (--wave overrides)", file,
                                      draft.start_line))
    ctx = ReadContext(file, target, wave, ignore_unknown, diagnostics)
    items = draft.items
    instructions: list[Instruction] = []
    for first in range(0, len(items), _PROGRESS_EVERY):  # a million instructions take seconds: say how far
        if first:
            step(f"reading {draft.name}: {first:,} of {len(items):,} instructions")
        instructions.extend(build_instructions(items[first:first + _PROGRESS_EVERY], first, draft, ctx))
    check_kernel_ranges(instructions, ctx)
    # indexed operands (s_set_gpr_idx_on, *_movrel*) read/write the whole range they can reach
    limits = Limits(target.addressable_vgprs, target.addressable_sgprs)
    for index, note in apply_indexing(instructions, target.generation, limits, set(draft.labels.values())):
        diagnostics.append(Diagnostic(Severity.NOTE, "indexed", note, file, instructions[index].line))

    # objdump/listing branch targets are addresses: give the target instruction a label
    labels = dict(draft.labels)
    by_address = {ins.address: ins.index for ins in instructions if ins.address is not None}
    for ins in instructions:
        if ins.target and ins.target.startswith("@"):
            address = int(ins.target[1:], 16)
            if address not in by_address:
                raise ParseError(f"branch target address {address:#x} is not an instruction",
                                 file=file, line=ins.line, code="branch-target")
            labels.setdefault(ins.target, by_address[address])
        elif ins.target and ins.target not in labels:
            raise ParseError(f"branch to undefined label '{ins.target}'", file=file, line=ins.line,
                             code="branch-target")

    # LLVM reserves the VGPRs that hold spilled SGPRs for the whole kernel (whole-wave registers): they
    # stay live to the end, as its own liveness says
    spill_lanes = 0
    for _index, spellings, line, _after in draft.implicit_defs:
        if "SGPR spill to VGPR lane" in spellings:
            spill_lanes |= _implicit_def_mask(spellings, ctx, line)

    block_start_indices = set(labels.values()) | set(draft.blocks.values())
    for ins in instructions:
        if ins.branch is not BranchKind.NONE:
            block_start_indices.add(ins.index + 1)
    for index, spellings, line, after_label in draft.implicit_defs:
        mask = _implicit_def_mask(spellings, ctx, line)
        if not mask:
            continue
        # a marker after a label opens its block; one before a later label closes the previous block
        if index < len(instructions) and (after_label or index == 0 or index not in block_start_indices):
            ins = instructions[index]
            instructions[index] = ins._replace(undef_before=ins.undef_before | mask)
        elif index > 0:
            ins = instructions[index - 1]
            instructions[index - 1] = ins._replace(undef_after=ins.undef_after | mask)

    edge_undefs = _empty_block_undefs(draft, instructions, labels, ctx)

    if draft.metadata.get("aco"):
        _drop_aco_undef_exports(instructions, ctx)

    if not draft.ended:
        raise ParseError(f"kernel '{draft.name}' is not terminated (no .Lfunc_end label)", file=file,
                         line=draft.items[-1].line if draft.items else draft.start_line, code="unterminated")
    return Kernel(
        name=draft.name, arch=target.name, wave_size=wave, instructions=tuple(instructions), labels=labels,
        declared=declared_resources(draft, wave, file), is_kernel=draft.is_kernel,
        entry_live_in=entry_live_in(draft, target, packed_tid, file), user_sgprs=user_sgprs(draft), file=file,
        block_starts=dict(draft.blocks), guessed=ctx.guessed, live_at_exit=spill_lanes,
        edge_undefs=edge_undefs,
    )


def _empty_block_undefs(draft: Draft, instructions: list[Instruction], labels: dict[str, int],
                        ctx: ReadContext) -> tuple[tuple[int, int, int], ...]:
    """End the registers of ``; implicit-def:`` markers in blocks with no instruction on the edges into them.

    llc-19 prints such a block as a label, the marker and the next block's label (Rodinia pathfinder: a loop
    run no time reaches ``.LBB0_22: ; implicit-def: $sgpr4_sgpr5`` / ``.LBB0_23: s_and_saveexec_b64 s[0:1],
    s[4:5]``): the register is undefined on the way through it only, not on the other paths into the next
    block. A jump to its label ends them right after itself (in place, ``undef_after``); a conditional branch
    into it (taken or falling through) has another way out, where they may still be live: returned as
    (branch, its other successor, units) for the liveness to end where that other way does not need them."""
    n = len(instructions)
    edges: list[tuple[int, int, int]] = []
    for at, spellings, line, opening in draft.empty_block_defs:
        mask = _implicit_def_mask(spellings, ctx, line)
        if not mask or at >= n:
            continue
        entries: list[tuple[int, int]] = []  # (instruction entering the block, its other successor or -1)
        names = set(opening)
        for ins in instructions:
            if ins.target in names and ins.branch in (BranchKind.JUMP, BranchKind.COND):
                other = ins.index + 1 if ins.branch is BranchKind.COND and ins.index + 1 < n else -1
                entries.append((ins.index, -1 if other == at else other))
        before = instructions[at - 1] if at > 0 else None
        # an instruction that is not a branch keeps them (the marker is dropped for its way): its LLVM block
        # may have a second successor the listing no longer shows, an ``s_cbranch_execz`` a late pass removed
        # (examples/kernels/control/switch.cl interpret on gfx90a: ``s_xor_b64 s[10:11], exec, s[10:11]`` /
        # ``; %bb.8: ; implicit-def: $vgpr5``; LLVM keeps v5 live out of that block for the lanes it skips)
        if before is not None and before.branch is BranchKind.COND and before.target not in names \
                and before.target is not None:
            target = labels[before.target]
            entries.append((before.index, target if target < n else -1))
        for i, other in entries:
            if other == -1:
                ins = instructions[i]
                instructions[i] = ins._replace(undef_after=ins.undef_after | mask)
            else:
                edges.append((i, other, mask))
    return tuple(edges)


#: ACO's undefined operand is its physical register 128 (``Operand(RegClass)`` in aco_ir.h: an inline
#: constant 0 in ACO's numbering, where VGPRs start at 256); in an export's 8-bit VGPR field it reads v128
#: (``exp pos0 v128, v128, v128, v128 done``): no value, nothing to allocate.
_ACO_UNDEF_VGPR = Reg(RegFile.VGPR, 128, 1).mask()


def _drop_aco_undef_exports(instructions: list[Instruction], ctx: ReadContext) -> None:
    """Exports of ACO's undefined operand (v128 never written in the kernel) read nothing."""
    if not any(ins.uses & _ACO_UNDEF_VGPR for ins in instructions):
        return
    if any(ins.defs & _ACO_UNDEF_VGPR for ins in instructions):
        return  # a real v128
    for k, ins in enumerate(instructions):
        if ins.mnemonic.startswith("exp") and ins.uses & _ACO_UNDEF_VGPR:
            instructions[k] = ins._replace(uses=ins.uses & ~_ACO_UNDEF_VGPR,
                                           referenced=ins.referenced & ~_ACO_UNDEF_VGPR)
            ctx.diagnostics.append(Diagnostic(Severity.NOTE, "undefined-export", "v128 in this export is ACO's "
                                              "undefined operand (never written): not counted", ctx.file, ins.line))


def parse_module(text: str, *, file: str, target: TargetInfo, dialect: str | None = None,
                 ignore_unknown: bool = False, packed_workitem_ids: bool = False,
                 facts: Mapping[str, KernelFacts] | None = None) -> Module:
    """Parse ``text`` (any supported dialect) for ``target``.

    ``facts`` (from a binary: its kernel descriptors and metadata note, by symbol) stand in for the
    ``.amdhsa_*`` directives and ``.amdgpu_metadata`` that disassembly lacks; functions without facts are
    not kernels.
    """
    dialect = dialect or sniff(text)
    return parse_drafts(read(text, file, dialect), file=file, target=target, dialect=dialect,
                        ignore_unknown=ignore_unknown, packed_workitem_ids=packed_workitem_ids, facts=facts)


def parse_drafts(result: ReadResult, *, file: str, target: TargetInfo, dialect: str, ignore_unknown: bool = False,
                 packed_workitem_ids: bool = False, facts: Mapping[str, KernelFacts] | None = None) -> Module:
    """:func:`parse_module` from what a dialect reader made of the text (or what our decoder made without
    writing it: ``decoder.listing.objdump_drafts``)."""
    total = 0
    for draft in result.drafts:
        total += len(draft.items)
        if total > MAX_INSTRUCTIONS:
            # memory grows with instructions x registers: a documented cap, not an exhausted machine
            # (docs/robustness.md)
            raise ParseError(f"more than {MAX_INSTRUCTIONS:,} instructions: isalens reads at most that many per "
                             "input; split the file by kernel", file=file,
                             line=draft.items[MAX_INSTRUCTIONS - total + len(draft.items)].line, code="too-large")
    if facts is not None:
        for draft in result.drafts:
            known = facts.get(draft.name)
            draft.is_kernel = known is not None
            if known is not None:
                draft.descriptor.update(known.descriptor)
                draft.metadata.update(known.metadata)
    diagnostics: list[Diagnostic] = [Diagnostic(Severity.NOTE, "skipped", note, file, line)
                                     for line, note in result.notes]
    kernels = [
        _build_kernel(d, target, file, ignore_unknown, packed_workitem_ids, diagnostics)
        for d in result.drafts if d.items
    ]
    if not kernels:
        raise ParseError("no kernel or instruction found", file=file, line=None, code="no-kernel")
    return Module(kernels=tuple(kernels), dialect=dialect, arch=target.name, file=file,
                  diagnostics=tuple(diagnostics))
