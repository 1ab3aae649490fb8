"""Which core runs (isalens._core): the compiled one when built, the reference when forced or missing, and
``isalens --version`` / ``isalens toolchain --json`` name it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from isalens._core import _COMPILED

SRC = Path(__file__).resolve().parents[2] / "src"
BUILT = importlib.util.find_spec("isalens._core._compiled") is not None


def _isalens(*argv: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "ISALENS_PURE_PYTHON"}
    env["PYTHONPATH"] = str(SRC)
    if pure:
        env["ISALENS_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-m", "isalens", *argv], env=env, capture_output=True, text=True,
                          check=True)
    return done.stdout


def test_forced_reference_is_named() -> None:
    assert _isalens("--version", pure=True).strip().endswith("(core: pure-python (ISALENS_PURE_PYTHON=1))")
    doc = json.loads(_isalens("toolchain", "--no-probe", "--json", pure=True))
    assert doc["core"] == "pure-python (ISALENS_PURE_PYTHON=1)"


@pytest.mark.skipif(not BUILT, reason="compiled core not built")
def test_compiled_core_runs_when_built() -> None:
    assert _isalens("--version", pure=False).strip().endswith("(core: compiled)")
    code = "import isalens._core as c, isalens._core._compiled as x; print(c.solve_liveness is x.solve_liveness)"
    env = {k: v for k, v in os.environ.items() if k != "ISALENS_PURE_PYTHON"}
    env["PYTHONPATH"] = str(SRC)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def _with_fake_extension(names: Iterable[str], *shown: str, file: Path | None = None) -> list[str]:
    """The lines a child process prints (one ``print(...)`` per text of ``shown``) after importing
    isalens._core with a module standing in for the built extension: it defines ``names`` and, when ``file`` is
    given, says it was loaded from there."""
    code = ("import sys, types\n"
            "fake = types.ModuleType('isalens._core._compiled')\n"
            + (f"fake.__file__ = {str(file)!r}\n" if file is not None else "")
            + f"for name in {tuple(names)!r}: setattr(fake, name, print)\n"
            "sys.modules['isalens._core._compiled'] = fake\n"
            "import isalens._core as c\n"
            "from isalens._core import schedule, reference\n"
            + "".join(f"print({text})\n" for text in shown))
    env = {k: v for k, v in os.environ.items() if k != "ISALENS_PURE_PYTHON"}
    env["PYTHONPATH"] = str(SRC)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()


def test_out_of_date_extension_gives_the_reference_and_says_so() -> None:
    """An extension built from older sources (here a module standing in for it, lacking the newest function)
    must not break the import: the reference runs, and the core's name says why."""
    core, same = _with_fake_extension(
        [name for name in _COMPILED if name != "schedule_passes"], "c.CORE",
        "c.schedule_passes is schedule.schedule_passes, c.solve_liveness is reference.solve_liveness")
    assert core == "pure-python (compiled core out of date, no schedule_passes: rebuild it with pip install -e .)"
    assert same == "True True"


def test_extension_older_than_its_source_gives_the_reference(tmp_path: Path) -> None:
    """An extension with every function but built before its ``.pyx`` last changed (a function may have
    changed under its name) is not used: the file dates decide, as for Python's own .pyc files."""
    built, source = tmp_path / "_compiled.so", tmp_path / "_compiled.pyx"
    built.write_bytes(b"")
    source.write_text("")
    os.utime(built, (1_000_000, 1_000_000))
    os.utime(source, (2_000_000, 2_000_000))
    shown = ("c.CORE", "c.solve_liveness is reference.solve_liveness")
    assert _with_fake_extension(_COMPILED, *shown, file=built) == [
        "pure-python (compiled core older than _compiled.pyx: rebuild it with pip install -e .)", "True"]
    os.utime(built, (3_000_000, 3_000_000))  # rebuilt after the source changed: used
    assert _with_fake_extension(_COMPILED, *shown, file=built) == ["compiled", "False"]
