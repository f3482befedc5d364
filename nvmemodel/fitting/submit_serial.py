"""Whether an asynchronous engine's jobs spent nearly all their time inside the submit call, so that the call — one at
a time per job — was the serial server that held the rate, whatever queue depth was asked for.

Set after round 25 was read (EC: r25_here-btrfscow_btrfs-on-loop-tmpfs_libaio_randwrite4k_iodepth_repeats, "The
files do not show what holds it: a rate cap or one serial server whose service time is that latency would both look
like this", where IOPS × slat = 0.980–0.989 in all 12 runs at iodepth 1–64). fio measures the submission latency
(slat) of the asynchronous engines (libaio, io_uring, posixaio …) apart from the completion latency (clat); slat ×
a job's IOPS is the share of the job's time spent inside the submit call. Where that share is near 1 the job did
little but submit: the next I/O could not be submitted before the call returned, so the call's time is the job's
service time and 1 ÷ slat its rate. A rate cap that holds I/O after submission (blk-throttle's io.max, a provisioned
device, fio's own ``rate_iops``, which sleeps outside slat) puts its wait in clat, not slat — so it is not an equal
reading. Where, at one I/O per job, the completion latency is a small part of the submit time, each I/O was complete
when the call returned (the layer did it inside the call): at deeper queues the other I/Os only waited to be reaped.

Counter-cases (it must not fire): synchronous engines (psync, pvsync2, mmap: fio measures no separate slat; round 25
datajournal), asynchronous engines whose submit call returns at once (r24 zramuring io_uring, slat × IOPS 0.09–0.14;
r24 posixaio ≤ 0.005), and deep queues where a long slat may be a wait for a free tag with the device's queue full
(r5_jxsheng nvme-tcp, 8 jobs × QD128, 0.90–0.93: no point at or below :data:`~.submit_inline.QUEUE_HELD` outstanding).
Round 23's :mod:`.submit_inline` reads the same share for buffered I/O (no O_DIRECT), where the kernel does the I/O
inside the call by construction; this module reads it for any run, O_DIRECT too, from the share alone.
"""
from __future__ import annotations

import numpy as np

from .submit_inline import QUEUE_HELD, run_inline_share

__all__ = ["SUBMIT_BOUND", "ONE_CALL", "DONE_IN_CALL", "share_span", "submit_serial", "submit_holder_words", "submit_little_words"]

#: slat × a job's IOPS (the share of each job's time inside the submit call) from which the submit call is named as the
#: serial server holding the rate: at 0.9 at most a tenth of each job's cycle is left for fio's own loop and reaping,
#: too little for a limit outside the call. Set after round 25 was read (EC: r25 btrfscow 0.980–0.989 in every run;
#: the counter-cases r24 zramuring 0.09–0.14 and r24 posixaio ≤ 0.005 lie far below it).
SUBMIT_BOUND = 0.9
#: slat × a job's IOPS above which the I/Os' submission times overlapped (fio submitting a batch: each I/O's slat counts
#: the wait for the whole batch, r19_here-batch … batch32, 28.6–31.7), so the share is no time of one call at a time;
#: the upper end of the band Little's law is read within (clat_little.CLAT_OVER). Set after round 25 was read.
ONE_CALL = 1.1
#: clat ÷ slat at one I/O per job below which the I/O was complete when the submit call returned (the completion only
#: reaped): a device that still had the I/O after the call would show a completion time of the order of its service
#: time, not a tenth of the call's. Set after round 25 was read (EC: btrfscow QD1 clat 0.95–1.05 µs against slat
#: 84–140 µs, a ratio ≤ 0.013).
DONE_IN_CALL = 0.1


def _rows(result, p):
    tbl = getattr(result, "table", None)
    if tbl is None or "source_path" not in tbl or "sources" not in p or "slat_mean_s" not in tbl or "iops" not in tbl:
        return None
    from ..ingest.summary import usable_rows

    r = usable_rows(tbl)
    return r[np.isfinite(r["slat_mean_s"].to_numpy(float, na_value=np.nan))]


def submit_serial(result, p) -> dict | None:
    """``{lo, hi, slat_lo, slat_hi, done: {x, clat, slat} | None}`` where every run of every point of ``p`` (a
    curve's points, with their ``sources``) spent at least :data:`SUBMIT_BOUND` of each job's time inside the submit
    call (and at most :data:`ONE_CALL`: no overlapping batch) and some point ran at most
    :data:`~.submit_inline.QUEUE_HELD` I/O outstanding; else None. ``lo``/``hi`` are
    the lowest and highest run's share, ``slat_*`` the runs' mean slat range; ``done`` the point at one I/O per job
    where the completion latency was under :data:`DONE_IN_CALL` of the submit time (the I/O done inside the call)."""
    import pandas as pd

    rows = _rows(result, p)
    if rows is None or len(p) == 0 or not len(rows):
        return None
    out = p["out"].to_numpy(float) if "out" in p else np.full(len(p), np.nan)
    if not (np.isfinite(out).any() and np.nanmin(out) <= QUEUE_HELD):
        return None
    shares: list[float] = []
    slats: list[float] = []
    done: dict | None = None
    keys = [k for k in ("source_path", "run", "group_id") if k in rows]
    for i, srcs in enumerate(p["sources"].astype(str)):
        r = rows[rows["source_path"].astype(str).isin([s for s in srcs.split(";") if s])]
        if not len(r):
            return None
        gi = r.groupby(keys, sort=False, dropna=False).ngroup().to_numpy()
        n = int(gi.max()) + 1
        first = np.flatnonzero(~pd.Series(gi).duplicated().to_numpy())
        share = run_inline_share(r.drop(columns=["direct"], errors="ignore"), gi, n, first)
        if not (np.isfinite(share).all() and (share >= SUBMIT_BOUND).all() and (share <= ONE_CALL).all()):
            return None
        shares.extend(share)
        slat = r["slat_mean_s"].to_numpy(float)
        slats.extend(slat)
        depth = pd.to_numeric(r["iodepth"], errors="coerce").to_numpy(float) if "iodepth" in r else np.full(len(r), np.nan)
        if done is None and "clat_mean_s" in r and (depth == 1).all():
            clat = pd.to_numeric(r["clat_mean_s"], errors="coerce").to_numpy(float)
            if np.isfinite(clat).all() and (slat > 0).all() and (clat / slat < DONE_IN_CALL).all():
                done = {"x": float(p["x"].iloc[i]), "clat_lo": float(clat.min()), "clat_hi": float(clat.max()),
                        "slat_lo": float(slat.min()), "slat_hi": float(slat.max())}
    return {"lo": float(min(shares)), "hi": float(max(shares)), "slat_lo": float(min(slats)),
            "slat_hi": float(max(slats)), "done": done}


def share_span(lo: float, hi: float) -> str:
    """"98–99 %" (one figure where both round alike)."""
    a, b = int(round(lo * 100)), int(round(hi * 100))
    return f"{a} %" if a == b else f"{a}–{b} %"


def submit_holder_words(result, p) -> str:
    """The saturation sentence's holder where :func:`submit_serial` holds: the submit call, one at a time per job, with
    the share and slat that show it (and, with a one-I/O point, that each I/O was done when the call returned)."""
    from .wording import _fx, fmt_y, span

    s = submit_serial(result, p)
    if s is None:
        return ""
    from .job_count import each_job, one_job

    per = "" if one_job(p) else " per job"  # (one job: "the job", no "per job"; round 26 remnant 2)
    head = (f" {each_job(p, capital=True)} spent {share_span(s['lo'], s['hi'])} of its time inside the submit call "
            f"(fio's submission latency {span(fmt_y(s['slat_lo'], 's'), fmt_y(s['slat_hi'], 's'))} an I/O, ≈ 1 ÷ its "
            f"IOPS)")
    d = s["done"]
    if d is None:  # the call may have waited for the device (a full queue): it paced the I/O, whatever held it
        return (f"{head}: the submit call, one at a time{per}, paced the I/O — whatever it waited for inside (the "
                f"layer below, a full device queue or a lock); a rate cap that holds I/O after submission would show "
                f"its wait in the completion latency, not here.")
    text = (f"{head}: the submit call, one at a time{per} (with whatever waits inside it), is the serial server "
            f"that holds the rate — a rate cap that holds I/O after submission would show its wait in the completion "
            f"latency, not here")
    if d is not None:
        text += (f"; at {result.x} = {_fx(d['x'])} each I/O was complete when the call returned (completion latency "
                 f"{span(fmt_y(d['clat_lo'], 's'), fmt_y(d['clat_hi'], 's'))}), so the layer did the I/O inside the "
                 f"call and the I/Os beyond the first only waited to be reaped")
    return text + "."


def submit_little_words(result, p) -> str:
    """The Little's-law check's reading where :func:`submit_serial` holds and each I/O was done inside the call: the
    depth was fio's bookkeeping, not I/O in flight below the call ("" otherwise)."""
    s = submit_serial(result, p)
    if s is None or s["done"] is None:
        return ""
    from .job_count import each_job

    return ("; consistent as fio's bookkeeping (fio held the I/O asked for), not as I/O in flight below the submit call: "
            f"{each_job(p)} spent {share_span(s['lo'], s['hi'])} of its time inside it and the I/O was complete when it "
            f"returned, so the I/Os beyond the first waited to be reaped.")
