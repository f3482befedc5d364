"""Whether a buffered run's I/O completed inside its submission call, so that iodepth was fio's bookkeeping and not
I/O in flight at the device.

Set after round 23 was read (ZA: r23_ericfan_nvme-buffered_4k-randread_libaio_qd, "The limit is reached at or below
the smallest load measured, 16 I/Os outstanding" and "consistent (the I/O asked for was in flight)";
r23_ericfan_nvme-buffered_randread_qd32_bs, "an IOPS ceiling of 10.70 K IOPS at small blocks (at 32 I/Os
outstanding: a deeper queue may raise it)"). Without O_DIRECT, Linux's libaio does the read or the page-cache copy
inside ``io_submit`` (the kernel has no asynchronous buffered path for it): the call returns with the I/O done. fio's
submission latency (slat) then is each I/O's whole time, and slat × the job's IOPS is the share of the job's time
spent inside submission — 0.965 at every iodepth 16–128 there (97 µs slat of a 101 µs cycle a read, one context
switch a read): one I/O at a time per job, whatever iodepth says.

* The share is read from the data: Σ over a run's rows of slat × IOPS ÷ its jobs (a job's rows of several directions
  add; group-reported rows are divided by numjobs).
* Only where the run did not ask for O_DIRECT (``direct`` 0 or not recorded): with direct=1 an asynchronous engine
  returns from the call before the device completes, and a high share there is a CPU-bound submitter's work with
  I/O still in flight at the device (the counter-cases: direct libaio/io_uring at QD > 1, slat of a few µs).
"""
from __future__ import annotations

import numpy as np

__all__ = ["QUEUE_HELD", "SUBMIT_SHARE", "inline_curve", "run_inline_share", "inline_words"]


def inline_curve(pts) -> bool:
    """Every point's runs spent ≥ :data:`SUBMIT_SHARE` of a job's time in the submit call, and at least one point had
    at most :data:`QUEUE_HELD` I/O outstanding (no queue-full wait there)."""
    if "inline" not in pts or len(pts) == 0:
        return False
    share = pts["inline"].to_numpy(float)
    out = pts["outstanding"].to_numpy(float) if "outstanding" in pts else np.full(len(pts), np.nan)
    return bool(np.isfinite(share).all() and (share >= SUBMIT_SHARE).all() and np.isfinite(out).any()
                and np.nanmin(out) <= QUEUE_HELD)

#: slat × per-job IOPS from which a job spent most of its time inside the submit call: its I/O completed there, one at a
#: time. Half the time would leave room for a second I/O to overlap; 0.8 is well above that and below the 0.90–0.97
#: measured where every I/O completed inside io_submit (the 3–20 % left is fio's own loop between calls) — set after
#: round 23 was read (ZA, ericfan randread QD 0.965, bs 0.904–0.966; the buffered randwrite series at 0.49–0.52, whose
#: page-cache copies also finish in the call but with fio's loop taking half of each cycle, stays below it).
SUBMIT_SHARE = 0.8
#: the most I/O outstanding (iodepth × numjobs) at which a submit call cannot have waited for a free slot in the
#: device's queue: 32 is SATA NCQ's depth, the shallowest of the queueing interfaces (NVMe's, NVMe-oF's 128 default,
#: virtio's 256 and SCSI's are deeper). Above it a long slat may be a wait for a tag with the queue full — the I/O then
#: in flight at the device (r5_jxsheng nvme-tcp, direct=1 libaio 8 jobs × QD128, slat × IOPS 0.90–0.93), so the reading
#: needs a point of the curve at or below it. Set after round 23 was read (ZA; its ericfan series start at 16 and 32).
QUEUE_HELD = 32


def run_inline_share(df, gi, n: int, first) -> np.ndarray:
    """Per run (``gi`` each row's run, ``first`` each job's first row), the share of a job's time inside submission,
    slat × IOPS ÷ jobs — NaN where slat or IOPS is not given or the run asked for O_DIRECT."""
    import pandas as pd

    if "slat_mean_s" not in df or "iops" not in df:
        return np.full(n, np.nan)
    slat = pd.to_numeric(df["slat_mean_s"], errors="coerce").to_numpy(float)
    iops = pd.to_numeric(df["iops"], errors="coerce").to_numpy(float)
    both = np.isfinite(slat) & np.isfinite(iops)
    busy = np.bincount(gi, weights=np.where(both, slat * iops, 0.0), minlength=n)
    given = np.bincount(gi, weights=both, minlength=n) > 0
    nj = pd.to_numeric(df["numjobs"], errors="coerce").fillna(1.0).to_numpy(float) if "numjobs" in df \
        else np.ones(len(df))
    jobs = np.bincount(gi[first], weights=nj[first], minlength=n)
    direct = np.zeros(n, dtype=bool)
    if "direct" in df:
        d = pd.to_numeric(df["direct"], errors="coerce").to_numpy(float)
        direct = np.bincount(gi, weights=np.nan_to_num(d, nan=0.0) > 0, minlength=n) > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(given & (jobs > 0) & ~direct, busy / jobs, np.nan)
    return share


def inline_words(result, pts) -> str:
    """"each I/O completed inside its submission (…)" for points whose every run spent at least :data:`SUBMIT_SHARE`
    of a job's time in the submit call, else ""."""
    from .wording import fmt_y

    if not inline_curve(pts):
        return ""
    share = pts["inline"].to_numpy(float)
    rows = _rows(result, pts)
    slat = iops = np.nan
    if rows is not None and "slat_mean_s" in rows and "iops" in rows and len(rows):
        slat = float(np.nanmean(rows["slat_mean_s"].to_numpy(float)))
        nj = rows["numjobs"].fillna(1).to_numpy(float) if "numjobs" in rows else np.ones(len(rows))
        iops = float(np.nanmean(rows["iops"].to_numpy(float) / nj))
    lo, hi = float(share.min()), float(share.max())
    span = f"{lo:.2f}" if round(lo, 2) == round(hi, 2) else f"{lo:.2f}–{hi:.2f}"
    cycle = (f", fio's slat {fmt_y(slat, 's')} of a {fmt_y(1 / iops, 's')} cycle per I/O"
             if np.isfinite(slat) and np.isfinite(iops) and iops > 0 else "")
    from .job_count import each_job

    return (f"each I/O completed inside its submission call (slat × a job's IOPS = {span}{cycle}; buffered I/O, "
            f"no O_DIRECT: the kernel did the I/O inside the call), so {each_job(pts)} had one I/O at a time at the device "
            f"whatever iodepth says")


def _rows(result, pts):
    tbl = getattr(result, "table", None)
    if tbl is None or "sources" not in pts or "source_path" not in tbl:
        return None
    srcs = {s for v in pts["sources"].astype(str) for s in v.split(";") if s}
    from ..ingest.summary import usable_rows

    r = usable_rows(tbl)
    return r[r["source_path"].astype(str).isin(srcs)]
