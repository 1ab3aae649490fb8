#!/usr/bin/env python3
"""Generate the gfx6/gfx7 (SI/CI) opcode tables (``src/isalens/isa/amdgcn/data/opcodes_gfx6.txt``, ``_gfx7``)
from LLVM's *assembler*: LLVM 19 has no gfx6/gfx7 disassembler (docs/decoder.md, "gfx6/gfx7"), so the probing
of :mod:`gen_opcode_tables` (every opcode value through the disassembler) cannot run for them.

Instead every mnemonic of ``mnemonics_gfx6.txt`` / ``mnemonics_gfx7.txt`` is written with an operand template
(the gfx8 table's rows for that mnemonic, or those of a named gfx8 sibling for the SI/CI-only names:
``v_cmps_eq_f32`` is written as ``v_cmp_eq_f32`` is), filled with distinct probe registers, and all probes go to
one ``llvm-mc-19 -triple amdgcn -mcpu=gfx600 -show-encoding`` run. Each accepted line gives the opcode number and
format (our gfx6 field decoder on its encoding) and the row: LLVM's printed mnemonic and operand text with the
probe registers replaced by their fields. A row is kept only when the decoded fields hold the probe registers
and the fields not named are 0. Mnemonics LLVM rejects with every template are listed in the file's header, not
guessed.

Usage: ``tools/gen_opcode_tables_si.py [--family gfx6 gfx7] [--out DIR] [--llvm-mc llvm-mc-19]``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from gen_opcode_tables import read, template  # noqa: E402

from isalens.isa.amdgcn.decoder.operands import _Unsupported, _value  # noqa: E402
from isalens.isa.amdgcn.fields import Decoded, DecodeError, decode  # noqa: E402

#: family -> (LLVM target, generation for the field decoder)
FAMILIES = {"gfx6": ("gfx600", 6), "gfx7": ("gfx700", 7)}
DATA = ROOT / "src" / "isalens" / "isa" / "amdgcn" / "data"

# probe register of each field (multiples of 4, so every register range up to 16 wide is aligned; s104+ does
# not exist on gfx6, so the scalar ones stay below s64)
PROBE = {"VDST": 8, "SRC0": 16, "VSRC1": 24, "SRC1": 24, "SRC2": 32, "SDST": 40, "SSRC0": 16, "SSRC1": 24,
         "SBASE": 48, "SRSRC": 52, "VDATA": 8, "VADDR": 16, "ADDR": 16, "DATA0": 24, "DATA1": 32, "DATA": 24}
LITERAL = 0x11223344
#: the gfx8 sections whose rows are probed (SMEM's become SMRD), and the formats they may land in
SECTIONS = ("SOP2", "SOP1", "SOPC", "SOPK", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "DS", "FLAT",
            "FLAT_GLC", "MUBUF", "MUBUF_GLC", "MTBUF")
#: register fields of each format that a row not naming them must leave 0 (what the decoder then checks)
FORMAT_FIELDS = {"SOP1": ("SDST", "SSRC0"), "SOP2": ("SDST", "SSRC0", "SSRC1"), "SOPC": ("SSRC0", "SSRC1"),
                 "SOPK": ("SDST",), "SMRD": ("SDST", "SBASE"), "VOP1": ("VDST", "SRC0"),
                 "VOP2": ("VDST", "SRC0", "VSRC1"), "VOPC": ("SRC0", "VSRC1"), "VOP3": ("SRC0", "SRC1", "SRC2"),
                 "DS": ("ADDR", "DATA0", "DATA1", "VDST"), "FLAT": ("ADDR", "DATA", "VDST"),
                 "MUBUF": ("VDATA",), "MTBUF": ("VDATA",)}
_NINE_BIT = frozenset({"SRC0", "SRC1", "SRC2"})

#: SI/CI-only mnemonics -> the gfx8 mnemonic whose templates they are written with (LLVM then prints them)
SIBLING_SUBS = ((re.compile(r"^v_cmps(x?)_"), r"v_cmp\1_"),
                (re.compile(r"^v_(add|sub|subrev)_(i32|co_u32)$"), r"v_\1_u32"),
                (re.compile(r"^v_(lshl|lshr)_b(32|64)$"), r"v_\1rev_b\2"),
                (re.compile(r"^v_ashr_i(32|64)$"), r"v_ashrrev_i\1"),
                (re.compile(r"^v_(mac|max|min)_legacy_f32$"), "v_mul_legacy_f32"),
                (re.compile(r"^v_mul_lo_i32$"), "v_mul_lo_u32"), (re.compile(r"^v_mullit_f32$"), "v_mad_legacy_f32"),
                (re.compile(r"^v_(log|rcp|rsq)_(clamp|legacy)_f32$"), "v_log_f32"),
                (re.compile(r"^v_(rcp|rsq)_clamp_f64$"), "v_rcp_f64"),
                (re.compile(r"^(buffer|flat)_atomic_fcmpswap(_x2)?$"), r"\1_atomic_cmpswap\2"),
                (re.compile(r"^(buffer|flat)_atomic_f(max|min)(_x2)?$"), r"\1_atomic_s\2\3"),
                (re.compile(r"^buffer_wbinvl1_sc$"), "buffer_wbinvl1"))
#: SI/CI-only mnemonics without a gfx8 sibling: (section, template) written by hand, LLVM then checks them
OWN = {"s_memtime": ("SMEM", "{SDST:s:2}"), "s_dcache_inv": ("SMEM", ""), "s_dcache_inv_vol": ("SMEM", ""),
       # SI/CI's ds_gws_* with a data register take it in ADDR (llvm-mc-19: ``ds_gws_init v1 gds`` sets bits 39:32)
       "ds_gws_init": ("DS", "{ADDR:v:1} offset:513 gds"), "ds_gws_sema_br": ("DS", "{ADDR:v:1} offset:513 gds"),
       "ds_gws_barrier": ("DS", "{ADDR:v:1} offset:513 gds"), "ds_gws_sema_v": ("DS", "offset:513 gds"),
       "ds_gws_sema_p": ("DS", "offset:513 gds"), "ds_gws_sema_release_all": ("DS", "offset:513 gds"),
       "ds_ordered_count": ("DS", "{VDST:v:1}, {ADDR:v:1} offset:513 gds"),
       # SI/CI's 64-bit shifts take the shifted value first (gfx8's *rev forms the amount), lanes ops are VOP2
       "v_lshl_b64": ("VOP3", "{VDST:v:2}, {SRC0:v:2}, {SRC1:v:1}"),
       "v_lshr_b64": ("VOP3", "{VDST:v:2}, {SRC0:v:2}, {SRC1:v:1}"),
       "v_ashr_i64": ("VOP3", "{VDST:v:2}, {SRC0:v:2}, {SRC1:v:1}"),
       "v_readlane_b32": ("VOP2", "{VDST:s:1}, {SRC0:v:1}, {VSRC1:s:1}"),
       # the lane select is VSRC1 (an SGPR or constant); two SGPRs break the constant-bus rule: probed with 5
       "v_writelane_b32": ("VOP2", "{VDST:v:1}, {SRC0:s:1}, 5")}
#: OWN templates' constant probes: the text written -> the field that holds it and that field's code
CONSTANT_PROBES = {"5": ("VSRC1", 128 + 5, "{VSRC1:s:1}")}
#: formats this table does not cover (MIMG, VINTRP; docs/decoder.md): their mnemonics are listed, not probed (EXP's
#: exp is, by :func:`_exports`)
NOT_PROBED = re.compile(r"^(image_|exp$|v_interp_)")
#: probed by :func:`_extras` instead (its own sections, EXP and EXP_FLAGS)
OWN_SECTIONS = frozenset({"exp"})

_PLACE = re.compile(r"\{(\w+)(?::([vsa]):(\d+))?\}")
_LINE = re.compile(r"^\s+(\S+)(?:\s+(.*?))?\s*; encoding: \[([^\]]*)\]")
_ERR = re.compile(r"^<stdin>:(\d+):\d+: error:")
_SUFFIX = re.compile(r"_(e32|e64|sdwa|dpp)$")


def _base(mnemonic: str) -> str:
    return _SUFFIX.sub("", mnemonic)


def _fill(tmpl: str) -> tuple[str, dict[tuple[str, int], str]]:
    regs: dict[tuple[str, int], str] = {}

    def sub(m: re.Match[str]) -> str:
        name, file, count = m.group(1), m.group(2), int(m.group(3) or 1)
        if name == "LITERAL":
            return f"{LITERAL:#x}"
        first = PROBE[name]
        regs[(file, first)] = name
        return f"{file}{first}" if count == 1 else f"{file}[{first}:{first + count - 1}]"

    return _PLACE.sub(sub, tmpl), regs


def candidates(mnemonic: str, gfx8: dict[str, dict[int, tuple[str, str, str]]]) -> Iterator[tuple[str, str, str]]:
    """(section, mnemonic to write, template) to probe for one base mnemonic."""
    if mnemonic in OWN:
        section, tmpl = OWN[mnemonic]
        yield section, mnemonic, tmpl
        return
    sibling = mnemonic
    for pattern, repl in SIBLING_SUBS:
        if pattern.search(mnemonic):
            sibling = pattern.sub(repl, mnemonic)
            break
    for section in SECTIONS:
        for mn, tmpl, _zero in gfx8.get(section, {}).values():
            if _base(mn) != sibling:
                continue
            name = mnemonic + mn[len(sibling):]
            if section == "SMEM":
                tmpl = tmpl.replace("{SDATA:", "{SDST:")
            if section.endswith("_GLC"):
                yield section, name, tmpl
                continue
            yield section, name, tmpl
            if section == "VOP3" and not name.endswith("_e64"):  # gfx8's VOP3-only opcode, a VOP2 one on SI
                yield section, name + "_e64", tmpl
                yield "VOP2", name + "_e32", tmpl.replace("{SRC1:", "{VSRC1:")
    if mnemonic.startswith("s_") and not any(mnemonic == _base(mn) for rows in gfx8.values()
                                             for mn, _t, _z in rows.values()):
        yield "SOPP", mnemonic, ""


def _assemble(llvm_mc: str, target: str, lines: list[str]) -> list[tuple[str, str, tuple[int, ...]] | None]:
    """Each line's (mnemonic, operands, dwords) as LLVM prints and encodes it, None where it is rejected."""
    proc = subprocess.run([llvm_mc, "-triple=amdgcn", f"-mcpu={target}", "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    rejected = {int(m.group(1)) - 1 for line in proc.stderr.splitlines() if (m := _ERR.match(line))}
    printed = [m for line in proc.stdout.splitlines() if (m := _LINE.match(line))]
    out: list[tuple[str, str, tuple[int, ...]] | None] = []
    it = iter(printed)
    for i in range(len(lines)):
        if i in rejected:
            out.append(None)
            continue
        m = next(it)
        data = bytes(int(b, 16) for b in m.group(3).split(","))
        out.append((m.group(1), m.group(2) or "", tuple(int.from_bytes(data[j:j + 4], "little")
                                                        for j in range(0, len(data), 4))))
    if next(it, None) is not None:
        raise SystemExit("llvm-mc printed more instructions than were probed")
    return out


def _checked(d: Decoded, tmpl: str, fmt: str, constants: frozenset[str] = frozenset()) -> str | None:
    """The zero-field column for a row, or None when a decoded field disagrees with the probe."""
    named = set()
    for m in _PLACE.finditer(tmpl):
        name, file = m.group(1), m.group(2)
        if name == "LITERAL":
            if d.get("LITERAL") is None and len(d.words) < 2:
                return None
            continue
        named.add(name)
        if name in constants:  # checked where it was substituted
            continue
        want = PROBE[name] + (256 if file == "v" and name in _NINE_BIT else 0)
        try:
            if _value(d, name) != want:
                return None
        except (KeyError, _Unsupported):  # a field the format does not have
            return None
    zero = [f for f in FORMAT_FIELDS.get(fmt, ()) if f not in named]
    if fmt == "SMRD" and not tmpl.endswith("0x0"):
        zero += ["OFFSET", "IMM"]
    if fmt == "SOPK" and not any(p in tmpl for p in ("0x8234", "33332", "hwreg(")):
        zero.append("SIMM16")
    if fmt == "SOPP" and tmpl == "":
        zero.append("SIMM16")
    for f in zero:
        if d.get(f) is None or d.value(f):
            return None
    return ",".join(sorted(zero))


def table(llvm_mc: str, family: str) -> tuple[dict[str, dict[int, tuple[str, str, str]]], list[str], list[str]]:
    """(sections, mnemonics LLVM rejected with every template, mnemonics of formats not probed)."""
    target, generation = FAMILIES[family]
    gfx8 = read(DATA / "opcodes_gfx8.txt")
    names = [line.strip() for line in (DATA / f"mnemonics_{family}.txt").read_text("utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    probes: list[tuple[str, str, str, dict[tuple[str, int], str]]] = []  # (base, section, text, regs)
    skipped = []
    for name in names:
        if NOT_PROBED.match(name):
            if name not in OWN_SECTIONS:
                skipped.append(name)
            continue
        for section, mn, tmpl in candidates(name, gfx8):
            text, regs = _fill(tmpl)
            probes.append((name, section, f"{mn} {text}".rstrip(), regs))
    results = _assemble(llvm_mc, target, [p[2] for p in probes])
    tables: dict[str, dict[int, tuple[str, str, str]]] = {}
    accepted: set[str] = set()
    conflicts: list[str] = []
    for (name, section, _text, regs), got in zip(probes, results, strict=True):
        if got is None:
            continue
        mnemonic, operands, words = got
        try:
            d = decode(words, generation, "gfx6")
        except DecodeError:
            continue
        tmpl = template(operands.replace(f"{LITERAL:#x}", "{LITERAL}"), regs)
        if tmpl is None:
            continue
        constants = set()
        for text, (field, code, placeholder) in CONSTANT_PROBES.items():
            if name in OWN and tmpl.endswith(", " + text) and d.get(field) is not None and d.value(field) == code:
                tmpl = tmpl.removesuffix(text) + placeholder
                constants.add(field)
        zero = _checked(d, tmpl, d.format, frozenset(constants))
        if zero is None:
            continue
        accepted.add(name)
        out = d.format + ("_GLC" if section.endswith("_GLC") else "")
        row = tables.setdefault(out, {}).setdefault(d.value("OP"), (mnemonic, tmpl, zero))
        if row != (mnemonic, tmpl, zero):  # an alias (v_add_co_u32 prints v_add_i32) gives the same row
            conflicts.append(f"{out} {d.value('OP')}: {row[0]} {row[1]} / {mnemonic} {tmpl}")
    if conflicts:
        print(f"{family}: {len(conflicts)} probes gave another row for an opcode already seen (first kept):",
              *conflicts[:20], sep="\n  ")
    _extras(llvm_mc, target, generation, tables, gfx8.get("MTBUF_FMT", {}))
    _exports(llvm_mc, target, generation, tables, gfx8.get("EXP", {}))
    rejected = [n for n in names if n not in accepted and n not in skipped and n not in OWN_SECTIONS]
    order = ("SOP2", "SOP1", "SOPC", "SOPK", "HWREG", "SOPP", "SENDMSG", "SOPP0", "SOPPFFFF", "SMRD", "VOP2", "VOP1",
             "VOPC", "VOP3", "DS", "FLAT", "FLAT_GLC", "MUBUF", "MUBUF_GLC", "MTBUF", "MTBUF_FMT", "EXP", "EXP_FLAGS")
    return ({k: dict(sorted(tables[k].items())) for k in order if k in tables}, rejected, skipped)


def _extras(llvm_mc: str, target: str, generation: int, tables: dict[str, dict[int, tuple[str, str, str]]],
            formats: dict[int, tuple[str, str, str]]) -> None:
    """The immediate-operand sections the decoder reads: HWREG (each register id), SENDMSG (each message code),
    SOPP0/SOPPFFFF (each SOPP opcode with the immediate 0 / 0xffff), MTBUF_FMT (each DFMT | NFMT << 4 that gfx8's
    table names, written as gfx8 prints it; kept when our fields read that format back from the encoding)."""
    sopp = sorted(tables.get("SOPP", {}).items())
    lines = [f"s_getreg_b32 s40, hwreg({i}, 0, 32)" for i in range(64)]
    lines += [f"s_sendmsg {i}" for i in range(1024)]
    lines += [f"{mn} {imm}" for _op, (mn, _t, _z) in sopp for imm in ("0", "0xffff")]
    fmts = sorted(formats.items())
    head = "tbuffer_load_format_x v8, off, s[52:55], 0"
    lines += [f"{head} {text}".rstrip() for _fmt, (_f, text, _z) in fmts]
    got = _assemble(llvm_mc, target, lines)
    for (fmt, _row), r in zip(fmts, got[len(got) - len(fmts):], strict=True):
        if r is None or "tbuffer" not in r[0]:
            continue
        d = decode(r[2], generation, "gfx6")
        text = f"{r[0]} {r[1]}"
        if d.format == "MTBUF" and d.value("DFMT") | d.value("NFMT") << 4 == fmt and text.startswith(head):
            tables.setdefault("MTBUF_FMT", {})[fmt] = ("format", text.removeprefix(head).strip(), "")
    got = got[:len(got) - len(fmts)]
    for i, r in enumerate(got[:64]):
        if r is not None:
            tables.setdefault("HWREG", {})[i] = (r[0], r[1].removeprefix("s40, "), "")
    for i, r in enumerate(got[64:64 + 1024]):
        if r is not None and r[2][0] & 0xFFFF == i:
            tables.setdefault("SENDMSG", {})[i] = (r[0], r[1], "")
    for k, r in enumerate(got[64 + 1024:]):
        op, (mn, _t, _z) = sopp[k // 2]
        imm = (0, 0xFFFF)[k % 2]
        if r is not None and r[0] == mn and r[2][0] == 0xBF800000 | op << 16 | imm:
            tables.setdefault(("SOPP0", "SOPPFFFF")[k % 2], {})[op] = (r[0], r[1], "")
    del generation


_EXP_SOURCES = "v8, v16, v24, v32"
#: EXP_FLAGS: word 0 bit -> the word written for it (SI/CI ISA guides, EXP: COMPR 10, DONE 11, VM 12); with
#: compr the sources are written v8, v8, v16, v16 (two halves per register), as LLVM prints them
_EXP_FLAGS = {10: "compr", 11: "done", 12: "vm"}


def _exports(llvm_mc: str, target: str, generation: int, tables: dict[str, dict[int, tuple[str, str, str]]],
             names: dict[int, tuple[str, str, str]]) -> None:
    """EXP (graphics; not in the compiled examples): each target name gfx8's table has, written
    ``exp NAME v8, v16, v24, v32``, kept when our fields read its number and sources back; EXP_FLAGS as in
    tools/gen_opcode_tables.py (each flag bit alone, row 99 the order LLVM prints all of them in)."""
    lines = [f"exp {name} {_EXP_SOURCES}" for _tgt, (_mn, name, _z) in sorted(names.items())]
    for tgt, r in zip(sorted(names), _assemble(llvm_mc, target, lines), strict=True):
        if r is None or r[0] != "exp" or not r[1].endswith(" " + _EXP_SOURCES):
            continue
        d = decode(r[2], generation, "gfx6")
        if d.format == "EXP" and d.value("TGT") == tgt and [d.value(f"VSRC{i}") for i in range(4)] == [8, 16, 24, 32]:
            tables.setdefault("EXP", {})[tgt] = ("exp", r[1].removesuffix(" " + _EXP_SOURCES), "")
    flags = {}
    probes = [(bit, f"exp mrt0 {'v8, v8, v16, v16' if word == 'compr' else _EXP_SOURCES} {word}")
              for bit, word in _EXP_FLAGS.items()]
    # LLVM's order (the assembler takes no other): as it prints them
    probes.append((99, "exp mrt0 v8, v8, v16, v16 done compr vm"))
    for (bit, _text), r in zip(probes, _assemble(llvm_mc, target, [t for _b, t in probes]), strict=True):
        if r is None:
            continue
        d = decode(r[2], generation, "gfx6")
        want = sum(1 << b for b in _EXP_FLAGS) if bit == 99 else 1 << bit
        if d.format == "EXP" and d.words[0] >> 10 & 0xF == want >> 10:
            flags[bit] = ("exp", " ".join(r[1].split()[5:]) if bit == 99 else r[1].split()[-1], "")
    if flags:
        tables["EXP_FLAGS"] = dict(sorted(flags.items()))


def write(path: Path, family: str, llvm_mc: str, version: str, tables: dict[str, dict[int, tuple[str, str, str]]],
          rejected: list[str], skipped: list[str]) -> None:
    target = FAMILIES[family][0]
    lines = [
        f"# AMDGPU opcode table for the {family} family, generated by tools/gen_opcode_tables_si.py",
        f"# with {version} ({llvm_mc} -triple=amdgcn -mcpu={target} -show-encoding): LLVM 19 has no gfx6/gfx7",
        f"# disassembler, so each mnemonic of mnemonics_{family}.txt was *assembled* with the gfx8 table's operand",
        "# templates (or a gfx8 sibling's, or the generator's own) and probe registers; the opcode number and",
        "# format are our gfx6 field decoder's reading of LLVM's encoding, the template LLVM's printed operands.",
        "# Rows: [FORMAT] sections; 'opcode<TAB>mnemonic<TAB>operand template<TAB>fields left 0'.",
        "# Template fields: {FIELD:file:count} = the named field's register(s); other text is printed verbatim.",
        f"# Not probed (MIMG, VINTRP: not decoded for gfx6/gfx7): {len(skipped)} mnemonics; exp in EXP/EXP_FLAGS.",
        f"# Rejected by LLVM with every template tried, or decoded fields not the probe's: {len(rejected)}:",
    ]
    line = "#  "
    for name in rejected:
        if len(line) + len(name) > 116:
            lines.append(line)
            line = "#  "
        line += " " + name
    if rejected:
        lines.append(line)
    for name, rows in tables.items():
        lines.append(f"[{name}]")
        lines.extend(f"{op}\t{mn}\t{tmpl}\t{zero}" for op, (mn, tmpl, zero) in rows.items())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument("--llvm-mc", default="llvm-mc-19")
    args = ap.parse_args(argv)
    version_text = subprocess.run([args.llvm_mc, "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"LLVM version (\S+)", version_text)
    version = f"LLVM {m.group(1)}" if m else "LLVM (unknown version)"
    for family in args.family:
        tables, rejected, skipped = table(args.llvm_mc, family)
        write(args.out / f"opcodes_{family}.txt", family, args.llvm_mc, version, tables, rejected, skipped)
        print(f"{family}: {sum(len(r) for r in tables.values())} rows, {len(rejected)} mnemonics rejected, "
              f"{len(skipped)} not probed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
