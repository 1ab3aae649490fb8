"""Turn AMDGPU ISA text into an :class:`isalens.ir.program.Module`.

Reading is two-staged: a dialect reader (:mod:`.dialects`) finds kernels, labels, instruction texts
and declarations; this module parses operands, checks mnemonics and register ranges against the
target, applies the semantics table, resolves branch targets and collects declared resources.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from isalens.errors import ParseError, UnknownInstructionError
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.instruction import BranchKind, Instruction, InstructionFacts
from isalens.ir.operands import ImmOperand, LabelOperand, Operand, OtherOperand, RegOperand
from isalens.ir.program import DeclaredResources, Kernel, KernelFacts, Module, TargetInfo
from isalens.ir.registers import SPECIAL_NAMES, Reg, RegFile
from isalens.isa.amdgcn import arity, catalog, semantics
from isalens.isa.amdgcn.dialects import Draft, DraftInstruction, check_instruction_text, read, sniff
from isalens.isa.amdgcn.facts import describe, with_encoding
from isalens.isa.amdgcn.indexing import Limits, apply_indexing
from isalens.isa.amdgcn.radv_dump import declared_family
from isalens.isa.amdgcn.syntax import (
    RawInstruction,
    SyntaxProblem,
    parse_instruction_text,
    parse_mir_register,
)
from isalens.progress import step

__all__ = ["MAX_INSTRUCTIONS", "detect_target", "parse_module", "sniff"]

#: the most instructions one input may hold (1.2-1.9 GB of analysis per million instructions of 256-VGPR
#: code: docs/performance.md, docs/robustness.md)
MAX_INSTRUCTIONS = 2_000_000

_WAVE32_HINT = re.compile(r"\b(?:vcc_lo|exec_lo|s_\w+_saveexec_b32|s_\w+_wrexec_b32)\b")
_WAVE64_HINT = re.compile(r"\b(?:s_\w+_saveexec_b64|s_\w+_wrexec_b64)\b|\bexec\b(?!_)")


def detect_target(text: str, dialect: str) -> str | None:
    """The target named in the input itself (``.amdgcn_target``; a RADV dump's family), if any."""
    if dialect == "radv":
        named = declared_family(text)
        return named[0] if named else None
    if dialect != "llvm":
        return None
    m = re.search(r"""\.amdgcn_target\s+"([^"]+)\"""", text[:100_000])
    return m.group(1) if m else None


@dataclasses.dataclass(frozen=True, slots=True)
class _Decoded:
    """What an instruction's text alone determines (cached per distinct text)."""

    mnemonic: str
    operands: tuple[Operand, ...]
    modifiers: tuple[str, ...]
    defs: int
    uses: int
    branch: BranchKind
    branch_raw: RawInstruction | None
    ops: tuple[str, ...]
    guessed: bool
    notes: tuple[str, ...]
    referenced: int
    facts: InstructionFacts
    #: the text itself: every line with this text shares the one string (a 1M-instruction kernel repeats most)
    text: str = ""
    #: ``facts`` with the exact size, per number of encoding words (disassembly gives the words of every line)
    sized: dict[int, InstructionFacts] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(slots=True)
class _Context:
    file: str
    target: TargetInfo
    wave_size: int
    ignore_unknown: bool
    diagnostics: list[Diagnostic]
    guessed: int = 0
    cache: dict[str, _Decoded] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.cache = _shared_cache(self.target, self.wave_size, self.ignore_unknown)


#: decoded instruction texts, shared by every kernel and module of one process for the same target, wave
#: size and unknown-instruction policy: a library's code objects repeat most of their texts (gfx1030 code
#: objects of librocsparse: 94,905 instructions, 8,760 distinct texts per code object, 6,852 over 14 of them)
_DECODED: dict[tuple[TargetInfo, int, bool], dict[str, _Decoded]] = {}
#: a cache that grows past this many texts starts again: memory stays bounded in a long-lived process (a
#: scan worker holds one cache per target; with 400,000 each, workers scanning librocsparse's seven targets
#: grew past 2 GB)
_DECODED_LIMIT = 100_000


def _shared_cache(target: TargetInfo, wave_size: int, ignore_unknown: bool) -> dict[str, _Decoded]:
    key = (target, wave_size, ignore_unknown)
    cache = _DECODED.get(key)
    if cache is None or len(cache) > _DECODED_LIMIT:
        cache = _DECODED[key] = {}
    return cache


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value.split()[0], 0)
    except (ValueError, IndexError):
        return None


def _flag(value: str | None) -> bool | None:
    n = _int(value)
    return None if n is None else bool(n)


def _wave_size(draft: Draft, target: TargetInfo) -> int:
    if target.wave_size_forced:
        return target.wave_size
    declared = _int(draft.metadata.get("wavefront_size"))
    if declared in (32, 64):
        return int(declared)
    if "wavefront_size32" in draft.descriptor:
        return 32 if _flag(draft.descriptor["wavefront_size32"]) else 64
    if target.generation >= 10:
        body = "\n".join(item.text for item in draft.items[:4000])
        if _WAVE32_HINT.search(body):
            return 32
        if _WAVE64_HINT.search(body):
            return 64
    return target.wave_size


def _check_ranges(op: Operand, ctx: _Context, line: int, mnemonic: str) -> None:
    if not isinstance(op, RegOperand):
        return
    t = ctx.target
    for reg in op.regs:
        if reg.file is RegFile.VGPR and reg.last >= t.addressable_vgprs:
            raise ParseError(
                f"register {op.text} is out of range for {t.name} (v0-v{t.addressable_vgprs - 1}) in {mnemonic}",
                file=ctx.file, line=line, code="register-range")
        if reg.file is RegFile.AGPR:
            if t.addressable_agprs == 0:
                raise ParseError(f"{t.name} has no AGPRs, but {mnemonic} uses {op.text}",
                                 file=ctx.file, line=line, code="register-range")
            if reg.last >= t.addressable_agprs:
                raise ParseError(
                    f"register {op.text} is out of range for {t.name} (a0-a{t.addressable_agprs - 1})",
                    file=ctx.file, line=line, code="register-range")
        if reg.file is RegFile.SGPR and reg.last >= t.addressable_sgprs:
            raise ParseError(
                f"register {op.text} is out of range for {t.name} (s0-s{t.addressable_sgprs - 1})",
                file=ctx.file, line=line, code="register-range")


def _parse_one(text: str, ctx: _Context, line: int) -> RawInstruction:
    try:
        return parse_instruction_text(text)
    except SyntaxProblem as exc:
        raise ParseError(str(exc), file=ctx.file, line=line, code="syntax") from None


def _check_kernel_ranges(instructions: list[Instruction], ctx: _Context) -> None:
    """Report the first register beyond the target's files (checked on the union, then located)."""
    t = ctx.target
    allowed = Reg(RegFile.VGPR, 0, t.addressable_vgprs).mask() | Reg(RegFile.SGPR, 0, t.addressable_sgprs).mask()
    if t.addressable_agprs:
        allowed |= Reg(RegFile.AGPR, 0, t.addressable_agprs).mask()
    allowed |= Reg(RegFile.SPECIAL, 0, len(SPECIAL_NAMES)).mask()
    union = 0
    for ins in instructions:
        union |= ins.defs | ins.uses
    if not union & ~allowed:
        return
    for ins in instructions:
        for op in ins.operands:
            _check_ranges(op, ctx, ins.line, ins.mnemonic)


def _unknown(mnemonic: str, ctx: _Context, line: int) -> None:
    elsewhere = [f for f in catalog.families_with(mnemonic) if f not in ctx.target.mnemonic_lists]
    hint = f" (it exists on {', '.join(elsewhere)}: is --arch right?)" if elsewhere else ""
    message = f"unknown instruction '{mnemonic}' for {ctx.target.name}{hint}"
    if not catalog.known_mnemonics(ctx.target.mnemonic_lists):
        message = f"no instruction list for target {ctx.target.name}; cannot check '{mnemonic}'"
    if not ctx.ignore_unknown:
        raise UnknownInstructionError(message + "; use --ignore-unknown to continue",
                                      file=ctx.file, line=line, code="unknown-instruction")
    ctx.diagnostics.append(Diagnostic(Severity.WARNING, "unknown-instruction",
                                      message + "; operands treated positionally (first written, rest read)",
                                      ctx.file, line))
    ctx.guessed += 1


def _branch_target(raw: RawInstruction, kind: BranchKind, item: DraftInstruction, draft: Draft,
                   ctx: _Context) -> str | None:
    if kind not in (BranchKind.JUMP, BranchKind.COND, BranchKind.CALL):
        return None
    candidates: list[Operand] = list(raw.operands)
    for op in reversed(candidates):
        if isinstance(op, OtherOperand | LabelOperand) and re.fullmatch(r"[.A-Za-z_$][\w.$]*", op.text):
            return op.text
        if isinstance(op, ImmOperand) and isinstance(op.value, int):
            if item.address is None:
                raise ParseError(f"numeric branch target {op.text} without instruction addresses",
                                 file=ctx.file, line=item.line, code="branch-target")
            simm = op.value & 0xFFFF
            if simm >= 0x8000:
                simm -= 0x10000
            return f"@{item.address + 4 + 4 * simm:#x}"
    if kind is BranchKind.CALL:
        return None
    raise ParseError(f"{raw.mnemonic} has no branch target", file=ctx.file, line=item.line, code="branch-target")


def _build_instruction(index: int, item: DraftInstruction, draft: Draft, ctx: _Context) -> Instruction:
    decoded = ctx.cache.get(item.text)
    if decoded is None or decoded.guessed:
        decoded = _decode(item, ctx)
        ctx.cache[item.text] = decoded
    target = None
    if decoded.branch_raw is not None:
        target = _branch_target(decoded.branch_raw, decoded.branch, item, draft, ctx)
    for note in decoded.notes:
        ctx.diagnostics.append(Diagnostic(Severity.NOTE, "approximate", note, ctx.file, item.line))
    # positional, in field order: this runs once per instruction
    return Instruction(index, item.line, decoded.text, decoded.mnemonic, decoded.operands, decoded.modifiers,
                       decoded.defs, decoded.uses, decoded.branch, target, item.address, item.encoding, 0, 0,
                       decoded.guessed, decoded.ops, decoded.referenced,
                       _sized(decoded, item.encoding) if item.encoding else decoded.facts)


def _sized(decoded: _Decoded, words: tuple[int, ...]) -> InstructionFacts:
    facts = decoded.sized.get(len(words))
    if facts is None:
        facts = decoded.sized[len(words)] = with_encoding(decoded.facts, words)
    return facts


def _decode(item: DraftInstruction, ctx: _Context) -> _Decoded:
    check_instruction_text(item.text, ctx.file, item.line)
    parts = [p.strip() for p in item.text.split("::")] if "::" in item.text else [item.text]
    defs = uses = 0
    branch = BranchKind.NONE
    branch_raw: RawInstruction | None = None
    operands: list[Operand] = []
    modifiers: list[str] = []
    ops: list[str] = []
    notes: list[str] = []
    guessed = False
    unread = 0
    for part in parts:
        raw = _parse_one(part, ctx, item.line)
        ops.append(raw.mnemonic)
        if not catalog.is_known(raw.mnemonic, ctx.target.mnemonic_lists):
            _unknown(raw.mnemonic, ctx, item.line)
            guessed = True
        effects, eff = semantics.apply(raw.mnemonic, raw.operands, raw.modifiers,
                                       generation=ctx.target.generation, wave_size=ctx.wave_size)
        if guessed and not eff.matched:
            effects = _positional(raw)
        _check_extra_operands(raw, ctx, item.line, guessed)
        required = eff.sources if eff.sources is not None else eff.defs
        if not guessed and len(raw.operands) < required:
            # llvm-mc: "too few operands for instruction"; without them we would silently track nothing
            raise ParseError(f"too few operands for {raw.mnemonic}: it writes or reads {required}, "
                             f"found {len(raw.operands)}", file=ctx.file, line=item.line, code="syntax")
        defs |= effects.defs
        uses |= effects.uses
        unread |= effects.unread
        if effects.branch is not BranchKind.NONE:
            branch = effects.branch
            branch_raw = raw
        notes.extend(f"{raw.mnemonic}: {note}" for note in effects.notes)
        operands.extend(raw.operands)
        modifiers.extend(raw.modifiers)
    referenced = 0
    for op in operands:
        if isinstance(op, RegOperand):
            referenced |= op.mask
    referenced &= ~unread  # printed, not read: nothing to allocate
    facts = describe(ops[0], tuple(operands), tuple(modifiers), item.text, ctx.target.name, ctx.target.generation)
    return _Decoded(ops[0], tuple(operands), tuple(modifiers), defs, uses, branch, branch_raw, tuple(ops),
                    guessed, tuple(notes), referenced, facts, item.text)


def _check_extra_operands(raw: RawInstruction, ctx: _Context, line: int, guessed: bool) -> None:
    """More operands than any form of the instruction takes is an error naming the first extra token, as in
    llvm-mc ("invalid operand for instruction"): read as one more source it would silently change the result."""
    lists = ctx.target.mnemonic_lists
    for op in raw.operands:
        if isinstance(op, OtherOperand) and catalog.is_known(op.text.lower(), lists):
            raise ParseError(f"invalid operand for instruction: '{op.text}' after {raw.mnemonic} is an instruction "
                             "of its own (one instruction per line)", file=ctx.file, line=line, code="syntax")
    most = None if guessed else arity.most_operands(raw.mnemonic, lists)
    if most is not None and len(raw.operands) > most:
        taken = ", ".join(op.text for op in raw.operands[:most]) or "none"
        raise ParseError(f"invalid operand for instruction: '{raw.operands[most].text}' is one operand more than "
                         f"{raw.mnemonic} takes (at most {most}: {taken})", file=ctx.file, line=line, code="syntax")


def _positional(raw: RawInstruction) -> semantics.RegisterEffects:
    out = semantics.RegisterEffects()
    for k, op in enumerate(raw.operands):
        if isinstance(op, RegOperand):
            mask = 0
            for reg in op.regs:
                mask |= reg.mask()
            if k == 0:
                out.defs |= mask
            else:
                out.uses |= mask
    return out


def _implicit_def_mask(spellings: str, ctx: _Context, line: int) -> int:
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


#: COMPUTE_PGM_RSRC2.USER_SGPR is 5 bits: llvm-mc-19 says "too many user SGPRs enabled" from 32 on
_MAX_USER_SGPRS = 31
#: COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT is 2 bits: llvm-mc-19 says "value out of range" from 3 on (0-2 are used)
_MAX_WORKITEM_ID = 2


def _entry_live_in(draft: Draft, target: TargetInfo, packed_tid: bool, file: str) -> int | None:
    """Registers the hardware initialises at kernel entry, from the kernel descriptor."""
    d = draft.descriptor
    if not d:
        return None
    user = _int(d.get("user_sgpr_count")) or 0
    ids = _int(d.get("system_vgpr_workitem_id")) or 0
    # checked before any register set is built: 4294967296 user SGPRs would ask for a 4-billion-unit mask
    if not 0 <= user <= _MAX_USER_SGPRS:
        raise ParseError(f"kernel '{draft.name}': .amdhsa_user_sgpr_count {user}: too many user SGPRs enabled "
                         f"(at most {_MAX_USER_SGPRS}, as llvm-mc)", file=file, line=draft.start_line,
                         code="descriptor")
    if not 0 <= ids <= _MAX_WORKITEM_ID:
        raise ParseError(f"kernel '{draft.name}': .amdhsa_system_vgpr_workitem_id {ids}: value out of range (0-2)",
                         file=file, line=draft.start_line, code="descriptor")
    system = sum(1 for key in ("system_sgpr_workgroup_id_x", "system_sgpr_workgroup_id_y",
                               "system_sgpr_workgroup_id_z", "system_sgpr_workgroup_info",
                               "system_sgpr_private_segment_wavefront_offset") if _flag(d.get(key)))
    mask = Reg(RegFile.SGPR, 0, user + system).mask() if user + system else 0
    mask |= Reg(RegFile.VGPR, 0, 1 if packed_tid else ids + 1).mask()
    return mask


#: the user SGPRs a kernel descriptor can enable, in load order, with their sizes (LLVM AMDGPUUsage,
#: "Initial Kernel Execution State": private segment buffer, dispatch ptr, queue ptr, kernarg segment ptr,
#: dispatch id, flat scratch init, private segment size)
_USER_SGPR_ORDER = (("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2),
                    ("kernarg_segment_ptr", 2), ("dispatch_id", 2), ("flat_scratch_init", 2),
                    ("private_segment_size", 1))


def _user_sgprs(draft: Draft) -> tuple[tuple[str, int, int], ...]:
    """Which user SGPRs hold which input at entry, from the descriptor's ``.amdhsa_user_sgpr_*`` flags."""
    d = draft.descriptor
    layout: list[tuple[str, int, int]] = []
    first = 0
    for name, size in _USER_SGPR_ORDER:
        if _flag(d.get(f"user_sgpr_{name}")):
            layout.append((name, first, size))
            first += size
    return tuple(layout)


def _declared(draft: Draft, wave_size: int, file: str) -> DeclaredResources:
    md, desc, com = draft.metadata, draft.descriptor, draft.comments
    wg = md.get("reqd_workgroup_size")
    workgroup = None
    if wg:
        dims = [_int(x) for x in wg.split()]
        if len(dims) != 3 or any(d is None or d < 1 for d in dims):
            raise ParseError(f"kernel '{draft.name}': .reqd_workgroup_size must be three positive integers, "
                             f"not {wg!r}", file=file, line=draft.start_line, code="metadata")
        workgroup = (dims[0] or 1, dims[1] or 1, dims[2] or 1)
    raw = [(f".{k}", v) for k, v in sorted(md.items()) if k in (
        "vgpr_count", "sgpr_count", "agpr_count", "vgpr_spill_count", "sgpr_spill_count",
        "group_segment_fixed_size", "private_segment_fixed_size", "wavefront_size", "max_flat_workgroup_size")]
    raw += [(k, v) for k, v in com.items()]
    return DeclaredResources(
        vgpr_count=_int(md.get("vgpr_count")) if "vgpr_count" in md else _int(com.get("NumVgprs")),
        sgpr_count=_int(md.get("sgpr_count")) if "sgpr_count" in md else _int(com.get("NumSgprs")),
        agpr_count=_int(md.get("agpr_count")) if "agpr_count" in md else _int(com.get("NumAgprs")),
        next_free_vgpr=_int(desc.get("next_free_vgpr")),
        next_free_sgpr=_int(desc.get("next_free_sgpr")),
        accum_offset=_int(desc.get("accum_offset")),
        reserve_vcc=_flag(desc.get("reserve_vcc")),
        reserve_xnack_mask=_flag(desc.get("reserve_xnack_mask")),
        reserve_flat_scratch=_flag(desc.get("reserve_flat_scratch")),
        lds_bytes=_int(md.get("group_segment_fixed_size") or desc.get("group_segment_fixed_size")),
        scratch_bytes=_int(md.get("private_segment_fixed_size") or desc.get("private_segment_fixed_size")),
        occupancy=_int(com.get("Occupancy")),
        wave_size=wave_size if (md.get("wavefront_size") or "wavefront_size32" in desc) else None,
        workgroup_size=workgroup,
        max_flat_workgroup_size=_int(md.get("max_flat_workgroup_size")),
        shader_stage=md.get("shader_stage"),
        shader_inputs=_int(md.get("shader_inputs")),
        raw=tuple(raw),
    )


_PROGRESS_EVERY = 1 << 16


def _build_kernel(draft: Draft, target: TargetInfo, file: str, ignore_unknown: bool, packed_tid: bool,
                  diagnostics: list[Diagnostic]) -> Kernel:
    wave = _wave_size(draft, target)
    if draft.metadata.get("wave_size_source") == "default" and target.generation >= 10 \
            and not target.wave_size_forced:
        diagnostics.append(Diagnostic(Severity.NOTE, "wave-size", f"{draft.name}: the code does not show the wave "
                                      f"size; RADV's default wave{wave} assumed (--wave overrides)", file,
                                      draft.start_line))
    ctx = _Context(file, target, wave, ignore_unknown, diagnostics)
    items = draft.items
    instructions: list[Instruction] = []
    for first in range(0, len(items), _PROGRESS_EVERY):  # a million instructions take seconds: say how far
        if first:
            step(f"reading {draft.name}: {first:,} of {len(items):,} instructions")
        instructions.extend([_build_instruction(i, item, draft, ctx)
                             for i, item in enumerate(items[first:first + _PROGRESS_EVERY], first)])
    _check_kernel_ranges(instructions, ctx)
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

    if draft.metadata.get("aco"):
        _drop_aco_undef_exports(instructions, ctx)

    if not draft.ended:
        raise ParseError(f"kernel '{draft.name}' is not terminated (no .Lfunc_end label)", file=file,
                         line=draft.items[-1].line if draft.items else draft.start_line, code="unterminated")
    return Kernel(
        name=draft.name, arch=target.name, wave_size=wave, instructions=tuple(instructions), labels=labels,
        declared=_declared(draft, wave, file), is_kernel=draft.is_kernel,
        entry_live_in=_entry_live_in(draft, target, packed_tid, file), user_sgprs=_user_sgprs(draft), file=file,
        block_starts=dict(draft.blocks), guessed=ctx.guessed, live_at_exit=spill_lanes,
    )


#: ACO's undefined operand is its physical register 128 (``Operand(RegClass)`` in aco_ir.h: an inline
#: constant 0 in ACO's numbering, where VGPRs start at 256); in an export's 8-bit VGPR field it reads v128
#: (``exp pos0 v128, v128, v128, v128 done``): no value, nothing to allocate.
_ACO_UNDEF_VGPR = Reg(RegFile.VGPR, 128, 1).mask()


def _drop_aco_undef_exports(instructions: list[Instruction], ctx: _Context) -> None:
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
    result = read(text, file, dialect)
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
