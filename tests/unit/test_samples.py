"""Every input dialect parses with no unknown instruction, and our figures agree with the tools that produced
the input (ACO's statistics, LLVM's metadata, llvm-mc, RGA's live counts): on our own inputs (a listing
written for the tests in tests/fixtures/listing, clang-19 and RADV/ACO output made at test time by
tests/fixtures/build.py) and, as extra checks collected only when present, on the reference inputs in
../shared/samples."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import pytest

import isalens
from isalens.ir.registers import RegFile
from isalens.report.model import livereg_report
from isalens.report.rga import render_rga
from tests.conftest import FIXTURES, require_tool
from tests.fixtures.build import ACO_FAMILIES, AcoOutput, LlvmOutputs

LISTINGS = [
    "gcn_1_fp16_neighborhood_a.isa", "gcn_2_fp16_neighborhood_b_read2.isa", "gcn_3_fp16_half4.isa",
    "gcn_4_fp16_uint2_array.isa", "gcn_5_fp16_half3_array.isa",
]


#: our own listing fragment (tests/fixtures/listing/README.md says how it was made)
OWN_LISTINGS = sorted((FIXTURES / "listing").glob("*.isa"))


def _check_listing_parses(path: Path) -> None:
    module = isalens.load(path, "gfx902")
    assert module.ir.dialect == "listing"
    kernel = module.kernels[0]
    assert kernel.ir.guessed == 0
    # every instruction printed with a `// ADDRESS: WORDS` trailer keeps its encoding (the fragments'
    # last line is sometimes cut before the trailer)
    lines = path.read_text().splitlines()
    for ins in kernel.ir.instructions:
        assert bool(ins.encoding) == ("//" in lines[ins.line - 1]), ins.line


@pytest.mark.parametrize("path", OWN_LISTINGS, ids=[p.name for p in OWN_LISTINGS])
def test_own_listing_fragments_parse_without_unknowns(path: Path) -> None:
    _check_listing_parses(path)


@pytest.mark.parametrize("name", LISTINGS)
def test_gcn_listing_fragments_parse_without_unknowns(samples: Path, name: str) -> None:
    _check_listing_parses(samples / "gcn_listing" / name)


def _aco_stat(path: Path, name: str) -> int:
    m = re.search(rf"STAT {name} (\d+)", path.read_text())
    assert m, name
    return int(m.group(1))


def _check_aco(path: Path, arch: str, vgprs: int, code_size: int) -> None:
    module = isalens.load(path, arch)
    assert module.ir.dialect == "aco"
    kernel = module.kernels[0]
    assert kernel.ir.guessed == 0
    result = kernel.analyze()
    assert result.pressure.vgpr.peak <= vgprs
    assert result.resources.vgpr.requested <= vgprs
    # the code size ACO reports is the sum of the encoding words it printed
    code_bytes = sum(4 * len(ins.encoding) for ins in kernel.ir.instructions)
    assert code_bytes <= code_size


@pytest.mark.parametrize("family", sorted(ACO_FAMILIES))
def test_own_aco_output_parses_and_stays_within_acos_vgprs(own_aco: dict[str, AcoOutput], family: str) -> None:
    out = own_aco[family]
    _check_aco(out.assembly, ACO_FAMILIES[family], int(out.statistics["VGPRs"]), int(out.statistics["Code size"]))


@pytest.mark.parametrize(("family", "arch"), [("raven", "gfx902"), ("navi21", "gfx1030")])
def test_aco_samples_parse_and_stay_within_acos_vgprs(samples: Path, family: str, arch: str) -> None:
    stats = samples / "aco" / f"neighborhood_fp16.{family}.stats.txt"
    _check_aco(samples / "aco" / f"neighborhood_fp16.{family}.aco.s", arch, _aco_stat(stats, "VGPRs"),
               _aco_stat(stats, "Code size"))


def _cfg_shape(path: Path, arch: str | None) -> list[tuple[int, tuple[int, ...]]]:
    kernel = isalens.load(path, arch).kernels[0]
    graph = kernel.cfg
    return [(b.start, tuple(graph.blocks[s].start for s in b.succs)) for b in graph.blocks]


def test_own_objdump_and_assembly_give_the_same_cfg(own_llvm: LlvmOutputs) -> None:
    assert _cfg_shape(own_llvm.asm["gfx902"], None) == _cfg_shape(own_llvm.objdump, "gfx902")


def test_objdump_and_assembly_give_the_same_cfg(samples: Path) -> None:
    asm = _cfg_shape(samples / "llvm" / "neighborhood_fp16.gfx902.s", None)
    dump = _cfg_shape(samples / "llvm" / "neighborhood_fp16.gfx902.objdump.txt", "gfx902")
    assert asm == dump


def _check_requested_equals_declared(path: Path) -> None:
    module = isalens.load(path)
    for kernel in module.kernels:
        res = kernel.analyze().resources
        assert res.vgpr.requested == kernel.ir.declared.vgpr_count
        assert res.sgpr.requested == kernel.ir.declared.sgpr_count


@pytest.mark.parametrize("arch", ["gfx902", "gfx1100", "gfx90a"])
def test_own_llvm_output_requested_equals_declared(own_llvm: LlvmOutputs, arch: str) -> None:
    _check_requested_equals_declared(own_llvm.asm[arch])


@pytest.mark.parametrize("name", ["neighborhood_fp16.gfx902.s", "neighborhood_fp16.gfx1100.s",
                                  "neighborhood_fp16.gfx90a.s"])
def test_llvm_samples_requested_equals_declared(samples: Path, name: str) -> None:
    _check_requested_equals_declared(samples / "llvm" / name)


def _rga_rows(path: Path) -> list[tuple[int, int, str]]:
    rows = []
    for line in path.read_text().splitlines():
        m = re.match(r"^\s*(\d+) \|\s*(\d+) \|.*?\| (.*)$", line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    return rows


@pytest.mark.parametrize("mode", ["vgpr", "sgpr"])
def test_rga_live_counts_and_format_match_rgas_engine(samples: Path, tmp_path: Path, mode: str) -> None:
    """RGA's closed engine is the oracle: rebuild its input (instructions at their line numbers) and
    compare every per-line count, then our --rga rendering byte for byte."""
    sample = samples / "rga_livereg" / f"livereg_{mode}_gfx1100.txt"
    rows = _rga_rows(sample)
    lines = [""] * max(r[0] for r in rows)
    for number, _count, text in rows:
        lines[number - 1] = text
    source = tmp_path / "saxpy_loop.s"
    source.write_text("\n".join(lines) + "\n")
    module = isalens.load(source, "gfx1100", dialect="bare")
    result = module.kernels[0].analyze()
    counts = result.pressure.vgpr.counts if mode == "vgpr" else result.pressure.sgpr.counts
    assert list(counts) == [r[1] for r in rows]
    # a bare listing is named after its file; RGA names the kernel (its first label) saxpy_loop
    report = livereg_report([result], file=str(source), dialect="bare", diagnostics=())
    kernel = dataclasses.replace(report.kernels[0], name="saxpy_loop")
    rendered = render_rga(kernel, RegFile.VGPR if mode == "vgpr" else RegFile.SGPR)
    assert rendered == sample.read_text()


def test_own_listing_encodings_disassemble_to_the_same_instruction() -> None:
    _check_listing_encodings(OWN_LISTINGS)


def test_listing_encodings_disassemble_to_the_same_instruction(samples: Path) -> None:
    _check_listing_encodings([samples / "gcn_listing" / name for name in LISTINGS])


def _check_listing_encodings(paths: list[Path]) -> None:
    """llvm-mc is the oracle: decoding each listing's encoding words gives the printed instruction."""
    mc = require_tool("llvm-mc-19")
    for name in paths:
        kernel = isalens.load(name, "gfx902").kernels[0]
        encoded = [ins for ins in kernel.ir.instructions if ins.encoding]
        words = " ".join(
            " ".join(f"0x{b:02x}" for w in ins.encoding for b in w.to_bytes(4, "little"))
            for ins in encoded
        )
        out = subprocess.run([mc, "-arch=amdgcn", "-mcpu=gfx902", "--disassemble"], input=words,
                             capture_output=True, text=True, check=True).stdout
        decoded = [line.strip() for line in out.splitlines() if line.strip() and not line.strip().startswith(".")]
        assert len(decoded) == len(encoded), name
        for ins, text in zip(encoded, decoded, strict=True):
            assert _canonical(text) == _canonical(ins.text), (name, ins.line, text, ins.text)


def _canonical(text: str) -> str:
    """Spelling differences between AMD's listing and LLVM's printer that do not change meaning."""
    t = text.split("//")[0].split(";")[0].strip().lower()
    t = re.sub(r"_e32\b|_e64\b|_sdwa\b|_dpp\b", "", t)
    t = re.sub(r"0x0*([0-9a-f]+)", lambda m: str(int(m.group(1), 16)), t)
    # LLVM omits op_sel/op_sel_hi when they hold their defaults (all 0 / all 1)
    t = re.sub(r"\s+op_sel_hi:\[1(?:,1)*\]", "", t)
    t = re.sub(r"\s+op_sel:\[0(?:,0)*\]", "", t)
    t = re.sub(r"\s+", " ", t).replace(" ,", ",")
    return t
