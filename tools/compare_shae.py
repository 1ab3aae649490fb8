"""Per-line live VGPR sets of ``isalens livereg --rga`` against RGA's own engine (``shae``), and which side
LLVM's MIR takes where they differ.

RGA's ``shae`` is a closed peer tool (public radeon_gpu_analyzer repository, source/utils/shader_analysis):
give its path in ``ISALENS_PEER_SHAE``; it is never part of this project. For every kernel and function
of the compiled corpus (llc's output, built or reused in ``.cache/corpus`` exactly as the oracle tests
do, so entries left by older builds there are not read) on the gfx9 targets shae reads, the function's
text is given to shae and the whole file to isalens (``--kernel NAME``); rows are matched in order
(their mnemonics must agree) and the sets of registers marked in each row's map are compared. With
``--llvm``, a differing row is also checked against LLVM's own liveness after that instruction (rebuilt
from llc's MIR as the per-instruction oracle test does): "LLVM with isalens" means LLVM's live set there
equals ours for every register file.

    ISALENS_PEER_SHAE=/path/to/shae .venv/bin/python tools/compare_shae.py --targets gfx902 --llvm
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_ISA = {"gfx900": "gfx9", "gfx902": "gfx9", "gfx906": "gfx9"}
_ROW = re.compile(r"\s*(\d+) \|\s*(\d+) \| (.*)$")
_FUNCTION = re.compile(r"^([A-Za-z_]\w*):\s*;\s*@")


def _rows(text: str) -> list[tuple[int, frozenset[int], str]]:
    """(file line, registers marked in the map, mnemonic) per row of an RGA-format listing."""
    out = []
    for line in text.splitlines():
        m = _ROW.match(line)
        if m is None:
            continue
        rest = m.group(3)
        cut = rest.rfind(" | ")
        cells, instruction = rest[:cut], rest[cut + 3:].strip()
        instruction = re.sub(r"^\S+:\s*", "", instruction)  # shae prefixes a label to its first row
        mnemonic = re.sub(r"_e(32|64)$", "", instruction.split(" ")[0])
        out.append((int(m.group(1)), frozenset(i for i, c in enumerate(cells) if c in ":^vx"), mnemonic))
    return out


def _functions(asm: list[str]) -> list[tuple[str, str]]:
    """(name, text from its label to its ``.Lfunc_end``) of every function in llc's output."""
    out = []
    for start, line in enumerate(asm):
        m = _FUNCTION.match(line)
        if m is None:
            continue
        end = next((i for i in range(start, len(asm)) if asm[i].startswith(".Lfunc_end")), len(asm))
        out.append((m.group(1), "\n".join(asm[start:end]) + "\n"))
    return out


def _llvm_differs(source: Path) -> set[tuple[str, int]]:
    """(function, line) of every instruction whose live set differs from LLVM's MIR (the oracle's rebuild),
    or that the oracle could not compare."""
    sys.path.insert(0, str(ROOT))
    from tests.oracle.test_compiler_oracle import Block, compared_instructions

    differs: set[tuple[str, int]] = set()
    skipped = 0
    for item in compared_instructions(source, (source.parent / "llc.mir").read_text()):
        if isinstance(item, Block):
            skipped += not item.compared
            continue
        kernel, _number, ins, ours, theirs = item
        if ours != theirs:
            differs.add((kernel, ins.line))
    if skipped:
        print(f"{source}: {skipped} blocks not compared with LLVM (instruction counts differ)")
    return differs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", default="gfx902", help="comma-separated gfx9 targets of the corpus")
    parser.add_argument("--corpus", type=Path, default=ROOT / ".cache" / "corpus", help="the corpus cache")
    parser.add_argument("--llvm", action="store_true", help="check differing rows against LLVM's MIR")
    parser.add_argument("--examples", type=int, default=3, help="differing rows shown per function")
    args = parser.parse_args(argv)
    shae = os.environ.get("ISALENS_PEER_SHAE")
    if not shae:
        parser.error("set ISALENS_PEER_SHAE to RGA's shae binary")
    counts: collections.Counter[str] = collections.Counter()
    by_function: collections.Counter[tuple[str, str, str]] = collections.Counter()
    shown: dict[tuple[str, str, str], list[str]] = collections.defaultdict(list)
    sys.path.insert(0, str(ROOT))
    from tests.oracle.corpus import build_corpus

    entries = build_corpus(args.corpus)
    with tempfile.TemporaryDirectory() as tmp:
        piece, listing = Path(tmp) / "function.s", Path(tmp) / "shae.txt"
        for target in args.targets.split(","):
            if target not in _ISA:
                parser.error(f"{target}: shae's gfx9 mode reads {', '.join(_ISA)}")
            for source in sorted(e.llc_asm for e in entries if e.target == target):
                llvm = _llvm_differs(source) if args.llvm else set()
                for name, text in _functions(source.read_text().splitlines()):
                    piece.write_text(text)
                    peer = subprocess.run([shae, "--isa", _ISA[target], "analyse-liveness", "--arch-info",
                                           "--wave-size", "64", str(piece), str(listing)], capture_output=True)
                    ours = subprocess.run([sys.executable, "-m", "isalens", "livereg", "--rga", "--kernel", name,
                                           str(source)], capture_output=True, text=True)
                    if peer.returncode or ours.returncode:
                        counts["not compared (a tool failed)"] += 1
                        continue
                    theirs, mine = _rows(listing.read_text()), _rows(ours.stdout)
                    if len(theirs) != len(mine) or any(a[2] != b[2] for a, b in zip(theirs, mine, strict=False)):
                        counts["not compared (rows do not align)"] += 1
                        continue
                    counts["functions"] += 1
                    for (_l, a, _m), (line, b, _m2) in zip(theirs, mine, strict=True):
                        counts["rows"] += 1
                        if a == b:
                            counts["rows equal"] += 1
                            continue
                        side = "isalens has more" if b > a else "shae has more" if a > b else "both have some"
                        counts[side] += 1
                        if args.llvm:
                            counts[f"{side}, LLVM " + ("differs from isalens" if (name, line) in llvm
                                                       else "with isalens")] += 1
                        key = (source.parent.name.split(".")[0], target, name)
                        by_function[key] += 1
                        if len(shown[key]) < args.examples:
                            shown[key].append(f"line {line}: shae only v{sorted(a - b)}, isalens only v{sorted(b - a)}")
    for what, value in counts.items():
        print(f"{what}: {value}")
    print("\ndiffering rows by function:")
    for (source_name, target, name), n in by_function.most_common():
        print(f"  {n:5d}  {source_name}.cl {target} {name}: " + "; ".join(shown[(source_name, target, name)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
