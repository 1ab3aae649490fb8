"""Whether a text is VLIW (R600-Cayman) code, and in which dialect, without loading the VLIW readers.

Every text command asks this of its GCN input (``analyze`` and ``timing`` before choosing a reader, the loader
when no target is named); importing :mod:`isalens.isa.r600` and the VLIW engine to answer it took ~12 ms of each
such run (23 ms under ``-X importtime`` on the 800-instruction example), for an answer that is almost always no.
"""

from __future__ import annotations

import re

__all__ = ["CLAUSE_HEAD", "is_cal", "is_llvm_r600", "vliw_dialect"]

#: a CAL dump's numbered clause head: ``00 ALU: ADDR(32) CNT(4)``
CLAUSE_HEAD = re.compile(r"^[ \t]*[0-9]+[ \t]+(ALU|TEX|VTX)\w*:?[ \t]+ADDR\([0-9]+\)[ \t]+CNT\([0-9]+\)", re.MULTILINE)
_LLVM_CLAUSE = re.compile(r"^\s*(ALU|Fetch) clause starting at \d+:", re.MULTILINE)
_LLVM_ALU_CF = re.compile(r"^\s+ALU(_[A-Z_0-9]+)? \d+, @\d+", re.MULTILINE)


def is_cal(text: str) -> bool:
    """Whether ``text`` looks like a CAL dump (a numbered ALU/TEX clause with ADDR and CNT)."""
    # the fixed part first (a substring search): the pattern alone took 33 ms on a 5 MB GCN listing
    return "ADDR(" in text and CLAUSE_HEAD.search(text) is not None


def is_llvm_r600(text: str) -> bool:
    """Whether ``text`` looks like LLVM r600 assembly."""
    # each pattern's fixed part is looked for first: a plain substring search, where the line-anchored
    # patterns took 80 ms on a 5 MB GCN listing
    return ("clause starting at" in text and _LLVM_CLAUSE.search(text) is not None) or (
        ", @" in text and _LLVM_ALU_CF.search(text) is not None)


def vliw_dialect(text: str) -> str | None:
    """``llvm``, ``cal`` or None when the text is neither (LLVM r600 assembly is asked first)."""
    if is_llvm_r600(text):
        return "llvm"
    if is_cal(text):
        return "cal"
    return None
