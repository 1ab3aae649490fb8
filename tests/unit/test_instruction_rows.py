"""Instructions made from a text's tail (``isa/amdgcn/instructions.build_instructions``) equal the ones made
line by line (``build_instruction``, the reader's definition), with either core's loop.

The oracle is the line-by-line reader: every line through ``build_instruction`` in order, as the reader did
before the tails existed. Compared: every field of every instruction, its type, and the diagnostics (one per
guessed line, in order). The inputs make the tail's conditions matter: repeated texts, label branches, unknown
instructions read with ``--ignore-unknown`` (a warning per line), and an objdump listing whose lines repeat a
text first read without an address (its address, encoding words and numeric branch targets differ per line).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from isalens import _core
from isalens._core import reading
from isalens.engine.load import load
from isalens.ir.instruction import Instruction
from isalens.isa.amdgcn import instructions, parser
from isalens.isa.amdgcn.drafts import Draft, DraftInstruction
from isalens.isa.amdgcn.instructions import ReadContext, build_instruction

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))
CORPUS = sorted((ROOT / ".cache" / "corpus").glob("*/clang.s"))[::10]

#: a loop whose body repeats (label branches, the same texts many times) and an unknown instruction per pass
LLVM = ('\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx902"\n\t.globl k\n\t.p2align 8\n\t.type k,@function\n'
        "k:\n\ts_mov_b32 s0, 4\n.LBB0_1:\n" + "\tv_add_f32_e32 v1, v1, v2\n\tv_frob_b32 v3, v1\n\ts_nop 0\n" * 3
        + "\ts_add_i32 s0, s0, -1\n\ts_cmp_lg_u32 s0, 0\n\ts_cbranch_scc1 .LBB0_1\n"
        + "\ts_cbranch_scc1 .LBB0_1\n\tglobal_store_dword v[4:5], v1, off\n\ts_endpgm\n.Lfunc_end0:\n")
#: the same texts with addresses and encoding words; ``s_branch 1`` twice: a different target each time
OBJDUMP = ("\nk.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n0000000000001000 <k>:\n"
           "\ts_nop 0  // 000000001000: BF800000\n\ts_branch 1  // 000000001004: BF820001\n"
           "\ts_nop 0  // 000000001008: BF800000\n\ts_nop 0  // 00000000100C: BF800000\n"
           "\ts_branch 1  // 000000001010: BF820001\n\ts_nop 0  // 000000001014: BF800000\n"
           "\ts_nop 0  // 000000001018: BF800000\n\ts_endpgm  // 00000000101C: BF810000\n")


def _one_by_one(items: Sequence[DraftInstruction], first: int, draft: Draft, ctx: ReadContext) -> list[Instruction]:
    return [build_instruction(i, item, draft, ctx) for i, item in enumerate(items, first)]


def _read(texts: list[tuple[str, str | None, str | None]], ignore_unknown: bool) -> list[Any]:
    """Each text read in turn in one process (tails made by one input serve the next), from an empty cache."""
    instructions._TEXTS.clear()
    out: list[Any] = []
    for text, dialect, arch in texts:
        module = load(text, arch, dialect=dialect, ignore_unknown=ignore_unknown).ir
        out.append([[(type(ins), tuple(ins)) for ins in kernel.instructions] for kernel in module.kernels])
        out.append(module.diagnostics)
    return out


@pytest.fixture(params=["reference", "running core"])
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "reference":
        monkeypatch.setattr(_core, "keyed_rows", reading.keyed_rows)
        monkeypatch.setattr(_core, "labelled_rows", reading.labelled_rows)
        monkeypatch.setattr(_core, "encoded_rows", reading.encoded_rows)
    yield str(request.param)


def _same(texts: list[tuple[str, str | None, str | None]], ignore_unknown: bool,
          monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    got = _read(texts, ignore_unknown)
    with monkeypatch.context() as m:
        m.setattr(parser, "build_instructions", _one_by_one)
        want = _read(texts, ignore_unknown)
    assert got == want
    return got


def test_tails_equal_line_by_line(core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    got = _same([(LLVM, "llvm", None), (OBJDUMP, "objdump", "gfx902"), (LLVM, "llvm", None)], True, monkeypatch)
    # what the comparison must have covered: a warning per unknown line (3 per read of LLVM), the objdump
    # lines' own addresses and targets (0x1004 + 4 + 4 * 1 = 0x100c; 0x1010 + 8 = 0x1018)
    assert sum("v_frob_b32" in d.message for d in got[1]) == 3
    assert {kind for kind, _ in got[2][0]} == {Instruction}
    rows = [row for _, row in got[2][0]]
    assert len(rows) == 8 and [r[10] for r in rows[:3]] == [0x1000, 0x1004, 0x1008]
    assert [r[9] for r in rows if r[3] == "s_branch"] == ["@0x100c", "@0x1018"]
    assert all(r[11] for r in rows)


def test_branch_lines_made_from_their_texts_head(core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disassembly's branch to an address relative to its own keeps its text's head with the offset: the lines
    of the next read are made from it (_core.encoded_rows), each with its own target, as line by line. Oracle:
    the line-by-line reader, and the targets by hand (the branch's offset 4 + 4 x 1 from its own address)."""
    moved = OBJDUMP.replace("0000000000001000 <k>", "0000000000002000 <k>").replace("// 0000000010",
                                                                                      "// 0000000020")
    texts = [(OBJDUMP, "objdump", "gfx902"), (moved, "objdump", "gfx902")]
    made = []
    with monkeypatch.context() as m:  # the lines the core's loop made from heads
        def encoded(cls: Any, first: int, items: Any, heads: Any, rows: list[Any]) -> list[int]:
            missing = encoded_rows(cls, first, items, heads, rows)
            made.extend(r for r in rows if r is not None and r[3] == "s_branch")
            return missing
        encoded_rows = _core.encoded_rows
        m.setattr(_core, "encoded_rows", encoded)
        got = _read(texts, False)
    with monkeypatch.context() as m:
        m.setattr(parser, "build_instructions", _one_by_one)
        assert got == _read(texts, False)
    targets = [[r[9] for _, r in kernel[0] if r[3] == "s_branch"] for kernel in (got[0], got[2])]
    assert targets == [["@0x100c", "@0x1018"], ["@0x200c", "@0x2018"]]
    assert [r[9] for r in made] == ["@0x200c", "@0x2018"]  # the second read's branches came from the head


@pytest.mark.parametrize("path", EXAMPLES + CORPUS, ids=lambda p: p.parent.name if p in CORPUS else p.name)
def test_files_equal_line_by_line(path: Path, core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text()
    _same([(text, None, None), (text, None, None)], False, monkeypatch)


def _branches(labels: list[str], mnemonics: list[str]) -> str:
    """A gfx902 kernel with one label per entry of ``labels`` and a branch to each from ``mnemonics`` in turn."""
    body = "".join(f"{label}:\n\ts_nop 0\n\t{mnemonics[i % len(mnemonics)]} {label}\n"
                   for i, label in enumerate(labels))
    return ('\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx902"\n\t.globl k\n\t.p2align 8\n'
            "\t.type k,@function\nk:\n\ts_mov_b32 s0, 4\n" + body + "\ts_endpgm\n.Lfunc_end0:\n")


#: branches of every kind to labels of several spellings; one label is the reader's own placeholder, one branch
#: an unknown mnemonic read with --ignore-unknown (a warning per line: never made from another text's tail)
LABELLED = _branches(
    [".LBB0_1", ".LBB0_2", ".L$tmp", ".Ltmp.7", ".LBB1_0x10", ".Lisalens_label", ".Lx", ".LBB0_3", ".LBB0_4"],
    ["s_cbranch_scc1", "s_branch", "s_cbranch_execz", "s_cbranch_vccnz", "s_call_b64 s[30:31],",
     "s_cbranch_scc0", "s_cbranch_frob", "s_cbranch_execnz"])


def test_label_branches_made_from_one_decoded_text(core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Branches that differ only by their label: each made from its text with the placeholder for the label
    (``_core.labelled_rows``), equal to decoding each text in full (the line-by-line oracle)."""
    got = _same([(LABELLED, "llvm", None), (LLVM, "llvm", None)], True, monkeypatch)
    rows = [row for _, row in got[0][0]]
    # what the comparison must have covered: each branch's own label as its target and last operand (the
    # unknown mnemonic's operands are read positionally: no branch)
    branches = [r for r in rows if r[8] != "none"]
    assert [r[9] for r in branches] == [".LBB0_1", ".LBB0_2", ".L$tmp", ".Ltmp.7", ".LBB1_0x10",
                                        ".Lisalens_label", ".LBB0_3", ".LBB0_4", None]
    assert all(r[4][-1].text == r[9] for r in branches[:-1])
    assert sum("s_cbranch_frob" in d.message for d in got[1]) == 1
    # and the texts were made from the placeholder's: none of those decoded in full but the unknown one's
    _read([(LABELLED, "llvm", None)], True)
    decoded = {text for texts in instructions._TEXTS.values() for text in texts.decoded}
    assert {t for t in decoded if t.startswith("s_cbranch_scc1")} == {"s_cbranch_scc1 .Lisalens_label"}
    assert "s_cbranch_frob .Lx" in decoded


#: labels as the reader takes them (a "." then letters, digits, "_", "." and "$": the placeholder's form)
_LABELS = st.lists(st.from_regex(r"\.L[A-Za-z0-9_.$]{0,12}", fullmatch=True), min_size=1, max_size=6, unique=True)
_BRANCH_MNEMONICS = st.lists(st.sampled_from(["s_branch", "s_cbranch_scc0", "s_cbranch_vccz", "s_cbranch_execnz",
                                              "s_call_b64 s[30:31],", "s_call_b64 s[4:5],"]), min_size=1, max_size=3)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(labels=_LABELS, mnemonics=_BRANCH_MNEMONICS)
def test_generated_label_branches_equal_line_by_line(labels: list[str], mnemonics: list[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    got = _same([(_branches(labels, mnemonics), "llvm", None)], False, monkeypatch)
    assert [row[9] for _, row in got[0][0] if row[8] != "none"] == [*labels, None]
