"""Source locations: which line of the programmer's own file each instruction came from.

Readers fill one :class:`SourceMap` per kernel (LLVM assembly's ``.loc`` directives, the DWARF line table of a
code object built with ``-g``, ``llvm-objdump -l`` annotations); analyses and reports only read it.

Line 0 is DWARF's "no source line" (code the compiler made up, e.g. a spill or a hoisted constant). It is
attributed to the line before it in code order, as ``llvm-objdump -d -l`` prints it: the instruction still
belongs to the statement it sits in, and a per-line table then adds up to the kernel.
"""

from __future__ import annotations

from isalens.records import dataclass, field

__all__ = ["DEBUG_KINDS", "Frame", "SourceLoc", "SourceMap", "VariableLoc", "carry_forward"]

#: what a kernel's input says about its source: lines and variables, lines only, or nothing
DEBUG_KINDS = ("lines+variables", "lines", "none")


@dataclass(frozen=True, slots=True)
class SourceLoc:
    """One source position: the file as the compiler named it (absolute where it knew the directory)."""

    file: str
    line: int
    column: int = 0

    def to_dict(self) -> dict[str, str | int]:
        return {"file": self.file, "line": self.line, "column": self.column}

    def short(self) -> str:
        """``name.cl:42`` for text reports."""
        return f"{self.file.rsplit('/', 1)[-1]}:{self.line}"


@dataclass(frozen=True, slots=True)
class Frame:
    """The function whose code an instruction is, and the call sites that inlined it there (innermost first,
    outward to the kernel): only a binary's DWARF says this; assembly has the final location only."""

    function: str
    inlined_at: tuple[SourceLoc, ...] = ()


@dataclass(frozen=True, slots=True)
class VariableLoc:
    """A source variable (or a piece of it) held in registers over instructions ``start``..``end`` (inclusive)."""

    #: the variable as the source names it, with its piece in bits when only part is here: ``acc``, ``c[32:48]``
    name: str
    #: register units (:mod:`isalens.ir.registers`) that hold it
    mask: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SourceMap:
    """Per instruction index, its source location (None: the input names none for it)."""

    locs: tuple[SourceLoc | None, ...] = ()
    #: ``lines+variables``, ``lines`` or ``none`` (:data:`DEBUG_KINDS`)
    debug_info: str = "none"
    #: where the mapping came from: ``.loc``, ``dwarf``, ``objdump -l``
    origin: str = ""
    #: files the input names (for ``--source``: their text is shown where the file is found)
    files: tuple[str, ...] = field(default=())
    #: where source variables live (``;DEBUG_VALUE:`` comments), in order of their first instruction
    variables: tuple[VariableLoc, ...] = field(default=())
    #: per instruction index, its function and inlining call chain (empty: the input does not say)
    frames: tuple[Frame | None, ...] = field(default=())

    def variables_at(self, index: int) -> list[VariableLoc]:
        """The variables held in registers at instruction ``index`` (one pass over the ranges: ask once per
        instruction, then filter by register)."""
        return [v for v in self.variables if v.start <= index <= v.end]

    def at(self, index: int) -> SourceLoc | None:
        return self.locs[index] if 0 <= index < len(self.locs) else None

    def frame_at(self, index: int) -> Frame | None:
        return self.frames[index] if 0 <= index < len(self.frames) else None


def carry_forward(locs: list[SourceLoc | None]) -> list[SourceLoc | None]:
    """Line-0 locations (``line == 0``) take the nearest earlier real line of the same list (see module doc);
    a line 0 before any real line stays unknown (None)."""
    out: list[SourceLoc | None] = []
    last: SourceLoc | None = None
    for loc in locs:
        if loc is not None and loc.line == 0:
            loc = last
        elif loc is not None:
            last = loc
        out.append(loc)
    return out
