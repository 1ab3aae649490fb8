"""Our field decoder against LLVM's assembler: generated SDWA, DPP, VOP3P and DS instructions (>= 2,000 of
each per family gfx9, gfx10, gfx11; SDWA does not exist on gfx11) are assembled by llvm-mc-19 in one call per
family and kind; decoding the bytes must give back every field value the source text names (round trip).

The expected values are written from the *text* we generate (register numbers, selects, masks, offsets),
never from our decoder's output. Also: for every instruction of the compiled corpus, the format and length
our decoder finds in llvm-mc's bytes agree with what the text-based size rules say.
"""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

import isalens
from isalens.arch.loader import get_arch
from isalens.isa.amdgcn.encoding import generation_of, text_size
from isalens.isa.amdgcn.fields import Decoded, decode
from tests.conftest import require_tool
from tests.oracle.corpus import CorpusEntry

pytestmark = pytest.mark.oracle

SWEEP = 2500
CPUS = {"gfx9": "gfx900", "gfx10": "gfx1030", "gfx11": "gfx1100"}
_ENCODING = re.compile(r"; encoding: \[([^\]]*)\]")


def assemble(mc: str, cpu: str, lines: list[str], extra: tuple[str, ...] = ()) -> list[tuple[int, ...]]:
    """Encoding dwords of each line, from one llvm-mc call; any assembler error fails the test."""
    proc = subprocess.run([mc, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding", *extra],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, check=False)
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert not errors, "\n".join(proc.stderr.splitlines()[:12])
    out = []
    for m in _ENCODING.finditer(proc.stdout):
        data = bytes(int(b, 16) for b in m.group(1).split(","))
        out.append(tuple(int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)))
    assert len(out) == len(lines), (len(out), len(lines))
    return out


Expected = dict[str, int | str]


@dataclass
class Case:
    text: str
    expect: Expected


def _decode(ws: tuple[int, ...], target: str) -> Decoded:
    spec = get_arch(target)
    return decode(ws, spec.generation, spec.encoding_layout)


def _check(cases: list[Case], words: list[tuple[int, ...]], target: str, fmt: str | tuple[str, ...]) -> None:
    formats = (fmt,) if isinstance(fmt, str) else fmt
    failures = []
    for case, ws in zip(cases, words, strict=True):
        d: Decoded = _decode(ws, target)
        problems = []
        if d.format not in formats:
            problems.append(f"format {d.format}")
        if d.words != ws:
            problems.append(f"length {len(d.words)} dwords, llvm-mc {len(ws)}")
        for name, want in case.expect.items():
            got = d.get(name)
            have = None if got is None else (got.meaning if isinstance(want, str) else got.value)
            if have != want:
                problems.append(f"{name}: ours {have!r}, text {want!r}")
        if problems:
            failures.append(f"{case.text}: {'; '.join(problems)}")
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])


def _vgpr(rng: random.Random, width: int = 1) -> int:
    return rng.randrange(0, 256 - width + 1)


def _reg(n: int, width: int = 1) -> str:
    return f"v{n}" if width == 1 else f"v[{n}:{n + width - 1}]"


# ---------------------------------------------------------------------------------------------- SDWA
_SELS = ["BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"]
_UNUSED = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"]


def _sdwa_cases(rng: random.Random, family: str) -> list[Case]:
    vop2_float = ["v_add_f16", "v_mul_f16", "v_sub_f16", "v_max_f16", "v_add_f32", "v_mul_f32", "v_min_f32"]
    vop2_int = ["v_and_b32", "v_or_b32", "v_xor_b32", "v_max_i32", "v_min_u32"]
    vop1 = [("v_mov_b32", False), ("v_cvt_f32_f16", True), ("v_exp_f16", True), ("v_not_b32", False)]
    vopc = [("v_cmp_eq_f16", True), ("v_cmp_lt_f32", True), ("v_cmp_eq_u32", False), ("v_cmp_gt_i16", False)]
    cases = []
    for _ in range(SWEEP):
        kind = rng.choice(("vop2", "vop2", "vop1", "vopc"))
        if kind == "vop2":
            is_float = rng.random() < 0.6
            op = rng.choice(vop2_float if is_float else vop2_int)
        elif kind == "vop1":
            op, is_float = rng.choice(vop1)
        else:
            op, is_float = rng.choice(vopc)
        nsrc = 1 if kind == "vop1" else 2
        expect: Expected = {}
        srcs = []
        scalar_used = False
        for k in range(nsrc):
            # one source may be an SGPR (S0/S1 bit; the constant bus allows one)
            if not scalar_used and rng.random() < 0.2:
                scalar_used = True
                s = rng.randrange(0, 100)
                text, name = f"s{s}", f"s{s}"
                expect[f"S{k}"] = 1
            else:
                v = _vgpr(rng)
                text, name = f"v{v}", f"v{v}"
                expect[f"S{k}"] = 0
            neg = abs_ = sext = 0
            if is_float:
                neg, abs_ = rng.random() < 0.3, rng.random() < 0.3
                text = f"|{text}|" if abs_ else text
                text = f"-{text}" if neg else text
            elif rng.random() < 0.3:
                sext = 1
                text = f"sext({text})"
            expect[f"SRC{k}"] = name
            expect[f"SRC{k}_NEG"], expect[f"SRC{k}_ABS"], expect[f"SRC{k}_SEXT"] = int(neg), int(abs_), sext
            srcs.append(text)
        # LLVM wants the modifiers in its order: clamp, omod, dst_sel, dst_unused, src0_sel, src1_sel
        mods = []
        if kind == "vopc":
            if rng.random() < 0.5:
                dst = "vcc" if family == "gfx9" else "vcc_lo"
                expect["SD"] = 0
            else:
                s = rng.randrange(0, 50) * 2
                dst = f"s[{s}:{s + 1}]" if family == "gfx9" else f"s{s}"
                expect["SD"], expect["SDST"] = 1, f"s{s}"
        else:
            d = _vgpr(rng)
            dst = f"v{d}"
            expect["VDST"] = d
            if is_float and rng.random() < 0.3:
                mods.append("clamp")
                expect["CLAMP"] = 1
            else:
                expect["CLAMP"] = 0
            if family == "gfx9" and op.endswith("f32") and kind == "vop2" and rng.random() < 0.3:
                omod = rng.choice(["mul:2", "mul:4", "div:2"])
                mods.append(omod)
                expect["OMOD"] = omod
            dsel, unused = rng.randrange(7), rng.randrange(3)
            mods += [f"dst_sel:{_SELS[dsel]}", f"dst_unused:{_UNUSED[unused]}"]
            expect["DST_SEL"], expect["DST_UNUSED"] = _SELS[dsel], _UNUSED[unused]
        for k in range(nsrc):
            sel = rng.randrange(7)
            mods.append(f"src{k}_sel:{_SELS[sel]}")
            expect[f"SRC{k}_SEL"] = _SELS[sel]
        cases.append(Case(f"{op}_sdwa {dst}, {', '.join(srcs)} {' '.join(mods)}", expect))
    return cases


# ---------------------------------------------------------------------------------------------- DPP


def _dpp_control(rng: random.Random, family: str) -> str:
    choice = rng.random()
    if choice < 0.4:
        return "quad_perm:[" + ",".join(str(rng.randrange(4)) for _ in range(4)) + "]"
    if choice < 0.75:
        return f"{rng.choice(['row_shl', 'row_shr', 'row_ror'])}:{rng.randrange(1, 16)}"
    if family == "gfx9":
        return rng.choice(["wave_shl:1", "wave_rol:1", "wave_shr:1", "wave_ror:1", "row_mirror", "row_half_mirror",
                           "row_bcast:15", "row_bcast:31"])
    if choice < 0.85:
        return rng.choice(["row_mirror", "row_half_mirror"])
    return f"{rng.choice(['row_share', 'row_xmask'])}:{rng.randrange(16)}"


def _dpp_cases(rng: random.Random, family: str) -> list[Case]:
    add_u32 = "v_add_u32" if family == "gfx9" else "v_add_nc_u32"
    vop2 = [("v_add_f32", True), ("v_mul_f32", True), ("v_max_f32", True), ("v_and_b32", False),
            ("v_or_b32", False), (add_u32, False)]
    vop1 = [("v_mov_b32", False), ("v_rcp_f32", True), ("v_not_b32", False), ("v_cvt_f32_i32", False)]
    vop3 = [("v_fma_f32", True, 3), ("v_add3_u32", False, 3), ("v_lshl_add_u32", False, 3)]
    cases = []
    for _ in range(SWEEP):
        r = rng.random()
        expect: Expected = {}
        if family == "gfx11" and r < 0.25:
            op, is_float, nsrc = rng.choice(vop3)
            suffix, vop3_form = "_e64_dpp", True
        elif r < 0.7:
            (op, is_float), nsrc, suffix, vop3_form = rng.choice(vop2), 2, "_dpp", False
        else:
            (op, is_float), nsrc, suffix, vop3_form = rng.choice(vop1), 1, "_dpp", False
        d = _vgpr(rng)
        expect["VDST"] = f"v{d}"
        use_dpp8 = family != "gfx9" and rng.random() < 0.25
        srcs = []
        negs, abss = [], []
        for k in range(nsrc):
            v = _vgpr(rng)
            text = f"v{v}"
            neg = abs_ = 0
            # DPP8 on VOP1/VOP2 has no source modifiers (its dword has no room); VOP3 keeps its own
            if is_float and k < 2 and (vop3_form or not use_dpp8):
                neg, abs_ = int(rng.random() < 0.3), int(rng.random() < 0.3)
                text = f"|{text}|" if abs_ else text
                text = f"-{text}" if neg else text
            negs.append(neg)
            abss.append(abs_)
            srcs.append(text)
            if k == 0:
                expect["SRC0"] = f"v{v}"
            elif vop3_form:
                expect[f"SRC{k}"] = f"v{v}"
            else:
                expect["VSRC1"] = f"v{v}"
        if vop3_form:
            # VOP3 keeps its own NEG/ABS fields; the DPP dword's are unused
            expect["NEG"] = "[" + ",".join(str(x) for x in [*negs, 0, 0, 0][:3]) + "]"
            expect["ABS"] = "[" + ",".join(str(x) for x in [*abss, 0, 0, 0][:3]) + "]"
        else:
            for k in range(nsrc if not use_dpp8 else 0):
                expect[f"SRC{k}_NEG"], expect[f"SRC{k}_ABS"] = negs[k], abss[k]
        mods = []
        if use_dpp8:
            sels = [rng.randrange(8) for _ in range(8)]
            dpp8 = "dpp8:[" + ",".join(str(x) for x in sels) + "]"
            mods.append(dpp8)
            expect["DPP8_SEL"] = dpp8
            fi = rng.random() < 0.5
            if fi:
                mods.append("fi:1")
            expect["SRC0_ENC"] = 234 if fi else 233
            fmt = "VOP3_DPP8" if vop3_form else "DPP8"
        else:
            ctrl = _dpp_control(rng, family)
            row, bank = rng.randrange(16), rng.randrange(16)
            mods += [ctrl, f"row_mask:{row:#x}", f"bank_mask:{bank:#x}"]
            expect["DPP_CTRL"], expect["ROW_MASK"], expect["BANK_MASK"] = ctrl, row, bank
            bound = rng.random() < 0.4
            if bound:
                mods.append("bound_ctrl:1")
            expect["BOUND_CTRL"] = int(bound)
            if family != "gfx9":
                fi = rng.random() < 0.3
                if fi:
                    mods.append("fi:1")
                expect["FI"] = int(fi)
            fmt = "VOP3_DPP" if vop3_form else "DPP"
        expect["_format"] = fmt
        cases.append(Case(f"{op}{suffix} v{d}, {', '.join(srcs)} {' '.join(mods)}", expect))
    return cases


# ---------------------------------------------------------------------------------------------- VOP3P


def _vop3p_cases(rng: random.Random, family: str) -> list[Case]:
    ops = [("v_pk_add_f16", True, 2), ("v_pk_mul_f16", True, 2), ("v_pk_max_f16", True, 2), ("v_pk_min_f16", True, 2),
           ("v_pk_fma_f16", True, 3), ("v_pk_add_u16", False, 2), ("v_pk_sub_i16", False, 2),
           ("v_pk_lshlrev_b16", False, 2), ("v_pk_max_i16", False, 2), ("v_pk_mad_u16", False, 3),
           ("v_pk_mul_lo_u16", False, 2)]
    inline = [("0", 128), ("1", 129), ("64", 192), ("-1", 193), ("-16", 208)]
    float_inline = [("0.5", 240), ("-1.0", 243), ("2.0", 244), ("4.0", 246)]
    cases = []
    for _ in range(SWEEP):
        op, is_float, nsrc = rng.choice(ops)
        d = _vgpr(rng)
        expect: Expected = {"VDST": f"v{d}"}
        srcs = []
        sgpr = None
        for k in range(nsrc):
            r = rng.random()
            if r < 0.15 and sgpr is None:
                sgpr = rng.randrange(0, 100)
                text, code = f"s{sgpr}", sgpr
            elif r < 0.25:
                text, code = rng.choice(inline + (float_inline if is_float else []))
            else:
                v = _vgpr(rng)
                text, code = f"v{v}", 256 + v
            srcs.append(text)
            expect[f"SRC{k}"] = code
        mods = []
        op_sel = [rng.randrange(2) for _ in range(nsrc)]
        op_sel_hi = [rng.randrange(2) for _ in range(nsrc)]
        mods.append("op_sel:[" + ",".join(map(str, op_sel)) + "]")
        mods.append("op_sel_hi:[" + ",".join(map(str, op_sel_hi)) + "]")
        expect["OP_SEL"] = "[" + ",".join(map(str, [*op_sel, 0, 0][:3])) + "]"
        expect["OP_SEL_HI"] = "[" + ",".join(map(str, op_sel_hi[:2])) + "]"
        if nsrc == 3:
            expect["OP_SEL_HI2"] = op_sel_hi[2]
        neg_lo = neg_hi = [0] * nsrc
        if is_float:
            neg_lo = [int(rng.random() < 0.3) for _ in range(nsrc)]
            neg_hi = [int(rng.random() < 0.3) for _ in range(nsrc)]
            mods.append("neg_lo:[" + ",".join(map(str, neg_lo)) + "]")
            mods.append("neg_hi:[" + ",".join(map(str, neg_hi)) + "]")
        expect["NEG"] = "[" + ",".join(map(str, [*neg_lo, 0, 0][:3])) + "]"
        expect["NEG_HI"] = "[" + ",".join(map(str, [*neg_hi, 0, 0][:3])) + "]"
        clamp = rng.random() < 0.3
        if clamp:
            mods.append("clamp")
        expect["CLAMP"] = int(clamp)
        cases.append(Case(f"{op} v{d}, {', '.join(srcs)} {' '.join(mods)}", expect))
    return cases


# ---------------------------------------------------------------------------------------------- DS


def _ds_cases(rng: random.Random, family: str) -> list[Case]:
    d16 = ["ds_read_u16_d16", "ds_read_u16_d16_hi", "ds_read_u8_d16", "ds_read_i8_d16_hi"]
    reads = [("ds_read_b32", 1), ("ds_read_b64", 2), ("ds_read_b128", 4), ("ds_read_u16", 1), ("ds_read_i8", 1)]
    reads += [(name, 1) for name in d16]
    read2 = [("ds_read2_b32", 2), ("ds_read2st64_b32", 2), ("ds_read2_b64", 4), ("ds_read2st64_b64", 4)]
    writes = [("ds_write_b32", 1), ("ds_write_b64", 2), ("ds_write_b16", 1), ("ds_write_b8", 1), ("ds_add_u32", 1),
              ("ds_max_i32", 1)]
    write2 = [("ds_write2_b32", 1), ("ds_write2st64_b32", 1), ("ds_write2_b64", 2), ("ds_write2st64_b64", 2)]
    rtn = [("ds_add_rtn_u32", 1), ("ds_max_rtn_i32", 1), ("ds_wrxchg_rtn_b32", 1), ("ds_or_rtn_b64", 2)]
    cases = []
    for _ in range(SWEEP):
        kind = rng.choice(("read", "read2", "write", "write2", "rtn"))
        addr = _vgpr(rng)
        expect: Expected = {"ADDR": f"v{addr}"}
        if kind in ("read2", "write2"):
            off0, off1 = rng.randrange(256), rng.randrange(256)
            offs = f"offset0:{off0} offset1:{off1}"
            expect["OFFSET0"], expect["OFFSET1"] = off0, off1
        else:
            off = rng.randrange(65536)
            offs = f"offset:{off}"
            # one 16-bit offset spans both offset fields: low byte OFFSET0, high byte OFFSET1
            expect["OFFSET0"], expect["OFFSET1"] = off & 0xFF, off >> 8
        if kind in ("read", "read2"):
            op, width = rng.choice(reads if kind == "read" else read2)
            dst = _vgpr(rng, width)
            text = f"{op} {_reg(dst, width)}, v{addr} {offs}"
            expect["VDST"] = f"v{dst}"
        elif kind in ("write", "write2"):
            op, width = rng.choice(writes if kind == "write" else write2)
            d0 = _vgpr(rng, width)
            expect["DATA0"] = f"v{d0}"
            datas = [_reg(d0, width)]
            if kind == "write2":
                d1 = _vgpr(rng, width)
                datas.append(_reg(d1, width))
                expect["DATA1"] = f"v{d1}"
            text = f"{op} v{addr}, {', '.join(datas)} {offs}"
        else:
            op, width = rng.choice(rtn)
            dst, d0 = _vgpr(rng, width), _vgpr(rng, width)
            text = f"{op} {_reg(dst, width)}, v{addr}, {_reg(d0, width)} {offs}"
            expect["VDST"], expect["DATA0"] = f"v{dst}", f"v{d0}"
        gds = kind in ("write", "rtn") and rng.random() < 0.2
        if gds:
            text += " gds"
        expect["GDS"] = int(gds)
        cases.append(Case(text, expect))
    return cases


# ---------------------------------------------------------------------------------------------- other formats


def _ssrc(rng: random.Random, allow_literal: bool = True) -> tuple[str, str, int | None]:
    """(text, expected field meaning, literal value or None) for a scalar source."""
    r = rng.random()
    if r < 0.6:
        n = rng.randrange(0, 100)
        return f"s{n}", f"s{n}", None
    if r < 0.8 or not allow_literal:
        n = rng.randrange(-16, 65)
        return str(n), str(n), None
    value = rng.randrange(0x1000, 0x7FFFFFFF)
    return f"{value:#x}", "literal", value


def _misc_cases(rng: random.Random, family: str) -> list[tuple[str, Case]]:
    """(format, case) pairs for SOP1/SOP2/SOPC/SOPK/SOPP, VOP1/VOP2/VOPC/VOP3, SMEM, MUBUF and FLAT."""
    vcc = "vcc" if family == "gfx9" else "vcc_lo"
    out: list[tuple[str, Case]] = []
    for _ in range(SWEEP // 5):
        d, a, b = rng.randrange(100), _vgpr(rng), _vgpr(rng)
        t0, m0, lit0 = _ssrc(rng)
        t1, m1, lit1 = _ssrc(rng, allow_literal=lit0 is None)
        lit = lit0 if lit0 is not None else lit1
        e: Expected = {"SDST": f"s{d}", "SSRC0": m0, "SSRC1": m1}
        if lit is not None:
            e["LITERAL"] = lit
        out.append(("SOP2", Case(f"s_add_u32 s{d}, {t0}, {t1}", e)))
        e = {"SDST": f"s{d}", "SSRC0": m0} | ({"LITERAL": lit0} if lit0 is not None else {})
        out.append(("SOP1", Case(f"s_mov_b32 s{d}, {t0}", e)))
        e = {"SSRC0": m0, "SSRC1": m1} | ({"LITERAL": lit} if lit is not None else {})
        out.append(("SOPC", Case(f"s_cmp_eq_u32 {t0}, {t1}", e)))
        imm = rng.randrange(65536)
        out.append(("SOPK", Case(f"s_movk_i32 s{d}, {imm:#x}", {"SDST": f"s{d}", "SIMM16": imm})))
        n = rng.randrange(16)
        out.append(("SOPP", Case(f"s_nop {n}", {"SIMM16": n})))
        # VALU: 32-bit forms with an arbitrary first source, VOP3 with modifiers
        src0, code0 = (f"v{a}", 256 + a) if rng.random() < 0.5 else (f"s{d}", d)
        out.append(("VOP1", Case(f"v_mov_b32_e32 v{b}, {src0}", {"VDST": b, "SRC0": code0})))
        out.append(("VOP2", Case(f"v_add_f32_e32 v{b}, {src0}, v{a}", {"VDST": b, "SRC0": code0, "VSRC1": a})))
        out.append(("VOPC", Case(f"v_cmp_eq_u32_e32 {vcc}, {src0}, v{a}", {"SRC0": code0, "VSRC1": a})))
        neg, abs_ = [rng.randrange(2) for _ in range(3)], [rng.randrange(2) for _ in range(3)]
        regs = [rng.randrange(256) for _ in range(3)]
        srcs = []
        for k in range(3):
            text = f"v{regs[k]}"
            text = f"|{text}|" if abs_[k] else text
            srcs.append(f"-{text}" if neg[k] else text)
        clamp = rng.randrange(2)
        omod = rng.choice(["", "mul:2", "mul:4", "div:2"])
        mods = " ".join(x for x in ("clamp" if clamp else "", omod) if x)
        e = {"VDST": f"v{b}", "NEG": "[" + ",".join(map(str, neg)) + "]", "ABS": "[" + ",".join(map(str, abs_)) + "]",
             "CLAMP": clamp, "OMOD": omod or "none"}
        e |= {f"SRC{k}": f"v{regs[k]}" for k in range(3)}
        out.append(("VOP3", Case(f"v_fma_f32 v{b}, {', '.join(srcs)} {mods}", e)))
        # scalar memory, buffer and global/scratch memory
        base, off = rng.randrange(0, 50), rng.randrange(0, 1 << 16)
        glc = rng.random() < 0.3
        e = {"SDATA": f"s{d}", "SBASE": f"s[{2 * base}:{2 * base + 1}]", "OFFSET": str(off), "GLC": int(glc)}
        out.append(("SMEM", Case(f"s_load_dword s{d}, s[{2 * base}:{2 * base + 1}], {off:#x}{' glc' if glc else ''}",
                                 e)))
        rsrc, soff, offset = rng.randrange(0, 25), rng.randrange(0, 100), rng.randrange(4096)
        glc, slc = rng.random() < 0.3, rng.random() < 0.3
        flags = (" glc" if glc else "") + (" slc" if slc else "")
        e = {"VDATA": f"v{b}", "VADDR": f"v{a}", "SRSRC": f"s[{4 * rsrc}:{4 * rsrc + 3}]", "SOFFSET": f"s{soff}",
             "OFFEN": 1, "IDXEN": 0, "OFFSET": offset, "GLC": int(glc), "SLC": int(slc)}
        out.append(("MUBUF", Case(f"buffer_load_dword v{b}, v{a}, s[{4 * rsrc}:{4 * rsrc + 3}], s{soff} "
                                  f"offen offset:{offset}{flags}", e)))
        limit = 2048 if family == "gfx10" else 4096
        goff = rng.randrange(-limit, limit)
        if rng.random() < 0.5:
            saddr = rng.randrange(0, 50) * 2
            text = f"global_load_dword v{b}, v{a}, s[{saddr}:{saddr + 1}] offset:{goff}{flags}"
            e = {"VDST": f"v{b}", "ADDR": f"v{a}", "SADDR": f"s{saddr}", "OFFSET": str(goff), "SEG": "global"}
        else:
            a = min(a, 254)
            text = f"global_load_dword v{b}, v[{a}:{a + 1}], off offset:{goff}{flags}"
            e = {"VDST": f"v{b}", "ADDR": f"v{a}", "SADDR": "off", "OFFSET": str(goff), "SEG": "global"}
        e |= {"GLC": int(glc), "SLC": int(slc)}
        out.append(("FLAT", Case(text, e)))
    return out


@pytest.mark.parametrize("family", sorted(CPUS))
def test_other_formats_round_trip(family: str) -> None:
    """SOP1/SOP2/SOPC/SOPK/SOPP, VOP1/VOP2/VOPC/VOP3, SMEM, MUBUF and FLAT fields (500 of each per family)."""
    mc = require_tool("llvm-mc-19")
    pairs = _misc_cases(random.Random(f"{family}-misc"), family)
    words = assemble(mc, CPUS[family], [c.text for _, c in pairs])
    for fmt in sorted({f for f, _ in pairs}):
        picked = [(c, w) for (f, c), w in zip(pairs, words, strict=True) if f == fmt]
        _check([c for c, _ in picked], [w for _, w in picked], CPUS[family], fmt)


KINDS: dict[str, Callable[[random.Random, str], list[Case]]] = {
    "sdwa": _sdwa_cases, "dpp": _dpp_cases, "vop3p": _vop3p_cases, "ds": _ds_cases,
}
_FORMATS = {"sdwa": "SDWA", "vop3p": "VOP3P", "ds": "DS"}


@pytest.mark.parametrize("family", sorted(CPUS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_generated_sweep_round_trips(family: str, kind: str) -> None:
    if kind == "sdwa" and family == "gfx11":
        pytest.skip("gfx11 has no SDWA encoding")
    mc = require_tool("llvm-mc-19")
    rng = random.Random(f"{family}-{kind}")
    cases = KINDS[kind](rng, family)
    assert len(cases) >= 2000
    words = assemble(mc, CPUS[family], [c.text for c in cases])
    if kind == "dpp":
        formats = [c.expect.pop("_format") for c in cases]
        for fmt in ("DPP", "DPP8", "VOP3_DPP", "VOP3_DPP8"):
            picked = [(c, w) for c, w, f in zip(cases, words, formats, strict=True) if f == fmt]
            if picked:
                _check([c for c, _ in picked], [w for _, w in picked], CPUS[family], fmt)
    else:
        _check(cases, words, CPUS[family], _FORMATS[kind])


def _corpus_texts(corpus: list[CorpusEntry]) -> list[tuple[str, int, list[str]]]:
    """(target, wave size, instruction texts) per kernel of the corpus."""
    out = []
    for entry in corpus:
        for kernel in isalens.load(entry.clang_asm).kernels:
            out.append((entry.target, kernel.ir.wave_size, [i.text for i in kernel.ir.instructions]))
    return out


def test_decoder_and_size_rules_agree_on_the_corpus(corpus: list[CorpusEntry]) -> None:
    """Every corpus instruction: the length our decoder reads from llvm-mc's bytes is llvm-mc's length, and
    the decoder's format family agrees with the format the text-based rules pick."""
    mc = require_tool("llvm-mc-19")
    from isalens.isa.amdgcn.syntax import parse_instruction_text

    jobs = _corpus_texts(corpus)

    def run(job: tuple[str, int, list[str]]) -> tuple[str, list[str], list[tuple[int, ...]]]:
        target, wave, texts = job
        extra = ("-mattr=+wavefrontsize64",) if wave == 64 and generation_of(target) >= 10 else ()
        return target, texts, assemble(mc, target, texts, extra)

    same_family = {"VOP1": ("VOP1", "VOP2", "VOPC"), "VOP2_LIT": ("VOP2",), "SOP": ("SOP1", "SOP2", "SOPC"),
                   "SOPK_LIT": ("SOPK",), "FLAT": ("FLAT", "VFLAT", "VGLOBAL", "VSCRATCH"), "MUBUF": ("MUBUF", "MTBUF",
                   "VBUFFER"), "MIMG": ("MIMG", "VIMAGE", "VSAMPLE"), "LDSDIR": ("LDSDIR", "VDSDIR"),
                   "VOP3_DPP": ("VOP3_DPP", "VOP3_DPP8", "VOP3P_DPP"), "DPP": ("DPP", "DPP8")}
    checked = 0
    failures: list[str] = []
    with ThreadPoolExecutor(max_workers=8) as pool:
        for target, texts, words in pool.map(run, jobs):
            for text, ws in zip(texts, words, strict=True):
                d = _decode(ws, target)
                raw = parse_instruction_text(text.split("::")[0])
                rule = text_size(raw.mnemonic, raw.operands, raw.modifiers, target, text).format
                checked += 1
                if d.words != ws or d.format not in same_family.get(rule, (rule,)):
                    failures.append(f"{target} {text}: decoder {d.format}/{len(d.words)}, rules {rule}/{len(ws)}")
    assert checked > 100_000
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:20])
