"""Benchmark (issue 28, item 4): a large library's code objects disassembled by our decoder vs by llvm-objdump,
and each listing then read into kernels (the ``objdump`` reader, the same for both).

    .venv/bin/python benchmarks/decoder_speed.py [--library FILE] [--megabytes 20] [--per-target 0]

Without ``--library``, Debian's librocsparse (``apt-get download librocsparse0``, unpacked into .cache/debs; 1.3 GB,
ROCm 5.3 built by LLVM 15, gfx803-gfx1102) is fetched the first time. Code objects are taken in file order, those
of targets our decoder has tables for and reads without falling back, until their ``.text`` holds
``--megabytes``. Prints JSON: bytes and instructions decoded, seconds for our listing (decoder cache cleared
first), llvm-objdump's (process, text and the padding step), and reading either listing into kernels.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def debian_librocsparse() -> Path | None:
    cache = ROOT / ".cache" / "debs"
    unpacked = cache / "x" / "librocsparse0"
    found = sorted(p for p in unpacked.rglob("librocsparse.so*") if p.is_file() and not p.is_symlink())
    if found:
        return found[0]
    if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
        return None
    cache.mkdir(parents=True, exist_ok=True)
    if subprocess.run(["apt-get", "download", "librocsparse0"], cwd=cache, capture_output=True).returncode:
        return None
    debs = sorted(cache.glob("librocsparse0_*.deb"))
    if not debs:
        return None
    unpacked.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg", "-x", str(debs[-1]), str(unpacked)], check=True)
    found = sorted(p for p in unpacked.rglob("librocsparse.so*") if p.is_file() and not p.is_symlink())
    return found[0] if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=Path)
    parser.add_argument("--megabytes", type=float, default=20.0, help=".text bytes to decode (default 20)")
    parser.add_argument("--per-target", type=int, default=0, help="at most this many code objects per target")
    parser.add_argument("--no-parse", action="store_true", help="skip reading the listings into kernels")
    args = parser.parse_args()
    library = args.library or debian_librocsparse()
    if library is None:
        sys.stderr.write("no library: pass --library or let apt-get download librocsparse0 (offline?)\n")
        return 2
    os.environ.setdefault("ISALENS_MAX_INPUT_SIZE", "4G")
    from isalens.binary.sections import code_sections
    from isalens.engine.binary import list_code_objects
    from isalens.engine.code_listing import code_listing
    from isalens.engine.target import resolve_arch, target_info
    from isalens.isa import registry
    from isalens.isa.amdgcn.decoder import listing as listing_module
    from isalens.isa.amdgcn.decoder.tables import family_of

    chosen = []
    budget = int(args.megabytes * (1 << 20))
    total = 0
    per_target: dict[str, int] = {}
    for item in list_code_objects(library):
        co = item.code_object
        if co is None or family_of(co.processor) is None:
            continue
        if args.per_target and per_target.get(co.processor, 0) >= args.per_target:
            continue
        size = sum(len(s.data) for s in code_sections(co.data, file=str(library), where=co.source))
        chosen.append(co)
        per_target[co.processor] = per_target.get(co.processor, 0) + 1
        total += size
        if total >= budget:
            break
    listing_module._CACHE.clear()
    ours_s = llvm_s = parse_ours_s = parse_llvm_s = 0.0
    instructions = fallbacks = 0
    for co in chosen:
        t = time.perf_counter()
        ours, notes = code_listing(co, file=str(library), disassembler="ours")
        if any(n.code == "disassembler" for n in notes):  # llvm-objdump made this one: not counted
            fallbacks += 1
            continue
        ours_s += time.perf_counter() - t
        t = time.perf_counter()
        theirs, _ = code_listing(co, file=str(library), disassembler="llvm")
        llvm_s += time.perf_counter() - t
        instructions += theirs.count("// ")
        if args.no_parse:
            continue
        target = target_info(resolve_arch(co.processor, file=str(library)), None)
        for text, slot in ((ours, "ours"), (theirs, "llvm")):
            t = time.perf_counter()
            registry.parse(text, file=str(library), target=target, dialect="objdump", ignore_unknown=True)
            if slot == "ours":
                parse_ours_s += time.perf_counter() - t
            else:
                parse_llvm_s += time.perf_counter() - t
    result = {
        "library": library.name, "code_objects": len(chosen), "fell_back": fallbacks,
        "targets": sorted(per_target), "text_bytes": total, "instructions": instructions,
        "ours_listing_s": round(ours_s, 2), "llvm_objdump_listing_s": round(llvm_s, 2),
        "listing_speedup": round(llvm_s / ours_s, 2) if ours_s else None,
        "read_ours_s": round(parse_ours_s, 2), "read_llvm_s": round(parse_llvm_s, 2),
        "end_to_end_speedup": round((llvm_s + parse_llvm_s) / (ours_s + parse_ours_s), 2) if ours_s else None,
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
