"""gfx6/gfx7 field layouts (``isa/amdgcn/field_layouts.py``, layout ``gfx6``) against LLVM's assembler.

LLVM 19 cannot disassemble gfx6/gfx7 (docs/decoder.md, "gfx6/gfx7"), so the oracle is the assembler: half of the
compiled examples as ``clang-19 -S`` text re-assembled by ``llvm-mc-19 -show-encoding`` (``tools/asm_census.py``).
Our split of the concatenated words must land on LLVM's instruction boundaries, and the fields must say what
LLVM's text says: SMRD destination, base pair and offset; MUBUF data, resource, offset, addr64/glc/slc; DS offsets
and gds; FLAT address and data; VOP3 destination VGPR and clamp.
"""

from __future__ import annotations

import re

import pytest
from tools.asm_census import pairs

from isalens.isa.amdgcn.fields import Decoded, split_words
from tests.conftest import EXAMPLES, require_tool


def _regs(operand: str) -> str:
    """The first register of ``v4`` / ``v[4:7]`` / ``s[4:7]`` as ``v4`` / ``s4``."""
    m = re.fullmatch(r"([vs])\[?(\d+)(?::\d+\])?", operand)
    return f"{m.group(1)}{m.group(2)}" if m else operand


def _check(d: Decoded, text: str) -> list[str]:
    mnemonic, _, rest = text.partition(" ")
    ops = [o.strip() for o in rest.split(",")] if rest else []
    words = rest.replace(",", " ").split()
    bad = []

    def want(what: str, ours: object, theirs: object) -> None:
        if ours != theirs:
            bad.append(f"{text}: {what} ours {ours!r}, LLVM {theirs!r}")

    if d.format == "SMRD":
        want("SDST", f"s{d.value('SDST')}", _regs(ops[0]))
        want("SBASE", d.get("SBASE").meaning if d.get("SBASE") else None, ops[1])
        offset = ops[2]
        if d.get("LITERAL") is not None:
            want("literal offset", d.value("LITERAL"), int(offset, 16))
        elif d.value("IMM"):
            want("OFFSET", d.value("OFFSET"), int(offset, 16))
        else:
            want("OFFSET", f"s{d.value('OFFSET')}", offset)
    elif d.format == "MUBUF" and ops:
        want("VDATA", f"v{d.value('VDATA')}", _regs(ops[0]))
        want("SRSRC", d.get("SRSRC").meaning if d.get("SRSRC") else None, ops[2])
        if ops[1] != "off":
            want("VADDR", f"v{d.value('VADDR')}", _regs(ops[1]))
        for flag, name in (("addr64", "ADDR64"), ("glc", "GLC"), ("slc", "SLC"), ("offen", "OFFEN"),
                           ("idxen", "IDXEN")):
            want(name, d.value(name), int(flag in words))
        offset = next((int(w[7:]) for w in words if w.startswith("offset:")), 0)
        want("OFFSET", d.value("OFFSET"), offset)
    elif d.format == "DS":
        want("GDS", d.value("GDS"), int("gds" in words))
        if re.match(r"ds_(read|write)2", mnemonic):  # ds_read2/write2(st64): two 8-bit offsets
            for name in ("OFFSET0", "OFFSET1"):
                want(name, d.value(name), next((int(w.split(":")[1]) for w in words
                                                if w.startswith(name.lower() + ":")), 0))
        else:
            offset = next((int(w[7:]) for w in words if w.startswith("offset:")), 0)
            want("OFFSET", d.value("OFFSET1") << 8 | d.value("OFFSET0"), offset)
    elif d.format == "FLAT":
        loads = mnemonic.startswith("flat_load") or ("glc" in words and "atomic" in mnemonic)
        addr, data = (ops[1], ops[0]) if loads else (ops[0], ops[1])
        want("ADDR", f"v{d.value('ADDR')}", _regs(addr))
        want("VDST" if loads else "DATA", f"v{d.value('VDST' if loads else 'DATA')}", _regs(data))
        for flag, name in (("glc", "GLC"), ("slc", "SLC")):
            want(name, d.value(name), int(flag in words))
    elif d.format == "VOP3":
        if re.fullmatch(r"v\[?\d+(:\d+\])?", ops[0]) and not mnemonic.startswith("v_cmp"):
            want("VDST", f"v{d.value('VDST')}", _regs(ops[0]))
        vop3b = len(ops) > 1 and re.fullmatch(r"s\[\d+:\d+\]|vcc", ops[1]) is not None  # SDST 14:8, no CLAMP
        if not vop3b:
            want("CLAMP", d.value("CLAMP"), int("clamp" in words))
    return bad


@pytest.mark.parametrize(("target", "generation"), [("gfx600", 6), ("gfx700", 7)])
def test_gfx6_gfx7_fields_equal_llvm_mc(target: str, generation: int) -> None:
    require_tool("clang-19")
    require_tool("llvm-mc-19")
    sources = sorted((EXAMPLES / "kernels").rglob("*.cl"))[::2]
    checked: dict[str, int] = {}
    bad: list[str] = []
    for source in sources:
        got = pairs(source, target)
        if not got:
            continue
        words = [w for _, ws in got for w in ws]
        ours = split_words(words, generation, "gfx6")
        # same boundaries: each instruction as long as LLVM's encoding
        assert [len(d.words) for d in ours] == [len(ws) for _, ws in got], source.name
        for d, (text, _) in zip(ours, got, strict=True):
            checked[d.format] = checked.get(d.format, 0) + 1
            bad.extend(_check(d, text))
    assert not bad, "\n".join(bad[:20])
    for fmt in ("SMRD", "VOP3", "MUBUF", "DS", *(("FLAT",) if generation == 7 else ())):
        assert checked.get(fmt, 0) > 100, checked
