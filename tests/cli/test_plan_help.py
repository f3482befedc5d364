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
