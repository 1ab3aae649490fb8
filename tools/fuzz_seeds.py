"""Seed files for tools/fuzz.py's binary, result and budget targets, built at fuzz time (clang-19 for the code
objects and bundles, ``isalens scan`` for the results) into ``.cache/fuzz-seeds/<key>/`` and reused while the
sources, the builders, clang and isalens' scan code are unchanged (the key hashes them all).

The directory also holds the *canary*: a file outside every input's directory whose content no command may
print unless asked to read it (a budget's ``paths`` or a result's own SQL reaching it is a disclosure).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tools.fuzz_binary import SEED_SOURCES, BinarySeeds, build_binary_seeds, load_binary_seeds
from tools.fuzz_results import CANARY_TOKEN

__all__ = ["FileSeeds", "load_file_seeds"]

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "fuzz-seeds"
#: a small ISA file of the examples, scanned beside the binaries and put beside fuzzed budget files
_ISA_EXAMPLE = ROOT / "examples" / "isa" / "fp16_fp32.gfx902.s"


@dataclass(frozen=True)
class FileSeeds:
    """Everything the file targets start from."""

    root: Path
    binary: BinarySeeds
    #: (file name, bytes): the scan's own results and their variants
    results: tuple[tuple[str, bytes], ...]
    #: the scan's own Parquet result (the other side of ``diff``)
    base_result: bytes
    canary: Path
    #: files put beside a fuzzed budget file (its ``paths`` may name them), and links there (name -> target;
    #: ``fifo:`` makes a FIFO)
    budget_files: tuple[tuple[str, bytes], ...]
    budget_links: tuple[tuple[str, str], ...]


def _key() -> str:
    digest = hashlib.sha256()
    for text in SEED_SOURCES:
        digest.update(text.encode())
    for path in sorted([*(ROOT / "tools").glob("fuzz_*.py"), *(ROOT / "src" / "isalens" / "scan").glob("*.py"),
                        _ISA_EXAMPLE]):
        digest.update(path.read_bytes())
    for tool in ("clang-19", "clang++-19"):
        found = shutil.which(tool)
        if found:
            digest.update(subprocess.run([found, "--version"], capture_output=True, stdin=subprocess.DEVNULL,
                                         check=False, timeout=60).stdout)
    digest.update(sys.version.encode())
    return digest.hexdigest()[:16]


def _build(out: Path) -> bool:
    if not build_binary_seeds(out):
        return False
    (out / "canary").mkdir()
    canary = out / "canary" / "canary.txt"
    canary.write_text(CANARY_TOKEN + "\n")
    inputs = [p for p in (out / "co" / "0-gfx90a.co", out / "containers" / "plain.hipfb", _ISA_EXAMPLE) if p.exists()]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz_results.py"), "build", str(out), str(canary),
                           *map(str, inputs)], cwd=out, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          check=False, timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"building the result seeds failed:\n{proc.stderr[-3000:]}")
    return True


def load_file_seeds(cache: Path = CACHE) -> FileSeeds | None:
    """The file seeds, built first when the cache has none for this key; None without clang-19, pyarrow, duckdb
    or the binary extras (those targets are then skipped)."""
    if shutil.which("clang-19") is None:
        return None
    # only whether they are there: the parent process never loads DuckDB or Arrow (see tools/fuzz_results.py)
    if any(importlib.util.find_spec(name) is None for name in ("duckdb", "pyarrow", "elftools", "msgpack")):
        return None
    root = cache / _key()
    if not (root / "done").exists():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="building-", dir=cache))
        try:
            if not _build(tmp):
                return None
            (tmp / "done").write_text("")
            with contextlib.suppress(OSError):  # another run built it meanwhile
                os.rename(tmp, root)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    binary = load_binary_seeds(root)
    if binary is None:
        return None
    results = tuple((p.name, p.read_bytes()) for p in sorted((root / "results").iterdir()))
    canary = root / "canary" / "canary.txt"
    linked = next(data for label, data in binary.code_objects if not label.startswith("relocatable"))
    budget_files = (("k.co", linked), ("r.parquet", (root / "scan.parquet").read_bytes()),
                    ("r.duckdb", (root / "scan.duckdb").read_bytes()), ("sub/k.s", _ISA_EXAMPLE.read_bytes()))
    links = (("escape", str(canary)), ("zero", "/dev/zero"), ("stdin", "/dev/stdin"), ("fifo", "fifo:"),
             ("up", str(canary.parent)))
    return FileSeeds(root, binary, results, (root / "scan.parquet").read_bytes(), canary, budget_files, links)
