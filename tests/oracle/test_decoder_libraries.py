"""Our decoder against llvm-objdump-19 on Debian's ROCm libraries (issue 28, "Accepted when" bullet 2): every
instruction of every code object of librocrand1 (7 code objects, 6 targets) and of a fixed sample of
librocsparse0 5.3 (code objects 0 and 60 of each of its 7 bundle targets, 14 of 777; gfx1030's 60th holds
the `ds_swizzle_b32` offsets that fell back before) decoded as the binary
path decodes it (``tools/decoder_sweep.py``) has llvm-objdump-19's text at the same address, except the
documented encodings LLVM rejects and the hardware executes (counted and printed). The whole of librocsparse is
a recorded measurement (docs/decoder.md), not a test: it takes most of an hour. Downloads the packages once into
.cache/debs (skipped cleanly offline).
"""

from __future__ import annotations

import pytest

from tests.conftest import load_tool, require_tool
from tests.oracle.debian import debian_library

pytest.importorskip("elftools")
pytestmark = pytest.mark.oracle

#: the processors of each library's code objects (bundle entries; gfx90a twice, xnack+ and xnack-)
TARGETS = {
    "librocrand1": {"gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030"},
    "librocsparse0": {"gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030"},
}


@pytest.mark.parametrize(("package", "every", "first"), [("librocrand1", 1, 0), ("librocsparse0", 60, 2)])
def test_library_text_equals_objdump(package: str, every: int, first: int, monkeypatch: pytest.MonkeyPatch) -> None:
    require_tool("llvm-objdump-19")
    monkeypatch.setenv("ISALENS_MAX_INPUT_SIZE", "4G")  # librocsparse is 1.3 GB
    library = debian_library(package)
    counts = load_tool("decoder_sweep").sweep(library, every=every, first=first)
    assert set(counts) == TARGETS[package]
    for target, c in sorted(counts.items()):
        print(f"{package} {target}: {c.code_objects} code objects, equal {c.equal}, rejected (documented) "
              f"{c.rejected}, different {c.different}, fell back {c.fell_back}, objdump only {c.objdump_only}")
    problems = {t: [f"{n} {k}: {c.examples[k]}" for k, n in c.groups.most_common(3) if k[0] != "rejected"]
                for t, c in counts.items() if c.different or c.fell_back}
    assert not problems, problems
    for c in counts.values():
        assert c.equal > 5_000
        # with no rejected word objdump never leaves our boundaries: every instruction it prints was compared
        assert c.objdump_only == 0 or c.rejected
    assert sum(c.code_objects for c in counts.values()) == (7 if every == 1 else 7 * first)
