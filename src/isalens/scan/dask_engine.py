"""``isalens scan --engine dask``: the same per-unit task (:func:`isalens.scan.work.run_unit`) on a Dask
distributed cluster. Units travel with their bytes (code objects, ISA text), so workers need isalens and
llvm-objdump-19 but not the scanned files (sources are compiled where they lie: they need a shared path).
The client writes each finished batch as a Parquet shard, exactly as the local engine does.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from isalens.errors import IsalensError
from isalens.scan import work
from isalens.scan.units import Unit

__all__ = ["DaskEngine", "dask_engine"]

#: units up to this size travel inside their task; larger ones are scattered first
_INLINE_BYTES = 256 * 1024
#: scattered code objects kept referenced (the units in flight belong to the last few)
_SCATTERED_KEEP = 4


class DaskEngine:
    """Submits units to a ``distributed.Client``; keeps twice as many in flight as the cluster has threads."""

    def __init__(self, client: Any, *, own: bool = False, cluster: Any = None) -> None:
        from distributed import wait

        self.client = client
        self._wait: Any = wait
        self._own = own
        self._cluster = cluster
        threads = sum(client.nthreads().values()) or 1
        self.slots = threads
        self._scattered: dict[tuple[str, str], Any] = {}

    def submit(self, unit: Unit, options: work.ScanOptions) -> Any:
        # pure=False: the same unit analysed again (a --rescan) is a new task, not a cached result
        if not unit.data or len(unit.data) <= _INLINE_BYTES:
            return self.client.submit(work.run_unit, unit, options, pure=False)
        # a code object is megabytes: sent to the cluster as data first (scatter), not inside the task's
        # graph, which Dask warns about on every such unit ("Sending large graph"), and once for all the
        # units of its kernels (they follow each other)
        key = (unit.content_hash, unit.source)
        if key not in self._scattered:
            if len(self._scattered) >= _SCATTERED_KEEP:
                del self._scattered[next(iter(self._scattered))]
            self._scattered[key] = self.client.scatter(unit.data, hash=False)
        bare = dataclasses.replace(unit, data=None)
        return self.client.submit(work.run_unit_on, bare, self._scattered[key], options, pure=False)

    def wait(self, pending: set[Any]) -> set[Any]:
        done, _ = self._wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done)

    def close(self) -> None:
        if self._own:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def dask_engine(scheduler: str | None, *, workers: int | None = None) -> DaskEngine:
    """An engine on the cluster at ``scheduler`` (``tcp://host:8786``); without one, a local cluster of
    ``workers`` single-threaded processes (what the tests use to prove the code path)."""
    try:
        import distributed
    except ImportError:
        raise IsalensError("--engine dask needs dask.distributed: pip install 'isalens[dask]'",
                           code="dask-extra") from None
    dist: Any = distributed  # untyped library
    cluster = None
    try:
        if scheduler:
            client = dist.Client(scheduler, timeout="30s")
        else:
            cluster = dist.LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            client = dist.Client(cluster)
    except (OSError, TimeoutError, RuntimeError) as exc:  # RuntimeError: a LocalCluster whose workers fail
        where = f"reach the Dask scheduler {scheduler}" if scheduler else "start a local Dask cluster"
        raise IsalensError(f"cannot {where}: {exc}", code="dask") from None
    return DaskEngine(client, own=True, cluster=cluster)
