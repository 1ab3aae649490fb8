"""Run a scan: units found lazily, analysed by a process pool over all cores (or in this process, or on a Dask
cluster), finished units written as shards as they complete, already-scanned units skipped by content hash."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from isalens.errors import IsalensError
from isalens.scan import work
from isalens.scan.caches import bound_caches
from isalens.scan.split import split_code_object
from isalens.scan.store import Store
from isalens.scan.units import Unit, iter_units

__all__ = ["Engine", "ScanSummary", "local_engine", "scan"]

_FLUSH_ROWS = 5000
_FLUSH_SECONDS = 30.0


@dataclass(slots=True)
class ScanSummary:
    units: int = 0
    skipped: int = 0
    analysed: int = 0
    kernels: int = 0
    errors: int = 0
    rows_in_table: int = 0
    seconds: float = 0.0
    interrupted: bool = False


class Engine(Protocol):
    """Runs :func:`isalens.scan.work.run_unit` somewhere: ``submit`` returns a future, ``wait`` the finished ones."""

    slots: int

    def submit(self, unit: Unit, options: work.ScanOptions) -> Any: ...

    def wait(self, pending: set[Any]) -> set[Any]: ...

    def close(self) -> None: ...


class _Inline:
    """In this process, one unit at a time (``--workers 1``): no pickling, easy to debug."""

    slots = 1

    def submit(self, unit: Unit, options: work.ScanOptions) -> Any:
        future: cf.Future[list[dict[str, Any]]] = cf.Future()
        future.set_result(work.run_unit(unit, options))
        return future

    def wait(self, pending: set[Any]) -> set[Any]:
        return set(pending)

    def close(self) -> None:
        pass


#: a worker collects reference cycles once this many more container objects are alive than at its last
#: collection (``gc.get_count()[0]`` while the collector is paused: allocations minus frees)
_COLLECT_AFTER_OBJECTS = 1_000_000


def _worker_start() -> None:
    """Workers die on SIGTERM whatever handler the scanning process set (it stops them that way), and keep
    Python's cyclic collector paused, as the scanning process does for the command (``cli.main``): a worker
    holds ~500k objects (decode caches, tables, the code object and listing it works on) and the automatic
    collections walked them over and over, 22 % of a worker's CPU on 15 gfx1030 code objects, while a
    unit leaves no cyclic garbage (gc.collect() after each found none; docs/performance.md). The collector
    runs between units instead once that many objects more are alive (:func:`_run_unit`)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gc.disable()


def _run_unit(unit: Unit, options: work.ScanOptions) -> list[dict[str, Any]]:
    """:func:`isalens.scan.work.run_unit` in a worker, then every per-process cache past its bound on entries
    emptied (:func:`isalens.scan.caches.bound_caches`: a worker's memory stays flat over a library of several
    targets), and a collection when the live objects grew by :data:`_COLLECT_AFTER_OBJECTS` (a library's worst
    case stays bounded; the cost is one walk now and then)."""
    rows = work.run_unit(unit, options)
    bound_caches()
    if gc.get_count()[0] > _COLLECT_AFTER_OBJECTS:
        gc.collect()
    return rows


class _Pool:
    """A standard-library process pool, started at the first unit: the scanning process imports and loads
    what a unit needs (:func:`isalens.scan.work.preload`) first, so the forked workers start with it."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        self._pool: cf.ProcessPoolExecutor | None = None

    @property
    def pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(max_workers=self.slots, initializer=_worker_start)
        return self._pool

    def submit(self, unit: Unit, options: work.ScanOptions) -> Any:
        if self._pool is not None:
            return self._pool.submit(_run_unit, unit, options)
        work.preload(unit)
        # the first submit forks every worker (the fork start method starts them all at once): what is alive
        # now is shared with them, and frozen their collections skip it (and do not copy its pages); this
        # process's own collector gets it back at once
        gc.freeze()
        try:
            return self.pool.submit(_run_unit, unit, options)
        finally:
            gc.unfreeze()

    def wait(self, pending: set[Any]) -> set[Any]:
        done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
        return set(done)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def stop(self) -> None:
        """Stop now (interrupted): the units running are dropped and redone by the next scan."""
        if self._pool is None:
            return
        workers = list(getattr(self._pool, "_processes", {}).values())  # no public way before Python 3.14
        self.close()
        for process in workers:
            process.terminate()


def local_engine(workers: int | None) -> Engine:
    """All cores by default; ``workers == 1`` runs in this process."""
    count = workers or os.cpu_count() or 1
    return _Inline() if count == 1 else _Pool(count)


def _progress(enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(unit=" kernels", desc="isalens scan", file=sys.stderr, dynamic_ncols=True, smoothing=0.05)


class _Previous:
    """What earlier runs left (rows by file, source, content hash and kernel): whether a unit or a kernel of it
    is done."""

    def __init__(self, kernels: set[tuple[str, str, str, str | None]]) -> None:
        self.kernels = kernels
        self.units = {k[:3] for k in kernels}
        self.whole = {k[:3] for k in kernels if k[3] is None}

    def unit_done(self, unit: Unit) -> bool:
        """Text, sources and containers: any row; a code object: a row for all of it (it could not be read)."""
        return unit.key in (self.whole if unit.kind == "code-object" else self.units)

    def kernel_done(self, unit: Unit) -> Callable[[str], bool]:
        key = unit.key
        return lambda name: (*key, name) in self.kernels


def _work(unit: Unit, options: work.ScanOptions, previous: _Previous) -> tuple[tuple[Unit, ...], bool]:
    """The work units of ``unit`` and whether it was done before (nothing left to do, and something was)."""
    if previous.unit_done(unit):
        return (), True
    if unit.kind != "code-object":
        return (unit,), False
    split = split_code_object(unit, target=options.target, kernel=options.kernel,
                              done=previous.kernel_done(unit))
    return split.units, not split.units and split.done > 0


def _weight(unit: Unit) -> int:
    """What a unit counts for in the progress bar: its kernels (a text or source file counts as one)."""
    return len(unit.kernels) if unit.kernels else 1


class _Counter(threading.Thread):
    """Counts the kernels a scan will analyse (the progress bar's total, so it shows an ETA) by walking the
    inputs once more, reading only metadata, beside the scan; ``total`` grows until ``finished``."""

    def __init__(self, paths: Sequence[str | Path], options: work.ScanOptions, previous: _Previous) -> None:
        super().__init__(name="isalens-scan-count", daemon=True)
        self.paths, self.options, self.previous = paths, options, previous
        self.total = 0
        self.finished = False
        self.stopped = False

    def run(self) -> None:
        with contextlib.suppress(Exception):  # the count only serves the display
            for unit in iter_units(self.paths, target=self.options.target):
                if self.stopped:
                    return
                self.total += sum(_weight(u) for u in _work(unit, self.options, self.previous)[0])
            self.finished = True


def _close(bar: Any, counter: _Counter | None) -> None:
    if counter is not None:
        counter.stopped = True
    if bar is not None:
        bar.close()


def scan(paths: Sequence[str | Path], out: Path, *, options: work.ScanOptions | None = None,
         engine: Engine | None = None, workers: int | None = None, progress: bool | None = None,
         rescan: bool = False, on_unit: Callable[[Unit], None] | None = None) -> ScanSummary:
    """Scan ``paths`` into ``out`` (``.parquet`` or ``.duckdb``); see the module docstring. ``progress`` defaults
    to whether standard error is a terminal. ``on_unit`` is called for each unit handed to the engine (a code
    object's kernels come in several units: :mod:`isalens.scan.split`)."""
    options = options or work.ScanOptions()
    store = Store(out)
    previous = _Previous(set() if rescan else store.previous_kernels())
    runner = engine or local_engine(workers)
    bar = _progress(sys.stderr.isatty() if progress is None else progress)
    counter = _Counter(paths, options, previous) if bar is not None else None
    if counter is not None:
        counter.start()
    summary = ScanSummary()
    started = time.monotonic()
    scanned: set[str] = set()
    keys: set[tuple[str, str, str]] = set()
    buffer: list[dict[str, Any]] = []
    last_flush = time.monotonic()
    pending: dict[Any, Unit] = {}

    def show(unit: Unit) -> None:
        assert bar is not None and counter is not None
        if counter.total != bar.total and counter.total >= bar.n + _weight(unit):
            bar.total = counter.total
        bar.update(_weight(unit))
        rate = summary.kernels / (time.monotonic() - started)
        bar.set_postfix_str(f"{summary.kernels} rows, {rate:.1f} kernels/s, {summary.errors} errors"
                            + ("" if counter.finished else ", counting"), refresh=False)

    def collect(finished: Iterable[Any]) -> None:
        nonlocal last_flush
        unseen: list[tuple[str, str, str, str]] = []
        for future in finished:
            unit = pending.pop(future)
            rows = future.result()
            buffer.extend(rows)
            summary.analysed += 1
            summary.errors += sum(1 for r in rows if r.get("error"))
            summary.kernels += sum(1 for r in rows if not r.get("error"))
            if unit.kernels:  # kernels analysed without a row (callees by their code): not again on resume
                named = {r.get("kernel") for r in rows}
                unseen += [(*unit.key, k) for k in unit.kernels if k not in named]
            if bar is not None:
                show(unit)
        store.remember(unseen)
        if len(buffer) >= _FLUSH_ROWS or time.monotonic() - last_flush > _FLUSH_SECONDS:
            store.write_shard(buffer)
            buffer.clear()
            last_flush = time.monotonic()

    def drain(down_to: int) -> None:
        while len(pending) > down_to:
            collect(runner.wait(set(pending)))

    units: Iterator[Unit] = iter_units(paths, target=options.target)
    try:
        for found in units:
            scanned.add(found.file)
            keys.add(found.key)
            todo, was_done = _work(found, options, previous)
            if was_done:
                summary.units += 1
                summary.skipped += 1
            for unit in todo:
                summary.units += 1
                if on_unit is not None:
                    on_unit(unit)
                pending[runner.submit(unit, options)] = unit
                drain(2 * runner.slots - 1)
        drain(0)
    except KeyboardInterrupt:
        summary.interrupted = True
        finished = {f for f in pending if f.done()}
        with contextlib.suppress(Exception):  # a unit that failed to come back is simply redone next time
            collect(finished)
        store.write_shard(buffer)
        getattr(runner, "stop", runner.close)()
        _close(bar, counter)
        summary.seconds = time.monotonic() - started
        return summary
    except IsalensError:
        store.write_shard(buffer)
        runner.close()
        _close(bar, counter)
        raise
    store.write_shard(buffer)
    runner.close()
    if bar is not None and counter is not None:
        counter.join()  # long finished on a real scan: the last line shows the whole count
        bar.total = counter.total
        bar.refresh()
    _close(bar, counter)
    summary.rows_in_table = store.finish(scanned, keys)
    summary.seconds = time.monotonic() - started
    return summary
