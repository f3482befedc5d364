"""The first point of a job-count sweep at a fixed per-job depth > 1, held per job: the shared device had room.

Along numjobs with each job keeping D > 1 I/Os outstanding, where Little's law holds at the first point (the job kept
its D in flight) and the first step multiplies the rate by at least :data:`RATE_SHARE` × the job ratio while fio's
mean latency grows by less than :data:`LAT_SHARE` × it, the added outstanding I/O was served nearly in parallel: the
device was not queueing at the first point, and what held it there was per job — one thread submitting and reaping D
in flight at the latency measured, a time per I/O of that thread of jobs ÷ rate. Whether that thread was CPU-bound
needs fio's CPU figures (issue 28 item 4); without them it is said unmeasured.

Not read for one I/O per job (D = 1: each job's rate is 1 ÷ its latency, its own rule), a per-job depth that changes
along the axis, or a first point whose Little's fraction is outside 0.9–1.1.

Set after round 28 was read (JB: r28_spdk517 randread and randwrite qd32 numjobs, ×1.99 / ×3.22 the rate for ×4 the
jobs at ×1.55 / ×1.19 the latency, told only "Up to it the load still paid, from 233.47 K IOPS at numjobs = 1").
"""

from __future__ import annotations

import numpy as np

__all__ = ["LAT_SHARE", "RATE_SHARE", "first_room_words"]

#: the first step's rate ratio at least this share of its job ratio (set after round 28 was read: r28_spdk517 read
#: ×1.99 for ×4, write ×3.22 for ×4; r28 PM1643a's one sync write a job is excluded by depth)
RATE_SHARE = 0.45
#: … while the mean latency grows by less than this share of the job ratio (the hand read's "less than half")
LAT_SHARE = 0.5


def first_room_words(result, cf) -> str:
    """' At numjobs = 1 the shared device had room: …' or ""."""
    from .claim import _xv
    from .wording import fmt_y

    if cf is None or result.x not in ("numjobs", "jobs", "threads"):
        return ""
    p = cf.points
    if len(p) < 2 or not {"x", "iops", "lat", "out", "jobs"} <= set(p.columns):
        return ""
    iops, lat, out, jobs = (p[c].to_numpy(float)[:2] for c in ("iops", "lat", "out", "jobs"))
    if not (np.isfinite(iops).all() and np.isfinite(lat).all() and np.isfinite(out).all() and np.isfinite(jobs).all()
            and (iops > 0).all() and (lat > 0).all() and (jobs > 0).all()):
        return ""
    per = p["out"].to_numpy(float) / p["jobs"].to_numpy(float)
    d = float(per[0])
    if not (d > 1 and np.allclose(per, d, rtol=0.01)):
        return ""
    little0 = iops[0] * lat[0] / out[0]
    if not 0.9 <= round(little0, 2) <= 1.1:
        return ""
    m, r, ell = jobs[1] / jobs[0], iops[1] / iops[0], lat[1] / lat[0]
    # (a rate beyond the job ratio or a latency that fell is no shared device with room: something else changed)
    if not (m > 1 and RATE_SHARE * m <= r <= 1.1 * m and 0.9 <= ell < LAT_SHARE * m):
        return ""
    x0, x1 = (float(v) for v in p["x"].to_numpy(float)[:2])
    who = "the one job" if jobs[0] == 1 else f"each of the {jobs[0]:g} jobs"
    thread = "its one thread" if jobs[0] == 1 else "each job's thread"
    cpu = p["cpus"].to_numpy(float)[0] if "cpus" in p else np.nan
    cpu_w = ("; without fio's CPU figures, whether that thread was CPU-bound is not measured" if not np.isfinite(cpu)
             else " (its CPU share: fio's CPU accounting)")
    return (f" At {result.x} = {_xv(result, x0)} the shared device had room: ×{m:.3g} the outstanding I/O at "
            f"{result.x} = {_xv(result, x1)} took ×{ell:.3g} the mean latency for ×{r:.3g} the rate, so what held the "
            f"first point was per job — {who} held its {d:g} in flight at {fmt_y(lat[0], 's')} each, "
            f"{fmt_y(iops[0], '1/s')}, {fmt_y(jobs[0] / iops[0], 's')} per I/O of {thread}{cpu_w}.")
