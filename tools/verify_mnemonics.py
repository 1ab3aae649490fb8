#!/usr/bin/env python3
"""Re-verify isalens' AMDGPU mnemonic lists against a real LLVM assembler.

For every ``mnemonics_<family>.txt`` in ``src/isalens/isa/amdgcn/data`` this
script feeds each listed base mnemonic to the assembler once per target CPU
of the family and classifies the diagnostic:

* no diagnostic, or ``too few operands for instruction``  -> the mnemonic is
  known for that CPU (only its operands were missing);
* ``invalid instruction`` (with or without a "did you mean" hint),
  ``instruction not supported on this GPU`` or any other diagnostic -> not
  known for that CPU.

A family list is the union over its targets, so a name passes when at least
one target of the family accepts it.  VOPD component names (``v_dual_*``)
cannot be assembled on their own; they are tried as the X and as the Y half
of a complete dual instruction with a few operand shapes instead.

Which targets a list serves comes from the arch data (``mnemonic_lists`` in
``src/isalens/arch/data/*.toml``), the same facts isalens itself reads.

The lists are produced for LLVM 19 (``llvm-mc-19``).  Targets the assembler
does not know (gfx950 and gfx1153 are unknown to LLVM 19) are reported as
skipped, and a family whose targets are all unknown is skipped as a whole.
Use ``--cc1as`` to run a different LLVM through clang's integrated assembler
(``clang -cc1as``), e.g. a newer clang that knows gfx950.

Exit status: 0 when every checked name is accepted, 1 when the assembler
rejects a listed name or a list is malformed, 2 when no assembler is found.
Standard library only.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ARCH_DATA = Path(__file__).resolve().parent.parent / "src" / "isalens" / "arch" / "data"


def _family_defaults(stem: str, docs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    doc = docs[stem]
    base = _family_defaults(doc["extends"], docs) if "extends" in doc else {}
    return {**base, **doc.get("defaults", {})}


def family_targets(arch_data: Path = ARCH_DATA) -> dict[str, tuple[str, ...]]:
    """List name -> the targets whose instruction set includes it (``mnemonic_lists`` in the arch data)."""
    docs = {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(arch_data.glob("*.toml"))}
    out: dict[str, list[str]] = {}
    for stem, doc in docs.items():
        defaults = _family_defaults(stem, docs)
        for target, overrides in doc.get("targets", {}).items():
            for name in {**defaults, **overrides}.get("mnemonic_lists", ()):
                out.setdefault(name, []).append(target)
    return {name: tuple(sorted(targets, key=lambda t: (len(t), t))) for name, targets in sorted(out.items())}


FAMILY_TARGETS: dict[str, tuple[str, ...]] = family_targets()

ENCODING_SUFFIXES: tuple[str, ...] = (
    "_e64_dpp",
    "_e32_dpp",
    "_dpp8",
    "_e32",
    "_e64",
    "_sdwa",
    "_dpp",
)

# Operand shapes tried for VOPD halves.  The X half writes v0 and the Y half
# v3 (one even, one odd destination) and their sources sit in different VGPR
# banks, which keeps the dual-issue constraints satisfied.
_VOPD_SHAPES: tuple[str, ...] = (
    "{d}, v4",
    "{d}, v4, v5",
    "{d}, v4, v5, 0x1",
    "{d}, v4, 0x1, v5",
    "{d}, v4, v5, vcc_lo",
    "{d}, v4, v5, vcc",
)

_DIAG = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Assembler:
    """How to run an AMDGPU assembler on a file for one target CPU."""

    argv: tuple[str, ...]
    cc1as: bool = False

    def command(self, cpu: str, path: str) -> list[str]:
        if self.cc1as:
            return [*self.argv, "-triple", "amdgcn-amd-amdhsa", "-target-cpu", cpu, "-o", os.devnull, path]
        return [*self.argv, "-arch=amdgcn", f"-mcpu={cpu}", "-o", os.devnull, path]

    def errors(self, cpu: str, lines: list[str]) -> dict[int, str]:
        """Assemble ``lines`` and return {1-based line number: first error}."""
        with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as handle:
            handle.write("\n".join(lines) + "\n")
            path = handle.name
        try:
            proc = subprocess.run(self.command(cpu, path), capture_output=True, text=True, check=False)
        finally:
            os.unlink(path)
        found: dict[int, str] = {}
        for text in proc.stderr.splitlines():
            match = _DIAG.match(text)
            if match:
                found.setdefault(int(match.group("line")), match.group("msg"))
        return found

    def knows(self, cpu: str) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as handle:
            handle.write("s_nop 0\n")
            path = handle.name
        try:
            proc = subprocess.run(self.command(cpu, path), capture_output=True, text=True, check=False)
        finally:
            os.unlink(path)
        return "not a recognized processor" not in proc.stderr


def _accepted(message: str | None) -> bool:
    return message is None or message.startswith("too few operands")


def accepted_names(asm: Assembler, cpu: str, names: list[str]) -> set[str]:
    """Names of ``names`` that ``asm`` knows as mnemonics for ``cpu``."""
    plain = [n for n in names if not n.startswith("v_dual_")]
    dual = [n for n in names if n.startswith("v_dual_")]
    ok: set[str] = set()
    if plain:
        errors = asm.errors(cpu, plain)
        ok.update(n for i, n in enumerate(plain, 1) if _accepted(errors.get(i)))
    if dual:
        lines: list[str] = []
        owners: list[str] = []
        for name in dual:
            for shape in _VOPD_SHAPES:
                lines.append(f"{name} {shape.format(d='v0')} :: v_dual_mov_b32 v3, v2")
                owners.append(name)
                lines.append(f"v_dual_mov_b32 v0, v1 :: {name} {shape.format(d='v3')}")
                owners.append(name)
        errors = asm.errors(cpu, lines)
        ok.update(o for i, o in enumerate(owners, 1) if i not in errors)
    return ok


@dataclass
class ListFile:
    family: str
    path: Path
    names: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_list(path: Path, family: str) -> ListFile:
    """Read one list and check its format (comments first, sorted names)."""
    result = ListFile(family, path)
    seen_name = False
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or not lines[0].startswith("#"):
        result.problems.append("does not start with a '#' comment line")
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith("#"):
            if seen_name:
                result.problems.append(f"line {number}: comment after the first name")
            continue
        seen_name = True
        if not _NAME.match(text):
            result.problems.append(f"line {number}: not a lowercase mnemonic: {text!r}")
        elif text.endswith(ENCODING_SUFFIXES):
            result.problems.append(f"line {number}: encoding suffix not stripped: {text}")
        result.names.append(text)
    if result.names != sorted(result.names):
        result.problems.append("names are not sorted")
    if len(set(result.names)) != len(result.names):
        result.problems.append("duplicate names")
    return result


def find_assembler(args: argparse.Namespace) -> Assembler | None:
    if args.cc1as:
        return Assembler(tuple(shlex.split(args.cc1as)), cc1as=True)
    candidates = [args.llvm_mc] if args.llvm_mc else ["llvm-mc-19", "llvm-mc"]
    for candidate in candidates:
        resolved = shutil.which(candidate)
        if resolved:
            return Assembler((resolved,))
    return None


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=here.parent / "src" / "isalens" / "isa" / "amdgcn" / "data",
        help="folder with mnemonics_<family>.txt (default: the package's data folder)",
    )
    parser.add_argument("--llvm-mc", help="llvm-mc binary (default: llvm-mc-19, then llvm-mc)")
    parser.add_argument(
        "--cc1as",
        help="use clang's integrated assembler instead, e.g. 'clang-19 -cc1as'",
    )
    parser.add_argument(
        "--family",
        action="append",
        choices=sorted(FAMILY_TARGETS),
        help="check only this family (repeatable)",
    )
    parser.add_argument(
        "--per-target",
        action="store_true",
        help="also print, per target, the listed names that target rejects",
    )
    parser.add_argument(
        "--candidates",
        type=Path,
        help="file of candidate names (one a line); print those a family's "
        "targets accept that its list does not contain",
    )
    args = parser.parse_args(argv)

    asm = find_assembler(args)
    if asm is None:
        print("error: no assembler found (install llvm-19 or pass --llvm-mc)", file=sys.stderr)
        return 2

    families = args.family or list(FAMILY_TARGETS)
    candidates: list[str] = []
    if args.candidates:
        candidates = sorted(
            {
                line.strip()
                for line in args.candidates.read_text(encoding="utf-8").splitlines()
                if _NAME.match(line.strip())
            }
        )

    failed = False
    print(f"assembler: {' '.join(asm.argv)}")
    for family in families:
        path = args.data_dir / f"mnemonics_{family}.txt"
        if not path.exists():
            print(f"{family}: MISSING {path}")
            failed = True
            continue
        listing = read_list(path, family)
        for problem in listing.problems:
            print(f"{family}: FORMAT {problem}")
            failed = True
        known = [cpu for cpu in FAMILY_TARGETS[family] if asm.knows(cpu)]
        unknown = [cpu for cpu in FAMILY_TARGETS[family] if cpu not in known]
        if not known:
            print(f"{family}: {len(listing.names)} names, SKIPPED (assembler knows none of {', '.join(unknown)})")
            continue
        accepted_any: set[str] = set()
        per_target: dict[str, set[str]] = {}
        for cpu in known:
            per_target[cpu] = accepted_names(asm, cpu, listing.names)
            accepted_any |= per_target[cpu]
        rejected = [n for n in listing.names if n not in accepted_any]
        status = "ok" if not rejected else f"{len(rejected)} REJECTED"
        note = f"; skipped unknown targets {', '.join(unknown)}" if unknown else ""
        print(f"{family}: {len(listing.names)} names, targets {', '.join(known)}: {status}{note}")
        for name in rejected:
            print(f"  rejected: {name}")
        if rejected:
            failed = True
        if args.per_target:
            for cpu in known:
                missing = [n for n in listing.names if n not in per_target[cpu]]
                if missing:
                    print(f"  {cpu} lacks {len(missing)}: {' '.join(missing)}")
        if candidates:
            listed = set(listing.names)
            extra: set[str] = set()
            for cpu in known:
                extra |= accepted_names(asm, cpu, [c for c in candidates if c not in listed])
            if extra:
                print(f"  accepted but not listed ({len(extra)}): {' '.join(sorted(extra))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
