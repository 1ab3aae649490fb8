import pytest

from isalens.ir.operands import ImmOperand, OtherOperand, RegOperand
from isalens.ir.registers import HALF_HI, Reg, RegFile
from isalens.isa.amdgcn.syntax import (
    SyntaxProblem,
    parse_instruction_text,
    parse_mir_register,
    parse_operand,
    parse_register,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("v5", Reg(RegFile.VGPR, 5)),
        ("v[4:7]", Reg(RegFile.VGPR, 4, 4)),
        ("s[0:1]", Reg(RegFile.SGPR, 0, 2)),
        ("a3", Reg(RegFile.AGPR, 3)),
        ("acc3", Reg(RegFile.AGPR, 3)),
        ("v5.h", Reg(RegFile.VGPR, 5, 1, HALF_HI)),
        ("v[9]", Reg(RegFile.VGPR, 9)),
    ],
)
def test_registers(text: str, expected: Reg) -> None:
    assert parse_register(text) == expected


def test_specials_and_non_registers() -> None:
    vcc = parse_register("vcc")
    assert vcc is not None and vcc.count == 2
    lo = parse_register("exec_lo")
    assert lo is not None and lo.count == 1
    assert parse_register("off") is None
    assert isinstance(parse_operand("off"), OtherOperand)


def test_source_modifiers_are_stripped() -> None:
    op = parse_operand("-|v2|")
    assert isinstance(op, RegOperand) and op.neg and op.abs and op.regs == (Reg(RegFile.VGPR, 2),)


def test_inline_versus_literal_constants() -> None:
    # inline integer constants are -16..64, inline floats 0, +-0.5, +-1, +-2, +-4 (AMD ISA guides)
    assert parse_operand("64") == ImmOperand("64", 64, False)
    assert parse_operand("65") == ImmOperand("65", 65, True)
    assert isinstance(parse_operand("0x3e052640"), ImmOperand)
    op = parse_operand("2.0")
    assert isinstance(op, ImmOperand) and not op.literal
    op = parse_operand("0.15")
    assert isinstance(op, ImmOperand) and op.literal


def test_split_operands_and_modifiers() -> None:
    raw = parse_instruction_text("v_pk_mul_f16 v51, v33, s15 op_sel:[1,0] op_sel_hi:[0,0]")
    assert raw.mnemonic == "v_pk_mul_f16"
    assert len(raw.operands) == 3
    assert raw.modifiers == ("op_sel:[1,0]", "op_sel_hi:[0,0]")
    raw = parse_instruction_text("buffer_load_dword v1, off, s[0:3], 0 offen offset:4 glc")
    assert len(raw.operands) == 4 and raw.modifiers == ("offen", "offset:4", "glc")
    raw = parse_instruction_text("image_sample v[0:3], [v4, v9, v2], s[8:15], s[16:19] dmask:0xf")
    nsa = raw.operands[1]
    assert isinstance(nsa, RegOperand) and len(nsa.regs) == 3


def test_malformed_register_is_an_error() -> None:
    with pytest.raises(SyntaxProblem):
        parse_operand("v[7:4]")
    with pytest.raises(SyntaxProblem):
        parse_operand("v[3:")


def test_mir_register_spellings() -> None:
    regs = parse_mir_register("$vgpr4_vgpr5")
    assert regs == [Reg(RegFile.VGPR, 4), Reg(RegFile.VGPR, 5)]
    assert parse_mir_register("$sgpr0") == [Reg(RegFile.SGPR, 0)]
    assert parse_mir_register("$vgpr3_hi16") == [Reg(RegFile.VGPR, 3, 1, HALF_HI)]


def test_agpr_a16_is_an_operand_and_the_mimg_a16_flag_a_modifier() -> None:
    # `a16` is both AGPR 16 and the MIMG 16-bit-address flag: an operand follows the mnemonic or a comma,
    # a flag follows the last operand after a space (llvm-mc prints both this way)
    raw = parse_instruction_text("v_accvgpr_read_b32 v13, a16")
    assert [op.text for op in raw.operands] == ["v13", "a16"] and raw.modifiers == ()
    raw = parse_instruction_text("v_accvgpr_write_b32 a16, 0")
    assert [op.text for op in raw.operands] == ["a16", "0"]
    raw = parse_instruction_text("image_sample v[0:3], v[0:1], s[0:7], s[8:11] dmask:0xf a16")
    assert raw.modifiers == ("dmask:0xf", "a16") and len(raw.operands) == 4
