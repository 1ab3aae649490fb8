"""Issue 31 item 6: every README example runs as written. Each ``$ isalens ...`` line of the README's text blocks
(and the isalens command of its first shell block) runs through the CLI with a bundled stand-in for the file it
names (``kernel.s`` is examples/isa/fp16_half3_two_uint.gfx902.s); outputs are written to a temporary directory.
An example needs the tools it names (clang, glslang + RADV, llvm-mc) and skips cleanly without them; the lines
that need what the repository does not bundle (a HIP application, a ROCm library's scan) are in NOT_BUNDLED
and skip with that reason; ``serve`` runs until stopped (tests/browser/test_serve.py drives it)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from isalens.cli import main
from tests.conftest import ROOT, require_tool

README = (ROOT / "README.md").read_text()
EXAMPLES = ROOT / "examples"


def _commands() -> list[str]:
    """The README's isalens command lines, as printed (comments and `[optional]` brackets removed)."""
    out = []
    for lang, body in re.findall(r"```(\w+)\n(.*?)```", README, re.S):
        for line in body.splitlines():
            if lang == "text" and line.startswith("$ isalens "):
                out.append(line[2:])
            elif lang == "sh" and " && .venv/bin/isalens " in line:  # the setup line: setup itself is not rerun
                out.append(line.split(" && .venv/bin/", 1)[1])
    return out


COMMANDS = _commands()

#: file names the README uses -> the bundled file standing in for them
STAND_INS = {
    "kernel.s": EXAMPLES / "isa" / "fp16_half3_two_uint.gfx902.s",
    "fp32.s": EXAMPLES / "isa" / "fp16_fp32.gfx902.s",
    "half3.s": EXAMPLES / "isa" / "fp16_half3.gfx902.s",
    "dump.txt": ROOT / "tests" / "fixtures" / "listing" / "fp16_reads.isa",
    "kernel.cl": EXAMPLES / "kernels" / "sweep" / "tile_blur.cl",
    "tile.cl": EXAMPLES / "kernels" / "sweep" / "tile_blur.cl",
    "shader.comp": EXAMPLES / "shaders" / "timing_loop_sum.comp",
    "shader.isa": EXAMPLES / "vliw" / "sgemm_8x8.rv770.isa",
    "ps.frag": EXAMPLES / "shaders" / "blur.ps.hlsl",  # HLSL in a file named by its stage: copied as ps.frag
    "isalens.toml": EXAMPLES / "isalens.toml",  # a budget over the bundled ISA examples
}
#: made by the test from a bundled source (clang-19 and ld.lld-19)
BUILT = {"kernel.co": (EXAMPLES / "kernels" / "sweep" / "tile_blur.cl", "gfx902"),
         "librocrand.so.1": (EXAMPLES / "kernels" / "sweep" / "tile_blur.cl", "gfx90a")}
#: what each example needs besides isalens
TOOLS = {"kernel.cl": ("clang-19",), "tile.cl": ("clang-19",), "kernel.co": ("clang-19", "ld.lld-19"),
         "librocrand.so.1": ("clang-19", "ld.lld-19"),
         "shader.comp": ("glslangValidator",), "ps.frag": ("glslangValidator",), "decode": ("llvm-mc-19",)}
#: examples that need what the repository does not bundle, and why they are skipped
NOT_BUNDLED = {"app": "a HIP application", "build/": "a build tree and a ROCm library",
               "radv_dump.txt": "a RADV_DEBUG=shaders dump", "results.parquet": "a scan of a ROCm library",
               "base.parquet": "two scans of a ROCm library"}


def test_the_readme_has_its_examples() -> None:
    assert len(COMMANDS) >= 30
    assert any("--trip-count" in c for c in COMMANDS)
    # the setup script tells users how to call bare `isalens`, as the examples do
    assert 'export PATH=\\"$PWD/.venv/bin:\\$PATH\\"' in (ROOT / "scripts" / "setup.sh").read_text()
    assert 'export PATH="$PWD/.venv/bin:$PATH"' in README


def _build(source: Path, target: str, out: Path) -> Path:
    from isalens.frontends.clang import opencl_flags
    obj = out.with_suffix(".o")
    subprocess.run(["clang-19", *opencl_flags(target), str(source), "-c", "-o", str(obj)], check=True,
                   capture_output=True)
    subprocess.run(["clang-19", "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", str(obj), "-o", str(out)],
                   check=True, capture_output=True)
    return out


@pytest.mark.parametrize("command", COMMANDS, ids=[c.split("  ")[0][:60] for c in COMMANDS])
def test_readme_example_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    run_example(command, tmp_path, monkeypatch, capsys)


def run_example(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                *, stand_ins: dict[str, Path] = STAND_INS, not_bundled: dict[str, str] = NOT_BUNDLED,
                expected_exit: int = 0) -> tuple[str, str]:
    """Run one documented ``isalens ...`` line in ``tmp_path`` with bundled stand-ins for the files it names
    (also the --help examples' runner, tests/unit/test_help_examples.py); returns stdout and stderr."""
    argv = shlex.split(command.replace("[", "").replace("]", ""), comments=True)
    assert argv[0] == "isalens"
    argv = argv[1:]
    if argv[0] == "serve":
        pytest.skip("serve runs until stopped: tests/browser/test_serve.py drives it")
    for name, what in not_bundled.items():
        if name in argv:
            pytest.skip(f"needs {what} ({name})")
    for key, tools in TOOLS.items():
        if key in argv:
            for tool in tools:
                require_tool(tool)
    if "shader.comp" in argv or "ps.frag" in argv:
        from isalens.frontends import radv  # the Vulkan driver, not only the compiler
        if radv.find_radv_icd() is None:
            pytest.skip(f"RADV is not installed ({radv.MESA_INSTALL})")
    monkeypatch.chdir(tmp_path)
    resolved = []
    for a in argv:
        if a in BUILT:
            resolved.append(str(_build(*BUILT[a], tmp_path / a)))
        elif a == "ps.frag":
            resolved.append(str(shutil.copy(stand_ins[a], tmp_path / "ps.frag")))
        elif a in stand_ins:
            resolved.append(str(stand_ins[a]))
        elif a.startswith("examples/"):
            resolved.append(str(ROOT / a))
        else:
            resolved.append(a)
    code = main(resolved)
    out, err = capsys.readouterr()
    assert code == expected_exit, err
    assert "Traceback" not in out + err
    assert out or "wrote" in err or "row(s) in" in err  # scan reports its table on stderr
    return out, err
