"""isalens against LLVM on our own corpus (examples/kernels, 9 targets).

* resources: requested VGPR/AGPR/SGPR must equal the compiler's ``.vgpr_count``/``.agpr_count``/
  ``.sgpr_count`` for every kernel, and the peak of live registers can never exceed what is requested;
* liveness: at every machine basic block entry our live set must equal the live-ins LLVM itself
  records after register allocation (``llc -stop-after=branch-relaxation`` MIR), for at least 99% of
  blocks. Measured: 6167 of 6219 blocks (99.16%) with clang/llc 19.1.7. The remaining 52 differ for
  reasons the assembly text cannot show:

  - 18 blocks, spills.cl vgpr_spill_poly: LLVM keeps the scratch resource descriptor s[0:3] (and on
    gfx908 the AGPRs used as VGPR spill slots) live past their last use; no instruction reads them there.
  - 12 blocks, switch.cl interpret bb.8 and bb.30: an ``; implicit-def:`` marker sits in an *empty* block
    (``; %bb.8:`` directly followed by ``; %bb.9:``); an instruction-level IR has no place for it, so the
    register is live through the empty block (bb.8) or, where LLVM's edge bypasses it, one block earlier.
  - 9 blocks, int64.cl divmod64 bb.1: LLVM's live range of a PHI result covers a path on which no write
    reaches it (its value there is undefined); we count a register live only where some write may reach.
  - 13 blocks (matvec, sgemm_8x8, resolve_half3 on gfx10+, mfma_32x32x1): a 64-bit operand (e.g.
    ``s_lshl_b64 s[2:3]``) reads a pair whose other half LLVM marks ``undef`` in MIR; the assembly shows
    a plain read of both halves, so we keep the half live and LLVM does not.
"""

from __future__ import annotations

from collections import Counter

import isalens
from isalens.ir.registers import RegFile, registers_in
from tests.oracle.corpus import CorpusEntry
from tests.oracle.mir import mir_block_liveins

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
            want = (d.vgpr_count, d.agpr_count if d.agpr_count is not None else res.agpr.requested, d.sgpr_count)
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


def test_block_live_ins_equal_llvm_post_ra_liveness(corpus: list[CorpusEntry]) -> None:
    total = 0
    differ: list[str] = []
    kinds: Counter[str] = Counter()
    for entry in corpus:
        mir = mir_block_liveins(entry.llc_mir.read_text())
        module = isalens.load(entry.llc_asm)
        for kernel in module.kernels:
            blocks = mir.get(kernel.name, {})
            live = kernel.liveness()
            n = len(kernel.ir.instructions)
            for number, start in sorted(kernel.ir.block_starts.items()):
                if number not in blocks or start >= n:
                    continue
                total += 1
                ours = _ours(live.live_in[start])
                theirs = _registers(blocks[number])
                if ours != theirs:
                    extra = sorted(ours - theirs)
                    missing = sorted(theirs - ours)
                    kinds["ours has more" if extra and not missing else
                          "llvm has more" if missing and not extra else "both"] += 1
                    differ.append(f"{entry.source.name} {entry.target} {kernel.name} bb.{number}: "
                                  f"+{extra[:6]} -{missing[:6]}")
    agreement = 1 - len(differ) / max(total, 1)
    print(f"\nblock live-ins compared: {total}, equal: {total - len(differ)} ({agreement:.2%}); {dict(kinds)}")
    print("\n".join(differ[:60]))
    assert total > 2000
    assert agreement >= 0.99


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
