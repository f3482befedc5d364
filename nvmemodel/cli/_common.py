"""Helpers shared by the command modules."""

from __future__ import annotations

import numpy as np

import argparse
import math

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
