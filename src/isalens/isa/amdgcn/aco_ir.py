"""The block structure of Mesa ACO's printed IR (RADV's "ACO IR" representation): per block its kind flags,
logical and linear predecessors and how it ends. ``timing --model aco`` needs it to weight blocks the way
ACO's statistics do; the instructions themselves come from the final assembly."""

from __future__ import annotations

import re
from dataclasses import dataclass

from isalens.lines import lines_of

__all__ = ["AcoIrBlock", "parse_aco_ir_blocks"]

_HEADER = re.compile(r"^BB(\d+)\s*$")
_INFO = re.compile(r"^/\*\s*logical preds:(?P<logical>[^/]*)/\s*linear preds:(?P<linear>[^/]*)/"
                   r"\s*kind:(?P<kind>[^*]*)\*/")
_BRANCH = re.compile(r"=\s*(p_cbranch_z|p_cbranch_nz|p_cbranch|p_branch)\s+(.*)$")


@dataclass(frozen=True, slots=True)
class AcoIrBlock:
    index: int
    kind: frozenset[str]
    logical_preds: tuple[int, ...]
    linear_preds: tuple[int, ...]
    #: the block's last branch: its opcode, whether its condition is SCC, and its targets (taken first)
    branch: str | None = None
    branch_on_scc: bool = False
    targets: tuple[int, ...] = ()


def _blocks(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"BB(\d+)", text))


def parse_aco_ir_blocks(text: str) -> list[AcoIrBlock]:
    """Every ``BBn`` of the printed program, in order; empty when the text holds no ACO program."""
    out: list[AcoIrBlock] = []
    index: int | None = None
    kind: frozenset[str] = frozenset()
    logical: tuple[int, ...] = ()
    linear: tuple[int, ...] = ()
    branch: tuple[str | None, bool, tuple[int, ...]] = (None, False, ())

    def flush() -> None:
        if index is not None:
            out.append(AcoIrBlock(index, kind, logical, linear, branch[0], branch[1], branch[2]))

    for raw in lines_of(text):
        line = raw.strip()
        m = _HEADER.match(line)
        if m:
            flush()
            index, kind, logical, linear, branch = int(m.group(1)), frozenset(), (), (), (None, False, ())
            continue
        if index is None:
            continue
        info = _INFO.match(line)
        if info:
            logical, linear = _blocks(info.group("logical")), _blocks(info.group("linear"))
            kind = frozenset(k.strip() for k in info.group("kind").split(",") if k.strip())
            continue
        b = _BRANCH.search(line)
        if b:
            rest = b.group(2)
            branch = (b.group(1), ":scc" in rest.split("BB", 1)[0], _blocks(rest))
    flush()
    return out
