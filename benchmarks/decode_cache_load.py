"""Benchmark: loading a decoded-text cache file (isa/amdgcn/decode_cache.py) whole, and only the chunks (mnemonics)
one ISA file needs, as a run of that file does. CPU seconds in this process, the collector off as in the CLI,
median of ``--repeat``. The cache file defaults to the largest under the user's cache directory; a format-1 file
(written before the chunked format) is converted in memory first. Run by hand, never in tests, e.g.

    .venv/bin/python benchmarks/decode_cache_load.py --isa examples/isa/fp16_half3_two_uint.gfx902.s
"""

from __future__ import annotations

import argparse
import gc
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from isalens.cachefile import cache_directory, write_sealed
from isalens.isa.amdgcn import decode_cache

ROOT = Path(__file__).resolve().parents[1]


def _accept(entry: Any) -> bool:
    return True


def _cpu(work: Any) -> float:
    gc.disable()
    try:
        t = time.process_time()
        work()
        return time.process_time() - t
    finally:
        gc.enable()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, help="a cache file (default: the largest in the cache directory)")
    parser.add_argument("--isa", type=Path, default=ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    files = sorted((cache_directory() / "decoded").glob("*.pickle"), key=lambda p: p.stat().st_size)
    source = args.file or (files[-1] if files else None)
    if source is None:
        print("no cache file", file=sys.stderr)
        return 1
    data = source.read_bytes()
    path = source
    if data.startswith(b"isalens-decoded-1\n"):  # the whole-file format: convert (trusting our own file)
        entries = pickle.loads(data[len(b"isalens-decoded-1\n") + 32:])
        path = Path(tempfile.mkdtemp()) / "converted.pickle"
        write_sealed(path, decode_cache._MAGIC, decode_cache.Store(path, _accept).payload(entries.items(), _accept))
    store = decode_cache.Store(path, _accept)
    texts = sum(len(pickle.loads(chunk)) for chunk in store.raw.values())
    words = {line.split(None, 1)[0] for line in args.isa.read_text().splitlines() if line.strip()}
    wanted = sorted(words & set(store.raw))

    def some() -> None:
        s = decode_cache.Store(path, _accept)
        for key in wanted:
            s.take(key)

    whole = statistics.median(_cpu(lambda: decode_cache.load(path, _accept)) for _ in range(args.repeat))
    part = statistics.median(_cpu(some) for _ in range(args.repeat))
    print(f"{source.name}: {path.stat().st_size / 1e6:.1f} MB, {texts} texts, {len(store.raw)} mnemonics")
    print(f"all chunks: {whole:.3f} s CPU; the {len(wanted)} mnemonics of {args.isa.name}: {part:.3f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
