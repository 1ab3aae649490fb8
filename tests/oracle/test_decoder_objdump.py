"""Our machine-code decoder (``isa/amdgcn/decoder``) against ``llvm-objdump-19``: every example kernel
(examples/kernels/**/*.cl, isalens' OpenCL flags) is compiled and linked for eight targets, the ``.text`` bytes are
decoded by us and disassembled by objdump, and the two texts are compared address by address.

Asserted: (1) no instruction ever gets a text different from objdump's (the decoder spells it exactly or gives a
diagnostic); (2) every instruction of the formats in ``CLAIMED`` is spelled exactly, on every target; (3) coverage
(share of all instructions spelled exactly) is printed per target; docs/decoder.md records it.
"""

from __future__ import annotations

import hashlib
import random
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from isalens.frontends.clang import opencl_flags
from isalens.isa.amdgcn.decoder import Diagnostic, decode_stream, decode_text
from isalens.isa.amdgcn.decoder.tables import family_of, layout_of
from isalens.isa.amdgcn.fields import Decoded, DecodeError, decode
from tests.conftest import EXAMPLES, ROOT, load_tool, require_tool
from tests.oracle.test_opcode_tables import _generator

TARGETS = ("gfx803", "gfx902", "gfx90a", "gfx942", "gfx1010", "gfx1030", "gfx1100", "gfx1200")
#: formats decoded identically to objdump for every instruction of the corpus on every target
CLAIMED = frozenset({"SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "DS",
                     "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "VOPD", "SDWA"})
_CACHE = ROOT / ".cache" / "decoder_objects"


def _code_object(source: Path, target: str, extra: tuple[str, ...] = ()) -> Path | None:
    """``source`` compiled and linked for ``target`` (cached by source text and flags); None if clang rejects it
    for this target (e.g. MFMA builtins on gfx902)."""
    clang = require_tool("clang-19")
    require_tool("ld.lld-19")
    flags = [*opencl_flags(target), *extra]
    key = hashlib.sha256("\0".join([source.read_text("utf-8"), *flags]).encode()).hexdigest()[:16]
    out = _CACHE / target / f"{source.stem}-{key}.co"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    obj = out.with_suffix(".o")
    if subprocess.run([clang, *flags, str(source), "-c", "-o", str(obj)], capture_output=True).returncode:
        return None
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", str(obj), "-o", str(out)],
                   check=True, capture_output=True)
    obj.unlink()
    return out


def _objdump(code_object: Path, target: str) -> dict[int, str]:
    """Address -> instruction text as llvm-objdump-19 prints it (single spaces; the library sweep's reader)."""
    return load_tool("decoder_sweep").objdump_texts(code_object.read_bytes(), target, False,
                                                    require_tool("llvm-objdump-19"))


def _text_words(code_object: Path) -> tuple[int, list[int]]:
    from elftools.elf.elffile import ELFFile

    with code_object.open("rb") as f:
        text = ELFFile(f).get_section_by_name(".text")
        data, address = text.data(), text["sh_addr"]
    return address, [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data) - 3, 4)]


@pytest.fixture(scope="module")
def objects() -> dict[str, list[Path]]:
    pytest.importorskip("elftools")
    sources = sorted((EXAMPLES / "kernels").rglob("*.cl"))
    return {t: [co for s in sources if (co := _code_object(s, t)) is not None] for t in TARGETS}


def compare(target: str, objects: list[Path]) -> tuple[Counter[str], Counter[str], list[str]]:
    """(identical per format, total per format, instructions whose text differs from objdump's)."""
    same: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong = []
    for co in objects:
        theirs = _objdump(co, target)
        base, words = _text_words(co)
        for offset, result in decode_stream(words, target):
            expected = theirs.get(base + offset)
            if expected is None:  # objdump does not start an instruction here: our length is wrong
                wrong.append(f"{co.name}+{offset:#x}: no objdump instruction at this address")
                continue
            total[result.format] += 1
            if isinstance(result, Diagnostic):
                continue
            if result.text == expected:
                same[result.format] += 1
            else:
                wrong.append(f"{co.name}+{offset:#x}: ours {result.text!r}, objdump {expected!r}")
    return same, total, wrong


@pytest.mark.parametrize("target", TARGETS)
def test_decoder_text_equals_objdump(objects: dict[str, list[Path]], target: str) -> None:
    same, total, wrong = compare(target, objects[target])
    assert sum(total.values()) > 10_000
    assert not wrong, f"{len(wrong)} instructions differ, e.g. {wrong[:5]}"
    claimed_gaps = {f: total[f] - same[f] for f in CLAIMED if total[f] != same[f]}
    assert not claimed_gaps, f"claimed formats not fully decoded on {target}: {claimed_gaps}"
    print(f"{target}: {sum(same.values())}/{sum(total.values())} identical "
          f"({100 * sum(same.values()) / sum(total.values()):.2f}%); not decoded: "
          + ", ".join(f"{f or '?'} {total[f] - same[f]}" for f in sorted(total) if total[f] != same[f]))


def _decoded(code_object: Path, target: str) -> Iterator[Decoded]:
    """Each instruction our field decoder reads in ``code_object``'s code, in order (a word it cannot read is
    passed over)."""
    family = family_of(target)
    assert family is not None
    generation = 8 if family == "gfx8" else 9 if layout_of(family) == "gfx9" else int(layout_of(family)[3:])
    _base, words = _text_words(code_object)
    i = 0
    while i < len(words):
        try:
            d = decode(words[i:], generation, layout_of(family))
        except DecodeError:
            i += 1
            continue
        i += len(d.words)
        yield d


def _mutants_against_llvm_mc(target: str, mutants: list[tuple[int, ...]]) -> tuple[int, list[str]]:
    """(compared, differences): our text of each mutant against llvm-mc-19's, wherever LLVM decodes it as one
    instruction of the mutant's length (its "/*Invalid register...*/" marks an encoding it rejects, issue 28:
    not an oracle for the text) and we give a text."""
    theirs = _generator().disassemble(require_tool("llvm-mc-19"), target, mutants)
    compared, wrong = 0, []
    for words, expected in zip(mutants, theirs, strict=True):
        ours = decode_text(words, target)
        if expected is None or "/*" in expected or isinstance(ours, Diagnostic) or ours.size != 4 * len(words):
            continue
        compared += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(f"{' '.join(f'{w:08X}' for w in words)}: ours {ours.text!r}, llvm-mc {expected!r}")
    return compared, wrong


@pytest.mark.parametrize("target", TARGETS)
def test_mutated_fields_never_give_a_different_text(objects: dict[str, list[Path]], target: str) -> None:
    """Real instructions with one random field (not the encoding or opcode) set to a random value: whenever
    llvm-mc-19 decodes the mutant as one instruction of the same length and we give a text, the texts are equal."""
    require_tool("llvm-mc-19")
    rng = random.Random(target)
    mutants: list[tuple[int, ...]] = []
    for co in objects[target][:12]:
        for d in _decoded(co, target):
            fields = [f for f in d.fields if f.name not in ("ENCODING", "OP", "LITERAL") and f.hi < 32 * len(d.words)]
            if fields:
                f = rng.choice(fields)
                value = 0
                for n, w in enumerate(d.words):
                    value |= w << (32 * n)
                value &= ~(((1 << (f.hi - f.lo + 1)) - 1) << f.lo)
                value |= rng.getrandbits(f.hi - f.lo + 1) << f.lo
                mutants.append(tuple(value >> (32 * n) & 0xFFFFFFFF for n in range(len(d.words))))
    compared, wrong = _mutants_against_llvm_mc(target, mutants)
    print(f"{target}: {compared} of {len(mutants)} mutants compared, {len(wrong)} differ")
    assert compared > 500
    assert not wrong, f"{len(wrong)} mutants differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("target", TARGETS)
def test_unnamed_bits_never_give_a_different_text(objects: dict[str, list[Path]], target: str) -> None:
    """The bits no field of our layouts names (gfx90a's scc, gfx940's sc1 ... were such bits): one instruction per
    (format, opcode) of the compiled examples with each such bit flipped alone; wherever llvm-mc-19 decodes the
    mutant as one instruction and we give a text, the texts are equal (a bit we do not know must give a
    diagnostic, never a text without it)."""
    seen: dict[tuple[str, int], tuple[int, ...]] = {}
    for co in objects[target]:
        for d in _decoded(co, target):
            covered = sum(((1 << (f.hi - f.lo + 1)) - 1) << f.lo for f in d.fields)
            op = d.get("OP")
            seen.setdefault((d.format, op.value if op else -1), (covered, *d.words))
    mutants = []
    for covered, *words in seen.values():
        whole = sum(w << (32 * n) for n, w in enumerate(words))
        for bit in range(32 * len(words)):
            if not covered >> bit & 1:
                value = whole ^ 1 << bit
                mutants.append(tuple(value >> (32 * n) & 0xFFFFFFFF for n in range(len(words))))
    compared, wrong = _mutants_against_llvm_mc(target, mutants)
    print(f"{target}: {len(mutants)} words with an unnamed bit flipped, {compared} compared, {len(wrong)} differ")
    assert mutants
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


#: gfx10+ targets whose wave64 code (``-mwavefrontsize64``) the listing test reads too
WAVE64_TARGETS = ("gfx1010", "gfx1030", "gfx1100", "gfx1200")


@pytest.fixture(scope="module")
def wave64_objects() -> dict[str, list[Path]]:
    pytest.importorskip("elftools")
    sources = sorted((EXAMPLES / "kernels").rglob("*.cl"))
    return {t: [co for s in sources if (co := _code_object(s, t, ("-mwavefrontsize64",))) is not None]
            for t in WAVE64_TARGETS}


def _listing_lines(text: str) -> list[str]:
    """A listing's lines without the file-format line (it names the file objdump was given)."""
    return ["" if "file format" in line else line for line in text.split("\n")]


@pytest.mark.parametrize("target", TARGETS)
def test_listing_equals_objdump_line_for_line(objects: dict[str, list[Path]], target: str) -> None:
    """The binary path's listing (issue 28, wiring): our decoder's text of each whole code object, and of its first
    kernel alone (``--disassemble-symbols``), equals llvm-objdump-19's line for line (so line numbers, branch
    targets, padding and every report downstream are the same), unless our decoder gave a diagnostic and fell
    back to llvm-objdump for that code object (counted and printed)."""
    _compare_listings(objects[target], target)


@pytest.mark.parametrize("target", WAVE64_TARGETS)
def test_wave64_listing_equals_objdump_line_for_line(wave64_objects: dict[str, list[Path]], target: str) -> None:
    """The same for wave64 code on gfx10+ (objdump run with ``--mattr=+wavefrontsize64``: VCC and lane masks as
    SGPR pairs), which our decoder reads with the ``_w64`` tables."""
    _compare_listings(wave64_objects[target], target)


def _compare_listings(paths: list[Path], target: str) -> None:
    from isalens.binary.codeobject import read_code_object
    from isalens.engine.code_listing import code_listing, code_reading
    from isalens.isa.amdgcn.trailer_listing import read_trailer_listing

    require_tool("llvm-objdump-19")
    same, fallback, wrong, drafts_differ = 0, 0, [], []
    for path in paths:
        co = read_code_object(path.read_bytes(), file=str(path), source="code object")
        # a code object of functions alone (examples/kernels/liveness/agpr_saves.cl) has no first kernel
        for symbols in (None, *([[co.kernels[0].symbol]] if co.kernels else [])):
            ours, notes = code_listing(co, file=str(path), symbols=symbols, disassembler="ours")
            if any(n.code == "disassembler" for n in notes):
                fallback += 1
                continue
            theirs, _ = code_listing(co, file=str(path), symbols=symbols, disassembler="llvm")
            # what the binary path reads: the drafts made without the text, equal to the reader's of the text
            drafted = code_reading(co, file=str(path), symbols=symbols).drafted
            if drafted is None or drafted.result != read_trailer_listing(ours, str(path), objdump=True):
                drafts_differ.append(f"{path.name} {symbols or 'all'}")
            if _listing_lines(ours) == _listing_lines(theirs):
                same += 1
            else:
                wrong.append(f"{path.name} {symbols or 'all'}")
    print(f"{target}: {same} listings identical, {fallback} fell back to llvm-objdump")
    assert not wrong, f"listings differ: {wrong[:5]}"
    assert not drafts_differ, f"drafts differ from the listing's reader: {drafts_differ[:5]}"
    assert same > fallback


@pytest.mark.parametrize(("target", "words", "clean"), [
    # issue 28's word: gfx10 VOP3B v_add_co_u32 (opcode 0x30f) with SRC2 (bits 58:50) = v1 instead of 0
    ("gfx1030", (0xD70F0A08, 0x04060000), (0xD70F0A08, 0x00020000)),
    ("gfx1010", (0xD70F0A08, 0x04060000), (0xD70F0A08, 0x00020000)),
    # gfx11's v_add_co_u32 (opcode 0x300), SRC2 = v1
    ("gfx1100", (0xD7006A02, 0x04060000), (0xD7006A02, 0x00020000)),
])
def test_hardware_reads_unused_source_llvm_rejects(target: str, words: tuple[int, int],
                                                   clean: tuple[int, int]) -> None:
    """An unused source field set: llvm-mc-19 rejects the encoding (or reads another instruction); we read it as
    the hardware does, as the same encoding with the field zeroed (llvm-mc's text of that is the oracle), with a
    note naming the instruction and field; without ``hardware`` it stays a diagnostic."""
    llvm_mc = require_tool("llvm-mc-19")
    theirs = _generator().disassemble(llvm_mc, target, [words, clean])
    assert theirs[0] is None or " ".join(theirs[0].split()) != " ".join((theirs[1] or "").split())
    ours = decode_text(words, target, hardware=True)
    assert not isinstance(ours, Diagnostic) and theirs[1] is not None
    assert ours.text == " ".join(theirs[1].split())
    assert ours.size == 8 and "v_add_co_u32" in ours.note and "SRC2" in ours.note
    assert isinstance(decode_text(words, target), Diagnostic)


@pytest.mark.parametrize("target", ["gfx1010", "gfx1030", "gfx1100", "gfx1200"])
def test_depctr_counters_equal_llvm_mc(target: str) -> None:
    """``s_waitcnt_depctr`` (gfx10/11) and ``s_wait_alu`` (gfx12) with 1500 random immediates and those compilers
    emit: our text equals llvm-mc-19's for every one (symbolic counters, or hex when a bit belongs to none)."""
    llvm_mc = require_tool("llvm-mc-19")
    family = family_of(target)
    assert family is not None
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    op = next(op for op, row in opcode_table(family)["SOPP"].items() if row[0] in ("s_waitcnt_depctr", "s_wait_alu"))
    rng = random.Random(target)
    immediates = [0xFFE3, 0x0FFF, 0xFF03, 0x0F9F, 0xFF9E, 0xFF9F, 0xFFFE, *(rng.getrandbits(16) for _ in range(1500))]
    words = [(0x17F << 23 | op << 16 | imm,) for imm in immediates]
    theirs = _generator().disassemble(llvm_mc, target, words)
    wrong = []
    for w, expected in zip(words, theirs, strict=True):
        ours = decode_text(w, target)
        assert expected is not None
        if isinstance(ours, Diagnostic) or ours.text != " ".join(expected.split()):
            wrong.append(f"{w[0]:08X}: ours {ours}, llvm-mc {expected!r}")
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:3]}"


_HALF_FIELD_BITS = {"VDST": (17, 0xFF, 0), "VSRC1": (9, 0xFF, 0), "SRC0": (0, 0x1FF, 256)}


@pytest.mark.parametrize("target", ["gfx1100", "gfx1200"])
def test_true16_halves_equal_llvm_real_true16(target: str) -> None:
    """gfx11+ 16-bit VOP1/VOP2/VOPC operands (the table's ``{FIELD:t:1}``/``{FIELD:h:1}``): every such opcode with
    high and low halves in its 16-bit fields (register numbers 128+n and n). Where llvm-mc-19
    ``-mattr=+real-true16`` decodes the word without an invalid-register comment, our text equals its (the
    ``vN.l``/``vN.h`` syntax); LLVM 19's default ("fake16") spelling is no oracle here (``v132/*Invalid
    register*/`` or a rejected word). Every such word gives a text (never a diagnostic), and one whose 16-bit
    fields are all low halves keeps LLVM 19's default spelling (``v4``: the objdump oracle above)."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    llvm_mc = require_tool("llvm-mc-19")
    family = family_of(target)
    assert family is not None
    rng = random.Random(target)
    cases: list[tuple[str, tuple[int, ...]]] = []
    for fmt, head in (("VOP1", 0x3F << 25), ("VOP2", 0), ("VOPC", 0x3E << 25)):
        for op, (_mn, template, _zero) in opcode_table(family)[fmt].items():
            halves = [m.group(1) for m in re.finditer(r"\{(\w+):[th]:1\}", template)]
            if not halves:
                continue
            opbits = op << 25 if fmt == "VOP2" else op << 17 if fmt == "VOPC" else op << 9
            for _ in range(4):
                word = head | opbits
                for name in ("VDST", "VSRC1", "SRC0"):
                    if f"{{{name}:" in template:
                        lo, _mask, base = _HALF_FIELD_BITS[name]
                        word |= (base + rng.randrange(256)) << lo
                literal = (0x3C00,) if "{LITERAL}" in template else ()
                cases.append((f"{fmt} {op}", (word, *literal)))
    words = [w for _, w in cases]
    true16 = _generator().disassemble(llvm_mc, target, words, ("real-true16",))
    fake16 = _generator().disassemble(llvm_mc, target, words)
    compared, wrong, high = Counter[str](), [], 0
    for (where, w), t16, f16 in zip(cases, true16, fake16, strict=True):
        ours = decode_text(w, target)
        assert not isinstance(ours, Diagnostic), f"{where} {w}: {ours.reason}"
        halves = re.search(r"\bv\d+\.[lh]\b", ours.text) is not None
        high += ".h" in ours.text
        # spelled as halves: true16 LLVM is the oracle; all low halves: LLVM 19's default
        mode, expected = ("true16", t16) if halves else ("default", f16)
        if expected is None or "/*" in expected:
            continue
        compared[mode] += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(f"{where} {' '.join(f'{x:08X}' for x in w)}: ours {ours.text!r}, llvm-mc {expected!r}")
    print(f"{target}: {len(cases)} words, {high} with a high half; compared with llvm-mc-19: {dict(compared)}")
    assert high > len(cases) // 2 and compared["true16"] > 20 and compared["default"] > 20
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("target", ["gfx902", "gfx90a", "gfx942", "gfx1010", "gfx1030", "gfx1100", "gfx1200"])
def test_vop3_op_sel_equals_llvm_mc(target: str) -> None:
    """VOP3 ``op_sel`` (word 0 bits 14:11): every opcode of the VOP3 table with random op_sel bits (and clamp,
    output modifier, abs and neg now and then) on the table's probe registers: wherever llvm-mc-19 decodes the
    word (without an invalid-register comment) our text equals its; where it does not, ours is a diagnostic
    or the same text LLVM gives without the bits LLVM rejects (never checked here: no oracle)."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    llvm_mc = require_tool("llvm-mc-19")
    family = family_of(target)
    assert family is not None
    gen = _generator()
    layout = layout_of(family)
    rng = random.Random(target)
    cases = []
    for op, (_mn, template, _zero) in opcode_table(family)["VOP3"].items():
        if "{SDST:" in template or "{LITERAL}" in template:
            continue
        w0, w1 = gen._vop3_probe(layout, op, template)
        for _ in range(3):
            extra = rng.randrange(1, 16) << 11
            if rng.random() < 0.3:
                extra |= 1 << 15  # clamp
            hi = rng.getrandbits(2) << 27 if rng.random() < 0.3 else 0  # omod
            cases.append((w0 | extra, w1 | hi))
    theirs = gen.disassemble(llvm_mc, target, cases)
    compared, wrong, texts = 0, [], 0
    for words, expected in zip(cases, theirs, strict=True):
        ours = decode_text(words, target)
        texts += not isinstance(ours, Diagnostic)
        if expected is None or "/*" in expected or isinstance(ours, Diagnostic):
            continue
        compared += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(f"{words[0]:08X} {words[1]:08X}: ours {ours.text!r}, llvm-mc {expected!r}")
    printed = sum("op_sel:" in (t or "") for t in theirs)
    print(f"{target}: {len(cases)} words, {texts} decoded, {compared} compared ({printed} with op_sel printed)")
    assert compared > len(cases) // 2 and (printed > 20 or layout_of(family) == "gfx9")
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("target", ["gfx902", "gfx1030", "gfx1100", "gfx1200"])
def test_zero_dword_equals_llvm_mc(target: str) -> None:
    """A lone zero dword (padding between functions): gfx10+ LLVM prints ``v_illegal`` (the table's WORDS
    section), gfx9 a ``v_cndmask_b32_e32``; ours is the same text."""
    theirs = _generator().disassemble(require_tool("llvm-mc-19"), target, [(0,)])[0]
    ours = decode_text([0], target)
    assert theirs is not None and not isinstance(ours, Diagnostic)
    assert ours.text == " ".join(theirs.split())

def _against_llvm_mc(target: str, cases: list[tuple[int, ...]], what: str, *,
                     wave64: bool = False) -> tuple[int, int]:
    """Our text of every case equals llvm-mc-19's wherever LLVM decodes it and we give no diagnostic (fails
    otherwise, naming up to five differences); prints and returns (words LLVM decodes, words compared)."""
    mattr = ("wavefrontsize64",) if wave64 else ()
    theirs = _generator().disassemble(require_tool("llvm-mc-19"), target, cases, mattr)
    decoded_by_llvm, compared, wrong = 0, 0, []
    for words, expected in zip(cases, theirs, strict=True):
        if expected is None or "/*" in expected:
            continue
        decoded_by_llvm += 1
        ours = decode_text(words, target, wave64=wave64)
        if isinstance(ours, Diagnostic):
            continue
        compared += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(" ".join(f"{w:08X}" for w in words) + f": ours {ours.text!r}, llvm-mc {expected!r}")
    print(f"{target}{' wave64' if wave64 else ''}: {len(cases)} {what} words, LLVM decodes {decoded_by_llvm}, "
          f"{compared} compared")
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"
    return decoded_by_llvm, compared



@pytest.mark.parametrize("target", ["gfx803", "gfx902", "gfx90a", "gfx942", "gfx1010", "gfx1030"])
@pytest.mark.parametrize("wave64", [False, True])
def test_sdwa_equals_llvm_mc(target: str, wave64: bool) -> None:
    """SDWA (gfx8-gfx10): every VOP1/VOP2/VOPC opcode of the SDWA sections, four times with random registers,
    selects, dst_unused, and now and then sext/neg/abs/SGPR sources/clamp/omod/SD: wherever llvm-mc-19 decodes the
    word (without an invalid-register comment) our text equals its, and we decode most of those."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    if wave64 and not target.startswith("gfx10"):
        pytest.skip("wave64 tables are gfx10+")
    family = family_of(target)
    assert family is not None
    rng = random.Random(f"{target}{wave64}")
    cases = []
    tables = opcode_table(family, wave64)
    for fmt, head in (("VOP1", 0x3F << 25), ("VOP2", 0), ("VOPC", 0x3E << 25)):
        for op in tables.get("SDWA_" + fmt, {}):
            opbits = op << 25 if fmt == "VOP2" else op << 17 if fmt == "VOPC" else op << 9
            for _ in range(4):
                w0 = head | opbits | 0xF9 | (rng.randrange(256) << 9 if fmt != "VOP1" else 0)
                if fmt != "VOPC":
                    w0 |= rng.randrange(256) << 17
                sels = rng.randrange(7) << 16 | (rng.randrange(7) << 24 if fmt != "VOP1" else 0)
                if fmt != "VOPC" or target == "gfx803":
                    sels |= rng.randrange(7) << 8 | rng.randrange(3) << 11
                w1 = rng.randrange(256) | sels
                if rng.random() < 0.5:  # one modifier bit (sext/neg/abs, S0/S1, clamp/omod or SD)
                    w1 |= 1 << rng.choice((19, 20, 21, 23, 27, 28, 29, 31, 13, 14, 15))
                cases.append((w0 & 0xFFFFFFFF, w1))
    decoded_by_llvm, compared = _against_llvm_mc(target, cases, "SDWA", wave64=wave64)
    assert compared > 0.9 * decoded_by_llvm and compared > 200


def test_gfx1150_salu_float_equals_llvm_mc() -> None:
    """gfx1150-gfx1153 (table family gfx11_5, made with -mcpu=gfx1150): the SALU float opcodes gfx1100 lacks,
    each eight times with random SGPRs, inline constants and literals: our text equals llvm-mc-19's."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    llvm_mc = require_tool("llvm-mc-19")
    rng = random.Random(1150)
    new, old = opcode_table("gfx11_5"), opcode_table("gfx11")
    cases = []
    heads = {"SOP2": lambda op, d, a, b: (0b10 << 30 | op << 23 | d << 16 | b << 8 | a),
             "SOP1": lambda op, d, a, b: (0x17D << 23 | d << 16 | op << 8 | a),
             "SOPC": lambda op, d, a, b: (0x17E << 23 | op << 16 | b << 8 | a)}
    for fmt, make in heads.items():
        for op in sorted(set(new[fmt]) - set(old[fmt])):
            for _ in range(8):
                a, b = (rng.choice([rng.randrange(100), rng.randrange(128, 209), rng.randrange(240, 249), 255])
                        for _ in range(2))
                word = make(op, rng.randrange(100), a, b)
                literal = 255 in (a, b) or "{LITERAL}" in new[fmt][op][1]
                cases.append((word, rng.choice([0x3F800000, 0x3C00, rng.getrandbits(32)])) if literal else (word,))
    theirs = _generator().disassemble(llvm_mc, "gfx1150", cases)
    compared, wrong = 0, []
    for words, expected in zip(cases, theirs, strict=True):
        ours = decode_text(words, "gfx1150")
        if expected is None or "/*" in expected or isinstance(ours, Diagnostic):
            continue
        compared += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(f"{' '.join(f'{w:08X}' for w in words)}: ours {ours.text!r}, llvm-mc {expected!r}")
    print(f"gfx1150: {len(cases)} SALU float words, {compared} compared")
    assert compared > len(cases) // 2
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("target", ["gfx906", "gfx90a", "gfx1030", "gfx1100"])
def test_fma_mix_modifiers_equal_llvm_mc(target: str) -> None:
    """v_fma_mix*/v_mad_mix*: LLVM prints neg_lo/neg_hi as the sources' neg and abs (``neg(0)``, ``-v1``,
    ``|v2|``), not as lists (seen on torch-cluster-rocm's gfx906 code): 40 random words per opcode with random
    sources, op_sel, op_sel_hi, neg bits and clamp; our text equals llvm-mc-19's wherever both decode."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    family = family_of(target)
    assert family is not None
    rows = opcode_table(family)["VOP3P"]
    rng = random.Random(target)
    head = (0x1A7 << 23) if layout_of(family) == "gfx9" else (0xCC << 24)
    cases = []
    for op in (op for op, row in rows.items() if row[0].startswith(("v_fma_mix", "v_mad_mix"))):
        for _ in range(40):
            w0 = head | op << 16 | rng.getrandbits(5) << 11 | rng.getrandbits(3) << 8 | 5
            srcs = [rng.choice([256 + rng.randrange(50), rng.randrange(100), 128, 242]) for _ in range(3)]
            cases.append((w0, rng.getrandbits(5) << 27 | srcs[2] << 18 | srcs[1] << 9 | srcs[0]))
    theirs = _generator().disassemble(require_tool("llvm-mc-19"), target, cases)
    compared, wrong = 0, []
    for words, expected in zip(cases, theirs, strict=True):
        ours = decode_text(words, target)
        if expected is None or "/*" in expected or isinstance(ours, Diagnostic):
            continue
        compared += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(f"{words[0]:08X} {words[1]:08X}: ours {ours.text!r}, llvm-mc {expected!r}")
    assert compared > 30
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942"])
def test_mai_equals_llvm_mc(target: str) -> None:
    """MAI (v_mfma*/v_smfmac*, the table's ``MAI`` section): every opcode with random registers (misaligned too),
    SRC2 now and then an inline constant, special or SGPR, and random cbsz/abid/blgp/ACC_CD/ACC bits: wherever
    llvm-mc-19 decodes the word (without an invalid-register comment) our text equals its, and we decode nearly all
    of those. SRC0/SRC1 stay VGPRs: llvm-mc-19 crashes on some constants there (we give a diagnostic)."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    family = family_of(target)
    assert family is not None
    rows = opcode_table(family)["MAI"]
    rng = random.Random(f"mai{target}")
    cases = []
    for op in rows:
        for _ in range(max(8, 320 // len(rows))):
            mods = 0
            if rng.random() < 0.6:
                mods = rng.getrandbits(3) << 8 | rng.getrandbits(4) << 11 | rng.getrandbits(1) << 15
            w0 = 0x1A7 << 23 | op << 16 | mods | rng.randrange(224)
            src2 = rng.choice([256 + rng.randrange(224), 256 + rng.randrange(224), rng.randrange(128, 209),
                               rng.randrange(235, 255), rng.randrange(106)])
            w1 = 256 + rng.randrange(250) | (256 + rng.randrange(250)) << 9 | src2 << 18
            if rng.random() < 0.6:
                w1 |= rng.getrandbits(2) << 27 | rng.getrandbits(3) << 29
            cases.append((w0, w1))
    decoded_by_llvm, compared = _against_llvm_mc(target, cases, "MAI")
    assert compared > 0.95 * decoded_by_llvm and compared > 150


@pytest.mark.parametrize("target", ["gfx803", "gfx902", "gfx90a", "gfx942", "gfx1010", "gfx1030", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("wave64", [False, True])
def test_dpp_equals_llvm_mc(target: str, wave64: bool) -> None:
    """DPP (VOP1/VOP2/VOPC with a DPP16 dword, gfx10+ also DPP8): every opcode of the DPP sections with random
    registers (high 16-bit halves too), controls, masks and modifier bits: wherever llvm-mc-19 decodes the word
    (without a comment) our text equals its, and we decode nearly all of those."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    if wave64 and not target.startswith(("gfx10", "gfx11", "gfx12")):
        pytest.skip("wave64 tables are gfx10+")
    family = family_of(target)
    assert family is not None
    tables = opcode_table(family, wave64)
    rng = random.Random(f"dpp{target}{wave64}")
    dpp8 = layout_of(family) != "gfx9"
    cases = []
    for fmt, head in (("VOP1", 0x3F << 25), ("VOP2", 0), ("VOPC", 0x3E << 25)):
        rows = tables.get("DPP_" + fmt, {})
        for op in rows:
            opbits = op << 25 if fmt == "VOP2" else op << 17 if fmt == "VOPC" else op << 9
            for _ in range(max(2, 300 // max(1, len(rows)))):
                w0 = head | opbits | (rng.randrange(256) << 17 if fmt != "VOPC" else 0) | (
                    rng.randrange(256) << 9 if fmt != "VOP1" else 0)  # VDST, VSRC1
                src0 = rng.randrange(256)
                if dpp8 and rng.random() < 0.25:
                    cases.append((w0 | rng.choice((0xE9, 0xEA)), src0 | rng.getrandbits(24) << 8))
                    continue
                ctrl = rng.choice([rng.randrange(512), rng.randrange(256), rng.randrange(0x100, 0x170)])
                mods = rng.getrandbits(7) << 17 if rng.random() < 0.6 else 0
                cases.append((w0 | 0xFA, src0 | ctrl << 8 | mods | rng.getrandbits(8) << 24))
    decoded_by_llvm, compared = _against_llvm_mc(target, cases, "DPP", wave64=wave64)
    assert compared > 0.9 * decoded_by_llvm and compared > 150


@pytest.mark.parametrize("target", ["gfx803", "gfx902", "gfx906", "gfx90a", "gfx942"])
def test_mtbuf_equals_llvm_mc(target: str) -> None:
    """MTBUF (tbuffer_*, gfx8/gfx9/CDNA; the table's MTBUF and MTBUF_FMT sections): every opcode 20 times with
    random registers, offsets, formats, offen/idxen, SOFFSET and cache/TFE/ACC bits (gfx90a scc, gfx940 sc0 sc1
    nt): wherever llvm-mc-19 decodes the word (without a comment) our text equals its, and we decode nearly all of
    those."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    family = family_of(target)
    assert family is not None
    rng = random.Random(f"mtbuf{target}")
    cases = []
    for op in opcode_table(family)["MTBUF"]:
        for _ in range(20):
            w0 = 0x3A << 26 | rng.getrandbits(7) << 19 | op << 15 | rng.getrandbits(3) << 12 | rng.getrandbits(12)
            soffset = rng.choice([rng.randrange(102), rng.randrange(128, 209), 124, 106])
            w1 = soffset << 24 | rng.getrandbits(3) << 53 - 32 | rng.randrange(26) << 16 | rng.randrange(250) << 8 \
                | rng.randrange(250)
            cases.append((w0, w1))
    decoded_by_llvm, compared = _against_llvm_mc(target, cases, "MTBUF")
    assert compared > 0.9 * decoded_by_llvm and compared > 150


@pytest.mark.parametrize("target", ["gfx803", "gfx902", "gfx1030", "gfx1100", "gfx1200"])
def test_export_equals_llvm_mc(target: str) -> None:
    """EXP (gfx12: export; the table's EXP and EXP_FLAGS sections): 400 random words with random targets, enable masks,
    COMPR/DONE/VM/ROW_EN bits and registers (now and then a bit outside the fields): wherever llvm-mc-19 decodes
    the word (without a comment) our text equals its, and we decode nearly all of those."""
    rng = random.Random(f"exp{target}")
    encoding = 0x31 if target.startswith(("gfx8", "gfx9")) else 0x3E
    cases = []
    for _ in range(400):
        w0 = encoding << 26 | rng.getrandbits(4) << 10 | rng.randrange(64) << 4 | rng.getrandbits(4)
        if rng.random() < 0.05:
            w0 |= 1 << rng.randrange(14, 26)
        cases.append((w0, rng.getrandbits(32)))
    decoded_by_llvm, compared = _against_llvm_mc(target, cases, "EXP")
    assert compared > 0.9 * decoded_by_llvm and compared > 200


def test_gfx90a_scc_equals_llvm_mc() -> None:
    """gfx90a's scc cache bit (MUBUF bit 15, FLAT/GLOBAL/SCRATCH bit 25; MTBUF's is in test_mtbuf_equals_llvm_mc),
    which no field names, so the mutation oracle never sets it: every MUBUF and FLAT-family opcode of the table
    with scc and random glc/slc on the probe registers: our text equals llvm-mc-19's wherever it decodes the word."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    rng = random.Random("scc")
    tables = opcode_table("gfx90a")
    cases = []
    for op in tables["MUBUF"]:
        w0 = 0x38 << 26 | op << 18 | 1 << 15 | rng.getrandbits(1) << 14 | rng.getrandbits(1) << 17
        cases.append((w0, 0x80 << 24 | 1 << 16 | 8 << 8))
    for seg, fmt in ((0, "FLAT"), (1, "SCRATCH"), (2, "GLOBAL")):
        for op in tables[fmt]:
            w0 = 0x37 << 26 | 1 << 25 | op << 18 | rng.getrandbits(2) << 16 | seg << 14
            cases.append((w0, 8 << 24 | 0x7F << 16 | 16 << 8 | 24))
    theirs = _generator().disassemble(require_tool("llvm-mc-19"), "gfx90a", cases)
    compared, wrong = 0, []
    for words, expected in zip(cases, theirs, strict=True):
        ours = decode_text(words, "gfx90a")
        if expected is None or "/*" in expected or isinstance(ours, Diagnostic):
            continue
        compared += 1
        if ours.text != " ".join(expected.split()):
            wrong.append(f"{words[0]:08X} {words[1]:08X}: ours {ours.text!r}, llvm-mc {expected!r}")
    print(f"gfx90a: {len(cases)} words with scc, {compared} compared")
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"
    assert compared > 100


@pytest.mark.parametrize("target", TARGETS)
def test_sixteen_bit_literals_equal_llvm_mc(target: str) -> None:
    """A literal read by a gfx11+ 16-bit VOP1/VOP2/VOPC source (found by the ROCm LLVM oracle on
    torch-cluster-rocm: ``v_mov_b16_e32 v0.l, 0xffffbc00`` printed whole where LLVM prints ``0xbc00``), and the
    constant K of ``v_madmk``/``v_fmaak``... (printed ``5`` where LLVM prints ``0x5``, found by this test): every
    such opcode with literals whose high half is set, inline-able values and random dwords; wherever llvm-mc-19
    decodes the word as one instruction, our text equals its text."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table
    from isalens.isa.amdgcn.decoder.text import _half_kind

    gen = _generator()
    rng = random.Random(target)
    family = family_of(target)
    assert family is not None
    literals = [0xFFFF0005, 5, 0xFFFFFFFF, 0xFFFFFFF5, 0xFFF5, 0x11234, 0x3800, 0xFFFFBC00, 0x3118, 0x8000, 0x10040]
    mutants = []
    for fmt in ("VOP1", "VOP2", "VOPC"):
        for op, (mn, tmpl, _zero) in opcode_table(family)[fmt].items():
            if "{SRC0:t:" in tmpl or "{SRC0:h:" in tmpl or "{LITERAL}" in tmpl or _half_kind(mn):
                word = gen._word(fmt, op, tmpl) & ~0x1FF | 255
                mutants += [(word, lit) for lit in (*literals, rng.getrandbits(32), rng.getrandbits(16))]
    compared, wrong = _mutants_against_llvm_mc(target, mutants)
    print(f"{target}: {len(mutants)} words, {compared} compared, {len(wrong)} differ")
    assert compared > 300
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("target", TARGETS)
def test_ds_swizzle_offsets_equal_llvm_mc(target: str) -> None:
    """``ds_swizzle_b32``'s offset (a diagnostic before: 10 of librocsparse's sampled gfx1030 instructions fell back
    to llvm-objdump): every quad-perm offset, 3000 random ones and the edges of each mode; wherever llvm-mc-19 decodes
    the word, our text equals its text (the whole 65,536 were checked once on gfx803/gfx900/gfx90a/gfx1030/gfx1100/
    gfx1200, none differ)."""
    from isalens.isa.amdgcn.decoder.tables import opcode_table

    family = family_of(target)
    assert family is not None
    op = next(o for o, row in opcode_table(family)["DS"].items() if row[0] == "ds_swizzle_b32")
    shift = 17 if layout_of(family) == "gfx9" else 18  # DS OP is 24:17 on gfx8/gfx9, 25:18 on gfx10+
    rng = random.Random(f"swizzle{target}")
    offsets = [*range(0x8000, 0x8100), 0, 1, 0x1F, 0x7FFF, 0x8100, 0xFFFF, 0x041F, 0x7C1F, 0x03E0, 0x01E0,
               *(rng.getrandbits(15) for _ in range(2500)), *(rng.getrandbits(16) for _ in range(500))]
    words = [(0x36 << 26 | op << shift | offset, rng.randrange(256) << 24 | rng.randrange(256)) for offset in offsets]
    compared, wrong = _mutants_against_llvm_mc(target, words)
    print(f"{target}: {len(words)} ds_swizzle_b32 words, {compared} compared")
    assert compared == len(words)
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:5]}"


def test_ds_swizzle_of_librocsparse_equals_objdump() -> None:
    """The word of librocsparse 5.3's gfx1030 code (bundle 60, 0xe748) and llvm-objdump-19's text of it."""
    ours = decode_text((0xD8D401E0, 0x12000011), "gfx1030")
    assert not isinstance(ours, Diagnostic)
    assert ours.text == "ds_swizzle_b32 v18, v17 offset:swizzle(BROADCAST,32,15)"
