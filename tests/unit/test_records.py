"""isalens.records makes the classes ``dataclasses`` makes, for the options a small run's classes use. The oracle
is ``dataclasses`` itself: the same class body through both, compared on what callers, tests and outputs see."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import sys
from collections.abc import Callable
from typing import Any, ClassVar  # noqa: F401  (dataclasses finds a string ClassVar by this module's name)

import orjson
import pytest

from isalens import records

#: every option and field kind the records module accepts (a small run's 75 classes use these)
OPTIONS = ({"frozen": True, "slots": True}, {"frozen": True, "slots": True, "order": True}, {"slots": True},
           {"frozen": True}, {})


def _body(make: Any, field: Any) -> dict[str, Any]:
    """One class body: plain fields, a default, a default factory, a field out of repr, out of comparisons and
    out of ``__init__`` (with a default), a ClassVar, a method."""
    def label(self: Any) -> str:
        return f"{self.a}:{self.b}"
    return {"__annotations__": {"a": "int", "b": "str", "c": "float", "d": "tuple[int, ...]", "e": "int",
                                "f": "int", "g": "int", "k": "ClassVar[int]"},
            "__doc__": "A test class.", "__module__": __name__, "__qualname__": "Sample",
            "c": 0.5, "d": field(default_factory=tuple), "e": field(default=7, repr=False),
            "f": field(default=1, compare=False), "g": field(default=3, init=False), "k": 9, "label": label}


def _both(options: dict[str, Any]) -> tuple[type, type]:
    stock = dataclasses.dataclass(**options)(type("Sample", (), _body(dataclasses, dataclasses.field)))
    ours = records.dataclass(**options)(type("Sample", (), _body(records, records.field)))
    return stock, ours


def _seen(cls: type, options: dict[str, Any]) -> list[Any]:
    """What a caller sees of a class and its objects (no identities, nothing per process)."""
    p, q, r = cls(1, "x", 2.0, (3,), 4, 5), cls(1, "x", 2.0, (3,), 4, 6), cls(0, "y")
    seen: list[Any] = [str(inspect.signature(cls)), cls.__match_args__, repr(p), repr(r), p.label(), cls.k,
                       p == q, p != r, p == 1, p == cls(1, "x", 2.0, (4,), 4, 5), p == cls(1, "x", 2.0, (3,), 8, 5),
                       [f.name for f in dataclasses.fields(cls)], dataclasses.asdict(p),
                       dataclasses.replace(p, a=9) == cls(9, "x", 2.0, (3,), 4, 5), cls.__hash__ is None,
                       type(p.__eq__(1)), orjson.dumps(p), r.d, r.g, getattr(cls, "__slots__", None),
                       hasattr(p, "__dict__")]
    if options.get("frozen"):
        seen += [hash(p) == hash(q), hash(p) == hash((1, "x", 2.0, (3,), 4, 3))]
        actions = [lambda: setattr(p, "a", 2), lambda: delattr(p, "b")]
        if not options.get("slots"):  # (a slotted stock class fails there with a TypeError of super())
            actions.append(lambda: setattr(p, "zz", 1))
        for action in actions:
            with pytest.raises(AttributeError) as raised:
                action()
            seen.append((str(raised.value), raised.type.__name__))
    else:
        p.a = 5
        seen.append(p.a)
    if options.get("order"):
        seen += [r < p, p <= q, p > r, q >= p, sorted([p, r, q]) == [r, p, q]]
    else:
        with pytest.raises(TypeError):
            _ = p < q
    if options.get("slots") or not options.get("frozen"):  # stock pickles an unslotted frozen class too
        globals()["Sample"] = cls  # pickle finds a class by its module and name
        seen += [pickle.loads(pickle.dumps(p)) == p, copy.copy(p) == p, copy.deepcopy(p) == p]
    return seen


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "plain")
def test_a_record_behaves_as_the_stock_dataclass_of_the_same_body(options: dict[str, Any]) -> None:
    stock, ours = _both(options)
    assert _seen(ours, options) == _seen(stock, options)
    assert issubclass(records.FrozenInstanceError, AttributeError)


def test_post_init_and_a_field_left_out_of_init() -> None:
    """``__post_init__`` runs after the fields are set, and an ``init=False`` field without a default is left
    unset until it runs (ReadContext's cache fields)."""
    def post(self: Any) -> None:
        self.total = self.a + 1

    def body(field: Callable[..., Any]) -> dict[str, Any]:
        return {"__annotations__": {"a": "int", "total": "int"}, "__module__": __name__, "__doc__": "x",
                "total": field(init=False), "__post_init__": post}
    stock = dataclasses.dataclass(slots=True)(type("P", (), body(dataclasses.field)))
    ours = records.dataclass(slots=True)(type("P", (), body(records.field)))
    for cls in (stock, ours):
        assert cls(4).total == 5 and str(inspect.signature(cls)) == "(a: 'int') -> None"
        assert repr(cls(4)) == "P(a=4, total=5)"


def test_unsupported_definitions_are_refused() -> None:
    with pytest.raises(TypeError, match="unsupported options"):
        records.dataclass(kw_only=True)
    with pytest.raises(TypeError, match="non-default argument"):
        records.dataclass(type("Q", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    with pytest.raises(ValueError, match="mutable default"):
        records.dataclass(type("Q", (), {"__annotations__": {"a": "list[int]"}, "a": []}))
    with pytest.raises(TypeError, match="InitVar"):
        records.dataclass(type("Q", (), {"__annotations__": {"a": "InitVar[int]"}}))


def _run_classes() -> list[type]:
    """The record classes of the modules a small ``livereg`` run imports (test_startup's probe lists them)."""
    from isalens.engine import load  # noqa: F401  (imports the run's layers)
    from isalens.report import json  # noqa: F401
    return [obj for module in list(sys.modules.values()) if getattr(module, "__name__", "").startswith("isalens")
            for obj in vars(module).values()
            if isinstance(obj, type) and obj.__module__ == module.__name__ and records.is_record(obj)]


def test_every_record_of_a_run_has_the_init_and_match_args_dataclasses_writes() -> None:
    """The oracle: ``dataclasses`` applied to a class with each record's fields (names, annotations, defaults,
    factories, init flags): the same ``__init__`` signature, the same defaults made, the same match args."""
    classes = _run_classes()
    assert len(classes) >= 70
    for cls in classes:
        ns: dict[str, Any] = {"__annotations__": {}, "__module__": cls.__module__, "__doc__": "x"}
        for f in records.fields(cls):
            ns["__annotations__"][f.name] = f.type
            if f.default is not records._MISSING or f.default_factory is not records._MISSING or not f.init:
                ns[f.name] = dataclasses.field(
                    default=dataclasses.MISSING if f.default is records._MISSING else f.default,
                    default_factory=(dataclasses.MISSING if f.default_factory is records._MISSING
                                     else f.default_factory), init=f.init, repr=f.repr, compare=f.compare)
        stock = dataclasses.dataclass(type(cls.__name__, (), ns))
        assert str(inspect.signature(cls.__init__)) == str(inspect.signature(stock.__init__)), cls
        assert cls.__match_args__ == stock.__match_args__, cls  # type: ignore[attr-defined]
        assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(stock)], cls


def test_records_replace_and_fields_take_records_and_dataclasses() -> None:
    stock, ours = _both({"frozen": True, "slots": True})
    for cls in (stock, ours):
        p = cls(1, "x")
        assert records.replace(p, b="z") == cls(1, "z")
        assert [f.name for f in records.fields(cls)] == ["a", "b", "c", "d", "e", "f", "g"]
        with pytest.raises(ValueError, match="init=False"):
            records.replace(p, g=1)


def test_the_module_is_importable_without_dataclasses() -> None:
    """The point of the module: a fresh interpreter imports it, and a record class is made and used, without
    ``dataclasses`` (nor ``inspect``) being imported."""
    import subprocess
    probe = ("import sys\nfrom isalens.records import dataclass\n"
             "@dataclass(frozen=True, slots=True)\nclass A:\n    x: int\n    y: int = 2\n"
             "assert A(1) == A(1, 2) and repr(A(1)) == 'A(x=1, y=2)' and hash(A(1)) == hash((1, 2))\n"
             "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n"
    importlib.import_module("isalens.records")
