"""placeholder"""

from __future__ import annotations

from isalens.analysis.advice.model import Advice, AdviceInput

KIND = "lds"


def detect(inp: AdviceInput) -> list[Advice]:
    return []
