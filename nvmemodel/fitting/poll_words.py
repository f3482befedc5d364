"""The sentence for runs that asked for polled completions (``hipri``) where fio's counts show none happened
(:func:`nvmemodel.hostcal.poll_proof.hipri_slept`; set after round 24 was read, class CD: r24_here-hipri … loop
pvsync2 hipri randread numjobs, "the jobs polled for their completions (hipri): busy whatever held the rate" beside
1.00 context switches per read at 6–24 % of a CPU a job). The CPU figures are then read as for any job that sleeps
on its I/O; this sentence says why the option is not the reading.
"""

from __future__ import annotations

from .claim import Claim, runs_rows

__all__ = ["unpolled_claims"]


def unpolled_claims(result, cf) -> list[Claim]:
    """One claim where every run set ``hipri`` yet each I/O slept at a low CPU share; [] otherwise."""
    from ..hostcal.poll_proof import hipri_slept

    if cf is None or cf.points is None:
        return []
    s = hipri_slept(runs_rows(result, cf.points))
    if s is None:
        return []
    per = f"{s['per_lo']:.2f}" if f"{s['per_lo']:.2f}" == f"{s['per_hi']:.2f}" else f"{s['per_lo']:.2f}–{s['per_hi']:.2f}"
    cpu = f"{100 * s['cpu_lo']:.1f}–{100 * s['cpu_hi']:.1f} %"
    return [Claim("cpu", f"The runs asked for polled completions (hipri=1), but every I/O slept: {per} context switches per "
                         f"I/O in every run (fio's ctx ÷ I/Os) at {cpu} of a CPU a job, where a polling job spins "
                         f"without sleeping at about 100 %: no polling happened (the queue beneath did not poll; the "
                         f"block layer drops the request where it cannot), and the CPU figures read as without it.",
                  {"unpolled": s})]
