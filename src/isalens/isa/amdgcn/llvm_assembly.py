"""LLVM AMDGPU assembly as printed by ``clang -S`` / ``llc``: functions, their labels and MIR block comments,
``; implicit-def:`` markers, the ``.amdhsa_kernel`` descriptor and the ``.amdgpu_metadata`` YAML."""

from __future__ import annotations

import re

from isalens import _core
from isalens.errors import ParseError
from isalens.isa.amdgcn.drafts import LABEL_RE, Draft, DraftInstruction, ReadResult, split_comment
from isalens.lines import lines_of

_TARGET_RE = re.compile(r"""\.amdgcn_target\s+"([^"]+)\"""")
_BB_COMMENT_RE = re.compile(r"^\s*;\s*%bb\.(\d+):")
_LBB_RE = re.compile(r"^\.LBB(\d+)_(\d+)$")
#: a line that is a local label alone (``.LBB0_7:``, perhaps with a ``;`` comment): most lines of a kernel that
#: are not instructions (the dense 100k benchmark: 10,488 of 11,449), read without :meth:`_LlvmReader._line`
_LOCAL_LABEL_LINE_RE = re.compile(r"(\.L[\w.$]*):[ \t]*(?:;.*)?")
_IMPLICIT_DEF_RE = re.compile(r"^\s*;\s*implicit-def:\s*(.+)$")
_KEY_VALUE_COMMENT = re.compile(r"^\s*;\s*([A-Za-z][\w ]*?)\s*[:=]\s*(.+?)\s*$")
_SECTIONS = (".text", ".section", ".data", ".bss", ".rodata")


def read_llvm(text: str, file: str) -> ReadResult:
    """LLVM AMDGPU assembly as printed by ``clang -S`` / ``llc``."""
    return _LlvmReader(file).read(text)


class _LlvmReader:
    """One pass over the lines: where it is (section, function, descriptor, metadata) and what it found."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.result = ReadResult([])
        self.by_name: dict[str, Draft] = {}
        self.current: Draft | None = None
        self.last_function: Draft | None = None
        self.section = ".text"
        self.descriptor: Draft | None = None
        self.in_metadata = False
        self.metadata_lines: list[tuple[int, str]] = []

    def read(self, text: str) -> ReadResult:
        lines = lines_of(text)
        n = len(lines)
        k = 0
        while k < n:
            current = self.current
            if current is not None and self.section == ".text":
                # the instruction lines that follow inside a function (the bulk of any listing), read by the
                # running core (isalens._core.instruction_lines): tab, lower-case letter, code before ";"
                k = _core.instruction_lines(lines, k, ";", DraftInstruction, current.items)
                if k == n:
                    break
                raw = lines[k]
                # a block's label: what _line does with it (not in metadata or a descriptor, no target directive)
                if raw[:2] == ".L" and not self.in_metadata and self.descriptor is None:
                    local = _LOCAL_LABEL_LINE_RE.fullmatch(raw)
                    if local is not None and ".amdgcn_target" not in raw and not raw.startswith(".Lfunc_end"):
                        name = local.group(1)
                        current.add_label(name, self.file, k + 1)
                        lbb = _LBB_RE.match(name)
                        if lbb:
                            current.blocks.setdefault(int(lbb.group(2)), len(current.items))
                        k += 1
                        continue
            self._line(k + 1, lines[k])
            k += 1
        if self.in_metadata:
            raise ParseError("unterminated .amdgpu_metadata block", file=self.file, line=len(lines))
        if self.descriptor is not None:
            raise ParseError(f"unterminated .amdhsa_kernel {self.descriptor.name}", file=self.file,
                             line=len(lines))
        _apply_metadata(self.metadata_lines, self.by_name)
        for draft in self.result.drafts:
            if "vgpr_count" in draft.metadata or draft.descriptor:
                draft.is_kernel = True
        return self.result

    def _line(self, lineno: int, raw: str) -> None:
        line = raw.rstrip()
        stripped = line.strip()
        if self.in_metadata:
            if stripped.startswith(".end_amdgpu_metadata"):
                self.in_metadata = False
            else:
                self.metadata_lines.append((lineno, line))
            return
        if not stripped:
            return
        if self.descriptor is not None:
            self._descriptor_line(self.descriptor, stripped)
            return
        if stripped.startswith((".loc\t", ".loc ")):
            return  # source lines, read by isa/amdgcn/debuginfo.py (a -g kernel has one per few instructions)
        target = _TARGET_RE.search(stripped)
        if target:
            self.result.arch = target.group(1)
        elif stripped.startswith(";"):
            self._comment(lineno, stripped)
        elif not self._directive(lineno, stripped):
            self._code(lineno, split_comment(line, (";",))[0].strip())

    def _descriptor_line(self, descriptor: Draft, stripped: str) -> None:
        if stripped.startswith(".end_amdhsa_kernel"):
            self.descriptor = None
        elif stripped.startswith(".amdhsa_"):
            key, _, value = stripped.partition(" ")
            descriptor.descriptor[key[len(".amdhsa_"):]] = value.strip()

    def _comment(self, lineno: int, stripped: str) -> None:
        """MIR block starts and ``implicit-def`` markers in code; ``; Key: value`` facts after a function."""
        current = self.current
        if current is not None and self.section == ".text":
            bb = _BB_COMMENT_RE.match(stripped)
            if bb:
                current.drop_empty_block_markers()
                current.blocks.setdefault(int(bb.group(1)), len(current.items))
                return
            imp = _IMPLICIT_DEF_RE.match(stripped)
            if imp:
                at = len(current.items)
                after_label = at in current.labels.values() or at in current.blocks.values()
                current.implicit_defs.append((at, imp.group(1).strip(), lineno, after_label))
        elif self.last_function is not None and self.section != ".text":
            kv = _KEY_VALUE_COMMENT.match(stripped)
            if kv:
                self.last_function.comments.setdefault(kv.group(1).strip(), kv.group(2).strip())

    def _directive(self, lineno: int, stripped: str) -> bool:
        """Read a metadata, descriptor or section directive; False when the line is none of them."""
        if stripped.startswith(".amdgpu_metadata"):
            self.in_metadata = True
        elif stripped.startswith(".amdhsa_kernel"):
            name = stripped.split(None, 1)[1].strip() if " " in stripped else ""
            descriptor = self.descriptor = self.by_name.get(name) or Draft(name, lineno)
            self.by_name.setdefault(name, descriptor)
            descriptor.is_kernel = True
        elif stripped.startswith(_SECTIONS):
            if stripped.startswith(".text") or re.match(r"\.section\s+\.text", stripped):
                self.section = ".text"
            else:
                self.section = stripped.split()[1].rstrip(",") if len(stripped.split()) > 1 else stripped
        else:
            return False
        return True

    def _code(self, lineno: int, code: str) -> None:
        """A line of code without its comment: labels, then an instruction or a directive."""
        if not code:
            return
        label = LABEL_RE.match(code)
        if label:
            code = self._label(lineno, label.group(1), label.group(2).strip())
            if not code:
                return
        if code.startswith(".") or self.section != ".text":
            return  # directive inside a function (.p2align, .loc ...), or data
        if self.current is None:
            raise ParseError("instruction outside any function (no label before it)", file=self.file, line=lineno)
        self.current.items.append(DraftInstruction(lineno, code))

    def _label(self, lineno: int, name: str, rest: str) -> str:
        """Read the label ``name``: a function's end, a local label or a function's start; the code after it
        on the line ("" when nothing of the line is left to read)."""
        if self.section != ".text":
            return ""
        current = self.current
        if name.startswith(".Lfunc_end"):
            if current is not None:
                current.ended = True
                self.current = None
            return ""
        if name.startswith((".L", "$")):
            if current is not None:
                current.add_label(name, self.file, lineno)
                lbb = _LBB_RE.match(name)
                if lbb:
                    current.blocks.setdefault(int(lbb.group(2)), len(current.items))
            return rest
        if current is not None:
            current.ended = True
        draft = self.by_name.get(name) or Draft(name, lineno)
        draft.start_line = lineno
        draft.ended = False
        self.by_name[name] = draft
        self.result.drafts.append(draft)
        self.current = self.last_function = draft
        return rest


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

