from isalens.ir.registers import (
    HALF_HI,
    HALF_LO,
    Reg,
    RegFile,
    count_halves,
    count_registers,
    half_only_registers,
    highest_register,
    registers_in,
    special_pair,
    unit_name,
)


def test_vgpr_range_covers_two_halves_per_register() -> None:
    m = Reg(RegFile.VGPR, 4, 4).mask()
    assert count_registers(m, RegFile.VGPR) == 4
    assert count_halves(m, RegFile.VGPR) == 8
    assert registers_in(m, RegFile.VGPR) == [4, 5, 6, 7]


def test_half_selection() -> None:
    lo = Reg(RegFile.VGPR, 3, halves=HALF_LO).mask()
    hi = Reg(RegFile.VGPR, 3, halves=HALF_HI).mask()
    assert lo & hi == 0
    assert lo | hi == Reg(RegFile.VGPR, 3).mask()
    assert unit_name(lo.bit_length() - 1) == "v3.l"
    assert half_only_registers(lo, RegFile.VGPR) == 1
    assert half_only_registers(lo | hi, RegFile.VGPR) == 0


def test_files_do_not_overlap() -> None:
    v = Reg(RegFile.VGPR, 255).mask()
    a = Reg(RegFile.AGPR, 0).mask()
    s = Reg(RegFile.SGPR, 0).mask()
    vcc = special_pair("vcc").mask()
    assert v & a == 0 and a & s == 0 and s & vcc == 0
    total = v | a | s | vcc
    assert count_registers(total, RegFile.VGPR) == 1
    assert count_registers(total, RegFile.AGPR) == 1
    assert count_registers(total, RegFile.SGPR) == 1
    assert count_registers(total, RegFile.SPECIAL) == 2


def test_highest_register() -> None:
    m = Reg(RegFile.SGPR, 10, 2).mask() | Reg(RegFile.VGPR, 7, halves=HALF_HI).mask()
    assert highest_register(m, RegFile.SGPR) == 11
    assert highest_register(m, RegFile.VGPR) == 7
    assert highest_register(m, RegFile.AGPR) == -1
