"""``isalens serve``: a local page where editing a kernel recompiles it and shows registers, occupancy and cycles."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

from isalens.cli.common import EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="local explorer: edit a kernel, see its registers, occupancy and cycles as you type",
        description="Serve a local web page (127.0.0.1 unless --host) on FILE, or on every source file under DIR: "
                    "an editor beside the ISA listing, live-register counts, pressure chart, occupancy, per-loop "
                    "timing and advice, recompiled in the background after each edit. Prints the URL with its "
                    "access token. Only the files it was opened on are read or written. Needs the 'serve' extra.")
    p.add_argument("path", nargs="?", default=".", metavar="FILE|DIR", help="the source file, or a directory of them "
                   "(default: the current directory)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only); the token is still required")
    p.add_argument("--arch", "--target", action="append", default=[], metavar="TARGET",
                   help="initial target tab(s), repeatable or comma-separated (default gfx902)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]",
                   help="initial preprocessor define (editable on the page)")
    p.add_argument("--compile-timeout", type=float, default=60.0, metavar="SECONDS",
                   help="wall-clock limit of one compile and analysis (default 60)")
    p.add_argument("--compile-memory", default="2G", metavar="SIZE",
                   help="address-space limit of one compile (the analysis and the compiler; default 2G)")
    p.add_argument("--max-source", default="4M", metavar="SIZE", help="largest source the page compiles or saves")


def run(args: argparse.Namespace) -> int:
    from isalens.errors import IsalensError
    from isalens.reading import parse_size

    try:
        import starlette  # noqa: F401  (only checking it is there)
        import uvicorn  # noqa: F401
    except ImportError:
        raise IsalensError("isalens serve needs starlette and uvicorn: pip install 'isalens[serve]' "
                           "(scripts/setup.sh installs them)", code="toolchain-missing") from None
    from isalens.serve.app import ServeSettings, targets
    from isalens.serve.files import OpenedFiles
    from isalens.serve.run import serve
    from isalens.serve.worker import CompileLimits

    if not 0 <= args.port <= 65535:
        raise IsalensError("--port must be 0..65535", code="usage")
    if not args.compile_timeout > 0:
        raise IsalensError("--compile-timeout must be above 0 seconds", code="usage")
    try:
        memory, max_source = parse_size(args.compile_memory), parse_size(args.max_source)
    except ValueError as exc:
        raise IsalensError(f"--compile-memory/--max-source: {exc}", code="usage") from None
    known = {t["name"] for t in targets()}
    arches = tuple(a.strip() for item in args.arch for a in item.split(",") if a.strip()) or ("gfx902",)
    for a in arches:
        if a not in known:
            raise IsalensError(f"unknown target {a!r} (see `isalens arch list`)", code="usage")
    settings = ServeSettings(files=OpenedFiles.open(Path(args.path)), targets=arches, defines=tuple(args.defines),
                             limits=CompileLimits(args.compile_timeout, memory), max_source=max_source)
    with contextlib.suppress(KeyboardInterrupt):
        serve(settings, host=args.host, port=args.port)
    return EXIT_OK
