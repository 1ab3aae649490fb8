"""Benchmark: time and peak memory of every hostile form from issue 11, each in a fresh process.

Each form is a small input that crashed, hung or ran out of memory before; now each must end in a
result or one clear error. The figures go to docs/robustness.md. Run by hand:

    .venv/bin/python benchmarks/robustness.py

tests/unit/test_resource_limits.py runs the same forms under a memory ceiling as a hang/blow-up guard.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Form:
    """One hostile input: the file's text and the command that reads it (``{file}`` is the input)."""

    name: str
    text: str
    args: tuple[str, ...]
    #: the exit code it must end with: 0 (a result) or 2 (one clear error)
    exit_code: int


FORMS: tuple[Form, ...] = (
    Form("start-up alone: isalens --version", "", ("--version",), 0),
    Form("pasted snippet, peak on its last line", "v_add_f32 v0, v1, v2\n",
         ("livereg", "{file}", "--arch", "gfx902"), 0),
    Form("LDS stride shifted by 0x7fffffff", "v_lshlrev_b32 v1, 0x7fffffff, v0\nds_read_b32 v2, v1\ns_endpgm\n",
         ("analyze", "{file}", "--arch", "gfx902"), 0),
    Form("LDS stride shifted by -1", "v_lshlrev_b32 v1, -1, v0\nds_read_b32 v2, v1\ns_endpgm\n",
         ("analyze", "{file}", "--arch", "gfx902"), 0),
    Form("v[0:9999999999] (livereg)", "v_mov_b32 v[0:9999999999], 0\ns_endpgm\n",
         ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("v[0:9999999999] (decode --file)", "v_mov_b32 v[0:9999999999], 0 // 000000000000: 7E000280\n",
         ("decode", "--file", "{file}", "--arch", "gfx902"), 2),
    Form("a register index of 5,000 digits", f"v_mov_b32 v{'9' * 5000}, 0\n",
         ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("--wave 32 on a wave64-only target", "v_add_f32 v0, v1, v2\n",
         ("livereg", "{file}", "--arch", "gfx902", "--wave", "32"), 2),
    Form("s_nop 010 (octal)", "s_nop 010\ns_endpgm\n", ("livereg", "{file}", "--arch", "gfx902"), 0),
    Form("--dialect aco on a listing", "  s_nop 0  // 00000090: BF800000\n",
         ("livereg", "{file}", "--arch", "gfx902", "--dialect", "aco"), 2),
    Form("a256", "v_add_f32 v0, a256, v2\n", ("livereg", "{file}", "--arch", "gfx90a"), 2),
    Form("((v1))", "v_add_f32 v0, ((v1)), v2\n", ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("v_add_f32 without operands", "v_add_f32\n", ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("duplicate labels", "x:\nv_add_f32 v0, v1, v2\nx:\ns_endpgm\n", ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("v-1", "v_add_f32 v0, v-1, v2\n", ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("a line of 30,000 '['", "v_mov_b32 v0, " + "[" * 30_000 + "\n", ("livereg", "{file}", "--arch", "gfx902"), 2),
    Form("a 3 MB operand", "v_mov_b32 v0, " + "x" * 3_000_000 + "\ns_endpgm\n",
         ("livereg", "{file}", "--arch", "gfx902", "--summary"), 0),
    Form("200,000 labels", "".join(f"L{i}:\n" for i in range(200_000)) + "s_endpgm\n",
         ("livereg", "{file}", "--arch", "gfx902", "--summary"), 0),
    Form("integer of 100 digits", "v_mov_b32 v0, " + "9" * 100 + "\n", ("livereg", "{file}", "--arch", "gfx902"), 2),
)


def run_form(form: Form, directory: Path, memory: int | None = None,
             timeout: float = 600) -> tuple[int, float, float, int, str]:
    """(exit code, seconds end to end, seconds after start-up, peak RSS in KiB, stderr) of ``isalens`` on
    ``form`` in a fresh process."""
    path = directory / "input.s"
    path.write_text(form.text, encoding="utf-8")
    args = [a.replace("{file}", str(path)) for a in form.args]
    limit = "" if memory is None else (
        f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))\n")
    # the child reports its own peak RSS last on stderr (RUSAGE_CHILDREN would mix every child so far)
    code = (f"{limit}import resource, sys, time\nfrom isalens.cli import main\nt = time.perf_counter()\nrc = 2\n"
            "try:\n    rc = main(sys.argv[1:])\nexcept SystemExit as e:\n    rc = e.code\nfinally:\n"
            "    sys.stderr.write(f'\\n@rss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} "
            "{time.perf_counter() - t:.4f}\\n')\nsys.exit(rc)\n")
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                            cwd=directory)
    took = time.perf_counter() - start
    err, _, tail = result.stderr.rpartition("\n@rss ")
    fields = tail.split()
    if len(fields) != 2:
        return result.returncode, took, took, -1, result.stderr
    return result.returncode, took, float(fields[1]), int(fields[0]), err.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    print("| form | exit | seconds end to end | seconds after start-up | peak RSS (MB) |\n|---|---|---|---|---|")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for form in FORMS:
            code, took, work, peak_kib, err = run_form(form, Path(tmp))
            failed += code != form.exit_code
            mark = "" if code == form.exit_code else f" (expected {form.exit_code}: {err.strip()[:80]})"
            print(f"| {form.name} | {code}{mark} | {took:.2f} | {work:.3f} | {peak_kib / 1024:.0f} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
