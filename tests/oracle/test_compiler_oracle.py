"""isalens against LLVM on our own corpus (examples/kernels, 9 targets).

* resources: requested VGPR/AGPR/SGPR must equal the compiler's ``.vgpr_count``/``.agpr_count``/
  ``.sgpr_count`` for every kernel, and the peak of live registers can never exceed what is requested;
* liveness: at every machine basic block entry of kernels *and* non-kernel functions our live set must
  equal the live-ins LLVM itself records after register allocation (``llc -stop-after=branch-relaxation``
  MIR). Registers LLVM reserves are outside its liveness and are left out on both sides: the ones the
  MIR's ``machineFunctionInfo`` names (``scratchRSrcReg``, ``stackPtrOffsetReg``, ``frameOffsetReg``;
  ``SIRegisterInfo::getReservedRegs`` reserves the scratch resource descriptor "in case we need to
  spill") and s32/s33. An empty block (``; %bb.8:`` holding only an ``; implicit-def:`` marker, then
  ``; %bb.9:``) starts at the same instruction as the next block; its entry is above the markers that
  follow its label, so those registers are taken out of our set before that instruction
  (:func:`asm_block_markers`). Measured with clang/llc 19.1.7 on 293 (source, target) pairs: 6676 of 6696
  blocks (99.70%; the issue asks for 99.5%); all 216 blocks of non-kernel functions equal. The 20 that
  differ, for reasons the assembly text cannot show:

  - 9 blocks, int64.cl divmod64 bb.1: LLVM's live range of a PHI result covers a path on which no write
    reaches it (its value there is undefined); we count a register live only where some write may reach.
    MIR (gfx1100): bb.1 (``%Flow5``) lists ``$vgpr0_vgpr1_vgpr2_vgpr3:0xFF`` live-in, but its only
    predecessor bb.0 neither writes v2/v3 nor has them live-in (it writes v[0:1] by ``IMPLICIT_DEF``): the
    structurizer's PHI there takes ``undef`` from bb.0. The hardware does not need them either: bb.1 is
    reached from bb.0 only when no lane takes the "then" part, and then the "else" part (bb.8) loads v[2:3]
    before bb.2 reads them.
  - 7 blocks, spills.cl vgpr_spill_poly: on gfx908 LLVM keeps the AGPRs a29-a31 it reuses as VGPR spill
    slots ("Reload Reuse") live past their last use, where no instruction reads them (5); on
    gfx1100/gfx1200 (bb.1) the value loaded into v21 reaches a later read, while LLVM's live-in lane mask
    for the pair (``$vgpr20_vgpr21:0x3``) leaves v21 out (2): bb.0 writes v[20:21] (``V_MAD_U64_U32``) and
    bb.1's first bundle spills the whole pair (``SCRATCH_STORE_DWORDX2_ST killed $vgpr20_vgpr21``), a read
    of v21 the hardware performs; LLVM's lane mask says only the low dword's value matters.
  - 2 blocks, matvec (gfx1200): a 64-bit operand (``s_lshl_b64 s[2:3]``) reaches a read on a path where
    LLVM knows its high half is undefined (``undef`` half of a pair, a PHI input); the assembly shows a
    plain read of a defined register. (sgemm_8x8 on gfx1100 had 2 such blocks for s5, kept live from
    the entry because its descriptor asks for 14 user SGPRs while enabling only the kernarg pointer:
    isalens counted s2-s13 as initialised by the hardware. Only the enabled ones are now; LLVM's MIR lists
    s[0:1], s14, s15 as the entry live-ins.)

  Since the previous measurement (6652 blocks) 24 more agree: 12 where clang-19 reads s11 as the
  wavefront scratch offset of calls.cl call_poly/call_live_across although the kernel descriptor does not
  enable it (an operand no part of which any write or the hardware sets is now live from the entry, as
  LLVM's MIR lists it; the read is still reported), 9 empty blocks of switch.cl interpret (the markers
  above), and 3 switch.cl interpret bb.30 on gfx10+: ``s_mov_b32 s9, exec_lo`` / ``v_cmpx_eq_u16`` /
  ``s_or_b32 exec_lo, exec_lo, s9`` is a divergent region whose switched-off lanes keep v4, which
  isalens did not see (a gfx10+ region without ``s_and_saveexec``).
  Issue 30 (code nobody here wrote: indexed registers, LLVM 19's calling convention, call arguments):
  examples/kernels/liveness/*.cl, our own kernels of each shape on gfx902, gfx90a, gfx1030, gfx1100. Before
  the changes their blocks agreed for 80.4-84.8% of kernel blocks and 85.2% of function blocks per target
  (whole corpus on those targets: 98.3-99.0% / 92.2%); now 100% / 100% (whole corpus: 99.48-99.87% of kernel
  blocks, 100% of function blocks; gfx1100 kernels 771/775, the four blocks named in
  :data:`_BLOCK_CONVENTIONS`). Fixed: an unknown index reached to the end of the register file (now bounded
  by the vector the code loads whole, a guarding compare, and the kernel's highest VGPR); an unknown call
  killed s40-s47 although LLVM 19 saves s30-s105 (the striped set is a later LLVM's); an argument set in an
  earlier block, and v31 a function passes on, were not read by an unknown call; a waterfall loop's lanes
  skipped its body to the exit. The per-target figures and the convention of every differing block are
  printed by :func:`test_block_live_ins_equal_llvm_post_ra_liveness`.
  Issue 30 item 3 (else masks that move to other SGPR pairs): llc-19 emits the shape
  (``s_and_saveexec_b64 s[4:5], s[0:1]`` / ``s_xor_b64 s[0:1], exec, s[4:5]`` ... ``s_or_saveexec_b64
  s[10:11], s[0:1]`` / scalar loads / ``s_xor_b64 exec, exec, s[10:11]``) for liveness/else_moves.cl on
  gfx902, gfx90a, gfx1030 and gfx1100 (and int64.cl, switch.cl). Following the mask by register names
  found no restore when the pair changed, so no EXEC skip edge: 6 of 42 blocks per target differed, each
  one where LLVM (and the hardware: the "else" lanes read it) keeps v2 live and we called it dead; 1,505
  of 2,169 instructions equal. Following its data flow: 42/42 blocks, 2,131 instructions. Whole corpus:
  99.51-99.88% of kernel blocks on the four targets (gfx1100 813/817), 100% of function blocks;
  instructions 125,753 of 130,949 (123,613 of 128,780 before; 9 more agree on the old corpus). With only
  the enabled user SGPRs initialised (sgemm_8x8, above): gfx1100 815/817 (99.76%); the two left are
  divmod64 bb.1 (LLVM has more; the hardware needs neither register) and vgpr_spill_poly bb.1 (we have
  more: a spill store reads it). No block where the hardware needs a register we call dead.
  Code we hold back (20 Rodinia OpenCL files, 69 builds on gfx902/gfx90a/gfx1030) showed two more shapes, now
  liveness/else_only.cl and liveness/no_caller.cl: a VGPR only the "else" part of an if/else reads, which
  the "then" part reuses after its last read there (LLVM's SIOptimizeVGPRLiveRange makes it undefined out
  of the "then" part, and llc-19 on gfx90a prints no ``; implicit-def:`` for it: we kept it live through
  the rest of the "then" part, 7 blocks of else_only.cl, 14 of Rodinia's cfd compute_flux), and functions
  in a file without any call, whose returns read neither their results (v0, v[0:1]: LLVM has more, the
  dangerous way, 8 blocks of no_caller.cl) nor, as LLVM says, the return address (ours had s[30:31]).
  Whole corpus now: kernel blocks gfx902 840/841, gfx90a 867/868, gfx1030 864/865 (99.88%), gfx1100
  865/867 (99.77%), function blocks 62/62 on each. The held-back blocks still differing where LLVM lists
  more are LLVM's own over-listing, with MIR evidence: AGPRs holding callee-saved VGPRs (myocyte kernel_cam
  bb.0, ``$agpr0 = V_ACCVGPR_WRITE_B32_e64 killed $vgpr40`` before any read; SILowerSGPRSpills adds every
  VGPR-to-AGPR spill register as a live-in of every block); a super-register of a live lane (particle
  likelihood_kernel gfx1030 bb.24 lists ``$sgpr24_sgpr25_sgpr26`` whole, its predecessors and successors
  only ``$sgpr24_sgpr25_sgpr26_sgpr27:0xF0``: LivePhysRegs::addBlockLiveIns adds every sub-register that
  overlaps a live lane); a live-in left from a removed ``s_cbranch_execz`` (particle findIndexBin bb.5 lists
  s[18:21], which its one successor overwrites with scalar writes, ``S_XOR_B64 $exec, -1`` and
  ``S_AND_B64 killed $vcc, $exec``, before any read).
  Held-back round 4: the 5 function blocks per target still differing with us listing more were pointers a
  loop walks, whose last increment nothing reads and which looked like results of a function no code here
  calls (particle_double.cl cdfCalc, void: v[0:3]; calcLikelihoodSum and updateWeights, double in v[0:1]:
  v[2:3]). Such a pointer (read as a ``global_``/``flat_`` address in the loop, advanced only by adds, not
  written after it) is no result now; liveness/no_caller_loops.cl has the shapes (12 blocks on the four
  targets differed with the rule off). Held back, function blocks 78/85, 78/85, 80/85 -> 83/85, 83/85, 85/85
  (gfx902/gfx90a/gfx1030), the rest the three LLVM over-listings above; corpus: kernel blocks gfx902
  865/866, gfx90a 892/893, gfx1030 889/890, gfx1100 890/892, function blocks 76/76 on each.
  Held-back round 5: those over-listings are named from LLVM's MIR, not by hand. A register LLVM lists
  live-in that no path below reads before a write (LLVM's liveness rebuilt from its reads alone,
  :func:`tests.oracle.mir.mir_read_live_ins`) is LLVM's bookkeeping when it is an SGPR (scalar code runs
  whatever EXEC is, so LLVM's graph is the hardware's) or a register a function's entry block writes
  before any read; a VGPR elsewhere is not excused, its switched-off lanes may be read on an edge LLVM
  removed (:func:`over_listing`). liveness/stale_execz.cl last_below (s[14:15] on gfx9, s9 on gfx1030,
  s5 on gfx1100), agpr_saves.cl churn (a0-a3 on gfx90a) and tuple_livein.cl block_sums (s1 on gfx1030,
  s[4:5] on gfx1100) reproduce the three shapes: 7 blocks, each named. Corpus: kernel blocks gfx902
  895/896, gfx90a 922/923, gfx1030 919/921, gfx1100 920/923; function blocks 120/121, 119/121, 119/120,
  119/120 (98.35-99.17%, 100% counting LLVM's over-listing). Held back unchanged: function blocks 83/85,
  83/85, 85/85, kernel blocks 702/702, 706/706, 700/701, every differing block named.
  Round 6: the corpus's non-kernel functions were few (121 blocks per target, two of the differing ones in
  kernels written to show LLVM's over-listing), so liveness/function_shapes.cl and function_chains.cl add
  the shapes library functions have (nested loops, a switch, break, continue, local-memory pointers, a struct
  returned through memory, stack arguments, fp64, 64-bit division, atomics, a private array indexed at run
  time, a chain of three calls, a call in a loop, calls in a divergent region): 85 more function blocks per
  target, all equal to LLVM's, and 17 more kernel blocks, all equal. Corpus: kernel blocks gfx902 912/913,
  gfx90a 939/940, gfx1030 936/938, gfx1100 937/940; function blocks 205/206, 204/206, 204/205, 204/205
  (99.03-99.51%, 100% counting LLVM's over-listing).
* per-instruction liveness: see :func:`test_per_instruction_liveness_equals_llvm_mir`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import isalens
from isalens.analysis import cfg as cfg_pass
from isalens.analysis import liveness as liveness_pass
from isalens.engine.load import LoadedModule
from isalens.ir.instruction import Instruction
from isalens.ir.operands import RegOperand
from isalens.ir.registers import RegFile, registers_in
from tests.oracle.corpus import CorpusEntry
from tests.oracle.mir import (
    NOT_EMITTED,
    MirBlock,
    Unit,
    asm_block_markers,
    mir_block_instructions,
    mir_block_livein_items,
    mir_block_liveins,
    mir_live_after,
    mir_read_live_after,
    mir_read_live_ins,
    mir_reserved_registers,
)

FILES = {"v": RegFile.VGPR, "a": RegFile.AGPR, "s": RegFile.SGPR}


def test_requested_registers_equal_llvm_metadata(corpus: list[CorpusEntry]) -> None:
    checked = 0
    mismatches = []
    for entry in corpus:
        module = isalens.load(entry.clang_asm)
        for kernel in module.kernels:
            d = kernel.ir.declared
            if d.vgpr_count is None:
                continue
            result = kernel.analyze()
            res = result.resources
            got = (res.total_vgprs, res.agpr.requested, res.sgpr.requested)
            # a function has no metadata; what .vgpr_count is for a kernel (LLVM's NumVGPRsForWavesPerEU,
            # AGPRs included: mfma_f32.cl on gfx90a, .vgpr_count 44 = TotalNumVgprs 44, NumVgprs 12) is its
            # comments' TotalNumVgprs, not NumVgprs (liveness/agpr_saves.cl churn on gfx90a: 60, 56)
            raw = dict(d.raw)
            vgprs = int(raw["TotalNumVgprs"]) if ".vgpr_count" not in raw and "TotalNumVgprs" in raw else d.vgpr_count
            want = (vgprs, d.agpr_count if d.agpr_count is not None else res.agpr.requested, d.sgpr_count)
            checked += 1
            if got != want:
                mismatches.append(f"{entry.source.name} {entry.target} {kernel.name}: ours {got} llvm {want}")
            assert result.pressure.vgpr.peak <= res.vgpr.requested
            assert result.pressure.agpr.peak <= max(res.agpr.requested, 0)
            assert result.pressure.sgpr.peak <= res.sgpr.requested
    assert checked >= 40 * 9 // 2, checked
    assert not mismatches, "\n".join(mismatches)


def _registers(units: frozenset[tuple[str, int, int]]) -> set[tuple[str, int]]:
    return {(file, index) for file, index, _half in units if file in FILES}


def _ours(mask: int) -> set[tuple[str, int]]:
    return {(key, r) for key, file in FILES.items() for r in registers_in(mask, file)}


@dataclass(frozen=True)
class Block:
    """A block of llc's output, before its instructions; ``compared`` is False when its emitted instruction
    count differs from its MIR's (its instructions are then not compared)."""

    kernel: str
    number: int
    compared: bool


Registers = set[tuple[str, int]]


def compared_instructions(asm: Path, mir_text: str, load: Callable[[Path], LoadedModule] = isalens.load,
                          ) -> Iterator[Block | tuple[str, int, Instruction, Registers, Registers]]:
    """Every block of llc's ``asm`` (a :class:`Block`), then per instruction it emitted: (function, MIR
    block number, instruction, our registers live after it, LLVM's rebuilt from ``mir_text`` by
    :func:`mir_live_after`); the registers LLVM reserves are left out of both. ``load`` reads ``asm``
    (the classification below passes a variant). Shared with ``tools/compare_shae.py``."""
    mir, liveins = mir_block_instructions(mir_text), mir_block_liveins(mir_text)
    reserved = mir_reserved_registers(mir_text)
    for kernel in load(asm).kernels:
        blocks, block_in = mir.get(kernel.name, {}), liveins.get(kernel.name, {})
        ir, live = kernel.ir, kernel.liveness()
        starts = sorted(ir.block_starts.items(), key=lambda kv: kv[1])
        skip = _RESERVED | _registers(reserved.get(kernel.name, frozenset()))
        for k, (number, start) in enumerate(starts):
            end = starts[k + 1][1] if k + 1 < len(starts) else len(ir.instructions)
            block = blocks.get(number)
            emitted = [j for j, i in enumerate(block.instructions) if i.opcode not in NOT_EMITTED] if block else []
            compared = block is not None and len(emitted) == end - start
            yield Block(kernel.name, number, compared)
            if block is None or not compared:
                continue
            after = mir_live_after(block, block_in, block_in.get(number, frozenset()))
            for offset, j in enumerate(emitted):
                i = start + offset
                yield (kernel.name, number, ir.instructions[i], _ours(live.live_out[i]) - skip,
                       _registers(after[j]) - skip)


@dataclass(frozen=True)
class BlockLiveIn:
    """One machine basic block of llc's output: our live set at its entry and LLVM's MIR live-ins."""

    source: str
    target: str
    function: str
    is_kernel: bool
    number: int
    ours: frozenset[tuple[str, int]]
    theirs: frozenset[tuple[str, int]]
    #: when every register LLVM lists and we do not is one no path below reads before a write (LLVM's
    #: liveness rebuilt from its reads alone): the name of the LLVM bookkeeping that lists it
    #: (:func:`over_listing`), else None
    over_listed: str | None = None


def block_live_ins(corpus: list[CorpusEntry]) -> Iterator[BlockLiveIn]:
    """Every block of every kernel and function of ``corpus`` with both live-in sets; the registers LLVM
    reserves are left out of both."""
    for entry in corpus:
        text = entry.llc_mir.read_text()
        mir, reserved = mir_block_livein_items(text), mir_reserved_registers(text)
        instructions = mir_block_instructions(text)
        markers = asm_block_markers(entry.llc_asm.read_text())
        module = isalens.load(entry.llc_asm)
        for kernel in module.kernels:
            blocks = mir.get(kernel.name, {})
            defined_above = markers.get(kernel.name, {})
            skip = _registers(reserved.get(kernel.name, frozenset()))
            live = kernel.liveness()
            read: dict[int, frozenset[Unit]] | None = None  # LLVM's live-ins from its reads alone, on demand
            n = len(kernel.ir.instructions)
            for number, start in sorted(kernel.ir.block_starts.items()):
                if number not in blocks or start >= n:
                    continue
                # our set before the first instruction is below every implicit-def marker; the block's
                # entry is above the ones after its label (an empty block holds only those)
                ours = _ours(live.live_in[start]) - skip - _registers(defined_above.get(number, frozenset()))
                theirs = _registers(frozenset().union(*blocks[number])) - skip
                over = None
                if theirs - ours:
                    if read is None:
                        read = mir_read_live_ins(instructions[kernel.name])
                    over = over_listing(theirs - ours, _registers(read[number]), blocks[number],
                                        instructions[kernel.name], number, kernel.ir.is_kernel)
                yield BlockLiveIn(entry.source.name, entry.target, kernel.name, kernel.ir.is_kernel, number,
                                  frozenset(ours), frozenset(theirs), over)


#: LLVM's bookkeeping that lists registers no path below reads (module docstring, held-back shapes)
OVER_LISTINGS = {
    "tuple": "LLVM lists a whole register tuple for its live part, no read below",
    "execz": "LLVM keeps the live-ins of an s_cbranch_execz it removed, no read below",
    "entry": "LLVM lists registers a function's entry block writes before any read (AGPR saves)",
    "scalar": "LLVM lists it live, no read below",
}


def over_listing(missing: set[tuple[str, int]], read: set[tuple[str, int]], items: tuple[frozenset[Unit], ...],
                 blocks: dict[int, MirBlock], number: int, is_kernel: bool) -> str | None:
    """The name (:data:`OVER_LISTINGS`) of the LLVM bookkeeping that explains why LLVM lists ``missing``
    (registers we call dead) live into block ``number``, or None when some path below reads one of them
    (``read``: LLVM's live-ins rebuilt from its reads over its own successors, :func:`mir_read_live_ins`) or
    the shape does not show that the hardware cannot need them.

    SGPRs: scalar instructions run whatever EXEC is, so LLVM's graph is the hardware's, and a scalar no path
    below reads is dead. Named by what lists it: an item of ``items`` (the block's ``liveins:``) naming a
    tuple of which another register is read below (``LivePhysRegs::addBlockLiveIns`` adds every
    sub-register tuple overlapping a live lane: ``$sgpr0_sgpr1_sgpr2`` for a live s2); a block that ends
    by writing EXEC without a branch (``SIPreEmitPeephole`` removed the ``s_cbranch_execz`` and its edge
    after allocation, not the live-ins the edge needed). VGPRs and AGPRs keep values in lanes EXEC
    switches off, on paths (removed skip edges) LLVM's graph may lack, so only one more shape: the entry
    block of a function that writes them before any read (caller-saved there: LLVM's prologue copies the
    callee-saved VGPRs into them, ``SILowerSGPRSpills`` lists them in every block)."""
    if missing & read:
        return None
    if all(file == "s" for file, _ in missing):
        if all(any(reg in _registers(item) and _registers(item) & read for item in items) for reg in missing):
            return OVER_LISTINGS["tuple"]
        emitted = [i for i in blocks[number].instructions if i.opcode not in NOT_EMITTED]
        last = emitted[-1] if emitted else None
        if last is not None and "BRANCH" not in last.opcode and any(
                op.is_def and op.reg.startswith("exec") for op in last.operands):
            return OVER_LISTINGS["execz"]
        return OVER_LISTINGS["scalar"]
    if number == 0 and not is_kernel:
        written = _registers(frozenset().union(*(op.units for i in blocks[0].instructions
                                                 for op in i.operands if op.is_def)))
        if missing <= written:
            return OVER_LISTINGS["entry"]
    return None


#: Block live-ins that differ from LLVM's for a reason the assembly text cannot show, each a documented
#: convention (module docstring): (source, function, side that has more) -> name. "llvm" means LLVM lists a
#: register live that we call dead; each such entry says why no instruction needs it.
_BLOCK_CONVENTIONS = {
    ("int64.cl", "divmod64", "llvm"): "PHI result live where no write reaches it (its value there is undefined)",
    ("spills.cl", "vgpr_spill_poly", "llvm"): "LLVM lists it live, no read below (AGPRs reused as VGPR spill slots)",
    ("spills.cl", "vgpr_spill_poly", "ours"): "LLVM's live-in lane mask leaves out a dword a later read uses",
    ("matvec.cl", "matvec", "ours"): "undef half of a pair: a read LLVM marks undefined on that path",
}

#: the targets issue 30 measured code we did not write on: their figures are asserted one by one
_ISSUE_TARGETS = ("gfx902", "gfx90a", "gfx1030", "gfx1100")


def block_convention(block: BlockLiveIn) -> str | None:
    """The named convention that explains a differing block, or None (a real difference): registers LLVM
    lists that no path below reads by the block's :attr:`BlockLiveIn.over_listed`, the rest by
    :data:`_BLOCK_CONVENTIONS`."""
    names: set[str | None] = set()
    if block.ours - block.theirs:
        names.add(_BLOCK_CONVENTIONS.get((block.source, block.function, "ours")))
    if block.theirs - block.ours:
        names.add(block.over_listed or _BLOCK_CONVENTIONS.get((block.source, block.function, "llvm")))
    if None in names or not names:
        return None
    return " + ".join(sorted(n for n in names if n is not None))


def test_block_live_ins_equal_llvm_post_ra_liveness(corpus: list[CorpusEntry]) -> None:
    """Per target and per kind (kernels / non-kernel functions): the share of blocks whose live-ins equal
    LLVM's, and every differing block named by its convention (:data:`_BLOCK_CONVENTIONS`,
    :data:`OVER_LISTINGS`); a block no convention explains fails the test, so no block where the hardware
    needs a register we call dead can hide. Printed: ``target kernels|functions: equal/compared (rate),
    with LLVM's over-listing N (rate); by convention {...}``, where the second figure also counts the blocks
    whose only difference is registers LLVM lists and no path below reads (:func:`over_listing`)."""
    total = 0
    differ: list[str] = []
    unexplained: list[str] = []
    kinds: Counter[str] = Counter()
    per_target: dict[tuple[str, bool], list[int]] = {}
    conventions: dict[tuple[str, bool], Counter[str]] = {}
    for block in block_live_ins(corpus):
        total += 1
        key = (block.target, block.is_kernel)
        tally = per_target.setdefault(key, [0, 0, 0])
        tally[0] += 1
        if block.ours == block.theirs:
            tally[1] += 1
            continue
        tally[2] += not block.ours - block.theirs and block.over_listed is not None
        extra = sorted(block.ours - block.theirs)
        missing = sorted(block.theirs - block.ours)
        kinds["ours has more" if extra and not missing else
              "llvm has more" if missing and not extra else "both"] += 1
        line = f"{block.source} {block.target} {block.function} bb.{block.number}: +{extra[:6]} -{missing[:6]}"
        differ.append(line)
        name = block_convention(block)
        conventions.setdefault(key, Counter())[name or "unexplained"] += 1
        if name is None:
            unexplained.append(line)
    agreement = 1 - len(differ) / max(total, 1)
    print(f"\nblock live-ins compared: {total}, equal: {total - len(differ)} ({agreement:.2%}); {dict(kinds)}")
    for (target, is_kernel), (n, equal, over) in sorted(per_target.items()):
        named = dict(conventions.get((target, is_kernel), {}))
        print(f"  {target} {'kernels' if is_kernel else 'functions'}: {equal}/{n} ({equal / n:.2%}), with "
              f"LLVM's over-listing {equal + over} ({(equal + over) / n:.2%})"
              + (f"; by convention {named}" if named else ""))
    print("\n".join(differ[:60]))
    assert total > 6000
    # measured 99.68%: 99.77% before liveness/stale_execz.cl, agpr_saves.cl and tuple_livein.cl, whose 7
    # differing blocks reproduce LLVM's over-listing on purpose
    assert agreement >= 0.996
    assert not unexplained, "\n".join(unexplained)
    for target in _ISSUE_TARGETS:
        kernels, functions = per_target[(target, True)], per_target[(target, False)]
        # measured 99.68-99.89% of kernel blocks (gfx1100: 937/940, the three named above); function blocks
        # 99.03% (gfx90a, 204/206) to 99.51%, 100% with LLVM's over-listing: the function blocks that
        # differ are liveness/stale_execz.cl last_below and agpr_saves.cl churn, written to show it (the
        # issue's bars: 99.5% of kernel blocks, 99% of function blocks, the rest named)
        assert kernels[1] / kernels[0] >= 0.995, target
        assert functions[1] / functions[0] >= 0.99, target
        assert (functions[1] + functions[2]) / functions[0] >= 0.99, target


def test_peak_live_never_exceeds_requested(corpus: list[CorpusEntry]) -> None:
    """``peak_live <= requested`` for every kernel and every non-kernel function of the corpus, in clang's
    and llc's assembly: a register count is an upper bound on what can be live at once, indexed access
    (``s_set_gpr_idx_on``, ``v_movrel*``) included (liveness/indexed.cl: an unknown index reaches at most
    the kernel's highest VGPR)."""
    checked = 0
    over = []
    for entry in corpus:
        for asm in (entry.clang_asm, entry.llc_asm):
            for kernel in isalens.load(asm).kernels:
                result = kernel.analyze()
                res, peak = result.resources, result.pressure
                checked += 1
                for file, got, limit in (("vgpr", peak.vgpr.peak, res.vgpr.requested),
                                         ("agpr", peak.agpr.peak, max(res.agpr.requested, 0)),
                                         ("sgpr", peak.sgpr.peak, res.sgpr.requested)):
                    if got > limit:
                        over.append(f"{entry.source.name} {entry.target} {asm.name} {kernel.name}: {file} "
                                    f"peak {got} > requested {limit}")
    assert checked > 1000, checked
    assert not over, "\n".join(over)


def test_llvm_occupancy_equals_the_compilers_comment(corpus: list[CorpusEntry]) -> None:
    """Our per-wave figure from requested registers, declared LDS and workgroup size must equal the
    ``; Occupancy:`` line clang printed for every kernel of the corpus."""
    checked = 0
    mismatches = []
    for entry in corpus:
        for kernel in isalens.load(entry.clang_asm).kernels:
            declared = kernel.ir.declared.occupancy
            if declared is None:
                continue
            result = kernel.analyze()
            assert result.occupancy is not None
            checked += 1
            ours = result.occupancy[0].llvm_occupancy
            if ours != declared:
                inp = result.occupancy[1]
                mismatches.append(f"{entry.source.name} {entry.target} {kernel.name}: ours {ours} llvm {declared} "
                                  f"({inp})")
    assert checked > 400
    assert not mismatches, "\n".join(mismatches)


#: registers LLVM reserves (never tracked by its liveness) besides the ones each function's MIR names
#: (:func:`mir_reserved_registers`): the stack and frame pointers everywhere
_RESERVED = {("s", 32), ("s", 33)}


def test_per_instruction_liveness_equals_llvm_mir(corpus: list[CorpusEntry], monkeypatch: pytest.MonkeyPatch) -> None:
    """Within blocks: LLVM's liveness after each instruction, rebuilt from its MIR (the successors' live-ins,
    then every operand backwards: defs end liveness, uses that are not ``undef`` start it, implicit
    operands included, so ``killed``/``dead`` flags follow; a sub-register that is neither live into the
    block nor written earlier in it is not live, as LLVM's MachineVerifier and its lane-aware block
    live-ins have it; of the moves a pseudo expanded into, each with an ``implicit-def`` of the whole
    tuple, only the first ends the tuple's liveness: :func:`mir_live_after`), must equal our live-out set
    for >= 99% of the instructions llc emitted. The MIR instruction at the same position of the same block
    is compared (blocks whose emitted instruction count differs are skipped and counted).

    Measured with clang/llc 19.1.7: 120,294 of 125,304 instructions equal (96.00%), every block matched.
    The issue's target is 99%; not met, and not reachable without counting registers the hardware does
    not need. What is checked instead, register by register (:func:`_classify`): a register live on one
    side only is put down to one of three conventions when a variant of our own analysis with that one
    refinement switched off has it live exactly as LLVM does: "dead result bits" (no lane refinement:
    every source half or dword read whole, 2,075 instructions), "packed-f32 unselected dword" (also the
    64-bit sources of ``v_pk_*_f32``/``_b32`` read whole, as the MIR operand names them, 1,550) and "EXEC
    region without execz" (no EXEC skip edges, 451). Two more are LLVM's own bookkeeping, found by
    rebuilding LLVM's side from its reads alone (:func:`_llvm_variants`; this can only take registers out
    of LLVM's set, so it can never excuse a register we miss that is read below, nor one we add): "LLVM
    lists it live, no read below" (block live-ins that no path below reads before a write: the AGPRs
    gfx908 reuses as VGPR spill slots, 243) and "whole-tuple implicit operands of expanded moves" (the
    per-register moves a spill, reload or tuple copy is expanded into each carry an implicit use or def
    of the whole tuple, keeping it live across the sequence although the first move's own operand is
    ``killed``, 410). With all five, 125,025 instructions (99.78%) equal LLVM's; asserted at 99.7%, and
    the 279 unexplained at most 300 (spills.cl 107, int64.cl divmod64 36, calls.cl 72 (the prologue
    saves, 18 in each of four functions), switch.cl 27, sgemm_8x8 15, matvec 13, half2_packed 9: the
    spill, call and PHI conventions below). This attributes a difference to a convention; it cannot tell a
    right refinement from a wrong one, which is what each refinement's own unit tests check
    (``test_lanes.py``, ``test_cfg_liveness.py``). Checked by breaking the reader (``ds_write*`` writing
    its address): 8,796 unexplained (9,451 with the three conventions of our side only).

    One register live on one side only makes an instruction differ, and such a register often stays so for
    hundreds of instructions: of the 4,918,977 (instruction, register) pairs live on either side, 9,905 are
    live on one side only (99.80% agree; printed, and guarded at 99.7%). The 5,010 that differ (by source:
    half3.cl 1,623, spills.cl 724, transcendental.cl 705, sgemm_8x8.cl 659, private_arrays.cl 404, calls.cl
    154, sgemm_4x4.cl 132, the rest < 90 each; indirect.cl 231 -> 0 since calls through a pointer read what
    LLVM passes, fp64.cl 307 -> 26 and spills.cl 856 -> 724 since the MIR's expanded moves are read as below):

    - about 2,100: a source 16-bit half or dword that only feeds result bits nothing reads later
      (``isa/amdgcn/lanes.py``): the garbage high half of a ``half3``'s last pair through long packed-f16
      blocks (resolve_half3/uint2/half4, all targets), the high dword of a ``v_mad_u64_u32`` addend whose
      result high dword is overwritten at once. LLVM's MIR flags are per 32-bit register (or per tuple),
      so the value stays live up to the read; where LLVM knows it is garbage it reads it ``undef``.
    - 1,543 (sgemm_4x4/8x8, exp_log_pow, float4_swizzle_scale, transform_points, call_live_across on
      gfx90a/gfx942): packed 32-bit operations (``v_pk_fma_f32``, ``v_pk_mul_f32``, ``v_pk_mov_b32``) whose
      ``op_sel``/``op_sel_hi`` select one dword of a 64-bit operand for both lanes; the other dword's value
      is not used, and we do not count it. LLVM's MIR operand names the whole pair, but its own block
      live-ins (per lane) leave the unselected dword out: counting the whole pair was measured at +161
      instructions and -17 blocks (s1 in sgemm_4x4, v9 in blend, s3 in exp_log_pow become live-in
      where LLVM's live-ins say they are not).
    - 724 in spills.cl (579 of them classified by the two LLVM-side conventions above): SGPR spills to
      VGPR lanes (``v_writelane_b32`` per SGPR) carry an implicit use of the whole 16-SGPR tuple up to
      the last lane write, reloads an implicit def of it; the AGPRs reused as VGPR spill slots and
      s[0:3] stay live in LLVM's view past their last use.
    - 154 in calls.cl (608 in calls.cl/indirect.cl three measurements ago: 84 fewer since the reserved
      scratch descriptor is left out, 78 since a call no longer reads the registers its callee's prologue
      saves, 61 since s11 is live from the entry, 231 since a call through a pointer reads what LLVM passes
      (kernel inputs already in place such as the dispatch ptr in s[4:5], argument registers set up for
      it, not the caller's temporaries) and a function only reached through a pointer returns the results
      it sets up): the prologue's save of a VGPR used for SGPR spill lanes (LLVM's first ``v_writelane``
      reads it as ``undef``; fib, smooth, odd_steps, even_steps), packed-f32 ``op_sel`` in
      call_live_across on gfx90a/gfx942 (56), and argument registers a known callee never reads, which
      LLVM's call reads because the signature names them (blend, call_live_across on gfx10+).
    - no longer (427 fewer): a 64-bit constant materialised by two ``s_mov_b32`` (``S_MOV_B64`` expanded
      after allocation, the moves often separated by the scheduler), SGPR tuple reloads and the like: each
      MIR move carries an ``implicit-def`` of the whole tuple. Read literally, the second move would end
      the liveness of the half the first one wrote, which it does not write; the rebuild now lets only the
      first move of such a group start the tuple (``tests/oracle/mir.py``, with a unit test).
    - about 410 (private_arrays sort16, scratch_histogram): a value written before an ``s_and_saveexec``
      (gfx9) or an EXEC copy and ``v_cmpx`` (gfx10+) stays in the lanes the region switches off and is read
      after the join (our EXEC skip edge); a late LLVM pass deleted the region's ``s_cbranch_execz`` and
      its CFG edge, so LLVM's MIR has no path for that value (sort16 bb.1: successors only bb.2, v20 = 2
      read at bb.4 by the lanes bb.2 skipped). The gfx10+ ones (140) are new since regions opened by
      ``v_cmpx`` get their skip edge.
    - no longer: 66 in branches.cl diamond, an if/else whose two arms together write v1 in every lane
      active before it. The "then" region's skip edge now ends after the switch to the "else" lanes, not
      at it, so no path skips both arms and v1's earlier value is no longer live up to the branch.
    - the rest (about 250) spread over switch.cl (``; implicit-def:`` in an empty block), int64 divmod64
      (a PHI input no write reaches), branches classify, mfma_f32 and wave64 kernels.
    The assertion guards the measured level against regressions."""
    total = agree = skipped_blocks = matched_blocks = 0
    pairs = pairs_differ = 0  # (instruction, register) pairs live on either side, and on one side only
    differ: list[str] = []
    # (file, target, function, instruction index) -> (ours, theirs), for the classification below
    differing: dict[tuple[str, str, str, int], tuple[set[tuple[str, int]], set[tuple[str, int]]]] = {}
    for entry in corpus:
        for item in compared_instructions(entry.llc_asm, entry.llc_mir.read_text()):
            if isinstance(item, Block):
                matched_blocks += item.compared
                skipped_blocks += not item.compared
                continue
            kernel, number, ins, ours, theirs = item
            total += 1
            pairs += len(ours | theirs)
            pairs_differ += len(ours ^ theirs)
            if ours == theirs:
                agree += 1
                continue
            differing[(entry.source.name, entry.target, kernel, ins.index)] = (ours, theirs)
            if len(differ) < 40:
                differ.append(f"{entry.source.name} {entry.target} {kernel} bb.{number} line {ins.line} "
                              f"{ins.text}: +{sorted(ours - theirs)[:4]} -{sorted(theirs - ours)[:4]}")
    rate = agree / max(total, 1)
    print(f"\ninstructions compared: {total} in {matched_blocks} blocks ({skipped_blocks} blocks skipped: "
          f"instruction counts differ), equal: {agree} ({rate:.2%}); live (instruction, register) pairs: "
          f"{pairs}, on one side only: {pairs_differ} ({1 - pairs_differ / max(pairs, 1):.2%} agree)")
    print("\n".join(differ))
    assert total > 100000
    assert rate >= 0.959
    assert 1 - pairs_differ / max(pairs, 1) >= 0.997

    kinds = _classify(corpus, differing, monkeypatch)
    explained = sum(n for kind, n in kinds.items() if kind != "unexplained")
    print(f"differing instructions by convention: {dict(kinds.most_common())}; equal up to the classified "
          f"conventions: {agree + explained} ({(agree + explained) / total:.2%})")
    assert (agree + explained) / total >= 0.997  # measured 99.73% (99.78% before issue 30's kernels)
    # measured 354: 279 on the corpus before issue 30's kernels (unchanged by its fixes), 75 in liveness/*.cl,
    # mostly calls_conv.cl call_via_function (a kernel calling a function whose prologue copies the special
    # inputs s12-s15 to pass them on: the callee reads s15, which LLVM's call passes undefined from a kernel
    # that never set it) and the call prologues' spill-lane saves of the functions there; 348 after 15bc786,
    # with liveness/stale_execz.cl, agpr_saves.cl and tuple_livein.cl adding none (2,119 instructions, 62
    # differing, all classified); 364 with liveness/function_shapes.cl and function_chains.cl (5,542
    # instructions, 51 differing): the prologue saves of the spill-lane VGPR in middle and top (v43/v45 read
    # by the save, which LLVM reads undef, 2 per target) and the rest classified
    assert kinds["unexplained"] <= 370


#: the conventions a variant of our own analysis reproduces: name -> (lane refinement off, EXEC skip edges
#: off, packed 32-bit sources read whole)
_CONVENTIONS = {"dead result bits": (True, False, False), "EXEC region without execz": (False, True, False),
                "packed-f32 unselected dword": (True, False, True)}


def _whole_packed32_sources(asm: Path) -> LoadedModule:
    """``asm`` with every 64-bit source of a packed 32-bit op read whole, as LLVM's MIR operand names it."""
    module = isalens.load(asm)
    kernels = []
    for kernel in module.ir.kernels:
        instructions = []
        for ins in kernel.instructions:
            if ins.mnemonic.startswith("v_pk_") and ins.mnemonic.endswith(("_f32", "_b32")):
                whole = 0
                for op in ins.operands[1:]:
                    if isinstance(op, RegOperand):
                        whole |= op.mask
                ins = ins._replace(uses=ins.uses | whole)
            instructions.append(ins)
        kernels.append(dataclasses.replace(kernel, instructions=tuple(instructions)))
    return LoadedModule(dataclasses.replace(module.ir, kernels=tuple(kernels)), module.arch)


def _classify(corpus: list[CorpusEntry],
              differing: dict[tuple[str, str, str, int], tuple[set[tuple[str, int]], set[tuple[str, int]]]],
              monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Each differing instruction by the convention that explains it: every register live on one side only
    must be live (or not) as LLVM has it in some variant of our analysis with one refinement switched off;
    the conventions an instruction needs are named together, "unexplained" when a register is in none."""
    files = {(name, target) for name, target, _, _ in differing}
    variants: dict[str, dict[tuple[str, str, str, int], set[tuple[str, int]]]] = {}
    for convention, (no_lanes, no_skips, whole_packed32) in _CONVENTIONS.items():
        seen: dict[tuple[str, str, str, int], set[tuple[str, int]]] = {}
        with monkeypatch.context() as patch:
            if no_lanes:  # every source half or dword is read whole, as LLVM's per-register flags have it
                patch.setattr(liveness_pass, "half_lanes", lambda ins: None)
            if no_skips:  # no path around a region whose s_cbranch_execz LLVM deleted
                patch.setattr(cfg_pass, "_exec_skips", lambda kernel: [])
            load = _whole_packed32_sources if whole_packed32 else isalens.load
            for entry in corpus:
                if (entry.source.name, entry.target) not in files:
                    continue
                for item in compared_instructions(entry.llc_asm, entry.llc_mir.read_text(), load):
                    if not isinstance(item, Block):
                        key = (entry.source.name, entry.target, item[0], item[2].index)
                        if key in differing:
                            seen[key] = item[3]
        variants[convention] = seen
    llvm = _llvm_variants(corpus, differing)
    kinds: Counter[str] = Counter()
    for key, (ours, theirs) in differing.items():
        needed: set[str] = set()
        for reg in ours ^ theirs:
            fits = [c for c, seen in variants.items() if (reg in seen[key]) == (reg in theirs)]
            # LLVM's side rebuilt from its reads: only ever takes registers out of LLVM's set
            fits += [c for c, seen in llvm.items() if (reg in ours) == (reg in seen[key])]
            needed.add(fits[0] if fits else "unexplained")
        kinds["unexplained" if "unexplained" in needed else " + ".join(sorted(needed))] += 1
    return kinds


#: LLVM-side conventions: name -> whether the whole-tuple implicit operands of expanded moves count
_LLVM_CONVENTIONS = {"LLVM lists it live, no read below": True,
                     "whole-tuple implicit operands of expanded moves": False}


def _llvm_variants(corpus: list[CorpusEntry],
                   differing: dict[tuple[str, str, str, int], tuple[set[tuple[str, int]], set[tuple[str, int]]]],
                   ) -> dict[str, dict[tuple[str, str, str, int], set[tuple[str, int]]]]:
    """For each differing instruction, LLVM's live set with what its reads alone do not justify taken out
    (:func:`tests.oracle.mir.mir_read_live_after`): registers LLVM keeps listed where no path below reads
    them (the AGPRs it reuses as VGPR spill slots on gfx908), and, in the second variant, registers kept
    live only by the whole-tuple implicit operands LLVM puts on the moves it expands a spill or a tuple
    copy into."""
    files = {(name, target) for name, target, _, _ in differing}
    out: dict[str, dict[tuple[str, str, str, int], set[tuple[str, int]]]] = {c: {} for c in _LLVM_CONVENTIONS}
    for entry in corpus:
        if (entry.source.name, entry.target) not in files:
            continue
        mir_text = entry.llc_mir.read_text()
        mir = mir_block_instructions(mir_text)
        rebuilt: dict[tuple[str, str], dict[int, list[frozenset[tuple[str, int, int]]]]] = {}
        offset = 0
        for item in compared_instructions(entry.llc_asm, mir_text):
            if isinstance(item, Block):
                offset = 0
                continue
            function, number, ins, _ours, theirs = item
            position, offset = offset, offset + 1
            key = (entry.source.name, entry.target, function, ins.index)
            if key not in differing:
                continue
            block = mir[function][number]
            j = [k for k, i in enumerate(block.instructions) if i.opcode not in NOT_EMITTED][position]
            for convention, implicits in _LLVM_CONVENTIONS.items():
                after = rebuilt.get((function, convention))
                if after is None:
                    after = rebuilt[(function, convention)] = mir_read_live_after(mir[function],
                                                                                 tuple_implicits=implicits)
                out[convention][key] = theirs & _registers(after[number][j])
    return out
