"""Command line: a package of thin commands over :mod:`isalens.engine`, and the one place that turns errors
into exit codes.

Exit codes: 0 success, 2 bad input or usage (one-line ``file:line: error: ...`` message), 3 internal error
(a bug: one line, traceback with ``ISALENS_DEBUG=1``). Each command module registers its flags and runs;
heavy layers are imported only inside ``run``, so ``isalens --help`` and ``--version`` start fast.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, NoReturn

from isalens import __version__
from isalens.cli import examples
from isalens.cli.common import EXIT_INPUT, EXIT_INTERNAL, EXIT_OK

if TYPE_CHECKING:
    from isalens.progress import StatusLine

__all__ = ["build_parser", "main"]

#: command name -> (its module in this package, the function there that runs it). A command's module is imported
#: only when that command runs (or ``isalens --help`` lists them all): importing the 18 modules and building every
#: sub-command's flags was 0.03-0.05 s of a small kernel's 0.23 s ``livereg --json`` (docs/performance.md).
_COMMANDS: dict[str, tuple[str, str]] = {
    "livereg": ("livereg", "run"),
    "analyze": ("analyze", "run"),
    "compare": ("compare", "run"),
    "occupancy": ("occupancy", "run_occupancy"),
    "tile": ("occupancy", "run_tile"),
    "vliw": ("vliw", "run"),
    "toolchain": ("toolchain", "run"),
    "decode": ("decode", "run"),
    "timing": ("timing", "run"),
    "advise": ("advise", "run"),
    "sweep": ("sweep", "run"),
    "list": ("list", "run"),
    "scan": ("scan", "run"),
    "query": ("query", "run"),
    "diff": ("diff", "run"),
    "check": ("check", "run"),
    "arch": ("arch", "run"),
    "serve": ("serve", "run"),
}
#: the modules whose ``register`` adds the sub-commands, in the order ``isalens --help`` lists them
_MODULES = ("livereg", "analyze", "compare", "occupancy", "vliw", "toolchain", "decode", "timing", "advise", "sweep",
            "list", "scan", "query", "diff", "check", "arch", "serve")


def _command_module(name: str) -> ModuleType:
    return importlib.import_module(f"isalens.cli.{name}")


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", examples.Formatter)  # argparse's, without its `import shutil`
        super().__init__(*args, **kwargs)
        #: the top-level parser's command parsers by name (:func:`build_parser`)
        self.commands: Mapping[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"isalens: error: {message}\n")
        raise SystemExit(EXIT_INPUT)


class _Version(argparse.Action):
    """``--version``: also names the running core (compiled or pure Python), imported only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from isalens._core import CORE
        sys.stdout.write(f"isalens {__version__} (core: {CORE})\n")
        parser.exit()


def build_parser(command: str | None = None) -> _Parser:
    """The argument parser of every sub-command, or of ``command`` alone (the others' modules stay unimported;
    parsing a command line that starts with ``command`` gives the same result with either)."""
    parser = _Parser(
        prog="isalens",
        description="Static analysis of AMD GPU ISA: register liveness and pressure, occupancy, instruction "
                    "statistics, checked against real compilers.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and the core that runs, exit")
    _add_max_input_size(parser, argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (_MODULES if command is None else (_COMMANDS[command][0],)):
        _command_module(module).register(sub)
    examples.attach(sub.choices)  # every command's --help ends with examples (tests/unit/test_help_examples.py)
    parser.commands = sub.choices
    for command_parser in sub.choices.values():  # before or after the command name alike
        _add_max_input_size(command_parser, argparse.SUPPRESS)
    return parser


def _add_max_input_size(p: argparse.ArgumentParser, default: Any) -> None:
    p.add_argument("--max-input-size", metavar="SIZE", default=default,
                   help="largest input file and largest decompressed bundle read, e.g. 512M or 4G (default 1G, "
                        "or ISALENS_MAX_INPUT_SIZE); larger inputs are refused before they are read")


def _apply_max_input_size(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    from isalens.reading import parse_size, set_max_input_size

    value = getattr(args, "max_input_size", None)
    set_max_input_size(None)  # each call of main stands alone (tests and embedders call it repeatedly)
    if value is None:
        return
    try:
        set_max_input_size(parse_size(value))
    except ValueError as exc:
        parser.error(f"--max-input-size: {exc}")


def main(argv: Sequence[str] | None = None) -> int:
    # Python's cyclic garbage collector walks every live object each time the heap has grown by a quarter:
    # with the millions of small objects a large kernel keeps, pausing it cut `livereg`'s time on a
    # 100k-instruction kernel by 27-45% (docs/performance.md). Analyses make no reference cycles worth collecting
    # (memory is unchanged without it), so it is paused for the command and resumed after; paused from the start,
    # as the imports of a small run's ~200 modules triggered ~28 collections of no garbage worth the walk.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv)
    finally:
        if collecting:
            gc.enable()


def _main(argv: Sequence[str] | None) -> int:
    # [*argv], not list(argv): importing the `list` command's module binds `list` in this package's namespace
    argv = sys.argv[1:] if argv is None else [*argv]
    from isalens import classcode
    # before anything makes a class (the parser's checks import isalens.errors and its records): their methods
    # come compiled
    classcode.install()
    # a command line that starts with a command's name needs that command's flags only; anything else (top-level
    # --help, options before the command, a mistyped command) gets the whole parser and argparse's own answer
    parser = build_parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # as parse_args would, but with the command's own usage: argparse reports a command's unknown arguments
        # from the top-level parser, whose usage line names no option of the command
        # (an unknown option before the command's name is the top level's)
        after = args.command and unknown[0] in argv and argv.index(unknown[0]) > argv.index(args.command)
        command_parser = parser.commands.get(args.command) if after else None
        (command_parser or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.print_help()
        return EXIT_INPUT
    _apply_max_input_size(args, parser)
    from isalens.errors import IsalensError
    module, function = _COMMANDS[args.command]
    command: Callable[[argparse.Namespace], int] = getattr(_command_module(module), function)
    try:
        if sys.stderr.isatty():  # a status line while a long run prints nothing yet (isalens.progress)
            return _with_status_line(command, args)
        return command(args)
    except IsalensError as exc:
        sys.stderr.write(f"isalens: {exc}\n")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug in isalens: one line, traceback only on request
        if os.environ.get("ISALENS_DEBUG"):
            raise
        sys.stderr.write(f"isalens: internal error: {type(exc).__name__}: {exc} "
                         "(please report it; set ISALENS_DEBUG=1 for a traceback)\n")
        return EXIT_INTERNAL


def run() -> NoReturn:
    """The ``isalens`` command: :func:`main`, then the process ends without tearing the interpreter down.

    The per-text decoding caches outlive a command on purpose (a library's kernels share instruction
    texts), and freeing them one object at a time at exit, with the collector's last pass over them, took
    0.15 s after a 100k-instruction kernel and 1.7 s after a 1M one (docs/performance.md). The exit
    handlers run first (the RADV front end removes its runtime directory), then the output is flushed."""
    import atexit
    import contextlib

    # the collector stays paused to the end: :func:`main` resumes it only if it ran before, and resumed here it
    # would walk every object the command made (all still young) at the exit handlers' first allocation, for
    # nothing: 45 ms after a 100k-instruction kernel (docs/performance.md, twenty-eighth session)
    gc.disable()
    code = main()
    atexit._run_exitfuncs()  # first, as Python's own exit does: a handler may still write
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe (`| head`) or a closed stream: nothing left to say
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


class _ClearsStatus:
    """A stream that erases the status line before the command's own first output."""

    def __init__(self, stream: IO[str], status: StatusLine) -> None:
        self._stream, self._status = stream, status

    def write(self, text: str) -> int:
        self._status.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _with_status_line(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    import shutil

    from isalens.progress import StatusLine, reporting

    out, err = sys.stdout, sys.stderr
    # one column short of the terminal's width: a line that wrapped could not be erased in place
    status = StatusLine(err, width=max(shutil.get_terminal_size((100, 24)).columns - 1, 20))
    sys.stdout, sys.stderr = _ClearsStatus(out, status), _ClearsStatus(err, status)
    try:
        with reporting(status):
            return command(args)
    finally:
        sys.stdout, sys.stderr = out, err
        status.clear()
