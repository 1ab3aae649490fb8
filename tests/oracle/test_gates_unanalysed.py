"""Gates that fail safe (issue 28 item 5): `diff` and `check` treat a kernel that could not be analysed as a
failure unless --allow-unanalysed, and every message names the file, the target and the kernel. The damaged
inputs are a HIP build (clang++-19) with bytes changed in place inside its offload bundle: one kernel's first
instruction words (0xffffffff, which llvm-objdump-19 prints as `.long`), or one code object's metadata note."""

from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path

import pytest

from isalens.cli import main
from tests.elf_edit import find
from tests.oracle.hipbuild import build

pytest.importorskip("elftools")
pytest.importorskip("duckdb")
pytestmark = pytest.mark.oracle

from elftools.elf.elffile import ELFFile  # noqa: E402

GFX90A, GFX1100 = "hipv4-amdgcn-amd-amdhsa--gfx90a", "hipv4-amdgcn-amd-amdhsa--gfx1100"


def entries(bundle: bytes) -> dict[str, tuple[int, int]]:
    """Offset and size of every entry of a plain offload bundle (magic, u64 count, then per entry u64 offset,
    u64 size, u64 triple length and the triple: clang-offload-bundler's layout)."""
    count = struct.unpack_from("<Q", bundle, 24)[0]
    at, out = 32, {}
    for _ in range(count):
        offset, size, length = struct.unpack_from("<QQQ", bundle, at)
        out[bundle[at + 24:at + 24 + length].decode()] = (offset, size)
        at += 24 + length
    return out


def damaged_kernel(bundle: bytes, triple: str, kernel: str) -> bytes:
    """``bundle`` with the first two instruction words of ``kernel`` in entry ``triple`` set to 0xffffffff."""
    offset, size = entries(bundle)[triple]
    elf = ELFFile(io.BytesIO(bundle[offset:offset + size]))
    text = elf.get_section_by_name(".text")
    symtab = elf.get_section_by_name(".symtab")
    symbol = next(s for s in symtab.iter_symbols() if s.name == kernel)
    at = offset + text["sh_offset"] + symbol["st_value"] - text["sh_addr"]
    return bundle[:at] + b"\xff" * 8 + bundle[at + 8:]


def damaged_metadata(bundle: bytes, triple: str) -> bytes:
    """``bundle`` with entry ``triple``'s note section filled with 0xc1, a byte MessagePack never uses."""
    offset, size = entries(bundle)[triple]
    note = find(bundle[offset:offset + size], ".note")
    assert note is not None
    # keep the note header (namesz, descsz, type, "AMDGPU\0\0"), spoil the MessagePack after it
    start, end = offset + note.offset + 20, offset + note.offset + note.size
    return bundle[:start] + b"\xc1" * (end - start) + bundle[end:]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gates")
    good = build(root / "good.hipfb", "--cuda-device-only")
    plain = good.read_bytes()
    (root / "bad").mkdir()
    bad = root / "bad" / "kernels.hipfb"
    bad.write_bytes(damaged_metadata(damaged_kernel(plain, GFX90A, "heavy"), GFX1100))
    return {"good": good, "bad": bad}


def test_diff_fails_on_unanalysed_kernels(builds: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = str(builds["good"]), str(builds["bad"])
    # no --fail-on rule and nothing that could be compared changed: still exit 1, naming what was not analysed
    assert main(["diff", good, bad]) == 1
    out = capsys.readouterr().out
    fails = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 2, out
    heavy = next(line for line in fails if "kernel heavy" in line)
    # the line of the disassembly the damaged words are on (error_line), the one livereg names for them
    assert main(["livereg", bad, "--target", "gfx90a", "--summary"]) == 2
    said = re.search(r"\]:(\d+): error: cannot read '\.long 0xffffffff'", capsys.readouterr().err)
    assert said, "livereg no longer names the damaged words' line"
    assert f"new: {bad} (bundle 0 entry {GFX90A}):{said[1]}, target gfx90a" in heavy
    assert "--allow-unanalysed" in heavy
    whole = next(line for line in fails if "gfx1100" in line)
    assert f"new: {bad} (bundle 0 entry {GFX1100}), target gfx1100, every kernel" in whole
    assert main(["diff", good, bad, "--allow-unanalysed", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["failures"] == []
    assert sorted((e["side"], e["target"], e["kernel"]) for e in doc["errors"]) == [
        ("new", "gfx1100", None), ("new", "gfx90a", "heavy")]
    # either side counts: the base unanalysed hides what changed as much as the new
    assert main(["diff", bad, good, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert {(f["rule"], f["side"]) for f in doc["failures"]} == {("unanalysed", "base")}
    # two sound builds still pass
    assert main(["diff", good, good]) == 0


def test_check_fails_on_unanalysed_kernels(builds: dict[str, Path], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    budget = tmp_path / "isalens.toml"
    budget.write_text("[defaults]\nspills = 0\n")
    bad = str(builds["bad"])
    assert main(["check", bad, "--budget", str(budget)]) == 1
    out = capsys.readouterr().out
    assert re.search(rf"FAIL  {re.escape(bad)} \(bundle 0 entry {GFX90A}\):\d+, target gfx90a, kernel heavy: "
                     "could not be analysed", out)
    assert f"FAIL  {bad} (bundle 0 entry {GFX1100}), target gfx1100, every kernel" in out
    # the gfx90a code object's two other kernels (axpy, _Z3ldsPf) were checked
    assert "2 kernel(s) checked, 2 not analysed, 2 budget(s) broken" in out
    assert main(["check", bad, "--budget", str(budget), "--allow-unanalysed"]) == 0
    out = capsys.readouterr().out
    assert "not analysed (allowed)" in out and "0 budget(s) broken" in out
    assert main(["check", str(builds["good"]), "--budget", str(budget)]) == 0
