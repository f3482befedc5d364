"""Words for a level stated over the points whose runs do not split (:mod:`~nvmemodel.fitting.split_level`): where it
was read, and each split point's run groups with whether any lies at it (set after round 25's fixes were reviewed:
r12 kyber libaio randwrite iodepth, r15 ext4-on-loop libaio randread iodepth)."""

from __future__ import annotations

from .wording import fmt_y, span, xv

__all__ = ["over_words", "split_points_words"]


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def over_words(result, s: dict) -> str | None:
    """"iodepth = 4–8" (the points the level is read at, none split between them), "iodepth = 4 and 16" (a split
    point between them), "iodepth = 32" (one); None where no split point was set apart."""
    sl = s.get("split_level")
    if not sl:
        return None
    wx = sl["whole_x"]
    if len(wx) == 1:
        return f"{result.x} = {xv(result, wx[0])}"
    if not any(wx[0] < d["x"] < wx[-1] for d in sl["points"]):
        return f"{result.x} = {span(xv(result, wx[0]), xv(result, wx[-1]))}"
    return f"{result.x} = {_listed([xv(result, v) for v in wx])}"


def _at_words(at: list[bool]) -> str:
    if not any(at):
        return "neither at that level" if len(at) == 2 else "none at that level"
    if len(at) == 2:
        return "both at that level" if all(at) else f"the {'lower' if at[0] else 'higher'} at that level"
    return f"{sum(at)} of the {len(at)} at that level"


def split_points_words(result, s: dict) -> str:
    """" At iodepth = 16 and 32 the runs split into two groups more than ×2 apart — 23.31 K IOPS–34.12 K IOPS and
    122.33 K IOPS; 42.31 K IOPS–43.39 K IOPS and 114.24 K IOPS — neither at that level: no level is read there (these
    files do not show which group is the undisturbed one).\""""
    from .point_runs import SPLIT_RATIO

    sl = s.get("split_level")
    if not sl or not sl["points"]:
        return ""
    u, pts = result.y_unit, sl["points"]
    kind = "two groups" if all(len(d["groups"]) == 2 for d in pts) else "groups"
    groups = [" and ".join(span(fmt_y(a, u), fmt_y(b, u)) for a, b in d["groups"]) for d in pts]
    at = [_at_words(d["at"]) for d in pts]
    same = len(set(at)) == 1
    body = "; ".join(groups) + f" — {at[0]}" if same else "; ".join(f"{g}, {a}" for g, a in zip(groups, at)) + " —"
    return (f" At {result.x} = {_listed([xv(result, d['x']) for d in pts])} the runs split into {kind} more than "
            f"×{SPLIT_RATIO:g} apart — {body}: no level is read there (these files do not show which group is the "
            f"undisturbed one).")
