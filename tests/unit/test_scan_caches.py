"""A scan worker's per-process caches are bounded by their entries (isalens.scan.caches): every cache a unit
grows is one of them or bounded by construction, and after each unit a worker runs none holds more than its
bound. Nothing here is timed."""

from __future__ import annotations

import dataclasses
import functools
import sys
from pathlib import Path

import pytest

from isalens.scan import caches, run, work
from isalens.scan.units import Unit
from tests.conftest import ROOT

#: ISA texts of several targets: the examples (gfx902) and, when the oracle corpus is built, one program per
#: target of it (a scan worker meets one target after another)
_EXAMPLES = sorted((ROOT / "examples" / "isa").glob("*.s"))
_CORPUS = [next(iter(sorted((ROOT / ".cache" / "corpus").glob(f"sgemm_8x8.{target}.*/llc.s"))), None)
           for target in ("gfx900", "gfx90a", "gfx1030", "gfx1100")]
INPUTS = _EXAMPLES + [p for p in _CORPUS if p is not None]

#: module-level containers and unbounded functools caches a unit may grow that need no bound on entries, and why
#: (keyed by target, family, mnemonic or a file's class: a few thousand at most, however many texts)
BOUNDED_BY_CONSTRUCTION = {
    "isalens.scan.work._PARSED": "the last two code objects (_PARSED_KEEP)",
    "isalens.scan.work._LISTINGS": "the last code object's listing",
    "isalens.engine.binary._DEBUG_READ": "one code object per DWARF reader",
    "isalens.arch.timing._TARGET_TABLES": "per target",
    "isalens.arch.timing._DEVICE_TABLES": "per device",
    "isalens.arch.timing._MEMORY_TABLES": "per target's memory latencies",
    "isalens.isa.amdgcn.decode_cache._STORES": "one per target, emptied with _TEXTS",
    "isalens.isa.amdgcn.decode_cache._DIRTY": "one per target, emptied with _TEXTS",
    "isalens.isa.amdgcn.decode_cache._FINGERPRINT": "one string",
    "isalens.isa.amdgcn.decode_cache._ALLOWED": "the classes a pickled entry may name",
    "isalens.isa.amdgcn.decode_cache._PLAIN": "per dataclass",
    # a disassembly's caches (code-object units: tests/oracle/test_scan_worker_caches.py)
    "isalens.isa.amdgcn.decoder.shapes._register_fields": "per instruction format and field layout",
    "isalens.isa.amdgcn.decoder.tables.opcode_table": "per ISA family and wave size",
    "isalens.isa.amdgcn.decoder.listing._SHAPES": "per target, emptied with listing._CACHE",
    "isalens.classcode._CODES": "per dataclass",
    "isalens.classcode._RAW": "per dataclass",
    "isalens.classcode._USED": "per dataclass",
    "isalens.tomlcache._ENTRIES": "per bundled table file",
    "isalens.tomlcache._USED": "per bundled table file",
    "isalens.arch.timing._raw": "per timing family",
    "isalens.arch.timing.timing_table": "per timing family",
    "isalens.isa.amdgcn.catalog._load": "per ISA family",
    "isalens.isa.amdgcn.catalog.known_mnemonics": "per tuple of mnemonic lists (one per target)",
    "isalens.isa.amdgcn.encoding.generation_of": "per target",
    "isalens.isa.amdgcn.encoding._last_match": "per mnemonic, generation and target",
    "isalens.isa.amdgcn.arity.most_operands": "per mnemonic and target's lists",
    "isalens.isa.amdgcn.classes.class_of": "per mnemonic and generation",
    "isalens.isa.amdgcn.semantics._info": "per mnemonic, generation, wave size and modifier triggers",
    "isalens.isa.amdgcn.semantics._resolve": "per mnemonic base, generation and modifier triggers",
    "isalens.patterns._compiled": "per pattern list of the configuration",
}


def _unit(path: Path) -> Unit:
    return Unit(str(path), "file", path.name, "text", path.read_bytes())


def _containers() -> dict[str, int]:
    """The size of every module-level dict, set and list of isalens, and of every unbounded functools cache."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("isalens") or module is None:
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, dict | set | list) and not attribute.startswith("__"):
                sizes[f"{name}.{attribute}"] = len(value)
            elif isinstance(value, functools._lru_cache_wrapper) and value.cache_info().maxsize is None \
                    and getattr(value, "__module__", None) == name:
                sizes[f"{name}.{attribute}"] = value.cache_info().currsize
    return sizes


def test_every_cache_a_unit_grows_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run units of several targets without bounding; every module-level container or unbounded cache that
    grew is in WORKER_CACHES or bounded by construction (a new per-text cache fails here until it is listed)."""
    monkeypatch.setenv("ISALENS_DECODE_CACHE", "0")
    for path in INPUTS[:1]:
        work.run_unit(_unit(path), work.ScanOptions())  # imports what a unit imports
    for cache in caches.WORKER_CACHES:
        cache.clear()  # so the caches of texts grow again here, whatever ran in this process before
    before = _containers()
    for path in INPUTS:
        assert work.run_unit(_unit(path), work.ScanOptions())[0]["error"] is None
    after = _containers()
    grown = {name for name, size in after.items() if size > before.get(name, 0)}
    listed = {cache.name for cache in caches.WORKER_CACHES}
    assert grown - listed - set(BOUNDED_BY_CONSTRUCTION) == set()
    # the caches of texts did grow (the check above saw them), and each listed name is a real cache
    assert {"isalens.isa.amdgcn.instructions._TEXTS", "isalens.isa.amdgcn.timing_facts._MEMO",
            "isalens.analysis.timing.costs._MEMO"} <= grown
    for cache in caches.WORKER_CACHES:
        assert cache.size() >= 0


def test_a_worker_keeps_every_cache_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each unit a worker runs (run._run_unit), no cache holds more entries than its bound: with bounds
    of 8 entries, far below what one unit decodes (the examples have hundreds of distinct texts)."""
    from isalens.isa.amdgcn import decode_cache
    from isalens.isa.amdgcn.decoder import listing

    monkeypatch.setenv("ISALENS_DECODE_CACHE", "0")
    small = tuple(dataclasses.replace(cache, bound=8) for cache in caches.WORKER_CACHES)
    monkeypatch.setattr(caches, "WORKER_CACHES", small)
    emptied: set[str] = set()
    real = caches.bound_caches

    def recorded() -> list[str]:
        names = real()
        emptied.update(names)
        return names

    monkeypatch.setattr(run, "bound_caches", recorded)
    # text units never reach the decoder's listing cache (code objects do): one filled by hand stands for it
    monkeypatch.setitem(listing._CACHE, ("gfx1030", False), ({i: None for i in range(9)}, {}, {}))  # type: ignore[misc]
    # a cache the decode cache would write at exit (off in tests): emptied with the decoded texts, which it holds
    monkeypatch.setitem(decode_cache._DIRTY, Path("/nonexistent/cache"), ({"s_endpgm": None}, bool))
    for path in INPUTS * 2:
        assert run._run_unit(_unit(path), work.ScanOptions())[0]["error"] is None
        over = {name: size for name, size in caches.cache_sizes().items() if size > 8}
        assert over == {}
    assert not decode_cache._DIRTY
    # the bound acted: the caches of texts passed 8 entries in a unit and were emptied
    assert {"isalens.isa.amdgcn.instructions._TEXTS", "isalens.isa.amdgcn.decoder.listing._CACHE",
            "isalens.isa.amdgcn.lanes._BY_TEXT", "isalens.isa.amdgcn.timing_facts._MEMO",
            "isalens.analysis.timing.costs._MEMO"} <= emptied



def test_everything_made_from_the_decoded_texts_goes_with_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader keeps what it makes from its decoded texts (tails, shapes, heads, branch forms) with the texts,
    in one record per target (``instructions._TEXTS``), which the worker's bound empties. Tables of their own
    beside the texts, each holding per target the texts' dict it belonged to, kept an emptied dict of up to
    ``TEXTS`` texts alive for each target until it was read again (``_BRANCH_FORMS`` did: a whole-library scan's
    workers grew to 1.1 GB each, docs/performance.md). So the reader has no other table keyed by target, every
    dict a reading context takes for its target is the record's, and the bound empties the table."""
    from isalens.engine.target import resolve_arch, target_info
    from isalens.isa.amdgcn import instructions

    # the per-target tables: the module's dictionaries keyed by (target, wave size, unknown-instruction policy)
    tables = [name for name, annotation in vars(instructions)["__annotations__"].items()
              if str(annotation).startswith("dict[tuple[TargetInfo, int, bool]")]
    assert tables == ["_TEXTS"]
    monkeypatch.setattr(instructions, "_TEXTS", {})
    ctx = instructions.ReadContext("t.s", target_info(resolve_arch("gfx1030", file="t.s"), None), 32, False, [])
    record = instructions._TEXTS[(ctx.target, 32, False)]
    kept = {id(getattr(record, name)) for name in record.__slots__}
    per_target = [name for name in ctx.__slots__ if isinstance(getattr(ctx, name), dict)]
    assert len(per_target) == len(kept) and {id(getattr(ctx, name)) for name in per_target} == kept
    decoded = next(cache for cache in caches.WORKER_CACHES if cache.name.endswith("instructions._TEXTS"))
    decoded.clear()
    assert instructions._TEXTS == {}
