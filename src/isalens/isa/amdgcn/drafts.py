"""What every text reader produces: :class:`Draft` kernels (labels, instruction texts with their source line
and encoding words, and whatever the input declares), and the line pieces the readers share."""

from __future__ import annotations

import re

from isalens.errors import ParseError
from isalens.lazyre import LazyPattern
from isalens.records import dataclass, field

#: a driver/RGA listing's ``// ADDRESS: WORDS`` trailer (also llvm-objdump's)
TRAILER_RE = re.compile(r"//\s*([0-9A-Fa-f]{6,16}):((?:\s+[0-9A-Fa-f]{8})+)")
#: ACO's ``; 8e038303`` encoding trailer
ACO_TRAILER_RE = re.compile(r";((?:\s+[0-9a-fA-F]{8})+)\s*$")
#: ``name:`` at the start of a line, and what follows it
LABEL_RE = re.compile(r"^\s*([.A-Za-z_$][\w.$]*):(?:\s+|$)(.*)$")
_MNEMONIC_RE = LazyPattern(r"^[a-z][a-z0-9_]*$")


@dataclass(slots=True)
class DraftInstruction:
    """An instruction line as a reader found it: its line number, text, and address and encoding words when known."""

    line: int
    text: str
    address: int | None = None
    encoding: tuple[int, ...] = ()


@dataclass(slots=True)
class Draft:
    """A kernel as read, before semantics."""

    name: str
    start_line: int
    items: list[DraftInstruction] = field(default_factory=list)
    #: label -> index of the instruction it precedes
    labels: dict[str, int] = field(default_factory=dict)
    #: MIR block number -> index of its first instruction
    blocks: dict[int, int] = field(default_factory=dict)
    #: (instruction index it precedes, register spellings, line, after a label at that index) for
    #: ``; implicit-def:`` comments
    implicit_defs: list[tuple[int, str, int, bool]] = field(default_factory=list)
    #: (index of the instruction after the block, register spellings, line, the labels that open the block)
    #: for ``; implicit-def:`` comments in a block with no instruction (:meth:`drop_empty_block_markers`)
    empty_block_defs: list[tuple[int, str, int, tuple[str, ...]]] = field(default_factory=list)
    descriptor: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    comments: dict[str, str] = field(default_factory=dict)
    is_kernel: bool = False
    ended: bool = True
    base_address: int | None = None

    def drop_empty_block_markers(self) -> None:
        """A block starts where earlier ``implicit-def`` markers opened one: that block is empty.

        No instruction can carry a marker for a block with no instructions (it would wrongly apply to
        every path into the next block), so such markers move to ``empty_block_defs``: the parser ends
        their registers on the edges into the empty block only (the branches into it).
        """
        # called at every label: only the newest markers and labels can be at this index (both are kept in
        # input order), so neither list is walked whole (200,000 labels took minutes when they were)
        at = len(self.items)
        defs = self.implicit_defs
        first = len(defs)
        while first and defs[first - 1][0] == at:
            first -= 1
        if not any(d[3] for d in defs[first:]):
            return
        opening: list[str] = []
        for name, i in reversed(self.labels.items()):
            if i != at:
                break
            opening.append(name)
        kept = defs[:first]
        for d in defs[first:]:
            if d[3]:
                self.empty_block_defs.append((at, d[1], d[2], tuple(reversed(opening))))
            else:
                kept.append(d)
        self.implicit_defs = kept

    def add_label(self, name: str, file: str, line: int) -> None:
        if name in self.labels:
            # llvm-mc: "symbol ... is already defined"; a second definition would silently move branches
            raise ParseError(f"label '{name}' is defined twice in {self.name}", file=file, line=line,
                             code="duplicate-label")
        self.drop_empty_block_markers()
        self.labels[name] = len(self.items)
        if name.startswith("label_") and len(name) > 6:
            # RGA prints a label ``X`` as ``label_X:`` but branches still name ``X``
            self.labels.setdefault(name[6:], len(self.items))


@dataclass(slots=True)
class ReadResult:
    """What a text reader returns: the drafts in order, the target and wave size the text names, the lines skipped."""

    drafts: list[Draft]
    arch: str | None = None
    wave_size: int | None = None
    #: (line, text) of what a reader skipped on purpose, reported as notes
    notes: list[tuple[int, str]] = field(default_factory=list)


def split_comment(line: str, markers: tuple[str, ...]) -> tuple[str, str]:
    """``line`` cut at the first of the comment ``markers``: (code, comment with its marker)."""
    cut = len(line)
    for marker in markers:
        pos = line.find(marker)
        if pos != -1:
            cut = min(cut, pos)
    return line[:cut], line[cut:]


def words(hexes: str) -> tuple[int, ...]:
    """Blank-separated hexadecimal encoding words."""
    return tuple(int(w, 16) for w in hexes.split())


def trailer_instruction(lineno: int, code: str, trailer: re.Match[str] | None) -> DraftInstruction:
    """An instruction with the address and encoding words of its ``// ADDR: WORDS`` trailer
    (:data:`TRAILER_RE`), if it has one."""
    if trailer is None:
        return DraftInstruction(lineno, code)
    return DraftInstruction(lineno, code, int(trailer.group(1), 16), words(trailer.group(2)))


def stem(file: str) -> str:
    """The kernel name for an input that names none: its file name up to the first dot."""
    name = file.replace("\\", "/").rsplit("/", 1)[-1]
    return name.split(".", 1)[0] or "kernel"


def _looks_like_instruction(text: str) -> bool:
    first = text.split(None, 1)[0] if text.strip() else ""
    return bool(_MNEMONIC_RE.match(first.lower()))


def check_instruction_text(text: str, file: str, lineno: int) -> None:
    if not _looks_like_instruction(text):
        raise ParseError(f"cannot read {text.strip()[:60]!r} as an instruction", file=file, line=lineno)
