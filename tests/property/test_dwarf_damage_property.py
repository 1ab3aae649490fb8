"""Damaged DWARF never crashes and never changes an ISA figure (issue 27, item 5).

One kernel with a loop, a branch and an inlined helper is built by clang-19 with ``-g`` (line table, variable
location lists, inlined subroutines); hypothesis then overwrites bytes of its debug sections (headers, abbrev
codes, forms, offsets, LEB128s, location expressions), truncates a section or points its header past the end of
the file. Every damaged object must analyse (``isalens.analyze`` through the public API, llvm-objdump
included), and its register, occupancy, instruction and timing figures must equal the undamaged object's (the
oracle: the same machine code, which damage to debug sections cannot change). What the damage costs is source
lines and variables, and a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import isalens
from tests import elf_edit as E
from tests.oracle.test_source_lines import _build

_KERNEL = """
static inline float helper(float x, float k) { return x > 0.0f ? x * k : -x; }

__kernel void damaged(__global float *p, float k, int n) {
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n; ++j) {
        float x = p[i + j];
        acc += helper(x, k);
    }
    p[i] = acc;
}
"""
SECTIONS = (".debug_info", ".debug_line", ".debug_loclists", ".debug_abbrev", ".debug_str_offsets", ".debug_addr",
            ".debug_rnglists", ".debug_line_str", ".debug_str")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("dwarf")
    source = tmp / "damaged.cl"
    source.write_text(_KERNEL)
    co = _build(source, "gfx90a", tmp / "damaged.co", "-g").read_bytes()
    figures = _figures(co, tmp / "undamaged.co")
    assert figures["debug_info"] == "lines+variables"  # the damage has something to break
    return co, figures


def _figures(data: bytes, path: Path) -> dict[str, Any]:
    path.write_bytes(data)
    kernel = isalens.analyze(path).to_dict()["files"][0]["kernels"][0]
    return {"vgpr": kernel["vgpr"], "sgpr": kernel["sgpr"], "occupancy": kernel["occupancy"],
            "instructions": kernel["instructions"], "classes": kernel["instruction_classes"],
            "debug_info": kernel["debug_info"],
            "timing": kernel["timing"]["kernel"] if kernel.get("timing") else None}


_damage = st.one_of(
    st.tuples(st.just("bytes"), st.sampled_from(SECTIONS), st.integers(0, 1 << 16), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("truncate"), st.sampled_from(SECTIONS), st.integers(0, 1 << 16), st.just(b"")),
    st.tuples(st.just("offset"), st.sampled_from(SECTIONS), st.integers(0, 1 << 40), st.just(b"")),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=_damage)
def test_damaged_debug_sections_change_no_figure(built: tuple[bytes, dict[str, Any]], damage: tuple[Any, ...],
                                                 tmp_path: Path) -> None:
    co, undamaged = built
    kind, section, at, data = damage
    if E.find(co, section) is None:
        return
    if kind == "bytes":
        contents = bytearray(E.section_bytes(co, section))
        at %= max(1, len(contents))
        contents[at:at + len(data)] = data
        damaged = E.replace_contents(co, section, bytes(contents))
    elif kind == "truncate":
        size = len(E.section_bytes(co, section))
        damaged = E.set_header(co, section, size=at % max(1, size))
    else:
        damaged = E.set_header(co, section, offset=at)
    figures = _figures(damaged, tmp_path / "damaged.co")
    assert {k: v for k, v in figures.items() if k != "debug_info"} == \
        {k: v for k, v in undamaged.items() if k != "debug_info"}
