"""Natural loops against brute force on random control-flow graphs: ``a`` dominates ``b`` when every path
from the entry to ``b`` passes ``a`` (b is unreachable once a is removed); an edge b -> h is a back edge when h
dominates b; its loop body is h plus every block that reaches b without passing h."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from isalens.analysis.cfg import _natural_loops


def _reachable(succs: list[list[int]], start: int, removed: int | None = None) -> set[int]:
    if start == removed:
        return set()
    seen, work = {start}, [start]
    while work:
        for s in succs[work.pop()]:
            if s != removed and s not in seen:
                seen.add(s)
                work.append(s)
    return seen


def _rpo(succs: list[list[int]]) -> list[int]:
    order: list[int] = []
    seen: set[int] = set()

    def visit(b: int) -> None:
        seen.add(b)
        for s in succs[b]:
            if s not in seen:
                visit(s)
        order.append(b)

    visit(0)
    return order[::-1]


@st.composite
def graphs(draw: st.DrawFn) -> list[list[int]]:
    n = draw(st.integers(min_value=1, max_value=10))
    return [sorted(set(draw(st.lists(st.integers(min_value=0, max_value=n - 1), max_size=3)))) for _ in range(n)]


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_natural_loops_equal_brute_force(succs: list[list[int]]) -> None:
    n = len(succs)
    preds: list[list[int]] = [[] for _ in range(n)]
    for b, out in enumerate(succs):
        for s in out:
            preds[s].append(b)
    live = _reachable(succs, 0)
    expected: dict[int, set[int]] = {}
    for b in live:
        for h in succs[b]:
            if b not in _reachable(succs, 0, removed=h):  # h dominates b
                body = expected.setdefault(h, {h})
                # blocks reaching b without passing h (within the reachable part)
                work = [b]
                while work:
                    x = work.pop()
                    if x not in body:
                        body.add(x)
                        work.extend(p for p in preds[x] if p in live)
    loops, depth = _natural_loops(_rpo(succs), succs, preds, n)
    assert {lp.header: set(lp.blocks) for lp in loops} == expected
    assert list(depth) == [sum(1 for body in expected.values() if b in body) for b in range(n)]
