"""Readers for each text form of AMDGPU machine code. Each turns lines into :class:`Draft` kernels:
labels, instruction texts with their source line and encoding words, and whatever the input declares.

Forms: LLVM assembly (``clang -S``/``llc``), ``llvm-objdump -d``, driver/RGA listings with
``// ADDRESS: WORDS`` trailers, Mesa ACO disassembly (``BB3:`` labels, ``; 8e038303`` trailers), RADV's
``RADV_DEBUG=shaders`` dump (:mod:`.radv_dump`: one kernel per stage), and a bare list of instructions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from isalens.errors import ParseError
from isalens.lines import lines_of

DIALECTS = ("llvm", "objdump", "listing", "aco", "radv", "bare")


@dataclass(slots=True)
class DraftInstruction:
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
    descriptor: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    comments: dict[str, str] = field(default_factory=dict)
    is_kernel: bool = False
    ended: bool = True
    base_address: int | None = None

    def drop_empty_block_markers(self) -> None:
        """A block starts where earlier ``implicit-def`` markers opened one: that block is empty.

        Instructions cannot carry a marker for a block with no instructions (it would wrongly apply to
        every path into the next block), so such markers are dropped: the register then stays live
        through the empty block, as it does on the path that bypasses it.
        """
        at = len(self.items)
        self.implicit_defs = [d for d in self.implicit_defs if not (d[0] == at and d[3])]

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
    drafts: list[Draft]
    arch: str | None = None
    wave_size: int | None = None
    #: (line, text) of what a reader skipped on purpose, reported as notes
    notes: list[tuple[int, str]] = field(default_factory=list)


_TRAILER_RE = re.compile(r"//\s*([0-9A-Fa-f]{6,16}):((?:\s+[0-9A-Fa-f]{8})+)")
_ACO_TRAILER_RE = re.compile(r";((?:\s+[0-9a-fA-F]{8})+)\s*$")
_LABEL_RE = re.compile(r"^\s*([.A-Za-z_$][\w.$]*):(?:\s+|$)(.*)$")
_OBJDUMP_FUNC_RE = re.compile(r"^([0-9a-fA-F]+)\s+<(.+)>:\s*$")  # names may hold < > ( ) = " (C++, quoted symbols)
_TARGET_RE = re.compile(r"""\.amdgcn_target\s+"([^"]+)\"""")
_BB_COMMENT_RE = re.compile(r"^\s*;\s*%bb\.(\d+):")
_LBB_RE = re.compile(r"^\.LBB(\d+)_(\d+)$")
_IMPLICIT_DEF_RE = re.compile(r"^\s*;\s*implicit-def:\s*(.+)$")
_KEY_VALUE_COMMENT = re.compile(r"^\s*;\s*([A-Za-z][\w ]*?)\s*[:=]\s*(.+?)\s*$")
_MNEMONIC_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def sniff(text: str) -> str:
    """Guess the dialect of ``text``."""
    head = text[:200_000]
    if "file format elf64-amdgpu" in head or re.search(r"^Disassembly of section", head, re.M):
        return "objdump"
    if re.search(r"^\s*\.(amdgcn_target|amdhsa_kernel|text|globl|section)\b", head, re.M) or re.search(
        r"^\s*;\s*%bb\.\d+:", head, re.M
    ):
        return "llvm"
    from isalens.isa.amdgcn.radv_dump import looks_like_radv_dump

    if looks_like_radv_dump(head):
        return "radv"
    if re.search(r"^\s*\(then repeated \d+ times?\)\s*$", head, re.M) and _ACO_TRAILER_RE.search(head):
        return "aco"  # ACO's run-length lines: an ACO listing even without BB labels
    if re.search(r"^BB\d+:\s*$", head, re.M) and _ACO_TRAILER_RE.search(head):
        return "aco"
    if _TRAILER_RE.search(head):
        return "listing"
    return "bare"


_STAT_LINE_RE = re.compile(r"^\s+STAT \S.*\s-?\d+\s*$", re.M)
_EXE_LINE_RE = re.compile(r"^EXE \S", re.M)


def statistics_only(head: str) -> bool:
    """True for Vulkan pipeline-executable statistics without code (``EXE Compute Shader ...`` then
    ``  STAT VGPRs 20`` lines, as printed from VK_KHR_pipeline_executable_properties): read as a bare
    listing it would fail on its first line with a puzzling "unknown instruction"."""
    return bool(_EXE_LINE_RE.search(head)) and len(_STAT_LINE_RE.findall(head)) >= 3 \
        and not _ACO_TRAILER_RE.search(head) and not _TRAILER_RE.search(head)


_RGA_LIVEREG_RE = re.compile(r"^\s*'Rn': Number of live registers\s*$|^Maximum # [VS]GPR used", re.M)


def rga_livereg_output(head: str) -> bool:
    """True for RGA's live-register analysis output (its legend, ``Line | Rn |`` map and summary): a
    report about ISA, not ISA."""
    return len(_RGA_LIVEREG_RE.findall(head)) >= 1 and bool(re.search(r"^\s*Line \| Rn\s+\|", head, re.M))


def _split_comment(line: str, markers: tuple[str, ...]) -> tuple[str, str]:
    cut = len(line)
    for marker in markers:
        pos = line.find(marker)
        if pos != -1:
            cut = min(cut, pos)
    return line[:cut], line[cut:]


def _words(hexes: str) -> tuple[int, ...]:
    return tuple(int(w, 16) for w in hexes.split())


def _looks_like_instruction(text: str) -> bool:
    first = text.split(None, 1)[0] if text.strip() else ""
    return bool(_MNEMONIC_RE.match(first.lower()))


def check_instruction_text(text: str, file: str, lineno: int) -> None:
    if not _looks_like_instruction(text):
        raise ParseError(f"cannot read {text.strip()[:60]!r} as an instruction", file=file, line=lineno)


# ------------------------------------------------------------------------------------------ LLVM
def read_llvm(text: str, file: str) -> ReadResult:
    """LLVM AMDGPU assembly as printed by ``clang -S`` / ``llc``."""
    result = ReadResult([])
    by_name: dict[str, Draft] = {}
    current: Draft | None = None
    last_function: Draft | None = None
    section = ".text"
    descriptor: Draft | None = None
    in_metadata = False
    metadata_lines: list[tuple[int, str]] = []

    for lineno, raw in enumerate(lines_of(text), start=1):
        if current is not None and raw[:1] == "\t" and "a" <= raw[1:2] <= "z" and section == ".text":
            # fast path: an instruction line inside a function (the bulk of any listing)
            code = raw.split(";", 1)[0].strip()
            if ":" not in code.split(None, 1)[0]:
                current.items.append(DraftInstruction(lineno, code))
                continue
        line = raw.rstrip()
        stripped = line.strip()
        if in_metadata:
            if stripped.startswith(".end_amdgpu_metadata"):
                in_metadata = False
            else:
                metadata_lines.append((lineno, line))
            continue
        if not stripped:
            continue
        if descriptor is not None:
            if stripped.startswith(".end_amdhsa_kernel"):
                descriptor = None
            elif stripped.startswith(".amdhsa_"):
                key, _, value = stripped.partition(" ")
                descriptor.descriptor[key[len(".amdhsa_"):]] = value.strip()
            continue
        target = _TARGET_RE.search(stripped)
        if target:
            result.arch = target.group(1)
            continue
        if stripped.startswith(";"):
            if current is not None and section == ".text":
                bb = _BB_COMMENT_RE.match(stripped)
                if bb:
                    current.drop_empty_block_markers()
                    current.blocks.setdefault(int(bb.group(1)), len(current.items))
                    continue
                imp = _IMPLICIT_DEF_RE.match(stripped)
                if imp:
                    at = len(current.items)
                    after_label = at in current.labels.values() or at in current.blocks.values()
                    current.implicit_defs.append((at, imp.group(1).strip(), lineno, after_label))
                    continue
            elif last_function is not None and section != ".text":
                kv = _KEY_VALUE_COMMENT.match(stripped)
                if kv:
                    last_function.comments.setdefault(kv.group(1).strip(), kv.group(2).strip())
            continue
        if stripped.startswith(".amdgpu_metadata"):
            in_metadata = True
            continue
        if stripped.startswith(".amdhsa_kernel"):
            name = stripped.split(None, 1)[1].strip() if " " in stripped else ""
            descriptor = by_name.get(name) or Draft(name, lineno)
            by_name.setdefault(name, descriptor)
            descriptor.is_kernel = True
            continue
        if stripped.startswith((".text", ".section", ".data", ".bss", ".rodata")):
            if stripped.startswith(".text") or re.match(r"\.section\s+\.text", stripped):
                section = ".text"
            else:
                section = stripped.split()[1].rstrip(",") if len(stripped.split()) > 1 else stripped
            continue
        code, _comment = _split_comment(line, (";",))
        code = code.strip()
        if not code:
            continue
        label = _LABEL_RE.match(code)
        if label:
            name, rest = label.group(1), label.group(2).strip()
            if section != ".text":
                continue
            if name.startswith(".Lfunc_end"):
                if current is not None:
                    current.ended = True
                    current = None
                continue
            if name.startswith((".L", "$")):
                if current is not None:
                    current.add_label(name, file, lineno)
                    lbb = _LBB_RE.match(name)
                    if lbb:
                        current.blocks.setdefault(int(lbb.group(2)), len(current.items))
                code = rest
                if not code:
                    continue
            else:
                if current is not None:
                    current.ended = True
                draft = by_name.get(name) or Draft(name, lineno)
                draft.start_line = lineno
                draft.ended = False
                by_name[name] = draft
                result.drafts.append(draft)
                current = last_function = draft
                code = rest
                if not code:
                    continue
        if code.startswith("."):
            continue  # directive inside a function (.p2align, .loc ...)
        if section != ".text":
            continue
        if current is None:
            raise ParseError("instruction outside any function (no label before it)", file=file, line=lineno)
        current.items.append(DraftInstruction(lineno, code))

    if in_metadata:
        raise ParseError("unterminated .amdgpu_metadata block", file=file, line=len(lines_of(text)))
    if descriptor is not None:
        raise ParseError(f"unterminated .amdhsa_kernel {descriptor.name}", file=file,
                         line=len(lines_of(text)))
    _apply_metadata(metadata_lines, by_name)
    for draft in result.drafts:
        if "vgpr_count" in draft.metadata or draft.descriptor:
            draft.is_kernel = True
    return result


def _flow_list(value: str) -> str:
    """YAML flow sequence ``[ 8, 8, 1 ]`` (llvm-mc accepts it) as the block form's ``8 8 1``."""
    if value.startswith("[") and value.endswith("]"):
        return " ".join(item.strip().strip("'\"") for item in value[1:-1].split(",") if item.strip())
    return value


def _apply_metadata(lines: list[tuple[int, str]], by_name: dict[str, Draft]) -> None:
    """Read the per-kernel scalars of the ``.amdgpu_metadata`` YAML (our own minimal reader)."""
    kernel_indent: int | None = None
    entries: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    list_key: str | None = None
    in_kernels = False
    for _lineno, line in lines:
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        if indent == 0:
            in_kernels = body.startswith("amdhsa.kernels:")
            continue
        if not in_kernels:
            continue
        if body.startswith("- "):
            if kernel_indent is None:
                kernel_indent = indent
            if indent == kernel_indent:
                current = {}
                entries.append(current)
                body = body[2:].strip()
                indent += 2
            elif current is not None and list_key and indent > kernel_indent + 2:
                item = body[2:].strip()
                if re.fullmatch(r"-?\d+", item):
                    current[list_key] = (current.get(list_key, "") + " " + item).strip()
                continue
        if current is None or kernel_indent is None or indent != kernel_indent + 2:
            continue
        key, _, value = body.partition(":")
        key = key.strip().lstrip(".")
        value = _flow_list(value.strip()).strip("'\"")
        list_key = key if not value else None
        if value:
            current[key] = value
    for entry in entries:
        name = entry.get("name")
        symbol = entry.get("symbol", "")
        draft = by_name.get(name or "") or by_name.get(symbol.removesuffix(".kd"))
        if draft is not None:
            draft.metadata.update(entry)
            draft.is_kernel = True


# ------------------------------------------------------------------------------------------ trailers
def read_trailer_listing(text: str, file: str, *, objdump: bool) -> ReadResult:
    """``llvm-objdump -d`` output and driver/RGA listings: ``instr  // ADDR: WORDS``."""
    result = ReadResult([])
    current: Draft | None = None
    default_name = _stem(file)
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
        code, comment = _split_comment(line, ("//", ";"))
        trailer = _TRAILER_RE.search(comment)
        code = code.strip()
        label = _LABEL_RE.match(code)
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
        address = int(trailer.group(1), 16) if trailer else None
        words = _words(trailer.group(2)) if trailer else ()
        current.items.append(DraftInstruction(lineno, code, address, words))
    return result


def _stem(file: str) -> str:
    name = file.replace("\\", "/").rsplit("/", 1)[-1]
    return name.split(".", 1)[0] or "kernel"


# ------------------------------------------------------------------------------------------ ACO
_ACO_REPEAT_RE = re.compile(r"^\s*\(then repeated (\d+) times?\)\s*$")
_ACO_CONSTANT_DATA_RE = re.compile(r"^\s*/\*\s*constant data\s*\*/\s*$")
_ACO_CONSTANT_ROW_RE = re.compile(r"^\s*\[\d+\](?:\s+[0-9a-fA-F]{8})+\s*$")


def read_aco(text: str, file: str) -> ReadResult:
    """Mesa ACO disassembly: ``BB3:`` labels and ``; 8e038303`` encoding trailers.

    ``(then repeated N times)`` (ACO prints a run of identical instructions once) is written out N times;
    the ``/* constant data */`` block ACO appends after the code is skipped with a note.
    """
    result = ReadResult([])
    draft = Draft(_stem(file), 1, is_kernel=True)
    draft.metadata["aco"] = "1"
    result.drafts.append(draft)
    address = 0
    in_constants = False
    for lineno, raw in enumerate(lines_of(text), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#")):
            continue
        if stripped.startswith(";"):
            continue
        repeat = _ACO_REPEAT_RE.match(line)
        if repeat:
            if not draft.items:
                raise ParseError("'(then repeated N times)' before any instruction", file=file, line=lineno,
                                 code="syntax")
            last = draft.items[-1]
            for _ in range(int(repeat.group(1))):
                draft.items.append(DraftInstruction(lineno, last.text, address if last.encoding else None,
                                                    last.encoding))
                address += 4 * len(last.encoding)
            continue
        if _ACO_CONSTANT_DATA_RE.match(line):
            in_constants = True
            result.notes.append((lineno, "ACO's constant data after the code skipped (not code)"))
            continue
        if in_constants and _ACO_CONSTANT_ROW_RE.match(line):
            continue
        code, comment = _split_comment(line, (";",))
        if _TRAILER_RE.search(code):
            raise ParseError("this line ends in a driver/RGA listing's '// ADDRESS: WORDS', not ACO's '; WORDS': "
                             "read it with --dialect listing (or without --dialect)", file=file, line=lineno,
                             code="dialect")
        code = code.strip()
        label = _LABEL_RE.match(code)
        if label:
            draft.add_label(label.group(1), file, lineno)
            code = label.group(2).strip()
            if not code:
                continue
        trailer = _ACO_TRAILER_RE.search(comment) if comment else None
        words = _words(trailer.group(1)) if trailer else ()
        draft.items.append(DraftInstruction(lineno, code, address if words else None, words))
        address += 4 * len(words)
    wave, how = aco_wave_size("\n".join(item.text for item in draft.items))
    draft.metadata["wavefront_size"] = str(wave)
    draft.metadata["wave_size_source"] = how
    return result


_WAVE_HINT_32 = re.compile(r"\b(?:vcc_lo|exec_lo|s_\w+_saveexec_b32)\b")
_WAVE_HINT_64 = re.compile(r"\b(?:s_\w+_saveexec_b64)\b|\bexec\b(?!_)|\bvcc\b(?!_)")
#: Mesa 22.3's RADV compiles every stage as wave64 unless RADV_PERFTEST asks for wave32 or a compute shader
#: requires a subgroup size (``radv_physical_device.c``: cs/ps/ge_wave_size default to 64).
RADV_DEFAULT_WAVE = 64


def aco_wave_size(code: str) -> tuple[int, str]:
    """The wave size of ACO code from its EXEC/VCC forms (``exec_lo``, ``_b32`` saveexec: wave32), else
    RADV's default wave64 (ACO code is RADV's; a listing rarely says), with where it came from."""
    if _WAVE_HINT_32.search(code):
        return 32, "disasm"
    if _WAVE_HINT_64.search(code):
        return 64, "disasm"
    return RADV_DEFAULT_WAVE, "default"


# ------------------------------------------------------------------------------------------ bare
def read_bare(text: str, file: str) -> ReadResult:
    """A pasted list of instructions, with optional ``label:`` prefixes and comments."""
    result = ReadResult([])
    draft = Draft(_stem(file), 1, is_kernel=True)
    result.drafts.append(draft)
    for lineno, raw in enumerate(lines_of(text), start=1):
        code, comment = _split_comment(raw, ("//", ";", "#"))
        trailer = _TRAILER_RE.search(comment)
        code = code.strip()
        while True:
            label = _LABEL_RE.match(code)
            if not label:
                break
            draft.add_label(label.group(1), file, lineno)
            code = label.group(2).strip()
        if not code:
            continue
        address = int(trailer.group(1), 16) if trailer else None
        words = _words(trailer.group(2)) if trailer else ()
        draft.items.append(DraftInstruction(lineno, code, address, words))
    return result


def read(text: str, file: str, dialect: str) -> ReadResult:
    """Dispatch to the reader for ``dialect``."""
    if dialect == "llvm":
        return read_llvm(text, file)
    if dialect == "objdump":
        return read_trailer_listing(text, file, objdump=True)
    if dialect == "listing":
        return read_trailer_listing(text, file, objdump=False)
    if dialect == "aco":
        return read_aco(text, file)
    if dialect == "radv":
        from isalens.isa.amdgcn.radv_dump import read_radv_dump

        return read_radv_dump(text, file)
    if dialect == "bare":
        return read_bare(text, file)
    raise ParseError(f"unknown dialect {dialect!r} (choose from {', '.join(DIALECTS)})", file=file)
