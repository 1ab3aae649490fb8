"""isalens: static analysis of AMD GPU ISA (register liveness, pressure, occupancy and more).

The public API lives in :mod:`isalens.api` and is re-exported here.
"""

__version__ = "0.1.0"

from isalens.api import analyze_kernel, load
from isalens.errors import Diagnostic, IsalensError

__all__ = ["Diagnostic", "IsalensError", "__version__", "analyze_kernel", "load"]
