"""One instruction line -> :class:`~isalens.ir.instruction.Instruction`: its text parsed, its mnemonic checked
against the target's lists, its operands against the register files, the semantics table applied and the branch
target found. What the text alone determines is decoded once per distinct text and target (:class:`ReadContext`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from isalens import _core, records
from isalens.errors import IsalensError, ParseError, UnknownInstructionError
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.instruction import BranchKind, Instruction, InstructionFacts
from isalens.ir.operands import ImmOperand, LabelOperand, Operand, OtherOperand, RegOperand
from isalens.ir.program import TargetInfo
from isalens.ir.registers import MAX_AGPRS, MAX_SGPRS, MAX_VGPRS, SPECIAL_NAMES, Reg, RegFile
from isalens.isa.amdgcn import arity, catalog, decode_cache, semantics
from isalens.isa.amdgcn.drafts import Draft, DraftInstruction, check_instruction_text
from isalens.isa.amdgcn.facts import describe, rules_size, with_encoding
from isalens.isa.amdgcn.syntax import RawInstruction, SyntaxProblem, parse_instruction_text


@records.dataclass(frozen=True, slots=True)
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
    #: the facts as written; their size by the encoding rules only when ``rules_sized`` (else 0, and
    #: :func:`_plain_facts` sizes them when a line without encoding words needs it)
    facts: InstructionFacts
    #: the text itself: every line with this text shares the one string (a 1M-instruction kernel repeats most)
    text: str = ""
    #: ``facts`` with the exact size, per number of encoding words (disassembly gives the words of every line);
    #: at -1, ``facts`` sized by the encoding rules once a line without words asked (:func:`_plain_facts`)
    sized: dict[int, InstructionFacts] = records.field(default_factory=dict)
    #: whether ``facts.size`` is the encoding rules' size: a text first read from a disassembly line (encoding
    #: words, the exact size) skips that step, a tenth of decoding a text (docs/performance.md, issue 28)
    rules_sized: bool = True


@records.dataclass(slots=True)
class ReadContext:
    """What reading one kernel's instructions needs and finds: the target, its diagnostics, the decoded texts."""

    file: str
    target: TargetInfo
    wave_size: int
    ignore_unknown: bool
    diagnostics: list[Diagnostic]
    guessed: int = 0
    cache: dict[str, _Decoded] = records.field(init=False)
    #: where ``cache`` is kept across runs (:mod:`~isalens.isa.amdgcn.decode_cache`), None when it is not
    store: decode_cache.Store | None = records.field(init=False)
    #: per text, its instruction's fields after ``index`` and ``line`` for a line with no address and no encoding
    #: words, when nothing else of the line changes them (:func:`build_instructions`)
    tails: dict[str, tuple[Any, ...]] = records.field(init=False)
    #: texts with :data:`_PLACEHOLDER` for their label whose branches to other labels are decoded in full
    #: (:func:`_generic_tail` found their decoded text unfit to stand for them)
    unlabelled: set[str] = records.field(default_factory=set)
    #: per shape of a text and whether it has encoding words, how its texts are made from one decoded in full
    #: (:func:`_by_shape`; None: decoded in full)
    shapes: dict[tuple[str, bool], _Shape | None] = records.field(init=False)
    #: per text decoded without a guess, a note or a branch target, its instruction's fields around a
    #: disassembly line's address and words (:func:`_head`; ``_core.encoded_rows``)
    heads: dict[str, _Head] = records.field(init=False)

    #: per decoded branch text, where it goes by its operands (:func:`_branch_form`)
    branch_forms: dict[str, _TargetForm | None] = records.field(init=False)

    def __post_init__(self) -> None:
        texts, self.store = _shared_texts(self.target, self.wave_size, self.ignore_unknown)
        self.cache, self.tails, self.shapes = texts.decoded, texts.tails, texts.shapes
        self.heads, self.branch_forms = texts.heads, texts.branch_forms


@records.dataclass(slots=True)
class _TargetTexts:
    """The decoded instruction texts of one target, wave size and unknown-instruction policy, and everything
    made from them, as one record: they start again together and are emptied together (tables of their own
    beside the texts, each holding the texts' dict it belonged to, kept an emptied dict of up to 60,000 texts
    alive per target in a scan worker: docs/performance.md, twenty-seventh session)."""

    decoded: dict[str, _Decoded] = records.field(default_factory=dict)
    #: :attr:`ReadContext.tails`
    tails: dict[str, tuple[Any, ...]] = records.field(default_factory=dict)
    #: :attr:`ReadContext.shapes`
    shapes: dict[tuple[str, bool], _Shape | None] = records.field(default_factory=dict)
    #: :attr:`ReadContext.heads`
    heads: dict[str, _Head] = records.field(default_factory=dict)
    #: :attr:`ReadContext.branch_forms`
    branch_forms: dict[str, _TargetForm | None] = records.field(default_factory=dict)


#: decoded instruction texts, shared by every kernel and module of one process for the same target, wave
#: size and unknown-instruction policy: a library's code objects repeat most of their texts (gfx1030 code
#: objects of librocsparse: 94,905 instructions, 8,760 distinct texts per code object, 6,852 over 14 of them).
#: The only module-level table of the reader keyed by target (tests/unit/test_scan_caches.py checks it is)
_TEXTS: dict[tuple[TargetInfo, int, bool], _TargetTexts] = {}
#: what a disassembly line's instruction holds besides its index, line, address, words and sized facts: the
#: fields before the address, those after the words, and the decoded text's facts per number of words; a branch
#: to an address relative to its own adds the offset, and its fields before stop short of the target
#: (_core.encoded_rows makes each line's)
_Head = tuple[Any, ...]


def _head(decoded: _Decoded) -> _Head:
    """The fields of a disassembly line's instruction of ``decoded`` (not guessed, no notes, no branch target)
    around its address and words, in ``Instruction``'s order (as :func:`build_instructions` makes them)."""
    return ((decoded.text, decoded.mnemonic, decoded.operands, decoded.modifiers, decoded.defs, decoded.uses,
             decoded.branch, None), (0, 0, False, decoded.ops, decoded.referenced), decoded.sized)


def _branch_head(decoded: _Decoded, name: str | None, offset: int | None) -> _Head:
    """:func:`_head` of a branch text whose target is the label ``name`` (``offset`` None), or the line's own
    address plus ``offset``: each line's target made from it (a gfx1030 sample's 62,046 branch lines went
    through :func:`build_instructions`' loop)."""
    before, after, sized = _head(decoded)  # its fields end in the target: the name, or the line's own
    if offset is None:
        return (*before[:-1], name), after, sized
    return before[:-1], after, sized, offset


#: a cache that grows past this many texts starts again: memory stays bounded in a long-lived process (a
#: scan worker holds one cache per target; with 400,000 each, workers scanning librocsparse's seven targets
#: grew past 2 GB)
_DECODED_LIMIT = 100_000


def _shared_texts(target: TargetInfo, wave_size: int, ignore_unknown: bool,
                  ) -> tuple[_TargetTexts, decode_cache.Store | None]:
    """The texts kept for the target (a new record once they grew past :data:`_DECODED_LIMIT`) and the store of
    the texts an earlier run decoded, read a mnemonic at a time on demand (None: a damaged or foreign file, or
    the decode cache is off)."""
    key = (target, wave_size, ignore_unknown)
    store = decode_cache.open_store(decode_cache.path_for(repr(key)), _storable) if decode_cache.enabled() else None
    texts = _TEXTS.get(key)
    if texts is None or len(texts.decoded) > _DECODED_LIMIT:
        texts = _TEXTS[key] = _TargetTexts()
    return texts, store


def _storable(entry: object) -> bool:
    """An entry the next run may reuse: decoded, not guessed (a guessed text is decoded again, as it warns)."""
    return isinstance(entry, _Decoded) and not entry.guessed


def _check_ranges(op: Operand, ctx: ReadContext, line: int, mnemonic: str) -> None:
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


def _parse_one(text: str, ctx: ReadContext, line: int) -> RawInstruction:
    try:
        return parse_instruction_text(text)
    except SyntaxProblem as exc:
        raise ParseError(str(exc), file=ctx.file, line=line, code="syntax") from None


def check_kernel_ranges(instructions: list[Instruction], ctx: ReadContext) -> None:
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


def _unknown(mnemonic: str, ctx: ReadContext, line: int) -> None:
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


#: a branch's target as its text gives it: (label, None, ""), (None, offset from the branch's address, the
#: operand's spelling) for a numeric target, (None, None, "") for none; None: a jump or conditional branch that
#: names no target (an error where it is read)
_TargetForm = tuple[str | None, int | None, str]


def _target_form(raw: RawInstruction, kind: BranchKind) -> _TargetForm | None:
    """Where a branch of kind ``kind`` goes by its operands: the last one that is a label, or a number (a
    ``simm16`` in dwords after the next instruction: ``4 + 4 * simm16`` bytes from its own address)."""
    if kind not in (BranchKind.JUMP, BranchKind.COND, BranchKind.CALL):
        return (None, None, "")
    for op in reversed(raw.operands):
        if isinstance(op, OtherOperand | LabelOperand) and re.fullmatch(r"[.A-Za-z_$][\w.$]*", op.text):
            return (op.text, None, "")
        if isinstance(op, ImmOperand) and isinstance(op.value, int):
            simm = op.value & 0xFFFF
            return (None, 4 + 4 * (simm - 0x10000 if simm >= 0x8000 else simm), op.text)
    return (None, None, "") if kind is BranchKind.CALL else None


def _branch_form(decoded: _Decoded, ctx: ReadContext) -> _TargetForm | None:
    """:func:`_target_form` of a decoded branch text, once per text."""
    forms = ctx.branch_forms
    if decoded.text not in forms:
        assert decoded.branch_raw is not None
        forms[decoded.text] = _target_form(decoded.branch_raw, decoded.branch)
    return forms[decoded.text]


def _branch_target(raw: RawInstruction, kind: BranchKind, item: DraftInstruction, draft: Draft,
                   ctx: ReadContext) -> str | None:
    form = _target_form(raw, kind)
    if form is None:
        raise ParseError(f"{raw.mnemonic} has no branch target", file=ctx.file, line=item.line,
                         code="branch-target")
    name, offset, spelled = form
    if offset is None:
        return name
    if item.address is None:
        raise ParseError(f"numeric branch target {spelled} without instruction addresses", file=ctx.file,
                         line=item.line, code="branch-target")
    return f"@{item.address + offset:#x}"


def build_instructions(items: Sequence[DraftInstruction], first: int, draft: Draft,
                       ctx: ReadContext) -> list[Instruction]:
    """The instructions of ``items`` (the first one's index is ``first``), as :func:`build_instruction` makes
    them one by one.

    Most lines repeat a text seen before: their instruction is the text's tail (``ctx.tails``) behind their
    index and line, made by the core's loop (:func:`isalens._core.keyed_rows`, compiled when built). A tail is
    kept only where nothing of the line itself enters the instruction or the diagnostics: no address or
    encoding words (a numeric branch target, the exact size), not guessed (it warns per line) and no notes
    (one per line). Lines are read in order, so the first error or diagnostic is the one reading them one by
    one would give (a line made from a tail gives neither)."""
    rows: list[Any] = [None] * len(items)
    missing: Sequence[int]
    if items and items[0].address is not None:
        # a disassembly: its lines have addresses, so no tail serves them. The lines of texts decoded before are
        # made by the core's loop from their texts' heads (_core.encoded_rows, compiled when built); the loop
        # below makes the others in order, and leaves any line without an address to the second pass
        missing = _core.encoded_rows(Instruction, first, items, ctx.heads, rows)
    else:
        missing = _core.keyed_rows(Instruction, first, items, ctx.tails, rows)
    if not missing:
        return rows
    # the plain lines that branch to labels (a kernel's branches are mostly distinct texts only by their label:
    # the dense 100k benchmark's 11,018 of 12,375) made by the core's loop from their placeholder text's tail
    # (_core.labelled_rows): each placeholder text first met is decoded once here (_generic_tail), then the loop
    # again. Decoding or unpickling each text was most of building the instructions (docs/performance.md,
    # eighteenth session); tests/unit/test_instruction_rows.py compares the result with decoding every text
    unknown: dict[str, int] = {}
    missing = _core.labelled_rows(Instruction, first, items, missing, ctx.tails, ctx.cache, rows, _PLACEHOLDER,
                                  OtherOperand, unknown)
    if unknown:
        for generic, k in unknown.items():
            _generic_tail(generic, items[k].line, ctx)
        missing = _core.labelled_rows(Instruction, first, items, missing, ctx.tails, ctx.cache, rows, _PLACEHOLDER,
                                      OtherOperand, {})
    if not missing:
        return rows
    tails = ctx.tails
    cache = ctx.cache
    heads = ctx.heads
    new = tuple.__new__
    deferred = False
    for k in missing:
        item = items[k]
        plain = item.address is None and not item.encoding
        if plain and item.text in tails:
            deferred = True
            continue  # its text was first read a few lines before: made by the second pass below
        decoded = cache.get(item.text)
        if not plain and decoded is not None and not decoded.guessed and not decoded.notes:
            # a disassembly's line (address, words) of a text decoded before: what build_instruction gives, made
            # here (a library's code objects are millions of such lines); a branch's target from its text's form
            # (_branch_form: a gfx1030 sample's 62,263 branches each took _branch_target's operand walk)
            target = None
            if decoded.branch_raw is not None:
                form = _branch_form(decoded, ctx)
                if form is None or (form[1] is not None and item.address is None):
                    rows[k] = build_instruction(first + k, item, draft, ctx)  # its error, as line by line
                    continue
                name, offset, _ = form
                target = name if offset is None or item.address is None else f"@{item.address + offset:#x}"
                if item.address is not None and item.encoding and item.text not in heads:
                    heads[item.text] = _branch_head(decoded, name, offset)
            encoding = item.encoding
            facts = (decoded.sized.get(len(encoding)) or _sized(decoded, encoding)) if encoding \
                else _plain_facts(decoded, ctx)
            rows[k] = new(Instruction, (first + k, item.line, decoded.text, decoded.mnemonic, decoded.operands,
                                        decoded.modifiers, decoded.defs, decoded.uses, decoded.branch, target,
                                        item.address, encoding, 0, 0, False, decoded.ops, decoded.referenced, facts))
            if target is None and decoded.branch_raw is None and item.address is not None and encoding \
                    and item.text not in heads:
                heads[item.text] = _head(decoded)
            continue
        ins = rows[k] = build_instruction(first + k, item, draft, ctx)
        decoded = ctx.cache[item.text]
        if plain and not decoded.guessed and not decoded.notes:
            tails[item.text] = tuple(ins)[2:]
        elif item.address is not None and item.encoding and not decoded.guessed and decoded.branch_raw is None \
                and not decoded.notes and item.text not in heads:
            heads[item.text] = _head(decoded)
    if deferred:
        _core.keyed_rows(Instruction, first, items, tails, rows)
    return rows


#: the label that stands for every label in a branch's text decoded once for all its labels
#: (:func:`_generic_tail`; which labels it stands for: ``_core.reading.labelled_rows``)
_PLACEHOLDER = ".Lisalens_label"
_LABEL_BRANCHES = (BranchKind.JUMP, BranchKind.COND, BranchKind.CALL)


def _generic_tail(generic: str, line: int, ctx: ReadContext) -> tuple[Any, ...] | None:
    """The tail of the placeholder text ``generic`` (kept in ``ctx.tails``), first met on ``line``; None when it
    may not stand for its branches (kept in ``ctx.unlabelled``)."""
    tail = ctx.tails.get(generic)
    if tail is None:
        if generic in ctx.unlabelled:
            return None
        tail = _placeholder_tail(generic, line, ctx)
        if tail is None:
            ctx.unlabelled.add(generic)
            return None
        ctx.tails[generic] = tail
    return tail


def _placeholder_tail(generic: str, line: int, ctx: ReadContext) -> tuple[Any, ...] | None:
    """The tail of ``generic`` read as a plain line, if it may stand for the same text with other labels; None
    (and nothing reported) if not, or if decoding it fails (the line's own text then gives the error)."""
    reported, guessed = len(ctx.diagnostics), ctx.guessed
    try:
        decoded = _decoded(DraftInstruction(line, generic), ctx)
    except IsalensError:
        decoded = None
    if decoded is None or decoded.guessed or decoded.notes or decoded.branch not in _LABEL_BRANCHES \
            or decoded.branch_raw is None or decoded.branch_raw.operands[-1:] != (OtherOperand(_PLACEHOLDER),) \
            or decoded.operands != decoded.branch_raw.operands or _PLACEHOLDER in decoded.facts.literals:
        del ctx.diagnostics[reported:]
        ctx.guessed = guessed
        return None
    # the branch's target is its last operand that is a label (_branch_target): the placeholder, then the label
    return (decoded.text, decoded.mnemonic, decoded.operands, decoded.modifiers, decoded.defs, decoded.uses,
            decoded.branch, _PLACEHOLDER, None, (), 0, 0, False, decoded.ops, decoded.referenced,
            _plain_facts(decoded, ctx))


def _decoded(item: DraftInstruction, ctx: ReadContext) -> _Decoded:
    """The decoded text of ``item``: from this process's cache, else the earlier runs', else decoded now (a
    guessed text is decoded again, as it warns)."""
    decoded = ctx.cache.get(item.text)
    if decoded is None and ctx.store is not None:
        # first text of its chunk not decoded in this process: the earlier runs' texts of that chunk
        for text, entry in ctx.store.take(item.text).items():
            ctx.cache.setdefault(text, entry)
        decoded = ctx.cache.get(item.text)
    if decoded is None or decoded.guessed:
        decoded = (None if decoded is not None else _by_shape(item, ctx)) or _decode(item, ctx)
        ctx.cache[item.text] = decoded
        if ctx.store is not None and not decoded.guessed:
            decode_cache.save_at_exit(ctx.store.path, ctx.cache, _storable)
    return decoded


def build_instruction(index: int, item: DraftInstruction, draft: Draft, ctx: ReadContext) -> Instruction:
    """The instruction of one draft line (its decoded text from the cache when the text was seen before)."""
    decoded = _decoded(item, ctx)
    target = None
    if decoded.branch_raw is not None:
        target = _branch_target(decoded.branch_raw, decoded.branch, item, draft, ctx)
    for note in decoded.notes:
        ctx.diagnostics.append(Diagnostic(Severity.NOTE, "approximate", note, ctx.file, item.line))
    # positional, in field order: this runs once per instruction
    return Instruction(index, item.line, decoded.text, decoded.mnemonic, decoded.operands, decoded.modifiers,
                       decoded.defs, decoded.uses, decoded.branch, target, item.address, item.encoding, 0, 0,
                       decoded.guessed, decoded.ops, decoded.referenced,
                       _sized(decoded, item.encoding) if item.encoding else _plain_facts(decoded, ctx))


def _sized(decoded: _Decoded, words: tuple[int, ...]) -> InstructionFacts:
    facts = decoded.sized.get(len(words))
    if facts is None:
        facts = decoded.sized[len(words)] = with_encoding(decoded.facts, words)
    return facts


def _plain_facts(decoded: _Decoded, ctx: ReadContext) -> InstructionFacts:
    """``decoded.facts`` with the size by the encoding rules, for a line without encoding words."""
    if decoded.rules_sized:
        return decoded.facts
    facts = decoded.sized.get(-1)
    if facts is None:
        f = decoded.facts
        size = rules_size(decoded.mnemonic, decoded.operands, decoded.modifiers, decoded.text,
                          ctx.target.name)
        facts = decoded.sized[-1] = InstructionFacts(f.klass, size, False, f.constants, f.literals, f.modifiers)
    return facts


def _decode(item: DraftInstruction, ctx: ReadContext) -> _Decoded:
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
    sized = not item.encoding
    facts = describe(ops[0], tuple(operands), tuple(modifiers), item.text, ctx.target.name, ctx.target.generation,
                     sized=sized)
    return _Decoded(ops[0], tuple(operands), tuple(modifiers), defs, uses, branch, branch_raw, tuple(ops),
                    guessed, tuple(notes), referenced, facts, item.text, rules_sized=sized)


def _check_extra_operands(raw: RawInstruction, ctx: ReadContext, line: int, guessed: bool) -> None:
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



# --- texts that differ only in register numbers (issue 28 speed) -------------------------------------------------

#: a numbered register of a text: ``v12``, ``s[4:5]``, ``a3`` (letter, then one index or a range, no leading
#: zero); the rest of the text (``vcc``, ``ttmp5``, ``v[4]``, ``v01``, halves ``.l``, modifiers, constants) is its
#: *shape*'s literal text
_REG_TOKEN = _core.reading.REGISTER_TOKEN
_FILE_OF = {"v": RegFile.VGPR, "s": RegFile.SGPR, "a": RegFile.AGPR}
#: mask bits per register number: a VGPR or AGPR has two 16-bit halves, an SGPR one unit (``Reg.mask``)
_UNITS = {RegFile.VGPR: 2, RegFile.AGPR: 2, RegFile.SGPR: 1}


def _shape_of(text: str) -> tuple[str, list[int], list[str]] | None:
    """``text`` with each numbered register replaced by its letter and width, the registers' first indices in
    order, and their spellings; None when it names none, or one the parser would bound (an index past its file,
    a range ending before it starts): ``_core.register_shape`` (compiled when built) with the files' sizes."""
    return _core.register_shape(text, MAX_VGPRS, MAX_SGPRS, MAX_AGPRS)


#: :attr:`_Shape.roles`
_Roles = tuple[tuple[bool, ...], bool, int, int, int, int]
#: one operand of a shape with numbered registers: (its position, the operand, its first register's position
#: among the text's registers, its text's pieces between its registers)
_Step = tuple[int, RegOperand, int, tuple[str, ...]]


@records.dataclass(frozen=True, slots=True)
class _Shape:
    """How to make the decoded entry of any text of one shape from one text of it decoded in full."""

    decoded: _Decoded
    steps: tuple[_Step, ...]
    #: the registers of the operands without a numbered one (``vcc_lo``), part of ``referenced``
    fixed: int
    #: when the semantics are positional for this shape (``semantics.positional``): whether each step's operand
    #: is written (in ``steps``' order), whether the written ones are read too, the defs and uses of the operands
    #: without a numbered one, and those of the implicit registers; None: ``semantics.apply`` per text
    roles: _Roles | None = None


def _shape_plan(decoded: _Decoded, firsts: list[int], ctx: ReadContext) -> _Shape | None:
    """The :class:`_Shape` of ``decoded`` (its text's registers start at ``firsts``), or None when its texts
    must be decoded in full: guessed, noted, a branch, VOPD's two halves, a numbered register in its first word
    or modifiers, or registers that are not each one register run of one operand, in order."""
    if decoded.guessed or decoded.notes or decoded.branch is not BranchKind.NONE or decoded.branch_raw is not None \
            or len(decoded.ops) != 1 or _REG_TOKEN.search(decoded.text.split(None, 1)[0]) \
            or any(_REG_TOKEN.search(m) for m in decoded.modifiers):
        return None
    steps: list[_Step] = []
    fixed = 0
    k = 0
    for at, op in enumerate(decoded.operands):
        pieces = _REG_TOKEN.split(op.text)
        if len(pieces) == 1:
            if isinstance(op, RegOperand):
                fixed |= op.mask
            continue
        if not isinstance(op, RegOperand) or len(op.regs) != len(pieces) // 5:
            return None
        for j, reg in enumerate(op.regs):
            letter, one, lo, hi = pieces[5 * j + 1:5 * j + 5]
            first, last = (one, one) if one is not None else (lo, hi)
            if k + j >= len(firsts) or reg.file is not _FILE_OF[letter] or reg.index != int(first) \
                    or reg.count != int(last) - int(first) + 1 or firsts[k + j] != reg.index:
                return None
        if len(op.regs) == 1 and op.mask != op.regs[0].mask():
            return None
        steps.append((at, op, k, tuple(pieces[0::5])))
        k += len(op.regs)
    if k != len(firsts):
        return None
    return _Shape(decoded, tuple(steps), fixed, _roles(decoded, steps, ctx))


def _roles(decoded: _Decoded, steps: list[_Step], ctx: ReadContext) -> _Roles | None:
    """:attr:`_Shape.roles` of a shape whose model is ``decoded`` (None when its semantics are not positional)."""
    found = semantics.positional(decoded.mnemonic, decoded.modifiers, len(decoded.operands),
                                 generation=ctx.target.generation, wave_size=ctx.wave_size)
    if found is None:
        return None
    written, reads_dst, implicit_uses, implicit_defs = found
    defs = uses = 0
    moved = {at for at, _op, _k, _pieces in steps}
    for at, op in enumerate(decoded.operands):
        if at not in moved and isinstance(op, RegOperand):
            if at < written:
                defs |= op.mask
            else:
                uses |= op.mask
    return tuple(at < written for at, _op, _k, _pieces in steps), reads_dst, defs, uses, implicit_defs, implicit_uses


def _by_shape(item: DraftInstruction, ctx: ReadContext) -> _Decoded | None:
    """The decoded entry of ``item``'s text made from another text of its shape (:func:`_shape_of`) decoded
    before: its operands with this text's registers and the semantics applied to them; the facts, which do not
    depend on register numbers, shared. None when no text of its shape was decoded yet (this one is, in full,
    and stands for its shape) or its shape's texts are decoded in full. ``tests/unit/test_decoded_shapes.py``
    compares the result with decoding in full, over every text of a decoded library slice."""
    found = _core.register_shape(item.text, MAX_VGPRS, MAX_SGPRS, MAX_AGPRS)
    if found is None:
        return None
    shape, firsts, spelled = found
    key = (shape, not item.encoding)
    if key not in ctx.shapes:
        decoded = _decode(item, ctx)
        ctx.shapes[key] = _shape_plan(decoded, firsts, ctx)
        return decoded
    plan = ctx.shapes[key]
    if plan is None:
        return None
    model = plan.decoded
    operands = list(model.operands)
    referenced = plan.fixed
    moved: list[int] = []
    for at, op, k, pieces in plan.steps:
        if len(pieces) == 2:  # one register run: its units moved by the change of its number
            reg = op.regs[0]
            shift = (firsts[k] - reg.index) * _UNITS[reg.file]
            new = RegOperand((Reg(reg.file, firsts[k], reg.count, reg.halves),), pieces[0] + spelled[k] + pieces[1],
                             op.neg, op.abs, op.mask << shift if shift >= 0 else op.mask >> -shift)
        else:
            regs = tuple(Reg(r.file, firsts[k + j], r.count, r.halves) for j, r in enumerate(op.regs))
            new = RegOperand.of(regs, pieces[0] + "".join(spelled[k + j] + pieces[j + 1] for j in range(len(regs))),
                                op.neg, op.abs)
        referenced |= new.mask
        moved.append(new.mask)
        operands[at] = new
    ops = tuple(operands)
    roles = plan.roles
    if roles is not None:  # what semantics.apply gives these operands, without its per-call work
        written, reads_dst, defs, uses, implicit_defs, implicit_uses = roles
        for writes, mask in zip(written, moved, strict=True):
            if writes:
                defs |= mask
            else:
                uses |= mask
        if reads_dst:
            uses |= defs
        return _Decoded(model.mnemonic, ops, model.modifiers, defs | implicit_defs, uses | implicit_uses,
                        BranchKind.NONE, None, model.ops, False,
                        (), referenced, model.facts, item.text, rules_sized=model.rules_sized)
    effects, _ = semantics.apply(model.mnemonic, ops, model.modifiers, generation=ctx.target.generation,
                                 wave_size=ctx.wave_size)
    if effects.notes or effects.branch is not BranchKind.NONE:
        return None
    return _Decoded(model.mnemonic, ops, model.modifiers, effects.defs, effects.uses, BranchKind.NONE, None,
                    model.ops, False, (), referenced & ~effects.unread, model.facts, item.text,
                    rules_sized=model.rules_sized)
