"""Mutation fuzzer over every isalens reader and command: hostile input must give a result or an
``IsalensError`` (exit code 2), never another exception, a hang or a memory blow-up.

Seeds are our own small inputs in every format (below), the bundled examples and, when present, clang's
output for the compiled example corpus (``.cache/corpus``). Each input is a seed mutated a few times
(spans deleted, duplicated or swapped, tokens spliced in from a dictionary of register, number and
directive spellings) and run through one *target*: the GCN readers and analyses (livereg and analyze
reports for every dialect), the VLIW readers (CAL, LLVM r600), isalens' own instruction decoder on hex
words, or the command line with random flags.

Inputs run in a worker process with an address-space ceiling; the parent kills a worker that takes longer
than the hang limit. A failure (uncaught exception, hang, memory blow-up) is minimised (lines, then
characters) and saved under ``--out``. Run by hand, under nice, for long campaigns:

    nice -n 10 .venv/bin/python tools/fuzz.py --count 200000 --seed 1 --out fuzz-failures

The test suite runs a bounded number of the same inputs (tests/property/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import multiprocessing as mp
import random
import resource
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HANG_SECONDS = 5.0
MEMORY_BYTES = 500 * 1024 * 1024

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
    """``text`` after one to four random edits."""
    for _ in range(rounds if rounds is not None else rng.choice((1, 1, 1, 2, 2, 3, 4))):
        if not text:
            text = rng.choice(TOKENS)
            continue
        kind = rng.randrange(8)
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randint(1, 24))
        if kind == 0:  # delete a span
            text = text[:i] + text[j:]
        elif kind == 1:  # splice in a token
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif kind == 2:  # replace a span with a token
            text = text[:i] + rng.choice(TOKENS) + text[j:]
        elif kind == 3:  # duplicate a span
            text = text[:j] + text[i:j] + text[j:]
        elif kind == 4:  # change a digit
            digits = [k for k in range(max(0, i - 40), min(len(text), i + 40)) if text[k].isdigit()]
            if digits:
                k = rng.choice(digits)
                text = text[:k] + rng.choice("0123456789") + text[k + 1:]
        elif kind == 5:  # swap or drop whole lines
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            if rng.random() < 0.5:
                lines[a], lines[b] = lines[b], lines[a]
            else:
                del lines[a]
            text = "\n".join(lines)
        elif kind == 6:  # truncate
            text = text[:i]
        else:  # a random byte
            char = chr(rng.choice((0, 9, 10, 13, 32, 0x7F, 0xA0, 0xFEFF, rng.randrange(32, 0x250))))
            text = text[:i] + char + text[j:]
    return text


@dataclass(frozen=True, slots=True)
class Case:
    """One fuzz input: which target runs it, the text and the flags (for the CLI target)."""

    target: str
    text: str
    args: tuple[str, ...] = ()


_FLAG_CHOICES = (
    ("--arch", ("gfx902", "gfx90a", "gfx1100", "raven", "gfx9999", "")), ("--wave", ("32", "64", "48")),
    ("--dialect", ("llvm", "objdump", "listing", "aco", "bare", "cal")), ("--kernel", ("k", "nope")),
    ("--ignore-unknown", ()), ("--json", ()), ("--longest", ("0", "-1", "99999999999")), ("--summary", ()),
    ("--reg", ("vgpr", "sgpr", "agpr")), ("--rga", ()),
)


_ARCHS = ("gfx902", "gfx90a", "gfx1030", "gfx1100", "gfx942", "gfx1200")


def make_case(rng: random.Random, seeds: list[tuple[str, str]], target: str | None = None) -> Case:
    """A mutated input for ``target`` (default: chosen by the seed's kind, the CLI for 5% of GCN inputs)."""
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


# ----------------------------------------------------------------------------------------------- targets

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
    from isalens.engine.load import resolve_arch
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


def _cli(case: Case) -> None:
    import tempfile

    from isalens.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.s"
        path.write_text(case.text, encoding="utf-8", errors="surrogatepass")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([case.args[0], str(path), *case.args[1:]])
            except SystemExit as stop:  # argparse usage errors
                code = stop.code if isinstance(stop.code, int) else 2
        if code not in (0, 2):
            raise AssertionError(f"exit code {code}: {err.getvalue().strip()[-300:]}")
        if code == 2 and not err.getvalue().strip():
            raise AssertionError("exit code 2 with an empty stderr")


def _decode_file(case: Case) -> None:
    import tempfile

    from isalens.engine.decode import decode_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "listing.isa"
        path.write_text(case.text, encoding="utf-8", errors="surrogatepass")
        decode_file(path, case.args[0])


_TARGETS: dict[str, Callable[[Case], None]] = {"gcn": _gcn, "vliw": _vliw, "words": _words, "cli": _cli,
                                               "decode_file": _decode_file}
TARGETS = tuple(_TARGETS)


# ----------------------------------------------------------------------------------------------- workers

def _worker(conn: Connection, memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    import isalens.cli  # noqa: F401 - import once, before the first timed input
    while True:
        case = conn.recv()
        if case is None:
            return
        try:
            conn.send((run_case(case), ""))
        except MemoryError:
            conn.send(("memory", "MemoryError"))
        except Exception as exc:  # the very thing we hunt: any other exception is a bug
            frames = traceback.extract_tb(exc.__traceback__)
            where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames)
                          if "isalens" in f.filename), "?")
            conn.send(("error", f"{type(exc).__name__} at {where}: {str(exc)[:200]}"))


class Runner:
    """A worker process that runs cases with a memory ceiling, restarted after a hang or a crash."""

    def __init__(self, hang_seconds: float = HANG_SECONDS, memory: int = MEMORY_BYTES) -> None:
        self.hang_seconds = hang_seconds
        self.memory = memory
        self._start()

    def _start(self) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, self.memory), daemon=True)
        self.proc.start()

    def run(self, case: Case) -> tuple[str, str]:
        """("ok" | "rejected" | "error" | "memory" | "hang" | "crash", detail)."""
        self.conn.send(case)
        if not self.conn.poll(self.hang_seconds):
            self.restart()
            return "hang", f"no answer in {self.hang_seconds:g} s"
        try:
            return self.conn.recv()  # type: ignore[no-any-return]
        except EOFError:
            code = self.proc.exitcode
            self.restart()
            return ("memory" if code in (-9, -6) else "crash"), f"worker died (exit {code})"

    def restart(self) -> None:
        self.proc.kill()
        self.proc.join()
        self._start()

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()


def minimise(case: Case, runner: Runner, outcome: str, detail: str, budget: int = 400) -> Case:
    """A smaller input with the same failure: drop lines, then characters, while it still fails the same way."""
    key = detail.split(":", 1)[0]

    def fails(text: str) -> bool:
        got, got_detail = runner.run(Case(case.target, text, case.args))
        return got == outcome and got_detail.split(":", 1)[0] == key

    text = case.text
    for unit in ("\n", ""):
        parts = text.split("\n") if unit else list(text)
        chunk = max(1, len(parts) // 2)
        while chunk >= 1 and budget > 0:
            i = 0
            while i < len(parts) and budget > 0:
                trial = parts[:i] + parts[i + chunk:]
                budget -= 1
                if trial and fails(unit.join(trial)):
                    parts = trial
                else:
                    i += chunk
            chunk //= 2
        text = unit.join(parts)
    return Case(case.target, text, case.args)


def cases(count: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    seeds = load_seeds()
    for _ in range(count):
        yield make_case(rng, seeds)


@dataclass
class Tally:
    """What one campaign saw."""

    outcomes: Counter[str]
    by_target: Counter[str]
    slowest: tuple[float, str]
    failures: list[str]


def campaign(count: int, seed: int, out: Path, hang: float, memory: int, progress: int, label: str = "") -> Tally:
    """Run ``count`` inputs from ``seed``; save each new kind of failure, minimised, under ``out``."""
    runner = Runner(hang, memory)
    tally = Tally(Counter(), Counter(), (0.0, ""), [])
    seen: set[str] = set()
    start = time.monotonic()
    try:
        for n, case in enumerate(cases(count, seed), start=1):
            t0 = time.monotonic()
            outcome, detail = runner.run(case)
            took = time.monotonic() - t0
            if took > tally.slowest[0]:
                tally.slowest = (took, case.target)
            tally.outcomes[outcome] += 1
            tally.by_target[case.target] += 1
            if outcome not in ("ok", "rejected"):
                signature = f"{outcome} {case.target} {detail.split(':', 1)[0]}"
                if signature not in seen:
                    seen.add(signature)
                    small = minimise(case, runner, outcome, detail)
                    out.mkdir(parents=True, exist_ok=True)
                    name = hashlib.sha1(signature.encode()).hexdigest()[:12]
                    (out / f"{name}.json").write_text(json.dumps(
                        {"outcome": outcome, "detail": detail, "target": small.target, "args": small.args,
                         "text": small.text, "original": case.text}, indent=1))
                    tally.failures.append(f"{signature}: {detail} -> {out / name}.json")
                    print(f"{label}FAIL {tally.failures[-1]}", flush=True)
            if progress and n % progress == 0:
                print(f"{label}{n} inputs, {time.monotonic() - start:.0f} s, {dict(tally.outcomes)}", flush=True)
    finally:
        runner.close()
    return tally


def _campaign_process(queue: mp.Queue[Tally], *args: object) -> None:  # type: ignore[type-arg]
    queue.put(campaign(*args))  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200_000, help="inputs to run in all (default 200,000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (the same seed gives the same inputs)")
    parser.add_argument("--jobs", type=int, default=1, help="campaigns in parallel (job k uses seed + k)")
    parser.add_argument("--out", type=Path, default=ROOT / "fuzz-failures", help="where failing inputs are saved")
    parser.add_argument("--hang", type=float, default=HANG_SECONDS, help="seconds before an input counts as a hang")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_BYTES // 2**20, help="address-space ceiling, MB")
    parser.add_argument("--progress", type=int, default=10_000, help="print a line every N inputs (per job)")
    args = parser.parse_args(argv)

    import isalens.cli  # noqa: F401 - loaded once here, so every (re)started worker runs the same code

    memory = args.memory_mb * 2**20
    start = time.monotonic()
    shares = [args.count // args.jobs + (1 if k < args.count % args.jobs else 0) for k in range(args.jobs)]
    if args.jobs == 1:
        tallies = [campaign(args.count, args.seed, args.out, args.hang, memory, args.progress)]
    else:
        ctx = mp.get_context("fork")
        queue: mp.Queue[Tally] = ctx.Queue()  # type: ignore[assignment]
        procs = [ctx.Process(target=_campaign_process, args=(queue, share, args.seed + k, args.out, args.hang,
                                                               memory, args.progress, f"[job {k}] "))
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
