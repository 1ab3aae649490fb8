"""Code size against LLVM's assembler: for every instruction of the compiled corpus (all targets) and of
ACO's output for our own shader (and the ACO reference samples when present), our size in bytes equals
the byte count ``llvm-mc-19 -show-encoding`` prints.

Each kernel's instruction texts go through llvm-mc in one call. The corpus (clang -S) carries no encoding
words, so its sizes come from our encoding rules alone; the ACO samples carry their words, and there both
the exact size (from the words) and the rule size must equal llvm-mc's.
"""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import isalens
from isalens.arch.loader import get_arch
from isalens.isa.amdgcn import catalog
from isalens.isa.amdgcn.encoding import generation_of, instruction_size, text_size
from isalens.isa.amdgcn.syntax import parse_instruction_text
from tests.conftest import require_tool
from tests.fixtures.build import ACO_FAMILIES, AcoOutput
from tests.oracle.corpus import CorpusEntry

pytestmark = pytest.mark.oracle

_ENCODING = re.compile(r"; encoding: \[([^\]]*)\]")


def llvm_sizes(mc: str, target: str, wave: int, texts: list[str]) -> list[int]:
    """Bytes llvm-mc encodes for each text (one call); an assembler error fails the test."""
    extra = ["-mattr=+wavefrontsize64"] if wave == 64 and generation_of(target) >= 10 else []
    proc = subprocess.run([mc, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding", *extra],
                          input="\n".join(texts) + "\n", capture_output=True, text=True, check=False)
    assert "error" not in proc.stderr, proc.stderr[:2000]
    sizes = [len(m.group(1).split(",")) for m in _ENCODING.finditer(proc.stdout)]
    assert len(sizes) == len(texts), (target, len(sizes), len(texts))
    return sizes


def _corpus_kernels(corpus: list[CorpusEntry]) -> list[isalens.engine.load.LoadedKernel]:
    return [k for entry in corpus for k in isalens.load(entry.clang_asm).kernels]


def test_corpus_sizes_equal_llvm(corpus: list[CorpusEntry]) -> None:
    mc = require_tool("llvm-mc-19")
    kernels = _corpus_kernels(corpus)
    targets = {k.ir.arch for k in kernels}
    assert len(targets) == 9, targets

    def check(kernel: isalens.engine.load.LoadedKernel) -> tuple[int, list[str]]:
        ins = kernel.ir.instructions
        sizes = llvm_sizes(mc, kernel.ir.arch, kernel.ir.wave_size, [i.text for i in ins])
        bad = [f"{kernel.ir.arch} {kernel.name}: {i.text!r} ours {instruction_size(i, kernel.ir.arch).bytes}, "
               f"llvm-mc {s}" for i, s in zip(ins, sizes, strict=True)
               if instruction_size(i, kernel.ir.arch).bytes != s]
        return len(ins), bad

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(check, kernels))
    compared = sum(n for n, _ in results)
    mismatches = [m for _, bad in results for m in bad]
    # 117,678 instructions with clang-19 on the 9 corpus targets; all must agree
    assert compared > 100_000, compared
    assert not mismatches, f"{len(mismatches)} of {compared}:\n" + "\n".join(mismatches[:20])


def test_unsuffixed_valu_forms_equal_llvm(corpus: list[CorpusEntry]) -> None:
    """AMD listings print VALU mnemonics without _e32/_e64: with the suffix removed, the 4- or 8-byte form we
    infer from the operands must be the one llvm-mc picks for the same text."""
    mc = require_tool("llvm-mc-19")
    groups: dict[tuple[str, int], set[str]] = {}
    for kernel in _corpus_kernels(corpus):
        for ins in kernel.ir.instructions:
            if re.search(r"_e(32|64)$", ins.mnemonic) and "::" not in ins.text:
                stripped = re.sub(r"_e(32|64)\b", "", ins.text, count=1)
                groups.setdefault((kernel.ir.arch, kernel.ir.wave_size), set()).add(stripped)
    mismatches = []
    compared = 0
    for (target, wave), texts in sorted(groups.items()):
        ordered = sorted(texts)
        for text, size in zip(ordered, llvm_sizes(mc, target, wave, ordered), strict=True):
            raw = parse_instruction_text(text)
            compared += 1
            ours = text_size(raw.mnemonic, raw.operands, raw.modifiers, target, text).bytes
            if ours != size:
                mismatches.append(f"{target} {text!r}: ours {ours}, llvm-mc {size}")
    assert compared > 10_000, compared
    assert not mismatches, f"{len(mismatches)} of {compared}:\n" + "\n".join(mismatches[:20])


@pytest.mark.parametrize("family", sorted(ACO_FAMILIES))
def test_own_aco_output_sizes_equal_llvm(own_aco: dict[str, AcoOutput], family: str) -> None:
    """ACO's output for our own shader, made now: ACO's words, llvm-mc and our rules agree on every size."""
    out = own_aco[family]
    # ACO prints one instruction per line (its "(then repeated N times)" lines aside)
    printed = sum(1 for line in out.assembly.read_text().splitlines() if line.startswith("\t") and ";" in line)
    _check_aco_sizes(out.assembly, ACO_FAMILIES[family], printed)


@pytest.mark.parametrize(("family", "arch"), [("raven", "gfx902"), ("navi21", "gfx1030")])
def test_aco_sample_sizes_equal_llvm(samples: Path, family: str, arch: str) -> None:
    _check_aco_sizes(samples / "aco" / f"neighborhood_fp16.{family}.aco.s", arch, 173)


def _check_aco_sizes(path: Path, arch: str, count: int) -> None:
    mc = require_tool("llvm-mc-19")
    kernel = isalens.load(path, arch).kernels[0]
    ins = kernel.ir.instructions
    sizes = llvm_sizes(mc, arch, kernel.ir.wave_size, [i.text for i in ins])
    assert len(ins) == count
    for i, size in zip(ins, sizes, strict=True):
        exact = instruction_size(i, arch)
        assert exact.exact and exact.bytes == size, (i.text, exact, size)
        rule = text_size(i.mnemonic, i.operands, i.modifiers, arch, i.text)
        assert rule.bytes == size, (i.text, rule, size)


# domain.md §1.2 (after AMD's GPUOpen article on SDWA): v_addpk_f16's high half without SDWA is five
# instructions; the two right shifts, the left shift and the OR each have a 4- and an 8-byte form.
_NO_SDWA = ["v_lshrrev_b32 v3, 16, v1", "v_lshrrev_b32 v4, 16, v2", "v_add_f16 v2, v3, v4", "v_lshlrev_b32 v2, 16, v2",
            "v_or_b32 v0, v1, v2"]
_SDWA = ["v_add_f16 v0, v1, v2",
         "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_1"]


def _long_form(text: str) -> str:
    mnemonic, rest = text.split(" ", 1)
    return f"{mnemonic}_e64 {rest}" if mnemonic != "v_add_f16" else text


@pytest.mark.parametrize("target", ["gfx803", "gfx900"])
def test_section_1_2_sizes_confirmed_by_llvm(target: str) -> None:
    mc = require_tool("llvm-mc-19")
    for seq, want in ((_NO_SDWA, 20), ([_long_form(t) for t in _NO_SDWA], 36), (_SDWA, 12)):
        ours = 0
        for text in seq:
            raw = parse_instruction_text(text)
            ours += text_size(raw.mnemonic, raw.operands, raw.modifiers, target, text).bytes
        assert ours == want, (seq, ours)
        assert sum(llvm_sizes(mc, target, 64, seq)) == want, seq


_QUIRKS = {
    # the assembler accepts an "_e32" spelling of these but emits their VOP3 encoding
    "v_readlane_b32", "v_writelane_b32",
    # printed without a suffix in their 32-bit form, although they also have a VOP3 form
    "v_nop", "v_clrexcp", "v_pipeflush", "v_interp_p1_f32", "v_interp_p2_f32", "v_interp_mov_f32",
}
_FAMILY_CPU = {"gfx6": "gfx601", "gfx7": "gfx701",
               "gfx8": "gfx803", "gfx9": "gfx900", "cdna1": "gfx908", "cdna2": "gfx90a", "cdna3": "gfx942",
               "gfx10_1": "gfx1010", "gfx10_3": "gfx1030", "gfx11": "gfx1100", "gfx12": "gfx1200"}


@pytest.mark.parametrize("family", sorted(_FAMILY_CPU))
def test_valu_form_tables_agree_with_llvm(family: str) -> None:
    """For every VALU name of the family list: a name our tables call VOP3-only must be refused with an
    _e32 suffix, any other name accepted (llvm-mc's answer to the bare mnemonic: "too few operands")."""
    mc = require_tool("llvm-mc-19")
    cpu = _FAMILY_CPU[family]
    known = catalog.known_mnemonics(get_arch(cpu).mnemonic_lists)
    names = sorted(n for n in known if n.startswith("v_") and not n.startswith("v_dual_"))
    proc = subprocess.run([mc, "-arch=amdgcn", f"-mcpu={cpu}"], input="".join(f"{n}_e32\n" for n in names),
                          capture_output=True, text=True, check=False)
    errors = {int(m.group(1)): m.group(2) for m in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", proc.stderr)}
    wrong = []
    for line, name in enumerate(names, 1):
        if "not supported on this GPU" in errors.get(line, ""):
            continue  # a name of another target of the family (e.g. gfx906's dot products on gfx900)
        accepted = "too few operands" in errors.get(line, "too few operands")
        only64 = text_size(name, (), (), cpu).format in ("VOP3", "VOP3P", "VINTERP")
        if name in _QUIRKS or (family == "cdna3" and name.startswith("v_mfma_")):
            # cdna3: the pre-gfx940 MFMA spellings are aliases the parser takes before checking the suffix
            continue
        if only64 == accepted:
            wrong.append(f"{name}: ours {'VOP3-only' if only64 else 'has a 32-bit form'}, llvm-mc "
                         f"{'accepts' if accepted else 'refuses'} _e32 ({errors.get(line, '')})")
    assert not wrong, "\n".join(wrong[:30])
