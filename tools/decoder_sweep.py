#!/usr/bin/env python3
"""Our decoder against llvm-objdump-19 on every code object of a library (issue 28, "Accepted when" bullet 2):
each instruction's text compared address by address, counted per target.

    nice -n 5 .venv/bin/python tools/decoder_sweep.py LIBRARY [--every N] [--first N] [--json FILE]

Each code object is listed by ``llvm-objdump-19 -d --mcpu=PROCESSOR`` (``--mattr=+wavefrontsize64`` for wave64
code, as the binary path runs it) and decoded by ours as the binary path does (``hardware=True``, blocks
restarting at every symbol, runs of two or more zero dwords skipped as objdump's ``...``). Every instruction we
start is one of:

- ``equal``: the same text as objdump's at that address;
- ``rejected``: LLVM rejects the encoding (objdump prints ``.long`` or a ``/*Invalid ...*/`` operand, or, having
  decoded a rejected word's next dword as a bogus instruction, starts none at our following addresses) and we
  read it as the hardware does with a note (docs/decoder.md, "Encodings LLVM rejects"): the documented case,
  counted apart;
- ``different``: any other text, or no objdump instruction at our address without such a note: our bug;
- ``fell_back``: our decoder gives a diagnostic (the binary path then asks llvm-objdump for the code object).

Differences and fall-backs are grouped by format and mnemonic (reason) with one example each. ``--every N`` takes
every N-th code object of each target (a spread sample), ``--first N`` at most N per target.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Counts", "objdump_texts", "sweep", "sweep_code_object"]

_LINE = re.compile(r"^\s+(\S.*?)\s*// ([0-9A-F]{12}): ((?:[0-9A-F]{8} ?)+)")


@dataclass
class Counts:
    """One target's instructions by outcome; ``groups`` (outcome, format, mnemonic or reason) -> count and
    ``examples`` one example per group."""

    code_objects: int = 0
    equal: int = 0
    rejected: int = 0
    different: int = 0
    fell_back: int = 0
    #: objdump instructions at an address where we start none (inside one of ours: a length we got wrong, or
    #: objdump off our boundaries after a rejected word)
    objdump_only: int = 0
    groups: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    examples: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def add(self, other: Counts) -> None:
        self.code_objects += other.code_objects
        self.equal += other.equal
        self.rejected += other.rejected
        self.different += other.different
        self.fell_back += other.fell_back
        self.objdump_only += other.objdump_only
        self.groups.update(other.groups)
        for key, example in other.examples.items():
            self.examples.setdefault(key, example)

    def _note(self, outcome: str, fmt: str, what: str, example: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)
        if outcome != "equal":
            key = (outcome, fmt, what)
            self.groups[key] += 1
            self.examples.setdefault(key, example)

    def summary(self) -> dict[str, Any]:
        return {"code_objects": self.code_objects, "equal": self.equal, "rejected": self.rejected,
                "different": self.different, "fell_back": self.fell_back, "objdump_only": self.objdump_only,
                "groups": [{"outcome": k[0], "format": k[1], "what": k[2], "count": n, "example": self.examples[k]}
                           for k, n in self.groups.most_common()]}


def objdump_texts(data: bytes, processor: str, wave64: bool, objdump: str) -> dict[int, str]:
    """Address -> instruction text (single spaces) as ``llvm-objdump -d`` prints it for the code object ``data``."""
    with tempfile.TemporaryDirectory(prefix="isalens-sweep-") as tmp:
        path = Path(tmp) / "code-object.elf"
        path.write_bytes(data)
        cmd = [objdump, "-d", f"--mcpu={processor}", *(["--mattr=+wavefrontsize64"] if wave64 else []), str(path)]
        text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    out = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            out[int(m.group(2), 16)] = " ".join(m.group(1).split())
    return out


def _rejected_by_llvm(text: str | None) -> bool:
    return text is None or text.startswith(".long") or "/*" in text


def sweep_code_object(data: bytes, processor: str, wave64: bool, objdump: str, where: str = "") -> Counts:
    """Counts for one code object (its bytes, processor and whether its code is wave64)."""
    from isalens.binary.sections import code_sections
    from isalens.isa.amdgcn.decoder.listing import _caches, _decoded
    from isalens.isa.amdgcn.decoder.text import Diagnostic

    theirs = objdump_texts(data, processor, wave64, objdump)
    caches = _caches(processor, wave64)
    counts = Counts(code_objects=1)
    ours: set[int] = set()
    for section in code_sections(data, file=where, where=where):
        words = array("I", section.data[:len(section.data) // 4 * 4])
        if sys.byteorder != "little":  # pragma: no cover
            words.byteswap()
        start, end = section.address, len(words)
        # objdump starts decoding afresh at every symbol, so a block never runs over one
        stops = sorted({(s[0] - start) // 4 for s in section.symbols if start <= s[0] < start + 4 * end} | {end})
        index = 0
        desynced = False  # objdump is still off our instruction boundaries after a word it rejected
        for stop in stops:
            desynced = False
            while index < stop:
                zeros = index
                while zeros < stop and words[zeros] == 0:
                    zeros += 1
                if zeros - index >= 2:  # objdump's "..."
                    index = zeros
                    continue
                address = start + 4 * index
                result = _decoded(words, index, processor, wave64, caches)[0]  # (result, text, reads back)
                size = max(4, min(result.size, 4 * (stop - index)))
                encoding = " ".join(f"{w:08X}" for w in words[index:index + size // 4])
                expected = theirs.get(address)
                ours.add(address)
                if isinstance(result, Diagnostic):
                    counts._note("fell_back", result.format or "?", result.reason[:70],
                                 f"{where} {address:#x} {encoding}: {result.reason}; objdump {expected!r}")
                elif result.text == expected:
                    counts._note("equal", result.format, result.mnemonic, "")
                elif (result.note and _rejected_by_llvm(expected)) or (expected is None and desynced):
                    desynced = True
                    counts._note("rejected", result.format, result.mnemonic,
                                 f"{where} {address:#x} {encoding}: ours {result.text!r}, objdump {expected!r}")
                else:
                    counts._note("different", result.format, result.mnemonic,
                                 f"{where} {address:#x} {encoding}: ours {result.text!r}, objdump {expected!r}")
                if expected is not None:
                    desynced = False
                index += size // 4
            index = stop
        counts.objdump_only += sum(1 for a in theirs if start <= a < start + 4 * end and a not in ours)
    return counts


def sweep(library: Path, *, every: int = 1, first: int = 0, progress: bool = False) -> dict[str, Counts]:
    """Counts per target over the code objects of ``library``: of each bundle entry's target (``gfx90a:xnack+``
    and ``gfx90a:xnack-`` apart) every ``every``-th in file order, at most ``first`` when given (chosen before
    the code object is read, so a sample of a large library costs only its own code objects)."""
    from isalens.binary.codeobject import read_code_object
    from isalens.binary.container import find_code_objects
    from isalens.engine.binary import mapped, wave64_code
    from isalens.isa.amdgcn.decoder.tables import family_of

    objdump = shutil.which("llvm-objdump-19")
    if objdump is None:
        raise SystemExit("llvm-objdump-19 is not installed")
    seen: Counter[str] = Counter()
    out: dict[str, Counts] = {}
    with mapped(library) as data:
        for ref in find_code_objects(data, file=str(library)):
            entry = ref.source.rsplit(" ", 1)[-1]
            n = seen[entry]
            seen[entry] += 1
            if n % every or (first and n // every >= first):
                continue
            co = read_code_object(ref.data, file=str(library), source=ref.source)
            if family_of(co.processor) is None:
                raise SystemExit(f"{ref.source}: our decoder has no table for {co.processor}")
            counts = sweep_code_object(co.data, co.processor, wave64_code(co), objdump, co.source)
            total = out.setdefault(co.processor, Counts())
            if progress:
                for key in counts.groups.keys() - total.groups.keys():
                    sys.stderr.write(f"new {key}: {counts.examples[key]}\n")
            total.add(counts)
            if progress:
                sys.stderr.write(f"{entry} #{n}: equal {total.equal} rejected {total.rejected} "
                                 f"different {total.different} fell back {total.fell_back}\n")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("library", type=Path)
    parser.add_argument("--every", type=int, default=1, help="every N-th code object of each target")
    parser.add_argument("--first", type=int, default=0, help="at most N code objects per target")
    parser.add_argument("--json", type=Path, help="write the counts and groups here")
    parser.add_argument("--groups", type=int, default=8, help="groups printed per target")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("ISALENS_MAX_INPUT_SIZE", "4G")
    began = time.perf_counter()
    result = sweep(args.library, every=args.every, first=args.first, progress=args.progress)
    seconds = time.perf_counter() - began
    for target, c in sorted(result.items()):
        print(f"{target}: {c.code_objects} code objects, equal {c.equal}, rejected {c.rejected}, "
              f"different {c.different}, fell back {c.fell_back}, objdump only {c.objdump_only}")
        for (outcome, fmt, what), n in c.groups.most_common(args.groups):
            print(f"    {n:7d} {outcome} {fmt} {what}: {c.examples[(outcome, fmt, what)]}")
    print(f"{seconds:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({"library": args.library.name, "seconds": round(seconds),
                                         "targets": {t: c.summary() for t, c in sorted(result.items())}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
