"""``isalens decode``: instruction text for hex encoding words (LLVM's disassembler) and, with --explain,
every field from isalens' own decoder.

Exit codes as for the other commands: 0 success, 2 bad input (one line naming the offending word or file).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from isalens.cli.common import EXIT_OK

__all__ = ["register", "run"]



def register(subparsers: Any) -> None:
    """Add the ``decode`` command to ``subparsers`` (from ``ArgumentParser.add_subparsers``)."""
    p = subparsers.add_parser(
        "decode", help="decode hex encoding words: LLVM's instruction text and every field (--explain)",
        description="Decode AMDGPU machine code given as hex dwords in listing order (e.g. `D8700400 3B00002A`), "
                    "the encoding words a listing prints after its instructions, or a code object's .text (--file). "
                    "The instruction text comes from LLVM's disassembler (llvm-mc); --explain adds every field "
                    "from isalens' own decoder (format, opcode number, registers, modifiers with their names).",
    )
    p.add_argument("words", nargs="*", metavar="WORD", help="hex dwords, 8 digits each (0x optional)")
    p.add_argument("--arch", "--target",
                   help="target, e.g. gfx902, gfx90a, gfx1100 (required for words and code objects)")
    p.add_argument("--file", help="a listing with encoding words (RGA/driver, llvm-objdump, ACO) or an ELF code object")
    p.add_argument("--explain", action="store_true", help="show every field of every instruction")
    p.add_argument("--wave", type=int, choices=(32, 64), help="wave size for LLVM's text on gfx10+ (default 32)")
    p.add_argument("--json", action="store_true", help="print JSON: words, text, format and fields per instruction")
    p.set_defaults(command="decode")


def run(args: argparse.Namespace) -> int:
    """Run ``isalens decode``."""
    from isalens.engine.decode import decode_file, decode_words, parse_words
    from isalens.errors import IsalensError
    from isalens.report.stats import decoded_dict, render_decoded_text

    if args.file and args.words:
        raise IsalensError("give either WORDS or --file, not both")
    if args.file:
        items = decode_file(args.file, args.arch)
    elif args.words:
        if not args.arch:
            raise IsalensError("decode needs --arch for hex words (e.g. --arch gfx902)", code="arch-required")
        items = decode_words(parse_words(args.words), args.arch, wave_size=args.wave)
    else:
        raise IsalensError("nothing to decode: give hex words (e.g. D8700400 3B00002A) or --file")
    if args.json:
        from isalens.report.document import document
        from isalens.report.serialize import dumps
        sys.stdout.write(dumps(document("decode", arch=args.arch, instructions=decoded_dict(items)), pretty=True))
    else:
        sys.stdout.write(render_decoded_text(items, explain=args.explain))
    return EXIT_OK
