"""Mutation fuzzer over every isalens reader and command: hostile input must give a result or an
``IsalensError`` (exit code 2), never another exception, a hang, a memory blow-up or a disclosed file.

Text seeds are our own small inputs in every ISA format (below), the bundled examples and, when present,
clang's output for the compiled example corpus (``.cache/corpus``). Each text input is a seed mutated a few
times (spans deleted, duplicated or swapped, tokens spliced in from a dictionary of register, number and
directive spellings) and run through one *target*: the GCN readers and analyses (livereg and analyze reports
for every dialect), the VLIW readers (CAL, LLVM r600), isalens' own instruction decoder on hex words,
``decode --file``, or the command line with random flags.

File inputs start from seeds built at fuzz time (tools/fuzz_seeds.py): AMDGPU code objects clang-19 compiles,
offload bundles plain and compressed (CCOB v1-v3, zlib and zstd, bombs among them) and host ELF files with a
``.hip_fatbin`` section (tools/fuzz_binary.py), ``isalens scan`` results in Parquet and DuckDB, and budget
files (tools/fuzz_results.py); mutations know each structure (ELF headers, notes, metadata MessagePack,
symbols, bundle tables, Parquet footers). They run the real commands in-process: ``list`` (target ``list``);
``livereg``, ``analyze``, ``diff`` and ``check`` on binaries, llvm-objdump-19 included (``binary``);
``diff``, ``check`` and ``query`` on results (``result``); ``check --budget`` (``budget``). Besides the exit
code, no output may show the *canary*, a file outside the input's directory that hostile inputs try to read,
``query`` may write no file, and CSV cells may not start like a spreadsheet formula.

Each input runs in a worker process (spawned: it shares no DuckDB or Arrow threads with its parent) with an
address-space ceiling and a peak-RSS limit on it and its children (measured by the worker, watched by the
parent, which kills a worker over the limit or over the hang limit: CPU seconds, or wall seconds scaled by the
load average, so a loaded machine does not turn slow inputs into hangs). A failure (uncaught exception, broken
rule, hang, memory blow-up) is minimised (recipe steps, then lines and characters) and saved under ``--out``.
Run by hand, under nice, for long campaigns:

    nice -n 10 .venv/bin/python tools/fuzz.py --count 500000 --seed 1 --out fuzz-failures

The test suite runs a fixed-seed run of every target (tests/property/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import io
import json
import multiprocessing as mp
import os
import random
import resource
import shlex
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the helpers are imported as tools.*
    sys.path.insert(0, str(ROOT))

from tools.fuzz_binary import binary_recipe, build_binary, describe  # noqa: E402
from tools.fuzz_mutate import mutate_text  # noqa: E402
from tools.fuzz_results import (  # noqa: E402
    CANARY_TOKEN,
    GOOD_BUDGET,
    budget_recipe,
    build_budget,
    build_result,
    result_recipe,
)

if TYPE_CHECKING:
    from tools.fuzz_seeds import FileSeeds

HANG_SECONDS = 5.0
#: file targets (llvm-objdump, DuckDB) get this many times the hang limit
SLOW_FACTOR = 3.0
MEMORY_BYTES = 500 * 1024 * 1024
#: the address-space ceiling lies this far over the RSS limit: DuckDB and Arrow reserve about 1 GiB of address
#: space they never touch, so the ceiling only stops a runaway before the RSS watch does; peak RSS is the measure
ADDRESS_SPACE_MARGIN = 3 << 30
#: ``--max-input-size`` of file targets: decompressing up to the cap is allowed, so it stays well under the limit
INPUT_CAP = "64M"
#: a worker whose RSS stays above this share of the limit after an input is restarted (caches grow over a run)
RECYCLE_SHARE = 0.6

# ----------------------------------------------------------------------------------------------- seeds

_LLVM_SEED = """\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.text
\t.globl k
\t.p2align 8
\t.type k,@function
k:
\ts_load_dwordx2 s[0:1], s[4:5], 0x0
\tv_lshlrev_b32_e32 v1, 2, v0
\ts_waitcnt lgkmcnt(0)
\tds_read_b32 v2, v1 offset:16
\tv_mov_b32_e32 v3, 0x3f800000
.LBB0_1:
\tv_add_f32_e32 v2, v2, v3
\ts_add_i32 s2, s2, -1
\ts_cmp_lg_u32 s2, 0
\ts_cbranch_scc1 .LBB0_1
\tv_pk_add_f16 v4, v2, v3 op_sel:[1,0]
\tv_mfma_f32_4x4x1f32 a[0:3], v2, v3, a[0:3]
\tglobal_store_dword v1, v2, s[0:1]
\ts_endpgm
.Lfunc_end0:
\t.size k, .Lfunc_end0-k
\t.amdgpu_metadata
---
amdhsa.kernels:
  - .name: k
    .reqd_workgroup_size: [ 64, 1, 1 ]
    .vgpr_count: 8
    .wavefront_size: 64
    .symbol: k.kd
...
\t.end_amdgpu_metadata
"""

_BARE_SEED = """v_add_f32 v0, v1, v2
label: v_mul_f32 v1, -|v0|, v2
v_lshlrev_b32 v1, 0x7fffffff, v0
ds_read2_b32 v[4:5], v1 offset0:1 offset1:2
s_cbranch_execz label
v_add_co_u32 v6, vcc, v1, v0
v_cndmask_b32 v7, v6, v4, vcc
image_sample v[8:11], [v4, v5, v6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
s_nop 010
s_endpgm
"""

_LISTING_SEED = """  s_mov_b32     s0, s2                            // 000000000000: BE800002
  v_lshlrev_b32  v1, 2, v0                        // 000000000004: 24020082
label_0008:
  ds_read_b32   v2, v1                            // 000000000008: D86C0000 02000001
  s_waitcnt     lgkmcnt(0)                        // 000000000010: BF8CC07F
  v_add_f32     v2, v2, v2                        // 000000000014: 02040502
  s_cbranch_scc1  label_0008                      // 000000000018: BF85FFFB
  s_endpgm                                        // 00000000001C: BF810000
"""

_OBJDUMP_SEED = """
k.o:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000000000 <k>:
\tv_lshlrev_b32_e32 v1, 2, v0                                // 000000000000: 24020082
\tds_read_b32 v2, v1                                         // 000000000004: D86C0000 02000001
\ts_waitcnt lgkmcnt(0)                                       // 00000000000C: BF8CC07F
\ts_cbranch_scc1 65533                                       // 000000000010: BF85FFFD
\ts_endpgm                                                   // 000000000014: BF810000
"""

_ACO_SEED = """BB0:
\tv_lshlrev_b32_e32 v1, 2, v0                                 ; 24020082
\tds_read_b32 v2, v1                                          ; d86c0000 02000001
\ts_waitcnt lgkmcnt(0)                                        ; bf8cc07f
BB1:
\tv_add_f32_e32 v2, v2, v2                                    ; 02040502
\ts_cbranch_scc1 BB1                                          ; bf85fffe
\ts_endpgm                                                    ; bf810000
"""

_CAL_SEED = """; --------  Disassembly --------------------
00 TEX: ADDR(48) CNT(1) VALID_PIX
      0  SAMPLE R1, R0.xyxx, t0, s0
01 ALU: ADDR(32) CNT(6)
      1  x: MULADD      R0.x,  R1.x,  C0.x,  0.5f
         y: MUL         ____,  R1.y,  R1.y
         z: ADD         R0.z,  PV1.y,  1.0f
         t: RCP_e       R0.w,  R1.w
      2  x: DOT4        ____,  R0.x,  R0.x
         w: MOV         R2.w,  (0x3F800000, 1.0f).x
02 LOOP_DX10 i0 FAIL_JUMP_ADDR(4)
03 ENDLOOP i0 PASS_JUMP_ADDR(3)
04 EXP_DONE: PIX0, R0
END_OF_PROGRAM
"""

_R600_LLVM_SEED = """\t.text
\t.globl k
\t.type k,@function
k:
ALU 4, @2, KC0[CB0:0-32], KC1[]
\tMOV * T0.X, KC0[2].Y,
\tADD_INT T0.Y, KC0[2].Z, literal.x,
\tMULADD_IEEE * T1.X, T0.X, T0.Y, 0.5,
\t4(5.605194e-45), 0(0.000000e+00)
\tEND_OF_PROGRAM
.Lfunc_end0:
\t.size k, .Lfunc_end0-k
"""

_WORDS_SEED = "D86C0000 02000001 24020082 BF8CC07F 7E000280 BF810000"

#: spellings spliced into inputs: registers, numbers at the edges, syntax and directive fragments
TOKENS = (
    "v0", "v255", "v256", "a256", "s127", "s[0:1]", "v[0:9999999999]", "v[4:3]", "v[", "]", "(", ")", "((v1))",
    "v-1", "-|v2|", "|", "abs(", "neg(", "vcc", "exec", "ttmp16", "m0", "scc", "0x7fffffff", "-1", "010", "09",
    "0b101", "1e999", "nan", "inf", "99999999999999999999999999", "0x" + "f" * 40, "-", ",", ", ,", ":", "::",
    "offset:", "offset:65536", "op_sel:[1,0", "label:", "x:", ".LBB0_1", ".Lfunc_end0:", "s_endpgm", "s_nop",
    "v_lshlrev_b32 v1, -1, v0", "ds_read_b32 v2, v1", "s_cbranch_scc1", "\ufeff", "\t", "\n", "\r\n", "//", ";",
    "#", "\u2028", "</script>", "<!--<script", "]]>", ".reqd_workgroup_size: [ 8, 8, 1 ]", ".wavefront_size: 32",
    ".amdhsa_kernel k", ".end_amdhsa_kernel", ".amdgpu_metadata", ".end_amdgpu_metadata", "---", "- ",
    "CNT(9999999)", "ADDR(", "ALU:", "x:", "t:", "PV1.x", "PS2", "literal.x", "KC0[2].Y", "LOOP_DX10 i0",
    "ENDLOOP", "JUMP", "POP_CNT(", "R127.x", "C9999.x", "FFFFFFFF", "00000000", "BF810000", "\0",
    ".amdhsa_user_sgpr_count 4294967296", ".amdhsa_next_free_vgpr 18446744073709551616",
)


def _builtin_seeds() -> list[tuple[str, str]]:
    return [("gcn", _LLVM_SEED), ("gcn", _BARE_SEED), ("gcn", _LISTING_SEED), ("gcn", _OBJDUMP_SEED),
            ("gcn", _ACO_SEED), ("vliw", _CAL_SEED), ("vliw", _R600_LLVM_SEED), ("words", _WORDS_SEED)]


def load_seeds(max_lines: int = 60, corpus_limit: int = 30) -> list[tuple[str, str]]:
    """(kind, text) seeds: the built-in ones, the bundled examples and some compiled corpus files."""
    seeds = _builtin_seeds()
    for path in sorted((ROOT / "examples" / "vliw").glob("*.isa")):
        seeds.append(("vliw", "\n".join(path.read_text("utf-8").splitlines()[:max_lines]) + "\n"))
    for path in sorted((ROOT / "examples" / "isa").glob("*.s")):
        seeds.append(("gcn", "\n".join(path.read_text("utf-8").splitlines()[:max_lines]) + "\n"))
    corpus = ROOT / ".cache" / "corpus"
    if corpus.is_dir():
        small = []
        for path in sorted(corpus.glob("*/clang.s")):
            try:
                text = path.read_text("utf-8", errors="replace")
            except OSError:  # the shared cache is rebuilt while we read it
                continue
            if sum(1 for line in text.splitlines() if line[:1] == "\t" and line[1:2].isalpha()) <= max_lines:
                small.append(text)  # few instructions (directives and metadata cost little)
        # one spread across targets and kernels, the same for a given corpus
        seeds.extend(("gcn", t) for t in small[:: max(1, len(small) // corpus_limit)][:corpus_limit])
    return seeds


# ----------------------------------------------------------------------------------------------- mutation

def mutate(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """``text`` after one to four random edits (tools/fuzz_mutate.py) with the ISA token dictionary."""
    return mutate_text(text, rng, TOKENS, rounds)


@dataclass(frozen=True, slots=True)
class Case:
    """One fuzz input: which target runs it, the text (text targets) and the flags. File targets write ``files``
    (name, bytes) and ``links`` (name, target; ``fifo:`` makes a FIFO) into a fresh directory; ``input`` names
    the file the mutations made, from ``recipe`` (steps: tools/fuzz_binary.py); ``args`` may say ``@DIR@`` (that
    directory) and ``@INPUT@``."""

    target: str
    text: str = ""
    args: tuple[str, ...] = ()
    files: tuple[tuple[str, bytes], ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    input: str = ""
    recipe: tuple[tuple[str, int], ...] = ()


_FLAG_CHOICES = (
    ("--arch", ("gfx902", "gfx90a", "gfx1100", "raven", "gfx9999", "")), ("--wave", ("32", "64", "48")),
    ("--dialect", ("llvm", "objdump", "listing", "aco", "bare", "cal")), ("--kernel", ("k", "nope")),
    ("--ignore-unknown", ()), ("--json", ()), ("--longest", ("0", "-1", "99999999999")), ("--summary", ()),
    ("--reg", ("vgpr", "sgpr", "agpr")), ("--rga", ()),
)


_ARCHS = ("gfx902", "gfx90a", "gfx1030", "gfx1100", "gfx942", "gfx1200")

TEXT_TARGETS = ("gcn", "vliw", "words", "cli", "decode_file")
FILE_TARGETS = ("list", "binary", "result", "budget")
#: share of file inputs when no target is given, and how they split (by count: a ``binary`` input runs
#: llvm-objdump and costs several ``list`` inputs)
FILE_SHARE = 0.4
_FILE_WEIGHTS = {"list": 4, "binary": 2, "result": 3, "budget": 2}
_KERNELS = ("saxpy", "tile", "calls", "axpy", "t*", "*", "nope", "poly", "_Z*")
#: --target values: mostly the two a HIP seed holds (without one, a two-target bundle is refused at once)
_PROCESSORS = ("gfx90a", "gfx1100", "gfx90a", "gfx1100", "gfx1030", "gfx9999", "gfx700", "gfx90a:xnack-", "gfx942")
_QUERIES = (
    "select * from kernels", "select kernel, target, vgpr_requested from kernels order by 1",
    "select count(*), max(vgpr_requested), avg(occupancy_waves) from kernels",
    "select file, kernel, error from kernels",
    "select * from kernels where occupancy_waves < 4",
    # files the default must not reach (issue 25: external access off unless --allow-files)
    "select content from read_text('@CANARY@')", "select * from read_csv('@CANARY@', header = false)",
    "COPY (select 1 as x) TO '@DIR@/written.csv'", "ATTACH '@DIR@/attached.duckdb' AS other",
    "INSTALL httpfs", "LOAD httpfs",
)


def make_case(rng: random.Random, seeds: list[tuple[str, str]], target: str | None = None,
              files: FileSeeds | None = None) -> Case:
    """A mutated input for ``target``; without one, a file target for a share of inputs (when ``files`` are
    given), else by the seed's kind (the CLI for 5% of GCN inputs)."""
    if target is None and files is not None and rng.random() < FILE_SHARE:
        target = rng.choices(tuple(_FILE_WEIGHTS), tuple(_FILE_WEIGHTS.values()))[0]
    if target in FILE_TARGETS:
        if files is None:
            raise ValueError(f"target {target} needs the file seeds (tools.fuzz_seeds.load_file_seeds)")
        return _file_case(target, rng, files)
    if target is None:
        kind, seed = rng.choice(seeds)
        if kind == "gcn":
            roll = rng.random()
            target = "cli" if roll < 0.05 else "decode_file" if roll < 0.055 else "gcn"
        else:
            target = kind
    else:
        kind = {"cli": "gcn", "decode_file": "gcn"}.get(target, target)
        seed = rng.choice([text for k, text in seeds if k == kind])
    text = mutate(seed, rng)
    if target == "cli":
        args = []
        for flag, values in rng.sample(_FLAG_CHOICES, rng.randint(0, 4)):
            args.append(flag)
            if values:
                args.append(rng.choice(values))
        return Case("cli", text, (rng.choice(("livereg", "analyze")), *args))
    if target == "vliw":
        return Case("vliw", text)
    return Case(target, text, (rng.choice(_ARCHS),))


def _maybe(rng: random.Random, p: float, *args: str) -> tuple[str, ...]:
    return args if rng.random() < p else ()


def _binary_command(rng: random.Random, files: FileSeeds) -> tuple[tuple[str, ...], list[tuple[str, bytes]]]:
    """A command over the binary ``@INPUT@`` and the files it needs beside it."""
    command = rng.choices(("livereg", "analyze", "diff", "check"), (4, 4, 1, 1))[0]
    if command == "diff":
        return ("diff", "@DIR@/base.co", "@INPUT@", *_maybe(rng, 0.3, "--json")), [
            ("base.co", files.binary.code_objects[0][1])]
    if command == "check":
        return ("check", "@INPUT@", "--budget", "@DIR@/isalens.toml", *_maybe(rng, 0.3, "--json")), [
            ("isalens.toml", GOOD_BUDGET.encode())]
    flags = [*_maybe(rng, 0.4, "--kernel", rng.choice(_KERNELS)),
             *_maybe(rng, 0.5, "--target", rng.choice(_PROCESSORS)), *_maybe(rng, 0.3, "--json")]
    if command == "livereg":
        flags += _maybe(rng, 0.2, "--summary")
    else:
        flags += ["--jobs", "1", *_maybe(rng, 0.2, "--csv", "@DIR@/out.csv")]
    return (command, "@INPUT@", *flags), []


def _result_command(rng: random.Random, files: FileSeeds, where: str) -> tuple[tuple[str, ...],
                                                                                 list[tuple[str, bytes]]]:
    command = rng.choice(("diff", "check", "query"))
    if command == "diff":
        pair = ("@DIR@/base.parquet", where) if rng.random() < 0.7 else (where, "@DIR@/base.parquet")
        rules = _maybe(rng, 0.3, "--fail-on", "vgpr>+8,occupancy<,spills>0")
        return ("diff", *pair, *_maybe(rng, 0.2, "--json"), *rules), [("base.parquet", files.base_result)]
    if command == "check":
        return ("check", where, "--budget", "@DIR@/isalens.toml", *_maybe(rng, 0.3, "--json")), [
            ("isalens.toml", GOOD_BUDGET.encode())]
    return ("query", rng.choice(_QUERIES), "--scan", where, *rng.choice(((), ("--json",), ("--csv",)))), []


def _file_case(target: str, rng: random.Random, files: FileSeeds) -> Case:
    extra: list[tuple[str, bytes]] = []
    links: tuple[tuple[str, str], ...] = ()
    if target in ("list", "binary"):
        recipe = binary_recipe(rng, files.binary)
        if target == "list":
            args: tuple[str, ...] = ("list", "@INPUT@", *_maybe(rng, 0.3, "--json"))
        else:
            args, extra = _binary_command(rng, files)
        name = "input.co"
        if rng.random() < 0.01:  # the input is a device or a FIFO
            return Case(target, args=(*args, "--max-input-size", INPUT_CAP), files=tuple(extra), input=name,
                        links=((name, rng.choice(("/dev/zero", "/dev/stdin", "fifo:"))),))
        data = build_binary(recipe, files.binary)
    elif target == "result":
        recipe = result_recipe(rng, [n for n, _ in files.results])
        name, data = build_result(recipe, files.results)
        where = "@INPUT@"
        if name.endswith(".parquet") and rng.random() < 0.05:  # one shard of a directory of shards
            name, where = f"shards/{name}", "@DIR@/shards"
            extra.append(("shards/other.parquet", files.base_result))
        args, more = _result_command(rng, files, where)
        extra += more
    else:
        recipe = budget_recipe(rng)
        name, data = "isalens.toml", build_budget(recipe)
        extra += files.budget_files
        links = files.budget_links
        args = ("check", "--budget", "@INPUT@", *_maybe(rng, 0.3, "--json"), *_maybe(rng, 0.15, "@DIR@/r.parquet"))
    case = Case(target, args=(*args, "--max-input-size", INPUT_CAP), files=((name, data), *extra), links=links,
                input=name, recipe=recipe)
    return _with_canary(case, files)


def _with_canary(case: Case, files: FileSeeds) -> Case:
    """``case`` with ``@CANARY@`` in its arguments and files spelled as the canary file's path."""
    path = str(files.canary)
    return dataclasses.replace(case, args=tuple(a.replace("@CANARY@", path) for a in case.args),
                               files=tuple((n, d.replace(b"@CANARY@", path.encode())) for n, d in case.files))


def rebuild(case: Case, recipe: tuple[tuple[str, int], ...], files: FileSeeds) -> Case:
    """``case`` with its input made by ``recipe`` instead (for minimising)."""
    if case.target in ("list", "binary"):
        name, data = case.input, build_binary(recipe, files.binary)
    elif case.target == "result":
        built, data = build_result(recipe, files.results)
        name = case.input.rsplit("/", 1)[0] + "/" + built if "/" in case.input else built
    else:
        name, data = case.input, build_budget(recipe)
    return _with_canary(dataclasses.replace(case, recipe=recipe, input=name, files=((name, data), *case.files[1:])),
                        files)


# ----------------------------------------------------------------------------------------------- targets

class Verdict(Exception):
    """A run that broke a rule without raising: ``kind`` names the rule (and is the failure's signature)."""

    def __init__(self, kind: str, message: str = "") -> None:
        super().__init__(f"{kind}: {message}" if message else kind)
        self.kind = kind


def run_case(case: Case) -> str:
    """Run one input: "ok", or "rejected" for an IsalensError (the expected outcome for bad input)."""
    from isalens.errors import IsalensError

    try:
        _TARGETS[case.target](case)
    except IsalensError:
        return "rejected"
    return "ok"


def _gcn(case: Case) -> None:
    from isalens.engine.decode import kernel_stats
    from isalens.engine.load import load
    from isalens.ir.registers import RegFile
    from isalens.report.html import render_html
    from isalens.report.json import render_json
    from isalens.report.model import livereg_report
    from isalens.report.text import render_text

    module = load(case.text, case.args[0] if case.args else None)
    report = livereg_report([k.analyze() for k in module.kernels], file="fuzz", dialect=module.ir.dialect,
                            diagnostics=module.ir.diagnostics)
    json.loads(render_json(report))  # must be valid JSON
    if len(case.text) % 8 == 0:  # the renderers on one input in eight: they cost more than the analysis
        render_text(report, RegFile.VGPR, color=False, listing=True)
        render_html(report)
    for kernel in module.kernels:
        kernel_stats(kernel)


def _vliw(case: Case) -> None:
    from isalens.engine.vliw import analyze_vliw, load_vliw
    from isalens.report.vliw import render_vliw_json, render_vliw_text

    result = analyze_vliw(load_vliw(case.text), "hd4870")
    json.loads(render_vliw_json(result))
    render_vliw_text(result)


def _words(case: Case) -> None:
    from isalens.engine.decode import parse_words
    from isalens.engine.target import resolve_arch
    from isalens.isa.amdgcn.fields import DecodeError, decode

    spec = resolve_arch(case.args[0])
    words = parse_words(case.text.split())
    at = 0
    while at < len(words):
        try:
            decoded = decode(words[at:], spec.generation, spec.encoding_layout)
        except DecodeError:
            return  # isalens' own decoder names the word it cannot read; the CLI turns that into exit 2
        at += max(1, len(decoded.words))


def _text_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time, ends kept (csv needs them for quoted newlines).

    ``io.StringIO(text)`` would hold a 4-byte-per-character copy: 300 MB for the 76 MB CSV of an 80,000-row
    result, which the worker's memory limit then blamed on isalens (seed 3, case 44d7b70e3630).
    """
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


#: outputs larger than this are judged from their file, a block at a time, and not returned as text
_BIG_OUTPUT = 8 << 20
_BLOCK_CHARS = 1 << 20


def _main(argv: list[str], csv_out: bool = False) -> tuple[int, str, str]:
    """``isalens ARGV`` in this process: exit code, stdout, stderr.

    Stdout goes to a temporary file, as a user's redirect would: held in a ``StringIO`` (and copied by
    ``getvalue``), the 300 MB text table of an 80,000-row ``query`` counted 490 MB against isalens, which
    writes it in 205 MB (seed 31, case 44d7b70e3630). A big output is judged here from the file (the canary,
    CSV formula cells when ``csv_out``) and returned empty.
    """
    from isalens.cli import main

    err = io.StringIO()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogatepass", newline="") as out:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:  # argparse usage errors
                code = stop.code if isinstance(stop.code, int) else 2
        size = out.tell()
        out.seek(0)
        if size <= _BIG_OUTPUT:
            return code, out.read(), err.getvalue()
        _judge_big_output(argv, out, csv_out)
        return code, "", err.getvalue()


def _judge_big_output(argv: Sequence[str], out: TextIO, csv_out: bool) -> None:
    """The output rules of :func:`judge` over a file, a block at a time (blocks overlap by the canary's length)."""
    tail = ""
    while block := out.read(_BLOCK_CHARS):
        if CANARY_TOKEN in tail + block:
            raise Verdict("disclosure", f"the canary file's content reached the output of `isalens {argv[0]}`")
        tail = block[-len(CANARY_TOKEN):]
    if csv_out:
        import csv

        out.seek(0)
        for row in csv.reader(out):
            bad = next((cell for cell in row if _formula(cell)), None)
            if bad is not None:
                raise Verdict("CSV cell starts like a formula", repr(bad[:80]))


def _cli(case: Case) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.s"
        path.write_text(case.text, encoding="utf-8", errors="surrogatepass")
        code, _out, err = _main([case.args[0], str(path), *case.args[1:]])
        judge([case.args[0]], code, "", err)
    _rejected_if(code)


def _rejected_if(code: int) -> None:
    """Exit code 2 (bad input, said in one line) is the command-line form of an IsalensError."""
    if code == 2:
        from isalens.errors import IsalensError

        raise IsalensError("exit code 2")


def _decode_file(case: Case) -> None:
    from isalens.engine.decode import decode_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "listing.isa"
        path.write_text(case.text, encoding="utf-8", errors="surrogatepass")
        decode_file(path, case.args[0])


_EXIT_CODES = {"list": {0, 2}, "livereg": {0, 2}, "analyze": {0, 2}, "diff": {0, 1, 2}, "check": {0, 1, 2},
               "query": {0, 2}}


def _formula(cell: str) -> bool:
    """Whether a CSV cell starts the way spreadsheet guidance says to neutralise (a negative number may)."""
    if cell[:1] in ("=", "+", "@", "\t", "\r"):
        return True
    if cell[:1] == "-":
        try:
            float(cell)
        except ValueError:
            return True
    return False


def judge(argv: Sequence[str], code: int, out: str, err: str, *, where: str | None = None,
          csv_texts: Sequence[str] = (), wrote: Sequence[str] = ()) -> None:
    """Raise :class:`Verdict` when a command's run breaks a rule: an exit code it may not give, exit code 2
    without a message (or one naming no file under ``where``), a traceback, the canary's content in any
    output, a CSV cell starting like a formula, a file ``query`` wrote."""
    last = (err.strip().splitlines() or [""])[-1][:300]
    if code not in _EXIT_CODES.get(argv[0], {0, 2}):
        raise Verdict(f"exit code {code}", last)
    if code == 2 and not err.strip():
        raise Verdict("exit code 2 with an empty stderr")
    if "Traceback (most recent call last)" in err:
        raise Verdict("traceback on stderr", last)
    if any(CANARY_TOKEN in text for text in (out, err, *csv_texts)):
        raise Verdict("disclosure", f"the canary file's content reached the output of `isalens {argv[0]}`")
    if code == 2 and where is not None and where not in err:
        raise Verdict("message names no input file", last)
    import csv

    for text in csv_texts:
        for row in csv.reader(_text_lines(text)):
            bad = next((cell for cell in row if _formula(cell)), None)
            if bad is not None:
                raise Verdict("CSV cell starts like a formula", repr(bad[:80]))
    if wrote:
        raise Verdict(f"`isalens {argv[0]}` wrote a file", ", ".join(wrote))


def _files_target(case: Case) -> None:
    """Write the case's files into a fresh directory, run the command there, judge the outcome."""
    with tempfile.TemporaryDirectory(prefix="isalens-fuzz-") as tmp:
        base = Path(tmp)
        for name, data in case.files:
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            (base / name).write_bytes(data)
        for name, target in case.links:
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            if target == "fifo:":
                os.mkfifo(base / name)
            else:
                (base / name).symlink_to(target)
        before = {p for p in base.rglob("*")}
        argv = [a.replace("@INPUT@", str(base / case.input)).replace("@DIR@", str(base)) for a in case.args]
        cwd = os.getcwd()
        os.chdir(base)  # nothing a command writes by mistake lands in the caller's directory
        try:
            code, out, err = _main(argv, csv_out="--csv" in argv and argv[0] == "query")
        finally:
            os.chdir(cwd)
        csv_path = base / "out.csv"
        csv_texts = [out] if "--csv" in argv and argv[0] == "query" else []
        if "--csv" in argv and argv[0] == "analyze" and csv_path.is_file():
            csv_texts.append(csv_path.read_text("utf-8", "replace"))
        wrote = sorted(p.name for p in set(base.rglob("*")) - before) if argv[0] == "query" else []
        judge(argv, code, out, err, where=str(base), csv_texts=csv_texts, wrote=wrote)
    _rejected_if(code)


def _error(case: Case) -> None:
    [][1]


def _hang(case: Case) -> None:
    time.sleep(600)


def _spin(case: Case) -> None:
    while True:
        pass


def _memory(case: Case) -> None:
    hold = bytearray(int(case.text or 400 << 20))
    hold[::4096] = b"\1" * len(hold[::4096])


def _child_memory(case: Case) -> None:
    import subprocess

    subprocess.run([sys.executable, "-c", f"b = bytearray({int(case.text or 400 << 20)}); b[::4096] = b'1' * "
                    "len(b[::4096])"], check=False, stdin=subprocess.DEVNULL)


def _boom_if(case: Case) -> None:
    if "BOOM" in case.text:
        raise ValueError("boom")


_TARGETS: dict[str, Callable[[Case], None]] = {
    "gcn": _gcn, "vliw": _vliw, "words": _words, "cli": _cli, "decode_file": _decode_file,
    **dict.fromkeys(FILE_TARGETS, _files_target),
    # the harness's own checks (tests/property/test_fuzz.py), never chosen by a campaign
    "_error": _error, "_hang": _hang, "_spin": _spin, "_memory": _memory, "_child_memory": _child_memory,
    "_boom_if": _boom_if,
}
TARGETS = tuple(t for t in _TARGETS if not t.startswith("_"))


# ----------------------------------------------------------------------------------------------- workers

def _status_bytes(field: str, pid: int | str = "self") -> int:
    """A ``VmHWM``/``VmRSS`` figure of ``/proc/PID/status`` in bytes (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int | str, reaped: bool = False) -> float:
    """User + system seconds of ``pid`` (with ``reaped``: plus its waited-for children), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # after the name: state is field 3, utime/stime fields 14/15, cutime/cstime 16/17 (proc(5))
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if reaped else 0)
    return ticks / _TICK


def _tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid``, the children it reaped and the ones still running (llvm-objdump, clang)."""
    total = _cpu_seconds(pid, reaped=True)
    with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/task/{pid}/children") as children:
        total += sum(_cpu_seconds(int(child), reaped=True) for child in children.read().split())
    return total


def _load_factor() -> float:
    """How many times longer a program takes in wall time on this machine now than alone (>= 1)."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def _tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and its children (llvm-objdump, clang)."""
    total = _status_bytes("VmRSS", pid)
    with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/task/{pid}/children") as children:
        total += sum(_status_bytes("VmRSS", int(child)) for child in children.read().split())
    return total


def _reset_peak() -> None:
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # resets VmHWM to the current RSS (Linux 4.0+)


def _children_peak() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


def _where(exc: BaseException) -> str:
    """``Type at our_file.py:LINE (raised in lib.py:LINE): message``: our last frame is the crash site."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/isalens/" in f.filename.replace("\\", "/")]
    where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
    inner = frames[-1] if frames else None
    via = f" (raised in {Path(inner.filename).name}:{inner.lineno})" if inner and ours and inner != ours[-1] else ""
    return f"{type(exc).__name__} at {where}{via}: {str(exc)[:200]}"


_STDIN_WRITER: int | None = None


def _worker(conn: Connection, memory: int) -> None:
    global _STDIN_WRITER
    os.setsid()  # its own process group: stopping it stops the programs it started too
    resource.setrlimit(resource.RLIMIT_AS, (memory + ADDRESS_SPACE_MARGIN, memory + ADDRESS_SPACE_MARGIN))
    os.environ["ISALENS_DEBUG"] = "1"  # the CLI re-raises what would be exit code 3: the worker says where
    # stdin is a pipe nobody writes to, as in CI: whatever reads it (/dev/stdin, a child) waits, and is a hang
    read, _STDIN_WRITER = os.pipe()
    os.dup2(read, 0)
    os.close(read)
    import isalens.cli  # noqa: F401 - import once, before the first timed input

    conn.send("ready")
    children = _children_peak()
    while True:
        case = conn.recv()
        if case is None:
            return
        _reset_peak()
        try:
            outcome, detail = run_case(case), ""
        except MemoryError:
            outcome, detail = "memory", "MemoryError"
        except Verdict as verdict:
            outcome, detail = "error", str(verdict)
        except Exception as exc:  # the very thing we hunt: any other exception is a bug
            outcome, detail = "error", _where(exc)
        peak, kids = _status_bytes("VmHWM"), _children_peak()
        if outcome in ("ok", "rejected") and peak > memory:
            outcome, detail = "memory", f"peak RSS over the limit: {peak >> 20} MiB"
        elif outcome in ("ok", "rejected") and kids > max(memory, children):
            outcome, detail = "memory", f"a child's peak RSS over the limit: {kids >> 20} MiB"
        children = max(children, kids)
        conn.send((outcome, detail, _status_bytes("VmRSS")))


class Runner:
    """A worker process that runs cases with a memory limit, restarted after a hang, a crash or a blow-up."""

    def __init__(self, hang_seconds: float = HANG_SECONDS, memory: int = MEMORY_BYTES) -> None:
        self.hang_seconds = hang_seconds
        self.memory = memory
        self._start()

    def _start(self) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, self.memory), daemon=True)
        self.proc.start()
        child.close()  # the worker's end lives in the worker only: its death is an EOF here
        if not self.conn.poll(300) or self.conn.recv() != "ready":
            raise RuntimeError("the fuzz worker did not start")

    def run(self, case: Case) -> tuple[str, str]:
        """("ok" | "rejected" | "error" | "memory" | "hang" | "crash", detail)."""
        hang = self.hang_seconds * (SLOW_FACTOR if case.target in FILE_TARGETS else 1)
        try:
            self.conn.send(case)
        except OSError:  # it died after its last answer
            self.restart()
            self.conn.send(case)
        # A hang is judged on the program's own time: more than the limit of CPU seconds (a loop), or more than
        # the limit of wall time scaled by the machine's load (a wait: it never ends, so it is caught either
        # way). On a shared, loaded machine a wall clock alone called slow-but-finite inputs hangs.
        pid = self.proc.pid or 0
        start, start_cpu = time.monotonic(), _tree_cpu(pid)
        while not self.conn.poll(0.02):
            wall, cpu = time.monotonic() - start, _tree_cpu(pid) - start_cpu
            if cpu > hang or wall > hang * _load_factor():
                self.restart()
                return "hang", f"no answer in {hang:g} s ({cpu:.1f} s CPU, {wall:.0f} s wall)"
            rss = _tree_rss(pid)
            if rss > self.memory:
                self.restart()
                return "memory", f"RSS over the limit: {rss >> 20} MiB (stopped)"
        try:
            outcome, detail, rss = self.conn.recv()
        except (EOFError, OSError):
            self.proc.join(5)
            code = self.proc.exitcode
            self.restart()
            return ("memory" if code in (-9, -6) else "crash"), f"worker died (exit {code})"
        if rss > self.memory * RECYCLE_SHARE:
            self.restart()
        return outcome, detail

    def _stop(self) -> None:
        """Kill the worker and whatever it started (its process group)."""
        if self.proc.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.kill()
        self.proc.join()

    def restart(self) -> None:
        self._stop()
        self.conn.close()
        self._start()

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.proc.join(5)
        self._stop()


# ----------------------------------------------------------------------------------------------- minimising

def signature(detail: str) -> str:
    """What identifies a failure: the detail before its message (``ValueError at parser.py:40``)."""
    return detail.split(": ", 1)[0]


def _same_failure(outcome: str, detail: str, got: str, got_detail: str) -> bool:
    return got == outcome and (outcome in ("hang", "memory", "crash") or signature(got_detail) == signature(detail))


def shrink_text(text: str, fails: Callable[[str], bool], exhausted: Callable[[], bool] = lambda: False) -> str:
    """A smaller text for which ``fails`` still holds: lines dropped, then characters (until ``exhausted``)."""
    for unit in ("\n", ""):
        parts = text.split("\n") if unit else list(text)
        chunk = max(1, len(parts) // 2)
        while chunk >= 1 and not exhausted():
            i = 0
            while i < len(parts) and not exhausted():
                trial = parts[:i] + parts[i + chunk:]
                if trial and fails(unit.join(trial)):
                    parts = trial
                else:
                    i += chunk
            chunk //= 2
        text = unit.join(parts)
    return text


def drop_steps(case: Case, fails: Callable[[Case], bool],
               remake: Callable[[tuple[tuple[str, int], ...]], Case]) -> Case:
    """``case`` with every recipe step (but the first) it fails without left out, last steps first."""
    i = len(case.recipe) - 1
    while i >= 1:
        trial = case.recipe[:i] + case.recipe[i + 1:]
        candidate = remake(trial)
        if fails(candidate):
            case = candidate
        i -= 1
    return case


def minimise(case: Case, runner: Runner, outcome: str, detail: str, budget: int = 400,
             files: FileSeeds | None = None, seconds: float = 180.0) -> Case:
    """A smaller input with the same failure: recipe steps dropped, then lines and characters of text inputs,
    within ``budget`` runs and ``seconds``."""
    deadline = time.monotonic() + seconds
    left = [budget]

    def exhausted() -> bool:
        return left[0] <= 0 or time.monotonic() > deadline

    def fails(candidate: Case) -> bool:
        if exhausted():
            return False
        left[0] -= 1
        return _same_failure(outcome, detail, *runner.run(candidate))

    if case.recipe and files is not None:
        seeds = files
        case = drop_steps(case, fails, lambda recipe: rebuild(case, recipe, seeds))
    if case.target == "budget" and case.files:
        name, data = case.files[0]

        def budget_fails(text: str) -> bool:
            return fails(dataclasses.replace(case, files=((name, text.encode("utf-8", "surrogateescape")),
                                                          *case.files[1:])))

        text = shrink_text(data.decode("utf-8", "surrogateescape"), budget_fails, exhausted)
        return dataclasses.replace(case, files=((name, text.encode("utf-8", "surrogateescape")), *case.files[1:]))
    if case.target in FILE_TARGETS:
        return case
    return dataclasses.replace(case, text=shrink_text(case.text, lambda t: fails(dataclasses.replace(case, text=t)),
                                                      exhausted))


def save(case: Case, outcome: str, detail: str, original: Case, out: Path, name: str) -> Path:
    """Save a failure: ``NAME.json`` for text inputs; for file inputs a directory ``NAME/`` holding the files and
    ``case.json`` (outcome, the command to run there, the recipe)."""
    out.mkdir(parents=True, exist_ok=True)
    if case.target not in FILE_TARGETS:
        path = out / f"{name}.json"
        path.write_text(json.dumps({"outcome": outcome, "detail": detail, "target": case.target, "args": case.args,
                                    "text": case.text, "original": original.text}, indent=1))
        return path
    folder = out / name
    folder.mkdir(exist_ok=True)
    for file, data in case.files:
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_bytes(data)
    for file, target in case.links:
        with contextlib.suppress(OSError):
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            if target == "fifo:":
                os.mkfifo(folder / file)
            else:
                (folder / file).symlink_to(target)
    argv = [a.replace("@INPUT@", case.input).replace("@DIR@", ".") for a in case.args]
    (folder / "case.json").write_text(json.dumps({
        "outcome": outcome, "detail": detail, "target": case.target, "command": "isalens " + shlex.join(argv),
        "input": case.input, "made_by": describe(case.recipe), "recipe": case.recipe,
        "original_made_by": describe(original.recipe)}, indent=1))
    return folder


# ----------------------------------------------------------------------------------------------- campaigns

def cases(count: int, seed: int, targets: Sequence[str] | None = None,
          files: FileSeeds | None = None) -> Iterator[Case]:
    """``count`` inputs from ``seed`` (the same arguments give the same inputs), for ``targets`` (default: all,
    the file targets only with ``files``)."""
    rng = random.Random(seed)
    seeds = load_seeds()
    for _ in range(count):
        yield make_case(rng, seeds, rng.choice(targets) if targets else None, files)


@dataclass
class Tally:
    """What one campaign saw."""

    outcomes: Counter[str]
    by_target: Counter[str]
    slowest: tuple[float, str]
    failures: list[str]
    #: outcomes per target
    target_outcomes: dict[str, Counter[str]] = dataclasses.field(default_factory=dict)


def campaign(count: int, seed: int, out: Path, hang: float = HANG_SECONDS, memory: int = MEMORY_BYTES,
             progress: int = 0, label: str = "", *, targets: Sequence[str] | None = None,
             files: FileSeeds | None = None, runner: Runner | None = None, minimise_budget: int = 400,
             minimise_seconds: float = 180.0) -> Tally:
    """Run ``count`` inputs from ``seed``; save each new kind of failure, minimised, under ``out``."""
    own = runner is None
    worker = Runner(hang, memory) if runner is None else runner
    tally = Tally(Counter(), Counter(), (0.0, ""), [])
    seen: set[str] = set()
    start = time.monotonic()
    try:
        for n, case in enumerate(cases(count, seed, targets, files), start=1):
            t0 = time.monotonic()
            outcome, detail = worker.run(case)
            took = time.monotonic() - t0
            if took > tally.slowest[0]:
                tally.slowest = (took, case.target)
            tally.outcomes[outcome] += 1
            tally.by_target[case.target] += 1
            tally.target_outcomes.setdefault(case.target, Counter())[outcome] += 1
            if outcome not in ("ok", "rejected"):
                key = f"{outcome} {case.target} {signature(detail) if outcome == 'error' else ''}".strip()
                if key not in seen:
                    seen.add(key)
                    small = minimise(case, worker, outcome, detail, minimise_budget, files, minimise_seconds)
                    name = hashlib.sha1(key.encode()).hexdigest()[:12]
                    where = save(small, outcome, detail, case, out, name)
                    what = f" [{describe(small.recipe)}]" if small.recipe else ""
                    tally.failures.append(f"{outcome} {case.target}: {detail}{what} -> {where}")
                    print(f"{label}FAIL {tally.failures[-1]}", flush=True)
            if progress and n % progress == 0:
                print(f"{label}{n} inputs, {time.monotonic() - start:.0f} s, {dict(tally.outcomes)}", flush=True)
    finally:
        if own:
            worker.close()
    return tally


def _campaign_process(queue: Any, *args: Any, **kwargs: Any) -> None:
    queue.put(campaign(*args, **kwargs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200_000, help="inputs to run in all (default 200,000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (the same seed gives the same inputs)")
    parser.add_argument("--jobs", type=int, default=1, help="campaigns in parallel (job k uses seed + k)")
    parser.add_argument("--out", type=Path, default=ROOT / "fuzz-failures", help="where failing inputs are saved")
    parser.add_argument("--hang", type=float, default=HANG_SECONDS,
                        help=f"seconds before an input counts as a hang (file targets: {SLOW_FACTOR:g} times)")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_BYTES // 2**20, help="peak RSS limit, MB")
    parser.add_argument("--progress", type=int, default=10_000, help="print a line every N inputs (per job)")
    parser.add_argument("--targets", help=f"comma-separated targets (default: all of {', '.join(TARGETS)})")
    parser.add_argument("--text-only", action="store_true", help="no file targets (no seeds built)")
    args = parser.parse_args(argv)

    targets = [t.strip() for t in args.targets.split(",")] if args.targets else None
    unknown = [t for t in targets or () if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)} (choose from {', '.join(TARGETS)})")
    files = None
    if not args.text_only and (targets is None or set(targets) & set(FILE_TARGETS)):
        from tools.fuzz_seeds import load_file_seeds

        files = load_file_seeds()
        if files is None:
            print("fuzz: no clang-19 (or no pyarrow/duckdb/pyelftools/msgpack): text targets only", flush=True)
            targets = [t for t in targets or TEXT_TARGETS if t in TEXT_TARGETS]
        else:
            print(f"fuzz: file seeds in {files.root}", flush=True)
    memory = args.memory_mb * 2**20
    start = time.monotonic()
    shares = [args.count // args.jobs + (1 if k < args.count % args.jobs else 0) for k in range(args.jobs)]
    options = {"targets": targets, "files": files}
    if args.jobs == 1:
        tallies = [campaign(args.count, args.seed, args.out, args.hang, memory, args.progress, **options)]
    else:
        ctx = mp.get_context("fork")
        queue: Any = ctx.Queue()
        procs = [ctx.Process(target=_campaign_process, args=(queue, share, args.seed + k, args.out, args.hang,
                                                               memory, args.progress, f"[job {k}] "), kwargs=options)
                 for k, share in enumerate(shares)]
        for proc in procs:
            proc.start()
        tallies = [queue.get() for _ in procs]
        for proc in procs:
            proc.join()
    elapsed = time.monotonic() - start
    outcomes: Counter[str] = sum((t.outcomes for t in tallies), Counter())
    by_target: Counter[str] = sum((t.by_target for t in tallies), Counter())
    slowest = max(t.slowest for t in tallies)
    bad = {k: v for k, v in outcomes.items() if k not in ("ok", "rejected")}
    seeds = f"seed {args.seed}" if args.jobs == 1 else f"seeds {args.seed}-{args.seed + args.jobs - 1}"
    print(f"fuzz: {sum(outcomes.values())} inputs in {elapsed:.0f} s ({seeds}; "
          f"{', '.join(f'{k} {v}' for k, v in sorted(by_target.items()))}; analysed {outcomes['ok']}, "
          f"rejected with a clear error {outcomes['rejected']}); internal errors "
          f"{bad.get('error', 0) + bad.get('crash', 0)}, hangs {bad.get('hang', 0)}, memory blow-ups "
          f"{bad.get('memory', 0)}; slowest input {slowest[0]:.2f} s ({slowest[1]})")
    for tally in tallies:
        for failure in tally.failures:
            print(f"  {failure}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
