"""Read LLVM's post-RA block live-ins from MIR and locate the same blocks in llc's assembly.

The oracle compares isalens's liveness with LLVM's at each machine basic block entry. LLVM's
view comes from ``llc -stop-after=branch-relaxation`` MIR (see ``corpus.STOP_AFTER``), whose
``bb.N`` numbers equal the ``; %bb.N:`` / ``.LBB<f>_N:`` numbers of the ``.s`` that llc writes
with the same options.

Registers are reported as units ``(file, index, half)``:

* ``"v"``/``"a"`` (VGPR/AGPR) are tracked per 16-bit half: half 0 is bits 0-15, half 1 bits
  16-31, so ``$vgpr5`` is ``{("v", 5, 0), ("v", 5, 1)}`` and ``$vgpr5_hi16`` is
  ``{("v", 5, 1)}``.
* ``"s"`` (SGPR), ``"ttmp"`` (trap temporaries; gfx12 keeps workgroup ids in them) and the
  specials use 32-bit granularity, half always 0. Specials with two 32-bit halves use the
  index for the half: ``vcc``/``exec``/``flat_scratch``/``xnack_mask``/``tba``/``tma`` with
  index 0 (``_lo``) and 1 (``_hi``); ``scc``, ``m0`` and ``mode`` have only index 0.
* ``$sgpr_null``/``$sgpr_null64`` and the read-only ``$src_*`` registers hold no value that
  can be live, so they map to the empty set on purpose. Any other name raises ``ValueError``.

A live-in may carry a lane mask (``$vgpr2_vgpr3:0x000000000000000C``). LLVM gives each 32-bit
part ``k`` of a register two lane bits; measured with llc 19 on MIR with only one 16-bit half
live (sub0.hi16 -> 0x1, sub0.lo16 -> 0x2, sub1.hi16 -> 0x4, sub1.lo16 -> 0x8), bit ``2k`` is
the *high* half and bit ``2k+1`` the *low* half of part ``k``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MirBlock", "MirInstruction", "MirOperand", "Unit", "asm_block_markers", "asm_block_starts",
           "mir_block_instructions", "mir_block_livein_items", "mir_block_liveins", "mir_live_after",
           "mir_read_live_after", "mir_read_live_ins",
           "mir_register_units", "mir_reserved_registers", "without_tuple_implicits"]

Unit = tuple[str, int, int]

# 32-bit pieces that make up a tuple spelling such as vgpr4_vgpr5 or ttmp4_ttmp5_ttmp6_ttmp7.
_PIECE = re.compile(r"(vgpr|agpr|sgpr|ttmp)(\d+)")
_TUPLE = re.compile(r"(?:(?:vgpr|agpr|sgpr|ttmp)\d+)(?:_(?:vgpr|agpr|sgpr|ttmp)\d+)*")
_FILE = {"vgpr": "v", "agpr": "a", "sgpr": "s", "ttmp": "ttmp"}
_SPLIT_16 = frozenset({"v", "a"})

# Specials made of two 32-bit halves (name -> unit file) and 32-bit ones.
_PAIRS = {
    "vcc": "vcc",
    "exec": "exec",
    "flat_scr": "flat_scratch",
    "xnack_mask": "xnack_mask",
    "tba": "tba",
    "tma": "tma",
}
_SINGLES = {"scc": "scc", "m0": "m0", "mode": "mode"}
# No storage that can be live: writes are discarded or the value is a hardware constant.
_NO_UNITS = re.compile(r"sgpr_null(?:64)?|src_[a-z_]+")

_FUNC_NAME = re.compile(r"^name:\s*(?P<name>'[^']*'|\"[^\"]*\"|\S+)\s*$")
_BLOCK = re.compile(r"^\s+bb\.(?P<num>\d+)\b.*:\s*$")
_LIVEINS = re.compile(r"^\s+liveins:(?P<rest>.*)$")
_LIVEIN_ITEM = re.compile(r"\$(?P<reg>[A-Za-z0-9_]+)(?::(?P<mask>0x[0-9A-Fa-f]+))?")

_ASM_FUNC_TYPE = re.compile(r"^\s*\.type\s+(?P<name>[^,\s]+)\s*,\s*@function")
_ASM_LABEL = re.compile(r"^(?P<label>[^\s:;]+):")
_ASM_BB_COMMENT = re.compile(r"^;\s*%bb\.(?P<num>\d+):")
_ASM_LBB = re.compile(r"^\.LBB(?P<func>\d+)_(?P<num>\d+):")
_ASM_FUNC_END = re.compile(r"^\.Lfunc_end\d+:")


def _parts(name: str) -> list[tuple[str, int]] | None:
    """(file, index) of each 32-bit part of a GPR/TTMP spelling, or None if not one."""
    if not _TUPLE.fullmatch(name):
        return None
    parts = [(_FILE[kind], int(num)) for kind, num in _PIECE.findall(name)]
    files = {f for f, _ in parts}
    indices = [i for _, i in parts]
    if len(files) != 1 or indices != list(range(indices[0], indices[0] + len(indices))):
        raise ValueError(f"malformed register tuple ${name}")
    return parts


def _special_parts(name: str) -> list[tuple[str, int]] | None:
    if name in _SINGLES:
        return [(_SINGLES[name], 0)]
    if name in _PAIRS:
        return [(_PAIRS[name], 0), (_PAIRS[name], 1)]
    for base, file in _PAIRS.items():
        if name == f"{base}_lo":
            return [(file, 0)]
        if name == f"{base}_hi":
            return [(file, 1)]
    return None


def mir_register_units(reg: str, lane_mask: int | None = None) -> frozenset[Unit]:
    """Units of one MIR physical register (``$`` optional), restricted to ``lane_mask`` if given.

    Raises ``ValueError`` for names this module does not know, so nothing is dropped silently.
    """
    name = reg.removeprefix("$")
    if _NO_UNITS.fullmatch(name):
        return frozenset()
    half: int | None = None
    base = name
    if name.endswith(("_lo16", "_hi16")):
        base, half = name[:-5], (0 if name.endswith("_lo16") else 1)
    parts = _parts(base)
    if parts is None:
        parts = _special_parts(base)
    if parts is None or (half is not None and len(parts) != 1):
        raise ValueError(f"unknown MIR register ${name}")
    units: set[Unit] = set()
    for k, (file, index) in enumerate(parts):
        halves = {0, 1} if half is None else {half}
        if lane_mask is not None:
            # Lane bit 2k is the high 16 bits of part k, bit 2k+1 the low 16 bits.
            halves &= {h for h, bit in ((1, 2 * k), (0, 2 * k + 1)) if lane_mask >> bit & 1}
        if not halves:
            continue
        if file in _SPLIT_16:
            units.update((file, index, h) for h in halves)
        else:
            units.add((file, index, 0))
    return frozenset(units)


def _parse_livein_items(text: str) -> tuple[frozenset[Unit], ...]:
    """The units of each item of a ``liveins:`` list, in order."""
    items: list[frozenset[Unit]] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        m = _LIVEIN_ITEM.fullmatch(item)
        if m is None:
            raise ValueError(f"cannot parse live-in {item!r}")
        mask = int(m["mask"], 16) if m["mask"] else None
        items.append(mir_register_units(m["reg"], mask))
    return tuple(items)


_RESERVED_FIELD = re.compile(
    r"^\s+(?P<field>scratchRSrcReg|stackPtrOffsetReg|frameOffsetReg):\s*'\$(?P<reg>[A-Za-z0-9_]+)'")


def mir_reserved_registers(mir_text: str) -> dict[str, frozenset[Unit]]:
    """Function name -> the registers its ``machineFunctionInfo`` names as the scratch resource
    descriptor, stack pointer and frame pointer.

    LLVM reserves these (``SIRegisterInfo::getReservedRegs`` reserves ``getScratchRSrcReg()`` "in case
    we need to spill", and the SP/FP registers), and reserved registers are outside its liveness: the
    MIR lists them live-in, or not, without regard to their reads. Placeholders such as
    ``$private_rsrc_reg`` or ``$fp_reg`` mean the function has none.
    """
    result: dict[str, frozenset[Unit]] = {}
    func: str | None = None
    for line in mir_text.splitlines():
        m = _FUNC_NAME.match(line)
        if m is not None:
            func = m["name"].strip("'\"")
            result.setdefault(func, frozenset())
            continue
        m = _RESERVED_FIELD.match(line)
        if m is not None and func is not None and _parts(m["reg"]) is not None:
            result[func] = result[func] | mir_register_units(m["reg"])
    return result


def mir_block_liveins(mir_text: str) -> dict[str, dict[int, frozenset[Unit]]]:
    """Function name -> MIR block number -> units live on entry (empty for blocks with none)."""
    return {func: {n: frozenset().union(*items) for n, items in blocks.items()}
            for func, blocks in mir_block_livein_items(mir_text).items()}


def mir_block_livein_items(mir_text: str) -> dict[str, dict[int, tuple[frozenset[Unit], ...]]]:
    """Function name -> MIR block number -> the units of each item its ``liveins:`` list names, in order
    (``$sgpr0_sgpr1_sgpr2`` is one item of three registers, ``$vgpr2_vgpr3:0xC`` one of v3 alone)."""
    result: dict[str, dict[int, tuple[frozenset[Unit], ...]]] = {}
    func: str | None = None
    blocks: dict[int, tuple[frozenset[Unit], ...]] = {}
    in_body = False
    block: int | None = None
    pending: list[str] | None = None  # live-in text of a list that continues on the next line

    def flush_pending() -> None:
        nonlocal pending
        if pending is not None and block is not None:
            blocks[block] = _parse_livein_items(" ".join(pending))
        pending = None

    for line in mir_text.splitlines():
        if pending is not None:
            # The printer writes one line; a list that ends in a comma continues below.
            if pending[-1].rstrip().endswith(","):
                pending.append(line.strip())
                continue
            flush_pending()
        if not line.strip():
            continue
        if line.startswith("---") or line.startswith("..."):
            in_body = False
            block = None
            continue
        if not line.startswith(" "):
            m = _FUNC_NAME.match(line)
            if m is not None:
                func = m["name"].strip("'\"")
                blocks = result.setdefault(func, {})
                in_body = False
            elif line.startswith("body:"):
                in_body = func is not None
            else:
                in_body = False
            continue
        if not in_body:
            continue
        m = _BLOCK.match(line)
        if m is not None:
            block = int(m["num"])
            blocks.setdefault(block, ())
            continue
        m = _LIVEINS.match(line)
        if m is not None and block is not None:
            pending = [m["rest"].strip()]
    flush_pending()
    return result


def asm_block_starts(asm_text: str) -> dict[str, dict[int, int]]:
    """Function name -> MIR block number -> 1-based line of its ``; %bb.N:`` or ``.LBB<f>_N:``."""
    result: dict[str, dict[int, int]] = {}
    functions: set[str] = set()
    current: dict[int, int] | None = None
    for lineno, line in enumerate(asm_text.splitlines(), start=1):
        m = _ASM_FUNC_TYPE.match(line)
        if m is not None:
            functions.add(m["name"])
            continue
        m = _ASM_BB_COMMENT.match(line) or _ASM_LBB.match(line)
        if m is not None:
            if current is None:
                raise ValueError(f"line {lineno}: basic block outside a function")
            current.setdefault(int(m["num"]), lineno)
            continue
        if _ASM_FUNC_END.match(line):
            current = None
            continue
        m = _ASM_LABEL.match(line)
        if m is not None and m["label"] in functions:
            current = result.setdefault(m["label"], {})
    return result


_ASM_IMPLICIT_DEF = re.compile(r"^\s*;\s*implicit-def:\s*(?P<regs>.*)$")
_ASM_INSTRUCTION = re.compile(r"^\s+[a-z_][a-z0-9_.]*(?:\s|$)")


def asm_block_markers(asm_text: str) -> dict[str, dict[int, frozenset[Unit]]]:
    """Function name -> MIR block number -> the units the ``; implicit-def:`` markers define between the
    block's label and the next instruction.

    An ``IMPLICIT_DEF`` emits no code, so a block holding nothing else (``; %bb.8:`` / ``; implicit-def:
    $vgpr5`` / ``; %bb.9:``) starts at the same instruction as the next one; at its entry, above the
    markers, the registers they define are not live (a def ends liveness).
    """
    result: dict[str, dict[int, frozenset[Unit]]] = {}
    open_blocks: list[tuple[dict[int, frozenset[Unit]], int]] = []  # labels not yet followed by an instruction
    starts = asm_block_starts(asm_text)
    by_line = {line: (func, num) for func, blocks in starts.items() for num, line in blocks.items()}
    for lineno, line in enumerate(asm_text.splitlines(), start=1):
        hit = by_line.get(lineno)
        if hit is not None:
            func, num = hit
            blocks = result.setdefault(func, {})
            blocks[num] = frozenset()
            open_blocks.append((blocks, num))
            continue
        m = _ASM_IMPLICIT_DEF.match(line)
        if m is not None and open_blocks:
            units: set[Unit] = set()
            # "; implicit-def: $vgpr2 : SGPR spill to VGPR lane" names the purpose after " : "
            for name in re.split(r"[\s,]+", m["regs"].split(" : ")[0].strip()):
                if name:
                    units |= mir_register_units(name)
            for blocks, num in open_blocks:
                blocks[num] = blocks[num] | units
            continue
        if _ASM_INSTRUCTION.match(line) and not line.lstrip().startswith("."):
            open_blocks = []
    return result


# ----------------------------------------------------------------------------- instructions and flags

#: MIR opcodes the asm printer emits nothing for (pseudo instructions, debug and scheduling markers)
NOT_EMITTED = frozenset({
    "IMPLICIT_DEF", "KILL", "BUNDLE", "DBG_VALUE", "DBG_VALUE_LIST", "DBG_LABEL", "DBG_PHI",
    "CFI_INSTRUCTION", "EH_LABEL", "SCHED_BARRIER", "WAVE_BARRIER", "ATOMIC_FENCE", "SI_MASKED_UNREACHABLE",
    "MEMBARRIER", "PSEUDO_PROBE", "LIFETIME_START", "LIFETIME_END",
})
_FLAG_WORDS = ("implicit-def", "implicit", "killed", "dead", "undef", "renamable", "internal", "early-clobber",
               "def", "debug-use")
_FLAG_ALTERNATIVES = "|".join(re.escape(w) for w in _FLAG_WORDS)
_OPERAND_REG = re.compile(rf"^(?P<flags>(?:(?:{_FLAG_ALTERNATIVES})\s+)*)\$(?P<reg>[A-Za-z0-9_]+)")
_SUCCESSOR = re.compile(r"%bb\.(\d+)")
_OPCODE = re.compile(r"^(?:(?:nofpexcept|nuw|nsw|exact|frame-setup|frame-destroy|nnan|ninf|nsz|arcp|"
                     r"contract|afn|reassoc|disjoint|nneg)\s+)*(?P<op>[A-Z][A-Z0-9_a-z]*)")


@dataclass(frozen=True, slots=True)
class MirOperand:
    """A register operand with LLVM's flags after register allocation."""

    reg: str
    units: frozenset[Unit]
    is_def: bool
    killed: bool = False
    dead: bool = False
    undef: bool = False
    implicit: bool = False


@dataclass(frozen=True, slots=True)
class MirInstruction:
    opcode: str
    operands: tuple[MirOperand, ...]
    bundled: bool = False
    #: blocks a branch goes to (``%bb.N`` operands)
    targets: tuple[int, ...] = ()


def _split_top(text: str) -> list[str]:
    """Split at commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _operand(item: str, is_def: bool) -> MirOperand | None:
    m = _OPERAND_REG.match(item)
    if m is None:
        return None
    flags = m["flags"].split()
    reg = m["reg"]
    try:
        units = mir_register_units(reg)
    except ValueError:
        return None  # a special this oracle does not compare (mode, src_*): never a GPR
    return MirOperand(reg, units, is_def or "implicit-def" in flags or "def" in flags, "killed" in flags,
                      "dead" in flags, "undef" in flags, "implicit" in flags or "implicit-def" in flags)


def parse_mir_instruction(line: str, bundled: bool = False) -> MirInstruction | None:
    """One MIR instruction line (``[defs =] [flags] OPCODE operands [:: memory]``), or None."""
    text = line.strip().rstrip("{").strip()
    text = text.split(" :: ", 1)[0]
    text = re.sub(r"\s*debug-location\s+!\d+", "", text)
    defs_text, uses_text = "", text
    if " = " in text:
        head, rest = text.split(" = ", 1)
        if "$" in head or head.startswith(("dead", "renamable", "early-clobber", "undef")):
            defs_text, uses_text = head, rest
    m = _OPCODE.match(uses_text)
    if m is None:
        return None
    opcode = m["op"]
    operands: list[MirOperand] = []
    for item in _split_top(defs_text):
        op = _operand(item, True)
        if op is not None:
            operands.append(op)
    for item in _split_top(uses_text[m.end():]):
        op = _operand(item, False)
        if op is not None:
            operands.append(op)
    targets = tuple(int(n) for n in _SUCCESSOR.findall(uses_text)) if "BRANCH" in opcode else ()
    return MirInstruction(opcode, tuple(operands), bundled, targets)


@dataclass(slots=True)
class MirBlock:
    """A machine basic block: its successors and instructions in order."""

    successors: list[int]
    instructions: list[MirInstruction]


def mir_block_instructions(mir_text: str) -> dict[str, dict[int, MirBlock]]:
    """Function name -> MIR block number -> its successors and instructions (bundle members included, the
    ``BUNDLE`` header dropped; opcodes in :data:`NOT_EMITTED` kept, callers filter them)."""
    result: dict[str, dict[int, MirBlock]] = {}
    func: str | None = None
    in_body = False
    block: int | None = None
    bundled = False
    for line in mir_text.splitlines():
        if not line.strip():
            continue
        if line.startswith(("---", "...")):
            in_body, block = False, None
            continue
        if not line.startswith(" "):
            m = _FUNC_NAME.match(line)
            if m is not None:
                func = m["name"].strip("'\"")
                result.setdefault(func, {})
                in_body = False
            elif line.startswith("body:"):
                in_body = func is not None
            else:
                in_body = False
            continue
        if not in_body or func is None:
            continue
        m = _BLOCK.match(line)
        if m is not None:
            block = int(m["num"])
            result[func].setdefault(block, MirBlock([], []))
            continue
        stripped = line.strip()
        if block is not None and stripped.startswith("successors:"):
            result[func][block].successors.extend(int(n) for n in _SUCCESSOR.findall(stripped))
            continue
        if block is None or not stripped or stripped.startswith(("liveins:", ";")):
            continue
        if stripped == "}":
            bundled = False
            continue
        if stripped.startswith("BUNDLE"):
            bundled = stripped.endswith("{")
            continue
        ins = parse_mir_instruction(stripped, bundled)
        if ins is not None:
            result[func][block].instructions.append(ins)
    return result


def mir_live_after(block: MirBlock, live_in: dict[int, frozenset[Unit]],
                   block_live_in: frozenset[Unit] | None = None) -> list[frozenset[Unit]]:
    """LLVM's own liveness after each instruction of ``block``, given every block's live-ins.

    Backwards from the block's end (an unconditional ``S_BRANCH`` leads only to its target, otherwise
    the union of the successors' live-ins); a conditional branch adds its target's live-ins where it
    stands; a def ends a unit's liveness and a use that is not ``undef`` starts it, implicit operands
    included, so LLVM's ``killed``/``dead`` flags follow from the same operands.

    With ``block_live_in`` (this block's own live-ins) a unit is live only where it is also *available*,
    as LLVM's MachineVerifier defines it: live into the block or written earlier in it. The verifier
    accepts a read of a register tuple when any sub-register is available ("We are fine if just any
    subregister has a defined value", ``MachineVerifier::checkLiveness``), and LLVM's own block live-ins
    (computed per lane) leave the other sub-registers out: a ``V_PK_FMA_F32 ... $vgpr98_vgpr99`` whose
    ``vgpr99`` no instruction ever writes reads ``vgpr99`` without an ``undef`` flag, yet no block lists it.
    Without this, the backward pass alone would call such a sub-register live up to the block's start,
    contradicting the block's live-ins.

    A pseudo that LLVM expands after allocation into one move per register (``S_MOV_B64`` into two
    ``S_MOV_B32``) leaves an ``implicit-def`` of the whole tuple on every move. Only the first move of
    such a group (later moves each write a register of the tuple not yet written) ends the tuple's
    liveness; the later ones end only the register they write, so the half the first move wrote stays
    live across them, as the instructions do.
    """
    last = block.instructions[-1] if block.instructions else None
    ends = last.targets if last is not None and last.opcode == "S_BRANCH" else tuple(block.successors)
    live: set[Unit] = set()
    for s in ends:
        live |= live_in.get(s, frozenset())
    after: list[frozenset[Unit]] = []
    # a pseudo expanded after allocation into one move per register of a tuple (S_MOV_B64 -> two
    # S_MOV_B32, which the scheduler may then separate) gives every move an ``implicit-def`` of the whole
    # tuple; only the first starts it. On the later moves, each writing a register of the tuple not yet
    # written, the tuple's other registers keep the values the earlier moves wrote.
    continued: dict[int, set[frozenset[Unit]]] = {}
    groups: dict[frozenset[Unit], frozenset[Unit]] = {}  # tuple -> registers its moves have written so far
    for ins in block.instructions:
        explicit = frozenset().union(*(op.units for op in ins.operands if op.is_def and not op.implicit))
        for op in ins.operands:
            if not (op.is_def and op.implicit and len(op.units) > 1):
                continue
            done = groups.get(op.units)
            if done is not None and explicit and explicit < op.units and not explicit & done:
                continued.setdefault(id(ins), set()).add(op.units)
                groups[op.units] = done | explicit
            else:
                groups[op.units] = explicit
    for ins in reversed(block.instructions):
        if ins.opcode != "S_BRANCH":
            for t in ins.targets:
                live |= live_in.get(t, frozenset())
        after.append(frozenset(live))
        for op in ins.operands:
            if op.is_def and not (op.implicit and op.units in continued.get(id(ins), ())):
                live -= op.units
        for op in ins.operands:
            if not op.is_def and not op.undef:
                live |= op.units
    after.reverse()
    if block_live_in is not None:
        available = set(block_live_in)
        for k, ins in enumerate(block.instructions):
            for op in ins.operands:
                if op.is_def:
                    available |= op.units
            after[k] = after[k] & available
    return after


def _registers_of(units: frozenset[Unit]) -> set[tuple[str, int]]:
    return {(u[0], u[1]) for u in units}


def without_tuple_implicits(ins: MirInstruction) -> MirInstruction:
    """``ins`` without the implicit operands naming a whole register tuple of which an explicit operand
    names one register: LLVM adds them to the per-register moves it expands a tuple copy, spill or reload
    into after allocation (``V_WRITELANE_B32 killed $sgpr0, 13, ..., implicit-def $sgpr0_..._sgpr15,
    implicit $sgpr0_..._sgpr15``, then ``V_WRITELANE_B32 killed $sgpr15, 28, ..., implicit
    $sgpr0_..._sgpr15``), so the tuple stays live across the whole sequence although the first move's own
    operand is ``killed``."""
    explicit = [op.units for op in ins.operands if not op.implicit]
    kept = tuple(op for op in ins.operands
                 if not (op.implicit and len(_registers_of(op.units)) > 1
                         and any(units and units < op.units for units in explicit)))
    return ins if len(kept) == len(ins.operands) else MirInstruction(ins.opcode, kept, ins.bundled, ins.targets)


def mir_read_live_after(blocks: dict[int, MirBlock], *, tuple_implicits: bool = True,
                        ) -> dict[int, list[frozenset[Unit]]]:
    """LLVM's liveness after each instruction of every block, rebuilt from the MIR's reads alone: block
    live-ins by a backward fixpoint over the MIR's own successors instead of the live-ins LLVM lists, so a
    register LLVM lists live but no path below reads (before a write) is not live. With
    ``tuple_implicits=False`` the whole-tuple implicit operands of expanded moves
    (:func:`without_tuple_implicits`) are neither reads nor writes.

    Used only to *classify* differences from LLVM's listed liveness (:func:`mir_live_after`), never as the
    oracle itself."""
    if not tuple_implicits:
        blocks = {n: MirBlock(b.successors, [without_tuple_implicits(i) for i in b.instructions])
                  for n, b in blocks.items()}
    live_in = mir_read_live_ins(blocks)
    return {n: mir_live_after(b, live_in) for n, b in blocks.items()}


def mir_read_live_ins(blocks: dict[int, MirBlock]) -> dict[int, frozenset[Unit]]:
    """Block number -> the units live on entry by the MIR's reads alone (:func:`mir_read_live_after`): a
    backward fixpoint over the MIR's own successors, ignoring the live-ins LLVM lists. A register LLVM
    lists but no path from the block reads before a write is not in it."""
    live_in: dict[int, frozenset[Unit]] = dict.fromkeys(blocks, frozenset())
    changed = True
    while changed:
        changed = False
        for n in sorted(blocks, reverse=True):  # mostly backward edges last: few rounds
            block = blocks[n]
            if block.instructions:
                live = set(mir_live_after(block, live_in)[0])
                first = block.instructions[0]  # never a continued move: nothing before it in the block
                for op in first.operands:
                    if op.is_def:
                        live -= op.units
                for op in first.operands:
                    if not op.is_def and not op.undef:
                        live |= op.units
            else:
                live = set().union(*(live_in.get(s, frozenset()) for s in block.successors))
            new = frozenset(live)
            if new != live_in[n]:
                live_in[n], changed = new, True
    return live_in
