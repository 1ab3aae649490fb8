"""Source lines from ``.file``/``.loc`` and ``objdump -l`` text (issue 27), on small inputs whose expected
locations are read off by hand: each instruction takes the nearest location above it; line 0 takes the line
before it; a ``.loc`` naming an undeclared file is dropped with one warning and changes no ISA figure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import isalens
from isalens.ir.source import SourceLoc, carry_forward
from tests.conftest import EXAMPLES

ASM = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.file\t0 "/home/u/proj" "src/k.cl" md5 0x0123
\t.file\t1 "inc" "helper.h"
\t.text
k:
\t.loc\t0 3 0
\ts_load_dword s0, s[4:5], 0x0
\t.loc\t1 7 12 prologue_end
\tv_mov_b32 v1, 0
\tv_add_f32 v1, v1, v0
\t.loc\t0 0 5 is_stmt 0
\tv_mul_f32 v1, v1, v1
\t.loc\t0 9 1
\ts_endpgm
.Lfunc_end0:
"""


def _locs(text: str, arch: str = "gfx900") -> list[tuple[str, int] | None]:
    kernel = isalens.load(text, arch).kernels[0].ir
    return [None if loc is None else (loc.file, loc.line) for loc in kernel.source.locs]


def test_loc_directives_map_each_instruction() -> None:
    # by hand: s_load under .loc 0 3; two instructions under .loc 1 7 (file 1 = /home/u/proj/inc/helper.h: a
    # relative directory is relative to file 0's compilation directory); line 0 takes line 7; s_endpgm line 9
    k, h = "/home/u/proj/src/k.cl", "/home/u/proj/inc/helper.h"
    assert _locs(ASM) == [(k, 3), (h, 7), (h, 7), (h, 7), (k, 9)]
    kernel = isalens.load(ASM).kernels[0].ir
    assert kernel.source.debug_info == "lines" and kernel.source.origin == ".loc"


def test_json_lines_and_table() -> None:
    doc: dict[str, Any] = isalens.analyze(ASM).to_dict()["files"][0]
    (kernel,) = doc["kernels"]
    assert kernel["debug_info"] == "lines"
    assert kernel["lines"][1]["source"] == {"file": "/home/u/proj/inc/helper.h", "line": 7, "column": 12}
    rows = [(r["file"].rsplit("/", 1)[-1], r["line"], r["instructions"], r["code_bytes"], r["global_ops"])
            for r in kernel["source_lines"]]
    # s_load_dword: 8 bytes; v_mov_b32 with inline 0 (VOP1) 4; v_add_f32 (VOP2) 4; v_mul_f32 4; s_endpgm 4
    assert rows == [("k.cl", 3, 1, 8, 0), ("helper.h", 7, 3, 12, 0), ("k.cl", 9, 1, 4, 0)]
    assert all(r["text"] is None for r in kernel["source_lines"])  # /home/u/proj does not exist here


def test_unknown_file_number_is_a_warning_and_no_figure_changes() -> None:
    broken = ASM.replace("\t.loc\t1 7 12 prologue_end", "\t.loc\t4 7 12")
    module = isalens.load(broken)
    warnings = [d for d in module.diagnostics if d.code == "debug-info"]
    assert len(warnings) == 1 and warnings[0].line == 8 and "file 4" in warnings[0].message
    k = "/home/u/proj/src/k.cl"
    assert _locs(broken) == [(k, 3), (k, 3), (k, 3), (k, 3), (k, 9)]
    # the same text with every .loc made a comment (input line numbers unchanged): only source keys may differ
    plain = isalens.analyze("\n".join(";" + x if ".loc" in x else x for x in ASM.splitlines())).to_dict()["files"][0]
    doc = isalens.analyze(broken).to_dict()["files"][0]
    for d in (plain, doc):
        d.pop("diagnostics")
        for kernel in d["kernels"]:
            for key in ("source_lines", "debug_info"):
                kernel.pop(key)
            for row in kernel["lines"]:
                row.pop("source")
    assert plain == doc


def test_objdump_l_annotations() -> None:
    text = """
k.co:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000001000 <k>:
; k():
; /src/k.cl:6
\ts_load_dword s0, s[4:5], 0x0 // 000000001000: C0020002 00000000
; /src/k.cl:8
\tv_mov_b32_e32 v1, 0 // 000000001008: 7E020280
\tv_add_f32_e32 v1, v1, v0 // 00000000100C: 02020101
\ts_endpgm // 000000001010: BF810000
"""
    assert _locs(text) == [("/src/k.cl", 6), ("/src/k.cl", 8), ("/src/k.cl", 8), ("/src/k.cl", 8)]


def test_carry_forward() -> None:
    a, b, zero = SourceLoc("f", 1), SourceLoc("f", 2), SourceLoc("f", 0)
    assert carry_forward([zero, a, zero, None, b, zero]) == [None, a, a, None, b, b]


def test_no_debug_info_says_none() -> None:
    doc = isalens.analyze("v_mov_b32 v0, 0\ns_endpgm\n", arch="gfx900").to_dict()["files"][0]
    (kernel,) = doc["kernels"]
    assert kernel["debug_info"] == "none" and kernel["source_lines"] == []
    assert all(row["source"] is None for row in kernel["lines"])


VARS = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.file\t0 "/p" "k.cl"
\t.text
k:
\t.loc\t0 3 0
\t;DEBUG_VALUE: k:acc <- [DW_OP_constu 1, DW_OP_swap, DW_OP_xderef] $vgpr1
\t;DEBUG_VALUE: k:pair <- [DW_OP_LLVM_fragment 32 32] $vgpr2
\tv_mov_b32 v3, v0
\tv_add_f32 v3, v3, v1
\t;DEBUG_VALUE: k:acc <- undef
\tv_mul_f32 v2, v3, v2
\tv_mov_b32 v4, v2
\ts_endpgm
.Lfunc_end0:
"""


def test_debug_values_give_variable_ranges() -> None:
    # by hand: the comments above the first instruction belong to it; acc in v1 for instructions 0-1 (the
    # "undef" comment ends it before 2); pair[32:64] in v2 for 0-2 (instruction 2 writes v2: included, it reads
    # the old value)
    kernel = isalens.load(VARS).kernels[0].ir
    assert kernel.source.debug_info == "lines+variables"
    ranges = {(v.name, v.start, v.end) for v in kernel.source.variables}
    assert ranges == {("acc", 0, 1), ("pair[32:64]", 0, 2)}
    doc = isalens.analyze(VARS).to_dict()["files"][0]["kernels"][0]
    assert doc["variables"] == [
        {"name": "acc", "ranges": [{"first_line": 8, "last_line": 9, "registers": ["v1"]}]},
        {"name": "pair[32:64]", "ranges": [{"first_line": 8, "last_line": 11, "registers": ["v2"]}]},
    ]


def test_debug_value_in_a_register_the_code_never_sets_is_dropped_with_one_warning() -> None:
    # by hand: VARS writes v2, v3, v4 and reads v0, v1, v2, v3 (without a descriptor a register read may be an
    # input); v9 is neither written nor read, so "ghost in v9" contradicts the code: one warning at its line (8),
    # no variable. "entry in v0" (read, never written: a value from outside) stays. No figure changes
    ghost = "\t;DEBUG_VALUE: k:ghost <- [DW_OP_constu 1, DW_OP_swap, DW_OP_xderef] $vgpr9\n"
    entry = "\t;DEBUG_VALUE: k:entry <- [DW_OP_constu 1, DW_OP_swap, DW_OP_xderef] $vgpr0\n"
    text = VARS.replace("$vgpr2\n", "$vgpr2\n" + ghost + entry, 1)
    warnings = [(d.line, d.message) for d in isalens.load(text).diagnostics]
    assert warnings == [(8, "DEBUG_VALUE puts ghost in v9, which no instruction of k writes and the hardware does "
                            "not set: it is dropped")]
    doc = isalens.analyze(text).to_dict()["files"][0]
    (kernel,) = doc["kernels"]
    assert [v["name"] for v in kernel["variables"]] == ["acc", "entry", "pair[32:64]"]
    plain = isalens.analyze(text.replace(ghost, "\n").replace(entry, "\n")).to_dict()["files"][0]["kernels"][0]
    for key in ("vgpr", "sgpr", "occupancy"):
        assert kernel[key] == plain[key], key
    assert [r["live_vgpr"] for r in kernel["lines"]] == [r["live_vgpr"] for r in plain["lines"]]


def test_peak_holders_add_up_to_the_live_count() -> None:
    # the peak is instruction 0 (v0, v1, v2 live in, v3 written and read next): in source terms v1 is acc, v2
    # pair[32:64], v0 a value from kernel entry and v3 a temporary of k.cl:3; the counts add up to the live count
    # (a register holding a variable whose value is never read again is not live, and not counted)
    from isalens.engine import livereg
    from isalens.report.text import peak_holders

    report = livereg(VARS)
    (k,) = report.kernels
    values = k.peak_live_set["vgpr"]
    held = peak_holders(k)
    counted = sum(int(part.split()[0]) if " temporar" in part else int(part.rsplit(": ", 1)[1].split()[0])
                  for part in held.split("; "))
    assert counted == len(values) == k.vgpr.peak_live
    assert held == "acc: 1 VGPR; pair[32:64]: 1 VGPR; 1 temporary of kernel entry; 1 temporary of k.cl:3"


def test_source_text_is_read_only_inside_the_inputs_directory(tmp_path: Path) -> None:
    # the file names come from the input: one naming a file outside its directory (absolute, "..", or a link
    # leading out) must not print that file's lines; a file in the input's directory is shown
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "s.cl").write_text("CANARY LINE ONE\nCANARY LINE TWO\nCANARY THREE\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "k.cl").write_text("".join(f"int line{n};\n" for n in range(1, 7)) + "int shown_here;\n")
    (work / "link.cl").symlink_to(secret / "s.cl")
    for named in (str(secret / "s.cl"), "../secret/s.cl", "link.cl"):
        asm = ASM.replace('"/home/u/proj" "src/k.cl"', f'"{work}" "{named}"').replace('"inc" "helper.h"',
                                                                                  f'"{work}" "k.cl"')
        path = work / "k.s"
        path.write_text(asm)
        doc = isalens.analyze(path).to_dict()
        texts = {r["file"].rsplit("/", 1)[-1]: r["text"] for r in doc["files"][0]["kernels"][0]["source_lines"]}
        assert "CANARY" not in str(doc), named
        assert texts["k.cl"] == "int shown_here;"  # .loc 1 7 names line 7 of k.cl, beside the input


def test_source_dir_is_a_confined_search_path(tmp_path: Path, capsys: Any) -> None:
    # the build directory recorded in the input does not exist here; --source-dir names where the sources are.
    # Oracle: the file's own text, written below. A tail of the recorded path is found inside the search
    # directory (src/k.cl), a file in neither place is not, and a hostile .file naming /etc/passwd (or a ".."
    # leading out of the search directory) is never read, although the search directory exists.
    tree = tmp_path / "checkout"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "k.cl").write_text("".join(f"int k{n};\n" for n in range(1, 10)))
    (tmp_path / "outside.cl").write_text("".join(f"CANARY {n}\n" for n in range(1, 10)))
    work = tmp_path / "input"
    work.mkdir()
    path = work / "k.s"
    path.write_text(ASM.replace('"/home/u/proj" "src/k.cl"', '"/nonexistent/build" "src/k.cl"'))

    def texts(*args: str) -> dict[str, str | None]:
        from isalens.cli import main
        assert main(["analyze", str(path), "--json", *args]) == 0
        doc = json.loads(capsys.readouterr().out)
        return {f"{r['file']}:{r['line']}": r["text"] for r in doc["files"][0]["kernels"][0]["source_lines"]}

    assert texts()["/nonexistent/build/src/k.cl:3"] is None  # not beside the input: no text without a search dir
    found = texts("--source-dir", str(tmp_path), "--source-dir", str(tree))
    assert found["/nonexistent/build/src/k.cl:3"] == "int k3;"  # the second directory has it
    assert found["/nonexistent/build/src/k.cl:9"] == "int k9;"
    assert found["/nonexistent/build/inc/helper.h:7"] is None  # in neither directory
    for hostile in ('"/etc" "passwd"', f'"{tree}" "../outside.cl"'):
        path.write_text(ASM.replace('"/home/u/proj" "src/k.cl"', hostile))
        got = texts("--source-dir", str(tree))
        assert "CANARY" not in str(got) and "root:" not in str(got), hostile
        assert set(got.values()) == {None}


def test_source_dir_must_be_a_directory(tmp_path: Path, capsys: Any) -> None:
    from isalens.cli import main
    path = tmp_path / "k.s"
    path.write_text(ASM)
    assert main(["livereg", str(path), "--source-dir", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--source-dir" in err[0] and "not a directory" in err[0]


def test_lines_without_text_are_one_warning_per_file(tmp_path: Path, capsys: Any) -> None:
    # issue 27 item 5: a source file not on disk is one warning naming the file and the input line of the first
    # instruction its lines hold (by hand from ASM: s_load_dword, input line 7, is k.cl:3; v_mov_b32, line 9,
    # is helper.h:7); a file found but shorter than the lines named is one warning at the first instruction of
    # a missing line (s_endpgm, input line 14, is k.cl:9); a file found whole gives none. No figure changes.
    work = tmp_path / "input"
    work.mkdir()
    path = work / "k.s"
    path.write_text(ASM.replace('"/home/u/proj" "src/k.cl"', '"/nonexistent/build" "src/k.cl"'))
    tree = tmp_path / "checkout"
    (tree / "src").mkdir(parents=True)

    def run(*args: str) -> dict[str, Any]:
        from isalens.cli import main
        assert main(["analyze", str(path), "--json", *args]) == 0
        doc: dict[str, Any] = json.loads(capsys.readouterr().out)["files"][0]
        return doc

    def warnings(doc: dict[str, Any]) -> list[tuple[int, str]]:
        return sorted((d["line"], d["message"]) for d in doc["diagnostics"] if d["code"] == "source-text")

    none_found = run()
    got = warnings(none_found)
    assert [line for line, _ in got] == [7, 9], got
    assert "/nonexistent/build/src/k.cl is not found" in got[0][1] and "helper.h is not found" in got[1][1]
    (tree / "src" / "k.cl").write_text("".join(f"int k{n};\n" for n in range(1, 10)))  # lines 1-9: whole
    whole = run("--source-dir", str(tree))
    assert [line for line, _ in warnings(whole)] == [9]  # helper.h only
    (tree / "src" / "k.cl").write_text("".join(f"int k{n};\n" for n in range(1, 6)))  # 5 lines: 9 is past the end
    short = run("--source-dir", str(tree))
    got = warnings(short)
    assert [line for line, _ in got] == [9, 14] and "k.cl has no line 9" in got[1][1], got
    for doc in (whole, short):
        for key in ("vgpr", "sgpr", "occupancy", "lines"):
            assert doc["kernels"][0][key] == none_found["kernels"][0][key], key


def test_a_nul_byte_in_a_comment_is_text_and_before_one_is_binary(tmp_path: Path, capsys: Any) -> None:
    # LLVM writes each byte of a DW_OP_implicit_value as ".byte 0 ; " and the byte itself: a NUL in a comment is
    # still assembly; a NUL before any comment on its line (an ELF header, any binary) is a binary file
    from isalens.cli import main

    path = tmp_path / "k.s"
    path.write_bytes(VARS.encode().replace(b"\ts_endpgm\n", b"\ts_endpgm\n\t.byte\t0 ; \0\n\t.byte\t0 // \0\n"))
    assert main(["livereg", str(path), "--summary"]) == 0
    assert "peak" in capsys.readouterr().out
    path.write_bytes(VARS.encode().replace(b"\ts_endpgm\n", b"\ts_endpgm\0 ; \0\n"))
    assert main(["livereg", str(path), "--summary"]) == 2
    assert f"{path}:1: error: binary file" in capsys.readouterr().err


def test_asking_for_source_lines_of_an_input_without_them_says_so(capsys: Any) -> None:
    # --source (the listing with source lines) and --by-source on text without .loc/.file: one line says the
    # input carries none, rather than a listing that silently has no source in it
    from isalens.cli import main

    text = EXAMPLES / "isa" / "fp16_fp32.gfx902.s"
    for flag in ("--source", "--by-source"):
        assert main(["livereg", str(text), flag, "--summary"]) == 0
        assert "source lines: the input carries none" in capsys.readouterr().out, flag
    assert main(["livereg", str(text), "--summary"]) == 0
    assert "source lines:" not in capsys.readouterr().out


def test_source_table_columns_line_up_with_a_long_file_name() -> None:
    from isalens.report.text import source_table

    long_name = ASM.replace('"helper.h"', '"amd_device_functions_helper.h"')
    report = isalens.analyze(long_name).files[0].report
    assert report is not None
    (kernel,) = report.kernels
    header, *rows = list(source_table(kernel, None))[1:]
    # every row's instruction count ends where the header's "instr" does: the file column is as wide as its
    # widest name (amd_device_functions_helper.h:7, 31 characters), not a fixed 18
    end = header.index("instr") + len("instr")
    assert [r[end - 1] for r in rows] == ["3", "1", "1"]  # costliest first: helper.h:7's three instructions
    assert rows[0].split()[:3] == ["amd_device_functions_helper.h:7", "3", "12"]
