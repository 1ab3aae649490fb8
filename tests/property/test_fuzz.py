"""Fuzzing in the suite: a bounded number of tools/fuzz.py's mutated inputs through every reader and command.

Each input runs in a worker process with a 500 MB address-space ceiling and a 5 s hang limit; anything but
a result or an IsalensError (exit code 2) fails, and hypothesis shrinks the random choices to a small case.
The long campaign (>= 200,000 inputs) is `tools/fuzz.py`, recorded in docs/robustness.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tools.fuzz import Runner, load_seeds, make_case

SEEDS = load_seeds()
#: examples per target: about 20 s in all on an idle machine
BUDGET = {"gcn": 250, "vliw": 150, "words": 100, "cli": 40, "decode_file": 15}


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    worker = Runner()
    yield worker
    worker.close()


@pytest.mark.parametrize("target", sorted(BUDGET))
def test_mutated_inputs_end_in_a_result_or_a_clear_error(target: str, runner: Runner) -> None:
    @settings(max_examples=BUDGET[target], deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(st.integers(0, 2**32 - 1))
    def check(seed: int) -> None:
        case = make_case(random.Random(seed), SEEDS, target)
        outcome, detail = runner.run(case)
        assert outcome in ("ok", "rejected"), f"{outcome}: {detail}\ninput {case.args}:\n{case.text[:2000]}"

    check()


def test_the_fuzzer_reports_what_it_is_meant_to_find() -> None:
    """The harness itself: an uncaught exception, a hang and a memory blow-up are each reported as such."""
    from tools import fuzz

    # the worker is forked from this process: register the misbehaving targets before it starts
    fuzz._TARGETS["boom"] = lambda case: [][1]
    fuzz._TARGETS["sleep"] = lambda case: __import__("time").sleep(10)
    fuzz._TARGETS["hog"] = lambda case: bytearray(400 * 1024 * 1024)
    runner = Runner(hang_seconds=2, memory=300 * 1024 * 1024)
    try:
        assert runner.run(fuzz.Case("boom", ""))[0] == "error"
        assert runner.run(fuzz.Case("sleep", ""))[0] == "hang"
        assert runner.run(fuzz.Case("hog", ""))[0] == "memory"
        assert runner.run(fuzz.Case("gcn", "v_add_f32 v0, v1, v2\n", ("gfx902",)))[0] == "ok"
    finally:
        for name in ("boom", "sleep", "hog"):
            fuzz._TARGETS.pop(name, None)
        runner.close()
