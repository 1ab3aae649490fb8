"""Hostile sources against the real clang: includes of devices and of files outside the include directories
are refused at their line, a compile that blocks is stopped at the time limit, one that eats memory at the
memory limit. Each ends with exit 2 and one message naming the source.

Every run is the CLI as a user starts it, with stdin a pipe that stays open and never carries a byte (as a
terminal or a CI step would give it): a clang that read our stdin would wait on it. The limits are set small
through ``ISALENS_TOOL_TIMEOUT`` / ``ISALENS_TOOL_MEMORY``; the ``communicate`` timeout is only a guard that
turns a hang into a failure, no assertion is made about how long anything takes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from isalens.frontends import clang as cc

pytestmark = pytest.mark.oracle

KERNEL = "kernel void k(global int* a) { a[get_global_id(0)] = VALUE; }\n"
SECRET = "isalens_secret_marker_1234"
# Eight levels of ten: an initialiser of 10^8 ints, far beyond 600 MiB of address space for clang's parser.
_LEVELS = ["#define A1 " + ",".join(["1"] * 10)] + [
    f"#define A{n} " + ",".join([f"A{n - 1}"] * 10) for n in range(2, 9)]
HUGE = "\n".join([*_LEVELS, "constant int t[] = { A8 };", "kernel void k(global int* a) { a[0] = t[a[1]]; }", ""])


@pytest.fixture(autouse=True)
def _clang() -> None:
    if cc.find_clang() is None or not cc.LIBCLC_AMDGCN.is_file():
        pytest.skip(f"clang and libclc are not installed ({cc.CLANG_INSTALL})")


def _analyze(source: Path, *extra: str, timeout: str = "60", memory: str | None = None,
             cwd: Path | None = None) -> tuple[int, str]:
    """``isalens analyze SOURCE --arch gfx902`` with stdin an open, silent pipe, run in ``cwd`` (default: the
    source's directory); (exit code, stderr)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "ISALENS_TOOL_TIMEOUT": timeout}
    env.pop("ISALENS_TOOL_MEMORY", None)
    if memory is not None:
        env["ISALENS_TOOL_MEMORY"] = memory
    proc = subprocess.Popen([sys.executable, "-m", "isalens", "analyze", str(source), "--arch", "gfx902", *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=cwd or source.parent)
    try:
        _out, err = proc.communicate(timeout=600)  # a guard against a hang, not a measurement
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()
    return proc.returncode, err


def _one_line(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


@pytest.mark.parametrize("device", ["/dev/stdin", "/dev/zero", "/proc/self/environ"])
def test_an_include_of_a_device_is_refused_at_its_line(tmp_path: Path, device: str) -> None:
    source = tmp_path / "dev.cl"
    source.write_text(f'#define VALUE 1\n#include "{device}"\n' + KERNEL)
    code, err = _analyze(source)
    assert code == 2
    line = _one_line(err)
    assert f"{source}:2:" in line
    assert f"'{device}' file not found" in line


@pytest.mark.parametrize("spelling", ["absolute", "dotdot"])
def test_an_include_outside_the_source_tree_is_refused_without_its_content(tmp_path: Path, spelling: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.h").write_text(f"{SECRET} is not C\n")
    inside = tmp_path / "src"
    inside.mkdir()
    target = str(outside / "secret.h") if spelling == "absolute" else "../outside/secret.h"
    source = inside / "k.cl"
    source.write_text(f'#define VALUE 1\n#include "{target}"\n' + KERNEL)
    code, err = _analyze(source)
    assert code == 2
    line = _one_line(err)
    assert f"{source}:2:" in line and "file not found" in line
    assert SECRET not in err


def test_includes_in_the_source_tree_and_the_include_directories_still_work(tmp_path: Path) -> None:
    # the control for the refusals above: confinement leaves every legitimate include alone
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "inc").mkdir()
    (tmp_path / "src" / "sub" / "near.h").write_text("#define NEAR 3\n")
    (tmp_path / "inc" / "far.h").write_text("#define FAR 4\n")
    source = tmp_path / "src" / "k.cl"
    source.write_text('#include "sub/near.h"\n#include <far.h>\n#define VALUE (NEAR * FAR)\n' + KERNEL)
    code, err = _analyze(source, "-I", str(tmp_path / "inc"))
    assert code == 0, err
    code, err = _analyze(source)  # without -I the far header is outside: refused
    assert code == 2
    assert "'far.h' file not found" in _one_line(err)


def test_the_working_directory_is_not_an_include_directory(tmp_path: Path) -> None:
    # clang 19 crashes (SIGSEGV) when the overlay lacks the working directory, so it is listed, empty: a compile
    # started from an unrelated directory works and still cannot include what lies there
    (tmp_path / "src").mkdir()
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    (cwd / "here.h").write_text("#define VALUE 1\n")
    source = tmp_path / "src" / "k.cl"
    source.write_text("#define VALUE 1\n" + KERNEL)
    code, err = _analyze(source, cwd=cwd)
    assert code == 0, err
    source.write_text('#include "here.h"\n' + KERNEL)
    code, err = _analyze(source, cwd=cwd)
    assert code == 2
    assert "'here.h' file not found" in _one_line(err)


def test_a_compile_that_blocks_is_stopped_at_the_time_limit(tmp_path: Path) -> None:
    # A FIFO next to the source is inside the source tree (not confined): clang's open() waits for a writer
    # that never comes. Only the time limit ends it.
    os.mkfifo(tmp_path / "pipe.h")
    source = tmp_path / "fifo.cl"
    source.write_text('#define VALUE 1\n#include "pipe.h"\n' + KERNEL)
    code, err = _analyze(source, timeout="3")
    assert code == 2
    line = _one_line(err)
    assert str(source) in line
    assert re.search(r"clang\S* did not finish within 3 s and was stopped", line), line


def test_a_compile_past_the_memory_limit_is_reported(tmp_path: Path) -> None:
    source = tmp_path / "huge.cl"
    source.write_text(HUGE)
    code, err = _analyze(source, memory="600M")
    assert code == 2
    line = _one_line(err)
    assert str(source) in line
    assert re.search(r"clang\S* ran out of memory \(limit 600 MiB", line), line


def test_a_hip_include_of_a_device_is_refused(tmp_path: Path) -> None:
    if cc.find_hip_headers() is None or cc.find_rocm_device_libs() is None:
        pytest.skip(f"HIP headers or ROCm device libraries are not installed ({cc.HIP_INSTALL})")
    source = tmp_path / "k.hip"
    source.write_text('#include <hip/hip_runtime.h>\n#include "/dev/stdin"\n'
                      "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n")
    code, err = _analyze(source)
    assert code == 2
    line = _one_line(err)
    assert f"{source}:2:" in line and "'/dev/stdin' file not found" in line
