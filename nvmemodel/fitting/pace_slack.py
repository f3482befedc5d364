"""Whether fio's pace still had slack at a point: a job kept to a rate by ``--rate_iops``/``--rate`` waits between
its I/Os; where it spent (nearly) all of its time inside its I/Os the wait is gone, and the rate is the path's
(outstanding ÷ latency), not the pace's — even while it sits close to the pace. Read per run from fio's own figures
(set after round 22 was read, XA: r22_here-fio310rate … rateiops8k-perjob_randread_numjobs, "fio's pacing per job,
not a limit of the device or the host" said of 16 jobs each inside a read 98.6–99.6 % of its time)."""

from __future__ import annotations

import numpy as np

from .claim import Claim, _pts, _xv
from .pacing import _row_pace, jobs_of, pace_binds, pd_numeric
from .wording import fmt_y

__all__ = ["PATH_OCCUPANCY", "pace_cause", "pace_law_words", "path_bound_runs", "slack_claims"]

#: a run whose jobs were inside their I/Os this share of their time (measured rate × fio's mean latency ÷ the I/O
#: outstanding) left its pace no slack: its rate is the path's. Set after round 22 was read (r22_here-fio310rate
#: rateiops8k numjobs: 0.986–0.996 at 16 jobs, 0.79–0.85 at 8, where ctx per read still showed the pace's sleeps;
#: rate200m 128k numjobs: the 16-job runs at 0.90 and 0.91 still at 98.9–99.8 % of the pace, the third at 0.98
#: and 88.7 % of it — 16 ÷ its 692 µs latency)
PATH_OCCUPANCY = 0.95


def path_bound_runs(result, key) -> list[dict] | None:
    """Per point (x order) of a paced curve: each run's occupancy (rate × mean latency ÷ outstanding), mean latency,
    pace interval (outstanding ÷ the pace: the time a job's slot may take at that pace) and path rate (the run's
    rate ÷ its occupancy = outstanding ÷ latency, in y's unit). None where a run does not give them."""
    from .pacing import paced_rows

    got = paced_rows(result, ("lat_mean_s", "iops"))
    if got is None:
        return None
    y_col, rows = got
    out = []
    for joined in _pts(result, key).sort_values(result.x)["sources"].astype(str):
        d: dict[str, list] = {k: [] for k in ("occ", "lat", "interval", "path", "y")}
        for src in joined.split(";"):
            r = rows[rows["source_path"].astype(str) == src]
            if not len(r) or ("direction" in r and r["direction"].nunique() > 1):
                # a pace per direction over a mix is no one pace a job waits for (see paced_mix)
                return None
            paced = _row_pace(r, result.y_unit, convert=result.x != "block_size_bytes")
            if paced is None:
                return None
            jobs = jobs_of(r)
            depth = pd_numeric(r["iodepth"]) if "iodepth" in r else np.ones(len(r))
            iops, lat = pd_numeric(r["iops"]), pd_numeric(r["lat_mean_s"])
            y = float(np.nansum(pd_numeric(r[y_col])))
            held = float(np.sum(jobs * depth))
            cap = float(np.sum(paced[0] * jobs))
            if not (np.isfinite(iops).all() and np.isfinite(lat).all() and np.isfinite(depth).all()) \
                    or iops.sum() <= 0 or held <= 0 or cap <= 0 or y <= 0:
                return None
            lat_m = float(np.sum(iops * lat) / iops.sum())  # fio's mean latency of the run's I/Os
            occ = float(iops.sum()) * lat_m / held
            d["occ"].append(occ)
            d["lat"].append(lat_m)
            d["interval"].append(held / cap * (y / float(iops.sum())) if result.y_unit == "B/s" else held / cap)
            d["path"].append(y / occ)
            d["y"].append(y)
        out.append({k: np.asarray(v, float) for k, v in d.items()})
    return out


def _span(v, f) -> str:
    lo, hi = f(float(np.min(v))), f(float(np.max(v)))
    return lo if lo == hi else f"{lo}–{hi}"


def slack_claims(result, key) -> tuple[list[Claim], np.ndarray | None]:
    """The sentence on the points whose runs left the pace no slack, and a mask of the points where every run did
    (there the pace is not named as what set the rate); ([], None) where no run did or the runs do not say."""
    pts = path_bound_runs(result, key)
    if not pts or not pace_binds(result, key):
        return [], None
    xs = _pts(result, key).sort_values(result.x)[result.x].to_numpy(float)
    u, x = result.y_unit, result.x
    parts, full = [], np.zeros(len(pts), bool)
    from .job_count import each_job

    one = each_job(_pts(result, key))  # "the job" where every run had one (round 26 remnant 2)
    for i, p in enumerate(pts):
        bound = p["occ"] >= PATH_OCCUPANCY
        if not bound.any():
            continue
        full[i] = bool(bound.all())
        n, m = int(bound.sum()), bound.size
        lat, itv = p["lat"][bound], p["interval"][bound]
        # the interval is the pace's time per slot; the latency at or above it, or within a few per cent below
        rel = "at or above" if np.all(lat >= itv) else "close to"
        who = "every run" if full[i] else f"{n} of {m} runs"
        parts.append(f"at {x} = {_xv(result, xs[i])}, {who} had {one} inside an I/O "
                     f"{_span(p['occ'][bound], lambda v: format(v, '.1%'))} of its time (fio's mean latency "
                     f"{_span(lat, lambda v: fmt_y(v, 's'))}, {rel} the pace's interval of "
                     f"{_span(itv, lambda v: fmt_y(v, 's'))} per I/O in flight): the pace had no slack left there, "
                     f"and {'its' if n == 1 else 'their'} rate is the path's, outstanding I/O ÷ latency "
                     f"({_span(p['path'][bound], lambda v: fmt_y(v, u))}; measured "
                     f"{_span(p['y'][bound], lambda v: fmt_y(v, u))}), not fio's pace")
    if not parts:
        return [], None
    text = "But " + "; ".join(parts) + "."
    return [Claim("paced", text, {"path_bound": [float(v) for v in xs[full]]})], full


def pace_law_words(result, key, law: str) -> str:
    """A queueing fit of a curve fio's pace made: the fit reproduces the pace (its r0 is the pace's interval), not
    Little's law of a queue (set after round 22 was read, XA: r22_here-fio310rate … numjobs, "Little's law fits the
    rise" with r0 = 125.0 µs, exactly 1 ÷ --rate_iops=8000). ``law`` is returned unchanged where no pace binds."""
    if not law or not pace_binds(result, key):
        return law
    return "The fit reproduces fio's pace, not a queue's law (its per-I/O time is the pace's interval); "


def pace_cause(result, key, low=None) -> str:
    """The cause of a Little's-law fraction far below 1 where fio's pace binds: the jobs waited for their pace's next
    slot (round 22 XH: "… a rate limit or a per-job limit" listed as candidates of runs the explanation had just
    called paced); "" unless every point far below 1 (``low``, a mask in x order) is at its pace — a point below its
    pace (a CPU-bound null engine, r6_here_null_rateiops800k) waited for no slot."""
    from .pacing import _pacing, pace_held

    found = _pacing(result, key)
    at = pace_held(result, key)
    if found is None or at is None or low is None or len(low) != len(at) or not low.any() \
            or not bool(np.all(at[np.asarray(low, bool)])):
        return ""
    from .job_count import each_job

    return f"fio paced them ({found[1]}): {each_job(_pts(result, key))} waited between its I/Os for the pace's next slot"
