"""gfx6/gfx7 machine code -> text by our decoder, against LLVM's assembler (LLVM 19 has no gfx6/gfx7 disassembler:
docs/decoder.md, "gfx6/gfx7").

(a) Every compiled example (``clang-19 -S`` with isalens' OpenCL flags) is assembled by ``llvm-mc-19``: each
instruction's text as LLVM prints it and its bytes from the assembled object (``tools/asm_census.py``'s
``encoded``; a branch's label becomes the SIMM16 the object holds). Our decoder's text of those bytes must be
LLVM's, and our text assembled again by llvm-mc-19 must give the same bytes. Instructions with a relocated operand
(``sym@rel32@lo+4``: the linker fills the literal) are counted apart, their text cannot match.
(b) A code object clang-19 builds for gfx600/gfx700 is analysed through the binary path (our decoder) with the
VGPR/SGPR counts its metadata declares.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from tools.asm_census import encoded

from isalens.cli import main
from isalens.frontends.clang import opencl_flags
from isalens.isa.amdgcn.decoder.tables import parse_table
from isalens.isa.amdgcn.decoder.text import Text, decode_text
from tests.conftest import EXAMPLES, load_tool, require_tool

DATA = Path(__file__).resolve().parents[2] / "src" / "isalens" / "isa" / "amdgcn" / "data"

_ENCODING = re.compile(r"; encoding: \[([^\]]*)\]")


def _reassembled(texts: list[str], target: str) -> list[list[int]]:
    """The dwords llvm-mc-19 encodes each line of ``texts`` as (one line each: an error fails the run)."""
    proc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-show-encoding"],
                          input="\n".join(texts) + "\n", capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr[:2000]
    out = []
    for m in _ENCODING.finditer(proc.stdout):
        data = bytes(int(b, 16) for b in m.group(1).split(","))
        out.append([int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)])
    return out


@pytest.mark.parametrize("target", ["gfx600", "gfx700"])
def test_decoder_text_equals_llvm_assembler(target: str, tmp_path: Path) -> None:
    require_tool("clang-19")
    require_tool("llvm-mc-19")
    require_tool("llvm-objcopy-19")
    compared = equal = relocated = objects = 0
    bad: list[str] = []
    ours: list[str] = []
    words: list[list[int]] = []
    for source in sorted((EXAMPLES / "kernels").rglob("*.cl")):
        got = encoded(source, target, tmp_path)
        if got is None:
            continue
        objects += 1
        for item in got:
            if item.relocated:
                relocated += 1
                continue
            compared += 1
            result = decode_text(item.words, target)
            text = result.text if isinstance(result, Text) else f"<{result.reason}>"
            if isinstance(result, Text) and result.size == 4 * len(item.words) and text == item.text:
                equal += 1
                ours.append(text)
                words.append(item.words)
            else:
                bad.append(f"{source.name}: {' '.join(f'{w:08X}' for w in item.words)}: ours {text!r}, "
                           f"LLVM {item.text!r}")
    print(f"{target}: {objects} objects, {compared} instructions compared, {equal} equal, {len(bad)} differ, "
          f"{relocated} with a relocated operand not compared")
    assert not bad, "\n".join(bad[:30])
    assert objects >= 40 and compared > 15000 and relocated < compared // 100
    again = _reassembled(ours, target)
    assert len(again) == len(words)
    differ = [f"{t}: {w} -> {a}" for t, w, a in zip(ours, words, again, strict=True) if w != a]
    assert not differ, "\n".join(differ[:30])


def _declared(co: Path) -> dict[str, tuple[int, int]]:
    """The compiler's own figures per kernel: .name -> (.vgpr_count, .sgpr_count) of the metadata note
    (``llvm-readelf-19 --notes``: a kernel's entry starts at "  - ", its own keys are indented by 4 spaces)."""
    notes = subprocess.run([require_tool("llvm-readelf-19"), "--notes", str(co)], capture_output=True, text=True,
                           check=True).stdout
    return {m.group(1): (int(v.group(1)), int(c.group(1)))
            for block in re.split(r"\n  - ", notes)[1:]
            if (m := re.search(r"^    \.name:\s+(\S+)", block, re.M))
            and (c := re.search(r"^    \.sgpr_count:\s+(\d+)", block, re.M))
            and (v := re.search(r"^    \.vgpr_count:\s+(\d+)", block, re.M))}


@pytest.mark.parametrize("target", ["gfx600", "gfx700"])
def test_every_example_counts_equal_metadata(target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every compiled example's code object through the binary path (our decoder): each kernel's requested VGPRs
    and SGPRs (``livereg --json``) equal its metadata's .vgpr_count/.sgpr_count."""
    clang = require_tool("clang-19")
    compared = 0
    differ = []
    for source in sorted((EXAMPLES / "kernels").rglob("*.cl")):
        co = tmp_path / f"{source.stem}.co"
        if subprocess.run([clang, *opencl_flags(target), str(source), "-o", str(co)], capture_output=True).returncode:
            continue
        declared = _declared(co)
        assert main(["livereg", "--json", str(co)]) == 0, source.name
        doc = json.loads(capsys.readouterr().out)
        kernels = {k["name"]: k for f in doc["files"] for k in f["kernels"]}
        assert set(declared) <= set(kernels), source.name  # and the non-kernel functions (calls.cl)
        for name, counts in declared.items():
            compared += 1
            ours = (kernels[name]["vgpr"]["requested"], kernels[name]["sgpr"]["requested"])
            if ours != counts:
                differ.append(f"{source.name} {name}: ours {ours}, metadata {counts}")
    print(f"{target}: {compared} kernels, {compared - len(differ)} with VGPR and SGPR counts equal to the metadata")
    assert not differ, differ
    assert compared > 100


@pytest.mark.parametrize("target", ["gfx600", "gfx700"])
@pytest.mark.parametrize("kernel", ["control/branches.cl", "linalg/sgemm_4x4.cl"])
def test_gfx67_code_object_counts_equal_metadata(target: str, kernel: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    clang = require_tool("clang-19")
    co = tmp_path / "k.co"
    subprocess.run([clang, *opencl_flags(target), str(EXAMPLES / "kernels" / kernel), "-o", str(co)], check=True)
    declared = _declared(co)
    assert declared
    for command in ("livereg", "analyze"):
        assert main([command, "--json", str(co)]) == 0
        doc = json.loads(capsys.readouterr().out)
        kernels = {k["name"]: k for f in doc["files"] for k in f["kernels"]}
        assert set(kernels) == set(declared), command
        for name, (vgprs, sgprs) in declared.items():
            assert kernels[name]["arch"] == target
            assert (kernels[name]["vgpr"]["requested"], kernels[name]["sgpr"]["requested"]) == (vgprs, sgprs), \
                (command, name)


@pytest.mark.parametrize("family", ["gfx6", "gfx7"])
def test_regenerated_tables_equal_committed(family: str) -> None:
    """The committed tables are what tools/gen_opcode_tables_si.py makes from the installed llvm-mc-19 now."""
    llvm_mc = require_tool("llvm-mc-19")
    gen = load_tool("gen_opcode_tables_si")
    fresh, rejected, _skipped = gen.table(llvm_mc, family)
    committed = parse_table((DATA / f"opcodes_{family}.txt").read_text("utf-8"))
    assert fresh == committed
    assert rejected == []  # every mnemonic probed was accepted with one of its templates
    assert len(fresh["VOP3"]) > 300 and len(fresh["SMRD"]) >= 12


def _gfx600_object(tmp_path: Path) -> Path:
    co = tmp_path / "k.co"
    subprocess.run([require_tool("clang-19"), *opencl_flags("gfx600"),
                    str(EXAMPLES / "kernels" / "control" / "branches.cl"), "-o", str(co)], check=True)
    return co


def test_llvm_disassembler_refused_for_gfx6_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    co = _gfx600_object(tmp_path)
    assert main(["analyze", "--disassembler", "llvm", str(co)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "does not support gfx600" in err[0] and "--disassembler ours" in err[0], err


def test_instruction_our_decoder_does_not_read_is_one_line(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A gfx6 word our decoder has no text for (MIMG, top bits 111100) cannot fall back to llvm-objdump."""
    co = _gfx600_object(tmp_path)
    data = bytearray(co.read_bytes())
    at = data.find(bytes.fromhex("000081bf"))  # s_endpgm, little-endian: the first kernel's last instruction
    assert at > 0
    data[at:at + 4] = (0xF0000000).to_bytes(4, "little")
    co.write_bytes(bytes(data))
    assert main(["analyze", str(co)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "MIMG" in err[0] and "does not support gfx600" in err[0], err


@pytest.mark.parametrize("target", ["gfx600", "gfx700"])
def test_mtbuf_equal_llvm_assembler(target: str) -> None:
    """No compiled example has MTBUF: every format the table names and the address forms, written for llvm-mc-19,
    decode back to the text it prints for them."""
    require_tool("llvm-mc-19")
    formats = [text for _f, text, _z in parse_table((DATA / "opcodes_gfx6.txt").read_text("utf-8"))
               ["MTBUF_FMT"].values()]
    assert len(formats) > 100
    lines = [f"tbuffer_load_format_x v8, off, s[52:55], 0 {f}".rstrip() for f in formats]
    lines += ["tbuffer_store_format_xy v[1:2], v[2:3], s[4:7], 0 format:[BUF_DATA_FORMAT_32] addr64 offset:16 glc",
              "tbuffer_load_format_xyzw v[4:7], v9, s[8:11], s3 format:[BUF_NUM_FORMAT_SINT] offen offset:4095 slc",
              "tbuffer_load_format_xyz v[4:6], v[9:10], s[8:11], 1 idxen offen",
              "tbuffer_store_format_x v1, v2, s[4:7], s0 idxen"]
    _round_trip(lines, target)


def _round_trip(lines: list[str], target: str) -> None:
    """Each line assembled by llvm-mc-19 decodes back to the text llvm-mc-19 prints for it."""
    proc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    assert not proc.stderr.strip(), proc.stderr[:1000]
    got = [(" ".join(line.split(";")[0].split()), m.group(1)) for line in proc.stdout.splitlines()
           if (m := _ENCODING.search(line))]
    assert len(got) == len(lines)
    for text, encoding in got:
        data = bytes(int(b, 16) for b in encoding.split(","))
        words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
        result = decode_text(words, target)
        assert isinstance(result, Text) and result.text == text, (text, result)


@pytest.mark.parametrize("target", ["gfx600", "gfx700"])
def test_exp_equal_llvm_assembler(target: str) -> None:
    """EXP (graphics: none in the compiled examples): every target name of the table, sources off, and the flags,
    written for llvm-mc-19, decode back to the text it prints."""
    require_tool("llvm-mc-19")
    names = [name for _mn, name, _z in parse_table((DATA / "opcodes_gfx6.txt").read_text("utf-8"))["EXP"].values()]
    assert {"mrt0", "mrtz", "null", "pos0", "param31"} <= set(names)
    lines = [f"exp {name} v1, v2, v3, v4" for name in names]
    lines += ["exp mrt1 v5, off, v7, off done", "exp mrtz v1, v1, v2, v2 compr vm",
              "exp pos3 off, off, off, v9 done vm", "exp param0 v3, v3, off, off done compr vm"]
    _round_trip(lines, target)
