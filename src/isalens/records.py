"""Slotted record classes as ``@dataclass`` makes them, without importing ``dataclasses`` on a small run's path.

A ``livereg`` run of a small kernel creates 75 classes, all ``@dataclass`` (frozen, slotted, one ordered).
Importing ``dataclasses`` pulls in ``inspect`` (``ast``, ``dis``, ``tokenize``): ~13 ms, and processing the 75
classes took 14-17 ms more even with their method code cached (docs/performance.md, nineteenth session). This
module's :func:`dataclass` makes the same classes for the subset those classes use: keyword options ``frozen``,
``slots``, ``order``, ``eq``; fields with a default or a ``field(default=..., default_factory=..., init=...,
repr=..., compare=...)``; ``__post_init__``. Anything else is refused with ``TypeError`` when the class is made.

What a class gets is what ``dataclasses`` (Python 3.11) gives it, method by method: ``__init__`` (generated text
compiled once per layout and kept across runs by :mod:`isalens.classcode`; a frozen slotted class's ``__init__``
sets each field with its slot's own setter where ``dataclasses`` calls ``object.__setattr__``: the same effect,
faster), ``__repr__`` as ``Name(a=1, b='x')``, ``__eq__`` and the order methods over the tuple of compared fields of
the same class, ``__hash__`` of that tuple for a frozen class (``None`` for an unfrozen one with ``__eq__``), frozen
``__setattr__``/``__delattr__`` (``FrozenInstanceError``, an ``AttributeError``), ``__getstate__``/``__setstate__``
for pickling a frozen slotted class (a list of field values), ``__match_args__``. ``dataclasses.fields``,
``replace``, ``asdict`` and orjson's dataclass writer still work on them: ``__dataclass_fields__`` is made (with
``dataclasses`` imported) the first time something asks for it. On a run's path use :func:`replace` and
:func:`fields` of this module instead, which do not import ``dataclasses``.

Measured (twentieth session, docs/performance.md): ``livereg --json`` on the 812-instruction example, this module
against the same tree with its ``dataclass``/``field`` bound to ``dataclasses``' own (``benchmarks/startup.py
--runs 21 --clock``, compiled core, load 10.9): 0.119 against 0.138 s CPU, own clock 0.117 against 0.138 s.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["FrozenInstanceError", "dataclass", "field", "fields", "replace"]

T = TypeVar("T")
_MISSING: Any = type("_MissingType", (), {"__repr__": lambda self: "MISSING"})()
_HAS_FACTORY: Any = type("_HasFactoryType", (), {"__repr__": lambda self: "<factory>"})()


class FrozenInstanceError(AttributeError):
    """Assigning to or deleting a field of a frozen record (as ``dataclasses.FrozenInstanceError``)."""


class Field:
    """One field's options (the class attribute :func:`field` returns; its name is set when the class is made)."""

    __slots__ = ("compare", "default", "default_factory", "init", "name", "repr", "type")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, compare: bool) -> None:
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare


@overload
def field(*, default: T, init: bool = ..., repr: bool = ..., compare: bool = ...) -> T: ...
@overload
def field(*, default_factory: Callable[[], T], init: bool = ..., repr: bool = ..., compare: bool = ...) -> T: ...
@overload
def field(*, init: bool = ..., repr: bool = ..., compare: bool = ...) -> Any: ...
def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True, repr: bool = True,
          compare: bool = True) -> Any:
    """A field's default or default factory and whether it is in ``__init__``, ``__repr__`` and comparisons."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


@overload
def dataclass(cls: type[T], /) -> type[T]: ...
@overload
def dataclass(*, frozen: bool = ..., slots: bool = ..., order: bool = ...,
              eq: bool = ...) -> Callable[[type[T]], type[T]]: ...
@dataclass_transform(field_specifiers=(field, Field))
def dataclass(cls: Any = None, /, **options: Any) -> Any:
    """The class ``@dataclasses.dataclass(**options)`` makes, for the options and field kinds listed above."""
    unknown = set(options) - {"frozen", "slots", "order", "eq"}
    if unknown:
        raise TypeError(f"isalens.records.dataclass: unsupported options {sorted(unknown)}")
    if cls is None:
        return lambda c: _make(c, **options)
    return _make(cls, **options)


def _make(cls: type, frozen: bool = False, slots: bool = False, order: bool = False, eq: bool = True) -> Any:
    # per class, as little Python as possible: a small run makes 75 of these before its first instruction
    ns = dict(cls.__dict__)
    qualname = cls.__qualname__
    all_fields: list[Field] = []
    for base in cls.__mro__[-1:0:-1]:
        if "__dataclass_fields__" in base.__dict__ and "__record_fields__" not in base.__dict__:
            raise TypeError(f"{qualname}: a record cannot extend a dataclasses dataclass")
        all_fields.extend(base.__dict__.get("__record_fields__", ()))
    own: list[str] = []
    for name, annotation in ns.get("__annotations__", {}).items():
        text = annotation if annotation.__class__ is str else repr(annotation)
        if text.startswith(("ClassVar", "typing.ClassVar")):
            continue
        if text.startswith(("InitVar", "dataclasses.InitVar", "KW_ONLY", "dataclasses.KW_ONLY")):
            raise TypeError(f"{qualname}.{name}: InitVar/KW_ONLY are not supported by isalens.records")
        value = ns.pop(name, _MISSING)
        f = value if value.__class__ is Field else Field(value, _MISSING, True, True, True)
        if f.default.__class__ in (list, dict, set):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        f.name, f.type = name, annotation
        if f.name in own or any(g.name == name for g in all_fields):
            raise TypeError(f"{qualname}.{name}: a field named twice")
        own.append(name)
        all_fields.append(f)
    seen_default = False
    for f in all_fields:
        if f.init:
            if f.default is not _MISSING or f.default_factory is not _MISSING:
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
    if slots:
        if "__slots__" in ns:
            raise TypeError(f"{cls.__name__} already specifies __slots__")
        ns["__slots__"] = tuple(own)
        ns.pop("__dict__", None)
        ns.pop("__weakref__", None)  # the base's __weakref__ slot (if any) is inherited
    names = tuple(f.name for f in all_fields)
    compared = [f.name for f in all_fields if f.compare]
    made: dict[str, Any] = {
        "__record_fields__": tuple(all_fields),
        "__record_names__": names,
        "__record_shown__": tuple(f.name for f in all_fields if f.repr),
        # always a tuple (attrgetter of one name gives the value): __hash__ is the hash of dataclasses' tuple
        "__record_key__": attrgetter(*compared) if len(compared) > 1 else _one_key(compared),
        "__dataclass_fields__": _DATACLASS_FIELDS,
        "__match_args__": tuple(f.name for f in all_fields if f.init),
    }
    if not (frozen and slots):  # a frozen slotted class gets its __init__ once it is made (below)
        made["__init__"] = _init(all_fields, frozen, slots, "__post_init__" in ns, qualname)
    if "__repr__" not in ns:
        made["__repr__"] = _repr
    if eq and "__eq__" not in ns:
        made["__eq__"] = _eq
    if order:
        for name, method in _ORDER.items():
            if name in ns:
                raise TypeError(f"Cannot overwrite attribute {name} in class {qualname}")
            made[name] = method
    if "__hash__" not in ns or ns["__hash__"] is None:  # a class body's own __eq__ sets __hash__ to None
        if eq and frozen:
            made["__hash__"] = _hash
        elif eq:
            made["__hash__"] = None
    if frozen:
        made["__setattr__"], made["__delattr__"] = _frozen_setattr, _frozen_delattr
        if slots and "__getstate__" not in ns:
            made["__getstate__"], made["__setstate__"] = _getstate, _setstate
    if slots:
        ns.update(made)
        new = type(cls)(cls.__name__, cls.__bases__, ns)
        if frozen:
            type.__setattr__(new, "__init__", _init(all_fields, frozen, slots, "__post_init__" in ns, qualname,
                                                    _slot_setters(new)))
        return new
    for name, value in made.items():
        setattr(cls, name, value)
    for f in all_fields:  # a field's class attribute is its default, as dataclasses leaves it
        if f.name in own:
            if f.default is not _MISSING:
                setattr(cls, f.name, f.default)
            elif f.name in cls.__dict__:
                delattr(cls, f.name)
    return cls


def _one_key(compared: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    if not compared:
        return lambda self: ()
    get = attrgetter(compared[0])
    return lambda self: (get(self),)


def _slot_setters(cls: type) -> dict[str, Any] | None:
    """Per field slot of ``cls``, the slot's own setter (its member descriptor's ``__set__``), or None when a
    name is not a slot of the class or its bases (the field then lives elsewhere: ``object.__setattr__``)."""
    setters: dict[str, Any] = {}
    for f in cls.__record_fields__:  # type: ignore[attr-defined]
        slot: Any = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if type(slot) is not _MEMBER:
            return None
        setters[f.name] = slot.__set__
    return setters


#: the type of a ``__slots__`` entry's descriptor on its class
_MEMBER: Any = type(Field.__dict__["name"])


def _init(all_fields: list[Field], frozen: bool, slots: bool, post_init: bool, qualname: str,
          setters: dict[str, Any] | None = None) -> Any:
    """``__init__`` from generated text (one text per layout of fields; its code kept by :mod:`isalens.classcode`).

    A frozen class sets its fields past its own ``__setattr__``: with ``object.__setattr__``, as ``dataclasses``
    writes it, or, given ``setters`` (a frozen slotted class), with each slot's own setter, which skips the lookup
    of the name (the 20,794 blocks of the dense 100k kernel: 12.6 -> 8.7 ms; docs/performance.md)."""
    params, body, closure = [], [], {}
    for f in all_fields:
        n = f.name
        if f.default_factory is not _MISSING:
            closure[f"__dataclass_dflt_{n}__"] = f.default_factory
            if f.init:
                params.append(f"{n}=__dataclass_HAS_DEFAULT_FACTORY__")
                value = f"__dataclass_dflt_{n}__() if {n} is __dataclass_HAS_DEFAULT_FACTORY__ else {n}"
            else:
                value = f"__dataclass_dflt_{n}__()"
        elif f.default is not _MISSING:
            if not f.init and not slots:
                continue  # the class attribute holds it, as dataclasses leaves it
            closure[f"__dataclass_dflt_{n}__"] = f.default
            if f.init:
                params.append(f"{n}=__dataclass_dflt_{n}__")
            value = n if f.init else f"__dataclass_dflt_{n}__"
        elif f.init:
            params.append(n)
            value = n
        else:
            continue  # no init, no default: left unset, as dataclasses leaves it
        if setters is not None:
            closure[f"__dataclass_set_{n}__"] = setters[n]
            body.append(f"__dataclass_set_{n}__(self,{value})")
        else:
            body.append(f"__dataclass_builtins_object__.__setattr__(self,{n!r},{value})" if frozen
                        else f"self.{n}={value}")
    if post_init:
        body.append("self.__post_init__()")
    outer = ["__dataclass_builtins_object__", "__dataclass_HAS_DEFAULT_FACTORY__", *closure]
    text = (f"def __create_fn__({', '.join(outer)}):\n"
            f" def __init__({', '.join(['self', *params])}):\n"
            + "".join(f"  {line}\n" for line in body or ["pass"])
            + " return __init__")
    scope: dict[str, Any] = {}
    exec(_code_of_text(text), {"__builtins__": __builtins__}, scope)  # our text, generated above from field names
    init = scope["__create_fn__"](object, _HAS_FACTORY, *closure.values())
    init.__qualname__ = f"{qualname}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in all_fields if f.init}, "return": None}
    return init


def _code_of_text(text: str) -> Any:
    from isalens.classcode import code_of_text
    return code_of_text(text)


# the methods every record shares, reading the class's __record_* attributes (one object each, not one per class)
def _repr(self: Any) -> str:
    cls = self.__class__
    return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in cls.__record_shown__)})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__class__.__record_key__
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__.__record_key__(self))


def _order(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            key = self.__class__.__record_key__
            return op(key(self), key(other))
        return NotImplemented
    return method


_ORDER = {"__lt__": _order(tuple.__lt__), "__le__": _order(tuple.__le__), "__gt__": _order(tuple.__gt__),
          "__ge__": _order(tuple.__ge__)}
for _name, _method in _ORDER.items():
    _method.__name__ = _method.__qualname__ = _name


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    cls = self.__class__
    if "__record_fields__" in cls.__dict__ or name in cls.__record_names__:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)  # a plain subclass's own attribute, as dataclasses allows


def _frozen_delattr(self: Any, name: str) -> None:
    cls = self.__class__
    if "__record_fields__" in cls.__dict__ or name in cls.__record_names__:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, n) for n in self.__class__.__record_names__]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self.__class__.__record_names__, state, strict=False):
        object.__setattr__(self, name, value)


_repr.__name__ = _repr.__qualname__ = "__repr__"
_eq.__name__ = _eq.__qualname__ = "__eq__"
_hash.__name__ = _hash.__qualname__ = "__hash__"
_frozen_setattr.__name__ = _frozen_setattr.__qualname__ = "__setattr__"
_frozen_delattr.__name__ = _frozen_delattr.__qualname__ = "__delattr__"
_getstate.__name__ = _getstate.__qualname__ = "__getstate__"
_setstate.__name__ = _setstate.__qualname__ = "__setstate__"


class _DataclassFields:
    """``__dataclass_fields__``, made from the record's fields (``dataclasses.Field`` objects) when first asked
    for, so that ``dataclasses.fields``/``replace``/``asdict`` and orjson's dataclass writer take a record."""

    def __get__(self, obj: Any, owner: type) -> dict[str, Any]:
        if "__record_fields__" not in owner.__dict__:  # a plain subclass: its record base's
            return owner.__mro__[1].__dataclass_fields__  # type: ignore[attr-defined, no-any-return]
        made = owner.__dict__.get("__record_dataclass_fields__")
        if made is None:
            import dataclasses
            made = {}
            for f in owner.__dict__["__record_fields__"]:
                d: Any = dataclasses.field(default=f.default if f.default is not _MISSING else dataclasses.MISSING,
                                      default_factory=(f.default_factory if f.default_factory is not _MISSING
                                                       else dataclasses.MISSING),
                                      init=f.init, repr=f.repr, compare=f.compare)
                d.name, d.type = f.name, f.type
                d._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
                made[f.name] = d
            type.__setattr__(owner, "__record_dataclass_fields__", made)
        return made


_DATACLASS_FIELDS = _DataclassFields()


def is_record(obj: Any) -> bool:
    """Whether ``obj`` (a class or an instance) was made by :func:`dataclass`."""
    return hasattr(obj if isinstance(obj, type) else type(obj), "__record_fields__")


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record (class or instance), in order; for a ``dataclasses`` class, its ``fields()``."""
    cls = obj if isinstance(obj, type) else type(obj)
    found = cls.__dict__.get("__record_fields__")
    if found is None:
        import dataclasses
        return dataclasses.fields(obj)  # type: ignore[return-value]
    return tuple(found)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes`` (``dataclasses.replace``), for a record or a ``dataclasses`` instance."""
    cls = type(obj)
    found = cls.__dict__.get("__record_fields__")
    if found is None:
        import dataclasses
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for f in found:
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return cls(**changes)

