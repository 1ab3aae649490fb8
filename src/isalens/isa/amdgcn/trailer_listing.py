"""``llvm-objdump -d`` output, driver/RGA listings (``instr  // ADDR: WORDS``) and bare pasted instructions."""

from __future__ import annotations

import re

from isalens.errors import ParseError
from isalens.isa.amdgcn.drafts import LABEL_RE, TRAILER_RE, Draft, ReadResult, split_comment, stem, trailer_instruction
from isalens.lines import lines_of

_OBJDUMP_FUNC_RE = re.compile(r"^([0-9a-fA-F]+)\s+<(.+)>:\s*$")  # names may hold < > ( ) = " (C++, quoted symbols)


def read_trailer_listing(text: str, file: str, *, objdump: bool) -> ReadResult:
    """``llvm-objdump -d`` output and driver/RGA listings: ``instr  // ADDR: WORDS``."""
    result = ReadResult([])
    current: Draft | None = None
    default_name = stem(file)
    for lineno, raw in enumerate(lines_of(text), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        func = _OBJDUMP_FUNC_RE.match(stripped)
        if func:
            current = Draft(func.group(2), lineno, base_address=int(func.group(1), 16), is_kernel=True)
            result.drafts.append(current)
            continue
        if stripped.startswith((";", "#")) or stripped.startswith("Disassembly of") or "file format" in stripped:
            continue
        code, comment = split_comment(line, ("//", ";"))
        trailer = TRAILER_RE.search(comment)
        code = code.strip()
        label = LABEL_RE.match(code)
        if label:
            if current is None:
                current = Draft(default_name, lineno, is_kernel=True)
                result.drafts.append(current)
            current.add_label(label.group(1), file, lineno)
            code = label.group(2).strip()
        if not code:
            continue
        if current is None:
            if objdump:
                raise ParseError("instruction before any function header", file=file, line=lineno)
            current = Draft(default_name, lineno, is_kernel=True)
            result.drafts.append(current)
        current.items.append(trailer_instruction(lineno, code, trailer))
    return result


def read_bare(text: str, file: str) -> ReadResult:
    """A pasted list of instructions, with optional ``label:`` prefixes and comments."""
    result = ReadResult([])
    draft = Draft(stem(file), 1, is_kernel=True)
    result.drafts.append(draft)
    for lineno, raw in enumerate(lines_of(text), start=1):
        code, comment = split_comment(raw, ("//", ";", "#"))
        trailer = TRAILER_RE.search(comment)
        code = code.strip()
        while True:
            label = LABEL_RE.match(code)
            if not label:
                break
            draft.add_label(label.group(1), file, lineno)
            code = label.group(2).strip()
        if not code:
            continue
        draft.items.append(trailer_instruction(lineno, code, trailer))
    return result
