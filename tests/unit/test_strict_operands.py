"""Issue 25, item 6: an instruction with more operands than its form takes is an error naming the extra token, in
every dialect, as llvm-mc rejects it ("invalid operand for instruction"); legitimate trailing modifiers stay
accepted. The oracle is llvm-mc-19 (tests that need it skip without it)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

import isalens
from isalens.arch.loader import get_arch
from isalens.cli import main
from isalens.errors import ParseError
from isalens.isa.amdgcn import arity, catalog
from isalens.isa.amdgcn.syntax import split_instruction
from tests.conftest import FIXTURES, require_tool
from tests.fixtures.build import AcoOutput, LlvmOutputs

# ------------------------------------------------------------------------- the misreads, in every dialect

#: (line, the token llvm-mc-19 points its caret at): checked by test_llvm_mc_points_at_the_same_token
MISREADS = {
    "token after the last operand": ("v_add_f32 v0, v1, v2 v9", "v9"),
    "two instructions on one line": ("v_mov_b32 v0, v1 v_mov_b32 v2, v3", "v_mov_b32"),
    "one operand too many": ("v_add_f32 v0, v1, v2, v9", "v9"),
}

#: one kernel holding LINE (an instruction with a placeholder encoding) in each dialect isalens reads as GCN text
DIALECTS = {
    "llvm": ('\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n\t.globl k\n\t.p2align 8\n'
             '\t.type k,@function\nk:\n\ts_nop 0\n\t{line}\n\ts_endpgm\n.Lfunc_end0:\n', 8),
    "bare": ("s_nop 0\n{line}\ns_endpgm\n", 2),
    "objdump": ("k.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n0000000000001000 <k>:\n"
                "\ts_nop 0                          // 000000001000: BF800000\n"
                "\t{line}                          // 000000001004: 02000501\n"
                "\ts_endpgm                         // 000000001008: BF810000\n", 7),
    "listing": ("  s_nop 0                          // 000000000000: BF800000\n"
                "  {line}                           // 000000000004: 02000501\n"
                "  s_endpgm                         // 000000000008: BF810000\n", 2),
    "aco": ("BB0:\n\ts_nop 0 ; bf800000\n\t{line} ; 02000501\n\ts_endpgm ; bf810000\n", 3),
}


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("name", sorted(MISREADS))
def test_extra_operand_is_one_error_naming_the_token(name: str, dialect: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    line, token = MISREADS[name]
    template, lineno = DIALECTS[dialect]
    path = tmp_path / "k.s"
    path.write_text(template.format(line=line))
    code = main(["livereg", str(path), "--arch", "gfx900"])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert f"k.s:{lineno}:" in lines[0], lines[0]
    assert f"invalid operand for instruction: '{token}'" in lines[0], lines[0]
    if name == "two instructions on one line":
        assert "instruction of its own" in lines[0], lines[0]


def test_second_instruction_found_where_no_count_is_known() -> None:
    """An instruction the count table lacks is still not read across a second instruction on its line."""
    line = "v_wmma_f16_16x16x16_f16 v[0:3], v[4:7], v[8:11], v[0:3] v_mov_b32 v0, v1"
    assert arity.most_operands("v_wmma_f16_16x16x16_f16", get_arch("gfx1200").mnemonic_lists) is None
    with pytest.raises(ParseError, match="'v_mov_b32' after v_wmma_f16_16x16x16_f16 is an instruction of its own"):
        isalens.load(f"{line}\ns_endpgm\n", "gfx1200")


def test_the_dialects_are_the_ones_named(tmp_path: Path) -> None:
    """Each template above is read as its dialect (so the matrix really covers every reader)."""
    for dialect, (template, _) in DIALECTS.items():
        module = isalens.load(template.format(line="v_add_f32 v0, v1, v2"), "gfx900")
        assert module.ir.dialect == dialect
        assert len(module.kernels[0].ir.instructions) == 3


def test_extra_operand_in_one_half_of_a_dual_instruction() -> None:
    with pytest.raises(ParseError, match=r"invalid operand for instruction: 'v9'"):
        isalens.load("v_dual_mul_f32 v0, v1, v2 v9 :: v_dual_mov_b32 v3, v4\ns_endpgm\n", "gfx1100")
    module = isalens.load("v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4\ns_endpgm\n", "gfx1100")
    assert len(module.kernels[0].ir.instructions) == 2


# ------------------------------------------------------------------------- what must stay accepted

#: valid instructions with trailing modifiers and multi-word operands, by target (llvm-mc-19 assembles every
#: one: test_llvm_mc_accepts_the_valid_forms)
VALID = {
    "gfx900": [
        "global_load_dword v0, v[1:2], off offset:16 glc slc",
        "buffer_load_dword v0, v1, s[0:3], 0 offen offset:4 glc slc",
        "buffer_load_dword v1, s[0:3], 0 offen lds",
        "buffer_store_dword v0, v1, s[0:3], s4 idxen offset:8",
        "tbuffer_load_format_x v0, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offset:4",
        "ds_read_b32 v0, v1 offset:16",
        "ds_add_u32 v1, v2 offset:4 gds",
        "ds_read2_b32 v[0:1], v2 offset0:1 offset1:2",
        "ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM, 0, 1, 2, 3)",
        "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf unorm glc slc lwe da",
        "image_load v[0:4], v[4:5], s[8:15] dmask:0xf unorm tfe",
        "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x3 d16",
        "v_add_f32_e64 v0, -|v1|, v2 clamp mul:2",
        "v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:0",
        "v_mov_b32_dpp v0, v1 row_mirror row_mask:0xf bank_mask:0xf",
        "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
        "v_add_f32_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD",
        "v_pk_add_f16 v0, v1, v2 op_sel:[0,1] op_sel_hi:[1,0] neg_lo:[1,0] neg_hi:[0,1]",
        "v_mad_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]",
        "v_cndmask_b32 v0, v1, v2, vcc",
        "v_addc_co_u32 v0, vcc, v1, v2, vcc",
        "v_interp_p1_f32 v0, v1, attr0.x",
        "exp mrt0 v0, v0, v1, v1 done vm",
        "exp pos0 v1, off, off, off done",
        "s_waitcnt vmcnt(0) & lgkmcnt(0)",
        "s_waitcnt vmcnt(0), lgkmcnt(0)",
        "s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)",
        "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)",
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0x3",
        "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)",
        "s_mov_b32 s0, 1 + 2",
        "s_mov_b32 s0, (1 << 4) | 3",
        "s_load_dwordx2 s[0:1], s[4:5], 0x10 glc",
        "s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)",
    ],
    "gfx1030": [
        "global_load_dword v0, v1, s[0:1] offset:16 glc slc dlc",
        "image_sample v[0:3], [v4, v5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_sample v[0:3], v4, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D a16",
        "v_mov_b32_dpp v0, v1 row_share:1 row_mask:0xf bank_mask:0xf fi:1",
        "v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]",
        "s_load_dwordx4 s[8:11], s[8:9], null",
        "buffer_load_dword v0, off, s[0:3], 0 offset:4 glc slc dlc",
        "s_waitcnt_vscnt null, 0x0",
        "s_waitcnt_depctr depctr_sa_sdst(0) & depctr_va_vdst(0)",
        "v_add_co_ci_u32_e32 v0, vcc_lo, v1, v2, vcc_lo",
    ],
    "gfx1100": [
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4",
        "v_dual_fmaak_f32 v0, v1, v2, 0x40400000 :: v_dual_add_f32 v3, v4, v5",
        "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)",
        "lds_param_load v1, attr0.x wait_vdst:0",
        "v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0,0]",
        "exp mrt0 v0, v0, v1, v1 done",
    ],
    "gfx1200": [
        "global_load_b32 v0, v1, s[0:1] offset:16 th:TH_LOAD_NT scope:SCOPE_SYS",
        "buffer_load_b32 v5, off, s[8:11], s3 offset:4095 th:TH_LOAD_NT",
        "s_wait_loadcnt 0x0",
    ],
    "gfx90a": [
        "global_load_dword v0, v[2:3], off offset:16 glc scc",
        "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:1 abid:1 blgp:2",
        "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[1,1,1]",
        "v_accvgpr_read_b32 v0, a16",
    ],
    "gfx942": [
        "global_load_dword v0, v[2:3], off offset:16 sc0 sc1 nt",
        "buffer_load_dword v0, v1, s[0:3], 0 offen sc0 nt",
    ],
}
#: flags llvm-mc-19 does not know yet but other AMD tools print (the MUBUF/FLAT ``nv`` bit): still modifiers
NEWER = {"gfx942": ["global_load_dword v0, v[2:3], off nv"]}
_CASES = [(arch, line) for table in (VALID, NEWER) for arch, lines in table.items() for line in lines]


@pytest.mark.parametrize(("arch", "line"), _CASES)
def test_trailing_modifiers_stay_accepted(arch: str, line: str) -> None:
    module = isalens.load(f"{line}\ns_endpgm\n", arch)
    assert len(module.kernels[0].ir.instructions) == 2


def test_multi_word_operands_are_one_operand() -> None:
    # llvm-mc reads each of these as one operand (its -show-inst-operands: one operand after the mnemonic)
    for text in ("s_waitcnt vmcnt(0) & lgkmcnt(0)", "s_waitcnt vmcnt(0), lgkmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(0)",
                 "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT)"):
        assert len(split_instruction(text)[1]) == 1, text
    assert split_instruction("s_mov_b32 s0, (1 << 4) | 3")[1] == ["s0", "(1 << 4) | 3"]
    # an export target is an operand of its own: five in all
    assert split_instruction("exp mrt0 v0, v0, v1, v1 done vm")[1] == ["mrt0", "v0", "v0", "v1", "v1"]


# ------------------------------------------------------------------------- llvm-mc-19 as the oracle

def _llvm_mc(source: str, mcpu: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([require_tool("llvm-mc-19"), "-arch=amdgcn", f"-mcpu={mcpu}", "-show-encoding"],
                          input=source, capture_output=True, text=True, timeout=120)


def _errors(stderr: str) -> dict[int, tuple[int, str]]:
    """llvm-mc's errors by line: (column, message)."""
    return {int(m[1]): (int(m[2]), m[3]) for m in re.finditer(r"^<stdin>:(\d+):(\d+): error: (.*)$", stderr, re.M)}


@pytest.mark.parametrize("arch", sorted(VALID))
def test_llvm_mc_accepts_the_valid_forms(arch: str) -> None:
    result = _llvm_mc("\n".join(VALID[arch]) + "\n", arch)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", sorted(MISREADS))
def test_llvm_mc_points_at_the_same_token(name: str) -> None:
    """llvm-mc-19 rejects each misread with "invalid operand for instruction", its caret on the token we name."""
    line, token = MISREADS[name]
    errors = _errors(_llvm_mc(line + "\n", "gfx900").stderr)
    column, message = errors[1]
    assert message == "invalid operand for instruction"
    assert line[column - 1:].startswith(token)


#: more forms llvm-mc-19 rejects with its caret on the extra token (target gfx900)
EXTRA = [
    ("global_load_dword v0, v[1:2], off offset:16 v3", "v3"),
    ("ds_read_b32 v0, v1 offset:4 v2", "v2"),
    ("exp mrt0 v0, v0, v0, v0 v1 done vm", "v1"),
    ("s_nop 0 1", "1"),
    ("v_cndmask_b32 v0, v1, v2, vcc v3", "v3"),
    ("s_mov_b32 s0, 1 + 2 s1", "s1"),
    ("s_load_dwordx2 s[0:1], s[4:5], 0x10 s6", "s6"),
    ("v_mad_f32 v0, v1, v2, v3 v4", "v4"),
]


@pytest.mark.parametrize(("line", "token"), EXTRA)
def test_more_extra_operands_agree_with_llvm_mc(line: str, token: str) -> None:
    with pytest.raises(ParseError, match=f"invalid operand for instruction: '{re.escape(token)}'"):
        isalens.load(f"{line}\ns_endpgm\n", "gfx900")
    column, message = _errors(_llvm_mc(line + "\n", "gfx900").stderr)[1]
    assert message == "invalid operand for instruction"
    assert line[column - 1:].startswith(token)


def _sample_instructions(samples: Path) -> dict[str, list[str]]:
    """Distinct instruction texts of the reference samples, by the target they were compiled for."""
    return _instructions((("gfx902", [samples / "llvm/neighborhood_fp16.gfx902.s",
                                      samples / "gcn_listing/gcn_1_fp16_neighborhood_a.isa"]),
                          ("gfx90a", [samples / "llvm/neighborhood_fp16.gfx90a.s"]),
                          ("gfx1030", [samples / "aco/neighborhood_fp16.navi21.aco.s"]),
                          ("gfx902", [samples / "aco/neighborhood_fp16.raven.aco.s"])))


def _instructions(inputs: Sequence[tuple[str, list[Path]]]) -> dict[str, list[str]]:
    """Distinct instruction texts of ``inputs``, by the target they were compiled for."""
    picked: dict[str, list[str]] = {}
    for arch, paths in inputs:
        for name in paths:
            module = isalens.load(name, arch)
            for kernel in module.kernels:
                for ins in kernel.ir.instructions:
                    picked.setdefault(arch, [])
                    if ins.text not in picked[arch]:
                        picked[arch].append(ins.text)
    return picked


def test_one_more_operand_is_rejected_by_both_on_own_inputs(own_llvm: LlvmOutputs,
                                                             own_aco: dict[str, AcoOutput]) -> None:
    """The check below on our own inputs: clang-19's gfx902 and gfx90a output, our listing, and ACO's output
    for raven and navi21, made at test time."""
    _check_one_more_operand(_instructions((
        ("gfx902", [own_llvm.asm["gfx902"], FIXTURES / "listing" / "fp16_reads.isa"]),
        ("gfx90a", [own_llvm.asm["gfx90a"]]),
        ("gfx1030", [own_aco["navi21"].assembly]),
        ("gfx902", [own_aco["raven"].assembly]))))


def test_one_more_operand_is_rejected_by_both(samples: Path) -> None:
    _check_one_more_operand(_sample_instructions(samples))


def _check_one_more_operand(instructions: dict[str, list[str]]) -> None:
    """Each distinct instruction of the inputs with one more operand (a VGPR, after the last operand,
    before the modifiers): llvm-mc-19 rejects it, and so do we whenever we know the instruction's count."""
    checked = 0
    for arch, texts in instructions.items():
        lines: list[str] = []
        for text in texts:
            mnemonic, operands, modifiers = split_instruction(text)
            if "::" in text or not operands:
                continue
            lines.append(" ".join([mnemonic, ", ".join([*operands, "v1"]), *modifiers]))
        errors = _errors(_llvm_mc("\n".join(lines) + "\n", arch).stderr)
        lists = get_arch(arch).mnemonic_lists
        for number, line in enumerate(lines, start=1):
            assert number in errors, f"llvm-mc-19 accepts {line!r} on {arch}"
            if arity.most_operands(line.split()[0], lists) is None:
                continue
            with pytest.raises(ParseError, match="invalid operand for instruction"):
                isalens.load(f"{line}\ns_endpgm\n", arch)
            checked += 1
    assert checked > 100


def test_counts_name_only_known_mnemonics() -> None:
    """Every counted mnemonic is in its family's list (a count for a name the family lacks is a table error), and
    most of each list is counted (the table was built for all of them: data/README.md)."""
    for family in arity.families():
        names = catalog.known_mnemonics((family,))
        counts = arity.counted(family)
        assert set(counts) <= names, (family, sorted(set(counts) - names)[:5])
        assert len(counts) >= 0.95 * len(names), family
