"""Every command's output on the examples and the compiled corpus, written to a directory, so a refactoring can
prove its outputs byte-identical (issue 26: "all outputs byte-identical before and after").

    .venv/bin/python tools/snapshot_outputs.py --out /tmp/before            # at the old commit
    .venv/bin/python tools/snapshot_outputs.py --out /tmp/after --compare /tmp/before

Inputs: ``examples/isa`` and ``examples/vliw`` (text, every command), the OpenCL examples (compiled by clang-19
through isalens' own front end), the shaders when glslang and RADV are installed (``--shaders``), and clang's
output for the compiled corpus in ``.cache/corpus`` (``*/clang.s``; ``--every N`` takes every N-th). Each command
runs in this process through ``isalens.cli.main``; temporary file names (``/tmp/isalens-...``) are masked, since
they differ from run to run. The listing is only as complete as the commands below: extend them with new ones.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_TEMP = re.compile(r"/tmp/[^\s\"',:\]\)]*")

#: (name, argv after the input path) run on every ISA text input
TEXT_COMMANDS = (
    ("livereg", ["livereg"]), ("livereg.json", ["livereg", "--json"]), ("analyze", ["analyze"]),
    ("analyze.json", ["analyze", "--json"]), ("timing", ["timing"]), ("timing.json", ["timing", "--json"]),
    ("advise", ["advise"]), ("advise.json", ["advise", "--json"]), ("html", ["analyze", "--html", "{html}"]),
)
#: run on compiled sources (each compile costs a clang run: fewer commands)
SOURCE_COMMANDS = (("analyze.json", ["analyze", "--json"]), ("timing.json", ["timing", "--json"]),
                   ("advise", ["advise"]))
VLIW_COMMANDS = (("vliw", ["vliw"]), ("vliw.json", ["vliw", "--json"]))
#: whole command lines (no input path appended)
FIXED = (
    ("compare", ["compare", "examples/isa/fp16_half3.gfx902.s", "examples/isa/fp16_half3_two_uint.gfx902.s"]),
    ("compare.json", ["compare", "--json", "examples/isa/fp16_fp32.gfx902.s", "examples/isa/fp16_half3.gfx902.s"]),
    ("decode.explain", ["decode", "--arch", "gfx90a", "--explain", "d1cb0000", "03c20300"]),
    ("decode.gfx1100", ["decode", "--arch", "gfx1100", "--explain", "ca100080", "01000081"]),
    ("occupancy", ["occupancy", "--arch", "gfx90a", "--vgprs", "90", "--wg", "256"]),
    ("tile", ["tile", "--arch", "gfx1030", "--radius", "2", "--dims", "16x16"]),
    ("arch.list", ["arch", "list"]),
)


def run(argv: list[str]) -> str:
    """stdout and stderr of ``isalens ARGV`` and its exit code, temporary names masked."""
    from isalens.cli import main

    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "report.html"
        argv = [str(html) if a == "{html}" else a for a in argv]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
        page = html.read_text() if html.exists() else ""
    text = f"{out.getvalue()}\n--- stderr\n{err.getvalue()}\n--- exit {code}\n{page}"
    # the checkout's own path first: a snapshot of another checkout (a worktree of the old commit) must compare
    return _TEMP.sub("/tmp/<temp>", text.replace(str(ROOT), "<root>"))


def cases(every: int, shaders: bool) -> Iterator[tuple[str, list[str]]]:
    """(snapshot name, argv) for every input and command."""
    for name, argv in FIXED:
        yield f"fixed/{name}", argv
    for path in sorted((ROOT / "examples" / "isa").glob("*.s")):
        for name, argv in TEXT_COMMANDS:
            yield f"isa/{path.name}/{name}", [*argv, str(path.relative_to(ROOT))]
    for path in sorted((ROOT / "examples" / "vliw").glob("*.isa")):
        for name, argv in VLIW_COMMANDS:
            yield f"vliw/{path.name}/{name}", [*argv, str(path.relative_to(ROOT))]
    for path in sorted((ROOT / "examples" / "kernels").rglob("*.cl")):
        for name, argv in SOURCE_COMMANDS:
            yield f"cl/{path.relative_to(ROOT / 'examples' / 'kernels')}/{name}", [*argv, "--arch", "gfx90a",
                                                                                 str(path.relative_to(ROOT))]
    if shaders:
        for path in sorted((ROOT / "examples" / "shaders").iterdir()):
            yield f"shaders/{path.name}/analyze.json", ["analyze", "--json", "--arch", "gfx1030",
                                                       str(path.relative_to(ROOT))]
    corpus = sorted((ROOT / ".cache" / "corpus").glob("*/clang.s"))
    for path in corpus[::every]:
        for name, argv in TEXT_COMMANDS:
            yield f"corpus/{path.parent.name}/{name}", [*argv, str(path.relative_to(ROOT))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for the snapshot")
    parser.add_argument("--compare", type=Path, help="an earlier snapshot: report every difference")
    parser.add_argument("--every", type=int, default=1, help="take every N-th corpus program (default 1: all)")
    parser.add_argument("--shaders", action="store_true", help="also the shaders (glslang and RADV)")
    parser.add_argument("--only", default="", help="only snapshot names containing this text")
    args = parser.parse_args()
    import os

    os.chdir(ROOT)  # paths in outputs are relative to the repository
    done = 0
    for name, argv in cases(args.every, args.shaders):
        if args.only not in name:
            continue
        target = args.out / (name + ".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(run(argv))
        done += 1
        if done % 200 == 0:
            print(f"{done} outputs", file=sys.stderr)
    print(f"{done} outputs in {args.out}", file=sys.stderr)
    if args.compare is None:
        return 0
    differ = 0
    for before in sorted(args.compare.rglob("*.txt")):
        after = args.out / before.relative_to(args.compare)
        if not after.exists():
            continue
        old, new = before.read_text(), after.read_text()
        if old != new:
            differ += 1
            if differ <= 5:
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                           str(before), str(after), n=1))
    print(f"{differ} of {done} outputs differ from {args.compare}", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
