#!/usr/bin/env python3
"""Generate isalens' AMDGPU opcode tables (``src/isalens/isa/amdgcn/data/opcodes_<family>.txt``) from LLVM's
behaviour: for each encoding format, every value of the opcode field is encoded with fixed, distinct probe
registers in the other fields, all probes of a format go to one ``llvm-mc-19 --disassemble -show-encoding`` run,
and each opcode's printed line becomes a table row: the mnemonic and an operand *template*, the operand text with
every probe register replaced by the field it came from (``{VDST:v:2}`` = field VDST as a 2-register VGPR range).

These are facts observed from the disassembler (which opcode numbers exist, how their operands print), not
LLVM's tables. Opcodes LLVM rejects with every probe variant are absent from the table; the decoder reports them.

Usage: ``tools/gen_opcode_tables.py [--family gfx9 ...] [--out DIR] [--llvm-mc llvm-mc-19]``.
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

# family -> (LLVM target the table is generated with, field layout family of isa/amdgcn/fields.py)
FAMILIES: dict[str, tuple[str, str]] = {
    "gfx8": ("gfx803", "gfx9"), "gfx9": ("gfx900", "gfx9"), "gfx906": ("gfx906", "gfx9"),
    "gfx908": ("gfx908", "gfx9"), "gfx90a": ("gfx90a", "gfx9"),
    "gfx942": ("gfx942", "gfx9"), "gfx10_1": ("gfx1010", "gfx10"), "gfx10_3": ("gfx1030", "gfx10"),
    "gfx11": ("gfx1100", "gfx11"), "gfx11_5": ("gfx1150", "gfx11"), "gfx12": ("gfx1200", "gfx12"),
    # wave64 on gfx10+ (-mattr=+wavefrontsize64: lane masks print as SGPR pairs, vcc for vcc_lo); written as the
    # rows that differ from the wave32 family's table (docs/decoder.md)
    "gfx10_1_w64": ("gfx1010+wavefrontsize64", "gfx10"), "gfx10_3_w64": ("gfx1030+wavefrontsize64", "gfx10"),
    "gfx11_w64": ("gfx1100+wavefrontsize64", "gfx11"), "gfx11_5_w64": ("gfx1150+wavefrontsize64", "gfx11"),
    "gfx12_w64": ("gfx1200+wavefrontsize64", "gfx12"),
    # targets LLVM 19 does not know: probed with ROCm LLVM's disassembler (tools/rocm_llvm.py, rocm-llvm-python)
    "gfx950": ("gfx950", "gfx9"), "gfx12_5": ("gfx1250", "gfx12"),
}
#: families whose probes go to ROCm LLVM (``--llvm-mc`` names llvm-mc-19 for the others)
ROCM_FAMILIES = frozenset({"gfx950", "gfx12_5"})
#: the ``llvm_mc`` argument that sends probes to ROCm LLVM instead of an llvm-mc executable
ROCM = "rocm-llvm"

# Probe register numbers, one per field, multiples of 8 so every register range up to 8 wide is aligned.
# Field -> (register file, number) as the printed operand shows it.
VDST, SRC0, SRC1, SRC2, SDST2 = 8, 16, 24, 32, 40


@dataclass(frozen=True)
class Probe:
    """Words for one opcode plus the register each field was given (to turn printed registers into fields)."""

    words: tuple[int, ...]
    regs: dict[tuple[str, int], str]
    zero: frozenset[str] = frozenset()
    #: the same probe with one zeroed field given its probe value (to learn whether LLVM ignores the field)
    unzero: Callable[[str], Probe] | None = None


Variant = Callable[[int], Probe]


def _subsets(names: tuple[str, ...], zero_first: tuple[str, ...] = ()) -> list[frozenset[str]]:
    """Every subset of ``names``, smallest first: the fields to leave zero (LLVM rejects unused fields set);
    subsets with the ``zero_first`` fields zeroed come first (fields that are modifiers in most opcodes)."""
    out = [frozenset(n for i, n in enumerate(names) if mask >> i & 1) for mask in range(1 << len(names))]
    return sorted(out, key=lambda z: (sum(n not in z for n in zero_first), len(z)))


class _Fields:
    """Probe field values: a zeroed field is 0 and maps no register; a VGPR source is 256 + n in 9-bit fields."""

    def __init__(self, zero: frozenset[str], files: dict[str, str] | None = None) -> None:
        self.zero, self.files = zero, files or {}
        self.regs: dict[tuple[str, int], str] = {}

    def reg(self, name: str, n: int, file: str = "v", scale: int = 1) -> int:
        if name in self.zero:
            return 0
        file = self.files.get(name, file)
        self.regs.setdefault((file, n), name)
        return n // scale

    def src9(self, name: str, n: int) -> int:
        value = self.reg(name, n)
        return value + 256 if name not in self.zero and self.files.get(name, "v") == "v" else value


def _variants(make: Callable[[int, _Fields], tuple[int, ...]], zeroable: tuple[str, ...],
              scalar: tuple[str, ...] = (), zero_first: tuple[str, ...] = (),
              fixed: frozenset[str] = frozenset()) -> list[Variant]:
    """Probe makers for every choice of zeroed fields and of SGPR instead of VGPR for the ``scalar`` fields;
    ``fixed``: ``FIELD=VALUE`` entries every probe has (the maker sets them; the row says LLVM wants them)."""
    out: list[Variant] = []
    for files in _subsets(scalar):
        for zero in (z | fixed for z in _subsets(zeroable, zero_first)):
            def variant(op: int, zero: frozenset[str] = zero, files: frozenset[str] = files) -> Probe:
                f = _Fields(zero, {n: "s" for n in files})
                words = make(op, f)
                return Probe(words, f.regs, zero, lambda name: variant(op, zero - {name}, files))
            out.append(variant)
    return out


def formats(layout: str, target: str) -> Iterator[tuple[str, int, list[Variant]]]:
    """(format name, number of opcodes, probe variants) for one field layout family."""
    g12 = layout == "gfx12"
    gfx12_5 = target.startswith("gfx125")
    null = {"gfx9": None, "gfx10": 0x7D, "gfx11": 0x7C, "gfx12": 0x7C}[layout]

    def sop2(op: int, f: _Fields) -> tuple[int, ...]:
        return ((0b10 << 30) | op << 23 | f.reg("SDST", VDST, "s") << 16 | f.reg("SSRC1", SRC1, "s") << 8
                | f.reg("SSRC0", SRC0, "s"),)
    yield "SOP2", 0x5D, [*_variants(sop2, ("SDST", "SSRC1", "SSRC0")),  # s_fmaak/s_fmamk carry a literal:
                         *_variants(lambda op, f: (*sop2(op, f), 0x12345678), ("SDST", "SSRC1", "SSRC0"))]

    def sop1(op: int, f: _Fields) -> tuple[int, ...]:
        return ((0x17D << 23) | f.reg("SDST", VDST, "s") << 16 | op << 8 | f.reg("SSRC0", SRC0, "s"),)
    yield "SOP1", 256, _variants(sop1, ("SDST", "SSRC0"))

    def sopc(op: int, f: _Fields) -> tuple[int, ...]:
        return ((0x17E << 23) | op << 16 | f.reg("SSRC1", SRC1, "s") << 8 | f.reg("SSRC0", SRC0, "s"),)
    yield "SOPC", 128, _variants(sopc, ("SSRC1", "SSRC0"))

    def sopk(op: int, f: _Fields) -> tuple[int, ...]:
        return ((0xB << 28) | op << 23 | f.reg("SDST", VDST, "s") << 16 | (0 if "SIMM16" in f.zero else 0x8234),)

    def sopk_lit(op: int, f: _Fields) -> tuple[int, ...]:
        return (*sopk(op, f), 0x12345678)
    yield "SOPK", 0x1D, [*_variants(sopk, ("SDST", "SIMM16")), *_variants(sopk_lit, ("SDST",))]

    def sopp(op: int, f: _Fields) -> tuple[int, ...]:
        return ((0x17F << 23) | op << 16 | (0 if "SIMM16" in f.zero else 5),)
    yield "SOPP", 128, _variants(sopp, ("SIMM16",))
    # how each prints the immediate 0 (s_endpgm prints none)
    yield "SOPP0", 128, [lambda op: Probe(((0x17F << 23) | op << 16,), {})]
    yield "SOPPFFFF", 128, [lambda op: Probe(((0x17F << 23) | op << 16 | 0xFFFF,), {})]

    def smem(op: int, f: _Fields) -> tuple[int, ...]:
        sdata, sbase = f.reg("SDATA", VDST, "s"), f.reg("SBASE", SRC1, "s", 2)
        if layout == "gfx9":
            return ((0x30 << 26) | op << 18 | 1 << 17 | sdata << 6 | sbase, 0)
        shift = 13 if g12 else 18
        return ((0x3D << 26) | op << shift | sdata << 6 | sbase, (null or 0) << 25)
    yield "SMEM", 256, _variants(smem, ("SDATA", "SBASE"))

    def vop2(op: int, f: _Fields) -> tuple[int, ...]:
        return (op << 25 | f.reg("VDST", VDST) << 17 | f.reg("VSRC1", SRC1) << 9 | f.src9("SRC0", SRC0),)

    def vop2_lit(op: int, f: _Fields) -> tuple[int, ...]:
        return (*vop2(op, f), 0x12345678)
    yield "VOP2", 0x3F, [*_variants(vop2, (), ("SRC0",)), *_variants(vop2_lit, ())]

    def vop1(op: int, f: _Fields) -> tuple[int, ...]:
        if "VDST" not in f.zero:
            f.regs[("s", VDST)] = "VDST"  # v_readfirstlane writes an SGPR
        return ((0x3F << 25) | f.reg("VDST", VDST) << 17 | op << 9 | f.src9("SRC0", SRC0),)
    yield "VOP1", 256, _variants(vop1, ("VDST", "SRC0"), ("SRC0",))

    def vopc(op: int, f: _Fields) -> tuple[int, ...]:
        return ((0x3E << 25) | op << 17 | f.reg("VSRC1", SRC1) << 9 | f.src9("SRC0", SRC0),)
    yield "VOPC", 256, _variants(vopc, (), ("SRC0",))

    vop3_id = 0x34 if layout == "gfx9" else 0x35

    def vop3(op: int, f: _Fields) -> tuple[int, ...]:
        # VOP3B forms keep a scalar destination (SDST) in bits 14:8: probed as s[40:41]
        f.files.setdefault("VDST_S", "s")
        # ROCm LLVM decodes gfx12.5's v_cmpx_*_e64 only with VDST = exec_lo (126), which it does not print
        vdst = 126 if "VDST=126" in f.zero else f.reg("VDST", VDST)
        if vdst and "VDST=126" not in f.zero:
            f.regs.setdefault(("s", VDST), "VDST")  # VOPC's and readlane's scalar destination
        w0 = (vop3_id << 26) | op << 16 | f.reg("SDST", SDST2, "s") << 8 | vdst
        return (w0, f.src9("SRC2", SRC2) << 18 | f.src9("SRC1", SRC1) << 9 | f.src9("SRC0", SRC0))
    vop3_exec = _variants(vop3, ("SDST", "SRC2", "SRC1", "SRC0"), ("SRC0", "SRC1", "SRC2"), zero_first=("SDST",),
                          fixed=frozenset({"VDST=126"})) if gfx12_5 else []
    yield "VOP3", 1024, [*_variants(vop3, ("SDST", "SRC2", "SRC1", "SRC0", "VDST"), ("SRC0", "SRC1", "SRC2"),
                                    zero_first=("SDST",)), *vop3_exec]

    def vop3p(op: int, f: _Fields) -> tuple[int, ...]:
        head = (0x1A7 << 23) if layout == "gfx9" else (0xCC << 24)
        # op_sel_hi = 1,1,1 (bits 14 and 60:59) is the default LLVM does not print
        w0 = head | op << 16 | 1 << 14 | f.reg("VDST", VDST)
        return (w0, 3 << 27 | f.src9("SRC2", SRC2) << 18 | f.src9("SRC1", SRC1) << 9 | f.src9("SRC0", SRC0))
    yield "VOP3P", 128, _variants(vop3p, ("SRC2", "SRC1", "SRC0"), ("SRC0", "SRC1"))

    def ds(op: int, f: _Fields) -> tuple[int, ...]:
        # OFFSET1 = 2, OFFSET0 = 1: printed as offset:513 or as offset0:1 offset1:2
        w0 = (0x36 << 26) | (op << 17 if layout == "gfx9" else op << 18) | (0 if "OFFSET" in f.zero else 0x201)
        return (w0, f.reg("VDST", VDST) << 24 | f.reg("DATA1", SRC2) << 16 | f.reg("DATA0", SRC1) << 8
                | f.reg("ADDR", SRC0))
    yield "DS", 256, _variants(ds, ("VDST", "DATA1", "DATA0", "ADDR", "OFFSET"))

    if layout in ("gfx11", "gfx12"):
        def vopd(op: int, f: _Fields, literal: bool = False) -> tuple[int, ...]:
            # op = OPX << 5 | OPY; VDSTY's field holds the register >> 1, its low bit is the inverse of VDSTX's
            w0 = (0x32 << 26) | (op >> 5) << 22 | (op & 31) << 17 | f.reg("VSRCX1", SRC1) << 9 | f.src9("SRCX0", SRC0)
            w1 = f.reg("VDSTX", VDST) << 24 | f.reg("VDSTY", 49, scale=2) << 17 | f.reg("VSRCY1", SDST2) << 9 \
                | f.src9("SRCY0", SRC2)
            return (w0, w1, 0x12345678) if literal else (w0, w1)
        yield "VOPD", 512, [*_variants(vopd, ("VSRCX1", "VSRCY1")),
                            *_variants(lambda op, f: vopd(op, f, True), ("VSRCX1", "VSRCY1"))]

    if g12:
        # gfx12 VFLAT/VSCRATCH/VGLOBAL (96 bits; llvm-mc-19 -show-encoding): SADDR 6:0, OP 21:14, VDST 39:32,
        # SVE 49, TH 54:52, VSRC 62:55, VADDR 71:64, IOFFSET 95:72. With TH = 1 atomics print their
        # returning form (the table _GLC).
        for enc, name, th in ((e, n, t) for e, n in ((0xEC, "FLAT"), (0xED, "SCRATCH"), (0xEE, "GLOBAL"))
                              for t in (0, 1)):
            def vflat(op: int, f: _Fields, enc: int = enc, th: int = th, scratch: bool = name == "SCRATCH") \
                    -> tuple[int, ...]:
                saddr = 0 if "SADDR" in f.zero else 0x7C
                addr = f.reg("ADDR", SRC0)
                sve = 1 << 17 if scratch and addr else 0
                return (enc << 24 | op << 14 | saddr, f.reg("VDST", VDST) | sve | th << 20 | f.reg("DATA", SRC1) << 23,
                        addr)
            yield name + ("_GLC" if th else ""), 256, _variants(vflat, ("VDST", "DATA", "ADDR", "SADDR"))
    else:
        off = 0x7F if null is None else null
        glc = 1 << 14 if layout == "gfx11" else 1 << 16
        for seg, name, glc_bit in ((s, n, g) for s, n in ((0, "FLAT"), (1, "SCRATCH"), (2, "GLOBAL"))
                                   for g in (0, glc)):
            def flat(op: int, f: _Fields, seg: int = seg, glc_bit: int = glc_bit) -> tuple[int, ...]:
                segbits = seg << 16 if layout == "gfx11" else seg << 14
                w0 = (0x37 << 26) | op << 18 | segbits | glc_bit
                addr = f.reg("ADDR", SRC0)
                sve = 1 << 23 if layout == "gfx11" and seg == 1 and addr else 0  # gfx11 scratch: VADDR needs SVE
                saddr = 0 if "SADDR" in f.zero else off  # FLAT (no SADDR) wants 0 on gfx9, `off' elsewhere
                return (w0, f.reg("VDST", VDST) << 24 | sve | saddr << 16 | f.reg("DATA", SRC1) << 8 | addr)
            # with GLC set, atomics print their returning form (the table _GLC)
            yield name + ("_GLC" if glc_bit else ""), 128, _variants(flat, ("VDST", "DATA", "ADDR", "SADDR"))

        def mubuf(op: int, f: _Fields, glc: int = 0) -> tuple[int, ...]:
            w0 = (0x38 << 26) | op << 18 | glc << 14
            # soffset = inline constant 0
            return (w0, 0x80 << 24 | f.reg("SRSRC", SRC1, "s", 4) << 16 | f.reg("VDATA", VDST) << 8
                    | f.reg("VADDR", SRC0))
        yield "MUBUF", 128 if layout == "gfx9" else 256, _variants(mubuf, ("VDATA", "VADDR", "SRSRC"))
        yield "MUBUF_GLC", 128 if layout == "gfx9" else 256, _variants(lambda op, f: mubuf(op, f, 1),
                                                                       ("VDATA", "VADDR", "SRSRC"))

        if layout == "gfx9":
            # MTBUF (GCN3/Vega/CDNA ISA guides; llvm-mc-19 -show-encoding): OP 18:15, DFMT 22:19, NFMT 25:23, the
            # rest as MUBUF; probed with DFMT 1, NFMT 0 (the default format LLVM does not print)
            def mtbuf(op: int, f: _Fields) -> tuple[int, ...]:
                return ((0x3A << 26) | 1 << 19 | op << 15, 0x80 << 24 | f.reg("SRSRC", SRC1, "s", 4) << 16
                        | f.reg("VDATA", VDST) << 8 | f.reg("VADDR", SRC0))
            yield "MTBUF", 16, _variants(mtbuf, ("VDATA", "VADDR", "SRSRC"))


_REG = re.compile(r"\b([vsa])(\d+)\b|\b([vsa])\[(\d+):(\d+)\]")


def template(operands: str, regs: dict[tuple[str, int], str]) -> str | None:
    """The operand text with probe registers replaced by ``{FIELD:file:count}``; None if a register is not a probe."""
    missing = False

    def sub(m: re.Match[str]) -> str:
        nonlocal missing
        if m.group(1):
            file, first, count = m.group(1), int(m.group(2)), 1
        else:
            file, first, count = m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1
        key = regs.get((file, first)) or regs.get(("v" if file == "a" else file, first))
        if key is None:
            missing = True
            return m.group(0)
        return f"{{{key}:{file}:{count}}}"

    out = _REG.sub(sub, operands)
    # every probed field must show as a register: one printed otherwise (an immediate, gpr_idx(...)) is not
    # something a register template can spell
    if missing or any(f"{{{name}:" not in out for name in regs.values()):
        return None
    return out


def _hex(words: tuple[int, ...]) -> str:
    return ",".join(f"0x{b:02x}" for w in words for b in w.to_bytes(4, "little"))


_NOP = 0xBF800000
_WARN = re.compile(r"<stdin>:(\d+):(\d+): warning: invalid instruction encoding")
_LINE = re.compile(r"^\s+(\S+)(?:\s+(.*?))?\s*; encoding: \[([^\]]*)\]")


def _mark(i: int) -> int:
    # s_nop 6..55 (printed in decimal; no probe is an s_nop with such an immediate) after probe i
    return 6 + i % 50


def _marker(i: int) -> int:
    return 0xBF800000 | _mark(i)


def _rocm_llvm() -> ModuleType:
    import importlib.util

    spec = importlib.util.spec_from_file_location("rocm_llvm", Path(__file__).with_name("rocm_llvm.py"))
    assert spec is not None and spec.loader is not None
    module = sys.modules.get("rocm_llvm") or importlib.util.module_from_spec(spec)
    if "rocm_llvm" not in sys.modules:
        sys.modules["rocm_llvm"] = module
        spec.loader.exec_module(module)
    return module


def disassemble(llvm_mc: str, target: str, probes: list[tuple[int, ...]], attrs: tuple[str, ...] = ()
                ) -> list[str | None]:
    """Text of each probe when LLVM decodes it as exactly one instruction, else None.

    Each probe is followed by two ``s_nop <index>`` markers: llvm-mc's -show-encoding prints the re-encoded
    bytes (a misaligned register or an inline-able literal prints shorter), so lengths cannot align its output
    with the input; the markers can. A probe counts only when its line has no warning at its first byte, exactly
    one instruction precedes its first marker, and both markers survive (nothing swallowed them).
    """
    cpu, _, feature = target.partition("+")
    features = ",".join(f"+{a}" for a in (*([feature] if feature else []), *attrs))
    if llvm_mc == ROCM:  # LLVM-C gives each instruction's length: no markers needed
        return _rocm_llvm().disassemble(cpu, probes, features)
    text = "\n".join(_hex((*p, _marker(i), _marker(i))) for i, p in enumerate(probes)) + "\n"
    run = subprocess.run([llvm_mc, "--disassemble", "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding",
                          *([f"-mattr={features}"] if features else [])],
                         input=text, capture_output=True, text=True, check=False)
    rejected = {int(m.group(1)) - 1 for m in _WARN.finditer(run.stderr) if m.group(2) == "1"}
    marks = {f"s_nop {_mark(i)}" for i in range(50)}
    result: list[str | None] = [None] * len(probes)
    pending: list[str] = []
    seen: dict[int, int] = {}
    i = 0
    for line in run.stdout.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        body = f"{m.group(1)} {m.group(2) or ''}".rstrip()
        if body in marks and i < len(probes) and body != f"s_nop {_mark(i)}":
            # a marker of a later probe: probes in between swallowed theirs; resynchronise there
            ahead = (int(body.split()[1]) - _mark(i)) % 50
            if ahead < 10:
                i, pending = i + ahead, []
                seen[i] = 1
                continue
        if body in marks and i < len(probes) and body == f"s_nop {_mark(i)}":
            seen[i] = seen.get(i, 0) + 1
            if seen[i] == 1:
                if len(pending) == 1 and i not in rejected:
                    result[i] = pending[0]
                pending = []
            else:
                if seen[i] != 2:
                    result[i] = None
                i += 1
            continue
        if seen.get(i):  # an instruction between the two markers: the probe swallowed the first one
            result[i] = None
            i += 1
        pending.append(body)
    for j in range(len(probes)):
        if seen.get(j, 0) != 2:
            result[j] = None
    return result


# gfx11+ true16: a 16-bit VOP1/VOP2/VOPC operand names a half register, bit 7 of its register number choosing the
# high half (v132 = v4.h; RDNA3 ISA guide, "16-bit VGPRs"). Field -> (low bit, register offset) of the fields
# that can be 16-bit (SRC0 holds VGPRs from 256).
_HALF_FIELDS = {"VOP1": {"VDST": (17, 0), "SRC0": (0, 256)},
                "VOP2": {"VDST": (17, 0), "VSRC1": (9, 0), "SRC0": (0, 256)},
                "VOPC": {"VSRC1": (9, 0), "SRC0": (0, 256)}}
_HIGH = 129  # v1.h


def sixteen_bit(llvm_mc: str, target: str, fmt: str, rows: dict[int, tuple[str, str, str]]
                ) -> dict[int, tuple[str, str, str]]:
    """``rows`` with each 16-bit VGPR operand's placeholder written ``{FIELD:t:1}`` (the decoder spells a high half
    ``vN.h``), or ``{FIELD:h:1}`` where LLVM 19 already prints the true16 syntax (``v16.l``: always a half).
    LLVM 19 spells these operands "fake16": with register 129 in a 16-bit field it prints
    ``v129/*Invalid register, operand has '..._Lo128' register class*/`` or rejects the word (most 16-bit
    destinations) where it accepts register 8; either marks the field 16-bit (only the register number differs
    from the accepted probe, so nothing else can make it reject)."""
    out = dict(rows)
    probes: list[tuple[int, str, tuple[int, ...]]] = []
    for op, (mn, tmpl, zero) in rows.items():
        if ".l" in tmpl:  # an opcode LLVM 19 decodes as true16 (v_mov_b16: ``v16.l``): always halves
            out[op] = (mn, re.sub(r"\{(\w+):v:1\}\.l", r"{\1:h:1}", tmpl), zero)
            continue
        if "SRC0" in zero.split(","):
            continue
        word = _word(fmt, op, tmpl)
        literal = (0x12345678,) if "{LITERAL}" in tmpl else ()
        for name, (lo, base) in _HALF_FIELDS[fmt].items():
            if f"{{{name}:v:1}}" in tmpl:
                mask = (0x1FF if lo == 0 else 0xFF) << lo
                probes.append((op, name, (word & ~mask | (base + _HIGH) << lo, *literal)))
    texts = disassemble(llvm_mc, target, [p[2] for p in probes])
    half: dict[int, set[str]] = {}
    for (op, name, _w), text in zip(probes, texts, strict=True):
        if text is None or re.search(r"v129/\*[^*]*_Lo128'", text):
            half.setdefault(op, set()).add(name)
    for op, names in half.items():
        mn, tmpl, zero = rows[op]
        for name in names:
            tmpl = tmpl.replace(f"{{{name}:v:1}}", f"{{{name}:t:1}}")
        out[op] = (mn, tmpl, zero)
    return out


def _word(fmt: str, op: int, tmpl: str) -> int:
    """The probe dword of a VOP1/VOP2/VOPC row (registers as in :func:`formats`; SRC0 a VGPR when the template
    names one)."""
    src0 = 256 + SRC0 if "{SRC0:v:" in tmpl else SRC0
    if fmt == "VOP1":
        return (0x3F << 25) | VDST << 17 | op << 9 | src0
    if fmt == "VOP2":
        return op << 25 | VDST << 17 | SRC1 << 9 | src0
    return (0x3E << 25) | op << 17 | SRC1 << 9 | src0


_VOP3_REG = {"VDST": (0, VDST), "SRC0": (32, SRC0), "SRC1": (41, SRC1), "SRC2": (50, SRC2)}


def _vop3_probe(layout: str, op: int, tmpl: str) -> tuple[int, int]:
    """The VOP3 words of a row: the probe register of each field its template names (VGPRs from 256 in the
    source fields), 0 in the others (LLVM accepts an unused field that is zero)."""
    value = ((0x34 if layout == "gfx9" else 0x35) << 26) | op << 16
    for name, (lo, reg) in _VOP3_REG.items():
        m = re.search(rf"\{{{name}:([vsa]):\d+\}}", tmpl)
        if m:
            value |= (reg + (256 if m.group(1) != "s" and name != "VDST" else 0)) << lo
    return value & 0xFFFFFFFF, value >> 32


def op_sel(llvm_mc: str, target: str, layout: str, rows: dict[int, tuple[str, str, str]]
           ) -> dict[int, tuple[str, str, str]]:
    """How LLVM prints each VOP3 opcode's ``op_sel`` bits (word 0 bits 11-14: source 0-2, destination): the row
    ``opcode  mnemonic  N:P0,P1,P2,P3``, where N is the length of the printed ``op_sel:[...]`` list and Pi the
    list position bit i sets, ``-`` when LLVM prints nothing for that bit ("fake16" opcodes such as gfx11's
    v_cndmask_b16 drop it) and ``x`` when it rejects the bit or prints anything else. Each bit is probed alone on
    the row's words; the text must be the row's text with `` op_sel:[...]`` appended."""
    ops = [op for op, (_mn, tmpl, _z) in rows.items() if "{SDST:" not in tmpl and "{LITERAL}" not in tmpl]
    words = {op: _vop3_probe(layout, op, rows[op][1]) for op in ops}
    base = disassemble(llvm_mc, target, [words[op] for op in ops])
    probes = [(op, bit) for op in ops for bit in range(4)]  # bits in order: marks are appended per opcode
    texts = disassemble(llvm_mc, target, [(words[op][0] | 1 << (11 + bit), words[op][1]) for op, bit in probes])
    before = dict(zip(ops, base, strict=True))
    found: dict[int, list[str]] = {}
    length: dict[int, set[int]] = {}
    for (op, _bit), text in zip(probes, texts, strict=True):
        plain = before[op]
        mark = "x"
        if plain is not None and text == plain:
            mark = "-"
        elif plain is not None and text is not None and text.startswith(plain + " op_sel:["):
            entries = text[len(plain) + len(" op_sel:["):].removesuffix("]").split(",")
            if text.endswith("]") and entries.count("1") == 1 and set(entries) <= {"0", "1"}:
                mark = str(entries.index("1"))
                length.setdefault(op, set()).add(len(entries))
        found.setdefault(op, []).append(mark)
    out: dict[int, tuple[str, str, str]] = {}
    for op, marks in found.items():
        if set(marks) == {"x"}:
            continue
        sizes = length.get(op, {0})
        if len(sizes) != 1:
            marks = ["x" if m not in "-x" else m for m in marks]
        out[op] = (rows[op][0], f"{min(sizes)}:{','.join(marks)}", "")
    return out


def sdwa(llvm_mc: str, target: str, fmt: str, rows: dict[int, tuple[str, str, str]]
         ) -> dict[int, tuple[str, str, str]]:
    """The SDWA form of each VOP1/VOP2/VOPC opcode (gfx8-gfx10: SRC0 = 0xF9, a second dword of selects): its
    mnemonic and template, probed with the row's registers (SRC0 v16 in the SDWA dword) and every select DWORD
    (6), ``dst_unused`` UNUSED_PAD (0), no modifiers, VOPC's SD 0 (``vcc``). The select words stay in the
    template as LLVM printed them (``dst_sel:DWORD``); the decoder puts the instruction's selects there. The last
    column names the modifiers LLVM accepts for the opcode (each probed alone; the decoder gives a diagnostic for
    any other)."""
    ops = list(rows)
    words = []
    for op in ops:
        if fmt == "VOP1":
            w0, w1 = (0x3F << 25) | VDST << 17 | op << 9 | 0xF9, SRC0 | 6 << 8 | 6 << 16  # no src1_sel
        elif fmt == "VOP2":
            w0, w1 = op << 25 | VDST << 17 | SRC1 << 9 | 0xF9, SRC0 | 6 << 8 | 6 << 16 | 6 << 24
        else:
            w0, w1 = (0x3E << 25) | op << 17 | SRC1 << 9 | 0xF9, SRC0 | 6 << 16 | 6 << 24
        words.append((w0, w1))
    regs = {("v", VDST): "VDST", ("s", VDST): "VDST", ("v", SRC0): "SRC0", ("v", SRC1): "VSRC1"}
    # the modifiers each opcode takes, each probed alone (SDWA dword bits): LLVM rejects sext on float
    # opcodes, neg/abs on integer ones, omod on gfx10, ...
    modifiers = {"sext0": 1 << 19, "neg0": 1 << 20, "abs0": 1 << 21, "s0": 1 << 23,
                 **({"sext1": 1 << 27, "neg1": 1 << 28, "abs1": 1 << 29, "s1": 1 << 31} if fmt != "VOP1" else {}),
                 **({"clamp": 1 << 13, "omod": 1 << 14} if fmt != "VOPC" else {"sd": 1 << 15 | VDST << 8})}
    probes = [(op, name, (w0, w1 | bit)) for op, (w0, w1) in zip(ops, words, strict=True)
              for name, bit in modifiers.items()]
    plain = dict(zip(ops, disassemble(llvm_mc, target, words), strict=True))
    accepted: dict[int, list[str]] = {}
    for (op, name, _w), text in zip(probes, disassemble(llvm_mc, target, [p[2] for p in probes]), strict=True):
        if text is not None and "/*" not in text:
            # ``omod-``: accepted but not printed (gfx8 omod)
            accepted.setdefault(op, []).append(name + ("-" if text == plain[op] else ""))
    out: dict[int, tuple[str, str, str]] = {}
    for op, text in plain.items():
        if text is None or "/*" in text or " src0_sel:" not in text:  # gfx8 VOPC: no _sdwa suffix
            continue
        mn, _, operands = text.partition(" ")
        used = {k: v for k, v in regs.items() if re.search(rf"\b{k[0]}{k[1]}\b", operands)}
        tmpl = template(operands, used)
        if tmpl is not None:
            out[op] = (mn, tmpl, ",".join(accepted.get(op, [])))
    return out


# DPP (VOP1/VOP2/VOPC with SRC0 = 0xFA and a second dword; gfx10+ also DPP8 with SRC0 = 0xE9, 0xEA with FI): the
# DPP dword's modifier bits (AMD ISA guides, DPP16; checked with llvm-mc-19 -show-encoding): name -> bit
DPP_MODIFIERS = {"r17": 1 << 17, "fi": 1 << 18, "bound_ctrl": 1 << 19, "neg0": 1 << 20, "abs0": 1 << 21,
                 "neg1": 1 << 22, "abs1": 1 << 23}
_DPP_IDENTITY = 0xE4 << 8 | 0xF << 24 | 0xF << 28  # quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
_DPP_TAIL = " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"
_DPP8_IDENTITY = 0o76543210 << 8  # dpp8:[0,1,2,3,4,5,6,7]


def _dpp_word(fmt: str, op: int, src0: int) -> int:
    if fmt == "VOP1":
        return (0x3F << 25) | VDST << 17 | op << 9 | src0
    if fmt == "VOP2":
        return op << 25 | VDST << 17 | SRC1 << 9 | src0
    return (0x3E << 25) | op << 17 | SRC1 << 9 | src0


def dpp(llvm_mc: str, target: str, layout: str, fmt: str, rows: dict[int, tuple[str, str, str]]
        ) -> dict[int, tuple[str, str, str]]:
    """The DPP form of each VOP1/VOP2/VOPC opcode: its mnemonic and operand template, probed with the row's
    registers (SRC0 v16 in the DPP dword) and the identity control with full masks (the decoder writes the
    control, masks and flags from the instruction); the last column names what LLVM accepts, each probed
    alone: ``neg0 abs0 neg1 abs1`` (source modifiers), ``bound_ctrl:1``/``fi:1`` as LLVM prints the bit (a name
    ending in ``-``: accepted, not printed), ``dpp8`` and ``dpp8fi`` (gfx10+: the DPP8 form, with FI)."""
    ops = list(rows)
    plain = disassemble(llvm_mc, target, [(_dpp_word(fmt, op, 0xFA), SRC0 | _DPP_IDENTITY) for op in ops])
    names = list(DPP_MODIFIERS)
    probes = [(_dpp_word(fmt, op, 0xFA), SRC0 | _DPP_IDENTITY | DPP_MODIFIERS[n]) for op in ops for n in names]
    if layout != "gfx9":
        probes += [(_dpp_word(fmt, op, src0), SRC0 | _DPP8_IDENTITY) for op in ops for src0 in (0xE9, 0xEA)]
    texts = disassemble(llvm_mc, target, probes)
    regs = {("v", VDST): "VDST", ("s", VDST): "VDST", ("v", SRC0): "SRC0", ("v", SRC1): "VSRC1"}
    out: dict[int, tuple[str, str, str]] = {}
    for i, (op, text) in enumerate(zip(ops, plain, strict=True)):
        if text is None or "/*" in text or not text.endswith(_DPP_TAIL):
            continue
        head = text.removesuffix(_DPP_TAIL)
        mn, _, operands = head.partition(" ")
        used = {k: v for k, v in regs.items() if re.search(rf"\b{k[0]}{k[1]}\b", operands)}
        tmpl = template(operands, used)
        if tmpl is None:
            continue
        accepted = []
        for j, name in enumerate(names):
            got = texts[i * len(names) + j]
            if got is None or "/*" in got:
                continue
            if got == text:
                accepted.append(name + "-")
            elif name in ("bound_ctrl", "fi") and got.startswith(text + f" {name}:"):
                accepted.append(got.removeprefix(text + " "))
            elif name in ("neg0", "abs0", "neg1", "abs1"):
                # only as the plain source modifier (LLVM prints gfx9 v_ldexp_f16's neg1 as sext(v24), and
                # v_cndmask's abs1 as |v24, vcc_lo|: those stay diagnostics)
                reg = f"v{SRC0 if name[-1] == '0' else SRC1}"
                wrapped = f"-{reg}" if name.startswith("neg") else f"|{reg}|"
                if got == re.sub(rf"\b{reg}\b", wrapped, text, count=1):
                    accepted.append(name)
        if layout != "gfx9":
            base = len(ops) * len(names) + 2 * i
            for k, label in enumerate(("dpp8", "dpp8fi")):
                tail = " dpp8:[0,1,2,3,4,5,6,7]" + (" fi:1" if k else "")
                if texts[base + k] == head + tail:
                    accepted.append(label)
        out[op] = (mn, tmpl, ",".join(accepted))
    return out


def dpp_controls(llvm_mc: str, target: str) -> dict[int, tuple[str, str, str]]:
    """How LLVM prints each DPP_CTRL value (v_mov_b32_dpp, full masks): ``row_shl:1``, ``quad_perm:[...]``...;
    values it rejects or comments on are absent."""
    head = "v_mov_b32_dpp v8, v16 "
    probes = [((0x3F << 25) | VDST << 17 | 1 << 9 | 0xFA, SRC0 | ctrl << 8 | 0xF << 24 | 0xF << 28) for ctrl in
              range(512)]
    out: dict[int, tuple[str, str, str]] = {}
    for ctrl, text in enumerate(disassemble(llvm_mc, target, probes)):
        if text and "/*" not in text and text.startswith(head) and text.endswith(" row_mask:0xf bank_mask:0xf"):
            out[ctrl] = ("dpp", text.removeprefix(head).removesuffix(" row_mask:0xf bank_mask:0xf"), "")
    return out


def exp_table(llvm_mc: str, target: str, layout: str) -> dict[str, dict[int, tuple[str, str, str]]]:
    """EXP (``exp mrt0 v8, v16, v24, v32 done``, gfx12 ``export``): section ``EXP``, each target number's
    mnemonic and name as LLVM prints them (all four sources enabled); ``EXP_FLAGS``, for word 0 bits 10-13
    (COMPR, DONE, VM, ROW_EN as the ISA guides place them) the word LLVM prints for the bit alone (``-``:
    accepted, not printed; absent: rejected), and row 99 the order it prints all accepted ones in."""
    base = (0x31 if layout == "gfx9" else 0x3E) << 26 | 0xF
    w1 = VDST | SRC0 << 8 | SRC1 << 16 | SRC2 << 24
    sources = f"v{VDST}, v{SRC0}, v{SRC1}, v{SRC2}"
    names = {}
    for tgt, text in enumerate(disassemble(llvm_mc, target, [(base | tgt << 4, w1) for tgt in range(64)])):
        mn = (text or "").partition(" ")[0]  # exp; gfx12: export
        if text and "/*" not in text and mn in ("exp", "export") and text.endswith(" " + sources):
            names[tgt] = (mn, text.removeprefix(mn + " ").removesuffix(" " + sources), "")
    if not names:  # gfx90a/gfx940 have no exports
        return {}
    mn = next(iter(names.values()))[0]
    flags: dict[int, tuple[str, str, str]] = {}
    bits = (10, 11, 12, 13)
    for bit, text in zip(bits, disassemble(llvm_mc, target, [(base | 1 << bit, w1) for bit in bits]), strict=True):
        words = text.split()[6:] if text and "/*" not in text and text.startswith(f"{mn} mrt0 ") else None
        if words is not None and len(words) <= 1:
            flags[bit] = (mn, words[0] if words else "-", "")
    every = sum(1 << bit for bit, row in flags.items() if row[1] != "-")
    text = disassemble(llvm_mc, target, [(base | every, w1)])[0]
    if text:
        flags[99] = (mn, " ".join(text.split()[6:]), "")
    return {"EXP": names, "EXP_FLAGS": flags}


def mtbuf_formats(llvm_mc: str, target: str) -> dict[int, tuple[str, str, str]]:
    """How LLVM prints each MTBUF format (DFMT | NFMT << 4: `` format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]``,
    empty for the default DFMT 1, NFMT 0) after ``tbuffer_load_format_x v8, off, s[4:7], 0``; values it rejects
    or comments on are absent."""
    head = "tbuffer_load_format_x v8, off, s[4:7], 0"
    probes = [((0x3A << 26) | (fmt & 15) << 19 | (fmt >> 4) << 23, 0x80 << 24 | 1 << 16 | VDST << 8)
              for fmt in range(128)]
    out: dict[int, tuple[str, str, str]] = {}
    for fmt, text in enumerate(disassemble(llvm_mc, target, probes)):
        if text and "/*" not in text and text.startswith(head):
            out[fmt] = ("format", text.removeprefix(head).strip(), "")
    return out


# MAI (gfx908/gfx90a/gfx940 v_mfma*/v_smfmac*: VOP3P words with their own modifier fields; AMD CDNA ISA guides,
# VOP3P-MAI): modifier -> (dword, bit mask of the probe value 1). ACC_CD (word 0 bit 15) makes VDST and SRC2
# AGPRs, ACC (word 1 bits 60:59) SRC0/SRC1; CBSZ 10:8, ABID 14:11, BLGP 63:61 are printed as numbers (or BLGP as
# neg:[...] by gfx940's f64 opcodes). Checked with llvm-mc-19 -show-encoding.
MAI_MODIFIERS = {"cbsz": (0, 1 << 8), "abid": (0, 1 << 11), "acc_cd": (0, 1 << 15), "acc0": (1, 1 << 27),
                 "acc1": (1, 1 << 28), "blgp": (1, 1 << 29)}


# gfx12.5 VOPD3 (96 bits; each bit flipped alone on ROCm LLVM, docs/decoder.md): encoding 31:24 = 0xCF, OPX 23:18,
# OPY 17:12, SRCX0 8:0, SRCY0 40:32, neg bits 46:41, SRCX1 55:48, SRCX2 63:56, VDSTX 71:64, SRCY1 79:72,
# SRCY2 87:80, VDSTY 95:88. Probe registers per field (bit position, register):
_VOPD3_X = {"SRCX0": (0, SRC0), "SRCX1": (48, SRC1), "SRCX2": (56, SRC2), "VDSTX": (64, VDST)}
_VOPD3_Y = {"SRCY0": (32, 48), "SRCY1": (72, 56), "SRCY2": (80, 64), "VDSTY": (88, SDST2)}


def vopd3(llvm_mc: str, target: str) -> dict[str, dict[int, tuple[str, str, str]]]:
    """gfx12.5's VOPD3 halves: sections ``VOPD3X``/``VOPD3Y``, each opcode probed with the other half
    ``v_dual_mov_b32`` (opcode 8) and its own sources VGPRs (SRCX0/SRCY0 from 256), SRC2 also as an SGPR
    (``v_dual_cndmask_b32``'s mask), unused sources zeroed (the last column, as for other formats); a
    ``bitop3:0x20``/``0x40`` in a template is the SRC2 field read as ``bitop2``'s immediate."""
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    for half, mine, other, shift in (("VOPD3X", _VOPD3_X, _VOPD3_Y, 18), ("VOPD3Y", _VOPD3_Y, _VOPD3_X, 12)):
        names = tuple(n for n in mine if n.endswith(("1", "2")))
        rows: dict[int, tuple[str, str, str]] = {}
        words: dict[int, tuple[int, ...]] = {}
        todo = list(range(64))
        for zero in _subsets(names):
            for src2_file in ("v", "s", "i"):  # i: an immediate (bitop2's bitop3:), no register
                probes, regs_of = [], []
                for op in todo:
                    value = 0xCF << 24 | op << shift | 8 << (30 - shift)  # the other half: v_dual_mov_b32
                    regs: dict[tuple[str, int], str] = {}
                    for name, (lo, reg) in mine.items():
                        if name in zero:
                            continue
                        value |= (reg + (256 if name.endswith("0") else 0)) << lo
                        if not (name.endswith("2") and src2_file == "i"):
                            regs[("s" if name.endswith("2") and src2_file == "s" else "v", reg)] = name
                    for name, (lo, reg) in other.items():  # mov: VDST and SRC0 only
                        if name.startswith("VDST") or name.endswith("0"):
                            value |= (reg + (256 if name.endswith("0") else 0)) << lo
                    probes.append(tuple(value >> (32 * i) & 0xFFFFFFFF for i in range(3)))
                    regs_of.append(regs)
                texts = disassemble(llvm_mc, target, probes)
                left = []
                for op, regs, text in zip(todo, regs_of, texts, strict=True):
                    parts = (text or "").split(" :: ")
                    if len(parts) != 2 or "/*" in (text or ""):
                        left.append(op)
                        continue
                    own = parts[0] if half == "VOPD3X" else parts[1]
                    mn, _, operands = own.partition(" ")
                    tmpl = template(operands, regs)
                    src2 = next(n for n in mine if n.endswith("2"))
                    if tmpl is None or (src2_file == "i" and src2 not in zero and " bitop3:" not in tmpl):
                        left.append(op)
                        continue
                    rows[op] = (mn, tmpl, ",".join(sorted(zero)))
                    words[op] = probes[todo.index(op)]
                todo = left
        out[half] = dict(sorted((op, _vopd3_negs(llvm_mc, target, half, row, words[op]))
                                for op, row in rows.items()))
    return out


#: VOPD3 neg bits: source -> bit (41-46)
_VOPD3_NEG = {"SRCX0": 41, "SRCX1": 42, "SRCX2": 43, "SRCY0": 44, "SRCY1": 45, "SRCY2": 46}


def _vopd3_negs(llvm_mc: str, target: str, half: str, row: tuple[str, str, str], words: tuple[int, ...]
                ) -> tuple[str, str, str]:
    """``row`` with ``negSRC`` added to its last column for each source whose neg bit LLVM prints as ``-`` on that
    operand (probed alone on the row's own words; LLVM rejects it on integer opcodes such as v_dual_mov_b32)."""
    mn, tmpl, zero = row
    value = sum(w << (32 * i) for i, w in enumerate(words))
    base = disassemble(llvm_mc, target, [words])[0] or ""
    own = 0 if half == "VOPD3X" else 1
    accepted = []
    sources = [n for n in _VOPD3_NEG if n[3] == half[-1] and f"{{{n}:" in tmpl]
    probes = [tuple((value | 1 << _VOPD3_NEG[n]) >> (32 * i) & 0xFFFFFFFF for i in range(3)) for n in sources]
    for name, text in zip(sources, disassemble(llvm_mc, target, probes) if probes else [], strict=True):
        parts, plain = (text or "").split(" :: "), base.split(" :: ")
        if len(parts) != 2 or len(plain) != 2 or parts[1 - own] != plain[1 - own]:
            continue
        # the operand of ``name`` in the template, by position, must gain a leading '-' and nothing else
        at = [m.group(1) for m in re.finditer(r"\{(\w+):", tmpl)].index(name)
        ops_plain, ops_neg = plain[own].split(", "), parts[own].split(", ")
        if len(ops_plain) == len(ops_neg) and ops_neg[at] == "-" + ops_plain[at].split(" ")[0] + \
                ops_plain[at][len(ops_plain[at].split(" ")[0]):] and ops_neg[:at] == ops_plain[:at]:
            accepted.append("neg" + name)
    return mn, tmpl, ",".join(z for z in (zero, *accepted) if z)


def mai(llvm_mc: str, target: str) -> dict[int, tuple[str, str, str]]:
    """The MAI opcodes of a gfx9 family (every VOP3P opcode that prints ``abid:1`` for ABID = 1): mnemonic, the
    template with every modifier field 0 (VGPRs v8, v16, v24, v32 in VDST, SRC0-2), and the modifiers LLVM
    accepts, each probed alone: ``cbsz``/``abid``/``blgp`` when it prints `` NAME:1``, ``neg`` when BLGP prints
    `` neg:[1,0,0]``, ``acc_cd``/``acc0``/``acc1`` when the text is the same with those operands as AGPRs
    (``acc_d``: ACC_CD makes only VDST one; ``acc_cd-``: the bit changes nothing), ``c2`` when SRC2 may be an
    inline constant (``0``)."""
    words = [((0x1A7 << 23) | op << 16 | VDST, (256 + SRC0) | (256 + SRC1) << 9 | (256 + SRC2) << 18)
             for op in range(128)]
    base = disassemble(llvm_mc, target, words)
    names = list(MAI_MODIFIERS)
    probes = []
    for w0, w1 in words:
        for name in names:
            dword, bit = MAI_MODIFIERS[name]
            probes.append((w0 | bit, w1) if dword == 0 else (w0, w1 | bit))
    texts = disassemble(llvm_mc, target, probes)
    # SRC2 = the inline constant 0: ``c2`` where LLVM prints it (v_smfmac*'s SRC2 is an index VGPR)
    constant = dict(zip(range(128), disassemble(llvm_mc, target, [(w0, w1 & ~(0x1FF << 18) | 128 << 18)
                                                                   for w0, w1 in words]), strict=True))
    regs = {("v", VDST): "VDST", ("v", SRC0): "SRC0", ("v", SRC1): "SRC1", ("v", SRC2): "SRC2"}
    agpr = {"acc_cd": ("VDST", "SRC2"), "acc0": ("SRC0",), "acc1": ("SRC1",)}
    out: dict[int, tuple[str, str, str]] = {}
    for op, text in enumerate(base):
        if text is None or "/*" in text:
            continue
        mn, _, operands = text.partition(" ")
        tmpl = template(operands, regs)
        if tmpl is None:
            continue
        accepted = []
        for i, name in enumerate(names):
            got = texts[op * len(names) + i]
            if got is None or "/*" in got:
                continue
            if name in agpr and got == text:  # gfx908's ACC_CD: accepted, not printed (VDST/SRC2 are AGPRs)
                accepted.append(name + "-")
            elif name in agpr:
                # v_smfmac*'s ACC_CD makes VDST alone an AGPR (its SRC2 is an index VGPR): ``acc_d``
                for label, fields in ((name, agpr[name]), ("acc_d", ("VDST",))):
                    expect = tmpl
                    for field in fields:
                        expect = re.sub(rf"\{{{field}:v:", f"{{{field}:a:", expect)
                    if expect != tmpl and template(got.partition(" ")[2], regs) == expect:
                        accepted.append(label)
                        break
            elif got == f"{text} {name}:1":
                accepted.append(name)
            elif name == "blgp" and got == f"{text} neg:[1,0,0]":
                accepted.append("neg")
        got = constant[op]
        no_src2 = {k: v for k, v in regs.items() if v != "SRC2"}
        zero_c = re.sub(r"\{SRC2:[va]:\d+\}", "0", tmpl)
        if got and "/*" not in got and template(got.partition(" ")[2], no_src2) == zero_c:
            accepted.append("c2")
        if "abid" in accepted:
            out[op] = (mn, tmpl, ",".join(accepted))
    return out


def table(llvm_mc: str, target: str, layout: str,
          only: frozenset[str] | None = None) -> dict[str, dict[int, tuple[str, str, str]]]:
    """Format -> opcode -> (mnemonic, template, fields LLVM wants 0); ``only`` limits the formats probed."""
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    for name, count, variants in formats(layout, target):
        if only is not None and name not in only:
            continue
        rows: dict[int, tuple[str, str, str]] = {}
        accepted: dict[int, tuple[Probe, str]] = {}
        todo = list(range(count))
        for variant in variants:
            if not todo:
                break
            probes = [variant(op) for op in todo]
            texts = disassemble(llvm_mc, target, [p.words for p in probes])
            left = []
            for op, probe, text in zip(todo, probes, texts, strict=True):
                tmpl = None if text is None else template(text.partition(" ")[2], probe.regs)
                if text is None or tmpl is None or "/*" in text:  # LLVM's comment: an invalid operand
                    left.append(op)
                    continue
                rows[op] = (text.partition(" ")[0], tmpl.replace("0x12345678", "{LITERAL}"),
                            ",".join(sorted(probe.zero)))
                accepted[op] = (probe, text)
            todo = left
        if llvm_mc == ROCM and layout == "gfx12" and name in _HALF_FIELDS and todo:
            # opcodes ROCm LLVM decodes only as true16 (gfx12.5's v_mov_b16_e32: ``v8.l, v16.l``; rejected in
            # its default fake16 mode): probed again with +real-true16; the ``.l`` template is a half always
            probes = [variants[0](op) for op in todo]
            texts = disassemble(llvm_mc, target, [p.words for p in probes], ("real-true16",))
            for op, probe, text in zip(todo, probes, texts, strict=True):
                tmpl = None if text is None else template(text.partition(" ")[2], probe.regs)
                if text is not None and tmpl is not None and "/*" not in text and ".l" in tmpl:
                    rows[op] = (text.partition(" ")[0], tmpl, ",".join(sorted(probe.zero)))
        # a zeroed field stays in the row only when LLVM rejects it set or prints something else then
        for field in sorted({f for p, _ in accepted.values() for f in p.zero}):
            ops = [op for op, (p, _) in accepted.items() if field in p.zero and p.unzero]
            again = disassemble(llvm_mc, target, [accepted[op][0].unzero(field).words for op in ops])  # type: ignore[misc]
            for op, text in zip(ops, again, strict=True):
                if text == accepted[op][1]:
                    mn, tmpl, zero = rows[op]
                    rows[op] = (mn, tmpl, ",".join(z for z in zero.split(",") if z != field))
        if name == "VOPD":  # split into the X and Y halves' tables
            for op, (_mn, tmpl, _zero) in sorted(rows.items()):
                x, _, y = tmpl.partition(" :: ")
                ym, _, yt = y.partition(" ")
                out.setdefault("VOPDX", {}).setdefault(op >> 5, (_mn, x, ""))
                out.setdefault("VOPDY", {}).setdefault(op & 31, (ym, yt, ""))
            for half in ("VOPDX", "VOPDY"):  # none in wave64 (VOPD is wave32 only)
                if half in out:
                    out[half] = dict(sorted(out[half].items()))
            continue
        if layout in ("gfx11", "gfx12") and name in _HALF_FIELDS:
            rows = sixteen_bit(llvm_mc, target, name, rows)
        out[name] = dict(sorted(rows.items()))
        if name == "VOP3":
            out["VOP3_OPSEL"] = dict(sorted(op_sel(llvm_mc, target, layout, rows).items()))
        if name == "MTBUF":
            out["MTBUF_FMT"] = mtbuf_formats(llvm_mc, target)
        if name == "VOP3P" and layout == "gfx9":
            rows_mai = mai(llvm_mc, target)
            if rows_mai:
                out["MAI"] = rows_mai
        if name in ("VOP1", "VOP2", "VOPC") and layout in ("gfx9", "gfx10"):
            out["SDWA_" + name] = dict(sorted(sdwa(llvm_mc, target, name, rows).items()))
        if name in ("VOP1", "VOP2", "VOPC"):
            found = dpp(llvm_mc, target, layout, name, rows)
            if found:  # LLVM 19 decodes no VOPC DPP before gfx11
                out["DPP_" + name] = dict(sorted(found.items()))
            if name == "VOP1":
                out["DPP_CTRL"] = dpp_controls(llvm_mc, target)
        if name == "SOPK":  # hwreg(...) names: s_getreg_b32 of every register id with offset 0, size 32
            op = next(op for op, row in rows.items() if row[0] == "s_getreg_b32")
            texts = disassemble(llvm_mc, target, [((0xB << 28) | op << 23 | VDST << 16 | 31 << 11 | i,)
                                                  for i in range(64)])
            out["HWREG"] = {i: ("s_getreg_b32", t.partition(", ")[2], "") for i, t in enumerate(texts) if t}
        if name == "SOPP":  # s_sendmsg's operand for every immediate below 1024
            op = next(op for op, row in rows.items() if row[0] == "s_sendmsg")
            texts = disassemble(llvm_mc, target, [((0x17F << 23) | op << 16 | imm,) for imm in range(1024)])
            out["SENDMSG"] = {imm: ("s_sendmsg", t.partition(" ")[2], "") for imm, t in enumerate(texts) if t}
    if target.startswith("gfx125") and (only is None or "VOPD3" in only):
        out.update(vopd3(llvm_mc, target))
    if only is None or "EXP" in only:
        out.update(exp_table(llvm_mc, target, layout))
    if only is None or "WORDS" in only:
        # whole dwords LLVM prints as an instruction without operands that no row spells (gfx10+: the zero
        # dword is v_illegal, every other VOP2 opcode-0 word is rejected)
        texts = disassemble(llvm_mc, target, [(w,) for w in _WORDS])
        words = {w: (t, "", "") for w, t in zip(_WORDS, texts, strict=True) if t and " " not in t}
        if words:
            out["WORDS"] = words
    return out


#: the dwords probed for the WORDS section
_WORDS = (0x00000000,)


def write(path: Path, family: str, target: str, llvm_mc: str, version: str,
          tables: dict[str, dict[int, tuple[str, str, str]]]) -> None:
    lines = [
        f"# AMDGPU opcode table for the {family} family, generated by tools/gen_opcode_tables.py",
        f"# with {version} (LLVMDisasmInstruction through tools/rocm_llvm.py, cpu {target}):" if llvm_mc == ROCM
        else f"# with {version} ({llvm_mc} --disassemble -arch=amdgcn -mcpu={target} -show-encoding):",
        "# every opcode value of each format was disassembled with probe registers in the other fields.",
        "# Rows: [FORMAT] sections; 'opcode<TAB>mnemonic<TAB>operand template<TAB>fields LLVM wants 0'.",
        "# Opcodes LLVM rejects with every probe are absent.",
        "# Template fields: {FIELD:file:count} = the named field's register(s); other text is printed verbatim.",
    ]
    for name, rows in tables.items():
        lines.append(f"[{name}]")
        lines.extend(f"{op}\t{mn}\t{tmpl}\t{zero}" for op, (mn, tmpl, zero) in rows.items())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read(path: Path) -> dict[str, dict[int, tuple[str, str, str]]]:
    """A table file written by :func:`write` (isalens' own reader, so both read one format)."""
    from isalens.isa.amdgcn.decoder.tables import parse_table

    return parse_table(path.read_text("utf-8"))


def wave64_delta(wave64: dict[str, dict[int, tuple[str, str, str]]],
                 wave32: dict[str, dict[int, tuple[str, str, str]]]) -> dict[str, dict[int, tuple[str, str, str]]]:
    """The rows of the wave64 table that differ from the wave32 one; a row wave64 lacks is written as mnemonic
    ``-`` (the decoder drops it)."""
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    for name in sorted(set(wave64) | set(wave32)):
        new, old = wave64.get(name, {}), wave32.get(name, {})
        rows = {op: row for op, row in new.items() if old.get(op) != row}
        rows.update({op: ("-", "", "") for op in old if op not in new})
        if rows:
            out[name] = dict(sorted(rows.items()))
    return out


def _merged(old: dict[str, dict[int, tuple[str, str, str]]], fresh: dict[str, dict[int, tuple[str, str, str]]],
            made: list[str]) -> dict[str, dict[int, tuple[str, str, str]]]:
    """``old``'s sections with those in ``made`` replaced by ``fresh``'s (absent there: dropped), old sections in
    their order, a new one after the fresh one made before it."""
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    order = [k for k in made if k in fresh]
    for name in old:
        if name not in made:
            out[name] = old[name]
        elif name in fresh:
            while name not in out:
                k = order.pop(0)
                out[k] = fresh[k]
    for k in order:
        out[k] = fresh[k]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES),
                    help="families to generate (default: every family whose table the decoder reads; the ROCm "
                         "LLVM ones only when rocm-llvm-python is installed)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "src" / "isalens" / "isa"
                    / "amdgcn" / "data")
    ap.add_argument("--llvm-mc", default="llvm-mc-19")
    ap.add_argument("--only", action="append", metavar="FORMAT",
                    help="probe only these formats (and the sections made with them, e.g. VOP1 -> SDWA_VOP1, "
                         "DPP_VOP1) and replace just those sections of the existing files")
    args = ap.parse_args(argv)
    families = args.family or [f for f in sorted(FAMILIES)
                               if f not in ROCM_FAMILIES or (args.out / f"opcodes_{f}.txt").is_file()]
    if not args.family and _rocm_llvm().library() is None:
        # the default run regenerates LLVM 19's tables without the optional package, and says what it left
        skipped = [f for f in families if f in ROCM_FAMILIES]
        if skipped:
            print(f"skipping {', '.join(skipped)}: rocm-llvm-python is not installed "
                  "(pip install '.[rocm-oracle]')", file=sys.stderr)
        families = [f for f in families if f not in ROCM_FAMILIES]
    label = ""
    if any(f not in ROCM_FAMILIES for f in families):
        try:
            version = subprocess.run([args.llvm_mc, "--version"], capture_output=True, text=True,
                                     check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            print(f"{args.llvm_mc} not found", file=sys.stderr)
            return 2
        ver = re.search(r"LLVM version (\S+)", version)
        label = f"LLVM {ver.group(1) if ver else '?'}"
    if any(f in ROCM_FAMILIES for f in families) and _rocm_llvm().library() is None:
        print("rocm-llvm-python is not installed (pip install '.[rocm-oracle]')", file=sys.stderr)
        return 2
    for family in families:
        target, layout = FAMILIES[family]
        llvm_mc, made_with = (ROCM, "ROCm LLVM (rocm-llvm-python)") if family in ROCM_FAMILIES \
            else (args.llvm_mc, label)
        only = frozenset(args.only) if args.only else None
        tables = table(llvm_mc, target, layout, only)
        made = list(tables)  # in the order table() makes them
        if family.endswith("_w64"):
            wave32 = read(args.out / f"opcodes_{family.removesuffix('_w64')}.txt")
            tables = wave64_delta(tables, {k: v for k, v in wave32.items() if only is None or k in made})
        if only is not None:  # keep the other sections of the existing file
            tables = _merged(read(args.out / f"opcodes_{family}.txt"), tables, made)
        write(args.out / f"opcodes_{family}.txt", family, target, llvm_mc, made_with, tables)
        print(family, {k: len(v) for k, v in tables.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
