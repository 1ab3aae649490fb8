"""How many operands an instruction takes at most, per target family (``data/operand_counts.txt``).

llvm-mc rejects an instruction with more operands than any of its forms takes ("invalid operand for
instruction"); reading the extra token as one more source would silently change the result (``v_add_f32 v0, v1,
v2 v9`` would make v9 live). Counts are of operands as :func:`isalens.isa.amdgcn.syntax.split_instruction` splits
them (modifiers such as ``offset:16`` or ``glc`` are not operands) and are the most over every encoding of a base
mnemonic (``v_add_f32`` covers ``_e32``, ``_e64``, ``_sdwa`` and ``_dpp``). A mnemonic without a count is not
checked.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from isalens.isa.amdgcn.semantics import base_mnemonic
from isalens.lines import lines_of

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

__all__ = ["counted", "families", "most_operands"]

_FILE = "operand_counts.txt"
_COLUMNS = "# columns:"


@cache
def _table() -> tuple[tuple[str, ...], dict[str, tuple[int | None, ...]]]:
    text = (_DATA / _FILE).read_text("utf-8")
    columns: tuple[str, ...] = ()
    rows: dict[str, tuple[int | None, ...]] = {}
    for number, line in enumerate(lines_of(text), start=1):
        if line.startswith(_COLUMNS):
            columns = tuple(line[len(_COLUMNS):].split())
            continue
        if not line.strip() or line.startswith("#"):
            continue
        name, *cells = line.split()
        if not columns or len(cells) != len(columns) or name in rows:
            raise ValueError(f"{_FILE}:{number}: expected a new mnemonic and {len(columns)} counts")
        rows[name] = tuple(None if cell == "-" else int(cell) for cell in cells)
    return columns, rows


def families() -> tuple[str, ...]:
    """The families the table has a column for (``gfx9``, ``cdna3``, ...)."""
    return _table()[0]


def counted(family: str) -> dict[str, int]:
    """The counts of one family's column, by base mnemonic (``-`` cells left out)."""
    columns, rows = _table()
    at = columns.index(family)
    out: dict[str, int] = {}
    for name, row in rows.items():
        count = row[at]
        if count is not None:
            out[name] = count
    return out


@cache
def most_operands(mnemonic: str, lists: tuple[str, ...]) -> int | None:
    """The most operands any form of ``mnemonic`` takes on a target made of the mnemonic lists ``lists``
    (the largest count among them), or None when no list has a count for it."""
    columns, rows = _table()
    row = rows.get(base_mnemonic(mnemonic.lower())[0])
    if row is None:
        return None
    counts = [row[columns.index(family)] for family in lists if family in columns]
    known = [n for n in counts if n is not None]
    return max(known) if known else None
