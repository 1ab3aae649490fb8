"""The per-process caches a scan worker keeps between units, each bounded by its number of entries.

A worker analyses code objects of every target of a library one after another (librocsparse: seven targets,
round robin), and the analysis remembers per distinct instruction text what it decoded, read and computed, per
target. Each module bounds its own cache per target (100,000 texts or more), which lets seven targets side by
side fill a worker past a gigabyte (docs/performance.md, seventeenth and eighteenth sessions). Here every such
cache has one bound on all its entries, whatever the targets: :func:`bound_caches` empties a cache past it
between units. An emptied cache refills from the next units; what it held only saved time.

A bound on entries, not on resident memory: memory freed by emptying stays with Python's allocator (the
resident size does not fall), so a rule on resident memory either empties after every unit or lets the bar
rise; entries are what the memory holds. A cache not listed here is bounded by construction (one code object,
one listing, one debug reading: :mod:`isalens.scan.work`, :mod:`isalens.engine.binary`; tables per target or
device) or is a ``functools.lru_cache`` with a ``maxsize``; tests/unit/test_scan_caches.py checks that a unit
grows no other module-level cache.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["WORKER_CACHES", "Cache", "bound_caches", "cache_sizes"]


@dataclass(frozen=True, slots=True)
class Cache:
    """One cache: its name (``module.attribute``), its entries now, how to empty it, and its bound."""

    name: str
    size: Callable[[], int]
    clear: Callable[[], None]
    bound: int


#: distinct instruction texts a worker keeps decoded, read and timed (each cache of them apart): about 3.5 KB
#: per text over all of them on librocsparse (measured: 89,000 decoded texts of two targets held 156 MB, their
#: listing, cost and fact memos about as much again), so ~200 MB at the bound; a large gfx1030 code object of
#: librocsparse has 20,000-27,000 distinct texts, so the texts of the last two or three code objects are kept
TEXTS = 60_000
#: caches keyed by mnemonic (a few thousand exist per target), by column name or by a register write (the
#: statistics' ``_FORGETS``: a few thousand per library): never reached on real code
NAMES = 20_000


def _decoded_size() -> int:
    from isalens.isa.amdgcn import instructions

    return sum(len(texts.decoded) for texts in instructions._TEXTS.values())


def _clear_decoded() -> None:
    """The reader's decoded texts with everything made from them (one record per target), and the decode
    cache's open stores (a store hands each chunk of stored texts out once; opened again, it hands them out
    again to refill the emptied cache) and its list of caches to write at exit (it held the emptied ones; a
    forked worker ends with ``os._exit`` and never writes them)."""
    from isalens.isa.amdgcn import decode_cache, instructions

    instructions._TEXTS.clear()
    decode_cache._STORES.clear()
    decode_cache._DIRTY.clear()


def _listing_size() -> int:
    from isalens.isa.amdgcn.decoder import listing

    return sum(len(one) + len(two) + len(three) for one, two, three in listing._CACHE.values())


def _clear_listing() -> None:
    from isalens.isa.amdgcn.decoder import listing

    listing._CACHE.clear()
    listing._SHAPES.clear()


def _lanes_size() -> int:
    from isalens.isa.amdgcn import lanes

    return len(lanes._BY_TEXT)


def _clear_lanes() -> None:
    from isalens.isa.amdgcn import lanes

    lanes._BY_TEXT.clear()


def _facts_size() -> int:
    from isalens.isa.amdgcn import timing_facts

    return len(timing_facts._MEMO)


def _clear_facts() -> None:
    from isalens.isa.amdgcn import timing_facts

    timing_facts._MEMO.clear()


def _costs_size() -> int:
    from isalens.analysis.timing import costs

    return sum(len(by_text) + len(by_shape) for _, by_text, by_shape in costs._MEMO.values())


def _clear_costs() -> None:
    from isalens.analysis.timing import costs

    costs._MEMO.clear()


def _costs_rows_size() -> int:
    from isalens import _core

    return _core.costs_held()


def _clear_costs_rows() -> None:
    from isalens import _core

    _core.forget_costs()


def _dict_of(module: str, attribute: str) -> Cache:
    """A plain module-level dictionary, bounded by :data:`NAMES`."""
    import importlib

    def table() -> dict[object, object]:
        found: dict[object, object] = getattr(importlib.import_module(module), attribute)
        return found

    return Cache(f"{module}.{attribute}", lambda: len(table()), lambda: table().clear(), NAMES)


WORKER_CACHES: tuple[Cache, ...] = (
    Cache("isalens.isa.amdgcn.instructions._TEXTS", _decoded_size, _clear_decoded, TEXTS),
    Cache("isalens.isa.amdgcn.decoder.listing._CACHE", _listing_size, _clear_listing, TEXTS),
    Cache("isalens.isa.amdgcn.lanes._BY_TEXT", _lanes_size, _clear_lanes, TEXTS),
    Cache("isalens.isa.amdgcn.timing_facts._MEMO", _facts_size, _clear_facts, TEXTS),
    Cache("isalens.analysis.timing.costs._MEMO", _costs_size, _clear_costs, TEXTS),
    # the compiled schedule's rows of the costs objects above (one per distinct costs object it met)
    Cache("isalens._core costs rows", _costs_rows_size, _clear_costs_rows, TEXTS),
    _dict_of("isalens.isa.amdgcn.indexing", "_INDEXED"),
    _dict_of("isalens.analysis.stats", "_BASES"),
    _dict_of("isalens.analysis.stats", "_FORGETS"),
    _dict_of("isalens.scan.rows", "_COLUMNS"),
)


def cache_sizes() -> dict[str, int]:
    """Each cache's entries now, by name."""
    return {cache.name: cache.size() for cache in WORKER_CACHES}


def bound_caches() -> list[str]:
    """Empty every cache of :data:`WORKER_CACHES` holding more entries than its bound; the names of those
    emptied."""
    emptied = []
    for cache in WORKER_CACHES:
        if cache.size() > cache.bound:
            cache.clear()
            emptied.append(cache.name)
    return emptied
