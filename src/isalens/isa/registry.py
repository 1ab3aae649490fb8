"""Dialect detection and dispatch: the one entry point from text to :class:`~isalens.ir.program.Module`."""

from __future__ import annotations

import bisect
from collections.abc import Mapping

from isalens import records
from isalens.ir.program import KernelFacts, Module, TargetInfo
from isalens.isa.amdgcn import debuginfo, dialects
from isalens.isa.amdgcn.drafts import ReadResult
from isalens.isa.amdgcn.parser import detect_target, parse_drafts, parse_module

DIALECTS = dialects.DIALECTS


def sniff(text: str) -> str:
    """The dialect of ``text`` (``llvm``, ``objdump``, ``listing``, ``aco`` or ``bare``)."""
    return dialects.sniff(text)


def declared_target(text: str, dialect: str) -> str | None:
    """The target the input names itself, if it does."""
    return detect_target(text, dialect)


def not_code(text: str, dialect: str) -> str | None:
    """Why ``text`` (sniffed as ``dialect``) holds no code to analyse, for inputs users give by mistake."""
    if dialect != "bare":
        return None
    head = text[:200_000]
    if dialects.statistics_only(head):
        return ("Vulkan pipeline statistics (STAT lines) hold no instructions: give the shader's assembly "
                "(RADV's \"Assembly\" representation, 'BBn:' lines with encoding words) or the shader source "
                "(`isalens analyze SHADER.comp --arch FAMILY` prints these statistics beside its own figures)")
    if dialects.rga_livereg_output(head):
        return ("RGA's live-register report (legend, 'Line | Rn |' map), not ISA: give isalens the ISA file "
                "RGA analysed (`rga --isa FILE`); `isalens livereg --rga` prints this report in RGA's format")
    return None


def declared_family(text: str) -> str | None:
    """A GPU family the text names outside any code (``Null hardware (RADV RAVEN)``), if any."""
    from isalens.isa.amdgcn.radv_dump import declared_family as radv_family  # on use: an error's hint

    named = radv_family(text)
    return named[0] if named else None


def parse(text: str, *, file: str, target: TargetInfo, dialect: str | None = None,
          ignore_unknown: bool = False, packed_workitem_ids: bool = False,
          facts: Mapping[str, KernelFacts] | None = None) -> Module:
    """Parse ``text`` into a module for ``target`` (``facts``: per-kernel descriptor and metadata of a binary),
    with each kernel's source lines where the text carries them (``.loc``, ``objdump -l``)."""
    module = parse_module(text, file=file, target=target, dialect=dialect, ignore_unknown=ignore_unknown,
                          packed_workitem_ids=packed_workitem_ids, facts=facts)
    return with_source_lines(module, text)


def parse_read(result: ReadResult, *, file: str, target: TargetInfo, dialect: str, ignore_unknown: bool = False,
               packed_workitem_ids: bool = False, facts: Mapping[str, KernelFacts] | None = None) -> Module:
    """:func:`parse` of a text whose reader's drafts are ``result`` (made without the text: our decoder's
    ``objdump_drafts``), for a text that carries no source lines (no ``.loc``, no ``; FILE:LINE``)."""
    return parse_drafts(result, file=file, target=target, dialect=dialect, ignore_unknown=ignore_unknown,
                        packed_workitem_ids=packed_workitem_ids, facts=facts)


def with_source_lines(module: Module, text: str) -> Module:
    """``module`` with the source map of every kernel, from the text's ``.loc`` directives (LLVM assembly) or
    ``; FILE:LINE`` annotations (``llvm-objdump -l``); unchanged when the text has neither."""
    if module.dialect == "llvm":
        directives = debuginfo.read_llvm_lines(text)
    elif module.dialect == "objdump":
        directives = debuginfo.read_objdump_lines(text)
    else:
        return module
    if directives is None:
        return module
    # each function's DEBUG_VALUE comments start after the previous function's last instruction; each function
    # is handed only the comments in its own range (found by bisection), so the work stays linear in the number
    # of functions and comments (every function scanning every comment took minutes at 4,000 functions)
    ends = sorted(k.instructions[-1].line for k in module.kernels if k.instructions)
    values = sorted(directives.values, key=lambda v: v[0])
    value_lines = [v[0] for v in values]
    kernels = []
    unheld: list[tuple[int, str]] = []  # DEBUG_VALUE comments naming registers the code never sets: dropped
    for k in module.kernels:
        if not k.instructions:
            kernels.append(debuginfo.attach(k, directives))
            continue
        first, last = k.instructions[0].line, k.instructions[-1].line
        i = bisect.bisect_left(ends, first)
        after = ends[i - 1] if i else 0
        own = records.replace(directives, values=tuple(
            values[bisect.bisect_right(value_lines, after):bisect.bisect_right(value_lines, last)]))
        dropped = debuginfo.unheld_values(k, own.values, after)
        unheld += dropped
        kernels.append(debuginfo.attach(k, own, after, frozenset(line for line, _ in dropped)))
    notes = debuginfo.problems_as_diagnostics(records.replace(directives, problems=(
        *directives.problems, *unheld)), module.file)
    return records.replace(module, kernels=tuple(kernels), diagnostics=(*module.diagnostics, *notes))
