"""Command line: ``nvmemodel <command>``. One module per command family, registered in :data:`COMMANDS`.

Each command module exposes ``register(subparsers)`` (adds its sub-parsers, each with
``set_defaults(run=function)``). Bad input never produces a traceback: errors print one
line naming the parameter and what is allowed, and exit with status 2. Files a command reads
are checked first (:data:`INPUT_FILES`); docs/cli.md lists what the command line refuses and why.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

from ..errors import NvmeModelError
from .ceilings import JSON_SCHEMA_ID

__all__ = ["COMMANDS", "INPUT_FILES", "JSON_SCHEMA_ID", "input_options", "main"]

#: Command modules (under ``nvmemodel.cli``), in the order ``--help`` lists them.
COMMANDS = ["ceilings", "sweep", "plan", "ingest", "plot", "fit", "compare", "reproduce", "listings", "discover",
            "jobs", "calibrate"]


class _Parser(argparse.ArgumentParser):
    """Misuse prints one line, ``nvmemodel: error: …`` (the usage is one --help away), exit 2."""

    def error(self, message: str):
        self.exit(2, f"nvmemodel: error: {message} (see '{self.prog} --help')\n")


def _build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (the first argument) only the command modules up to the one that registers
    it are imported (start-up time: ``nvmemodel ceilings`` needs none of the others), else all of them."""
    from .. import __version__

    parser = _Parser(prog="nvmemodel", description="How fast can an NVMe subsystem go, and why.")
    parser.add_argument("--version", action="version", version=f"nvmemodel {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
        if command is not None and command in sub.choices:
            break
    return parser


#: Options (argparse ``dest``) that name files a command reads, and whether a folder is allowed. Before any
#: command runs, each value is checked by :func:`nvmemodel.userfiles.check_input`: a regular file (or
#: folder) within the size limit, so a FIFO, a device or a missing file is one error line, never a hang.
INPUT_FILES = {"paths": True, "labels": False, "lspci": False, "lspci_tree": False, "logs": False,
               "histogram": False, "base": True, "new": True}
#: Any other option whose metavar ends in FILE, LOG or JSON (``--topology LSPCI_FILE``) names a file the
#: command reads and is checked the same way: a new option spelled so is covered without a list to keep.
_INPUT_METAVAR = re.compile(r"(?:^|_)(?:FILE|LOG|JSON)$")


def input_options(command: argparse.ArgumentParser) -> dict[str, tuple[str, bool]]:
    """``dest → (option as typed, folders allowed)`` for every option of ``command`` that names a file it reads."""
    out = {}
    for action in command._actions:
        folders = INPUT_FILES.get(action.dest)
        if folders is None and isinstance(action.metavar, str) and _INPUT_METAVAR.search(action.metavar):
            folders = False
        if folders is not None:
            out[action.dest] = (action.option_strings[-1] if action.option_strings else action.dest, folders)
    return out


def _check_inputs(parser: argparse.ArgumentParser, args) -> None:
    from ..userfiles import check_input

    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for dest, (what, folders) in input_options(sub.choices[args.command]).items():
        value = getattr(args, dest, None)
        for path in value if isinstance(value, list) else [] if value is None else [value]:
            check_input(path, what=what, folders=folders)


def _check_rules(parser: argparse.ArgumentParser, argv, args) -> None:
    """docs/cli.md's rules for every option (empty values, empty list parts, options that would be ignored)."""
    from ._common import check_command_line

    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    command = sub.choices[args.command]
    check_command_line(parser, argv, args, command, inputs=set(input_options(command)))


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    first = args_in[0] if args_in and not args_in[0].startswith("-") else None
    parser = _build_parser(first)
    args = parser.parse_args(argv)
    try:
        _check_inputs(parser, args)
        _check_rules(parser, args_in, args)
        return args.run(args)
    except NvmeModelError as exc:
        print(f"nvmemodel: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `nvmemodel parameters | head`: the reader left, not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # last resort for a file the checks did not foresee (disk full, permissions …)
        where = f"{exc.filename}: " if exc.filename is not None else ""
        print(f"nvmemodel: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nvmemodel: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: Exception) -> str:
    """The message on one line: a value holding a line break (shown by repr) stays one line, and a
    message that spans lines has them joined, so the error is always one ``nvmemodel: error:`` line."""
    return " ".join(str(exc).split("\n"))
