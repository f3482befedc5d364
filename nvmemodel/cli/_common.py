"""Helpers shared by the command modules."""

from __future__ import annotations

import numpy as np

import argparse
import math
import re

from ..errors import MissingDependencyError, ParameterError

#: Most drive counts one command evaluates (checked before a range is built).
MAX_DRIVE_COUNTS = 100_000


def parse_drives(text: str, option: str = "--drives") -> list[int]:
    """Drive counts from ``'4'``, ``'1-24'`` or ``'1,2,4,8'``: every part a count ≥ 1 or a rising range,
    no empty part (``'1,,2'`` is a typo, not ``'1,2'``), each count once."""
    expected = "counts ≥ 1 like '4', '1-24' or '1,2,4,8' (no empty parts, ranges low-high)"
    out: list[int] = []
    try:
        for part in text.split(","):
            part = part.strip()
            if not part:
                raise ValueError(part)
            if "-" in part:
                lo, hi = (int(v) for v in part.split("-", 1))
                if not 1 <= lo <= hi:
                    raise ValueError(part)
                if hi - lo + 1 + len(out) > MAX_DRIVE_COUNTS:
                    raise ParameterError(option, text, f"at most {MAX_DRIVE_COUNTS:,} drive counts in all")
                out.extend(range(lo, hi + 1))
            else:
                n = int(part)
                if n < 1:
                    raise ValueError(part)
                out.append(n)
    except ParameterError:
        raise
    except ValueError:
        raise ParameterError(option, text, expected) from None
    if len(set(out)) != len(out):
        raise ParameterError(option, text, f"{expected}; each count once")
    return out


def whole_number(minimum: int):
    """argparse ``type=``: a whole number ≥ ``minimum`` (``--jobs 0``, ``--limit -1`` are refused, not defaulted)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is not allowed: expected a whole number ≥ {minimum}")
        return value
    parse.__name__ = f"whole number ≥ {minimum}"
    return parse


positive_int = whole_number(1)


def check_sysfs_root(root: str, option: str = "--sysfs-root") -> str:
    """``root`` if it is a folder holding ``sys/`` (``/`` on Linux, or a copy of a machine's /sys tree)."""
    import pathlib

    p = pathlib.Path(root)
    if not p.is_dir():
        raise ParameterError(option, root, "an existing folder holding sys/ (default /)")
    if not (p / "sys").is_dir():
        raise ParameterError(option, root, f"a folder holding sys/ ({p / 'sys'} does not exist)")
    return root


def need_packages(needed_for: str, *packages: str) -> None:
    """Refuse a command that draws, before any work, when a package it draws with is not installed (matplotlib
    is not a core dependency): one ``nvmemodel: error:`` line and exit 2 (docs/cli.md), not an ImportError
    traceback at the end of the work."""
    import importlib

    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError:
            raise MissingDependencyError(package, needed_for) from None


def say_warnings(caught, *, others_as_warnings: bool = False) -> None:
    """Warnings recorded while reading results, one ``nvmemodel: warning:`` line each (a skipped non-result file is
    said by ingest's summary, not here); with ``others_as_warnings`` only ingest's are printed and the rest issued
    again as warnings."""
    import sys
    import warnings

    from ..errors import IngestWarning

    for w in caught:
        if others_as_warnings and not issubclass(w.category, IngestWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        elif not str(w.message).startswith("skipped "):
            print(f"nvmemodel: warning: {w.message}", file=sys.stderr)


def json_number(x: float):
    """A float for JSON, ``None`` (null) where it is not finite."""
    return None if not math.isfinite(x) else float(x)


def print_curve(curve, *, explain: bool = False, per_group: bool = False) -> None:
    """A scaling curve as a table (drives, IOPS, GB/s, GiB/s, binding), every component at the last point,
    and with ``explain`` the plain-language account. ``per_group``: a curve of groups also lists each group's drives
    per point (a curve of one drive model is one group: no such column)."""
    names = curve.groups if per_group else ()
    width = 9 * len(names)
    print(f"\n{'drives':>6} {'IOPS':>14} {'GB/s':>9} {'GiB/s':>9}  " + (f"{'per group':<{width}}  " if names else "")
          + "binding")
    # a mixed topology's curve names its groups; a uniform one has none to name (QA s25, H8)
    binding = curve.describe_binding_at if hasattr(curve.topology, "groups") else curve.binding_at
    for i, n in enumerate(curve.drives):
        x = curve.bandwidth_at(int(n))
        per = " ".join(f"{int(k):>3}" for k in curve.group_drives[:, i]) if names else ""
        print(f"{int(n):>6} {curve.iops_at(int(n)):>14,.0f} {x / 1e9:>9.3f} {x / 2**30:>9.3f}  "
              + (f"{per:<{max(width, len(per))}}  " if names else "") + binding(int(n)))
    if names:
        print("  (per group: drives of " + ", ".join(names) + ")")
    note = getattr(curve, "upper_bound_note", None)  # host layers (or a group's drive rating) not known (issue 18)
    if note:
        print(f"{'  ' if names else ''}({note})")
    print_components(curve, explain=explain)


def print_components(curve, *, explain: bool = False) -> None:
    """Every component at the curve's last drive count, and with ``explain`` the plain-language account."""
    last = int(curve.drives[-1])
    print(f"\nEvery component at {last} drive(s) (alone, IOPS / GB/s / headroom):")
    from ..ceiling.drive import unknown_drive_fields

    missing = unknown_drive_fields(getattr(curve, "parameters", {}) or {})
    for ceil in curve.ceilings_at(last):
        partly = ceil.component == "drive" and missing and np.isfinite(ceil.iops)
        print("  " + repr(ceil) + (f"  (at most: {' and '.join(missing)} not known)" if partly else ""))
    if explain:
        print("\n" + curve.explain() + "\n\n" + curve.explain(last))


# --- the command line's own rules, checked once for every command (docs/cli.md, "Numbers and lists") -------------

#: options whose value is free text or a path: a comma there is no list separator
FREE_TEXT = frozenset({"path_regex", "path_pattern", "title", "fio", "output", "out", "plot", "costs_out",
                       "sysfs_root", "folder", "paths", "base", "new", "parameter"})
#: option → (options of which one must be given too, what it does): without them it would be ignored
NEEDS = {"order": (("group",), "it says how --group's drives are added"),
         "kind": (("logs",), "it picks which --logs to draw"),
         "job": (("histogram",), "it picks the job of the --histogram file")}
_RESULTS_CHART = ("x", "y", "hue", "latency", "no_little", "no_latency", "percentiles", "preset", "set", "labels",
                  "path_regex", "path_pattern")
#: (command, option) → options that option's mode does not read: given beside it, they would be ignored
IGNORED_BESIDE = {("plot", "histogram"): _RESULTS_CHART + ("kind",),
                  ("plot", "logs"): _RESULTS_CHART + ("direction", "job")}
#: metavars of repeatable NAME=VALUE options: a name given twice would leave only its last value
_KEYED = re.compile(r"^[A-Z]+=[A-Z]+$")


#: options that name a file or folder a command writes
OUTPUTS = ("output", "out", "plot", "costs_out")


def not_an_input(output: str, inputs, option: str) -> None:
    """Refuse an ``output`` that is one of the ``inputs`` (the same file after following links, or a hard link to
    it): ``plot r.png -o r.png`` would overwrite what it reads; inputs are only read."""
    import os

    try:
        out = os.stat(output)
    except OSError:
        out = None
    target = os.path.realpath(output)
    for given in inputs:
        same = target == os.path.realpath(given)
        if not same and out is not None:
            try:
                st = os.stat(given)
                same = (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino)
            except OSError:
                pass
        if same:
            raise ParameterError(option, output, f"a file that is not one of the inputs ({given} is read by this "
                                                 "command: inputs are never overwritten)")


def split_list(text: str, option: str, expected: str = "comma-separated values") -> list[str]:
    """``text``'s comma-separated parts, stripped; an empty part (``'4,'``, ``'a,,b'``) or an empty text is
    refused naming ``option``: it is a typo, not a shorter list."""
    parts = [p.strip() for p in str(text).split(",")]
    if not str(text).strip() or any(not p for p in parts):
        raise ParameterError(option, text, f"{expected} without empty parts ('4,' and '4,,5' are typos)")
    return parts


def given_options(parser: argparse.ArgumentParser, argv) -> set[str]:
    """The ``dest`` of every option typed on the command line ``argv`` (not those left at their default): ``argv``
    parsed again with every default suppressed (argparse itself resolves abbreviations such as ``--ord``)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    actions = [a for s in subs for c in s.choices.values() for a in c._actions] + list(parser._actions)
    saved = [(a, a.default) for a in actions]
    try:
        for a in actions:
            if not isinstance(a, (argparse._SubParsersAction, argparse._HelpAction, argparse._VersionAction)):
                a.default = argparse.SUPPRESS
        ns = parser.parse_args(argv)
    finally:
        for a, d in saved:
            a.default = d
    return set(vars(ns)) - {"command", "run"}


def check_command_line(parser: argparse.ArgumentParser, argv, args, command: argparse.ArgumentParser,
                       inputs=()) -> None:
    """The rules docs/cli.md states for every option, checked in one place before a command runs: an empty value is
    an error (not the default); a list has no empty part; a repeatable ``NAME=VALUE`` names each NAME once; an option
    that would be ignored (:data:`NEEDS`, :data:`IGNORED_BESIDE`) is refused. ``inputs``: the ``dest`` of options that
    name input files (their own checks apply)."""
    given = given_options(parser, argv)
    name = args.command
    for action in command._actions:
        if action.dest not in given:
            continue
        option = action.option_strings[-1] if action.option_strings else action.dest
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        for v in values:
            if not isinstance(v, str):
                continue
            if not v.strip() and action.dest not in OUTPUTS:  # (each output's own check says what it takes)
                raise ParameterError(option, v, "a value" if action.required or not action.option_strings else
                                     "a value (an empty one is not the default: leave the option out)")
            if action.dest not in FREE_TEXT and action.dest not in inputs and "," in v:
                split_list(v, option, "a comma-separated list")
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        if isinstance(action, argparse._AppendAction) and _KEYED.match(metavar):
            seen: dict[str, str] = {}
            for v in values:
                key = str(v).partition("=")[0].strip()
                if key in seen:
                    raise ParameterError(option, v, f"each {metavar.split('=')[0]} once ({option} {seen[key]} is "
                                                     "given too: only one of them would be used)")
                seen[key] = str(v)
    read = [v for d in inputs for v in (lambda x: x if isinstance(x, list) else [x])(getattr(args, d, None))
            if isinstance(v, str) and v]
    for dest in OUTPUTS:
        if dest in given and isinstance(getattr(args, dest, None), str):
            not_an_input(getattr(args, dest), read, _option(command, dest))
    for dest in sorted(given):
        needs = NEEDS.get(dest)
        if needs and not given & set(needs[0]) and any(a.dest == dest for a in command._actions):
            others = " or ".join(_option(command, n) for n in needs[0])
            raise ParameterError(_option(command, dest), getattr(args, dest), f"{others} too ({needs[1]}; without "
                                 "it the option would be ignored)")
        ignored = [d for d in IGNORED_BESIDE.get((name, dest), ()) if d in given]
        if ignored:
            raise ParameterError(_option(command, ignored[0]), getattr(args, ignored[0]),
                                 f"no {_option(command, ignored[0])} beside {_option(command, dest)}, which does not "
                                 "read it (it would be ignored)")


def _option(command: argparse.ArgumentParser, dest: str) -> str:
    """How ``dest`` is typed (``--order``)."""
    for a in command._actions:
        if a.dest == dest:
            return a.option_strings[-1] if a.option_strings else dest
    return f"--{dest.replace('_', '-')}"
