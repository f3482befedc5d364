"""Little's law from fio's completion latency where the files give no total one.

fio's total latency (``lat``) is submission + completion; a table that carries only the completion mean (``clat``,
e.g. transcribed from fio's ``clat_ns.mean``) has no total, and the Little check (IOPS × mean latency ÷ outstanding
I/O) was left unsaid. Completion latency is at most the total, so IOPS × clat ÷ outstanding is a lower bound on the
share of the asked-for I/O in flight: where it is near 1 at every point, the queue was kept full — and the latency
growth over a level, at a flat rate, is the added load queueing. Nothing is read where the bound is low (the missing
submission time may hold the rest).

Set after round 21 was read (``_blind_rounds/round21_hand_read_part1.md``, VG: r21_cephvn_rbd-3hdd-osd-rep3_4k-
randwrite_qd, clat filled at every depth, QD ÷ clat = IOPS within 2 %, and 64 → 128 doubling the latency for −6 % IOPS —
the best evidence for the plateau, unsaid).
"""

from __future__ import annotations

import numpy as np

__all__ = ["CLAT_FULL", "clat_little_claims"]

#: IOPS × clat ÷ outstanding at or above this at every point: the queue asked for was in flight (the lower bound of
#: the Little check of ``sentences._little_verdict``, 0.8, the same band; round 21 VG)
CLAT_FULL = 0.8
#: … and at or below this (the check's upper band, 1.1): a bound above it means rate and latency are not of one I/O set
CLAT_OVER = 1.1


def clat_little_claims(result, cf) -> list:
    """A "little" claim from the completion latency where the points have no total latency at any point and the
    completion mean at every one; [] otherwise, or where the bound leaves the band at any point."""
    from .claim import Claim, _xv
    from .wording import fmt_y, span

    p = None if cf is None else cf.points
    if p is None or result.y_unit != "1/s" or not {"lat", "clat_mean", "iops", "out"} <= set(p.columns):
        return []
    lat, cl, iops, out = (p[c].to_numpy(float) for c in ("lat", "clat_mean", "iops", "out"))
    if np.isfinite(lat).any() or not (np.isfinite(cl).all() and np.isfinite(iops).all() and np.isfinite(out).all()):
        return []
    if not ((cl > 0).all() and (out > 0).all()) or len(p) < 2:
        return []
    r = iops * cl / out
    from .rate_from_latency import DERIVED_WORDS, rates_derived

    derived = rates_derived(result, p)  # rates made from this latency: the check is an identity (round 25 EB)
    if not derived and (np.round(r.min(), 2) < CLAT_FULL or np.round(r.max(), 2) > CLAT_OVER):
        return []
    text = f"Little's law on fio's completion latency: {DERIVED_WORDS}." if derived else (f"Little's law on fio's completion latency (the files give no total latency): IOPS × completion latency "
            f"÷ outstanding I/O = {span(f'{r.min():.2f}', f'{r.max():.2f}')} at every point; the completion latency "
            f"leaves out submission, so the share outstanding is at least this: fio kept the I/O asked for outstanding.")
    s = cf.saturation.facts if cf.saturation is not None else {}
    k = s.get("onset_index")
    if s.get("state") in ("onset", "from_first") and k is not None and 0 <= k < len(p) - 1 and derived:
        xs = p["x"].to_numpy(float)  # the latency is measured: its growth with the depth is the finding
        text += (f" The completion latency itself grew ×{cl[-1] / cl[k]:.3g}, {fmt_y(cl[k], 's')} → "
                 f"{fmt_y(cl[-1], 's')}, for ×{out[-1] / out[k]:.3g} the outstanding I/O ({result.x} = "
                 f"{_xv(result, xs[k])} → {_xv(result, xs[-1])}): if fio held that depth, the rate stayed fixed and the "
                 f"added I/O waited.")
    elif s.get("state") in ("onset", "from_first") and k is not None and 0 <= k < len(p) - 1:
        x = result.x
        xs = p["x"].to_numpy(float)
        text += (f" Over the level ({x} = {_xv(result, xs[k])} → {_xv(result, xs[-1])}) the completion latency grew "
                 f"×{cl[-1] / cl[k]:.3g}, {fmt_y(cl[k], 's')} → {fmt_y(cl[-1], 's')}, for ×{out[-1] / out[k]:.3g} the "
                 f"outstanding I/O while IOPS changed {iops[-1] / iops[k] - 1:+.0%}: the added load queued.")
    return [Claim("little", text, {"clat_little": [float(r.min()), float(r.max())], "rates_derived": derived})]
