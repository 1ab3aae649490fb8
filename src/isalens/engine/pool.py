"""Several independent inputs on every core: one process pool helper for ``analyze``, ``compare`` and
``sweep``."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

from isalens.progress import step

__all__ = ["each_in_order"]

T = TypeVar("T")
R = TypeVar("R")


def each_in_order(task: Callable[[T], R], items: Sequence[T], jobs: int | None, done_what: str) -> list[R]:
    """``task`` of every item, in order: in this process for one worker, else in a process pool of ``jobs``
    workers (default: every core), saying how many are done (``3 of 8 files analysed``); a task's exception
    is raised in item order. ``task`` must be a module-level function (it is pickled)."""
    workers = min(jobs or os.cpu_count() or 1, len(items))
    if workers <= 1:
        return [task(item) for item in items]
    # imported here: concurrent.futures and multiprocessing cost every command ~13 ms of start-up
    from concurrent.futures import ProcessPoolExecutor

    done: list[R] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(task, items):
            done.append(result)
            step(f"{len(done)} of {len(items)} {done_what} ({workers} at a time)")
    return done
