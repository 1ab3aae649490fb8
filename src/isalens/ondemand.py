"""Sequences whose items are made when read: a kernel of a million instructions would otherwise keep a
million rows of every per-instruction view (listing, statistics, timing) beside its IR."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar, overload

__all__ = ["OnDemand"]

T = TypeVar("T")


class OnDemand(Sequence[T]):
    """Subclasses give ``__len__`` and ``_item(i)`` (``__iter__`` may be faster); a pickled copy is a tuple
    of the items, not what they are made from (results cross processes in ``analyze``'s pool)."""

    __slots__ = ()

    def _item(self, i: int) -> T:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        n = len(self)
        if isinstance(i, slice):
            return [self._item(k) for k in range(*i.indices(n))]
        if not -n <= i < n:
            raise IndexError(i)
        return self._item(i % n)

    def __iter__(self) -> Iterator[T]:
        return (self._item(k) for k in range(len(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        return tuple, (tuple(self),)
