"""Kernel names as a person reads them: Itanium C++ names demangled (``_Z4axpyfPKfPf`` -> ``axpy(float, float
const*, float*)``), and ``--kernel`` matching either spelling.

Below every layer, like :mod:`isalens.lines`: the readers, the report, the scan and the CLI all show names.
The demangler is the ``demangle`` package (pure Python, no native code): a name comes from a binary anyone can
build, so it must never crash or hang the tool. Its default limits (64 KiB of input, 256 levels of nesting,
64 KiB of output, 8192 substitutions) bound the work per name, and a name it cannot read within them comes back
unchanged; chosen over ``cxxfilt`` (``__cxa_demangle`` through ctypes), which spent 17 s and 436 MB on a 278
character name of nested template back-references, and over ``itanium_demangler``, whose spelling differs from
LLVM's on a third of libLLVM's symbols (docs/binaries.md, "Names").
"""

from __future__ import annotations

import fnmatch
from functools import lru_cache

__all__ = ["demangled", "name_matches"]


#: names up to this long are cached (a report shows a name several times); longer ones, rare and possibly
#: hostile, are demangled each time rather than kept
_CACHED_LENGTH = 4096


def demangled(name: str) -> str:
    """The readable spelling of ``name``: demangled when it is an Itanium C++ name the demangler reads within its
    limits, else ``name`` itself (``extern "C"`` names, names it cannot read or that would spell too long)."""
    if not name.startswith("_Z"):
        return name
    return _cached(name) if len(name) <= _CACHED_LENGTH else _demangle(name)


@lru_cache(maxsize=16384)
def _cached(name: str) -> str:
    return _demangle(name)


def _demangle(name: str) -> str:
    import demangle

    try:
        return demangle.demangle(name, language="itanium")
    except Exception:  # it promises never to raise over a name; should it, the name stays as it is
        return name


def name_matches(pattern: str, name: str) -> bool:
    """Whether ``pattern`` (a name or shell glob) matches ``name`` mangled or demangled."""
    readable = demangled(name)
    # equality first: a demangled name holds glob characters of its own (``float const*``, ``int [4]``)
    if pattern in (name, readable) or fnmatch.fnmatchcase(name, pattern):
        return True
    return readable != name and fnmatch.fnmatchcase(readable, pattern)
