"""Per-line CSV: RGA's columns (line, live count, instruction) plus ours, one row per instruction."""

from __future__ import annotations

import csv
import io

from isalens.report.model import LiveRegReport

COLUMNS = ("kernel", "line", "index", "live_vgpr", "live_sgpr", "live_agpr", "live_vgpr_halves", "vgpr_half_only",
           "block", "loop_depth", "labels", "instruction")


def render_csv(report: LiveRegReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for k in report.kernels:
        for r in k.lines:
            writer.writerow((k.name, r.line, r.index, r.live_vgpr, r.live_sgpr, r.live_agpr, r.live_vgpr_halves,
                             r.vgpr_half_only, r.block, r.loop_depth, " ".join(r.labels), r.text))
    return out.getvalue()
