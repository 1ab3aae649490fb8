#!/usr/bin/env python3
"""Instruction formats and opcodes of the compiled examples on targets LLVM 19 cannot disassemble (gfx6/gfx7).

    nice -n 5 .venv/bin/python tools/asm_census.py gfx600 gfx700 [--json FILE]

LLVM 19's disassembler aborts for gfx6/gfx7 ("Disassembly not yet supported for subtarget", llvm-objdump-19
and llvm-mc-19 --disassemble alike), so there is no objdump text to compare our decoder with. The assembler
still works: every ``examples/kernels/**/*.cl`` is compiled with isalens' OpenCL flags to assembly
(``clang-19 -S``) and re-assembled with ``llvm-mc-19 -show-encoding``, which gives each instruction's text as
LLVM's printer spells it with its encoding bytes: the (text, words) pairs a gfx6/gfx7 decoder must reproduce.
The format is named from the first dword (SI/CI ISA guides, "Microcode Formats": SMRD is top bits 11000).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from isalens.frontends.clang import opencl_flags  # noqa: E402

# top 6 bits of the 64-bit formats on gfx6/gfx7 (SMRD is 5 bits, 11000: both 0x30 and 0x31)
_TOP6 = {0x30: "SMRD", 0x31: "SMRD", 0x32: "VINTRP", 0x34: "VOP3", 0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF",
         0x3A: "MTBUF", 0x3C: "MIMG", 0x3E: "EXP"}
_ENCODING = re.compile(r"^\s+(\S[^;]*?)\s*; encoding: \[([^\]]*)\]")


def format_of(w0: int) -> str:
    """The encoding format of a gfx6/gfx7 instruction from its first dword."""
    for top, name in ((0x17D, "SOP1"), (0x17E, "SOPC"), (0x17F, "SOPP")):
        if w0 >> 23 == top:
            return name
    if w0 >> 28 == 0xB:
        return "SOPK"
    if w0 >> 30 == 0b10:
        return "SOP2"
    if w0 >> 31 == 0:
        return {0x3F: "VOP1", 0x3E: "VOPC"}.get(w0 >> 25, "VOP2")
    return _TOP6.get(w0 >> 26, f"unknown {w0 >> 26:#x}")


def pairs(source: Path, target: str) -> list[tuple[str, list[int]]] | None:
    """(text, dwords) of every instruction of ``source`` compiled for ``target``; None if clang rejects it.
    Bytes a fixup fills (branch labels, relocated symbols) are 0 in the dwords."""
    asm = subprocess.run(["clang-19", *opencl_flags(target), str(source), "-S", "-o", "-"],
                         capture_output=True, text=True)
    if asm.returncode:
        return None
    enc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-show-encoding"],
                         input=asm.stdout, capture_output=True, text=True, check=True)
    out = []
    for line in enc.stdout.splitlines():
        m = _ENCODING.match(line)
        if m:
            # llvm-mc prints a byte a fixup fills later (a branch's label, a relocated symbol) as "A": its value is
            # not known here, so it is 0, not the hex digit 0xA
            data = bytes(int(b, 16) if b.startswith("0x") else 0 for b in m.group(2).split(","))
            out.append((" ".join(m.group(1).split()),
                        [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]))
    return out


_LABEL = re.compile(r"^([.\w$]+):")
_FIXUP = re.compile(r"^\s+;\s+fixup \w+ - offset: (\d+), value: (\S+), kind: (\w+)")
_ALIGN = re.compile(r"^\s+\.p2align\s+(\d+)")
_SECTION = re.compile(r"^\s+\.(text|section|data|rodata|bss)\b")


@dataclass
class Encoded:
    """One instruction of an assembled listing: LLVM's text (a branch's label replaced by the SIMM16 the object
    holds, as llvm-objdump prints it), its dwords from the assembled object, and ``relocated``: an operand is a
    symbol the linker fills (``sym@rel32@lo+4``): its text cannot be compared."""

    text: str
    words: list[int]
    relocated: bool = False


def encoded(source: Path, target: str, workdir: Path) -> list[Encoded] | None:
    """Every instruction of ``source`` compiled for ``target`` with the bytes of the assembled object (fixups
    resolved by LLVM, unlike ``-show-encoding``'s ``A`` bytes); None if clang rejects the source. Each branch's
    label must be where its SIMM16 points (asserted), and every other byte must equal ``-show-encoding``'s."""
    asm = subprocess.run(["clang-19", *opencl_flags(target), str(source), "-S", "-o", "-"],
                         capture_output=True, text=True)
    if asm.returncode:
        return None
    mc = ["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}"]
    listing = subprocess.run([*mc, "-show-encoding"], input=asm.stdout, capture_output=True, text=True,
                             check=True).stdout
    obj, text = workdir / "a.o", workdir / "text.bin"
    subprocess.run([*mc, "-filetype=obj", "-o", str(obj)], input=asm.stdout, text=True, check=True)
    subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", str(obj), str(text)], check=True)
    data = text.read_bytes()
    out: list[Encoded] = []
    labels: dict[str, int] = {}
    branches: list[tuple[int, int, str]] = []  # (index in out, address, label)
    address, in_text = 0, True
    for line in listing.splitlines():
        if m := _SECTION.match(line):
            in_text = m.group(1) == "text"
        elif m := _LABEL.match(line):
            labels[m.group(1)] = address
        elif (m := _ALIGN.match(line)) and in_text:
            address = -(-address // (1 << int(m.group(1)))) * (1 << int(m.group(1)))
        elif m := _ENCODING.match(line):
            shown = m.group(2).split(",")
            raw = data[address:address + len(shown)]
            assert all(b == "A" or int(b, 16) == raw[i] for i, b in enumerate(shown)), (source.name, line)
            words = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
            out.append(Encoded(" ".join(m.group(1).split()), words))
            address += len(shown)
        elif m := _FIXUP.match(line):
            if m.group(3) == "fixup_si_sopp_br":
                branches.append((len(out) - 1, address - 4, m.group(2)))
            else:
                out[-1].relocated = True
    for index, at, label in branches:
        simm = out[index].words[0] & 0xFFFF
        simm -= (simm >> 15) << 16
        assert labels[label] == at + 4 + 4 * simm, (source.name, label)
        # as LLVM's disassembler prints a branch (gfx8+: ``s_branch 65535``): the unsigned SIMM16
        out[index].text = out[index].text.replace(label, str(simm & 0xFFFF))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="+")
    ap.add_argument("--json", type=Path, help="write the counts here")
    args = ap.parse_args(argv)
    sources = sorted((ROOT / "examples" / "kernels").rglob("*.cl"))
    report = {}
    for target in args.targets:
        formats: Counter[str] = Counter()
        opcodes: Counter[str] = Counter()
        objects = 0
        for source in sources:
            got = pairs(source, target)
            if got is None:
                continue
            objects += 1
            for text, words in got:
                fmt = format_of(words[0])
                formats[fmt + ("+literal" if len(words) > {"VOP3": 2, "DS": 2, "MUBUF": 2, "MTBUF": 2, "FLAT": 2,
                                                             "MIMG": 2, "EXP": 2}.get(fmt, 1) else "")] += 1
                opcodes[f"{fmt} {text.split()[0]}"] += 1
        print(f"{target}: {objects} code objects, {sum(formats.values())} instructions, {len(opcodes)} opcodes")
        print("  " + ", ".join(f"{k} {v}" for k, v in formats.most_common()))
        report[target] = {"objects": objects, "formats": dict(formats), "opcodes": dict(opcodes)}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
