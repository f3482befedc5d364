"""A stacked device (md, dm) whose busy share fio's disk statistics read as 0 while the job's I/O went through it:
the kernel kept no busy time for it (bio-based md, and dm on older kernels, do not update the io_ticks counter that
fio's ``disk_util`` — iostat's %util — is read from), so its 0 % is "not accounted", never idleness. Its busy figure
is its members' (the devices fio lists beneath it, whose counters are kept), or none.

Set after round 27 was read (HB: r27_miztiik_aws-ebs-mdraid0-2x-gp3_randwrite_qd16x16_bs, "fio's disk_util shows md0
0 % busy a run … idle part of every run, so the layer alone did not hold the rate", where fio kept 255 of 256 writes
outstanding through md0 for every run and its members nvme3n1 and nvme2n1 were 96–98 % busy). A loop device keeps the
counter (round 26: loop0 11–57 % busy, read rightly), and a stacked device at 0 % whose members and own counts are 0
too had no I/O through it (page-cache hits): neither is touched.
"""
from __future__ import annotations

__all__ = ["NOT_ACCOUNTED", "unaccounted", "unaccounted_words"]

#: a stacked device's busy share at or below this (0–1) in every run is "none recorded": fio prints md's 0.00.
#: Set after round 27 was read (HB: md0 0.00 % in every run at 255 writes in flight).
NOT_ACCOUNTED = 0.005


def _counted(rows) -> bool:
    """fio's disk statistics count device requests (reads + writes, summed over the devices it lists) in every run."""
    import pandas as pd

    cols = [c for c in ("disk_read_ios", "disk_write_ios") if c in rows]
    if not cols:
        return False
    n = sum(pd.to_numeric(rows[c], errors="coerce").fillna(0) for c in cols)
    return bool(len(n) and (n > 0).all())


def unaccounted(rows, hit: list[str], stack: list[tuple[str, str | None]], busy: dict | None,
                members_busy) -> dict | None:
    """``{"devices": [md0], "members": [nvme3n1, nvme2n1], "busy": members' device_busy dict or None}`` where every
    device of the fact (``busy`` is their :func:`~nvmemodel.fitting.devices.device_busy`) is a stacked one (md, dm)
    (``hit``) whose share is at most :data:`NOT_ACCOUNTED` in every run while the I/O went through it: its members, the
    non-stacked devices fio lists beneath it, were busy (above :data:`NOT_ACCOUNTED` in some run), or — no member
    listed — fio counted device requests in every run (then they are its own). None otherwise.
    ``members_busy(names)`` returns :func:`device_busy` for other names."""
    from .devices import STACKING

    if busy is None or busy["hi"] > NOT_ACCOUNTED or not stack:
        return None
    layer = dict(stack)
    if not hit or not all(layer.get(d) in STACKING for d in hit):
        return None
    tops = list(hit)
    members = [d for d, lay in stack if lay not in STACKING]
    mb = members_busy(members) if members else None
    if members:
        if mb is None or not mb["hi"] > NOT_ACCOUNTED:
            return None  # members idle too (or not recorded): no evidence the I/O went through the layer
    elif not _counted(rows):
        return None
    return {"devices": tops, "members": members, "busy": mb}


def unaccounted_words(u: dict, xname: str) -> str:
    """"md0 keeps no busy time of its own (fio's disk_util reads 0 % for it in every run, with the job's I/O going
    through it: a counter md does not keep, not idleness); its members nvme3n1 and nvme2n1 were 96–98 % busy a run
    (…), at least 90 % in every run" — the members' part only where recorded; without it, no busy figure."""
    from .devices import BUSY, stack_words

    tops = u["devices"]
    who = tops[0] if len(tops) == 1 else stack_words(tops)
    kind = "md" if all(t.startswith("md") for t in tops) else "dm" if all(t.startswith("dm") for t in tops) else \
        "the stacked device"
    head = (f"{who} {'keeps' if len(tops) == 1 else 'keep'} no busy time of {'its' if len(tops) == 1 else 'their'} "
            f"own (fio's disk_util reads 0 % for {'it' if len(tops) == 1 else 'them'} in every run while the job's "
            f"I/O went through {'it' if len(tops) == 1 else 'them'}: a counter {kind} does not keep, not idleness)")
    mb, members = u.get("busy"), u.get("members") or []
    if not members or mb is None:
        return head + ", so the files show no busy share for that layer"
    lo, hi = format(100 * mb["lo"], ".0f"), format(100 * mb["hi"], ".0f")
    rng = f"{lo} %" if lo == hi else f"{lo}–{hi} %"
    names = members[0] if len(members) == 1 else f"{', '.join(members[:-1])} and {members[-1]}"
    tail = (f", at least {BUSY:.0%} in every run: a request at each nearly all the time" if mb["lo"] >= BUSY else
            f", at least {BUSY:.0%} in every run at the largest {xname}" if mb["busy_last"] else
            ": each idle part of every run, so the drives alone did not hold the rate" if mb["idle"] else "")
    return (f"{head}; {'its member' if len(members) == 1 else 'its members'} {names} "
            f"{'was' if len(members) == 1 else 'were'} {rng} busy a run (the share of the job's time, ramp included, "
            f"with a request at the device){tail}")
