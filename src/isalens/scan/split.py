"""A code object's kernels as several work units: a library may hold one code object with thousands of kernels,
and one unit per code object left a single worker on it while the others idled. The split reads only the
code object's metadata and symbols (no disassembly); ``--target`` and ``--kernel`` apply here, so kernels they
leave out never become work, and kernels an earlier run finished are left out too (resume is per kernel).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from isalens.errors import IsalensError
from isalens.names import name_matches
from isalens.scan.units import Unit

__all__ = ["CODE_BYTES_PER_PASS", "CODE_BYTES_PER_UNIT", "KERNELS_PER_PASS", "KERNELS_PER_UNIT", "Split",
           "analysis_passes", "split_code_object"]

#: a work unit holds at most this many kernels ...
KERNELS_PER_UNIT = 1024
#: ... and at most about this much machine code, so both cores get work from one large code object. Each worker
#: that gets a unit of a code object disassembles all of it, reads its DWARF and its metadata once more (six
#: librocsparse code objects of two 256-kernel units each: 45.7 s CPU with each code object's units in one
#: process, 63.1 s when every unit starts without the code object, as when the two units go to two workers;
#: docs/performance.md, nineteenth session), so a code object is split only when it is large: librocsparse's
#: 777 code objects are 777 units (at 256 kernels / 1 MiB: 960, 141 code objects split)
CODE_BYTES_PER_UNIT = 4 * 1024 * 1024
#: a worker analyses a unit's kernels in passes of at most this many kernels and about this much machine code
#: (:func:`analysis_passes`): what a pass builds (instructions, analyses, report) is let go before the next, so
#: a worker's memory follows the pass, not the unit
KERNELS_PER_PASS = 256
CODE_BYTES_PER_PASS = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Split:
    """What became of one code object: its work ``units``, how many of its kernels ``done`` (an earlier run
    has their rows) and ``left_out`` (another target, or no ``--kernel`` match)."""

    units: tuple[Unit, ...]
    kernels: int
    done: int
    left_out: int


def _chunks(symbols: list[str], size: Callable[[str], int], kernels_per_unit: int,
            bytes_per_unit: int) -> Iterator[tuple[str, ...]]:
    chunk: list[str] = []
    code = 0
    for symbol in symbols:
        if chunk and (len(chunk) >= kernels_per_unit or code + size(symbol) > bytes_per_unit):
            yield tuple(chunk)
            chunk, code = [], 0
        chunk.append(symbol)
        code += size(symbol)
    if chunk:
        yield tuple(chunk)


def split_code_object(unit: Unit, *, target: str | None, kernel: str | None,
                      done: Callable[[str], bool] | Collection[str] = (),
                      kernels_per_unit: int | None = None, bytes_per_unit: int | None = None) -> Split:
    """The work units of the code-object unit ``unit``, each naming the kernel symbols it analyses, in the
    code object's order; ``done(name)`` says whether an earlier run has the kernel (by symbol or metadata
    name). A code object that cannot be read stays one unit: the worker reads it again and makes its error
    row, exactly as without the split."""
    from isalens.binary.codeobject import read_code_object

    assert unit.kind == "code-object" and unit.data is not None
    try:
        co = read_code_object(unit.data, file=unit.file, source=unit.source)
    except IsalensError:
        return Split((unit,), 1, 0, 0)
    is_done = done if callable(done) else done.__contains__
    if target and co.processor != target.split(":", 1)[0]:
        return Split((), len(co.kernels), 0, len(co.kernels))
    chosen = [k for k in co.kernels if kernel is None or name_matches(kernel, k.name)
              or name_matches(kernel, k.symbol)]
    left_out = len(co.kernels) - len(chosen)
    symbols = list(dict.fromkeys(k.symbol for k in chosen if not (is_done(k.symbol) or is_done(k.name))))
    finished = len(chosen) - len(symbols)

    def size(symbol: str) -> int:
        return co.functions.get(symbol, (0, 0))[1]

    chunks = _chunks(symbols, size, kernels_per_unit or KERNELS_PER_UNIT, bytes_per_unit or CODE_BYTES_PER_UNIT)
    units = tuple(dataclasses.replace(unit, kernels=chunk) for chunk in chunks)
    return Split(units, len(co.kernels), finished, left_out)


def analysis_passes(functions: Mapping[str, tuple[int, int]], symbols: Sequence[str]) -> list[list[str]]:
    """``symbols`` (kernels of one code object, in its order) in the passes a worker analyses them in: at most
    :data:`KERNELS_PER_PASS` kernels and about :data:`CODE_BYTES_PER_PASS` of machine code each (``functions``:
    the code object's symbol -> (offset, size))."""
    def size(symbol: str) -> int:
        return functions.get(symbol, (0, 0))[1]

    return [list(chunk) for chunk in _chunks(list(symbols), size, KERNELS_PER_PASS, CODE_BYTES_PER_PASS)]
