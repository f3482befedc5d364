"""Whether a series saturated from its first point ran that point at one I/O outstanding, and what fio's latency
says of it — the facts the "1 I/O outstanding" sentence of a from-first level needs.

Set after round 21's fixes were reviewed (``changed_spent_review``, item 1: r14_asct_unnamed-volume_4k-randread_iodepth,
"1 I/O outstanding … by Little's law each took 1 ÷ 3.00 K IOPS = 333 µs …, and more outstanding I/O only queues in
front of it", where numjobs is blank in the table and fio's completion latency is 1312 µs at every iodepth 1–128:
3.9 I/Os in flight at each, the latency flat). Read before these rules were set: that case, and the counters the
review found right (r16_mickeydonkey, 533 K × 1.35 µs = 0.72; r21_noxdb … 1m-seqwrite_qd, WF).

* The count: iodepth × numjobs = 1 at the first point only where every run of it names its numjobs (a blank is not
  1: a tool's default may be more jobs) — :func:`known_one`.
* Each I/O's time: fio's mean latency (its completion latency where that is all the table gives) where IOPS × it is
  within :data:`LITTLE_ONE` of 1; without a latency, 1 ÷ IOPS by Little's law. A latency that puts more than one I/O
  in flight says the count set is not what ran: no count is said. Fewer (a busy submitter): the count is said as the
  settings' with the in-flight figure, and no I/O's time nor queueing is derived from it.
* "More outstanding I/O only queues in front of it": where fio's latency grew with the load (its last ÷ first at
  least :data:`QUEUE_SHARE` of the load's ratio), or no latency is given (Little's law makes a flat rate at more I/O
  in flight a longer wait); never beside a flat latency.
"""
from __future__ import annotations

import numpy as np

#: IOPS × mean latency within this of 1 is one I/O in flight (the review's 0.8–1.2; r16_mickeydonkey's 0.72 on a
#: 1.35 µs latency is told from one by fio's timer resolution there, and keeps its own sentence — set after round 21's
#: fixes were reviewed, asct read before it)
LITTLE_ONE = 0.2
#: fio's latency grew at least this share of the load's ratio from the first point to the last: the added I/O queued
#: (asct: ×1.00 latency for ×128 load — flat; set after round 21's fixes were reviewed)
QUEUE_SHARE = 0.5


def _first_rows(result, p):
    """The table's rows of the first point: by its source files, else (a table without them) by its x value."""
    tbl = result.table
    if tbl is None:
        return None
    if "sources" in p and "source_path" in tbl and str(p["sources"].iloc[0]).strip(";"):
        srcs = [s for s in str(p["sources"].iloc[0]).split(";") if s]
        r = tbl[tbl["source_path"].astype(str).isin(srcs)]
        return r if len(r) else None
    if result.x in tbl and "x" in p and not result.by:
        r = tbl[np.isclose(tbl[result.x].to_numpy(float), float(p["x"].iloc[0]))]
        return r if len(r) else None
    return None


def known_one(result, p) -> bool:
    """The first point ran one I/O outstanding by its settings: every run of it names numjobs, and iodepth × numjobs
    (or a sync engine's one I/O per job) is 1."""
    out = p["out"].to_numpy(float) if "out" in p else np.array([np.nan])
    if not (np.isfinite(out[0]) and out[0] == 1):
        return False
    r = _first_rows(result, p)
    if r is None or "numjobs" not in r:
        return False
    nj = r["numjobs"].to_numpy(float)
    return bool(np.isfinite(nj).all() and (nj == 1).all())


def first_latency(result, p) -> float:
    """fio's mean latency at the first point: total where the table gives it, else its completion latency; NaN."""
    lat = p["lat"].to_numpy(float) if "lat" in p else np.array([np.nan])
    if np.isfinite(lat[0]) and lat[0] > 0:
        return float(lat[0])
    r = _first_rows(result, p)
    if r is not None and "clat_mean_s" in r:
        c = r["clat_mean_s"].to_numpy(float)
        if c.size and np.isfinite(c).all() and (c > 0).all():
            return float(c.mean())
    return float("nan")


def queues(result, p) -> bool:
    """More outstanding I/O queued: fio's latency (total, else completion) grew with the load, or is not given."""
    out = p["out"].to_numpy(float) if "out" in p else np.array([np.nan])
    lat = p["lat"].to_numpy(float) if "lat" in p else np.full(len(p), np.nan)
    tbl = result.table
    if not np.isfinite(lat).any() and tbl is not None and "clat_mean_s" in tbl and "sources" in p:
        lat = np.array([np.nanmean(tbl[tbl["source_path"].astype(str).isin(
            [s for s in str(v).split(";") if s])]["clat_mean_s"].to_numpy(float)) if len(tbl) else np.nan
            for v in p["sources"]]) if "source_path" in tbl else lat
    if len(p) < 2 or not (np.isfinite(out[[0, -1]]).all() and out[0] > 0):
        return False
    if not (np.isfinite(lat[[0, -1]]).all() and lat[0] > 0):
        return not np.isfinite(lat).any()  # no latency anywhere: Little's law says the wait grew
    return bool(lat[-1] / lat[0] >= QUEUE_SHARE * out[-1] / out[0])


def one_words(result, p, iops: float) -> str:
    """The from-first level's sentence on its first point's one I/O outstanding, or "" where the count is not known
    to be one or fio's latency puts another count in flight."""
    from .wording import fmt_y

    if not known_one(result, p) or not (np.isfinite(iops) and iops > 0):
        return ""
    lat = first_latency(result, p)
    tail = ", and more outstanding I/O only queues in front of it." if queues(result, p) else "."
    if np.isfinite(lat):
        cover = iops * lat
        if cover > 1 + LITTLE_ONE:
            return ""  # more in flight than the settings' one I/O: the count set is not what ran, none is said
        if cover < 1 - LITTLE_ONE:  # fewer: the count set is an upper bound, and no I/O's time is derived from it
            return (f" The limit is reached at the smallest load measured, 1 I/O outstanding by the settings "
                    f"(IOPS × fio's mean latency = {cover:.2f} in flight: part of each cycle lay outside fio's "
                    f"latency).")
        from .rate_from_latency import rates_derived

        if rates_derived(result, p):  # the rate was made from this latency: "= 1.00 in flight" is no check (r25 EB)
            return (f" The limit is reached at the smallest load measured, 1 I/O outstanding: with one I/O in flight "
                    f"each took {fmt_y(lat, 's')} (fio's mean latency, from which the table's rates were derived)"
                    f"{tail}")
        return (f" The limit is reached at the smallest load measured, 1 I/O outstanding: with one I/O in flight "
                f"each took {fmt_y(lat, 's')} (fio's mean latency; × {fmt_y(iops, '1/s')} = {cover:.2f} in "
                f"flight){tail}")
    from .request_split import first_split, split_clause

    if (sp := first_split(result, p, _first_rows(result, p))) is not None:  # one fio I/O, several device requests (round 24 BD)
        return (f" The limit is reached at the smallest load measured, 1 of fio's I/Os outstanding (by Little's law "
                f"each took 1 ÷ {fmt_y(iops, '1/s')} = {fmt_y(1 / iops, 's')} on average); {split_clause(sp)}"
                f"{tail}")
    return (f" The limit is reached at the smallest load measured, 1 I/O outstanding: one I/O at a time already "
            f"reaches it (by Little's law each took 1 ÷ {fmt_y(iops, '1/s')} = {fmt_y(1 / iops, 's')} on average)"
            f"{tail}")
