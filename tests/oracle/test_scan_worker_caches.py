"""A scan worker's caches on code objects (tests/unit/test_scan_caches.py runs ISA text units, which never reach
the disassembly's caches): example kernels with branches and loops, compiled and linked by clang-19 for two
targets, run as a worker runs code-object units. Every module-level container a unit grows is a bounded worker
cache or bounded by construction, and after the reader's texts are emptied, nothing else of the reader still
holds a cache of texts (the branch forms did: a whole-library scan's workers grew to 1.1 GB each,
docs/performance.md, twenty-seventh session). Nothing here is timed."""

from __future__ import annotations

import pytest

from isalens.isa.amdgcn import instructions
from isalens.scan import caches, work
from isalens.scan.units import Unit
from tests.conftest import EXAMPLES
from tests.oracle.test_decoder_objdump import _code_object
from tests.unit.test_scan_caches import BOUNDED_BY_CONSTRUCTION, _containers

_SOURCES = [EXAMPLES / "kernels" / "control" / name for name in ("loops.cl", "branches.cl", "switch.cl")]


def _units() -> list[Unit]:
    units = []
    for target in ("gfx1030", "gfx90a"):
        for source in _SOURCES:
            co = _code_object(source, target)
            assert co is not None, f"clang-19 rejected {source.name} for {target}"
            data = co.read_bytes()
            units.append(Unit(str(co), "file", f"{target}-{source.stem}", "code-object", data,
                              triple=f"hipv4-amdgcn-amd-amdhsa--{target}"))
    return units


def test_code_object_units_grow_only_bounded_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISALENS_DECODE_CACHE", "0")
    units = _units()
    work.run_unit(units[0], work.ScanOptions())  # imports what a unit imports
    for cache in caches.WORKER_CACHES:
        cache.clear()
    before = _containers()
    for unit in units:
        rows = work.run_unit(unit, work.ScanOptions())
        assert rows and all(row["error"] is None for row in rows), rows[0]
    grown = {name for name, size in _containers().items() if size > before.get(name, 0)}
    listed = {cache.name for cache in caches.WORKER_CACHES}
    assert grown - listed - set(BOUNDED_BY_CONSTRUCTION) == set()
    # the disassembly's caches were reached: the branch forms and the heads of two targets
    assert len(instructions._TEXTS) == 2 and all(t.branch_forms and t.heads for t in instructions._TEXTS.values())
    decoded = next(cache for cache in caches.WORKER_CACHES if cache.name.endswith("instructions._TEXTS"))
    decoded.clear()
    assert instructions._TEXTS == {}
