"""A branch comment names the last symbol, in the section's list order, at or below the branch target
(``llvm-objdump``'s listing as our decoder writes it, ``decoder/listing.py``): the bisection over
``_nearest``'s chain against that definition scanned by brute force, over symbol lists in any order with equal
addresses and targets before, at, between and after them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.isa.amdgcn.decoder.listing import _branch_comment, _nearest

_SYMBOLS = st.lists(st.tuples(st.integers(0x1000, 0x1040).map(lambda a: a & ~3),
                              st.sampled_from(["k", "a", "b", ".text"]), st.just("STT_FUNC")), max_size=8)


def _scanned(word: int, address: int, syms: list[tuple[int, str, str]]) -> str:
    """The definition, brute force: every symbol scanned."""
    simm = word & 0xFFFF
    target = address + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
    before = [s for s in syms if s[0] <= target]
    if not before:
        return ""
    sym_address, name, _kind = before[-1]
    return f" <{name}>" if target == sym_address else f" <{name}+0x{target - sym_address:x}>"


@settings(max_examples=1000, deadline=None)
@given(_SYMBOLS, st.integers(0x0FF0, 0x1050).map(lambda a: a & ~3),
       st.integers(-24, 24).map(lambda d: 0xBF820000 | (d & 0xFFFF)))
def test_branch_comment_is_the_last_listed_symbol_at_or_below_the_target(
        syms: list[tuple[int, str, str]], address: int, word: int) -> None:
    assert _branch_comment(word, address, _nearest(syms)) == _scanned(word, address, syms)
