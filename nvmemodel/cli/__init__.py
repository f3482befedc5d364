"""Command line: ``nvmemodel <command>``. One module per command family, registered in :data:`COMMANDS`.

Each command module exposes ``register(subparsers)`` (adds its sub-parsers, each with
``set_defaults(run=function)``). Bad input never produces a traceback: errors print one
line naming the parameter and what is allowed, and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import NvmeModelError
from .ceilings import JSON_SCHEMA_ID

__all__ = ["COMMANDS", "JSON_SCHEMA_ID", "main"]

#: Command modules (under ``nvmemodel.cli``), in the order ``--help`` lists them.
COMMANDS = ["ceilings", "plan", "ingest", "plot", "fit", "reproduce", "listings", "discover", "jobs"]


class _Parser(argparse.ArgumentParser):
    """Misuse prints one line, ``nvmemodel: error: …`` (the usage is one --help away), exit 2."""

    def error(self, message: str):
        self.exit(2, f"nvmemodel: error: {message} (see '{self.prog} --help')\n")


def _build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = _Parser(prog="nvmemodel", description="How fast can an NVMe subsystem go, and why.")
    parser.add_argument("--version", action="version", version=f"nvmemodel {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except NvmeModelError as exc:
        print(f"nvmemodel: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `nvmemodel parameters | head`: the reader left, not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
