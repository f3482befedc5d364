"""The claims about runs fio was told to pace: the rate it kept them to (``--rate_iops``, ``--rate``) and the bound a
think time sets (``--thinktime``) — facts of the runs' own options, said before any device is blamed for a level."""

from __future__ import annotations

import numpy as np

from .claim import Claim, _pts, _what, _xv
from .pacing import AT_PACE, NEAR_PACE, _pacing, jobs_of, pace_held, pace_run_shares, pd_numeric
from .wording import fmt_y

__all__ = ["AT_PACE", "paced_model_claim", "pd_numeric"]



def _think_bound(result, key) -> tuple[np.ndarray, float] | None:
    """(IOPS bound per point, think time) for runs at iodepth 1 whose jobs pause ``--thinktime`` after each I/O: a
    job then completes at most 1 / (think time + its mean latency) I/Os a second; None where a run does not say."""
    from ..ingest.summary import usable_rows

    tbl = result.table
    if result.y_unit != "1/s" or tbl is None or "thinktime_s" not in tbl or "lat_mean_s" not in tbl:
        return None
    rows = usable_rows(tbl)
    pts = _pts(result, key).sort_values(result.x)
    bounds: list = []
    thinks: set = set()
    for joined in pts["sources"].astype(str):
        total = []
        for src in joined.split(";"):
            r = rows[rows["source_path"].astype(str) == src]
            think, lat = pd_numeric(r["thinktime_s"]), pd_numeric(r["lat_mean_s"])
            depth = pd_numeric(r["iodepth"]) if "iodepth" in r else np.array([np.nan])
            if not len(r) or np.isnan(think).any() or np.isnan(lat).any() or not np.all(depth == 1):
                return None
            jobs = jobs_of(r)
            total.append(float(np.sum(jobs / (think + lat))))
            thinks.update(float(v) for v in think)
        bounds.append(float(np.mean(total)))
    return (np.asarray(bounds, float), min(thinks)) if len(thinks) == 1 else None


def _span(v, spec: str = ".0%") -> str:
    """"a–b" of shares, one value where both ends read the same."""
    lo, hi = format(float(np.min(v)), spec), format(float(np.max(v)), spec)
    return lo if lo == hi else f"{lo}–{hi}"


def _level(result, key, lo: float, hi: float) -> str:
    """A measured level (a range) with bytes/s beside IOPS at large blocks, as every level of an explanation."""
    from .fact_claims import level_words
    from .facts import curve_facts

    return level_words(result, curve_facts(result, key), lo, hi)


def _paced(result, key) -> list[Claim]:
    """The rate fio was told to keep, against what was measured (QA s27 I18: the explanations of ``--rate_iops`` and
    ``--rate`` runs listed "a rate limit" among possible causes although the files say which)."""
    found = _pacing(result, key)
    if found is None:
        return _thought(result, key)
    limits, told = found
    pts = _pts(result, key).sort_values(result.x)
    x, u = result.x, result.y_unit
    xs, ys = pts[x].to_numpy(float), pts["y"].to_numpy(float)
    with np.errstate(all="ignore"):
        share = ys / limits
    # a point is at its pace as pacing.pace_held says (the verdict the CPU and saturation facts read too); statements
    # about runs are made of the runs (pacing.pace_run_shares), the point means only where the runs cannot be read
    runs = pace_run_shares(result, key)
    at = pace_held(result, key)
    assert at is not None  # (None only where _pacing finds no pace, returned above)

    def where(mask):
        return ", ".join(_xv(result, v) for v in xs[mask])

    def span(v):
        lo, hi = float(np.min(v)), float(np.max(v))
        return f"{lo:.1%}" if f"{lo:.1%}" == f"{hi:.1%}" else f"{lo:.1%}–{hi:.1%}"

    def pct(mask):
        if runs is None:
            return span(share[mask])
        v = np.concatenate([runs[i] for i in np.flatnonzero(mask)])
        if at[mask].all() and (v < NEAR_PACE).any() and (v >= NEAR_PACE).any():
            # the points are at the pace, some of their runs fell short: both said, the runs counted
            return (f"{span(v[v >= NEAR_PACE])} in {int((v >= NEAR_PACE).sum())} of {v.size} runs, the other "
                    f"{int((v < NEAR_PACE).sum())} short of it at {span(v[v < NEAR_PACE])}")
        return span(v)

    every_run = runs is None or bool(np.all(np.concatenate(runs) >= NEAR_PACE))
    what = _what(result)
    med = float(np.nanmedian(limits))
    if np.nanmax(limits) - np.nanmin(limits) > 0.01 * med:
        return _paced_per_job(result, key, xs, ys, limits, share, at, told, where, pct, runs)
    if at.all():
        return [Claim("paced", f"fio was told to pace these runs ({told}), and "
                               f"{'every run' if every_run else 'every point'} is at that rate ({pct(at)} of "
                               f"it at {x} = {where(at)}): the measured {what} is fio's pacing, not a limit of the "
                               f"device or the host.", {"holder": "the pacing sentence names it (fio's pace)"})]
    if at.any():
        # the peak at fio's pace: said before any sentence that reads the peak as the device's (round 6, r6_ioscope
        # QD: "peaks at 7.95 K IOPS … and falls 20 %" at 97.1 % of --rate=32m)
        top = int(np.nanargmax(ys))
        peak = bool(at[top] and (~at[top + 1:]).any())  # the pace at a peak the curve falls from
        return [Claim("paced", f"fio was told to pace these runs ({told}): at {x} = {where(at)} the measured {what} is "
                               f"that rate ({pct(at)} of {fmt_y(float(np.median(limits[at])), u)}) — a limit set in "
                               f"fio, not one of the device or the host"
                               + (", so the highest point measured is fio's pace, not the device's peak" if peak
                                  else "")
                               + f"; at {x} = {where(~at)} the runs stayed below it ({pct(~at)}).",
                      {"peak_at_pace": peak})]
    return [Claim("paced", f"fio was told to pace these runs ({told}), but {_none_reached(share, runs)}: it did not "
                           f"bind.")]


def _none_reached(share, runs) -> str:
    """"no run reached …" from the runs where they are read, else what the point means show (never "no run" of
    a mean: round 6)."""
    if runs is not None:
        return f"no run reached that rate (at most {float(np.nanmax(np.concatenate(runs))):.1%} of it)"
    return f"no point reached that rate on average (at most {float(np.nanmax(share)):.1%} of it)"


def _paced_per_job(result, key, xs, ys, limits, share, at, told, where, pct, runs=None) -> list[Claim]:
    """A pace that changes along x (``--rate_iops`` per job along numjobs: the total fio allows is the rate times the
    jobs at each point): each point against its own total, never one total for several job counts; a total that
    grows with x is no level, and where the runs fall short of their pace another limit binds — its level is named
    (issue 28, blind2: "99.7 %–99.8 % of 2.00 K IOPS" said of 1, 2 and 4 jobs; "stayed below it" at 8–16 jobs
    without the ~5 K IOPS the runs reached there)."""
    x, u = result.x, result.y_unit
    what = _what(result)

    def totals(mask):
        return ", ".join(fmt_y(float(v), u) for v in limits[mask])

    grows = bool(np.all(np.diff(limits[at]) > 0)) if at.sum() >= 2 else False
    # "grows" only of totals that do (round 22 XE: "grows with read_fraction" beside 5.00 → 4.00 K)
    head = (f"fio was told to pace each job ({told}), so the most it allows "
            f"{'grows' if np.all(np.diff(limits) >= 0) else 'changes'} with {x}")
    if at.all():
        from .pace_slack import slack_claims

        slack, full = slack_claims(result, key)
        paced_at = at if full is None else at & ~full
        every = runs is None or bool(np.all(np.concatenate(runs) >= NEAR_PACE))  # round 22 XH: not "every run" of
        # a list that names a run short of it
        whose = ("fio's pacing per job" if not (~paced_at).any() or not paced_at.any() else
                 f"fio's pacing per job at {x} = {where(paced_at)}")
        return [Claim("paced", f"{head}: every {'run' if every else 'point'} is at its own total ({totals(at)} at "
                               f"{x} = {where(at)}; {pct(at)} of it), so the measured {what} still rises in "
                               f"proportion to that pace — {whose}, not a limit of the device or the host, and no "
                               f"ceiling is reached within the data.")] + slack
    if not at.any():
        return [Claim("paced", f"{head}, but {_none_reached(share, runs).replace('that rate', 'its total')}: "
                               f"it did not bind.")]
    short = ~at
    lo, hi = float(np.min(ys[short])), float(np.max(ys[short]))
    level = _level(result, key, lo, hi)
    after = bool(np.all(xs[short] > np.max(xs[at])))
    scatter = _run_shortfalls(result, xs, at, short, runs)
    if scatter:  # single runs short at held points too: no limit of the short point (round 22 XE)
        return [Claim("paced", f"{head}: at {x} = {where(at)} the measured {what} is that rate times the jobs "
                               f"({totals(at)}; {pct(at)} of it) — a limit set in fio, not one of the device or the "
                               f"host; at {x} = {where(short)} the runs stayed below their totals ({totals(short)}; "
                               f"{pct(short)} of them) at {level}: {scatter}.")]
    return [Claim("paced", f"{head}: at {x} = {where(at)} the measured {what} is that rate times the jobs "
                           f"({totals(at)}; {pct(at)} of it){' and rises with it' if grows else ''} — a limit set in "
                           f"fio, not one of the device or the host; "
                           + (f"from {x} = {_xv(result, float(np.min(xs[short])))} on" if after else
                              f"at {x} = {where(short)}")
                           + f" the runs stayed below their totals ({totals(short)}; {pct(short)} of them) at "
                             f"{level}: "
                           + (f"saturated from {x} = {_xv(result, float(np.min(xs[short])))} at a level that is not "
                              f"fio's pace — another limit (a cap of about {fmt_y(hi, u)}) binds there."
                              if after and short.sum() >= 2 and hi <= 1.1 * lo else
                              "there another limit than fio's pace binds."))]


def _run_shortfalls(result, xs, at, short, runs) -> str:
    """Where every point below its total has a run at it and the points at their totals have runs short of theirs,
    the shortfalls are single runs' (a stall of the host), not a limit of the points below: said of the runs ("" where
    the runs do not show this). Set after round 22 was read (XE: r22_here-fio310rate … randrw readshare, "there another
    limit than fio's pace binds" of read_fraction = 0.5, whose runs reached 99.9 %, while runs at 0.25 and 0.75 fell
    to 88.4 % and 92.9 % of theirs)."""
    if runs is None:
        return ""
    if not all(float(np.max(runs[i])) >= NEAR_PACE for i in np.flatnonzero(short)):
        return ""
    if not any(float(np.min(runs[i])) < NEAR_PACE for i in np.flatnonzero(at)):
        return ""
    fell = [i for i in range(len(runs)) if float(np.min(runs[i])) < NEAR_PACE]
    v = np.concatenate(runs)
    n = int((v < NEAR_PACE).sum())
    return (f"single runs fell short at {result.x} = {', '.join(_xv(result, xs[i]) for i in fell)} alike ({n} of "
            f"{v.size} runs, at {_span(v[v < NEAR_PACE], '.1%')} of their totals), while a run at each of these "
            f"points reached it: shortfalls of runs, not a limit that binds at one point")


def paced_model_claim(result, key, model: str) -> Claim | None:
    """Where fio's pace explains points (their rate at :data:`AT_PACE` of it), no model parameter is read from them:
    a pace has no per-I/O or per-byte cost, knee or ceiling (blind4 r4_here_rateiops_bs_loop: "an IOPS ceiling of
    3.08 K IOPS at small blocks" read from the --rate_iops=3000 runs, after the sentence saying they are fio's pace).
    Along every axis; None where no point that sets a parameter is at the pace."""
    found = _pacing(result, key)
    if found is None:
        return None
    limits = found[0]
    pts = _pts(result, key).sort_values(result.x)
    xs, ys = pts[result.x].to_numpy(float), pts["y"].to_numpy(float)
    with np.errstate(all="ignore"):
        at = np.isfinite(limits) & (limits > 0) & (ys / limits >= AT_PACE)
    # the model's limit is read from the top of the curve (and, along block size, its per-I/O term from the smallest
    # block): where those points are fio's pace, so is the parameter; a level above the pace reached by unpaced
    # points is another limit, read as before (blind2 r2_here_blkio_iops_rateiops_numjobs: a cap at 5.03 K)
    if not (at[int(np.nanargmax(ys))] or (result.x == "block_size_bytes" and at[0])):
        return None
    rest = int((~at).sum())
    left = ("" if not rest else f"; the {rest} point{'s' if rest > 1 else ''} below the pace "
            f"{'are' if rest > 1 else 'is'} not read on {'their' if rest > 1 else 'its'} own")
    return Claim("model", f"fio's pace sets the rate at {result.x} = "
                          f"{', '.join(_xv(result, v) for v in xs[at])}: a pace has no per-I/O or per-byte cost, knee "
                          f"or ceiling, so the {model} fit's parameters are not read as facts about these "
                          f"points (they are in params and summary()){left}.", {"interpreted": False, "paced": True})


def _thought(result, key) -> list[Claim]:
    """``--thinktime`` at iodepth 1: the pace the think time alone sets (jobs ÷ think time), point by point, against
    the measured rate (QA s27 I18: 500 µs of think time was listed nowhere as the cause of 1.5 K IOPS per job).

    No "at most": fio 3.33 does not pause after the I/Os that follow a ``ramp_time`` (its count of completed I/Os
    restarts at the ramp's end, the mark it pauses at does not), so runs with a ramp exceed jobs ÷ (think time +
    latency) — measured here, null engine, 1 ms think time, 2 s: 933 IOPS without a ramp, 1,203 with 500 ms (issue
    28, blind2: "allows at most 84 IOPS … the runs reached 103.9 %–120.8 % of that bound"). Where the runs fall well
    below the pace (< 90 %) while latency grows, another limit binds there, and its level is said."""
    found = _think_bound(result, key)
    if found is None:
        return []
    bounds, think = found
    pts = _pts(result, key).sort_values(result.x)
    x, u = result.x, result.y_unit
    xs, ys = pts[x].to_numpy(float), pts["y"].to_numpy(float)
    jobs = pts["jobs"].to_numpy(float) if "jobs" in pts else np.ones(len(pts))
    if not np.all(np.isfinite(jobs)) or not np.all(jobs > 0) or not np.all(np.isfinite(ys)):
        return []
    pace = jobs / think  # what the think time alone allows: one I/O per think time per job, latency aside
    share = ys / pace
    lat = jobs / bounds - think  # fio's mean latency per point (the bound is jobs ÷ (think + latency))
    lat_min = float(np.nanmin(lat)) if np.isfinite(lat).any() else np.nan
    # at the pace: 90 % of jobs ÷ think time, or of jobs ÷ (think time + latency) where no queue builds (latency
    # within twice the smallest): a latency that grows with the jobs is a queue at another limit (Little's law makes
    # jobs ÷ (think + latency) hold there too, so it does not tell the pace from a cap)
    paced = (share >= 0.9) | ((ys >= 0.9 * bounds) & (lat <= 2 * lat_min))

    def where(mask):
        return ", ".join(_xv(result, v) for v in xs[mask])

    def pct(mask):
        lo, hi = float(np.min(share[mask])), float(np.max(share[mask]))
        return f"{lo:.0%}" if f"{lo:.0%}" == f"{hi:.0%}" else f"{lo:.0%}–{hi:.0%}"

    from .job_count import each_job

    head = (f"{each_job(pts, capital=True)} paused {fmt_y(think, 's')} after every I/O (--thinktime) at iodepth 1, a pace of jobs ÷ think "
            f"time ({', '.join(fmt_y(float(v), u) for v in pace)} at {x} = {where(np.ones(len(xs), bool))}) before "
            f"fio's latency is added")
    parts = [head]
    if paced.any():
        with np.errstate(all="ignore"):
            of_cycle = float(np.nanmin((think / (think + lat))[paced]))
        parts.append(f"at {x} = {where(paced)} the runs are paced by it ({pct(paced)} of it; "
                     f"{_span(ys[paced] / bounds[paced], '.1%')} of "
                     f"jobs ÷ (think time + fio's mean latency), the think time {of_cycle:.0%} or more of each I/O's "
                     f"time): the think time sets these rates, not the device or the host")
        over = paced & (ys > 1.03 * bounds)
        if over.any():
            parts.append(f"at {x} = {where(over)} they exceed even jobs ÷ (think time + fio's mean latency) "
                         f"(by {_span(ys[over] / bounds[over] - 1)}): "
                         f"the pause is no upper bound here — fio skips it after the I/Os that follow a ramp_time, "
                         f"where the job file sets one")
    short = ~paced
    if short.any():
        lo, hi = float(np.min(ys[short])), float(np.max(ys[short]))
        level = _level(result, key, lo, hi)
        after = paced.any() and bool(np.all(xs[short] > np.max(xs[paced])))
        grows = f", while fio's mean latency grows to {fmt_y(float(np.max(lat[short])), 's')}" \
            if np.all(np.isfinite(lat[short])) and np.max(lat[short]) > 0 else ""
        sat = (f": saturated from {x} = {_xv(result, float(np.min(xs[short])))} at a level the think time does not "
               f"set — another limit binds there" if after and short.sum() >= 2 and hi <= 1.1 * lo else
               ": there another limit than the think time binds")
        parts.append((f"from {x} = {_xv(result, float(np.min(xs[short])))} on" if after else f"at {x} = {where(short)}")
                     + f" the runs stay below it ({pct(short)} of it) at {level}{grows}{sat}")
    return [Claim("paced", "; ".join(parts) + ".")]
