"""When fio's CPU per I/O is worth a sentence: the band of a job's CPU share in which its cost can bind.

fio's usr+sys ÷ I/Os is the CPU one I/O cost the job's thread, and 1 ÷ that cost the rate one CPU sustains at it
(:mod:`~nvmemodel.fitting.cpu_claims`). A job that used a share *s* of one CPU would need 1/*s* times its rate before
its own CPU could hold it. Below half a CPU that is more than a doubling of the rate — the step every load axis here
is read by (``facts.PAYS`` per doubling) — so the cost is no limit the data come near, and "one CPU sustains N IOPS"
beside a job at 14 % of a CPU tells an engineer nothing the rate does not (set after round 19 was read:
r19_lsvdrbd_nvmetcp-spdk-rbd-3hdd_4k-randread_iouring_qd, "27.8 µs … one CPU sustains 35.92 K IOPS" at 14 % busy,
and r19_silentzns … seqread numjobs, "6.05 µs … 165.40 K IOPS" at 5.8 %, while series at 0.8–4.7 % got "nearly
idle" and no cost line, TE).

One band for every axis: the cost is said where some point of the series had a job at :data:`COST_WORTH` of one CPU
or more (it can bind there, or the cost explains a CPU-bound point elsewhere in the series), or where the cost is an
argument of its own (it grew while the rate fell: ``facts.cost_rise``); elsewhere the CPU sentence says the share and
no cost — ``cpu_claims.unsaid_cost(result, key)`` gives the line left out, and ``curve_facts(...).cpu`` its figures,
for a user who asks for them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["COST_WORTH", "cost_worth"]

#: a job at this share of one CPU or more at some point of the series is within a doubling of its rate of its own CPU
#: limit: its CPU per I/O (and the rate one CPU sustains at it) is worth saying; below it at every point, it is not
COST_WORTH = 0.5


def cost_worth(share, argued: bool = False) -> bool:
    """Whether fio's CPU per I/O is worth a sentence for a series whose jobs used ``share`` of one CPU per job at each
    point (NaN where not known): some known share at :data:`COST_WORTH` or more, or ``argued`` (the cost is used in an
    argument, as a cost that grew while the rate fell). A series with no known share keeps its cost (nothing shows
    it far from a limit)."""
    s = np.asarray(share, float)
    s = s[np.isfinite(s)]
    return bool(argued or not s.size or s.max() >= COST_WORTH)
