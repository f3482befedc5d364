"""``nvmemodel plan --help``: its examples are one command per line as typed (a line continuation in the help
text must be escaped, else the two lines run together with the indentation inside), and ``--connection`` names
every direct attach the design space accepts (docs/planning.md)."""

import pytest

from nvmemodel import cli
from nvmemodel.plan.space import _DIRECT


def _help(capsys) -> str:
    with pytest.raises(SystemExit):
        cli.main(["plan", "--help"])
    return capsys.readouterr().out


def test_plan_help_examples_keep_their_line_breaks(capsys):
    examples = _help(capsys).split("examples:", 1)[1].split("\n\n", 1)[0]
    lines = examples.strip("\n").splitlines()
    # each continued example line ends in a backslash and the next one starts indented, as a shell reads it
    assert all(len(line) <= 120 for line in lines), [line for line in lines if len(line) > 120]
    assert any(line.rstrip().endswith("count=8 \\") for line in lines)
    assert "count=8       --group" not in examples


def test_plan_help_names_every_direct_attach(capsys):
    text = " ".join(_help(capsys).split())
    for name in _DIRECT:
        assert name in text, name



def _subcommands() -> list[str]:
    import argparse

    parser = cli._build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


@pytest.mark.parametrize("command", _subcommands())
def test_every_commands_examples_keep_their_line_breaks(command, capsys):
    """The same slip was in ``ceilings --help`` (an unescaped backslash ran two example lines together, the
    second's indentation inside): no example line of any command carries a run of spaces mid-command."""
    import re

    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    examples = capsys.readouterr().out.partition("examples:")[2]
    joined = [line for line in examples.splitlines() if line.startswith("  nvmemodel") and re.search(r"\S {4,}-", line)]
    assert joined == []
