"""Benchmark: loading a decoded-text cache file (isa/amdgcn/decode_cache.py) whole, and only the chunks one ISA
file's texts need, as a run of that file does. CPU seconds in this process, the collector off as in the CLI,
median of ``--repeat``. The cache file defaults to the largest under the user's cache directory; a file of an
older format is refused. Run by hand, never in tests, e.g.

    .venv/bin/python benchmarks/decode_cache_load.py --isa examples/isa/fp16_half3_two_uint.gfx902.s
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from isalens.cachefile import cache_directory
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


def _texts(isa: Path) -> list[str]:
    """The distinct instruction texts of ``isa`` as the reader keys them (decoded here with the cache off)."""
    os.environ["ISALENS_DECODE_CACHE"] = "0"
    from isalens.engine import load_input
    from isalens.isa.amdgcn import instructions

    load_input(isa)
    del os.environ["ISALENS_DECODE_CACHE"]
    return sorted({text for texts in instructions._TEXTS.values() for text in texts.decoded})


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
    if not source.read_bytes().startswith(decode_cache._MAGIC):
        print(f"{source}: not a cache file of this format", file=sys.stderr)
        return 1
    path = source
    store = decode_cache.Store(path, _accept)
    texts = sum(len(pickle.loads(chunk)) for chunk in store.raw.values())
    wanted = _texts(args.isa)

    def some() -> None:
        s = decode_cache.Store(path, _accept)
        for text in wanted:
            s.take(text)

    whole = statistics.median(_cpu(lambda: decode_cache.load(path, _accept)) for _ in range(args.repeat))
    part = statistics.median(_cpu(some) for _ in range(args.repeat))
    print(f"{source.name}: {path.stat().st_size / 1e6:.1f} MB, {texts} texts, {len(store.index)} mnemonics, "
          f"{len(store.raw)} chunks")
    print(f"all chunks: {whole:.3f} s CPU; the chunks of the {len(wanted)} texts of {args.isa.name}: {part:.3f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
