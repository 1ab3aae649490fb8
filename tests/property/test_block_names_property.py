"""Block live-in names built from the mask's digits equal a register-by-register walk (brute force)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.blocks import register_names
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, VGPR_BASE, RegFile, file_mask, iter_bits


def _by_hand(mask: int) -> tuple[str, ...]:
    names: list[str] = []
    for file, base, halves in ((RegFile.VGPR, VGPR_BASE, 2), (RegFile.SGPR, SGPR_BASE, 1),
                               (RegFile.AGPR, AGPR_BASE, 2)):
        live: dict[int, int] = {}
        for unit in iter_bits(mask & file_mask(file)):
            off = unit - base
            live[off // halves] = live.get(off // halves, 0) | (1 << (off % halves) if halves == 2 else 3)
        regs = sorted(live)
        k = 0
        while k < len(regs):
            r = regs[k]
            if live[r] != 3:
                names.append(f"{file.value}{r}.{'l' if live[r] == 1 else 'h'}")
                k += 1
                continue
            end = r
            while k + 1 < len(regs) and regs[k + 1] == end + 1 and live[regs[k + 1]] == 3:
                k += 1
                end += 1
            names.append(f"{file.value}{r}" if r == end else f"{file.value}[{r}:{end}]")
            k += 1
    return tuple(names)


# masks with runs and holes in every file: VGPR halves, SGPRs and AGPR halves
units = st.integers(min_value=0, max_value=AGPR_BASE + 2 * 64)
@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(units, st.integers(min_value=1, max_value=40)), max_size=8),
       st.lists(st.integers(min_value=0, max_value=105), max_size=10))
def test_register_names_equal_the_walk(spans: list[tuple[int, int]], sgprs: list[int]) -> None:
    mask = 0
    for start, length in spans:
        mask |= ((1 << length) - 1) << start
    for s in sgprs:
        mask |= 1 << (SGPR_BASE + s)
    assert register_names(mask) == _by_hand(mask)
