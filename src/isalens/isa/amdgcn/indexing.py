"""Registers addressed through an index: ``s_set_gpr_idx_on`` (gfx8/9 VGPR index mode) and the M0-relative
moves ``v_movrel*``/``s_movrel*``.

The register an indexed operand names is only the base: ``s_set_gpr_idx_on s2, gpr_idx(SRC0)`` followed
by ``v_mov_b32 v19, v1`` reads ``v[1 + s2]``. An indexed read therefore reads every register the index
may reach and an indexed write may write any of them (the others keep their values, so they stay live
through it: LLVM's MIR gives the same instructions the whole vector tuple as an implicit, tied operand).
The reach is bounded by what the code shows, the tightest of:

* the index register's bounds when a short chain of scalar instructions in the same block proves them
  (``s_and_b32 s2, s1, 15`` gives 0..15), or a compare and branch guards the block
  (``s_cmp_gt_u32 s3, 7`` + ``s_cbranch_scc1`` leaves 0..7 on the fall-through path);
* the vector the index moves within: LLVM's indirect moves work on a vector of at most 32 registers
  (``SIInstrInfo::getIndirectGPRIDXPseudo``: vectors up to 1024 bits) that the surrounding code writes
  and reads as a whole, so the reach ends where the run of same-shaped tuples (``global_load_dwordx4
  v[0:3]``, ``v[4:7]``...) that holds the base register ends (:func:`_vector_end`), and never more than
  31 registers above the base;
* the kernel's own highest VGPR: the compiler's register count covers every register the code may
  touch, so no register above it holds a value (and the peak of live registers stays within it).

Each such line gets a note naming the range and what bounded it: never a silent single-register read.

Facts: AMD "Vega ISA" reference guide, sections "VGPR Indexing" (S_SET_GPR_IDX_ON mode bits: SRC0 = 1,
SRC1 = 2, SRC2 = 4, DST = 8; the index is added to the operand's VGPR number) and "M0-relative moves"
(V_MOVRELS: VGPR[D] = VGPR[S + M0], V_MOVRELD: VGPR[D + M0] = S, V_MOVRELSD both); RDNA ISA guides for
the same moves on gfx10+ (no index mode there).
"""

from __future__ import annotations

from isalens import records
from isalens.ir.instruction import BranchKind, Instruction
from isalens.ir.operands import ImmOperand, OtherOperand, RegOperand
from isalens.ir.registers import Reg, RegFile, highest_register, special
from isalens.isa.amdgcn import semantics
from isalens.isa.amdgcn.mnemonics import without_size_suffix
from isalens.lazyre import LazyPattern

_MODE_BITS = {"SRC0": 1, "SRC1": 2, "SRC2": 4, "DST": 8}
_GPR_IDX = LazyPattern(r"gpr_idx\(([^)]*)\)")
#: operand kind -> index into the instruction's sources (DST is the first operand)
_SRC_OF_BIT = {1: 0, 2: 1, 4: 2}


def _mode(ins: Instruction) -> int:
    """The index-mode bits an ``s_set_gpr_idx_on``/``_mode`` sets."""
    mode = 0
    for op in ins.operands[1:] if ins.mnemonic == "s_set_gpr_idx_on" else ins.operands:
        if isinstance(op, OtherOperand):
            m = _GPR_IDX.fullmatch(op.text.strip())
            if m:
                for name in m.group(1).split(","):
                    mode |= _MODE_BITS.get(name.strip().upper(), 0)
        elif isinstance(op, ImmOperand) and isinstance(op.value, int):
            mode |= op.value & 0xF
    return mode


def _imm(op: object) -> int | None:
    return op.value if isinstance(op, ImmOperand) and isinstance(op.value, int) else None


def _name(op: object) -> str | None:
    if isinstance(op, RegOperand) and len(op.regs) == 1 and op.regs[0].count == 1:
        return op.text.strip()
    return None


def _bounds_after(ins: Instruction, known: dict[str, tuple[int, int]]) -> tuple[str, tuple[int, int] | None] | None:
    """(written scalar, its bounds or None) for a 32-bit scalar write, else None."""
    if not ins.operands or not ins.mnemonic.startswith("s_"):
        return None
    dst = _name(ins.operands[0])
    if dst is None:
        return None
    srcs = ins.operands[1:]
    base = without_size_suffix(ins.mnemonic)

    def of(op: object) -> tuple[int, int] | None:
        value = _imm(op)
        if value is not None:
            return (value, value)
        name = _name(op)
        return known.get(name) if name else None

    result: tuple[int, int] | None = None
    if base in ("s_mov_b32", "s_movk_i32") and len(srcs) == 1:
        result = of(srcs[0])
    elif base == "s_and_b32" and len(srcs) == 2:
        for a, b in ((srcs[0], srcs[1]), (srcs[1], srcs[0])):
            mask = _imm(a)
            if mask is not None and mask >= 0:
                other = of(b)
                hi = min(mask, other[1]) if other and other[0] >= 0 else mask
                result = (0, hi)
                break
    elif base in ("s_add_i32", "s_add_u32") and len(srcs) == 2:
        x, y = of(srcs[0]), of(srcs[1])
        if x and y:
            result = (x[0] + y[0], x[1] + y[1])
    elif base == "s_lshl_b32" and len(srcs) == 2:
        x, shift = of(srcs[0]), _imm(srcs[1])
        if x and shift is not None and x[0] >= 0:
            result = (x[0] << shift, x[1] << shift)
    return dst, result


#: the largest vector an indirect move works on, in registers (SIInstrInfo::getIndirectGPRIDXPseudo, LLVM 19:
#: ``V_INDIRECT_REG_READ_GPR_IDX_B32_V32`` for vectors up to 1024 bits)
MAX_VECTOR = 32

#: SCC-setting compares of a scalar with a constant: mnemonic -> (relation, unsigned)
_COMPARES = {"s_cmp_lt_u32": "<", "s_cmp_le_u32": "<=", "s_cmp_gt_u32": ">", "s_cmp_ge_u32": ">="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


@records.dataclass(frozen=True, slots=True)
class Limits:
    """How many registers of each file the target can address."""

    vgprs: int
    sgprs: int


@records.dataclass(frozen=True, slots=True)
class _Reach:
    """What bounds an indexed operand: the index's bounds, the end of the vector holding the base register
    (None when the code does not show one), and the highest register of the file the kernel uses."""

    bounds: tuple[int, int] | None
    vector_end: int | None
    top: int


def _reach(op: RegOperand, reach: _Reach, limits: Limits) -> tuple[Reg, str] | None:
    """The registers ``op`` may name through the index, and what bounded them."""
    if len(op.regs) != 1 or op.regs[0].file not in (RegFile.VGPR, RegFile.SGPR):
        return None
    reg = op.regs[0]
    file_top = (limits.vgprs if reg.file is RegFile.VGPR else limits.sgprs) - 1
    ends: list[tuple[int, str]] = []  # in order of preference where two bounds agree
    lo = 0
    if reach.bounds is not None and reach.bounds[0] >= 0:
        lo = reach.bounds[0]
        ends.append((reg.index + reach.bounds[1] + reg.count - 1, "the index's bounds"))
    ends.append((file_top, "the end of the register file"))
    if reg.file is RegFile.VGPR:
        ends.append((reg.index + MAX_VECTOR - 1, f"at most {MAX_VECTOR} registers from the base"))
        ends.append((max(reach.top, reg.index + reg.count - 1), f"the kernel's highest VGPR v{reach.top}"))
        if reach.vector_end is not None and reach.vector_end >= reg.index:
            ends.append((reach.vector_end, f"the vector it moves within ends at v{reach.vector_end}"))
    last, why = min(ends, key=lambda e: e[0])
    first = min(reg.index + lo, last)
    return Reg(reg.file, first, last - first + 1), why


def _describe(index_name: str, bounds: tuple[int, int] | None, why: str) -> str:
    if bounds is None or bounds[0] < 0:
        return f"index {index_name} unknown; bounded by {why}"
    if why == "the index's bounds":
        return f"index {index_name} in [{bounds[0]}, {bounds[1]}]"
    return f"index {index_name} in [{bounds[0]}, {bounds[1]}]; bounded by {why}"


def _tuples(instructions: list[Instruction]) -> dict[int, list[tuple[str, int, int]]]:
    """VGPR tuples (2+ registers) the code writes or reads whole: first register -> (shape, first, last)
    where the shape is the instruction's mnemonic and the tuple's width."""
    out: dict[int, list[tuple[str, int, int]]] = {}
    for ins in instructions:
        for op in ins.operands:
            if isinstance(op, RegOperand) and len(op.regs) == 1:
                reg = op.regs[0]
                if reg.file is RegFile.VGPR and reg.count >= 2:
                    out.setdefault(reg.index, []).append((f"{ins.mnemonic}/{reg.count}", reg.index,
                                                          reg.index + reg.count - 1))
    return out


def _vector_end(tuples: dict[int, list[tuple[str, int, int]]], base: int) -> int | None:
    """The last register of the vector that holds ``base``: the widest tuple covering ``base``, extended by
    tuples of the same shape (same instruction, same width) that start where the previous one ends, as the
    loads and stores of a vector do (``global_load_dwordx4 v[0:3]``, ``v[4:7]``...). None when no tuple
    covers ``base``."""
    covering = [t for ts in tuples.values() for t in ts if t[1] <= base <= t[2]]
    if not covering:
        return None
    end = max(t[2] for t in covering)
    shapes = {t[0] for t in covering if t[2] == end}
    while True:
        nxt = [t for t in tuples.get(end + 1, []) if t[0] in shapes]
        if not nxt:
            return end
        end = max(t[2] for t in nxt)


def _guarded_bounds(instructions: list[Instruction], k: int) -> tuple[str, tuple[int, int], int] | None:
    """Bounds a compare and a branch on SCC give a scalar on the fall-through path after branch ``k``:
    ``s_cmp_gt_u32 s3, 7`` + ``s_cbranch_scc1`` leaves s3 in [0, 7]. Returns (scalar, bounds, its units)."""
    branch = instructions[k]
    taken_if = {"s_cbranch_scc1": True, "s_cbranch_scc0": False}.get(branch.mnemonic)
    if taken_if is None:
        return None
    for j in range(k - 1, max(k - 8, -1), -1):
        ins = instructions[j]
        relation = _COMPARES.get(ins.mnemonic)
        if relation is None:
            if ins.defs & _SCC or ins.branch is not BranchKind.NONE:
                return None
            continue
        name, value = (_name(ins.operands[0]), _imm(ins.operands[1])) if len(ins.operands) == 2 else (None, None)
        if name is None or value is None or value < 0:
            return None
        mask = _mask_of(ins.operands[0])
        if any(later.defs & mask for later in instructions[j + 1:k]):
            return None
        holds = _NEGATED[relation] if taken_if else relation  # what the fall-through path knows
        if holds == "<" and value > 0:
            return name, (0, value - 1), mask
        if holds == "<=":
            return name, (0, value), mask
        return None
    return None


def _mask_of(op: object) -> int:
    return op.mask if isinstance(op, RegOperand) else 0


_SCC = special("scc").mask()


#: (mnemonic, generation) -> the semantics table's ``indexed`` field: asked for every kernel, and a library has
#: thousands of kernels over the same few hundred mnemonics
_INDEXED: dict[tuple[str, int], str | None] = {}


def _indexed_kind(mnemonic: str, generation: int) -> str | None:
    key = (mnemonic, generation)
    if key not in _INDEXED:
        _INDEXED[key] = semantics.indexed_kind(mnemonic, generation)
    return _INDEXED[key]


def apply_indexing(instructions: list[Instruction], generation: int, limits: Limits, block_starts: set[int]
                   ) -> list[tuple[int, str]]:
    """Widen indexed operands in ``instructions`` (replaced in place); return (index, note) per line.

    The semantics table's ``indexed`` field says how each M0-relative move uses its index: ``src``
    (reads through it), ``dst`` (writes through it), ``both`` or ``swap``. Index bounds are only
    trusted within a block (``block_starts``: labelled instructions).
    """
    kinds = {m: _indexed_kind(m, generation) for m in {ins.mnemonic for ins in instructions}}
    if not any(kinds.values()) and "s_set_gpr_idx_on" not in kinds and "s_set_gpr_idx_idx" not in kinds:
        return []  # nothing indexed: the common case costs one pass over the mnemonics
    indexed_kind = {ins.index: kind for ins in instructions if (kind := kinds[ins.mnemonic]) is not None}
    notes: list[tuple[int, str]] = []
    known: dict[str, tuple[int, int]] = {}
    masks: dict[str, int] = {}
    mode = 0
    index_name = ""
    index_bounds: tuple[int, int] | None = None
    referenced = 0
    for ins in instructions:
        referenced |= ins.referenced
    top = highest_register(referenced, RegFile.VGPR)
    tuples = _tuples(instructions)
    for k, ins in enumerate(instructions):
        if k == 0 or k in block_starts or instructions[k - 1].branch is not BranchKind.NONE:
            known = {}
            # a block entered only by falling through a compare-and-branch knows the compared bounds
            guard = _guarded_bounds(instructions, k - 1) if k and k not in block_starts else None
            if guard is not None:
                known[guard[0]], masks[guard[0]] = guard[1], guard[2]
        base = ins.mnemonic
        if base == "s_set_gpr_idx_on":
            mode = _mode(ins)
            index_name = _name(ins.operands[0]) or ins.operands[0].text if ins.operands else "?"
            index_bounds = known.get(index_name)
        elif base == "s_set_gpr_idx_idx":
            index_name = _name(ins.operands[0]) or "?" if ins.operands else "?"
            index_bounds = known.get(index_name)
        elif base == "s_set_gpr_idx_mode":
            mode = _mode(ins)
        elif base == "s_set_gpr_idx_off":
            mode = 0
        elif mode and base.startswith("v_"):
            instructions[k], note, why = _widen_gpr_idx(ins, mode, _Reach(index_bounds, None, top), tuples, limits)
            if note:
                notes.append((k, f"{note} ({_describe(index_name, index_bounds, why)})"))
        elif k in indexed_kind:
            m0 = known.get("m0")
            instructions[k], note, why = _widen_movrel(ins, indexed_kind[k], _Reach(m0, None, top), tuples, limits)
            if note:
                notes.append((k, f"{note} ({_describe('m0', m0, why)})"))
        # forget the bounds of every scalar this instruction writes, then learn the one it computes
        if ins.defs:
            known = {n: b for n, b in known.items() if not masks[n] & ins.defs}
        written = _bounds_after(ins, known)
        if written is not None and written[1] is not None:
            known[written[0]] = written[1]
            masks[written[0]] = ins.operands[0].mask if isinstance(ins.operands[0], RegOperand) else 0
    return notes


def _widen(ins: Instruction, op: RegOperand, reach: Reg, write: bool) -> tuple[int, int]:
    defs, uses = ins.defs, ins.uses
    mask = reach.mask()
    if write:
        # one register of the range is written, which one is unknown: the others keep their values
        defs = (defs & ~op.mask) | mask
        uses |= mask
    else:
        uses |= mask
    return defs, uses


def _reach_of(op: RegOperand, reach: _Reach, tuples: dict[int, list[tuple[str, int, int]]], limits: Limits
              ) -> tuple[Reg, str] | None:
    base = op.regs[0].index if len(op.regs) == 1 and op.regs[0].file is RegFile.VGPR else None
    vector_end = _vector_end(tuples, base) if base is not None else None
    return _reach(op, records.replace(reach, vector_end=vector_end), limits)


def _widen_gpr_idx(ins: Instruction, mode: int, reach: _Reach, tuples: dict[int, list[tuple[str, int, int]]],
                   limits: Limits) -> tuple[Instruction, str, str]:
    regs = [(i, op) for i, op in enumerate(ins.operands) if isinstance(op, RegOperand)]
    if not regs:
        return ins, "", ""
    defs, uses = ins.defs, ins.uses
    parts: list[str] = []
    # DST is the first operand; sources are the operands after the destination(s) the instruction writes
    first_src = 1
    while first_src < len(ins.operands) and _is_written(ins, ins.operands[first_src]):
        first_src += 1
    targets: list[tuple[RegOperand, bool]] = []
    if mode & 8 and isinstance(ins.operands[0], RegOperand) and ins.operands[0].mask & ins.defs:
        targets.append((ins.operands[0], True))
    for bit, src in _SRC_OF_BIT.items():
        pos = first_src + src
        if mode & bit and pos < len(ins.operands):
            op = ins.operands[pos]
            if isinstance(op, RegOperand):
                targets.append((op, False))
    whys: list[str] = []
    for op, write in targets:
        found = _reach_of(op, reach, tuples, limits)
        if found is None or found[0].file is not RegFile.VGPR:
            continue
        regs_reached, why = found
        d, u = _widen(ins._replace(defs=defs, uses=uses), op, regs_reached, write)
        defs, uses = d, u
        whys.append(why)
        parts.append(f"{'writes one of' if write else 'reads'} {regs_reached} through gpr_idx, not {op.text}")
    if not parts:
        return ins, "", ""
    return ins._replace(defs=defs, uses=uses), "; ".join(parts), whys[0]


def _is_written(ins: Instruction, op: object) -> bool:
    return isinstance(op, RegOperand) and bool(op.mask & ins.defs) and not op.mask & ins.uses


def _widen_movrel(ins: Instruction, kind: str, reach: _Reach, tuples: dict[int, list[tuple[str, int, int]]],
                  limits: Limits) -> tuple[Instruction, str, str]:
    ops = [op for op in ins.operands if isinstance(op, RegOperand)]
    if not ops:
        return ins, "", ""
    defs, uses = ins.defs, ins.uses
    parts: list[str] = []
    dst = ops[0]
    src = ops[1] if len(ops) > 1 and isinstance(ins.operands[1], RegOperand) else None
    plan: list[tuple[RegOperand, bool]] = []
    if kind in ("dst", "both", "swap"):
        plan.append((dst, True))
    if src is not None and kind in ("src", "both", "swap"):
        plan.append((src, kind == "swap"))
    whys: list[str] = []
    for op, write in plan:
        found = _reach_of(op, reach, tuples, limits)
        if found is None:
            continue
        regs_reached, why = found
        whys.append(why)
        defs, uses = _widen(ins._replace(defs=defs, uses=uses), op, regs_reached, write)
        if write and kind == "swap":
            parts.append(f"swaps one of {regs_reached} through m0")
        else:
            parts.append(f"{'writes one of' if write else 'reads'} {regs_reached} through m0, not {op.text}")
    if not parts:
        return ins, "", ""
    return ins._replace(defs=defs, uses=uses), "; ".join(parts), whys[0]
