"""RGA's live-register text format, byte for byte, so Radeon GPU Analyzer's GUI can read our output."""

from __future__ import annotations

from collections.abc import Iterator

from isalens.ir.registers import RegFile
from isalens.report.model import COUNT_COLUMN, KernelReport, map_width
from isalens.report.regmap import register_map

_LEGEND = """Legend:
  ':' means that the register is kept alive, while it is not actively being used by the current instruction
  '^' means that the current instruction writes to the register
  'v' means that the current instruction reads from the register
  'x' means that the current instruction both reads from the register and writes to it
 'Rn': Number of live registers
"""


def rga_lines(report: KernelReport, file: RegFile = RegFile.VGPR) -> Iterator[str]:
    """The lines of :func:`render_rga`, made one at a time (a listing may have a million)."""
    width = map_width(report, file)
    yield from (_LEGEND, f"  Line | Rn  | {' ' * width} | Instruction", "-" * 80)
    first = True
    column = COUNT_COLUMN[file]
    memo: dict[tuple[int, int] | int, int] = {}
    for row, (occupied, defs, uses) in zip(report.lines, report.masks, strict=True):
        labels = [x if x.startswith("label_") else f"label_{x}" for x in row.labels]
        if first:
            own = f"label_{report.name}"
            labels = [own, *[x for x in labels if x != own]]
            first = False
        prefix = "".join(f"{name}: " for name in labels)
        cells = register_map(occupied, defs, uses, file, width, memo)
        yield f"{row.line:6d} | {row[column]:3d} | {cells} | {prefix}{row.text}"
    summary = report.summary(file)
    yield ""
    if file is RegFile.SGPR:
        yield f"Maximum # SGPR used {summary.peak_live:3d}, SGPRs allocated : {width:3d}"
        yield from ("", "Architecture info:", f"  SGPRs total: {report.registers.sgpr_addressable}")
    else:
        name = "VGPR" if file is RegFile.VGPR else "AGPR"
        requested = width
        allocated = -(-max(requested, 1) // report.registers.vgpr_granule) * report.registers.vgpr_granule
        yield (f"Maximum # {name} used {summary.peak_live:3d}, {name}s allocated by HW: {allocated:3d} "
               f"({requested} requested)")
        yield from ("", "Architecture info:", f"  {name}s total: {report.registers.vgpr_addressable_per_wave}",
                    f"  {name} allocation granularity: {report.registers.vgpr_granule}")


def render_rga(report: KernelReport, file: RegFile = RegFile.VGPR) -> str:
    """``kernel`` in RGA's livereg format for ``file`` (VGPR or SGPR mode)."""
    return "\n".join(rga_lines(report, file)) + "\n"
