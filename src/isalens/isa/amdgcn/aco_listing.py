"""Mesa ACO disassembly (``BB3:`` labels, ``; 8e038303`` encoding trailers), alone or inside a RADV dump
(:mod:`.radv_dump`), and the wave size such code runs at."""

from __future__ import annotations

import re

from isalens.errors import ParseError
from isalens.isa.amdgcn import drafts
from isalens.isa.amdgcn.drafts import Draft, DraftInstruction, ReadResult
from isalens.lines import lines_of

#: ``(then repeated N times)``: ACO prints a run of identical instructions once
REPEAT_RE = re.compile(r"^\s*\(then repeated (\d+) times?\)\s*$")
#: the ``/* constant data */`` block ACO appends after the code, and its ``[0] WORDS`` rows
CONSTANT_DATA_RE = re.compile(r"^\s*/\*\s*constant data\s*\*/\s*$")
CONSTANT_ROW_RE = re.compile(r"^\s*\[\d+\]((?:\s+[0-9a-fA-F]{8})+)\s*$")

_WAVE_HINT_32 = re.compile(r"\b(?:vcc_lo|exec_lo|s_\w+_saveexec_b32)\b")
_WAVE_HINT_64 = re.compile(r"\b(?:s_\w+_saveexec_b64)\b|\bexec\b(?!_)|\bvcc\b(?!_)")
#: Mesa 22.3's RADV compiles every stage as wave64 unless RADV_PERFTEST asks for wave32 or a compute shader
#: requires a subgroup size (``radv_physical_device.c``: cs/ps/ge_wave_size default to 64).
RADV_DEFAULT_WAVE = 64


def repeat_last(draft: Draft, times: int, lineno: int, address: int, file: str) -> int:
    """Write out ``(then repeated N times)``: the draft's last instruction ``times`` more times from
    ``address`` (None when it has no encoding words); the address after them."""
    if not draft.items:
        raise ParseError("'(then repeated N times)' before any instruction", file=file, line=lineno,
                         code="syntax")
    last = draft.items[-1]
    for _ in range(times):
        draft.items.append(DraftInstruction(lineno, last.text, address if last.encoding else None, last.encoding))
        address += 4 * len(last.encoding)
    return address


def read_aco(text: str, file: str) -> ReadResult:
    """Mesa ACO disassembly: ``BB3:`` labels and ``; 8e038303`` encoding trailers.

    ``(then repeated N times)`` (ACO prints a run of identical instructions once) is written out N times;
    the ``/* constant data */`` block ACO appends after the code is skipped with a note.
    """
    result = ReadResult([])
    draft = Draft(drafts.stem(file), 1, is_kernel=True)
    draft.metadata["aco"] = "1"
    result.drafts.append(draft)
    address = 0
    in_constants = False
    for lineno, raw in enumerate(lines_of(text), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#", ";")):
            continue
        repeat = REPEAT_RE.match(line)
        if repeat:
            address = repeat_last(draft, int(repeat.group(1)), lineno, address, file)
            continue
        if CONSTANT_DATA_RE.match(line):
            in_constants = True
            result.notes.append((lineno, "ACO's constant data after the code skipped (not code)"))
            continue
        if in_constants and CONSTANT_ROW_RE.match(line):
            continue
        code, comment = drafts.split_comment(line, (";",))
        if drafts.TRAILER_RE.search(code):
            raise ParseError("this line ends in a driver/RGA listing's '// ADDRESS: WORDS', not ACO's '; WORDS': "
                             "read it with --dialect listing (or without --dialect)", file=file, line=lineno,
                             code="dialect")
        code = code.strip()
        label = drafts.LABEL_RE.match(code)
        if label:
            draft.add_label(label.group(1), file, lineno)
            code = label.group(2).strip()
            if not code:
                continue
        trailer = drafts.ACO_TRAILER_RE.search(comment) if comment else None
        encoding = drafts.words(trailer.group(1)) if trailer else ()
        draft.items.append(DraftInstruction(lineno, code, address if encoding else None, encoding))
        address += 4 * len(encoding)
    wave, how = aco_wave_size("\n".join(item.text for item in draft.items))
    draft.metadata["wavefront_size"] = str(wave)
    draft.metadata["wave_size_source"] = how
    return result


def aco_wave_size(code: str) -> tuple[int, str]:
    """The wave size of ACO code from its EXEC/VCC forms (``exec_lo``, ``_b32`` saveexec: wave32), else
    RADV's default wave64 (ACO code is RADV's; a listing rarely says), with where it came from."""
    if _WAVE_HINT_32.search(code):
        return 32, "disasm"
    if _WAVE_HINT_64.search(code):
        return 64, "disasm"
    return RADV_DEFAULT_WAVE, "default"
