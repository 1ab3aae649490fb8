"""The examples at the end of every subcommand's ``--help``: one command line each, with a comment.

They name the user's files as the README does (``kernel.s``, ``shader.comp`` ...); ``tests/unit/test_help_examples.py``
runs every line with the README test's bundled stand-ins, so an example that stops working fails the suite.
A line that exits with another code than 0 says so in its comment (``# exit 1 when ...``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

__all__ = ["EXAMPLES", "ExamplesFormatter", "Formatter", "attach", "terminal_columns"]

#: subcommand -> its example lines ("isalens ...  # what it shows")
EXAMPLES: dict[str, tuple[str, ...]] = {
    "livereg": (
        "isalens livereg kernel.s                  # listing: live count, register map, peak lines marked *",
        "isalens livereg kernel.s --summary        # peak / requested / allocated, live set at the peak",
        "isalens livereg dump.txt --arch gfx902    # llvm-objdump -d output and listings need --arch",
        "isalens livereg kernel.cl --arch gfx1030  # a source is compiled first (clang)",
    ),
    "analyze": (
        "isalens analyze kernel.s --html report.html   # summary + interactive page",
        "isalens analyze kernel.co --by-source         # what each line of your source costs",
        "isalens analyze shader.comp --arch navi21     # glslang + Mesa RADV/ACO; ACO's figures beside ours",
    ),
    "compare": (
        "isalens compare fp32.s half3.s --labels fp32,half3   # variants side by side",
    ),
    "occupancy": (
        "isalens occupancy --arch gfx902 --vgprs 40 --wg 1024   # waves/SIMD, LLVM's figure, limiter, next step",
        "isalens occupancy --arch gfx1100 --vgprs 96 --lds 40000 --wg 256 --json",
    ),
    "tile": (
        "isalens tile --dims 16x16 --radius 1 --bytes-per-item 8 --arch gfx902   # border overhead, LDS, groups",
    ),
    "vliw": (
        "isalens vliw shader.isa --device hd4870   # slots, clauses, occupancy, ALU vs fetch bounds",
    ),
    "toolchain": (
        "isalens toolchain   # which compilers and drivers are installed, and their targets",
    ),
    "decode": (
        "isalens decode D8700400 2D00002E --arch gfx902 --explain   # instruction text and every field",
    ),
    "timing": (
        "isalens timing kernel.s --device ryzen-5-2400g --trip-count 41=256   # cycles per iteration, roofs",
        "isalens timing shader.comp --arch navi21 --model aco                 # ACO's own figures, recomputed",
    ),
    "advise": (
        "isalens advise kernel.s                      # what to change, where, and what it buys",
        "isalens advise kernel.cl --arch gfx902 --json",
    ),
    "sweep": (
        "isalens sweep tile.cl -D TILE=8,16,32 --arch gfx902,gfx1030   # every variant compiled, best marked",
    ),
    "list": (
        "isalens list kernel.co --json   # code objects, targets, kernels and their metadata",
    ),
    "scan": (
        "isalens scan kernel.co kernel.s --out results.parquet   # one row per kernel and target",
    ),
    "query": (
        "isalens query \"select kernel, target, vgpr_requested from kernels\" --scan results.parquet",
    ),
    "diff": (
        "isalens diff fp32.s half3.s --fail-on \"occupancy<, vgpr>+8, spills>0\"   # exit 1 when a rule is crossed",
    ),
    "check": (
        "isalens check --budget isalens.toml kernel.s   # every kernel against the budget file's limits",
    ),
    "arch": (
        "isalens arch list          # known targets",
        "isalens arch show gfx90a   # one target's figures",
    ),
    "serve": (
        "isalens serve kernel.cl --arch gfx902   # local page: edit, see registers/occupancy/cycles",
    ),
}

_HEAD = "examples:"


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size().columns`` gives it (``COLUMNS``, else the width of the
    terminal on standard output, else 80), without importing ``shutil`` (and ``bz2``, ``lzma``, ``zlib``)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80
    return columns or 80


class Formatter(argparse.HelpFormatter):
    """argparse's own formatter, given the width argparse would find: argparse makes one per argument added (to
    check its metavar) and each imported ``shutil`` for the width; a run that prints no help never needs it."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


class ExamplesFormatter(Formatter):
    """Wraps the description as argparse does, but prints the examples epilog line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(_HEAD):
            return "\n".join(indent + line for line in text.splitlines())
        return super()._fill_text(text, width, indent)


def attach(parsers: Mapping[str, argparse.ArgumentParser]) -> None:
    """Give every subcommand parser in ``parsers`` its examples as the ``--help`` epilog."""
    for name, parser in parsers.items():
        lines = EXAMPLES.get(name)
        if lines:
            parser.epilog = _HEAD + "\n" + "\n".join(f"  {line}" for line in lines)
            parser.formatter_class = ExamplesFormatter
