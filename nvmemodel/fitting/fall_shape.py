"""The shape of a fall: what the points do after a one-point drop along a load axis, and a flat top band along block
size that steps down to a lower level.

Set after round 21 was read (``_blind_rounds/round21_hand_read_part2.md``):

- WA (r21_philostorage_biwin-x570-ext4_kvmix-sharegpt-r61_qd): 3.06 GB/s at QD32, then 2.16, 2.14, 2.07, 1.90 GB/s
  at QD64–1024 — every step down, −12 % from 64 to 1024 — said as "level at 2.07 GB/s … the drop … is that one step,
  not a decline along iodepth". After the one step, the later points are read for a trend of their own
  (:func:`trend_after`): a one-signed run beyond the ±10 % band a level is read within is a further fall (or rise),
  never a level.
- WB (r21_tieredvol_dm-stripe-nvme-2sata_write_4jobs-qd32_bs): 1.25–1.29 GB/s from 128 KiB to 2 MiB, then
  1.02–1.03 GB/s from 4 to 16 MiB, said as "peaks at 256 KiB and falls 20 % to 16 MiB" — the "peak" +0.4 % over
  1 MiB. :func:`band_step` gives the top band the maximum lies in, the one step down after it and the level after it.

Pure numbers: the words are ``fact_claims``'.
"""
from __future__ import annotations

import numpy as np

#: a stretch is a level where its largest point ÷ its smallest is at most 1 + this; a change beyond it is a fall or a
#: step (facts.FLAT, the band the fall rule itself reads one run a point within: a fall must leave it). Set after
#: round 21 was read (WA sharegpt: 2.16 → 1.90 GB/s, ends ×1.137 apart; WB tieredvol bs: 1.246–1.290 GB/s, ×1.035, a
#: level, and 1.016–1.028 after the step, ×1.012); the counters read before it were burstgpt and tp8 (±0.3 %, ±1 %).
BAND = 0.10
#: a step against a trend's sign no larger than this leaves the trend one-signed: a table's rounding and a one-run
#: point's scatter (facts.LEVEL_STEP, the step a level may hold). Set after round 21 was read (WA: −0.5, −3.7, −8.3 %,
#: no step against it).
AGAINST = 0.05


def trend_after(x, y, idx) -> dict | None:
    """The points ``idx`` (≥ 3, in x order) drift one way: first to last beyond :data:`BAND` (their ends not within
    the band of one another) and no step against that sign larger than :data:`AGAINST`. ``{"x_from", "x_to",
    "y_from", "y_to", "change", "steps": [(x_a, x_b, change), …]}`` or None (no trend: a level may be read there)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    idx = np.asarray(idx, int)
    if idx.size < 3 or not np.isfinite(y[idx]).all() or not (y[idx] > 0).all():
        return None
    v = y[idx]
    change = float(v[-1] / v[0] - 1)
    if max(v[0], v[-1]) <= (1 + BAND) * min(v[0], v[-1]):
        return None
    steps = v[1:] / v[:-1] - 1
    if (np.sign(change) * steps < -AGAINST).any():
        return None
    return {"x_from": float(x[idx[0]]), "x_to": float(x[idx[-1]]), "y_from": float(v[0]), "y_to": float(v[-1]),
            "change": change,
            "steps": [(float(x[a]), float(x[b]), float(y[b] / y[a] - 1)) for a, b in zip(idx[:-1], idx[1:])]}


def band_step(b, bw, i_max: int) -> dict | None:
    """Along block size, bytes/s ``bw`` whose maximum at ``i_max`` lies inside a band of its neighbours (the
    contiguous sizes about it whose largest ÷ smallest is at most 1 + :data:`BAND`, grown from the maximum, at least
    one size after it), then one step down to the next size beyond the band, the sizes from there to the last a lower
    level (within the band of one another) whose highest lies below the top band's lowest by more than the band.
    ``{"band": (i_from, i_to), "x", "lo", "hi", "value", "iops", "after": (i_from, i_to), "after_x", "after_lo",
    "after_hi", "step"}`` (x: the band's first and last size, iops: the IOPS there; step:
    the one step's change, band end → next size) or None: the maximum is a peak, or the fall is no single step."""
    b, bw = np.asarray(b, float), np.asarray(bw, float)
    n = bw.size
    if not np.isfinite(bw).all() or not (bw > 0).all() or i_max >= n - 1:
        return None
    lo_i, hi_i = i_max, i_max
    grew = True
    while grew:
        grew = False
        for a, c in ((lo_i - 1, hi_i), (lo_i, hi_i + 1)):
            if a >= 0 and c < n and bw[a:c + 1].max() <= (1 + BAND) * bw[a:c + 1].min() and (a, c) != (lo_i, hi_i):
                lo_i, hi_i, grew = a, c, True
                break
    if hi_i == i_max or hi_i >= n - 1:  # the maximum is the band's last size (a peak, then the fall), or no fall
        return None
    rest = bw[hi_i + 1:]
    if rest.max() > (1 + BAND) * rest.min():  # the sizes after the step are no level: a slide, said as the fall
        return None
    top = bw[lo_i:hi_i + 1]
    if not top.min() > (1 + BAND) * rest.max():
        return None
    return {"band": (lo_i, hi_i), "x": (float(b[lo_i]), float(b[hi_i])), "lo": float(top.min()),
            "hi": float(top.max()), "value": float(top.mean()), "iops": (float(bw[lo_i] / b[lo_i]),
                                                                         float(bw[hi_i] / b[hi_i])),
            "after": (hi_i + 1, n - 1), "after_x": (float(b[hi_i + 1]), float(b[-1])), "after_lo": float(rest.min()),
            "after_hi": float(rest.max()), "step": float(bw[hi_i + 1] / bw[hi_i] - 1)}
