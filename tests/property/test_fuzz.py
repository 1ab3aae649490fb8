"""Fuzzing in the suite: a fixed-seed run of tools/fuzz.py's mutated inputs through every reader and command
(ISA text and hex words; code objects, offload bundles plain and compressed and host ELF files; Parquet and
DuckDB scan results; budget files), and checks that the harness finds what it is meant to find.

The run is ``RUN_INPUTS`` inputs from seed ``SEED``, shared among the targets by ``SHARES`` (set from what an
input costs: a text input takes milliseconds, a binary one runs llvm-objdump, a result one opens DuckDB); the
default takes about five minutes on the shared 2-core test machine. ``ISALENS_FUZZ_INPUTS=300`` runs a shorter
one (any number scales every target alike). Each input runs in a worker process with a 500 MB peak-RSS limit
and a 5 s hang limit (15 s for file targets); anything but a result or an IsalensError (exit code 2 with one
message naming the file) fails, and the test names the minimised input it saved. The long campaigns
(>= 500,000 inputs) are ``tools/fuzz.py``, recorded in docs/robustness.md.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tools import fuzz
from tools.fuzz import FILE_TARGETS, TARGETS, TEXT_TARGETS, Case, Runner, Verdict, campaign, judge
from tools.fuzz_binary import ELF_STEPS, HOST_TRIPLE, build_binary, ccob, plain_bundle, triple
from tools.fuzz_results import CANARY_TOKEN, GOOD_BUDGET, build_budget, build_result
from tools.fuzz_seeds import FileSeeds, load_file_seeds

#: inputs in the fixed-seed run (the one figure that sizes it; ISALENS_FUZZ_INPUTS overrides it): about five
#: minutes on the shared 2-core machine (load 4: 320 s, 90 of them minimising the failures of the code then)
RUN_INPUTS = int(os.environ.get("ISALENS_FUZZ_INPUTS", "20000"))
SEED = 25
#: each target's share of the inputs, from what an input costs (measured under load 4: 1.5 ms for a GCN or VLIW
#: input, 10 ms for the CLI, 45 ms for `list`, 85 ms for `binary`, 0.1 s for `result`, about 0.1 s for `budget`):
#: the file targets get about four fifths of the time
SHARES = {"gcn": 0.5, "vliw": 0.16, "words": 0.135, "cli": 0.035, "decode_file": 0.012, "list": 0.063,
          "binary": 0.028, "result": 0.039, "budget": 0.028}


@pytest.fixture(scope="module")
def file_seeds() -> FileSeeds:
    seeds = load_file_seeds()
    if seeds is None:
        pytest.skip("the file targets need clang-19, pyelftools, msgpack, duckdb and pyarrow (scripts/setup.sh)")
    return seeds


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    worker = Runner()
    yield worker
    worker.close()


def _run(target: str, runner: Runner, files: FileSeeds | None, out: Path) -> None:
    count = max(1, round(RUN_INPUTS * SHARES[target]))
    tally = campaign(count, SEED, out, targets=[target], files=files, runner=runner, minimise_budget=60,
                     minimise_seconds=45)
    assert not tally.failures, f"{len(tally.failures)} kind(s) of failure in {count} {target} inputs:\n" + "\n".join(
        tally.failures)
    if count >= 100:  # the mutations must leave some inputs readable, or only the rejecting paths are fuzzed
        assert tally.outcomes["ok"] > 0, dict(tally.outcomes)


def test_shares_cover_every_target() -> None:
    assert set(SHARES) == set(TARGETS)
    assert abs(sum(SHARES.values()) - 1) < 1e-9


@pytest.mark.parametrize("target", TEXT_TARGETS)
def test_fixed_seed_run_text(target: str, runner: Runner, tmp_path: Path) -> None:
    _run(target, runner, None, tmp_path)


@pytest.mark.parametrize("target", FILE_TARGETS)
def test_fixed_seed_run_files(target: str, runner: Runner, file_seeds: FileSeeds, tmp_path: Path) -> None:
    _run(target, runner, file_seeds, tmp_path)


# ----------------------------------------------------------------------------------------------- the harness

def test_the_fuzzer_reports_what_it_is_meant_to_find(monkeypatch: pytest.MonkeyPatch) -> None:
    """An uncaught exception, a hang and a memory blow-up (of the worker or of a program it starts) are each
    reported as such, and the worker keeps running after each."""
    runner = Runner(hang_seconds=2, memory=300 * 1024 * 1024)
    try:
        assert runner.run(Case("_error"))[0] == "error"
        assert runner.run(Case("_hang"))[0] == "hang"  # waits: caught by wall time
        # loops: caught by its CPU seconds, long before the wall-time backstop (2 s x 30 here)
        monkeypatch.setattr(fuzz, "_load_factor", lambda: 30.0)
        outcome, detail = runner.run(Case("_spin"))
        cpu, wall = (float(x) for x in re.findall(r"([\d.]+) s (?:CPU|wall)", detail))
        assert outcome == "hang" and cpu >= 2 and wall < 60, detail
        monkeypatch.undo()
        assert runner.run(Case("_memory", str(400 << 20)))[0] == "memory"
        assert runner.run(Case("_child_memory", str(400 << 20)))[0] == "memory"
        assert runner.run(Case("_memory", str(50 << 20)))[0] == "ok"  # well under the limit
        assert runner.run(Case("gcn", "v_add_f32 v0, v1, v2\n", ("gfx902",)))[0] == "ok"
        assert runner.run(Case("gcn", "v_bogus v0\n", ("gfx902",)))[0] == "rejected"
    finally:
        runner.close()


def test_the_rules_each_command_run_is_judged_by() -> None:
    judge(["list"], 0, "ok\n", "")
    judge(["diff"], 1, "", "")
    judge(["query"], 2, "", "isalens: /d/r.parquet: error: not a scan result\n", where="/d")
    judge(["query", "--csv"], 0, "kernel\n-1.5\nk\n", "", csv_texts=["kernel\n-1.5\nk\n"])
    broken = [
        (["list"], 3, "", "isalens: internal error: KeyError", {}, "exit code 3"),
        (["list"], 1, "", "", {}, "exit code 1"),  # list has no exit code 1
        (["check"], 2, "", "", {}, "exit code 2 with an empty stderr"),
        (["check"], 2, "", "Traceback (most recent call last):\n  x\nValueError", {}, "traceback on stderr"),
        (["check"], 2, "", f"isalens: /d/b.toml: error: cannot read: {CANARY_TOKEN}", {"where": "/d"}, "disclosure"),
        (["query"], 0, CANARY_TOKEN, "", {}, "disclosure"),
        (["check"], 2, "", "isalens: error: something", {"where": "/d"}, "message names no input file"),
        (["query"], 0, "", "", {"csv_texts": ['kernel\n"=HYPERLINK(""x"")"\n']}, "CSV cell starts like a formula"),
        (["query"], 0, "", "", {"csv_texts": ["kernel\n-cmd\n"]}, "CSV cell starts like a formula"),
        (["query"], 0, "", "", {"wrote": ["written.csv"]}, "`isalens query` wrote a file"),
    ]
    for argv, code, out, err, extra, kind in broken:
        with pytest.raises(Verdict) as caught:
            judge(argv, code, out, err, **extra)
        assert caught.value.kind == kind


def test_the_minimiser_keeps_only_the_cause() -> None:
    runner = Runner()
    try:
        case = Case("_boom_if", "first line\nsome xBOOMy text\nlast line\n")
        small = fuzz.minimise(case, runner, "error", runner.run(case)[1])
        assert small.text == "BOOM"  # the shortest text the target raises on
    finally:
        runner.close()
    # recipe steps: only the ones the failure needs stay (a stand-in remake and failure condition)
    case = Case("list", recipe=(("pick", 0), ("a", 1), ("b", 2), ("c", 3)))
    kept = fuzz.drop_steps(case, lambda c: ("b", 2) in c.recipe,
                           lambda recipe: dataclasses.replace(case, recipe=recipe))
    assert kept.recipe == (("pick", 0), ("b", 2))


def test_the_same_seed_gives_the_same_inputs(file_seeds: FileSeeds) -> None:
    first = list(fuzz.cases(60, 7, TARGETS, file_seeds))
    assert first == list(fuzz.cases(60, 7, TARGETS, file_seeds))
    assert {c.target for c in first} == set(TARGETS)


def _container(file_seeds: FileSeeds, recipe: tuple[tuple[str, int], ...]) -> bytes:
    return build_binary(recipe, file_seeds.binary)


def test_unmutated_inputs_are_read(file_seeds: FileSeeds) -> None:
    """The seeds and the containers built around them (before any damage) are read: `list` exits 0 on each, and
    the scan results and the plain budget pass `check`, so mutations start from inputs the readers accept."""
    runner = Runner()
    try:
        for recipe in [(("pick", s),) for s in range(6)] + [
                (("pick", s), (wrap, s)) for s in range(6)
                for wrap in ("plain bundle", "compressed bundle", "host ELF .hip_fatbin")]:
            data = _container(file_seeds, recipe)
            case = Case("list", args=("list", "@INPUT@"), files=(("input.co", data),), input="input.co")
            assert runner.run(case) == ("ok", ""), recipe
        for name in ("base.parquet", "base.duckdb"):
            data = dict(file_seeds.results)[name]
            case = Case("result", args=("check", "@INPUT@", "--budget", "@DIR@/isalens.toml"), input=name,
                        files=((name, data), ("isalens.toml", GOOD_BUDGET.encode())))
            assert runner.run(case) == ("ok", ""), name
    finally:
        runner.close()


def test_bundles_built_here_are_what_llvm_reads(file_seeds: FileSeeds, tmp_path: Path) -> None:
    """Oracle: LLVM 19's own clang-offload-bundler lists and unbundles the plain and compressed (v1, v2; zlib,
    zstd) bundles the fuzzer builds, giving back the code object's bytes (v3 is newer than LLVM 19)."""
    bundler = shutil.which("clang-offload-bundler-19")
    if bundler is None:
        pytest.skip("clang-offload-bundler-19 is not installed")
    co = file_seeds.binary.code_objects[0][1]
    target = triple("gfx90a")
    plain = plain_bundle([(HOST_TRIPLE, b""), (target, co)], align=4096)
    for label, data in [("plain", plain)] + [(f"v{v}-{m}", ccob(v, m, plain)) for v in (1, 2) for m in (0, 1)]:
        path = tmp_path / f"{label}.hipfb"
        path.write_bytes(data)
        listed = subprocess.run([bundler, "--list", "--type=o", f"--input={path}"], capture_output=True, text=True,
                                check=True, stdin=subprocess.DEVNULL).stdout.split()
        assert sorted(listed) == sorted([HOST_TRIPLE, target]), label
        out = tmp_path / f"{label}.co"
        subprocess.run([bundler, "--unbundle", "--type=o", f"--input={path}", f"--targets={target}",
                        f"--output={out}"], check=True, stdin=subprocess.DEVNULL)
        assert out.read_bytes() == co, label


#: steps that edit a code object, and container steps with what they need before them
_BINARY_STEPS = [(step,) for step in ELF_STEPS] + [
    ("plain bundle",), ("overlapping bundle entries",), ("compressed bundle",), ("compression bomb",),
    ("host ELF .hip_fatbin",), ("clang-built container",), ("bytes",), ("cut",),
    ("plain bundle", "bundle table field"), ("plain bundle", "bundles one after another"),
    ("odd bundle entry", "plain bundle"),
    ("compressed bundle", "compressed bundle header field"), ("compressed bundle", "compressed bundle payload"),
    ("host ELF .hip_fatbin", "host section field")]


@pytest.mark.parametrize("steps", _BINARY_STEPS, ids=" + ".join)
def test_every_binary_mutation_changes_its_input(steps: tuple[str, ...], file_seeds: FileSeeds) -> None:
    """No mutation is silently dead: over a few seeds, each changes the bytes the steps before it made."""
    changed = 0
    for s in range(12):
        before = (("pick", s), *((name, s) for name in steps[:-1]))
        after = (*before, (steps[-1], s + 1000))
        changed += _container(file_seeds, before) != _container(file_seeds, after)
    assert changed >= 3, f"{steps[-1]} changed {changed} of 12 inputs"


def test_result_and_budget_mutations_change_their_input(file_seeds: FileSeeds) -> None:
    names = [n for n, _ in file_seeds.results]
    for kind, pick in (("parquet footer", names.index("base.parquet")), ("duckdb header", names.index("base.duckdb")),
                       ("bytes", 0), ("cut", 0), ("other suffix", 0)):
        base = build_result((("pick result", pick),), file_seeds.results)
        edited = [build_result((("pick result", pick), (kind, s)), file_seeds.results) for s in range(8)]
        assert sum(e != base for e in edited) >= 4, kind
    texts = {build_budget((("budget", s),)) for s in range(50)}
    assert len(texts) >= 45
    assert any(b"[budget]\n" in t for t in texts) and any(b"../" in t for t in texts)


def test_file_cases_need_the_seeds() -> None:
    with pytest.raises(ValueError, match="file seeds"):
        fuzz.make_case(random.Random(1), fuzz.load_seeds(), "list")


def test_big_outputs_are_judged_from_their_file() -> None:
    """Outputs over 8 MB are judged a block at a time: a canary across a block boundary and a formula cell in
    the last row are still found, and a clean output passes."""
    import io as _io

    block = fuzz._BLOCK_CHARS
    half = len(CANARY_TOKEN) // 2
    split = "x" * (block - half) + CANARY_TOKEN + "\n"
    with pytest.raises(Verdict, match="disclosure"):
        fuzz._judge_big_output(["query"], _io.StringIO(split), csv_out=False)
    rows = "a,b\n" * 3_000_000 + "ok,=cmd()\n"
    with pytest.raises(Verdict, match="formula"):
        fuzz._judge_big_output(["query"], _io.StringIO(rows), csv_out=True)
    fuzz._judge_big_output(["query"], _io.StringIO("a,b\n" * 3_000_000), csv_out=True)
