"""Stalled runs of two kinds: rare long waits (the typical I/O as fast) beside runs slower throughout.

:func:`~nvmemodel.fitting.point_runs.stalled_runs` sets aside runs whose mean latency grew far more than their median
and whose CPU fell (the process waited off the CPU). Whether those waits were rare — most I/Os as fast as in the
point's fastest run, the mean raised by a tail — or the typical I/O was slower too is each run's own: its median and
p90 against that run's (:func:`~nvmemodel.fitting.point_runs.stall_kind`). Where the stalled runs of one series differ
in kind, one verdict for all misleads (set after round 24 was read: r6_here_loop_libaio_ureap iodepth, 8.44 K IOPS at
1 with median ×1.78 beside two runs with median ×0.83 and ×1.02, all worded "waits off the CPU, not only rare ones";
r14_here-nrreq libaio randread iodepth, median ×2.35 at 1 beside ×0.66–1.05 at 2, 4 and 32): each group of runs with
one verdict is worded on its own, with the ratios that decide it.
"""
from __future__ import annotations

import numpy as np

from .wording import fmt_y, span

#: the order the kinds are told in, and their words (the verdict the ratios decide)
KIND_WORDS = {
    "rare": "rare long waits off the CPU, not a slower typical I/O",
    "slow": "slower throughout, not only rare waits: the typical I/O took longer too",
    "unread": "fio's files give no median or p90 to tell rare waits from a slower typical I/O",
}


def mixed(st: dict) -> bool:
    """The stalled runs (``stalled_runs``' answer) are of more than one kind."""
    return len({e["kind"] for e in st.get("each", ())}) > 1


def _x(vals) -> str:
    v = np.asarray(vals, float)
    return span(format(float(v.min()), ".3g"), format(float(v.max()), ".3g"))


def kinds_words(result, st: dict, xv) -> str:
    """One clause per kind of stalled run: how many, which (rate at x, ``xv`` formats x), and the ratios to their
    point's fastest run that decide it — median and p90 (the typical I/O), mean and p99 (the tail)."""
    from .point_runs import STALL_TYPICAL

    u = result.y_unit
    parts = []
    for kind in KIND_WORDS:
        g = [e for e in st["each"] if e["kind"] == kind]
        if not g:
            continue
        n = len(g)
        at = ", ".join(f"{fmt_y(e['rate'], u)} at {xv(result, e['x'])}" for e in g)
        its = "its" if n == 1 else "their"
        figs = []
        for name, key in (("median", "p50"), ("p90", "p90")):
            v = [e[key] for e in g]
            if np.isfinite(v).all():
                figs.append(f"{name} ×{_x(v)}")
        typical = " and ".join(figs)
        tail = [f"mean ×{_x([e['mean'] for e in g])}"]
        if np.isfinite([e["p99"] for e in g]).all():
            tail.append(f"p99 ×{_x([e['p99'] for e in g])}")
        if kind == "rare":
            why = f"{its} {typical} within ×{STALL_TYPICAL:.3g} that run's, {its} {' and '.join(tail)}"
        elif kind == "slow":
            why = f"{its} {typical} that run's (beyond ×{STALL_TYPICAL:.3g}), {its} {' and '.join(tail)}"
        else:
            why = f"{its} {' and '.join(tail)} that run's"
        parts.append(f"{n} ({at}): {KIND_WORDS[kind]} — {why}")
    return "; ".join(parts)
