"""Instruction-level statistics of one kernel: class counts (per kernel, per basic block, by loop depth),
exact code bytes, modifier and constant use, and an LDS access analysis with bank conflicts where the
address is provably lane-linear.

This layer does not read ISA tables: it reads the facts the ISA reader stored on every instruction
(:class:`isalens.ir.instruction.InstructionFacts`: class key, size, constant kinds).
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import attrgetter, or_
from typing import NamedTuple

from isalens import _core
from isalens.analysis.cfg import CFG, Block
from isalens.ir.instruction import Instruction, InstructionFacts
from isalens.ir.operands import ImmOperand, RegOperand
from isalens.ir.program import Kernel
from isalens.ir.registers import VGPR_MASK, Reg, RegFile
from isalens.isa.amdgcn.mnemonics import without_size_suffix
from isalens.ondemand import OnDemand

__all__ = [
    "BLOCK_LANES", "KernelStats", "LdsAccess", "LineStats", "bank_conflict_degree", "stats",
]

#: lanes the LDS serves at once: a half-wave of a GCN wave64 (domain.md §2: 32 banks x 4 bytes, conflicts
#: resolved per half-wave), a whole RDNA wave32
BLOCK_LANES = 32
_BANKS = 32
_BANK_BYTES = 4


@dataclass(frozen=True, slots=True)
class LdsAccess:
    """One DS instruction's access pattern."""

    index: int
    line: int
    mnemonic: str
    form: str
    #: bytes per element (4 for _b32, 8 for _b64, 2 for _u16 ...)
    element_bytes: int
    #: effective byte offsets added to the address: offset, or offset0/1 x size (x 64 for st64 forms)
    offsets: tuple[int, ...]
    bytes_per_lane: int
    bytes_per_wave: int
    address: str | None
    #: bytes between consecutive lanes' addresses when provably lane-linear, else None
    lane_stride: int | None
    #: what the lane-linearity rests on: "mbcnt" (lane id computed) or "workitem_x" (v0 with a workgroup
    #: x size that is a multiple of the wave size), None when unknown
    basis: str | None
    #: worst number of distinct dwords one bank serves for a 32-lane block, over the passes the access
    #: needs anyway; 1 = conflict-free; None = unknown (the address is not provably lane-linear)
    conflict_degree: int | None


@dataclass(frozen=True, slots=True)
class BlockStats:
    index: int
    start: int
    end: int
    loop_depth: int
    code_bytes: int
    classes: dict[str, int]


class BlockStatsRows(OnDemand[BlockStats]):
    """The blocks' rows made when read: each block's bounds from the CFG, its loop depth, code bytes and the
    number of its class count among the distinct ones (blocks repeat their sequences of classes; a 1M-instruction
    kernel's 250,000 blocks would otherwise keep a record and a dict each)."""

    __slots__ = ("_blocks", "_counts", "_depths", "_sizes", "_which")

    def __init__(self, blocks: Sequence[Block], depths: Sequence[int], sizes: Sequence[int], which: Sequence[int],
                 counts: Sequence[dict[str, int]]) -> None:
        self._blocks, self._depths, self._sizes, self._which, self._counts = blocks, depths, sizes, which, counts

    def __len__(self) -> int:
        return len(self._blocks)

    def _item(self, k: int) -> BlockStats:
        block = self._blocks[k]
        return BlockStats(block.index, block.start, block.end, self._depths[block.index], self._sizes[k],
                          dict(self._counts[self._which[k]]))

    def columns(self) -> Iterator[tuple[int, int, int, int, int, int]]:
        """Each block's (index, start, end, loop depth, code bytes, number of its class counts among
        :attr:`counts`) in order, without a record or a dict per block (the JSON writer's)."""
        depths = self._depths
        for block, size, which in zip(self._blocks, self._sizes, self._which, strict=True):
            yield block.index, block.start, block.end, depths[block.index], size, which

    @property
    def counts(self) -> Sequence[dict[str, int]]:
        """The distinct class counts the blocks share (read-only)."""
        return self._counts


class LineStats(NamedTuple):
    """One instruction's class, size, modifiers and constant kinds (a named tuple: one per instruction;
    ``modifiers`` and ``constants`` are shared between lines with the same text: read-only)."""

    index: int  # type: ignore[assignment]  # shadows tuple.index(), which rows never use
    line: int
    klass: str
    size: int
    modifiers: tuple[str, ...]
    constants: dict[str, int]


class StatsLines(OnDemand[LineStats]):
    """Per-instruction statistics rows, made on demand from the instructions' facts (a kernel of a million
    instructions would otherwise keep a million rows); a pickled copy is the rows themselves."""

    __slots__ = ("_instructions",)

    def __init__(self, instructions: Sequence[Instruction]) -> None:
        self._instructions = instructions

    def __len__(self) -> int:
        return len(self._instructions)

    def _item(self, i: int) -> LineStats:
        return self._row(self._instructions[i])

    def __iter__(self) -> Iterator[LineStats]:
        return (self._row(ins) for ins in self._instructions)

    @staticmethod
    def _row(ins: Instruction) -> LineStats:
        fact = ins.facts
        return LineStats(ins.index, ins.line, fact.klass, fact.size, _modifier_texts(fact.modifiers),
                         _constant_counts(fact.constants))


# lines with the same constant kinds / modifiers share one (read-only) dict / tuple; the kinds and
# modifier combinations of real code are a few hundred
@lru_cache(maxsize=4096)
def _constant_counts(kinds: tuple[str | None, ...]) -> dict[str, int]:
    """Constant sources of one instruction by kind ("literal", "inline", "sgpr"); shared: do not modify."""
    return dict(Counter(k for k in kinds if k is not None))


@lru_cache(maxsize=4096)
def _modifier_texts(modifiers: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(t for _, t in modifiers)


@dataclass(frozen=True, slots=True)
class KernelStats:
    """Statistics of one kernel (frozen)."""

    name: str
    instructions: int
    code_bytes: int
    #: every size came from encoding words
    code_bytes_exact: bool
    classes: dict[str, int]
    #: class counts by loop depth (0 = outside loops)
    classes_by_loop_depth: dict[int, dict[str, int]]
    #: counts weighted by ``loop_weight ** depth`` (an assumed trip count per loop level)
    classes_weighted: dict[str, int]
    loop_weight: int
    blocks: Sequence[BlockStats]
    #: modifier groups (sdwa, dpp, op_sel, source, output) -> modifier text -> count
    modifiers: dict[str, dict[str, int]]
    #: literal / inline / sgpr source operand counts
    constants: dict[str, int]
    literal_values: dict[str, int]
    #: DS instruction counts by mnemonic
    lds: dict[str, int]
    lds_accesses: tuple[LdsAccess, ...]
    lds_totals: dict[str, int]
    lines: Sequence[LineStats]


# ---------------------------------------------------------------------------------------------- LDS

_WIDTHS = {"b8": 1, "u8": 1, "i8": 1, "b16": 2, "u16": 2, "i16": 2, "f16": 2, "bf16": 2, "b32": 4, "u32": 4, "i32": 4,
           "f32": 4, "b64": 8, "u64": 8, "i64": 8, "f64": 8, "b96": 12, "b128": 16}
_DS_BASE = re.compile(r"^(ds|lds)_")


def _element_bytes(mnemonic: str) -> int:
    tokens = mnemonic.split("_")
    for token in reversed(tokens):
        if token in _WIDTHS:
            return _WIDTHS[token]
    return 4


def _int_modifier(ins: Instruction, name: str) -> int:
    value = ins.modifier(name)
    if not value:
        return 0
    try:
        return int(value, 0)
    except ValueError:
        return 0


def bank_conflict_degree(stride: int, offsets: Sequence[int], element_bytes: int) -> int:
    """Conflict degree of 32 lanes accessing ``lane * stride + offset`` (for each offset) with elements of
    ``element_bytes``: the busiest bank's distinct dwords over the passes the access needs anyway.

    32 banks x 4 bytes (domain.md §2): one bank serves one dword per pass, lanes reading the same dword
    share it (broadcast), and n distinct dwords need at least ceil(n / 32) passes. Hand checks: b32 at stride
    4 -> 32 dwords, one per bank -> 1; stride 8 -> two lanes on every even bank -> 2; stride 128 -> all 32
    lanes on bank 0 -> 32; stride 0 -> one dword -> 1; b64 at stride 8 -> 64 dwords, 2 per bank, 2 passes
    needed -> 1.
    """
    per_bank: dict[int, set[int]] = {}
    for offset in offsets:
        for lane in range(BLOCK_LANES):
            start = (lane * stride + offset) % 2**32  # addresses are 32-bit VGPR values
            for dword in range(start // _BANK_BYTES, (start + element_bytes - 1) // _BANK_BYTES + 1):
                per_bank.setdefault(dword % _BANKS, set()).add(dword)
    distinct = sum(len(words) for words in per_bank.values())
    worst = max((len(words) for words in per_bank.values()), default=1)
    passes = max(1, math.ceil(distinct / _BANKS))
    return max(1, math.ceil(worst / passes))


@lru_cache(maxsize=4096)
def _conflict_degree(stride: int, offsets: tuple[int, ...], element_bytes: int) -> int:
    """:func:`bank_conflict_degree`, remembered: a library's LDS accesses repeat a few hundred (stride, offsets,
    size) triples, and each answer walks 32 lanes' dwords (a tenth of a scan's statistics time)."""
    return bank_conflict_degree(stride, offsets, element_bytes)


# lane-affine values: VGPR index -> (bytes-or-units per lane, basis)
_Affine = dict[int, tuple[int, str]]


def _single_vgpr(op: object) -> int | None:
    if isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].file is RegFile.VGPR \
            and op.regs[0].count == 1 and not op.neg and not op.abs:
        return op.regs[0].index
    return None


def _uniform(op: object) -> bool:
    """A value equal in every lane: a constant or a scalar register."""
    if isinstance(op, ImmOperand):
        return True
    return isinstance(op, RegOperand) and all(r.file is RegFile.SGPR for r in op.regs)


def _const(op: object) -> int | None:
    if isinstance(op, ImmOperand) and isinstance(op.value, int):
        return op.value
    return None


def _stride_of(op: object, state: _Affine) -> tuple[int, str] | None:
    if _uniform(op):
        return (0, "")
    v = _single_vgpr(op)
    return state.get(v) if v is not None else None


def _combine(a: tuple[int, str] | None, b: tuple[int, str] | None, sign: int = 1) -> tuple[int, str] | None:
    if a is None or b is None:
        return None
    bases = [x for x in (a[1], b[1]) if x]
    # a lane-varying basis wins over "uniform" (a VGPR holding the same value in every lane)
    basis = next((x for x in bases if x != "uniform"), bases[0] if bases else "")
    return (a[0] + sign * b[0], basis)


_ADDS = ("v_add_u32", "v_add_nc_u32", "v_add_co_u32", "v_add_i32")
_SUBS = ("v_sub_u32", "v_sub_nc_u32", "v_sub_co_u32", "v_sub_i32")
_SUBREVS = ("v_subrev_u32", "v_subrev_nc_u32", "v_subrev_co_u32")


def _value(base: str, srcs: Sequence[object], state: _Affine, packed_ids: bool) -> tuple[int, str] | None:
    """The lane-affine value an instruction computes from its sources, when the pattern is one we know."""
    if base == "v_mov_b32" and len(srcs) == 1:
        return _stride_of(srcs[0], state)
    if base == "v_lshlrev_b32" and len(srcs) == 2 and (c0 := _const(srcs[0])) is not None:
        s = _stride_of(srcs[1], state)
        return None if s is None else (s[0] << (c0 & 31), s[1])  # hardware uses the shift's low 5 bits
    if base in ("v_mul_u32_u24", "v_mul_lo_u32", "v_mul_i32_i24") and len(srcs) == 2:
        for k in (0, 1):
            s = _stride_of(srcs[1 - k], state)
            c = _const(srcs[k])
            if c is not None and s is not None:
                return (s[0] * c, s[1])
        return None
    if len(srcs) >= 2 and base in _ADDS + _SUBS + _SUBREVS:
        a, b = _stride_of(srcs[-2], state), _stride_of(srcs[-1], state)  # a carry-out SGPR may precede them
        if base in _ADDS:
            return _combine(a, b)
        return _combine(a, b, -1) if base in _SUBS else _combine(b, a, -1)
    if base == "v_lshl_add_u32" and len(srcs) == 3 and (c1 := _const(srcs[1])) is not None:
        s = _stride_of(srcs[0], state)
        return _combine(None if s is None else (s[0] << (c1 & 31), s[1]), _stride_of(srcs[2], state))
    if base == "v_add_lshl_u32" and len(srcs) == 3 and (c2 := _const(srcs[2])) is not None:
        s = _combine(_stride_of(srcs[0], state), _stride_of(srcs[1], state))
        return None if s is None else (s[0] << (c2 & 31), s[1])
    if base in ("v_mad_u32_u24", "v_mad_i32_i24") and len(srcs) == 3:
        for k in (0, 1):
            s = _stride_of(srcs[1 - k], state)
            c = _const(srcs[k])
            if c is not None and s is not None:
                return _combine((s[0] * c, s[1]), _stride_of(srcs[2], state))
        return None
    if base == "v_mbcnt_lo_u32_b32" and len(srcs) == 2 and _const(srcs[0]) == -1 and _uniform(srcs[1]):
        # counts the lanes below this one among lanes 0-31: the lane id within a 32-lane block
        return (1, "mbcnt")
    if base == "v_mbcnt_hi_u32_b32" and len(srcs) == 2 and _const(srcs[0]) == -1:
        s = _stride_of(srcs[1], state)
        return s if s is not None and s[1] == "mbcnt" else None
    if packed_ids and base == "v_and_b32" and len(srcs) == 2 and -1 in state \
            and 0x3FF in (consts := (_const(srcs[0]), _const(srcs[1]))):
        # packed workitem ids: v0 bits [9:0] hold the x id
        other = srcs[1] if consts[0] == 0x3FF else srcs[0]
        return state[-1] if _single_vgpr(other) == 0 else None
    return None


_KNOWN = frozenset({"v_mov_b32", "v_lshlrev_b32", "v_mul_u32_u24", "v_mul_lo_u32", "v_mul_i32_i24", *_ADDS, *_SUBS,
                    *_SUBREVS, "v_lshl_add_u32", "v_add_lshl_u32", "v_mad_u32_u24", "v_mad_i32_i24",
                    "v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32", "v_and_b32"})


#: mnemonic -> its :func:`_affine_base` (a library's kernels use a few hundred distinct mnemonics; the dataflow
#: asked once per instruction per round: a fifth of a scan's statistics time, docs/performance.md)
_BASES: dict[str, str | None] = {}


def _affine_base(mnemonic: str) -> str | None:
    """The mnemonic without its _e32/_e64 suffix when :func:`_value` knows it, else None."""
    try:
        return _BASES[mnemonic]
    except KeyError:
        base = without_size_suffix(mnemonic)
        known = _BASES[mnemonic] = base if base in _KNOWN else None
        return known


def _transfer(ins: Instruction, state: _Affine, packed_ids: bool) -> None:
    """Update the lane-affine facts after ``ins``; any other write to a VGPR forgets what it held (the readable
    form of one step of :func:`_lane_affine`, which runs the same steps from :func:`_steps`)."""
    ops = ins.operands
    base = _affine_base(ins.mnemonic)
    dst = _single_vgpr(ops[0]) if ops and base is not None else None
    value = _value(base, ops[1:], state, packed_ids) if dst is not None and base is not None else None
    if state:
        defs = ins.defs
        # two units per VGPR (16-bit halves) starting at unit 0; the packed-ids marker -1 stands for v0
        for v in [v for v in state if defs >> (2 * v if v > 0 else 0) & 3]:
            del state[v]
    if dst is not None and value is not None:
        # 32-bit VGPR arithmetic wraps: keep the stride as a signed 32-bit value so chains stay small
        value = ((value[0] + 2**31) % 2**32 - 2**31, value[1])
        state[dst] = value if value[1] else (value[0], "uniform")


#: one instruction's part in the dataflow: (index, the keys of the facts its VGPR writes forget (:func:`_forgets`),
#: the base mnemonic :func:`_value` knows or None, the sources it reads, the single VGPR it sets when it computes a
#: value)
_Step = tuple[int, tuple[int, ...], str | None, Sequence[object], int]
#: an instruction's writes (a unit bitset) -> :func:`_forgets` of them (a kernel writes the same registers again and
#: again; a scan worker bounds it: scan.caches)
_FORGETS: dict[int, tuple[int, ...]] = {}


def _forgets(defs: int) -> tuple[int, ...]:
    """The facts' keys a write of the units ``defs`` forgets: each VGPR with either half written (two units per VGPR
    starting at unit 0), and the packed-ids marker -1 with v0; other files' units are no facts' keys."""
    vdefs = defs & VGPR_MASK
    found = [v for v in range(len(bin(vdefs)) // 2) if vdefs >> (2 * v) & 3] if vdefs else []
    keys = _FORGETS[defs] = tuple([-1, *found] if 0 in found else found)
    return keys


def _units_of(keys: set[int]) -> int:
    """The register units of the facts' ``keys`` (the packed-ids marker -1 stands for v0)."""
    units = 0
    for v in keys:
        units |= Reg(RegFile.VGPR, max(v, 0)).mask()
    return units


def _steps(instructions: Sequence[Instruction], graph: CFG, packed_ids: bool,
           asked: dict[int, int]) -> tuple[set[int], dict[int, list[_Step]]]:
    """The keys whose facts decide the asked ones, and per block the instructions that can change those facts or
    are asked about, each as a :data:`_Step`.

    The keys: the asked ones and, for every instruction that may compute one of them (:func:`_value`), the keys
    of its VGPR sources (and the packed-ids marker for ``v_and_b32``), until closed. The meet keeps or drops
    each key alone, and a value is computed only from its sources' facts, so no other key's fact can reach
    these: the dataflow tracks only them. An instruction that writes none of them and is not asked about leaves
    them as they are (:func:`_transfer` would change other keys only); one that computes a value for another
    key only forgets (the 870 kernels with LDS accesses of librocsparse's 24-code-object gfx1030 sample track 11
    keys each on average, and keep 35 % of their instructions as steps: docs/performance.md)."""
    bases = _BASES
    mnemonics = list(map(_MNEMONIC, instructions))
    for mnemonic in set(mnemonics).difference(bases):
        _affine_base(mnemonic)
    # what each key is computed from, over the instructions that may compute one (a mnemonic _value knows)
    sources: dict[int, set[int]] = {}
    reads: dict[int, tuple[int | None, tuple[int, ...]]] = {}  # by the operands tuple's id (texts share it)
    for i in compress(range(len(mnemonics)), map(bases.get, mnemonics)):
        ops = instructions[i].operands
        read = reads.get(id(ops))
        if read is None:
            dst = _single_vgpr(ops[0]) if ops else None
            found = () if dst is None else tuple(v for v in map(_single_vgpr, ops[1:]) if v is not None)
            read = reads[id(ops)] = (dst, found)
        dst, found = read
        if dst is not None:
            keys = sources.get(dst)
            if keys is None:
                keys = sources[dst] = set()
            keys.update(found)
            if packed_ids and bases[mnemonics[i]] == "v_and_b32":
                keys.add(-1)
    relevant = set(asked.values())
    todo = list(relevant)
    while todo:
        for v in sources.get(todo.pop(), ()):
            if v not in relevant:
                relevant.add(v)
                todo.append(v)
    kept = set(_core.rows_masked(instructions, _DEFS_AT, _units_of(relevant)))
    kept.update(asked)
    steps: dict[int, list[_Step]] = {}
    forgotten, block_of = _FORGETS, graph.block_of
    for i in sorted(kept):
        ins = instructions[i]
        forgets = forgotten.get(ins.defs)
        if forgets is None:
            forgets = _forgets(ins.defs)
        base = bases[mnemonics[i]]
        ops = ins.operands
        dst = reads[id(ops)][0] if base is not None else None  # every instruction with a base was read above
        step: _Step = (i, forgets, base, ops[1:], dst) if dst is not None and dst in relevant else \
            (i, forgets, None, (), 0)
        at = steps.get(block_of[i])
        if at is None:
            steps[block_of[i]] = [step]
        else:
            at.append(step)
    return relevant, steps


def _lane_affine(kernel: Kernel, graph: CFG, packed_ids: bool, x_multiple_of_wave: bool,
                 asked: dict[int, int]) -> dict[int, tuple[int, str] | None]:
    """For each instruction index of ``asked``, the fact of the key asked there (a VGPR index, or -1 for the packed
    ids' marker) *before* it, None when unknown: a forward dataflow over the CFG (meet = agreement), in rounds over
    the blocks in reverse postorder until no block's incoming facts change (at most 20). An instruction in no block
    reached is absent.

    The facts tracked are those of the keys the asked ones depend on, and each block's steps are the
    instructions that can change them (:func:`_steps`, found once); a block whose incoming facts did not change
    since it last ran is not run again: it would compute the same facts before its instructions and the same
    outgoing facts, which its successors already agree with (a meet with the same facts changes nothing). The
    same answer as running every instruction of every block each round (:func:`_transfer`) and reading the
    asked key at each asked instruction (tests/property/test_lane_affine_property.py), at a fraction of the cost
    (docs/performance.md, twenty-second and twenty-seventh sessions)."""
    if not asked:
        return {}  # no LDS access to describe (most kernels of a library): no dataflow to run
    relevant, steps = _steps(kernel.instructions, graph, packed_ids, asked)
    entry: _Affine = {}
    if x_multiple_of_wave:
        # packed ids: the marker -1 says v0 bits [9:0] hold the x id
        key = -1 if packed_ids else 0
        if key in relevant:
            entry[key] = (1, "workitem_x")
    block_in: dict[int, _Affine | None] = {b.index: None for b in graph.blocks}
    if graph.blocks:
        block_in[0] = dict(entry)
    dirty = set(block_in)  # blocks whose incoming facts changed since they last ran (all: never run)
    before: dict[int, tuple[int, str] | None] = {}
    changed = True
    rounds = 0
    while changed and rounds < 20:
        changed = False
        rounds += 1
        for b in graph.reverse_postorder:
            incoming = block_in[b]
            if incoming is None or b not in dirty:
                continue
            dirty.discard(b)
            state = dict(incoming)
            for i, forgets, base, srcs, dst in steps.get(b, ()):
                if i in asked:
                    before[i] = state.get(asked[i])
                value = _value(base, srcs, state, packed_ids) if base is not None else None
                if state:
                    for v in forgets:
                        state.pop(v, None)
                if value is not None:
                    # 32-bit VGPR arithmetic wraps: keep the stride as a signed 32-bit value so chains stay small
                    value = ((value[0] + 2**31) % 2**32 - 2**31, value[1])
                    state[dst] = value if value[1] else (value[0], "uniform")
            for s in graph.blocks[b].succs:
                old = block_in[s]
                new = dict(state) if old is None else {k: v for k, v in old.items() if state.get(k) == v}
                if s == 0:
                    new = {k: v for k, v in new.items() if entry.get(k) == v}
                if new != old:
                    block_in[s] = new
                    dirty.add(s)
                    changed = True
    return before


def _lds_form(facts: InstructionFacts) -> str:
    """The LDS instruction's form: its class without the ``ds.`` prefix (``read2``, ``write``, ``permute`` ...)."""
    return facts.klass.split(".", 1)[1] if facts.klass.startswith("ds.") else facts.klass


def _lds_address(ins: Instruction, form: str) -> RegOperand | None:
    """The address operand of an LDS instruction of ``form``: the first VGPR operand it does not write, or for a
    read (or an instruction whose first operand it writes) its second register operand."""
    address: RegOperand | None = None
    for op in ins.operands:
        if isinstance(op, RegOperand) and op.regs and op.regs[0].file is RegFile.VGPR and not op.mask & ins.defs:
            address = op
            break
    if form in ("read", "read2", "read2st64") or (ins.operands and isinstance(ins.operands[0], RegOperand)
                                                  and ins.operands[0].mask & ins.defs):
        regs = [op for op in ins.operands if isinstance(op, RegOperand)]
        address = regs[1] if len(regs) > 1 else None
    return address


#: LDS forms without a per-lane address pattern to describe
_UNADDRESSED = ("permute", "gws", "append", "param", "other")


def _lds_access(ins: Instruction, form: str, address: RegOperand | None, fact: tuple[int, str] | None,
                wave_size: int) -> LdsAccess:
    """The LDS access of ``ins``, of ``form`` (:func:`_lds_form`) at ``address`` (:func:`_lds_address`); ``fact``:
    the lane-affine fact of its address VGPR before it (None: unknown, or a form in :data:`_UNADDRESSED`, where
    :func:`stats` asks for none)."""
    size = _element_bytes(ins.mnemonic.removesuffix("_d16_hi").removesuffix("_d16"))
    if form in ("read2", "write2", "read2st64", "write2st64"):
        scale = size * (64 if form.endswith("st64") else 1)
        offsets: tuple[int, ...] = (_int_modifier(ins, "offset0") * scale, _int_modifier(ins, "offset1") * scale)
    else:
        offsets = (_int_modifier(ins, "offset"),)
    per_lane = size * len(offsets)
    stride = basis = degree = None
    if fact is not None:
        stride, basis = fact
        degree = _conflict_degree(stride, offsets, size)
    return LdsAccess(ins.index, ins.line, ins.mnemonic, form, size, offsets, per_lane, per_lane * wave_size,
                     address.text if address is not None else None, stride, basis, degree)


# ---------------------------------------------------------------------------------------------- driver

_FACTS, _MNEMONIC, _KLASS = attrgetter("facts"), attrgetter("mnemonic"), attrgetter("klass")
_DEFS_AT = Instruction._fields.index("defs")
_ROW_FACTS = attrgetter("klass", "size", "constants", "exact")


def stats(kernel: Kernel, graph: CFG, *, loop_weight: int = 10, packed_workitem_ids: bool = False,
          lists: bool = True) -> KernelStats:
    """Statistics of ``kernel`` from the facts on its instructions; ``lists=False`` leaves empty what a scan's
    row does not hold (scan.rows: the blocks, the class counts by loop depth and weighted, modifiers, literal
    values, LDS instructions by mnemonic and each LDS access; the LDS totals stay): about a third of the pass
    on librocsparse's gfx1030 code objects (docs/performance.md, twenty-first session)."""
    if loop_weight < 1:
        raise ValueError("the loop weight must be at least 1")
    facts = list(map(_FACTS, kernel.instructions))
    wave = kernel.wave_size
    wg = kernel.declared.workgroup_size
    # v0 is lane + (wave base) only when whole waves fit in a row of the workgroup; without a declared
    # size, v0-based addresses count as lane-linear under that stated assumption
    x_ok = wg is None or wg[0] % wave == 0
    # the LDS instructions: a ds_/lds_ mnemonic or a ds.* class, each asked once per distinct mnemonic and class
    # (a few hundred in 100k lines)
    mnemonics = list(map(_MNEMONIC, kernel.instructions))
    klasses = list(map(_KLASS, facts))
    ds_mnemonic = {m: bool(_DS_BASE.match(m)) for m in set(mnemonics)}
    ds_klass = {k: k.startswith("ds.") for k in set(klasses)}
    ds_at = list(compress(range(len(mnemonics)), map(or_, map(ds_mnemonic.__getitem__, mnemonics),
                                                         map(ds_klass.__getitem__, klasses))))  # in C
    # each LDS instruction's form and address, and the key asked at it: its address VGPR, when a single one in a
    # form with an address pattern (only those have a fact to use)
    asked: dict[int, int] = {}
    forms: list[tuple[str, RegOperand | None]] = []
    for i in ds_at:
        form = _lds_form(facts[i])
        address = _lds_address(kernel.instructions[i], form)
        forms.append((form, address))
        v = _single_vgpr(address) if address is not None and form not in _UNADDRESSED else None
        if v is not None:
            asked[i] = v
    affine = _lane_affine(kernel, graph, packed_workitem_ids, x_ok, asked)

    classes: Counter[str] = Counter()
    by_depth: dict[int, Counter[str]] = {}
    weighted: Counter[str] = Counter()
    modifiers: dict[str, Counter[str]] = {}
    constants: Counter[str] = Counter()
    literal_values: Counter[str] = Counter()
    lds: Counter[str] = Counter()
    accesses: list[LdsAccess] = []
    # instructions with the same text share one facts object: count each (facts, loop depth) pair once
    # in C, then add its figures that many times (100k instructions, ~12k pairs on the dense benchmark).
    # Pairs come in order of first occurrence, so every counter keeps the order of the first line that
    # adds a key, as a walk over the lines would (``most_common`` breaks ties by that order).
    code = 0
    if lists:
        by_id = dict(zip(map(id, facts), facts, strict=True))
        depth_of = graph.loop_depth
        depths = [depth_of[b] for b in graph.block_of] if graph.blocks else [0] * len(facts)
        for (fact_id, depth), n in Counter(zip(map(id, facts), depths, strict=True)).items():
            fact = by_id[fact_id]
            classes[fact.klass] += n
            at_depth = by_depth.get(depth)
            if at_depth is None:
                at_depth = by_depth[depth] = Counter()
            at_depth[fact.klass] += n
            weighted[fact.klass] += n * loop_weight ** depth
            code += n * fact.size
            for group, text in fact.modifiers:
                modifiers.setdefault(group, Counter())[text] += n
            for kind, count in _constant_counts(fact.constants).items():
                constants[kind] += n * count
            for literal in fact.literals:
                literal_values[literal] += n
        exact = all(f.exact for f in by_id.values())
    else:
        # what a row holds are sums over the facts' values: each distinct (class, size, constant kinds, exact)
        # counted once in C, in order of first occurrence as above (a scan's instructions rarely share a facts
        # object: 582,741 objects but 93,133 distinct values in the 24 gfx1030 code objects of
        # docs/performance.md)
        exact = True
        for (klass_, size_, kinds_, exact_), n in Counter(map(_ROW_FACTS, facts)).items():
            classes[klass_] += n
            code += n * size_
            for kind, count in _constant_counts(kinds_).items():
                constants[kind] += n * count
            exact = exact and exact_
    for i, (form, address) in zip(ds_at, forms, strict=True):
        ins = kernel.instructions[i]
        lds[ins.mnemonic] += 1
        accesses.append(_lds_access(ins, form, address, affine.get(i), wave))

    klass = klasses if lists else []
    size = [f.size for f in facts] if lists else []
    # a kernel's blocks repeat their sequences of classes: count each distinct one once, each block holding the
    # number of its count (its row made when read, with a copy of the count: BlockStatsRows)
    counted: dict[tuple[str, ...], int] = {}
    distinct: list[dict[str, int]] = []
    which = array("i")
    sizes = array("q")
    for block in graph.blocks if lists else ():
        seq = tuple(klass[block.start:block.end])
        at = counted.get(seq)
        if at is None:
            at = counted[seq] = len(distinct)
            distinct.append(dict(sorted(Counter(seq).items())))
        which.append(at)
        sizes.append(sum(size[block.start:block.end]))
    blocks = BlockStatsRows(graph.blocks if lists else (), graph.loop_depth, sizes, which, distinct)
    reads = [a for a in accesses if a.form.startswith("read")]
    writes = [a for a in accesses if a.form.startswith("write")]
    totals = {
        "instructions": len(accesses), "reads": len(reads), "writes": len(writes),
        "read_bytes_per_wave": sum(a.bytes_per_wave for a in reads),
        "write_bytes_per_wave": sum(a.bytes_per_wave for a in writes),
        "conflict_free": sum(1 for a in accesses if a.conflict_degree == 1),
        "conflicted": sum(1 for a in accesses if a.conflict_degree is not None and a.conflict_degree > 1),
        "unknown": sum(1 for a in accesses if a.conflict_degree is None),
    }
    return KernelStats(
        name=kernel.name, instructions=len(kernel.instructions), code_bytes=code,
        code_bytes_exact=exact, classes=dict(sorted(classes.items())),
        classes_by_loop_depth={d: dict(sorted(c.items())) for d, c in sorted(by_depth.items())},
        classes_weighted=dict(sorted(weighted.items())), loop_weight=loop_weight, blocks=blocks,
        modifiers={g: dict(sorted(c.items())) for g, c in sorted(modifiers.items())},
        constants=dict(sorted(constants.items())), literal_values=dict(literal_values.most_common()),
        lds=dict(sorted(lds.items())) if lists else {}, lds_accesses=tuple(accesses) if lists else (),
        lds_totals=totals,
        lines=StatsLines(kernel.instructions),
    )
