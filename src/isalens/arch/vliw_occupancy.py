"""Register file and wavefront limits of the VLIW SIMDs (R600-Cayman), from ``data/vliw_occupancy.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["OccupancyFacts", "occupancy_facts"]

#: the generations the file must describe, oldest first (as isalens.isa.r600 names them)
GENERATIONS = ("r600", "r700", "evergreen", "cayman")


@dataclass(frozen=True, slots=True)
class OccupancyFacts:
    """What fits on a VLIW SIMD: GPRs per lane slot, clause temporaries, wavefront limits."""

    wavefront_size: int
    clocks_per_group: int                 # clocks a SIMD spends on one instruction group of one wavefront
    max_wavefronts_per_simd: int
    gpr_file: dict[str, int]              # generation -> GPRs per SIMD lane slot
    clause_temps: dict[str, int]          # generation -> clause temporaries (reserved twice)
    chip_gpr_file: dict[str, int]         # chips that differ from their generation

    def file_size(self, generation: str, chip: str | None = None) -> int:
        return self.chip_gpr_file.get(chip or "", self.gpr_file[generation])

    def gprs_available(self, generation: str, chip: str | None = None) -> int:
        """GPRs a program's wavefronts share: the file minus 2 x the clause temporaries."""
        return self.file_size(generation, chip) - 2 * self.clause_temps[generation]


def _positive(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"vliw_occupancy.toml: {where} must be a positive integer, not {value!r}")
    return value


def _load(doc: dict[str, Any]) -> OccupancyFacts:
    gens = doc.get("generations", {})
    if set(gens) != set(GENERATIONS):
        raise ValueError(f"vliw_occupancy.toml: [generations] must define exactly {', '.join(GENERATIONS)}")
    facts = OccupancyFacts(
        wavefront_size=_positive("wavefront_size", doc.get("wavefront_size")),
        clocks_per_group=_positive("clocks_per_group", doc.get("clocks_per_group")),
        max_wavefronts_per_simd=_positive("max_wavefronts_per_simd", doc.get("max_wavefronts_per_simd")),
        gpr_file={g: _positive(f"generations.{g}.gpr_file", gens[g].get("gpr_file")) for g in GENERATIONS},
        clause_temps={g: _positive(f"generations.{g}.clause_temps", gens[g].get("clause_temps"))
                      for g in GENERATIONS},
        chip_gpr_file={k: _positive(f"chip_gpr_file.{k}", v) for k, v in doc.get("chip_gpr_file", {}).items()},
    )
    for gen in GENERATIONS:
        if facts.gprs_available(gen) <= 0:
            raise ValueError(f"vliw_occupancy.toml: {gen} reserves the whole register file for clause temporaries")
    return facts


@cache
def occupancy_facts() -> OccupancyFacts:
    """The validated facts (raises :class:`ValueError` when the data file is malformed)."""
    text = (resources.files("isalens.arch") / "data" / "vliw_occupancy.toml").read_text(encoding="utf-8")
    return _load(tomllib.loads(text))
