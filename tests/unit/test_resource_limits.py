"""Every hostile form of issue 11 ends in a result or one clear error, within a memory ceiling and without
hanging; the documented instruction cap is a clear error. Times and memory are measured by
benchmarks/robustness.py (docs/robustness.md), never asserted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks.robustness import FORMS

import isalens
from isalens.engine.load import load
from isalens.errors import ParseError
from isalens.isa.amdgcn import parser

#: the forms needed 5-10 GB before; isalens itself needs about 100 MB of address space more than Python
_MEMORY_CEILING = 700 * 1024 * 1024
#: a hang detector only (every form takes well under a second of work; docs/robustness.md)
_HANG_TIMEOUT = 600

_CHILD = """
import contextlib, io, json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
from isalens.cli import main
for name, text, args in json.loads(sys.stdin.read()):
    with open("input.s", "w", encoding="utf-8") as f:
        f.write(text)
    print("running", name, flush=True)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main([a.replace("{{file}}", "input.s") for a in args])
        except SystemExit as stop:
            code = stop.code
    print("exit", code, json.dumps(err.getvalue()), flush=True)
"""


def test_every_hostile_form_ends_cleanly_within_the_memory_ceiling(tmp_path: Path) -> None:
    forms = [(f.name, f.text, list(f.args)) for f in FORMS]
    env = {**os.environ, "PYTHONPATH": str(Path(isalens.__file__).parents[1])}
    try:
        result = subprocess.run([sys.executable, "-c", _CHILD.format(mem=_MEMORY_CEILING)], input=json.dumps(forms),
                                capture_output=True, text=True, cwd=tmp_path, env=env, timeout=_HANG_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        pytest.fail(f"hang: {out.splitlines()[-1] if out else 'no output'}")
    lines = result.stdout.splitlines()
    assert result.returncode == 0, f"child died ({result.returncode}) at {lines[-1:]}: {result.stderr[-500:]}"
    outcomes = [line.split(" ", 2) for line in lines if line.startswith("exit ")]
    assert len(outcomes) == len(FORMS)
    for form, (_, code, err) in zip(FORMS, outcomes, strict=True):
        message = json.loads(err)
        assert int(code) == form.exit_code, (form.name, message)
        if form.exit_code == 2:  # one clear line, never an internal error or a traceback
            assert len(message.strip().splitlines()) == 1 and "internal error" not in message, (form.name, message)


def test_instruction_cap_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parser, "MAX_INSTRUCTIONS", 3)
    three = "v_mov_b32 v0, 1\nv_mov_b32 v1, 1\ns_endpgm\n"
    assert len(load(three, "gfx902").kernels[0].instructions) == 3  # exactly the cap is fine
    with pytest.raises(ParseError, match="more than 3 instructions") as info:
        load("v_mov_b32 v2, 1\n" + three, "gfx902")
    assert info.value.line == 4  # the first instruction beyond the cap
