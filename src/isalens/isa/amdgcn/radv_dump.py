"""Mesa RADV's shader dump (``RADV_DEBUG=shaders``, optionally ``,shaderstats``) as it is pasted.

What Mesa 22.3 prints, per pipeline (``radv_shader.c``/``radv_pipeline.c`` for the headers, ``aco_print_ir.cpp``
for the IR, ``radv_pipeline.c`` ``radv_dump_shader_stats`` for the statistics):

* the NIR of every stage: ``shader: MESA_SHADER_<STAGE>`` and its body (compute: ``workgroup-size: x, y, z``);
* ACO's IR after register allocation: ``After RA:``, ``ACO shader stage: <stage>``, ``BB0`` blocks;
* the final code: a line naming the hardware stage (``Compute Shader``, ``Pixel Shader``, ``Vertex Shader as VS``,
  merged stages joined by `` + ``), then ``disasm:`` and ACO's disassembly (``BB3:`` labels, ``; 8e038303``
  encoding words, ``(then repeated N times)`` runs, an optional ``/* constant data */`` block);
* with ``shaderstats``: ``<stage name>:``, ``*** SHADER STATS ***``, ``Name: value`` lines, a line of ``*``.

Each ``disasm:`` section becomes one kernel named after its stage (and the ``Driver pipeline hash`` when the
statistics print it). NIR and ACO IR are skipped on purpose, with a note; ACO IR is only read for the wave
size (a lane mask is ``s1: %0:exec`` in wave32, ``s2: %0:exec`` in wave64). Anything else outside the
sections (driver warnings...) is skipped with a note naming its lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from isalens.errors import ParseError
from isalens.isa.amdgcn.aco_listing import (
    CONSTANT_DATA_RE,
    CONSTANT_ROW_RE,
    RADV_DEFAULT_WAVE,
    REPEAT_RE,
    aco_wave_size,
    repeat_last,
)
from isalens.isa.amdgcn.drafts import Draft, DraftInstruction, ReadResult
from isalens.lines import lines_of

#: how a shader's occupancy is counted (RADV dumps and the RADV front end print it once per file)
SHADER_OCCUPANCY_NOTE = ("shader occupancy follows RADV's model (Mesa radv_get_max_waves) in waves of the shader's "
                         "own size; ACO's \"Subgroups per SIMD\", shown beside it, counts wave32 units on gfx10+ "
                         "(a wave64 counts twice); no whole-workgroup fitting for graphics stages, SGPRs are a "
                         "fixed 128 per wave on gfx10+")

__all__ = ["RADV_DEFAULT_WAVE", "declared_family", "looks_like_radv_dump", "read_radv_dump"]


_NIR_START = re.compile(r"^shader: MESA_SHADER_(\w+)\s*$")
_ACO_IR_START = re.compile(r"^(?:After [A-Za-z][\w ]*:|ACO shader stage:.*)\s*$")
_DISASM = "disasm:"
_STATS = "*** SHADER STATS ***"
_STATS_END = re.compile(r"^\*{8,}\s*$")
_STAT_LINE = re.compile(r"^([A-Za-z][\w /-]*?):\s*(\S.*?)\s*$")
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):\s*$")
_TRAILER = re.compile(r";((?:\s+[0-9a-fA-F]+)+)\s*$")
# an instruction whose indentation a paste lost: a mnemonic, operands, ACO's encoding words
_PASTED_INSTRUCTION = re.compile(r"^[a-z][a-z0-9_]*\b[^;]*;(?:\s+[0-9a-fA-F]{8})+\s*$"
                                 r"|^\(then repeated \d+ times?\)\s*$")
_WORKGROUP = re.compile(r"^workgroup[-_]size:\s*(\d+),\s*(\d+),\s*(\d+)\s*$")
_NIR_INPUTS = re.compile(r"^inputs:\s*(\d+)\s*$")
_NIR_SHARED = re.compile(r"^shared-size:\s*(\d+)\s*$")
_LANE_MASK = re.compile(r"\bs([12]): %\d+:(?:exec|vcc)\b")
# Where a dump names its GPU: the environment line users paste with it, or the device name Vulkan reports.
_FAMILY_HINTS = (re.compile(r"\bRADV_FORCE_FAMILY=([A-Za-z0-9_]+)"), re.compile(r"\bRADV ([A-Z][A-Z0-9_]+)\)?\s*$"))
_END_INSTRUCTIONS = ("s_endpgm", "s_code_end", "s_setpc_b64", "s_branch")

#: NIR stage names -> the stage words isalens uses for shaders
_NIR_STAGES = {"COMPUTE": "comp", "FRAGMENT": "frag", "VERTEX": "vert", "GEOMETRY": "geom", "TESS_CTRL": "tesc",
               "TESS_EVAL": "tese", "MESH": "mesh", "TASK": "task"}
#: first word(s) of a hardware stage name -> stage
_HW_STAGES = (("Compute", "comp"), ("Pixel", "frag"), ("Fragment", "frag"), ("Vertex", "vert"),
              ("Geometry", "geom"), ("Tessellation Control", "tesc"), ("Tessellation Evaluation", "tese"),
              ("Mesh", "mesh"), ("Task", "task"))


@dataclass(slots=True)
class _Stage:
    title: str
    line: int
    draft: Draft
    ir: list[str] = field(default_factory=list)
    nir: dict[str, str] = field(default_factory=dict)
    hints: str = ""


_SECTION_MARKS = re.compile(r"^(?:disasm:|\*\*\* SHADER STATS \*\*\*|shader: MESA_SHADER_\w+|ACO shader stage:.*)\s*$",
                            re.M)


def looks_like_radv_dump(head: str) -> bool:
    """True when ``head`` has a section RADV prints (``disasm:``, statistics, NIR or ACO IR headers)."""
    return bool(_SECTION_MARKS.search(head))


def declared_family(text: str) -> tuple[str, int] | None:
    """The GPU family a dump names outside its sections (``RADV_FORCE_FAMILY=navi21``, ``(RADV NAVI21)``)."""
    for lineno, line in enumerate(lines_of(text)[:400], start=1):
        if line.startswith(("\t", " ")) or line.strip() == _DISASM:
            continue
        for pattern in _FAMILY_HINTS:
            m = pattern.search(line)
            if m:
                return m.group(1).lower(), lineno
    return None


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_") or "shader"


def _stage_of(title: str) -> str | None:
    for prefix, stage in _HW_STAGES:
        if title.startswith(prefix):
            return stage
    return None


def _next_nonblank(lines: list[str], i: int) -> str:
    for j in range(i, min(i + 3, len(lines))):
        if lines[j].strip():
            return lines[j].strip()
    return ""


class _Reader:
    def __init__(self, text: str, file: str) -> None:
        self.lines = lines_of(text)
        self.file = file
        self.result = ReadResult([])
        self.stages: list[_Stage] = []
        self.pending_ir: list[str] = []
        self.nir: list[dict[str, str]] = []
        self._ir_sections = 0
        self.skipped: list[int] = []
        self.titles: dict[str, int] = {}
        named = declared_family(text)
        self.family = named[0] if named else None

    # ------------------------------------------------------------------ helpers
    def _header_at(self, i: int) -> str | None:
        """The kind of section starting at line index ``i``, if one does."""
        line = self.lines[i]
        if not line.strip() or line[0] in " \t":
            return None
        nxt = self.lines[i + 1].strip() if i + 1 < len(self.lines) else ""
        if nxt == _DISASM and line.strip() != _DISASM:
            return "disasm"
        if nxt == _STATS and line.rstrip().endswith(":"):
            return "stats"
        if _NIR_START.match(line):
            return "nir"
        if _ACO_IR_START.match(line):
            return "ir"
        return None

    def _note_skipped(self) -> None:
        if not self.skipped:
            return
        first, last = self.skipped[0], self.skipped[-1]
        where = f"line {first}" if first == last else f"lines {first}-{last}"
        self.result.notes.append((first, f"{where}: not part of a section RADV prints (NIR, ACO IR, disasm, "
                                         "statistics): skipped"))
        self.skipped = []

    # ------------------------------------------------------------------ sections
    def read(self) -> ReadResult:
        i = 0
        n = len(self.lines)
        while i < n:
            kind = self._header_at(i)
            if kind is None:
                if self.lines[i].strip():
                    self.skipped.append(i + 1)
                i += 1
                continue
            self._note_skipped()
            if kind == "nir":
                i = self._nir(i)
            elif kind == "ir":
                i = self._ir(i)
            elif kind == "disasm":
                i = self._disasm(i)
            else:
                i = self._stats(i)
        self._note_skipped()
        if not self.stages:
            # say what the text holds instead: a file of ACO IR alone is a common mistake (it names ACO's
            # temporaries, %228:s[0-1], not the final code)
            found = [what for what, n in (("NIR", len(self.nir)), ("ACO IR", self._ir_sections)) if n]
            holds = f" (it holds {' and '.join(found)} only)" if found else ""
            raise ParseError(f"RADV dump with no 'disasm:' section{holds}: nothing to analyse; isalens reads "
                             "the final assembly (RADV_DEBUG=shaders prints one 'disasm:' per stage after the "
                             "line naming it)", file=self.file, line=None, code="no-disasm")
        for stage in self.stages:
            self._finish(stage)
        self.result.notes.append((self.stages[0].line, SHADER_OCCUPANCY_NOTE))
        return self.result

    def _section_end(self, i: int) -> int:
        while i < len(self.lines) and self._header_at(i) is None:
            i += 1
        return i

    def _nir(self, i: int) -> int:
        start = i
        end = self._section_end(i + 1)
        m = _NIR_START.match(self.lines[i])
        info: dict[str, str] = {"stage": _NIR_STAGES.get(m.group(1), m.group(1).lower()) if m else ""}
        for line in self.lines[start:end]:
            wg = _WORKGROUP.match(line)
            if wg:
                info["workgroup"] = " ".join(wg.groups())
            inputs = _NIR_INPUTS.match(line)
            if inputs:
                info["inputs"] = inputs.group(1)
            shared = _NIR_SHARED.match(line)
            if shared:
                info["shared"] = shared.group(1)
        self.nir.append(info)
        self.result.notes.append((start + 1, f"lines {start + 1}-{end}: NIR ({info['stage']}) skipped: isalens "
                                             "analyses the final disassembly"))
        return end

    def _ir(self, i: int) -> int:
        end = self._section_end(i + 1)
        # "After RA:" and its "ACO shader stage:" line belong together
        while end < len(self.lines) and _ACO_IR_START.match(self.lines[end]):
            end = self._section_end(end + 1)
        self.pending_ir = self.lines[i:end]
        self._ir_sections += 1
        self.result.notes.append((i + 1, f"lines {i + 1}-{end}: ACO IR skipped (read only for the wave size)"))
        return end

    def _disasm(self, i: int) -> int:
        title = self.lines[i].strip()
        count = self.titles.get(title, 0) + 1
        self.titles[title] = count
        name = _slug(title) + (f"_{count}" if count > 1 else "")
        draft = Draft(name, i + 1, is_kernel=True)
        draft.metadata["aco"] = "1"
        stage = _Stage(title, i + 1, draft, self.pending_ir)
        self.pending_ir = []
        wanted = _stage_of(title)
        for info in reversed(self.nir):
            if info.get("stage") == wanted:
                stage.nir = info
                break
        self.stages.append(stage)
        self.result.drafts.append(draft)
        j = i + 2
        address = 0
        in_constants = False
        while j < len(self.lines):
            raw = self.lines[j]
            lineno = j + 1
            stripped = raw.strip()
            if not stripped:
                j += 1
                continue
            if raw[0] not in " \t" and self._header_at(j) is not None:
                break
            if CONSTANT_DATA_RE.match(raw):
                in_constants = True
                self.result.notes.append((lineno, f"{title}: constant data after the code skipped (not code)"))
                j += 1
                continue
            if in_constants and CONSTANT_ROW_RE.match(raw):
                j += 1
                continue
            label = _LABEL.match(raw)
            if label and raw[0] not in " \t":
                draft.add_label(label.group(1), self.file, lineno)
                j += 1
                continue
            if raw[0] not in " \t" and not _PASTED_INSTRUCTION.match(raw):
                break  # the dump goes on with something else: the outer loop notes it
            repeat = REPEAT_RE.match(raw)
            if repeat:
                address = repeat_last(draft, int(repeat.group(1)), lineno, address, self.file)
                j += 1
                continue
            code, _, comment = raw.partition(";")
            trailer = _TRAILER.search(";" + comment) if comment else None
            words = trailer.group(1).split() if trailer else []
            if not words or any(len(w) != 8 for w in words):
                raise ParseError(f"{title}: instruction without its encoding words ({stripped[:60]!r}): the dump "
                                 "is truncated or edited", file=self.file, line=lineno, code="truncated")
            encoding = tuple(int(w, 16) for w in words)
            draft.items.append(DraftInstruction(lineno, code.strip(), address, encoding))
            address += 4 * len(encoding)
            j += 1
        if j >= len(self.lines) and draft.items and not in_constants:
            last_op = draft.items[-1].text.split(None, 1)[0]
            if last_op not in _END_INSTRUCTIONS:
                raise ParseError(f"{title}: the dump ends inside the disassembly (last instruction "
                                 f"{last_op}, not s_endpgm): truncated?", file=self.file,
                                 line=draft.items[-1].line, code="truncated")
        if not draft.items:
            raise ParseError(f"{title}: 'disasm:' section without instructions", file=self.file, line=i + 2,
                             code="truncated")
        return j

    def _stats(self, i: int) -> int:
        title = self.lines[i].strip().rstrip(":").strip()
        stats: dict[str, str] = {}
        j = i + 2
        while j < len(self.lines):
            line = self.lines[j].strip()
            if _STATS_END.match(line):
                j += 1
                break
            m = _STAT_LINE.match(line)
            if m:
                stats[m.group(1)] = m.group(2)
            elif line:
                self.result.notes.append((j + 1, f"{title} statistics: {line[:40]!r} is not 'Name: value': skipped"))
            j += 1
        else:
            self.result.notes.append((i + 1, f"{title}: statistics block not closed (the dump ends inside it)"))
        owner = next((s for s in self.stages if s.title == title and not s.draft.comments), None)
        if owner is None:
            self.result.notes.append((i + 1, f"statistics of '{title}' without its disassembly: skipped"))
        else:
            owner.draft.comments.update(stats)
        return j

    # ------------------------------------------------------------------ per stage
    def _finish(self, stage: _Stage) -> None:
        draft = stage.draft
        pipeline_hash = draft.comments.get("Driver pipeline hash")
        if pipeline_hash:
            draft.name = f"{draft.name}@{pipeline_hash}"
        wave, how = _wave_size(stage)
        draft.metadata["wavefront_size"] = str(wave)
        draft.metadata["wave_size_source"] = how
        hw = _stage_of(stage.title)
        if hw:
            draft.metadata["shader_stage"] = hw
        if stage.nir.get("workgroup") and hw == "comp":
            draft.metadata["reqd_workgroup_size"] = stage.nir["workgroup"]
        if stage.nir.get("inputs") and hw == "frag":
            draft.metadata["shader_inputs"] = stage.nir["inputs"]
        lds = draft.comments.get("LDS size") or stage.nir.get("shared")
        if lds and hw in ("comp", "frag"):
            draft.metadata["group_segment_fixed_size"] = lds
        if self.family:
            draft.comments["family"] = self.family


def _wave_size(stage: _Stage) -> tuple[int, str]:
    """The wave size from ACO's IR lane masks, else the disassembly's EXEC/VCC forms, else RADV's default."""
    sizes = {m.group(1) for m in _LANE_MASK.finditer("\n".join(stage.ir))}
    if len(sizes) == 1:
        return (32 if sizes == {"1"} else 64), "aco-ir"
    return aco_wave_size("\n".join(item.text for item in stage.draft.items))


def read_radv_dump(text: str, file: str) -> ReadResult:
    """Every stage's final disassembly in a RADV dump, as one draft kernel each."""
    return _Reader(text, file).read()
