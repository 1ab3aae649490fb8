"""The compiled pattern sets answer exactly as fnmatchcase, pattern by pattern, does (brute force)."""

from __future__ import annotations

from fnmatch import fnmatchcase

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.patterns import matches

alphabet = st.sampled_from([*"v_adsk12", "*", "?", "[a-d]", "[!1]"])
patterns = st.lists(st.lists(alphabet, max_size=6).map("".join), max_size=6).map(tuple)
names = st.text(alphabet="v_adsk12", max_size=8)


@settings(max_examples=500, deadline=None)
@given(names, patterns)
def test_matches_equals_fnmatchcase(name: str, pats: tuple[str, ...]) -> None:
    assert matches(name, pats) == any(fnmatchcase(name, p) for p in pats)
