"""isalens: static analysis of AMD GPU ISA (register liveness, pressure, occupancy and more).

The public API (re-exported lazily, so the command line starts fast):

    >>> import isalens
    >>> from pathlib import Path
    >>> result = isalens.analyze(Path("kernel.s"))     # what `isalens analyze --json` prints: result.to_dict()
    >>> module = isalens.load(Path("kernel.s"))        # parsed kernels; module.kernels[0].analyze()

A :class:`~pathlib.Path` (or ``path="kernel.s"``) names a file; a ``str`` is ISA text, and one that names an
existing file is refused rather than read.
"""

from __future__ import annotations

from isalens.version import __version__

# not typing.TYPE_CHECKING: importing typing would slow every command's start-up; mypy reads this name the same way
TYPE_CHECKING = False

if TYPE_CHECKING:
    from isalens.engine import Analysis, LoadOptions, analyze
    from isalens.engine import load_module as load
    from isalens.engine.load import analyze_kernel
    from isalens.errors import Diagnostic, IsalensError

__all__ = ["Analysis", "Diagnostic", "IsalensError", "LoadOptions", "__version__", "analyze", "analyze_kernel",
           "load"]

#: public name -> (module, its name there)
_WHERE = {"Analysis": ("isalens.engine", "Analysis"), "LoadOptions": ("isalens.engine", "LoadOptions"),
          "analyze": ("isalens.engine", "analyze"), "analyze_kernel": ("isalens.engine.load", "analyze_kernel"),
          "load": ("isalens.engine", "load_module"), "Diagnostic": ("isalens.errors", "Diagnostic"),
          "IsalensError": ("isalens.errors", "IsalensError")}


def __dir__() -> list[str]:
    """The public API (what ``__all__`` names), for completion in notebooks and shells."""
    return sorted(__all__)


def __getattr__(name: str) -> object:
    if name in _WHERE:
        import importlib
        module, attr = _WHERE[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'isalens' has no attribute {name!r}")
