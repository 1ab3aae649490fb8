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
import gc
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
    parser.add_argument("--via-text", action="store_true",
                        help="also time our decoder's listing written as text and read back (before issue 28's drafts)")
    parser.add_argument("--progress", type=Path,
                        help="append one JSON line per code object: each path's figures so far (a run stopped "
                             "early still gives the size it reached)")
    parser.add_argument("--paths", default="ours,llvm",
                        help="which paths to time, comma-separated: ours, llvm (default both; a 100 MB library's "
                             "two paths can then run one after the other in separate processes)")
    args = parser.parse_args()
    library = args.library or debian_librocsparse()
    if library is None:
        sys.stderr.write("no library: pass --library or let apt-get download librocsparse0 (offline?)\n")
        return 2
    os.environ.setdefault("ISALENS_MAX_INPUT_SIZE", "4G")
    # each path decodes every distinct instruction text itself: no file of an earlier run's texts
    os.environ.setdefault("ISALENS_DECODE_CACHE", "0")
    from isalens.binary.sections import code_sections
    from isalens.engine.binary import list_code_objects
    from isalens.engine.code_listing import code_listing, code_reading
    from isalens.engine.target import resolve_arch, target_info
    from isalens.isa import registry
    from isalens.isa.amdgcn import instructions as instructions_module
    from isalens.isa.amdgcn.decoder import listing as listing_module
    from isalens.isa.amdgcn.decoder.tables import family_of

    chosen = []
    sizes: dict[int, int] = {}
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
        sizes[id(co)] = size
        per_target[co.processor] = per_target.get(co.processor, 0) + 1
        total += size
        if total >= budget:
            break

    def clock() -> tuple[float, float]:
        """(wall, CPU of this process and its finished children) seconds."""
        t = os.times()
        return time.perf_counter(), t.user + t.system + t.children_user + t.children_system

    def since(start: tuple[float, float], into: list[float]) -> tuple[float, float]:
        now = clock()
        into[0] += now[0] - start[0]
        into[1] += now[1] - start[1]
        return now

    # the cyclic collector is paused, as isalens' CLI pauses it for every command (cli.main): the millions of
    # objects a library's kernels are would otherwise be walked again and again
    gc.disable()
    # one path after the other, each from empty caches (the decoded words, the decoded texts of the reader): the
    # reader's cache is shared by the whole process, so a path read second would find the texts of the first
    paths = [p for p in ("ours", *(["ours-via-text"] if args.via_text else []), "llvm")
             if p in args.paths.split(",") or p == "ours-via-text"]
    # the code objects our decoder reads without falling back: found by the first path as it goes (below)
    kept: list[tuple[Any, Any]] | None = None
    figures: dict[str, dict[str, float]] = {}
    instructions = 0
    for path in paths:
        listing_module._CACHE.clear()
        listing_module._SHAPES.clear()
        instructions_module._TEXTS.clear()
        decode, read = [0.0, 0.0], [0.0, 0.0]
        count = done = 0
        found: list[tuple[Any, Any]] = []
        for co, target in kept if kept is not None else ((co, None) for co in chosen):
            if kept is None:
                # the first path finds the code objects our decoder reads without falling back to llvm-objdump (a
                # fallback is llvm-objdump's work, not counted): "ours" by its own reading (a fallback's time is
                # left out), another by a reading of ours made before it, untimed
                if path != "ours":
                    reading = code_reading(co, file=str(library), disassembler="ours")
                    if any(n.code == "disassembler" for n in reading.notes):
                        continue
                target = target_info(resolve_arch(co.processor, file=str(library)), None)
            start = clock()
            if path == "ours":  # the drafts straight from the decoded instructions, as `isalens analyze` reads
                reading = code_reading(co, file=str(library), disassembler="ours")
                if kept is None and any(n.code == "disassembler" for n in reading.notes):
                    continue  # llvm-objdump made it: not counted
                start = since(start, decode)
                if not args.no_parse:
                    module = reading.parse(file=str(library), target=target, ignore_unknown=True,
                                           packed_workitem_ids=False)
            else:  # the listing's text, read back by the objdump reader
                text, _ = code_listing(co, file=str(library), disassembler="ours" if path != "llvm" else "llvm")
                start = since(start, decode)
                if not args.no_parse:
                    module = registry.parse(text, file=str(library), target=target, dialect="objdump",
                                            ignore_unknown=True)
            if not args.no_parse:
                since(start, read)
                count += sum(len(k.instructions) for k in module.kernels)
            found.append((co, target))
            done += sizes[id(co)]
            if args.progress:
                with args.progress.open("a") as out:
                    out.write(json.dumps({"path": path, "code_objects": len(found), "text_bytes": done,
                                          "instructions": count, "cpu_s": round(decode[1] + read[1], 2),
                                          "wall_s": round(decode[0] + read[0], 2)}) + "\n")
        if kept is None:
            kept = found
        instructions = instructions or count
        figures[path] = {"listing_s": round(decode[0], 2), "listing_cpu_s": round(decode[1], 2),
                         "read_s": round(read[0], 2), "read_cpu_s": round(read[1], 2),
                         "total_s": round(decode[0] + read[0], 2), "total_cpu_s": round(decode[1] + read[1], 2)}
    llvm_total = figures.get("llvm")
    result: dict[str, object] = {
        "library": library.name, "code_objects": len(chosen), "fell_back": len(chosen) - len(kept or ()),
        "targets": sorted(per_target), "text_bytes": total, "instructions": instructions, **figures,
        "speedup": {} if llvm_total is None else {
            path: {"wall": round(llvm_total["total_s"] / f["total_s"], 2) if f["total_s"] else None,
                   "cpu": round(llvm_total["total_cpu_s"] / f["total_cpu_s"], 2) if f["total_cpu_s"] else None}
            for path, f in figures.items() if path != "llvm"},
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
