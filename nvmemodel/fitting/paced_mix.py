"""A read-share sweep whose pure runs fio paced per direction (``--rate_iops=R,W`` / ``--rate``): the pure rates are
fio's paces, not the time an I/O took, so the harmonic mix of them (1/X = r/R + (1 − r)/W, which takes each pure rate
for a service time) models nothing; the mixes are read against the paces instead, and against the read share the
runs realised, which a pace per direction sets rather than rwmixread (set after round 22 was read, XE:
r22_here-fio310rate_loop_psync_rateiops4k-1k_randrw_qd1_readshare_repeats, "each mixed I/O took less time on average
than the pure runs'" where the mixes' median latency was 152–211 µs against the pure runs' 43/123 µs, and every mix
ran at a read share of 0.76–0.80 at rwmixread 25, 50 and 75)."""

from __future__ import annotations

import numpy as np

from .claim import _pts, _xv
from .pacing import _pacing, pace_held, pd_numeric
from .wording import fmt_y

__all__ = ["paced_mix_words"]


def _key_of(result, cf) -> tuple | None:
    """The curve key of ``cf`` (its points' runs), () without a ``by``."""
    if not result.by:
        return ()
    want = set(";".join(cf.points["sources"].astype(str)).split(";"))
    for key, g in result.points.groupby(list(result.by)):
        key = key if isinstance(key, tuple) else (key,)
        if set(";".join(g["sources"].astype(str)).split(";")) == want:
            return key
    return None


def realised_shares(result, sources: list[str]) -> np.ndarray | None:
    """Each run's realised read share (read I/Os ÷ all, from its rows' per-direction IOPS); None where not given."""
    tbl = result.table
    if tbl is None or not {"source_path", "direction", "iops"} <= set(tbl.columns):
        return None
    from ..ingest.summary import usable_rows

    rows = usable_rows(tbl)
    out = []
    for src in sources:
        r = rows[rows["source_path"].astype(str) == src]
        iops, d = pd_numeric(r["iops"]), r["direction"].astype(str).to_numpy()
        rd, wr = float(np.nansum(iops[d == "read"])), float(np.nansum(iops[d == "write"]))
        if rd + wr <= 0 or not np.isfinite(rd + wr):
            return None
        out.append(rd / (rd + wr))
    return np.asarray(out, float)


def paced_mix_words(result, cf, runs_words) -> str | None:
    """The mix sentence of a read-share sweep whose pure points are at fio's pace; None where they are not (the
    harmonic mix is read as before). ``runs_words(direction)`` gives the kept runs' range of a pure level."""
    key = _key_of(result, cf)
    if key is None:
        return None
    at = pace_held(result, key)
    found = _pacing(result, key)
    if at is None or found is None:
        return None
    limits, told = found
    pts = _pts(result, key).sort_values(result.x)
    r = pts[result.x].to_numpy(float) / (100.0 if result.x.lower() == "rwmixread" else 1.0)
    one, zero = np.isclose(r, 1), np.isclose(r, 0)
    if not (one.any() and zero.any() and at[one].all() and at[zero].all()):
        return None
    s, u = cf.mix.facts, result.y_unit
    mid = ~(one | zero)
    text = (f"Along the read share the pure runs make {fmt_y(s['read'], u)} (reads{runs_words('read')}) and "
            f"{fmt_y(s['write'], u)} (writes{runs_words('write')}): fio paced them ({told}), so these are fio's "
            f"paces, not the time an I/O took, and no harmonic mix 1/X = r/R + (1 − r)/W is read from them (it would "
            f"take the paces for service times). With a pace per direction a mix is allowed up to the paces' sum "
            f"({', '.join(sorted({fmt_y(float(v), u) for v in limits[mid]}))})")
    srcs = [s_ for j in np.flatnonzero(mid) for s_ in str(pts["sources"].iloc[j]).split(";")]
    real = realised_shares(result, srcs)
    if real is not None and real.size:
        lo, hi = float(real.min()), float(real.max())
        asked = ", ".join(_xv(result, v) for v in pts[result.x].to_numpy(float)[mid])
        text += (f", and the mixes' runs did not keep the share asked for: they realised a read share of "
                 f"{lo:.2f}" + (f"–{hi:.2f}" if f"{lo:.2f}" != f"{hi:.2f}" else "") + f" at {result.x} = {asked}")
        if hi - lo <= 0.1:
            text += " alike (each direction at its own pace, whatever the share configured)"
    return text + "."
