"""``isalens occupancy`` and ``isalens tile``: resource budgets without an ISA file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from isalens.cli.common import EXIT_OK, PLOT_ENDINGS, add_json_options, check_output_files, workgroup_size


def register(sub: Any) -> None:
    occ = sub.add_parser(
        "occupancy", help="waves per SIMD from registers, LDS and workgroup size; the limiter; what to change",
        description="Occupancy as LLVM computes it ('; Occupancy:') and as it really is when whole workgroups must "
                    "fit on a CU, the waves each resource allows, the limiter, and how much of each resource to "
                    "remove to reach the next level.",
    )
    occ.add_argument("--arch", required=True, help="target, e.g. gfx902, gfx90a, gfx1100")
    occ.add_argument("--vgprs", type=int, required=True, help="VGPRs per thread (architectural)")
    occ.add_argument("--agprs", type=int, default=0, help="AGPRs per thread (CDNA)")
    occ.add_argument("--sgprs", type=int, default=0, help="SGPRs per wave incl. VCC etc. (limits only before gfx10)")
    occ.add_argument("--lds", type=int, default=0, help="LDS bytes per workgroup")
    occ.add_argument("--wg", metavar="N|X,Y,Z",
                     help="threads per workgroup (default: 1024, what LLVM assumes)")
    occ.add_argument("--wave", type=int, choices=(32, 64), help="wave size (default: the target's)")
    occ.add_argument("--mode", choices=("cu", "wgp"), help="gfx10+: CU or WGP mode (default: WGP, as LLVM)")
    add_json_options(occ)
    occ.add_argument("--curves", action="store_true", help="JSON: add occupancy vs VGPRs, LDS and workgroup size")
    occ.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                     help="draw occupancy vs VGPRs, LDS and workgroup size (needs matplotlib)")

    tile = sub.add_parser("tile", help="LDS tile planner for neighbourhood filters",
                          description="Loads, border overhead and LDS bytes of a tile plus its border, and a table "
                                      "over candidate tile sizes.")
    tile.add_argument("--dims", required=True, help="tile of outputs: 64, 16x16 or 8x8x8")
    tile.add_argument("--radius", type=int, default=1, help="border width in items (default 1)")
    tile.add_argument("--bytes-per-item", type=int, default=4, help="bytes per staged item (default 4)")
    tile.add_argument("--arch", help="target, for LDS allocation and groups per CU")
    add_json_options(tile)


def run_occupancy(args: argparse.Namespace) -> int:
    from isalens.engine.occupancy import compute_occupancy
    from isalens.errors import IsalensError
    from isalens.report.occupancy import curves_dict, occupancy_dict, render_occupancy_text

    check_output_files((args.plot, PLOT_ENDINGS))
    wg = workgroup_size(args.wg)
    result = compute_occupancy(
        args.arch, vgprs=args.vgprs, sgprs=args.sgprs, agprs=args.agprs, lds_bytes=args.lds,
        workgroup_size=None if wg is None else wg[0] * wg[1] * wg[2],
        wave_size=args.wave, wgp_mode=None if args.mode is None else args.mode == "wgp",
        with_curves=args.curves or args.plot is not None,
    )
    if args.plot is not None:
        from isalens.report.plot import PlotUnavailable, plot_occupancy
        current = {"vgprs": args.vgprs, "lds_bytes": args.lds,
                   "workgroup_size": result.occupancy.waves_per_workgroup * result.occupancy.wave_size}
        try:
            plot_occupancy(result.occupancy, result.curves, current, args.plot)
        except (PlotUnavailable, ValueError, OSError) as exc:
            raise IsalensError(str(exc), file=str(args.plot), code="plot") from None
        sys.stderr.write(f"isalens: wrote {args.plot}\n")
    if args.json:
        from isalens.report.document import document
        from isalens.report.serialize import dumps
        doc = document("occupancy", occupancy=occupancy_dict(result.occupancy, workgroup_limit=result.workgroup_limit))
        if args.curves:
            doc["curves"] = curves_dict(result.curves)
        sys.stdout.write(dumps(doc, pretty=args.pretty))
    else:
        assumed = "" if args.wg is not None else " (workgroup size not given: 1024 assumed, as LLVM does)"
        sys.stdout.write(render_occupancy_text(result.occupancy, title=f"occupancy{assumed}"))
    return EXIT_OK


def _parse_dims(text: str) -> tuple[int, ...]:
    from isalens.errors import IsalensError
    try:
        return tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise IsalensError(f"--dims {text!r}: expected sizes like 64, 16x16 or 8x8x8") from None


def run_tile(args: argparse.Namespace) -> int:
    from isalens.engine.tile import plan_tiles
    from isalens.report.occupancy import render_tiles_text, tile_dict

    plan, table = plan_tiles(_parse_dims(args.dims), args.radius, args.bytes_per_item, args.arch)
    if args.json:
        from isalens.report.document import document
        from isalens.report.serialize import dumps
        doc = document("tile", tile=tile_dict(plan), table=[tile_dict(t) for t in table])
        sys.stdout.write(dumps(doc, pretty=args.pretty))
    else:
        sys.stdout.write(render_tiles_text(plan, table))
    return EXIT_OK
