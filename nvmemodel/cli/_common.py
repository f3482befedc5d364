"""Helpers shared by the command modules."""

from __future__ import annotations

import math

from ..errors import ParameterError

#: Most drive counts one command evaluates (checked before a range is built).
MAX_DRIVE_COUNTS = 100_000


def parse_drives(text: str) -> list[int]:
    """Drive counts from ``'4'``, ``'1-24'`` or ``'1,2,4,8'``."""
    out: list[int] = []
    try:
        for part in text.split(","):
            if "-" in part:
                lo, hi = (int(v) for v in part.split("-", 1))
                if hi - lo + 1 + len(out) > MAX_DRIVE_COUNTS:
                    raise ParameterError("--drives", text, f"at most {MAX_DRIVE_COUNTS:,} drive counts in all")
                out.extend(range(lo, hi + 1))
            elif part.strip():
                out.append(int(part))
    except ParameterError:
        raise
    except ValueError:
        raise ParameterError("--drives", text, "counts like '4', '1-24' or '1,2,4,8'") from None
    if not out:
        raise ParameterError("--drives", text, "at least one drive count")
    return out


def json_number(x: float):
    """A float for JSON, ``None`` (null) where it is not finite."""
    return None if not math.isfinite(x) else float(x)


def print_curve(curve, *, explain: bool = False) -> None:
    """A scaling curve as a table (drives, IOPS, GB/s, GiB/s, binding), every component at the last point,
    and with ``explain`` the plain-language account."""
    print(f"\n{'drives':>6} {'IOPS':>14} {'GB/s':>9} {'GiB/s':>9}  binding")
    for n in curve.drives:
        x = curve.bandwidth_at(int(n))
        print(f"{int(n):>6} {curve.iops_at(int(n)):>14,.0f} {x / 1e9:>9.3f} {x / 2**30:>9.3f}  "
              f"{curve.binding_at(int(n))}")
    note = getattr(curve, "upper_bound_note", None)  # host layers without a known limit (issue 18)
    if note:
        print(f"({note})")
    print_components(curve, explain=explain)


def print_components(curve, *, explain: bool = False) -> None:
    """Every component at the curve's last drive count, and with ``explain`` the plain-language account."""
    last = int(curve.drives[-1])
    print(f"\nEvery component at {last} drive(s) (alone, IOPS / GB/s / headroom):")
    for ceil in curve.ceilings_at(last):
        print("  " + repr(ceil))
    if explain:
        print("\n" + curve.explain() + "\n\n" + curve.explain(last))
