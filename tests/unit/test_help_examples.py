"""Issue 31 item 6: every example at the end of every subcommand's ``--help`` runs as printed.

The examples are read from the help text users see (``isalens COMMAND --help``), and each runs through the README
test's machinery (tests/unit/test_readme.run_example): placeholders get the same bundled stand-ins, outputs go to a
temporary directory, examples that need a compiler or RADV skip cleanly without it. Each must exit 0, or the code
its comment documents as ``(exit N)``, and print no traceback. ``results.parquet`` is made by a scan of the
bundled ``kernel.s`` stand-in first.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from isalens.cli import build_parser
from tests.unit.test_readme import NOT_BUNDLED, STAND_INS, run_example


def _help_examples() -> dict[str, list[str]]:
    """Subcommand -> the example lines its --help prints after 'examples:'."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    out: dict[str, list[str]] = {}
    for name, command in sub.choices.items():  # type: ignore[union-attr]
        text = command.format_help()
        tail = text.split("\nexamples:\n", 1)[1] if "\nexamples:\n" in text else ""
        out[name] = [line.strip() for line in tail.splitlines() if line.strip().startswith("isalens ")]
    return out


HELP = _help_examples()
LINES = [(name, line) for name, lines in HELP.items() for line in lines]
MISSING = {k: v for k, v in NOT_BUNDLED.items() if k != "results.parquet"}


def test_every_subcommand_has_examples_of_itself() -> None:
    assert len(HELP) >= 18
    for name, lines in HELP.items():
        assert lines, f"isalens {name} --help has no examples"
        assert all(line.split()[1] == name for line in lines), lines


@pytest.mark.parametrize(("name", "line"), LINES, ids=[f"{n}:{i}" for i, (n, _l) in enumerate(LINES)])
def test_help_example_runs(name: str, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    documented = re.search(r"#.*\(exit (\d+)\)", line)
    if name == "query" and "results.parquet" in line:
        # the table the query reads: a scan of the bundled kernel.s stand-in, written where the example runs
        from isalens.cli import main
        monkeypatch.chdir(tmp_path)
        assert main(["scan", str(STAND_INS["kernel.s"]), "--out", "results.parquet", "--workers", "1"]) == 0
        capsys.readouterr()
    run_example(line, tmp_path, monkeypatch, capsys, not_bundled=MISSING,
                expected_exit=int(documented.group(1)) if documented else 0)


@pytest.mark.parametrize(("argv", "usage", "unknown"), [
    (["livereg", "k.s", "--lines"], "usage: isalens livereg ", "--lines"),
    (["timing", "--frob", "k.s"], "usage: isalens timing ", "--frob"),
    (["--frob", "livereg", "k.s"], "usage: isalens [-h]", "--frob"),  # before the command: the top level's
])
def test_an_unknown_argument_gets_the_usage_of_where_it_was_given(
        argv: list[str], usage: str, unknown: str, capsys: pytest.CaptureFixture[str]) -> None:
    # argparse reported a command's unknown option under the top-level usage, which names none of its options
    from isalens.cli import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith(usage), err
    assert err.endswith(f"isalens: error: unrecognized arguments: {unknown}\n")
