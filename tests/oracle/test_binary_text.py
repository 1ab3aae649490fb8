"""One code object, two ways in (issue 26, "one door"): read as a binary, and as its ``llvm-objdump -d`` text, every
function of every corpus program gives the same ``analyze --json`` document, apart from the file name and what only
the code object's descriptor and metadata can say (:data:`FROM_METADATA`).

The code objects are the corpus's ``clang -S`` output (built with the corpus flags) assembled and linked by clang-19
and ld.lld-19. The register figures of both sides are also checked against the compiler's own (``; NumSgprs``,
``; NumVgprs``/``; TotalNumVgprs`` of the same assembly). A subset runs by default; ``ISALENS_ORACLE_FULL=1``
runs every program.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from isalens.engine import analyze
from tests.conftest import require_tool
from tests.oracle.corpus import CorpusEntry

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

#: kernel keys only a code object's descriptor and metadata give, or that follow from them: the declared figures,
#: the workgroup size and LDS (occupancy, and timing and advice, which use it) and the registers the hardware
#: initialises at entry (without them every register read before a write is live from the entry, EXEC too)
FROM_METADATA = frozenset({
    "declared_raw", "occupancy", "timing", "advice", "advice_refused", "entry_live_in", "lines", "blocks",
    "peak_live_set", "longest_lived", "unexpected_live_in", "unexpected_live_in_lines", "lds_accesses",
    "lds_totals", "declared", "peak_indices", "peak_lines", "peak_live",
})

_FIGURE = re.compile(r"^; (NumSgprs|NumVgprs|TotalNumVgprs): (\d+)$")
_FUNCTION = re.compile(r"^([A-Za-z_][\w.$]*):")


def _chosen(corpus: list[CorpusEntry]) -> list[CorpusEntry]:
    if os.environ.get("ISALENS_ORACLE_FULL"):
        return corpus
    # every call shape (calls.cl on each target), every program built with extra flags (wave64 on gfx10+: the
    # disassembler must be told) and a spread of the rest
    return [e for i, e in enumerate(corpus) if e.source.name == "calls.cl" or e.flags or i % 12 == 0]


def _code_object(entry: CorpusEntry, out: Path) -> tuple[Path, Path]:
    """The entry's assembly assembled and linked into a code object, and that object's disassembly."""
    clang, objdump = require_tool("clang-19"), require_tool("llvm-objdump-19")
    require_tool("ld.lld-19")
    code = out / f"{entry.clang_asm.parent.name}.co"
    features = [f for f in entry.flags if f.startswith("-m")]  # -mwavefrontsize64; -cl-std is the source's
    subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", f"-mcpu={entry.target}", *features,
                    str(entry.clang_asm), "-o", str(code)], check=True)
    text = code.with_suffix(".txt")
    wave64 = ["--mattr=+wavefrontsize64"] if "-mwavefrontsize64" in entry.flags else []  # the same flag
    text.write_text(subprocess.run([objdump, "-d", f"--mcpu={entry.target}", *wave64, str(code)], check=True,
                                   capture_output=True, text=True).stdout)
    return code, text


def _llvm_figures(asm: str) -> dict[str, dict[str, int]]:
    """Per function of ``clang -S`` output: the resource comments LLVM prints after it."""
    out: dict[str, dict[str, int]] = {}
    name = ""
    for line in asm.splitlines():
        if (m := _FUNCTION.match(line)) and not m.group(1).startswith("."):
            name = m.group(1)
        elif (m := _FIGURE.match(line)) and name:
            out.setdefault(name, {})[m.group(1)] = int(m.group(2))
    return out


def _without(doc: Any, keys: frozenset[str]) -> Any:
    if isinstance(doc, dict):
        return {k: _without(v, keys) for k, v in doc.items() if k not in keys}
    if isinstance(doc, list):
        return [_without(v, keys) for v in doc]
    return doc


def _by_name(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    (entry,) = doc["files"]
    assert "error" not in entry, entry.get("error")
    return {k["name"]: k for k in entry["kernels"]}


def test_binary_and_its_disassembly_give_the_same_document(corpus: list[CorpusEntry], tmp_path: Path) -> None:
    checked = kernels = 0
    for entry in _chosen(corpus):
        code, text = _code_object(entry, tmp_path)
        wave = 64 if "-mwavefrontsize64" in entry.flags else None  # what the flag says, given to the text side
        binary = _by_name(analyze(code).to_dict())
        listing = _by_name(analyze(text, arch=entry.target, wave=wave).to_dict())
        where = entry.clang_asm.parent.name
        assert sorted(binary) == sorted(listing), where
        llvm = _llvm_figures(entry.clang_asm.read_text())
        for name, ours in binary.items():
            theirs = listing[name]
            assert theirs["is_kernel"] == ours["is_kernel"], (where, name)
            # a function has no descriptor either way: all of it compares; a kernel, what its code determines
            keys = FROM_METADATA if ours["is_kernel"] else frozenset()
            assert _without(theirs, keys) == _without(ours, keys), (where, name)
            for doc in (ours, theirs):  # the compiler's own figures (oracle)
                assert doc["sgpr"]["requested"] == llvm[name]["NumSgprs"], (where, name)
                vgprs = llvm[name].get("TotalNumVgprs", llvm[name]["NumVgprs"])  # with AGPRs where there are any
                assert doc["vgpr"]["total_with_agprs"] == vgprs, (where, name)
            checked += 1
            kernels += ours["is_kernel"]
    assert checked > kernels > 0  # functions and kernels both compared (calls.cl has callees)
