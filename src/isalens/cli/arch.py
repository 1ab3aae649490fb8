"""``isalens arch``: list, show or check the known targets."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from isalens.cli.common import EXIT_INPUT, EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("arch", help="list, show or check the known targets")
    p.add_argument("action", choices=("list", "show", "check"), nargs="?", default="list",
                   help="list targets, show one, or check the data files for consistency")
    p.add_argument("name", nargs="?", help="target to show")


def run(args: argparse.Namespace) -> int:
    from isalens.arch.loader import all_archs
    from isalens.engine.target import check_arch_data, resolve_arch
    from isalens.errors import IsalensError

    if args.action == "check":
        problems = check_arch_data()
        for problem in problems:
            sys.stderr.write(f"isalens: arch data: {problem}\n")
        sys.stdout.write(f"{len(all_archs())} target names checked: "
                         f"{'ok' if not problems else f'{len(problems)} problem(s)'}\n")
        return EXIT_OK if not problems else EXIT_INPUT
    if args.action == "show":
        if not args.name:
            raise IsalensError("arch show needs a target name, e.g. `isalens arch show gfx90a`")
        spec = resolve_arch(args.name)
        for field in spec.__dataclass_fields__:
            sys.stdout.write(f"{field:28s} {getattr(spec, field)}\n")
        return EXIT_OK
    seen = set()
    for name, spec in sorted(all_archs().items()):
        if spec.name != name or name in seen:
            continue
        seen.add(name)
        aliases = f"  ({', '.join(spec.aliases)})" if spec.aliases else ""
        sys.stdout.write(f"{name:8s} {spec.family:6s} wave{'/'.join(str(w) for w in spec.wave_sizes)}{aliases}\n")
    return EXIT_OK
