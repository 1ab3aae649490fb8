"""Demangled kernel names: hostile names come back unchanged (bounded work, no exception), `--kernel` matching."""

from __future__ import annotations

import pytest

from isalens.names import demangled, name_matches


def _base36(i: int) -> str:
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = ""
    while True:
        out, i = digits[i % 36] + out, i // 36
        if not i:
            return out


def _doubling(depth: int) -> str:
    # f(A, A<A, A>, A<A<A, A>, A<A, A>>, ...): every parameter names the previous one twice through a
    # substitution, so 278 characters at depth 24 spell 2^24 copies of A (cxxfilt: 436 MB)
    return "_Z1f1A1AIS_S_E" + "".join(f"S0_IS{_base36(k + 1)}_S{_base36(k + 1)}_E" for k in range(depth))


@pytest.mark.parametrize("name", [
    _doubling(24),
    "_Z1fI" + "1AI" * 5000 + "i" + "E" * 5001 + "vv",   # templates nested 5000 deep
    "_Z1fP" + "P" * 100_000 + "i",                         # pointers nested 100,000 deep
    "_Z" + "1000000" + "a" * 1_000_000 + "v",               # a 1 MB identifier
    "_Z1fIT_EvT_",                                          # a template parameter naming itself
    "_Z1f" + "S_" * 50_000,                                 # substitutions before any exists
    "_ZN",                                                  # truncated
    "_Z\x00\xff\u202e",                                     # not a name at all
])
def test_hostile_names_stay_mangled(name: str) -> None:
    assert demangled(name) == name


def test_a_small_doubling_name_is_spelled() -> None:
    # depth 1: f(A, A<A, A>, A<A<A, A>, A<A, A>>) (llvm-cxxfilt-19 spells the same)
    assert demangled(_doubling(1)) == "f(A, A<A, A>, A<A<A, A>, A<A, A>>)"


def test_extern_c_names_are_their_own_spelling() -> None:
    assert demangled("axpy") == "axpy"
    assert demangled("_Zfoo") == "_Zfoo"


def test_kernel_patterns_match_either_form() -> None:
    name = "_ZN6spline6reduceIfLi4EEEvPKNS_4pairIT_EEPS2_j"
    readable = "void spline::reduce<float, 4>(spline::pair<float> const*, float*, unsigned int)"
    assert demangled(name) == readable
    assert name_matches(name, name) and name_matches(readable, name)
    assert name_matches("*spline::reduce<*", name) and name_matches("_ZN6spline*", name)
    assert not name_matches("*basis*", name)
    # a demangled name with glob characters of its own matches itself exactly (llvm-cxxfilt-19: f(int (*) [4]);
    # as a glob "[4]" would match "4" only)
    assert name_matches("f(int (*) [4])", "_Z1fPA4_i")
