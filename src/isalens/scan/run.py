"""Run a scan: units found lazily, analysed by a process pool over all cores (or in this process, or on a Dask
cluster), finished units written as shards as they complete, already-scanned units skipped by content hash."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from isalens.errors import IsalensError
from isalens.scan import work
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


def _worker_signals() -> None:
    """Workers die on SIGTERM whatever handler the scanning process set (it stops them that way), and
    collect reference cycles: the command paused the collector (``cli.main``), but a worker lives for a
    whole library, and ELF readers hold cycles."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gc.enable()


class _Pool:
    """A standard-library process pool."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        self.pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)

    def submit(self, unit: Unit, options: work.ScanOptions) -> Any:
        return self.pool.submit(work.run_unit, unit, options)

    def wait(self, pending: set[Any]) -> set[Any]:
        done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
        return set(done)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def stop(self) -> None:
        """Stop now (interrupted): the units running are dropped and redone by the next scan."""
        workers = list(getattr(self.pool, "_processes", {}).values())  # no public way before Python 3.14
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
    return tqdm(unit=" units", desc="isalens scan", file=sys.stderr, dynamic_ncols=True)


def scan(paths: Sequence[str | Path], out: Path, *, options: work.ScanOptions | None = None,
         engine: Engine | None = None, workers: int | None = None, progress: bool | None = None,
         rescan: bool = False, on_unit: Callable[[Unit], None] | None = None) -> ScanSummary:
    """Scan ``paths`` into ``out`` (``.parquet`` or ``.duckdb``); see the module docstring. ``progress`` defaults
    to whether standard error is a terminal. ``on_unit`` is called for each unit handed to the engine."""
    options = options or work.ScanOptions()
    store = Store(out)
    done = set() if rescan else store.previous_keys()
    runner = engine or local_engine(workers)
    bar = _progress(sys.stderr.isatty() if progress is None else progress)
    summary = ScanSummary()
    started = time.monotonic()
    scanned: set[str] = set()
    keys: set[tuple[str, str, str]] = set()
    buffer: list[dict[str, Any]] = []
    last_flush = time.monotonic()
    pending: set[Any] = set()

    def collect(finished: Iterable[Any]) -> None:
        nonlocal last_flush
        for future in finished:
            rows = future.result()
            buffer.extend(rows)
            summary.analysed += 1
            summary.errors += sum(1 for r in rows if r.get("error"))
            summary.kernels += sum(1 for r in rows if not r.get("error"))
            if bar is not None:
                bar.update(1)
                bar.set_postfix(kernels=summary.kernels, errors=summary.errors, refresh=False)
        if len(buffer) >= _FLUSH_ROWS or time.monotonic() - last_flush > _FLUSH_SECONDS:
            store.write_shard(buffer)
            buffer.clear()
            last_flush = time.monotonic()

    units: Iterator[Unit] = iter_units(paths, target=options.target)
    try:
        for unit in units:
            summary.units += 1
            scanned.add(unit.file)
            keys.add(unit.key)
            if unit.key in done:
                summary.skipped += 1
                continue
            if on_unit is not None:
                on_unit(unit)
            pending.add(runner.submit(unit, options))
            while len(pending) >= 2 * runner.slots:
                finished = runner.wait(pending)
                pending -= finished
                collect(finished)
        while pending:
            finished = runner.wait(pending)
            pending -= finished
            collect(finished)
    except KeyboardInterrupt:
        summary.interrupted = True
        finished = {f for f in pending if f.done()}
        with contextlib.suppress(Exception):  # a unit that failed to come back is simply redone next time
            collect(finished)
        store.write_shard(buffer)
        getattr(runner, "stop", runner.close)()
        if bar is not None:
            bar.close()
        summary.seconds = time.monotonic() - started
        return summary
    except IsalensError:
        store.write_shard(buffer)
        runner.close()
        raise
    store.write_shard(buffer)
    runner.close()
    if bar is not None:
        bar.close()
    summary.rows_in_table = store.finish(scanned, keys)
    summary.seconds = time.monotonic() - started
    return summary
