"""The read and write directions of a mixed curve whose y is the total: the direction that holds the total, said per
direction, and a capped direction's claims.
"""

from __future__ import annotations

import numpy as np

from .fact_base import CurveFacts
from .fact_words import _claim, _xv
from .wording import fmt_y, span


def directions_words(result, cf: CurveFacts) -> str:
    """A mixed read/write curve level from its first point, told per direction where the table has them: each
    direction's latency at the first point (the IOPS-weighted mean is no time any I/O took) and the slow direction at
    a level of its own, which the fixed mix turns into the total's level (blind4 class Y)."""
    from .mix_facts import directions

    d = directions(result, cf.saturation.facts.get("key", ())) if cf.saturation is not None else None
    if d is None:
        return ""
    x, p = result.x, cf.points
    rl, wl = d["read_lat_mean_s"][0], d["write_lat_mean_s"][0]
    if not (min(rl, wl) > 0 and max(rl, wl) / min(rl, wl) >= 2):  # one latency for both: one service time it is
        return ""
    lat0 = p["lat"].to_numpy(float)[0]
    text = (f" At {x} = {_xv(result, d['x'][0])} reads took {fmt_y(rl, 's')} and writes {fmt_y(wl, 's')}"
            + (f" ({fmt_y(lat0, 's')} weighted by their I/O)" if np.isfinite(lat0) else "")
            + ": no one service time.")
    slow = d["level"]
    if slow is None:
        return text
    share = d["read_share"] if slow == "read" else 1 - d["read_share"]
    iops, bps = d[f"{slow}_iops"], d[f"{slow}_bw_bytes_per_s"]
    lvl = float(np.mean(iops))
    plateau = cf.saturation.facts.get("plateau_iops")
    if not plateau or abs(lvl / share / plateau - 1) > 0.05:  # rows per job, or a mix not held: no total from it
        return text
    other = "write" if slow == "read" else "read"
    ratio = float(np.min(d[f"{slow}_lat_mean_s"] / d[f"{other}_lat_mean_s"]))
    text += (f" The {slow}s, with fio's latency ≥ ×{ratio:.3g} the {other}s' at every {x}, sit at "
             f"{span(fmt_y(iops.min(), '1/s'), fmt_y(iops.max(), '1/s'))} "
             f"({span(fmt_y(bps.min(), 'B/s'), fmt_y(bps.max(), 'B/s'))}) throughout: a level of their own, which "
             f"the fixed mix ({share:.0%} {slow}s) turns into a total of {fmt_y(lvl, '1/s')} ÷ {share:.2f} = "
             f"{fmt_y(lvl / share, '1/s')}; more outstanding I/O queues in front of the {slow}s.")
    return text


def _capped(result, key) -> dict | None:
    """A direction held at a cap of its own along block size or read share, y being the total (else None)."""
    from .curves import Y_COLUMNS
    from .mix_facts import directions

    if result.x not in ("block_size_bytes", "read_fraction") or result.y not in Y_COLUMNS \
            or Y_COLUMNS[result.y][1] is not None:
        return None
    d = directions(result, key)
    return d.get("capped") if d is not None else None


def direction_claims(result, key, cf: CurveFacts) -> list:
    """Along block size and read share, a mixed curve whose total is y: the direction held at a cap of its own
    (:func:`~nvmemodel.fitting.facts.directions`' ``capped``), named with its cap, and the total as that cap ÷ the
    direction's share where the points show it (round 6, part 1 BB and BF: "a byte cap of 83.1 MB/s" of a 50/50
    total whose reads sit at ~40 MB/s; reads at ~2.0 K IOPS at every read share, unsaid)."""
    from .mix_facts import directions

    c = _capped(result, key)
    if c is None:
        return []
    d = directions(result, key)
    x, u, slow, other = result.x, c["unit"], c["direction"], c["other"]
    i = c["from_index"]
    what = "byte" if u == "B/s" else "IOPS"
    text = (f"The {slow}s sit at {span(fmt_y(c['lo'], u), fmt_y(c['hi'], u))} from {x} = {_xv(result, c['x_from'])} to "
            f"{_xv(result, c['x_to'])} ({c['points']} points), with fio's {slow} latency ≥ ×{c['lat_ratio']:.3g} the "
            f"{other}s' there: a {slow} {what} cap of about {fmt_y(c['level'], u)}, measured — the {slow}s' cap, not "
            f"the total's.")
    if c["total_holds"]:
        shares = c["shares"]
        if len(set(shares)) == 1:
            text += (f" The {other}s follow it through the mix fio keeps ({shares[0]:.0%} {slow}s by I/O count), so "
                     f"the total is that cap ÷ the {slow} share: {fmt_y(c['level'], u)} ÷ {shares[0]:.2f} = "
                     f"{fmt_y(c['level'] / shares[0], u)}.")
        else:
            xs = d["x"][i:] if d is not None else []
            text += (f" The {other}s follow it through the mix, so the total is that cap ÷ the {slow} share: "
                     f"{', '.join(fmt_y(v, u) for v in c['predicted'])} at {x} = "
                     f"{', '.join(_xv(result, v) for v in xs)}, measured "
                     f"{', '.join(fmt_y(v, u) for v in c['totals'])}.")
    return [_claim("direction", text, None, **{k: v for k, v in c.items() if k != "predicted"})]
