"""Source lines (issue 27) against LLVM's own tools: every instruction's file:line equals what
``llvm-objdump-19 -d -l`` prints for the same linked code object (its annotation in force at that address), from
both our readers (the code object's DWARF line table, and the ``.loc`` directives of the assembly it was built
from); the two give identical per-source-line tables; and ``-g`` changes no byte of code and no figure.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import isalens
from isalens.engine import LoadOptions, load_input
from isalens.frontends.clang import opencl_flags
from tests.conftest import EXAMPLES, require_tool

SOURCES = [EXAMPLES / "kernels" / p for p in (
    "control/loops.cl", "control/branches.cl", "source/inlined.cl", "fp16_layouts/half3_two_uint.cl",
    "fp16_layouts/fp32.cl", "calls/calls.cl", "atomics/global_atomics.cl")]
TARGETS = ("gfx902", "gfx90a", "gfx1100")
_ADDRESS = re.compile(r"//\s*([0-9A-Fa-f]{8,16}):")
_ANNOTATION = re.compile(r"^; (/.+):(\d+)\s*$")


def _build(source: Path, target: str, out: Path, *extra: str) -> Path:
    """``source`` compiled by clang-19 (the project's OpenCL flags) to ``out`` (.s with -S, else a linked object)."""
    clang = require_tool("clang-19")
    require_tool("ld.lld-19")
    flags = [clang, *opencl_flags(target), *extra, str(source)]
    if out.suffix == ".s":
        subprocess.run([*flags, "-S", "-o", str(out)], check=True, capture_output=True)
        return out
    obj = out.with_suffix(".o")
    subprocess.run([*flags, "-c", "-o", str(obj)], check=True, capture_output=True)
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", str(obj), "-o", str(out)], check=True,
                   capture_output=True)
    return out


def objdump_lines(code_object: Path, target: str) -> dict[int, tuple[str, int]]:
    """Address -> (file, line) as ``llvm-objdump-19 -d -l`` prints them: the last annotation above each
    instruction of the same function (it prints one whenever the line changes, and none for line 0)."""
    objdump = require_tool("llvm-objdump-19")
    text = subprocess.run([objdump, "-d", "-l", f"--mcpu={target}", str(code_object)], check=True,
                          capture_output=True, text=True).stdout
    out: dict[int, tuple[str, int]] = {}
    current: tuple[str, int] | None = None
    for line in text.splitlines():
        if line.endswith(">:"):
            current = None  # a new function
        annotation = _ANNOTATION.match(line)
        if annotation:
            current = (annotation.group(1), int(annotation.group(2)))
            continue
        address = _ADDRESS.search(line)
        if address and current is not None:
            out[int(address.group(1), 16)] = current
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, str, Path, Path]]:
    tmp = tmp_path_factory.mktemp("debug")
    out = []
    for source in SOURCES:
        for target in TARGETS:
            stem = f"{source.stem}.{target}"
            out.append((source, target, _build(source, target, tmp / f"{stem}.co", "-g"),
                        _build(source, target, tmp / f"{stem}.s", "-g")))
    return out


def _hip_code_objects(tmp: Path) -> list[tuple[str, Path]]:
    """tests/data/binaries/kernels.hip built with -g by clang++-19 (gfx90a and gfx1100 in one bundle), each
    code object unbundled by our own reader (the bundle format is tested against clang's own in test_binaries)."""
    from isalens.binary.bundle import read_bundles
    from tests.oracle import hipbuild

    bundle = hipbuild.build(tmp / "k.hipfb", "--cuda-device-only", "-g")
    out = []
    for entry in read_bundles(bundle.read_bytes(), file=str(bundle)):
        if "amdgcn" in entry.triple:
            target = entry.triple.rsplit("--", 1)[-1].split(":")[0]
            path = tmp / f"kernels.{target}.co"
            path.write_bytes(entry.data)
            out.append((target, path))
    return out


def test_every_instruction_equals_objdump_l(builds: list[tuple[Path, str, Path, Path]], tmp_path: Path) -> None:
    compared = kernels = 0
    hip = [(Path("kernels.hip"), target, path, path) for target, path in _hip_code_objects(tmp_path)]
    assert len(hip) == 2
    for _source, target, code_object, _asm in [*builds, *hip]:
        theirs = objdump_lines(code_object, target)
        _module, chosen, _ = load_input(code_object)
        for kernel in chosen:
            ir = kernel.ir
            assert ir.source.debug_info in ("lines", "lines+variables"), (code_object, ir.name)
            kernels += 1
            for ins, loc in zip(ir.instructions, ir.source.locs, strict=True):
                assert ins.address is not None
                expected = theirs.get(ins.address)
                got = None if loc is None else (loc.file, loc.line)
                assert got == expected, (code_object.name, ir.name, hex(ins.address), ins.text)
                compared += 1
    print(f"\nsource lines equal llvm-objdump -l: {compared} instructions, {kernels} kernels, "
          f"{len(builds) + len(hip)} code objects (OpenCL and HIP)")
    assert kernels >= 8 and compared > 1000


def _table(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    # function and inlined_at exist only in a binary's DWARF (assembly has the final location only)
    return {k["name"]: [{key: v for key, v in row.items() if key not in ("function", "inlined_at")}
                        for row in k["source_lines"]]
            for k in doc["files"][0]["kernels"] if k["is_kernel"]}


#: LLVM's IMPLICIT_DEF pseudo as AsmPrinter writes it: a comment line, no machine code
_IMPLICIT_DEF = re.compile(r"^[ \t]*; implicit-def:.*\n", re.MULTILINE)


def test_assembly_and_code_object_give_the_same_source_tables(builds: list[tuple[Path, str, Path, Path]],
                                                               tmp_path: Path) -> None:
    # the .s built with -g -S and the linked object built with -g -c are the same code: .loc and DWARF must agree
    # on every column of every line: instructions, bytes, cycles, memory operations and max_live.
    # One thing the .s says that no code object can: `; implicit-def: $vgpr2` (LLVM's IMPLICIT_DEF, a register
    # given an undefined value on a path, e.g. the result of global_atomics.cl's atomic_add on the lanes that
    # skip the one-lane atomic). The text reader takes it as a write, as LLVM's liveness does; the code object
    # has no trace of it, so there the register's previous real value (v2 = s1 of line 9; s[4:5] = the dispatch
    # pointer the descriptor enables) reaches the read and stays live up to it. So: the .s with those comment
    # lines removed (the same code to the assembler) must equal the code object in every column, and the .s as
    # written may differ only in max_live, only downwards, and only in a build that has such comments.
    rows = lowered = with_markers = 0
    for _source, _target, code_object, asm in builds:
        text = asm.read_text()
        stripped = tmp_path / asm.name
        stripped.write_text(_IMPLICIT_DEF.sub("", text))
        from_binary = _table(isalens.analyze(code_object).to_dict())
        from_stripped = _table(isalens.analyze(stripped).to_dict())
        assert from_stripped == from_binary and any(from_binary.values()), (asm.name, code_object.name)
        rows += sum(len(r) for r in from_binary.values())
        markers = len(_IMPLICIT_DEF.findall(text))
        with_markers += markers
        from_asm = _table(isalens.analyze(asm).to_dict())
        assert from_asm.keys() == from_binary.keys()
        for name, asm_rows in from_asm.items():
            assert len(asm_rows) == len(from_binary[name]), (asm.name, name)
            for ours, theirs in zip(asm_rows, from_binary[name], strict=True):
                assert {k: v for k, v in ours.items() if k != "max_live"} == \
                    {k: v for k, v in theirs.items() if k != "max_live"}, (asm.name, name, ours["line"])
                if ours["max_live"] != theirs["max_live"]:
                    assert markers, (asm.name, name, ours["line"])
                    assert all(ours["max_live"][f] <= theirs["max_live"][f] for f in ("vgpr", "sgpr")), \
                        (asm.name, name, ours["line"], ours["max_live"], theirs["max_live"])
                    lowered += 1
    print(f"\nper-source-line tables equal from .loc and DWARF, every column: {rows} rows, {len(builds)} builds; "
          f"with the .s's {with_markers} implicit-def comments read, max_live lower in {lowered} rows")
    assert with_markers > 0  # the comparison without them removed something


@pytest.mark.parametrize("target", TARGETS)
def test_code_object_starts_from_the_entry_state_of_its_assembly(target: str, tmp_path: Path) -> None:
    # the kernel descriptor's kernel_code_properties bits 0-6 are the .amdhsa_user_sgpr_* flags (AMDGPUUsage,
    # "Kernel Descriptor"): read from the code object, the same user SGPRs hold a value at entry as the .s
    # says. sgemm_8x8 is the kernel where it shows: LLVM 19 asks gfx1100 for 14 user SGPRs and enables only the
    # kernarg pointer, so the hardware sets s0, s1 and the workgroup ids s14, s15 (LLVM's MIR: entry live-ins
    # s[0:1], s14, s15); a reader counting all 14 user SGPRs kept s3, s5, s8 and s9 live from the entry (4 more
    # SGPRs at three source lines). The .s's implicit-def comments are removed, as above: the code object
    # cannot carry them
    from isalens.ir.registers import RegFile, registers_in

    source = EXAMPLES / "kernels" / "linalg" / "sgemm_8x8.cl"
    code_object = _build(source, target, tmp_path / f"sgemm.{target}.co", "-g")
    asm = _build(source, target, tmp_path / f"sgemm.{target}.s", "-g")
    asm.write_text(_IMPLICIT_DEF.sub("", asm.read_text()))
    (ours,), (theirs,) = load_input(asm)[1], load_input(code_object)[1]
    assert ours.ir.entry_live_in == theirs.ir.entry_live_in
    if target == "gfx1100":  # the directives by hand: kernarg_segment_ptr 1 (s[0:1]), count 14, ids x and y
        assert registers_in(theirs.ir.entry_live_in or 0, RegFile.SGPR) == [0, 1, 14, 15]
    assert ours.liveness().live_in == theirs.liveness().live_in
    assert _table(isalens.analyze(asm).to_dict()) == _table(isalens.analyze(code_object).to_dict())


def test_line_tables_change_no_code_and_no_figure(tmp_path: Path) -> None:
    # what our front ends add by default: -gline-tables-only. (Full -g does change the code with LLVM 19: its
    # debug values move instructions in 61 of 126 builds of the examples, docs/source.md; so it is opt-in.)
    for source in SOURCES:
        for target in TARGETS:
            plain = _build(source, target, tmp_path / f"{source.stem}.{target}.co")
            lines = _build(source, target, tmp_path / f"{source.stem}.{target}.g.co", "-gline-tables-only")
            assert _code_bytes(plain) == _code_bytes(lines), (source.name, target)
            # the builds are in tmp_path, the source beside the examples: --source-dir says where (else the -g
            # build alone warns that its source file is not found)
            found = LoadOptions(source_dirs=(str(source.parent),))
            docs = [isalens.analyze(p, found).to_dict()["files"][0] for p in (plain, lines)]
            for doc, path in zip(docs, (plain, lines), strict=True):
                doc.pop("file")
                for d in doc["diagnostics"]:
                    d["file"] = d["file"].replace(path.name, "CODE_OBJECT")
                for k in doc["kernels"]:
                    for key in ("source_lines", "debug_info"):
                        k.pop(key)
                    for row in k["lines"]:
                        row.pop("source")
                    for item in k.get("advice", []):  # advice in source terms (docs/source.md)
                        for key in ("sources", "loop"):
                            item.pop(key, None)
                        for value in item.get("values", []):
                            for key in ("variables", "born", "last_use"):
                                value.pop(key, None)
            assert docs[0] == docs[1], (source.name, target)


def test_stripped_code_object_has_no_source_and_the_same_figures(tmp_path: Path) -> None:
    # issue 27 item 5, a stripped binary: llvm-strip-19 --strip-debug removes the .debug_* sections and leaves the
    # code; the code object then says debug_info "none", no instruction has a source, and every other key of the
    # analyze document equals the -g build's (the oracle: the same .text bytes, checked first)
    strip = require_tool("llvm-strip-19")
    built = _build(EXAMPLES / "kernels" / "source" / "inlined.cl", "gfx902", tmp_path / "full.co", "-g")
    stripped = tmp_path / "stripped.co"
    subprocess.run([strip, "--strip-debug", "-o", str(stripped), str(built)], check=True, capture_output=True)
    assert _code_bytes(stripped) == _code_bytes(built)
    found = LoadOptions(source_dirs=(str(EXAMPLES / "kernels" / "source"),))  # the build is in tmp_path
    docs = [isalens.analyze(p, found).to_dict()["files"][0] for p in (built, stripped)]
    assert {k["debug_info"] for k in docs[0]["kernels"]} == {"lines+variables"}
    assert {k["debug_info"] for k in docs[1]["kernels"]} == {"none"}
    assert all(row["source"] is None for k in docs[1]["kernels"] for row in k["lines"])
    for doc in docs:
        doc.pop("file")
        assert doc.pop("diagnostics") == []
        for k in doc["kernels"]:
            for key in ("source_lines", "debug_info", "variables"):
                k.pop(key, None)
            for row in k["lines"]:
                row.pop("source")
            for held in k["peak_live_set"].values():
                for value in held:
                    value.pop("variables", None)
            for item in k.get("advice", []):
                for key in ("sources", "loop"):
                    item.pop(key, None)
                for value in item.get("values", []):
                    for key in ("variables", "born", "last_use"):
                        value.pop(key, None)
    assert docs[0] == docs[1]


def _code_bytes(path: Path) -> bytes:
    """The ``.text`` section's bytes (the machine code)."""
    from tests import elf_edit

    return elf_edit.section_bytes(path.read_bytes(), ".text")


def test_list_and_scan_say_what_debug_information_a_binary_carries(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from isalens.cli import main
    from isalens.scan.store import read_rows

    source = EXAMPLES / "kernels" / "control" / "loops.cl"
    # what each build asked for: -g (optimised, so variables have location lists), line tables only, nothing
    built = {"lines+variables": _build(source, "gfx902", tmp_path / "full.co", "-g"),
             "lines": _build(source, "gfx902", tmp_path / "lines.co", "-gline-tables-only"),
             "none": _build(source, "gfx902", tmp_path / "none.co")}
    for expected, path in built.items():
        assert main(["list", str(path), "--json"]) == 0
        (co,) = json.loads(capsys.readouterr().out)["files"]
        assert co["debug_info"] == expected and {k["debug_info"] for k in co["kernels"]} == {expected}
    out = tmp_path / "scan.parquet"
    assert main(["scan", str(built["lines"]), str(built["none"]), "--out", str(out)]) == 0
    by_file = {Path(r["file"]).name: r["debug_info"] for r in read_rows(out)}
    assert by_file == {"lines.co": "lines", "none.co": "none"}


@pytest.mark.parametrize("target", ["gfx902", "gfx1100"])
def test_front_end_adds_line_tables_by_default_and_they_change_no_figure(target: str) -> None:
    # isalens compiles .cl with -gline-tables-only unless told otherwise: source lines appear, and every
    # figure equals the build without debug information (--no-debug-info) but for the source keys and the
    # input line numbers of the assembly (the .loc directives are lines of their own)
    require_tool("clang-19")
    source = EXAMPLES / "kernels" / "source" / "inlined.cl"
    with_lines = isalens.analyze(source, LoadOptions(arch=target)).to_dict()
    without = isalens.analyze(source, LoadOptions(arch=target, debug_info="none")).to_dict()
    (k1,), (k0,) = with_lines["files"][0]["kernels"], without["files"][0]["kernels"]
    assert k1["debug_info"] == "lines" and k0["debug_info"] == "none" and k1["source_lines"]
    assert {r["line"] for r in k1["source_lines"]} >= {6, 7, 12, 13, 22, 23}  # the helpers' own lines too
    assert [r["text"] for r in k1["lines"]] == [r["text"] for r in k0["lines"]]
    for key in ("vgpr", "sgpr", "occupancy", "instruction_classes", "cfg"):
        if key == "vgpr" or key == "sgpr":
            k1[key].pop("peak_lines"), k0[key].pop("peak_lines")
        assert k1[key] == k0[key], key


def test_loops_are_named_by_their_source_lines() -> None:
    # loops.cl by hand: triangular_sum's outer for-loop spans lines 22-27 (27 is its closing brace, no code) and
    # its inner loop 24-25; collatz_steps' while-loop is 9-12 (its body 10-11)
    require_tool("clang-19")
    source = EXAMPLES / "kernels" / "control" / "loops.cl"
    for target in ("gfx902", "gfx1100"):
        _module, kernels, _ = load_input(source, LoadOptions(arch=target))
        named = {k.name: sorted(k.analyze().loop_sources.values()) for k in kernels}
        assert named["triangular_sum"] == ["loops.cl:22-26", "loops.cl:24-25"], target
        (collatz,) = named["collatz_steps"]
        low, high = (int(x) for x in collatz.split(":")[1].split("-"))
        assert low <= 9 and high == 11, (target, collatz)  # hoisted copies of line 7's value may join the loop


def test_a_header_outside_the_sources_directory_is_named_without_a_line_of_the_source(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a kernel whose helper comes from a header in another directory (-I): its lines are shown without text,
    # one warning names the header. isalens compiled the source: the instructions' lines are those of its
    # temporary assembly, no line of k.cl, so the warning names k.cl and no line (it named "k.cl:16" of a
    # 7-line file); with --keep-asm the lines are the kept file's, and the warning names its line
    require_tool("clang-19")
    from isalens.cli import main

    (tmp_path / "src").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "helper.h").write_text("static inline float twice(float x)\n{\n    return x * 2.0f;\n}\n")
    source = tmp_path / "src" / "k.cl"
    source.write_text('#include "helper.h"\n\n__kernel void k(__global float *p)\n{\n'
                      "    p[get_global_id(0)] = twice(p[get_global_id(0)]);\n}\n\n")

    def warnings(*extra: str) -> list[dict[str, Any]]:
        assert main(["livereg", str(source), "--arch", "gfx902", "-I", str(tmp_path / "inc"), "--json",
                     *extra]) == 0
        doc = json.loads(capsys.readouterr().out)["files"][0]
        return [d for d in doc["diagnostics"] if d["code"] == "source-text"]

    (found,) = warnings()
    assert "helper.h is not found" in found["message"]
    assert (found["file"], found["line"]) == (str(source), None)
    kept = tmp_path / "k.s"
    (found,) = warnings("--keep-asm", str(kept))
    assert found["file"] == str(kept) and isinstance(found["line"], int)
    # that line of the kept assembly is an instruction whose .loc above it names helper.h
    lines = kept.read_text().splitlines()
    number = next(re.match(r"\s*\.file\s+(\d+)", t).group(1) for t in lines  # type: ignore[union-attr]
                  if t.lstrip().startswith(".file") and "helper.h" in t)
    loc = next(t for t in reversed(lines[:found["line"] - 1]) if t.lstrip().startswith(".loc"))
    assert loc.split()[1] == number and not lines[found["line"] - 1].lstrip().startswith((".", ";"))


def test_objdump_with_source_text_gives_the_same_lines(tmp_path: Path) -> None:
    # `llvm-objdump -d -S -l` interleaves the source text with the file:line annotations of `-d -l`: the text lines
    # (comments) change nothing; `-S` alone has no file and line, so no source line is read (and the text says so)
    objdump = require_tool("llvm-objdump-19")
    co = _build(EXAMPLES / "kernels" / "source" / "inlined.cl", "gfx902", tmp_path / "inlined.co", "-g")
    dumps = {}
    for flags in (("-d", "-l"), ("-d", "-S", "-l"), ("-d", "-S")):
        path = tmp_path / f"dump{''.join(flags)}.txt"
        path.write_text(subprocess.run([objdump, *flags, "--mcpu=gfx902", str(co)], check=True, capture_output=True,
                                       text=True).stdout)
        (kernel,) = load_input(path, LoadOptions(arch="gfx902"))[1]
        dumps[flags] = [None if loc is None else (loc.file, loc.line) for loc in kernel.ir.source.locs]
    assert dumps[("-d", "-S", "-l")] == dumps[("-d", "-l")] and any(dumps[("-d", "-l")])
    assert not any(dumps[("-d", "-S")])
