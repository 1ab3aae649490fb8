"""AMDGPU assembly syntax shared by every dialect: split an instruction into mnemonic, operands and
modifiers, and read register and constant operands.

The spelling follows LLVM's AMDGPU assembler (also used by Mesa ACO and AMD's driver listings):
``v5``, ``v[4:7]``, ``s[0:1]``, ``a3``, ``acc3``, ``vcc``, ``exec_lo``, ``ttmp[4:5]``, ``-|v2|``,
``neg(v2)``, true16 halves ``v5.l``/``v5.h``, NSA address lists ``[v4, v9, v2]``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from isalens.ir.operands import ImmOperand, Operand, OtherOperand, RegOperand
from isalens.ir.registers import (
    HALF_BOTH,
    HALF_HI,
    HALF_LO,
    MAX_AGPRS,
    MAX_SGPRS,
    MAX_VGPRS,
    SPECIAL_NAMES,
    Reg,
    RegFile,
    special,
    special_pair,
)
from isalens.records import dataclass


class SyntaxProblem(ValueError):
    """Operand text that is not valid AMDGPU syntax (the parser adds file and line)."""


@dataclass(frozen=True, slots=True)
class RawInstruction:
    """An instruction split into its parts, before semantics."""

    mnemonic: str
    operands: tuple[Operand, ...]
    modifiers: tuple[str, ...]


# Flags and key:value modifiers that may follow the operands. Anything of the form ``name:value`` is
# also a modifier; these bare words are the ones without a colon.
_FLAG_MODIFIERS = frozenset((
    "glc", "slc", "dlc", "scc", "nt", "sc0", "sc1", "nv", "scale_offset", "lds", "gds", "offen", "idxen", "addr64",
    "tfe",
    "lwe", "da", "r128", "a16", "d16", "unorm", "clamp", "done", "vm", "compr", "row_en", "off_row", "high",
    "neg_lo", "neg_hi", "row_mirror", "row_half_mirror",
))

#: flags spelled like a register (the MIMG ``a16`` flag, AGPR ``a16``): an operand where an operand stands
#: (right after the mnemonic or a comma: ``v_accvgpr_read_b32 v13, a16``), a flag after the last operand
_REGISTER_SPELLED = frozenset(("a16",))

_REG_RE = re.compile(
    r"""^(?P<file>v|s|a|acc|ttmp)
        (?:(?P<idx>\d+)|\[(?P<lo>\d+)(?::(?P<hi>\d+))?\])
        (?P<half>\.[lh])?$""",
    re.VERBOSE,
)

_SPECIAL_PAIRS = ("vcc", "exec", "flat_scratch", "xnack_mask")
#: operand names that read nothing we track (inline sources, null, off)
_NON_REGISTERS = frozenset((
    "off", "null", "sgpr_null", "src_scc", "src_vccz", "src_execz", "src_lds_direct", "lds_direct",
    "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit", "src_pops_exiting_wave_id",
    "shared_base", "shared_limit", "private_base", "private_limit", "pops_exiting_wave_id",
))
_IMPLICIT_READERS = {"vccz": "vcc", "execz": "exec", "src_vccz": "vcc", "src_execz": "exec", "src_scc": "scc"}

# a bracket holding a comma or space (an address list): "[" is excluded inside so that each character is
# scanned from one "[" only (a line of 30,000 "[" took 40 s with the plain "[^\]]*")
_BRACKET_LIST = re.compile(r"\[[^\][, ]*[, ]")
#: what a symbol, expression or named operand (``.LBB0_1``, ``lgkmcnt(0)``, ``hwreg(HW_REG_MODE, 0, 4)``,
#: ``k@rel32@lo+4``) may contain; brackets, braces, quotes or non-ASCII never belong there
_OTHER_OPERAND = re.compile(r"^[\w.$@+\-*/()&|^~<>!%:, ]+$", re.ASCII)
_INT_RE = re.compile(r"^-?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)$")
#: the most registers each file's encoding can name: a larger index is a typo, never a bigger GPU (and is
#: rejected before any bitset is built, so ``v[0:9999999999]`` costs nothing)
_FILE_LIMITS = {"v": MAX_VGPRS, "a": MAX_AGPRS, "acc": MAX_AGPRS, "s": MAX_SGPRS}
#: an operand that spells arithmetic on a register name (``v-1``): llvm-mc reads it as an expression of a
#: symbol called ``v``, never as a register
_REGISTER_EXPRESSION = re.compile(r"^(?:v|s|a|acc|ttmp)\s*[-+*/%&|^<>!~]")
#: a literal wider than 64 bits cannot be encoded (llvm-mc: "invalid immediate")
_MAX_LITERAL_BITS = 64
_FLOAT_RE = re.compile(r"^-?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|inf|nan)$")
#: float inline constants (0.5, 1.0, 2.0, 4.0 and negatives) and 1/(2*pi)
_INLINE_FLOATS = frozenset({0.0, 0.5, 1.0, 2.0, 4.0, -0.5, -1.0, -2.0, -4.0})


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split at ``sep`` outside brackets and parentheses."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def split_words(text: str) -> list[str]:
    """Split at whitespace outside brackets and parentheses (``op_sel:[1, 0]`` stays whole)."""
    words: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch.isspace() and depth == 0:
            if cur:
                words.append("".join(cur))
                cur = []
            continue
        cur.append(ch)
    if cur:
        words.append("".join(cur))
    return words


@lru_cache(maxsize=65536)
def is_modifier(word: str) -> bool:
    """True for ``offset:16``, ``op_sel:[1,0]``, ``glc``: a modifier, not an operand."""
    if word in _FLAG_MODIFIERS:
        return True
    if ":" in word and not word.startswith("["):
        head = word.split(":", 1)[0]
        return bool(re.fullmatch(r"[a-z_][a-z0-9_]*", head))
    return False


def parse_register(text: str) -> Reg | None:
    """A register run from its spelling, or None if ``text`` is not a tracked register."""
    t = text.strip().lower()
    m = _REG_RE.match(t)
    if m:
        prefix = m.group("file")
        first = m.group("idx") if m.group("idx") is not None else m.group("lo")
        last = m.group("hi") if m.group("hi") is not None else first
        limit = _FILE_LIMITS.get(prefix, 16)
        # compare digit counts first: int() of a 5,000-digit index is itself an error in Python
        if len(last.lstrip("0")) > 4 or len(first.lstrip("0")) > 4 or int(last) >= limit:
            name = "ttmp" if prefix == "ttmp" else prefix[0]
            raise SyntaxProblem(f"register {t} is out of range ({name}0-{name}{limit - 1})")
        lo, hi = int(first), int(last)
        if hi < lo:
            raise SyntaxProblem(f"register range {t} ends before it starts")
        halves = HALF_BOTH
        if m.group("half"):
            halves = HALF_LO if m.group("half") == ".l" else HALF_HI
        if prefix == "ttmp":
            if hi >= 16:
                raise SyntaxProblem(f"trap temporary {text!r} out of range (ttmp0-ttmp15)")
            return Reg(RegFile.SPECIAL, SPECIAL_NAMES.index(f"ttmp{lo}"), hi - lo + 1)
        file = {"v": RegFile.VGPR, "s": RegFile.SGPR, "a": RegFile.AGPR, "acc": RegFile.AGPR}[prefix]
        return Reg(file, lo, hi - lo + 1, halves)
    if t in _SPECIAL_PAIRS:
        return special_pair(t)
    if t in SPECIAL_NAMES:
        return special(t)
    return None


def _strip_source_modifiers(text: str) -> tuple[str, bool, bool]:
    """Remove ``-``, ``|..|``, ``abs()``, ``neg()``, ``sext()``: returns (core, neg, abs)."""
    neg = absval = False
    t = text.strip()
    changed = True
    while changed:
        changed = False
        if t.startswith("-") and not _INT_RE.match(t) and not _FLOAT_RE.match(t):
            neg, t, changed = True, t[1:].strip(), True
        if len(t) >= 2 and t[0] == "|" and t[-1] == "|":
            absval, t, changed = True, t[1:-1].strip(), True
        for fn in ("abs", "neg", "sext"):
            if t.startswith(fn + "(") and t.endswith(")"):
                t, changed = t[len(fn) + 1 : -1].strip(), True
                absval = absval or fn == "abs"
                neg = neg or fn == "neg"
    return t, neg, absval


def parse_immediate(text: str) -> ImmOperand | None:
    """An integer or float constant, with whether it needs a literal dword (not inline)."""
    t = text.strip()
    if _INT_RE.match(t):
        value = _integer(t.lstrip("-"))
        if value.bit_length() > _MAX_LITERAL_BITS:
            raise SyntaxProblem(f"integer constant {t[:40]!r} does not fit in 64 bits")
        value = -value if t.startswith("-") else value
        # inline integers are -16..64; anything else is a 32-bit literal
        return ImmOperand(t, value, not -16 <= value <= 64)
    if _FLOAT_RE.match(t):
        fv = float(t)
        return ImmOperand(t, fv, fv not in _INLINE_FLOATS)
    if t in ("0.15915494", "0.15915494309189535", "1/(2*pi)"):
        return ImmOperand(t, 0.15915494309189535, False)
    return None


def _integer(digits: str) -> int:
    """An unsigned integer as LLVM's assembler lexes it: ``0x`` hex, ``0b`` binary, a leading ``0`` octal."""
    if len(digits) > 80:  # wider than any 64-bit spelling (binary included)
        raise SyntaxProblem(f"integer constant {digits[:40]!r}... does not fit in 64 bits")
    low = digits.lower()
    if low.startswith("0x"):
        return int(low[2:], 16)
    if low.startswith("0b"):
        return int(low[2:], 2)
    if len(digits) > 1 and digits[0] == "0":
        # LLVM's AsmLexer reads ``010`` as octal 8 and rejects ``09`` (checked with llvm-mc-19)
        if not re.fullmatch(r"[0-7]+", digits):
            raise SyntaxProblem(f"invalid octal constant {digits!r} (a leading 0 means octal, as in llvm-mc)")
        return int(digits, 8)
    return int(digits)


@lru_cache(maxsize=65536)
def parse_operand(text: str) -> Operand:
    """One operand: register(s), constant, label or other."""
    core, neg, absval = _strip_source_modifiers(text)
    low = core.lower()
    if core.startswith("(") and core.endswith(")"):
        inner = core.strip("()").strip()
        if _REG_RE.match(inner.lower()) or inner.lower() in _SPECIAL_PAIRS or inner.lower() in SPECIAL_NAMES:
            raise SyntaxProblem(f"register in parentheses {text!r}: llvm-mc reads it as an expression of a symbol "
                                f"named {inner!r}, not as a register")
    if _REGISTER_EXPRESSION.match(low):
        raise SyntaxProblem(f"malformed register {text!r} (llvm-mc reads it as arithmetic on a symbol, "
                            "not as a register)")
    if core.startswith("[") and core.endswith("]") and "," in core:
        regs: list[Reg] = []
        for part in split_top_level(core[1:-1]):
            reg = parse_register(part)
            if reg is None:
                raise SyntaxProblem(f"expected a register in address list {text!r}, got {part!r}")
            regs.append(reg)
        return RegOperand.of(tuple(regs), text, neg, absval)
    reg = parse_register(core)
    if reg is not None:
        return RegOperand.of((reg,), text, neg, absval)
    if low in _IMPLICIT_READERS:
        name = _IMPLICIT_READERS[low]
        implicit = special_pair(name) if name != "scc" else special(name)
        return RegOperand.of((implicit,), text, neg, absval)
    if low in _NON_REGISTERS:
        return OtherOperand(text)
    imm = parse_immediate(core)
    if imm is not None:
        if neg and isinstance(imm.value, int | float):
            return ImmOperand(text, -imm.value, imm.literal)
        return imm
    if re.match(r"^[vsa]\d", low) or re.match(r"^(?:v|s|a|acc|ttmp)\[", low):
        raise SyntaxProblem(f"malformed register {text!r}")
    if not _OTHER_OPERAND.match(core):
        raise SyntaxProblem(f"cannot read operand {text[:60]!r}")
    return OtherOperand(text)


#: a word that is only an operator (``+``, ``<<``, ``|`` in ``s_delay_alu``, ``&`` in ``s_waitcnt``)
_OPERATOR_WORD = re.compile(r"^[-+*/%&|^~!<>=]+$")
#: a word that ends in a binary operator continues into the next word (``1 +`` ``2``); a trailing ``|`` closes
#: an absolute value (``-|v1|``) and does not count
_OPEN_TAIL = re.compile(r"[-+*/%&^<>=]$")
#: a word that starts with a binary operator continues the previous word (``1`` ``+2``); a leading ``-``, ``|``,
#: ``~`` or ``!`` starts an operand of its own (a negated or absolute source)
_OPEN_HEAD = re.compile(r"^(?:[+*/%&^=]|<<|>>|<=|>=|!=)")
#: the fields of one ``s_waitcnt``/``s_waitcnt_depctr``/``s_delay_alu`` operand: llvm-mc reads
#: ``vmcnt(0) lgkmcnt(0)``, ``vmcnt(0) & lgkmcnt(0)`` and ``instid0(VALU_DEP_1) | instskip(NEXT)`` as one operand,
#: so their words are joined into one operand text here
_COUNTER_FIELD = re.compile(r"^(?:(?:vm|exp|lgkm)cnt(?:_sat)?|depctr_\w+|instid[01]|instskip)\(", re.IGNORECASE)
#: the fields llvm-mc also reads across a comma (``vmcnt(0), lgkmcnt(0)`` is one operand; ``s_delay_alu``'s are
#: not: checked with llvm-mc-19)
_COMMA_COUNTER_FIELD = re.compile(r"^(?:(?:vm|exp|lgkm)cnt(?:_sat)?|depctr_\w+)\(", re.IGNORECASE)


def _continues(prev: str, word: str) -> bool:
    """Whether ``word`` belongs to the same operand as the operand word before it (no comma between)."""
    if _OPERATOR_WORD.match(word) or _OPERATOR_WORD.match(prev):
        return True
    if _OPEN_TAIL.search(prev) or _OPEN_HEAD.match(word):
        return True
    return bool(_COUNTER_FIELD.match(word)) and bool(_COUNTER_FIELD.match(prev))


def _add_words(words: list[str], operands: list[str], modifiers: list[str], after_comma: bool) -> None:
    """Sort one comma-separated chunk's words into operands and modifiers; words of one operand are joined."""
    joined: list[str] = []  # the words of the operand being built, then flushed into ``operands``
    for k, word in enumerate(words):
        if is_modifier(word) and not (k == 0 and word in _REGISTER_SPELLED):
            modifiers.append(word)
            continue
        if joined and _continues(joined[-1], word):
            joined.append(word)
            continue
        if not joined and k == 0 and after_comma and operands and _COMMA_COUNTER_FIELD.match(word) \
                and _COMMA_COUNTER_FIELD.match(operands[-1].rsplit(None, 1)[-1]):
            joined = operands.pop().split(" ")  # ``vmcnt(0), lgkmcnt(0)``: one operand
            joined.append(word)
            continue
        if joined:
            operands.append(" ".join(joined))
        joined = [word]
    if joined:
        operands.append(" ".join(joined))


def split_instruction(text: str) -> tuple[str, list[str], list[str]]:
    """Split ``mnemonic op, op, op mod mod`` into (mnemonic, operand texts, modifier texts).

    Operands are separated by commas or, as llvm-mc allows, by spaces (``exp mrt0 v0, ...``); the words of one
    operand (an expression ``1 + 2``, the counters of an ``s_waitcnt``) are joined with single spaces.
    """
    body = text.strip()
    if not body:
        return "", [], []
    parts = body.split(None, 1)
    mnemonic = parts[0].lower()
    rest = parts[1] if len(parts) > 1 else ""
    if not rest:
        return mnemonic, [], []
    operands: list[str] = []
    modifiers: list[str] = []
    if "(" not in rest and not _BRACKET_LIST.search(rest):
        # fast path: no parenthesised or bracketed lists, so commas and spaces split everything
        chunks = [chunk.split() for chunk in rest.split(",")]
    else:
        chunks = [split_words(chunk) for chunk in split_top_level(rest)]
    for index, words in enumerate(chunks):
        if not words:
            raise SyntaxProblem(f"empty operand in {text.strip()!r}")
        if len(words) == 1 and "(" not in words[0]:  # most chunks: one plain operand or modifier (fast)
            word = words[0]
            if is_modifier(word) and word not in _REGISTER_SPELLED:
                modifiers.append(word)
            else:
                operands.append(word)
            continue
        _add_words(words, operands, modifiers, after_comma=index > 0)
    return mnemonic, operands, modifiers


def parse_instruction_text(text: str) -> RawInstruction:
    """Parse one instruction's text (no label, no comment)."""
    mnemonic, operand_texts, modifiers = split_instruction(text)
    operands = tuple(parse_operand(op) for op in operand_texts)
    return RawInstruction(mnemonic, operands, tuple(modifiers))


_MIR_PART = re.compile(r"^(vgpr|agpr|sgpr|ttmp)(\d+)(?:_(lo16|hi16))?$")
_MIR_SPECIAL = {
    "vcc": "vcc", "vcc_lo": "vcc_lo", "vcc_hi": "vcc_hi", "exec": "exec", "exec_lo": "exec_lo",
    "exec_hi": "exec_hi", "scc": "scc", "m0": "m0", "flat_scr": "flat_scratch",
    "flat_scr_lo": "flat_scratch_lo", "flat_scr_hi": "flat_scratch_hi", "xnack_mask": "xnack_mask",
}


def parse_mir_register(name: str) -> list[Reg] | None:
    """LLVM MIR physical register spelling (``$vgpr4_vgpr5``, ``$sgpr0``, ``$vcc``) -> registers."""
    t = name.strip().lstrip("$").lower()
    if t in _MIR_SPECIAL:
        reg = parse_register(_MIR_SPECIAL[t])
        return [reg] if reg else None
    out: list[Reg] = []
    for part in re.split(r"_(?=(?:vgpr|agpr|sgpr|ttmp)\d)", t):
        m = _MIR_PART.match(part)
        if not m:
            return None
        file = {"vgpr": RegFile.VGPR, "agpr": RegFile.AGPR, "sgpr": RegFile.SGPR}.get(m.group(1))
        idx = int(m.group(2))
        if file is None:
            out.append(Reg(RegFile.SPECIAL, SPECIAL_NAMES.index(f"ttmp{idx}")))
            continue
        halves = {"lo16": HALF_LO, "hi16": HALF_HI}.get(m.group(3) or "", HALF_BOTH)
        out.append(Reg(file, idx, 1, halves))
    return out
