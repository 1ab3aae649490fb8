"""Dialect detection and dispatch: the one entry point from text to :class:`~isalens.ir.program.Module`."""

from __future__ import annotations

from collections.abc import Mapping

from isalens.ir.program import KernelFacts, Module, TargetInfo
from isalens.isa.amdgcn import dialects
from isalens.isa.amdgcn.parser import detect_target, parse_module

DIALECTS = dialects.DIALECTS


def sniff(text: str) -> str:
    """The dialect of ``text`` (``llvm``, ``objdump``, ``listing``, ``aco`` or ``bare``)."""
    return dialects.sniff(text)


def declared_target(text: str, dialect: str) -> str | None:
    """The target the input names itself, if it does."""
    return detect_target(text, dialect)


def parse(text: str, *, file: str, target: TargetInfo, dialect: str | None = None,
          ignore_unknown: bool = False, packed_workitem_ids: bool = False,
          facts: Mapping[str, KernelFacts] | None = None) -> Module:
    """Parse ``text`` into a module for ``target`` (``facts``: per-kernel descriptor and metadata of a binary)."""
    return parse_module(text, file=file, target=target, dialect=dialect, ignore_unknown=ignore_unknown,
                        packed_workitem_ids=packed_workitem_ids, facts=facts)
