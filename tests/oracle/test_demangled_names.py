"""Kernel names as people read them: the demangled names `list`, `livereg` and `scan` show equal llvm-cxxfilt-19's
spelling of the same symbols (HIP template kernels built here with clang++-19), and `--kernel` takes either form."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from isalens.cli import main
from tests.conftest import ROOT
from tests.oracle.hipbuild import build

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

SOURCE = ROOT / "tests" / "data" / "binaries" / "templates.hip"


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("names") / "t.hipfb", "--cuda-device-only", source=SOURCE,
                 targets=("gfx90a",))


def cxxfilt(names: list[str]) -> list[str]:
    tool = shutil.which("llvm-cxxfilt-19")
    if tool is None:
        pytest.skip("llvm-cxxfilt-19 is not installed (run scripts/setup.sh)")
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def listed(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert main(["list", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return [k for co in doc["files"] for k in co["kernels"]]


def test_list_spells_names_as_llvm_cxxfilt(templates: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kernels = listed(templates, capsys)
    names = [k["name"] for k in kernels]
    assert len(names) == 4 and all(n.startswith("_ZN6spline") for n in names)
    assert [k["kernel_demangled"] for k in kernels] == cxxfilt(names)
    assert main(["list", str(templates)]) == 0
    text = capsys.readouterr().out
    for readable, name in zip(cxxfilt(names), names, strict=True):
        assert f"{readable}  [{name}]" in text


def test_kernel_option_takes_either_form(templates: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = [k["name"] for k in listed(templates, capsys)]
    readable = dict(zip(cxxfilt(names), names, strict=True))
    wanted = readable["void spline::reduce<float, 4>(spline::pair<float> const*, float*, unsigned int)"]
    for pattern in (wanted, "void spline::reduce<float, 4>(spline::pair<float> const*, float*, unsigned int)",
                    "*reduce<float,*"):
        assert main(["livereg", str(templates), "--kernel", pattern, "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert [(k["name"], k["kernel_demangled"]) for k in doc["files"][0]["kernels"]] == [
            (wanted, "void spline::reduce<float, 4>(spline::pair<float> const*, float*, unsigned int)")]


def test_scan_has_a_demangled_column(templates: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("duckdb")
    out = tmp_path / "r.parquet"
    assert main(["scan", str(templates), "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["query", "select kernel, kernel_demangled from kernels order by kernel", "--scan", str(out),
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["kernel_demangled"] for r in rows] == cxxfilt([r["kernel"] for r in rows])
