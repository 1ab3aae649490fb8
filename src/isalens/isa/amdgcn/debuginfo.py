"""Source lines in ISA text: LLVM assembly's ``.file``/``.loc`` directives and ``llvm-objdump -l`` annotations.

Both are read by input line: the assembler gives each instruction the most recent ``.loc`` before it in the
text (MC attaches a pending ``.loc`` to the next instruction it emits; later instructions share that line
table row), and ``objdump -l`` prints ``; FILE:LINE`` before the first instruction of each new line. So the
location of an instruction is that of the nearest directive (or annotation) above it.

Forms (LLVM 19): ``.file 0 "dir" "name" md5 0x...`` (DWARF 5: file 0 is the compilation unit's own), ``.file 1
"name"``, ``.loc FILE LINE [COLUMN] [prologue_end] [is_stmt 0] [discriminator N] ...``; a ``.loc`` naming a
file no ``.file`` declared is dropped with a warning.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator

from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.program import Kernel
from isalens.ir.registers import iter_bits, unit_name
from isalens.ir.source import SourceLoc, SourceMap, VariableLoc, carry_forward
from isalens.isa.amdgcn.syntax import parse_mir_register
from isalens.lazyre import LazyPattern
from isalens.lines import lines_of
from isalens.records import dataclass

__all__ = ["LineDirectives", "attach", "problems_as_diagnostics", "read_llvm_lines", "read_objdump_lines",
           "unheld_values", "variable_ranges"]

_STRING = r'"((?:[^"\\]|\\.)*)"'
_FILE_RE = LazyPattern(rf"^\s*\.file\s+(\d+)\s+{_STRING}(?:\s+{_STRING})?")
_LOC_RE = LazyPattern(r"^\s*\.loc\s+(\d+)\s+(\d+)(?:\s+(\d+))?")
#: llvm-objdump -l: "; /path/to/file.cl:42" (a function line "; name():" is not a location)
_OBJDUMP_RE = LazyPattern(r"^; (.+):(\d+)(?::(\d+))?\s*$")
#: ``;DEBUG_VALUE: func:var <- [DW_OP_..., DW_OP_LLVM_fragment 32 16] $vgpr5`` (LLVM's AsmPrinter comment)
_DEBUG_VALUE_RE = LazyPattern(r"^\s*;\s*DEBUG_VALUE:\s*(?:[^:\s]+:)?(\S+)\s*<-\s*(?:\[([^\]]*)\]\s*)?(\S+)")
_FRAGMENT_RE = LazyPattern(r"DW_OP_LLVM_fragment\s+(\d+)\s+(\d+)")
_BLOCK_MARKER_RE = LazyPattern(r"^\s*(?:;\s*%bb\.\d+:|\.LBB\w+:)")


@dataclass(frozen=True, slots=True)
class LineDirectives:
    """Locations by input line: ``lines[i]`` is the input line where ``locs[i]`` starts to apply."""

    lines: tuple[int, ...]
    locs: tuple[SourceLoc, ...]
    files: tuple[str, ...]
    origin: str
    problems: tuple[tuple[int, str], ...] = ()
    #: ``;DEBUG_VALUE:`` comments: (input line, variable[piece], register units; 0: in no register)
    values: tuple[tuple[int, str, int], ...] = ()
    #: input lines of the machine-block markers (``; %bb.N:``, ``.LBB<f>_N:``), read with the comments: a comment
    #: above a block's marker is the previous block's last
    block_lines: tuple[int, ...] = ()

    def at(self, line: int) -> SourceLoc | None:
        i = bisect.bisect_right(self.lines, line) - 1
        return self.locs[i] if i >= 0 else None


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def read_llvm_lines(text: str) -> LineDirectives | None:
    """The ``.file``/``.loc`` directives of LLVM assembly, or None when it has none."""
    if ".loc" not in text:
        return None
    files: dict[int, str] = {}
    lines: list[int] = []
    locs: list[SourceLoc] = []
    problems: list[tuple[int, str]] = []
    comp_dir = ""
    values: list[tuple[int, str, int]] = []
    block_lines: list[int] = []
    with_values = "DEBUG_VALUE" in text
    # a -g kernel repeats the same comments (the dense benchmark: 242k comments, 18 per instruction): each
    # distinct text is read once
    seen: dict[str, tuple[str, int] | None] = {}
    # a .loc repeats too (a 100k kernel: 53k directives, a few hundred distinct): one location object each,
    # which also lets the per-line table group instructions by object
    made: dict[tuple[str, int, int], SourceLoc] = {}
    for number, raw in _candidate_lines(text, with_values):
        stripped = raw.lstrip()
        if with_values and stripped.startswith(";") and "DEBUG_VALUE" in stripped:
            if stripped in seen:
                known = seen[stripped]
            else:
                known = seen[stripped] = _debug_value(stripped, number, problems)
            if known is not None:
                values.append((number, *known))
            continue
        if with_values and stripped.startswith((";", ".LBB")) and _BLOCK_MARKER_RE.match(stripped):
            block_lines.append(number)
            continue
        if not stripped.startswith((".file", ".loc")):
            continue
        match = _FILE_RE.match(stripped)
        if match:
            first, second = _unescape(match.group(2)), match.group(3)
            path = posixpath.join(first, _unescape(second)) if second is not None else first
            if match.group(1) == "0" and second is not None:
                comp_dir = first  # DWARF 5: file 0 names the compilation directory
            elif path and not posixpath.isabs(path) and comp_dir:
                path = posixpath.join(comp_dir, path)  # a directory relative to the compilation directory
            files[int(match.group(1))] = posixpath.normpath(path) if path else path
            continue
        match = _LOC_RE.match(stripped)
        if not match:
            if stripped.startswith((".loc ", ".loc\t", ".file ", ".file\t")):
                problems.append((number, f"cannot read this {stripped.split()[0]} directive: its source lines are "
                                         "dropped"))
            continue
        index = int(match.group(1))
        name = files.get(index)
        if name is None:
            problems.append((number, f".loc names file {index}, which no .file declared: its lines are dropped"))
            continue
        lines.append(number)
        key = (name, int(match.group(2)), int(match.group(3) or 0))
        loc = made.get(key)
        if loc is None:
            loc = made[key] = SourceLoc(*key)
        locs.append(loc)
    if not lines and not problems and not values:
        return None
    return LineDirectives(tuple(lines), tuple(locs), tuple(files[k] for k in sorted(files)), ".loc",
                          tuple(problems), tuple(values), tuple(block_lines))


#: a line that may be a directive read here: ``.file``/``.loc`` after any white space but a line end
_DIRECTIVE_LINE_RE = LazyPattern(r"^[^\S\n]*\.(?:file|loc)[^\n]*", re.M)


def _candidate_lines(text: str, every: bool) -> Iterator[tuple[int, str]]:
    """(input line number, line) of the lines :func:`read_llvm_lines` must look at: every line when the text
    has ``;DEBUG_VALUE:`` comments, else only those the directive pattern finds (a regular-expression scan of
    the whole text instead of a Python step per line), numbered as :func:`isalens.lines.lines_of` numbers them."""
    if every:
        yield from enumerate(lines_of(text), start=1)
        return
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # the line ends lines_of knows
    number, at = 1, 0
    for match in _DIRECTIVE_LINE_RE.finditer(text):
        number += text.count("\n", at, match.start())
        at = match.start()
        yield number, match.group(0)


def _debug_value(comment: str, line: int, problems: list[tuple[int, str]]) -> tuple[str, int] | None:
    """One ``;DEBUG_VALUE:`` comment: the variable (with its fragment in bits) and the register units holding
    it (0 for a constant, ``undef``, a value in memory or one computed from a register: the variable is in no
    register from here on)."""
    match = _DEBUG_VALUE_RE.match(comment)
    if match is None:
        problems.append((line, "cannot read this DEBUG_VALUE comment: it is ignored"))
        return None
    name, expression, where = match.group(1), match.group(2) or "", match.group(3)
    fragment = _FRAGMENT_RE.search(expression)
    if fragment:
        first = int(fragment.group(1))
        name += f"[{first}:{first + int(fragment.group(2))}]"
    if not where.startswith("$") or "DW_OP_deref" in expression or "DW_OP_stack_value" in expression:
        # a constant, undef, a value in memory, or one computed from the register (``DW_OP_stack_value``: the
        # register holds something else, e.g. the 32-bit half a 64-bit variable was converted from)
        return (name, 0)
    regs = parse_mir_register(where)
    if regs is None:
        problems.append((line, f"DEBUG_VALUE names a register isalens does not know ({where}): it is ignored"))
        return None
    mask = 0
    for reg in regs:
        mask |= reg.mask()
    return (name, mask)


def read_objdump_lines(text: str) -> LineDirectives | None:
    """The ``; FILE:LINE`` annotations of ``llvm-objdump -d -l`` (or ``-S``) output, or None."""
    if "\n; " not in text:
        return None
    lines: list[int] = []
    locs: list[SourceLoc] = []
    files: dict[str, None] = {}
    for number, raw in enumerate(lines_of(text), start=1):
        if not raw.startswith("; ") or raw.endswith("():"):
            continue
        match = _OBJDUMP_RE.match(raw)
        if match and ("/" in match.group(1) or "." in match.group(1)):
            lines.append(number)
            locs.append(SourceLoc(match.group(1), int(match.group(2)), int(match.group(3) or 0)))
            files.setdefault(match.group(1))
    if not lines:
        return None
    return LineDirectives(tuple(lines), tuple(locs), tuple(files), "objdump -l")


def attach(kernel: Kernel, directives: LineDirectives, after: int = 0, skip: frozenset[int] = frozenset()) -> Kernel:
    """``kernel`` with its source map: each instruction takes the location in force at its input line, and
    the variables of the ``;DEBUG_VALUE:`` comments after input line ``after`` (the function before it ends
    there) their registers (:func:`variable_ranges`), but for the comments at the input lines ``skip``."""
    from isalens import records

    found = carry_forward([directives.at(ins.line) for ins in kernel.instructions])
    values = tuple(v for v in directives.values if v[0] not in skip) if skip else directives.values
    variables = variable_ranges(kernel, values, after, directives.block_lines) if values else ()
    kind = "lines+variables" if variables else "lines" if any(loc is not None for loc in found) else "none"
    return records.replace(kernel, source=SourceMap(tuple(found), kind, directives.origin, directives.files,
                                                        variables))


def unheld_values(kernel: Kernel, values: tuple[tuple[int, str, int], ...],
                  after: int = 0) -> list[tuple[int, str]]:
    """(input line, message) of each ``;DEBUG_VALUE:`` comment inside ``kernel`` that puts a variable in registers
    no part of which can hold a value: no instruction writes them and the hardware does not set them at entry
    (the kernel descriptor says which; without one, a register the code reads may be an input and counts as
    held). Such a comment contradicts the code, so it is dropped (:func:`attach` ``skip``)."""
    ins = kernel.instructions
    if not ins or not values:
        return []
    last = ins[-1].line
    inside = [v for v in values if after < v[0] <= last and v[2]]
    if not inside:
        return []
    held = 0
    for instruction in ins:
        held |= instruction.defs if kernel.entry_live_in is not None else instruction.defs | instruction.uses
    held |= kernel.entry_live_in or 0
    out = []
    for line, name, mask in inside:
        if not mask & held:
            regs = ", ".join(dict.fromkeys(unit_name(u).split(".")[0] for u in iter_bits(mask)))
            out.append((line, f"DEBUG_VALUE puts {name} in {regs}, which no instruction of {kernel.name} writes "
                              "and the hardware does not set: it is dropped"))
    return out


def variable_ranges(kernel: Kernel, values: tuple[tuple[int, str, int], ...],
                    after: int = 0, block_lines: tuple[int, ...] = ()) -> tuple[VariableLoc, ...]:
    """Where each variable lives, from the DEBUG_VALUE comments inside ``kernel``: from the first instruction
    after a comment until the next comment for the same variable (or piece), an instruction that writes one of
    its registers (included: it still reads the old value), or the start of the next block (LLVM ends every
    location at the end of its machine block, DbgEntityHistoryCalculator.cpp, and prints the variables live into
    a block again at its start). A block starts at a ``; %bb.N:`` / ``.LBB`` marker or at a label some branch
    targets; the ``.Ltmp`` labels the line table puts between the instructions of one block start none. A comment
    above a block's marker (``block_lines``) is the previous block's last: the location it gives ends with that
    block, before any instruction."""
    ins = kernel.instructions
    if not ins:
        return ()
    last = ins[-1].line
    targets = {instruction.target for instruction in ins if instruction.target is not None}
    starts = set(kernel.block_starts.values()) | {at for name, at in kernel.labels.items() if name in targets}
    out: list[VariableLoc] = []
    held: dict[str, tuple[int, int]] = {}  # variable -> (register units, first instruction)

    latest: dict[str, int] = {}  # variable -> index in ``out`` of its latest range

    def close(name: str, end: int) -> None:
        mask, start = held.pop(name)
        if end < start:
            return
        k = latest.get(name)
        if k is not None and out[k].mask == mask and out[k].end + 1 >= start:
            out[k] = VariableLoc(name, mask, out[k].start, end)  # the same place again: one range
        else:
            latest[name] = len(out)
            out.append(VariableLoc(name, mask, start, end))

    pending = sorted((v for v in values if after < v[0] <= last), key=lambda v: v[0])
    p = 0
    for i, instruction in enumerate(ins):
        if i in starts:
            k = bisect.bisect_left(block_lines, instruction.line) - 1
            if k >= 0 and i > 0 and block_lines[k] > ins[i - 1].line:
                while p < len(pending) and pending[p][0] < block_lines[k]:
                    p += 1  # the previous block's last comments: their locations end before any instruction
            for name in list(held):
                close(name, i - 1)
        while p < len(pending) and pending[p][0] < instruction.line:
            _line, name, mask = pending[p]
            p += 1
            if mask and name in held and held[name][0] == mask:
                continue  # the same place again (LLVM restates locations often): the range goes on
            if name in held:
                close(name, i - 1)
            if mask:
                held[name] = (mask, i)
        if instruction.defs:
            for name in [n for n, (m, _s) in held.items() if m & instruction.defs]:
                close(name, i)
    for name in list(held):
        close(name, len(ins) - 1)
    return tuple(sorted(out, key=lambda v: (v.start, v.name)))


def problems_as_diagnostics(directives: LineDirectives, file: str | None) -> list[Diagnostic]:
    return [Diagnostic(Severity.WARNING, "debug-info", message, file, line) for line, message in directives.problems]
