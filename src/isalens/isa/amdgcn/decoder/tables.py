"""The generated opcode tables (``data/opcodes_<family>.txt``, made by ``tools/gen_opcode_tables.py`` from
LLVM 19's disassembler; gfx6/gfx7's by ``tools/gen_opcode_tables_si.py`` from its assembler): per encoding
format, opcode -> (mnemonic, operand template)."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

__all__ = ["CDNA3", "DECODED_TARGETS", "WAVE64_FAMILIES", "Row", "family_of", "layout_of", "opcode_table",
           "parse_table"]

#: (mnemonic, operand template, fields LLVM wants 0 for this opcode)
Row = tuple[str, str, frozenset[str]]

# target -> table family; targets of one family share opcode numbers and operand spelling (LLVM 19)
_FAMILY = (
    # tables from LLVM's assembler (tools/gen_opcode_tables_si.py: LLVM 19 has no gfx6/gfx7 disassembler)
    (re.compile(r"gfx60[0-2]$"), "gfx6"), (re.compile(r"gfx70[0-5]$"), "gfx7"),
    (re.compile(r"gfx90a$"), "gfx90a"), (re.compile(r"gfx94[0-2]$"), "gfx942"),
    (re.compile(r"gfx950$"), "gfx950"),  # table from ROCm LLVM (LLVM 19 does not know gfx950)
    # only the targets whose instruction set equals gfx900's (data/README.md): gfx904/gfx906 reuse opcodes
    (re.compile(r"gfx90[029c]$"), "gfx9"), (re.compile(r"gfx906$"), "gfx906"), (re.compile(r"gfx908$"), "gfx908"),
    (re.compile(r"gfx103[0-6]$"), "gfx10_3"),
    (re.compile(r"gfx80[1-5]$|gfx810$"), "gfx8"), (re.compile(r"gfx101[0-3]$"), "gfx10_1"),
    (re.compile(r"gfx110[0-3]$"), "gfx11"), (re.compile(r"gfx115[0-3]$"), "gfx11_5"),
    (re.compile(r"gfx120[01]$"), "gfx12"),
    # table from ROCm LLVM (cpu gfx1250); gfx1251 decodes as gfx1250 does (docs/decoder.md, "gfx12.5")
    (re.compile(r"gfx125[01]$"), "gfx12_5"),
)
#: the targets the tables below cover, for people (``isalens toolchain``)
DECODED_TARGETS = ("gfx600-gfx602, gfx700-gfx705, "
                   "gfx801-gfx805, gfx810, gfx900, gfx902, gfx906, gfx908, gfx909, gfx90c, gfx90a, gfx940-gfx942, "
                   "gfx950, "
                   "gfx1010-gfx1013, gfx1030-gfx1036, gfx1100-gfx1103, gfx1150-gfx1153, gfx1200, gfx1201, "
                   "gfx1250, gfx1251")
_LAYOUT = {"gfx6": "gfx6", "gfx7": "gfx6",
           "gfx8": "gfx9", "gfx9": "gfx9", "gfx906": "gfx9", "gfx908": "gfx9", "gfx90a": "gfx9", "gfx942": "gfx9",
           "gfx950": "gfx9",
           "gfx10_1": "gfx10", "gfx10_3": "gfx10", "gfx11": "gfx11", "gfx11_5": "gfx11", "gfx12": "gfx12",
           "gfx12_5": "gfx12"}


#: CDNA3 families (gfx940-gfx942, gfx950): sc0/sc1/nt cache bits, AGPR data, gfx940's scratch SVE bit
CDNA3 = frozenset({"gfx942", "gfx950"})


def family_of(target: str) -> str | None:
    """Opcode table family of ``target`` (``gfx1100`` -> ``gfx11``), None when there is no table for it."""
    for pattern, family in _FAMILY:
        if pattern.match(target):
            return family
    return None


def layout_of(family: str) -> str:
    """Field layout family (``isa.amdgcn.fields``) of a table family."""
    return _LAYOUT[family]


#: families with wave64 tables (``opcodes_<family>_w64.txt``: the rows that differ from wave32's)
WAVE64_FAMILIES = frozenset(f.name.removeprefix("opcodes_").removesuffix("_w64.txt")
                            for f in (resources.files("isalens.isa.amdgcn") / "data").iterdir()
                            if f.name.startswith("opcodes_") and f.name.endswith("_w64.txt"))


@cache
def opcode_table(family: str, wave64: bool = False) -> dict[str, dict[int, Row]]:
    """Format -> opcode -> (mnemonic, template) for one family; ``wave64``: as LLVM spells wave64 code on gfx10+
    (``-mattr=+wavefrontsize64``: lane masks as SGPR pairs), the wave32 table with the wave64 file's rows over it
    (a row whose mnemonic is ``-`` does not exist in wave64)."""
    if wave64 and family in WAVE64_FAMILIES:
        merged = {name: dict(rows) for name, rows in opcode_table(family).items()}
        for name, rows in _read(f"{family}_w64").items():
            table = merged.setdefault(name, {})
            for op, row in rows.items():
                if row[0] == "-":
                    table.pop(op, None)
                else:
                    table[op] = row
        return merged
    return _read(family)


def _read(name: str) -> dict[str, dict[int, Row]]:
    text = (resources.files("isalens.isa.amdgcn") / "data" / f"opcodes_{name}.txt").read_text("utf-8")
    return {section: {op: (mnemonic, template, frozenset(zero.split(",")) - {""})
                      for op, (mnemonic, template, zero) in rows.items()}
            for section, rows in parse_table(text).items()}


def parse_table(text: str) -> dict[str, dict[int, tuple[str, str, str]]]:
    """An opcode table file's text: ``[SECTION]`` lines, then ``opcode<TAB>mnemonic<TAB>template<TAB>zero-fields``
    rows (also read by tools/gen_opcode_tables.py, which writes them)."""
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    current: dict[int, tuple[str, str, str]] = {}
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = out.setdefault(line.strip("[]"), {})
            continue
        op, mnemonic, template, zero = line.split("\t")
        current[int(op)] = (mnemonic, template, zero)
    return out
