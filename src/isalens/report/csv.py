"""Per-line CSV: RGA's columns (line, live count, instruction) plus ours, one row per instruction; and the
writer every CSV isalens writes goes through (:class:`SafeWriter`: no cell can start a spreadsheet formula)."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable
from typing import TextIO

from isalens.report.model import LiveRegReport

__all__ = ["COLUMNS", "SafeWriter", "render_csv", "safe_cell", "safe_row"]

COLUMNS = ("kernel", "line", "index", "live_vgpr", "live_sgpr", "live_agpr", "live_vgpr_halves", "vgpr_half_only",
           "block", "loop_depth", "labels", "instruction")

#: A spreadsheet reads a cell starting with one of these as a formula (``=HYPERLINK(...)``, ``+cmd|...``), and
#: kernel names come from binaries anyone can build. OWASP's CSV Injection guidance
#: (https://owasp.org/www-community/attacks/CSV_Injection) lists = + - @ tab (0x09) and carriage return (0x0D)
#: and recommends prefixing such a cell with a single quote, which the spreadsheet shows as text; quotes and
#: separators inside cells are escaped by the csv module as RFC 4180 says.
_FORMULA_FIRST = frozenset(("=", "+", "-", "@", "\t", "\r"))

#: Rows per block in :meth:`SafeWriter.writerows`: few enough that a wide result's block stays small (1,024 rows of
#: a 133-column result added 40 MB to the peak), enough to save most per-call work.
_BLOCK = 64


def safe_cell(value: object) -> object:
    """``value`` with a single quote in front when it is text a spreadsheet would run as a formula; numbers
    (a negative count is not a formula) and everything else unchanged."""
    if isinstance(value, str) and value[:1] in _FORMULA_FIRST:  # the same test safe_row inlines
        return "'" + value
    return value


def safe_row(row: Iterable[object]) -> list[object]:
    """Every cell of ``row`` through :func:`safe_cell` (inlined: a 133-column query result has millions)."""
    return [("'" + v) if isinstance(v, str) and v[:1] in _FORMULA_FIRST else v for v in row]


class SafeWriter:
    """A ``csv.writer`` for isalens's outputs: cells through :func:`safe_cell`, lines ending in ``\n``, and a
    cell holding a carriage return quoted. (Python 3.11's writer quotes a cell for the characters of its line
    terminator only: with ``\n`` a bare ``\r`` went out unquoted and split the row for every reader.) Each
    row is written with ``\r\n``, which quotes both, and ends in ``\n``."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._buf = io.StringIO()
        self._writer = csv.writer(self._buf, lineterminator="\r\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._write_safe(safe_row(row))

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        """Blocks of :data:`_BLOCK` rows written by one ``csv.writer`` call with ``\n`` line ends; a block whose
        text holds a carriage return anywhere (the one character that writer may leave unquoted) is written
        row by row as :meth:`writerow` does. The same bytes as :meth:`writerow` per row."""
        block_buf = io.StringIO()
        block_writer = csv.writer(block_buf, lineterminator="\n")
        it = iter(rows)
        while block := [safe_row(row) for row in itertools.islice(it, _BLOCK)]:
            block_buf.seek(0)
            block_buf.truncate()
            block_writer.writerows(block)
            text = block_buf.getvalue()
            if "\r" in text:
                for row in block:
                    self._write_safe(row)
            else:
                self._out.write(text)

    def _write_safe(self, row: list[object]) -> None:
        self._buf.seek(0)
        self._buf.truncate()
        self._writer.writerow(row)
        self._out.write(self._buf.getvalue()[:-2] + "\n")


def render_csv(report: LiveRegReport) -> str:
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(COLUMNS)
    writer.writerows((k.name, r.line, r.index, r.live_vgpr, r.live_sgpr, r.live_agpr, r.live_vgpr_halves,
                      r.vgpr_half_only, r.block, r.loop_depth, " ".join(r.labels), r.text)
                     for k in report.kernels for r in k.lines)
    return out.getvalue()
