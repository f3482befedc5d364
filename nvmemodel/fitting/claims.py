"""Evidence + the chosen model → the claims an explanation may make, and only those.

Each sentence of :meth:`FitResult.explain` is a :class:`Claim` built here from what the data show
(:mod:`~nvmemodel.fitting.evidence`: still rising, falls after a maximum, plateau with its spread, structured
residuals — each tested against the runs' noise), what the chosen model says, the topology's component
ceilings and fio's own CPU and latency figures. A model's shape sentence is written only when the data
agree with it (docs/fitting.md lists what each claim needs):

========================  ====================================================================
claim                     evidence it needs
========================  ====================================================================
"flattens at X (sd s)"    ≥ 2 trailing points within noise of their maximum, reached from below
"peaks … and falls"       the last point below the maximum by more than noise; for the USL also
                          κ's 95 % interval above 0
"still rises"             the last point above the one before by more than noise
"limit of X however far   the data flatten and X ≤ 1.5 × the largest measurement; else X is
x grows"                  called an extrapolation
"no bend"                 a linear fit chosen, the data neither flatten nor fall, residuals not
                          structured, the rate per unit at both ends equal within a known noise
                          (else the ratios of the steps are given)
"rose ×g for ×l …: not    neighbouring points whose rate per unit of load rose beyond noise (one run
in the same state"        per point: by > 25 %); no model parameter is then interpreted
"misses k points by       fitted ÷ measured − 1 beyond ±50 % at ≥ 2 points
more than 50 %"
"describes little of the  R² < 0.5: no parameter of the fit is interpreted
variation"
"iodepth had no effect"   a synchronous engine, or fio's iodepth_level ≥ 99 % at depth 1 in every run
"misses a step near x"    runs test / lack of fit on the chosen model's residuals
"consistent with <c>"     the measured plateau between 85 % and 100 % (+ noise) of component c's
                          ceiling at that x (a topology is given)
"FALSIFIED"               a measurement above the model's ceiling by more than rounding and twice
                          its standard error
"far below every          the plateau under half the lowest modelled ceiling
ceiling"
"CPU-bound"               fio's usr+sys CPU: each job ≥ 90 % of one CPU, or the jobs ≥ 90 % of the
                          host's cores (at the maximum); a job ≥ 90 % at any point below the level
                          reached: "CPU-bound there", and no Little's-law knee is read from that rise — unless
                          another point made as much per job with < 90 % (a rate limit spins: not the limit)
"short runs"              fio's runtime of a point's runs under 0.5 s
========================  ====================================================================
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .size_regime import regime_fall, regime_fall_words
from .claim import (  # noqa: F401  (curve_evidence: fact_claims' stream_evidence, kept here for plots.fit)
    EXTRAPOLATION, Claim, _level_runs, _pct, _pts, _what, _xv, in_tool_words, runs_rows)
from .ceiling import X_AXES, ceiling_profile, fitted_overrides
from .cpu_claims import _cpu, _cpu_bound_below
from .cpu_limits import busy_rise_end
from .cpu_options import with_cpu_work
from .curves import Y_COLUMNS, one_in_flight
from .derived import derived_quantities, no_peak
from .evidence import Evidence, _pooled, superlinear_steps
from .linear_scaling import fixed_outstanding as _fixed_outstanding, linear_scaling_claim, superlinear_machines
from .load_time import load_time_claim
from .fact_claims import (below_top_words, cpu_claims, creep_words, direction_claims, fan_out_claim, fit_words,
                          layer_claims, lead_claims, level_words, noise_phrase, one_kind, served_words, size_claims,
                          size_iops_text,
                          size_step_text, stall_claim, stalled_words, set_aside_claims, step_sides, states_level, untrusted_claim,
                          quiet_on_rise)
from .fact_claims import stream_evidence as curve_evidence
from .facts import curve_facts
from .knee_words import near_byte_end
from .pacing import _at_pace
from .run_noise import last_alone_words, max_runs_words, why_no_noise
from .pace_slack import pace_law_words
from .poll_words import unpolled_claims
from .two_point_queue import two_point_queue, two_point_words
from .pacing_claims import _paced, paced_model_claim
from .measured_top import measured_top, point_medians, top_note
from .job_spans import job_span_claims
from .sentences import _ceiling_sentences, _little_check
from .size_model import per_io_byte_claims
from .size_split import split_level, split_level_words
from .first_size import first_size_level, first_size_words, level_before_peak, level_before_words
from .verify import checked
from .wording import _fx, _r2, counted, fmt_p, fmt_y

__all__ = ["Claim", "curve_claims", "curve_evidence"]

#: a fit whose R² is below this describes too little of the variation between the points for its parameters to mean
#: anything about them
MIN_R2 = 0.5
#: a fitted value off the measurement by more than this share, at ≥ 2 points, is said
FAR_OFF = 0.5
#: the fit's notes an explanation says (where the model is read): about the fit as a whole, not one parameter
WHOLE_FIT = ("point(s) for", "points for", "passes through every point")
#: a component whose ceiling the plateau reaches to within this fraction (and does not exceed beyond noise)
#: is consistent with it
CONSISTENT = 0.85


def _measured(result, ev: Evidence, cf=None) -> Claim:
    u, x = result.y_unit, result.x
    what = _what(result)
    noise = noise_phrase(ev)
    if u == "s":  # a latency: no ceiling or plateau of throughput to speak of, only where it goes
        i0, i1 = int(np.argmin(ev.x)), int(np.argmax(ev.x))
        goes = (f"goes from {fmt_y(ev.y[i0], u)} at {x} = {_xv(result, ev.x[i0])} to {fmt_y(ev.y[i1], u)} at {x} = "
                f"{_xv(result, ev.x[i1])}" + (f", still rising beyond {noise} at the largest {x}" if ev.rising else ""))
        larger = _larger_direction(result, ev)
        if larger:
            return Claim("latency", f"{larger} {goes}; the {result.y.split('_', 1)[1][:-2]} over all of a mixed run's "
                                    f"I/O was not measured (fit read_{result.y} or write_{result.y} for one direction).")
        named = {"lat_mean_s": "mean latency (lat_mean_s)", "clat_mean_s": "mean completion latency (clat_mean_s)",
                 "slat_mean_s": "mean submission latency (slat_mean_s)"}.get(result.y, result.y)
        return Claim("latency", f"Measured {named} {goes}.")
    if x == "block_size_bytes" and u == "1/s":  # IOPS fall with block size whatever binds: not a "peak"
        return Claim("block size", size_iops_text(result, cf, ev, noise))
    if ev.step:
        lo, hi = ev.step["low"], ev.step["high"]

        def level(p):
            return f"{fmt_y(p['value'], u)} ({_level_runs(result, p)})"

        return Claim("step", size_step_text(result, ev, level) or f"Measured {what} shows two levels: {level(lo)}, "
                     f"then {level(hi)} — a step of ×{hi['value'] / lo['value']:.3g} between {x} = "
                     f"{_xv(result, lo['x_to'])} and {_xv(result, hi['x_from'])}: two regimes? (what holds the lower "
                     f"level does not hold the upper one).")
    if ev.plateau:
        p = ev.plateau
        m = ev.maximum
        peak = (f"; its largest point, {fmt_y(m['y'], u)} at {x} = {_xv(result, m['x'])}, is {m['y'] / p['value'] - 1:.0%} "
                f"above that level" if m["y"] > 1.1 * p["value"] else "")  # (a peak inside the stretch is not hidden)
        sp = split_level(cf, p) if x == "block_size_bytes" and u == "B/s" and cf is not None else None
        if sp:  # a step inside the joined sizes splits the byte level (round 27, IE: size_split.py)
            return Claim("plateau", split_level_words(result, sp))
        return Claim("plateau", f"Measured {what} flattens at {level_words(result, cf, p['value'])} "
                                f"({_level_runs(result, p)}){peak}.")
    if ev.falls and np.unique(ev.x).size < 3:  # two loads: a lower second value, not a peak (no shape claimed)
        d = ev.falls
        return Claim("falls", f"Measured {what} is {d['drop']:.0%} lower at {x} = {_xv(result, d['x_last'])} "
                              f"({fmt_y(d['y_last'], u)}) than at {x} = {_xv(result, d['x_max'])} "
                              f"({fmt_y(d['y_max'], u)}), more than {noise}.")
    if ev.falls:
        d = ev.falls
        lb = (level_before_peak(ev.x, ev.y, d["x_max"]) if x == "block_size_bytes" and u == "B/s" else None)
        held = level_before_words(result, lb, d["x_max"]) if lb else ""  # the level began before the peak (r30 QE)
        return Claim("falls", f"Measured {what} {held}peaks at {level_words(result, cf, d['y_max'])} at {x} = {_xv(result, d['x_max'])} and "
                              f"falls {d['drop']:.0%} to {fmt_y(d['y_last'], u)} at {x} = {_xv(result, d['x_last'])}, "
                              f"more than {noise_phrase(ev, d['drop'])}.")
    if ev.rising and np.unique(ev.x).size < 3:  # two loads: a higher second value, no shape (QA s25 H40)
        r = ev.rising
        return Claim("rises", f"Measured {what} is {r['rise']:.0%} higher at {x} = {_xv(result, r['x_to'])} "
                              f"({fmt_y(r['y_to'], u)}) than at {x} = {_xv(result, r['x_from'])} "
                              f"({fmt_y(r['y_from'], u)}), more than {noise}.")
    if ev.rising and (bl := first_size_level(result, cf)) is not None:  # a byte level from the first size (r30 QD)
        return Claim("plateau", first_size_words(result, bl, what),
                     {"state": "from_first", "unit": "B/s", "plateau": bl["mid"], "onset_x": bl["x0"]})
    if ev.rising:
        r = ev.rising
        i_max = int(np.argmax(ev.y))
        if i_max < ev.y.size - 1 and ev.y[i_max] > ev.y[-1]:
            # the last step rises, but the largest measurement lies earlier: a recovery, not the approach to a
            # ceiling the data have not reached
            m = ev.maximum
            spread = f", sd {fmt_y(m['spread'], u)} over {m['runs']} runs" if np.isfinite(m["spread"]) else ""
            end = (f"; the largest measurement lies earlier: {fmt_y(m['y'], u)} at {x} = {_xv(result, m['x'])}"
                   f"{spread} ({m['y'] / ev.y[-1] - 1:.0%} above the last point).")
        else:  # a CPU-limited rise (round 21 VE) first; a last step within its runs is said (round 21 VH)
            end = (cf is not None and busy_rise_end(result, cf, r)) or (
                (w + ".") if (w := last_alone_words(result, cf.points, r["x_from"], r["x_to"])) else
                (cf is not None and near_byte_end(result, cf, r)) or "; the data do not reach a ceiling.")
        return Claim("rising", f"Measured {what} still rises at the largest {x}: {fmt_y(r['y_from'], u)} at "
                               f"{_xv(result, r['x_from'])} → {fmt_y(r['y_to'], u)} at {_xv(result, r['x_to'])} "
                               f"({r['rise']:+.0%}, beyond {noise_phrase(ev, r['rise'])})" + end, dict(r))
    m = ev.maximum
    if ev.flat:
        lo, hi = fmt_y(float(np.min(ev.y)), u), fmt_y(float(np.max(ev.y)), u)
        return Claim("flat", f"Measured {what} does not change with {x} beyond {noise}: "
                             + (f"{lo} at every point." if lo == hi else f"{lo}–{hi}.") + stalled_words(result, cf, pooled=True))
    if not ev.noise_known and (q := two_point_queue(result, cf)) is not None:  # the added I/O queued (round 24 BB)
        return Claim("saturation", two_point_words(result, cf, q), q)
    if not ev.noise_known and x == "block_size_bytes" and u == "B/s" and (rf := regime_fall(ev.x, ev.y)):
        return Claim("falls", regime_fall_words(result, what, rf), rf)  # read from the steps (round 32 UC)
    if not ev.noise_known:
        i0, i1, im = int(np.argmin(ev.x)), int(np.argmax(ev.x)), int(np.argmax(ev.y))
        return Claim("unknown noise", f"Measured {what} goes from {fmt_y(ev.y[i0], u)} at {x} = {_xv(result, ev.x[i0])} "
                                      f"to {fmt_y(ev.y[i1], u)} at {x} = {_xv(result, ev.x[i1])} (×{ev.y[i1] / ev.y[i0]:.3g}"
                                      f"; maximum {fmt_y(ev.y[im], u)} at {_xv(result, ev.x[im])}); with {ev.x.size} "
                                      f"points of one run each and {why_no_noise(ev.noise_basis)}, their noise is not "
                                      f"known: they cannot tell a plateau from noise.")
    spread = max_runs_words(result, cf, m)
    return Claim("maximum", f"Measured {what} reaches {level_words(result, cf, m['y'])}{spread} at {x} = {_xv(result, m['x'])}; "
                            + (creep_words(result, m, noise, cf) or f"the last points neither rise nor fall beyond {noise}, "
                                                                 f"but too few lie level to call it a plateau."))


def _larger_direction(result, ev: Evidence) -> str:
    """"The larger of the read and write p99 of each run (here: writes)" where y is a percentile of mixed runs, whose
    value per run is the larger direction's (QA s25 H31); "" otherwise."""
    pts = result.points
    if not result.y.startswith(("clat_p", "lat_p")) or "y_direction" not in pts:
        return ""
    dirs = sorted({d for v in pts["y_direction"].dropna().astype(str) for d in v.split("+") if d})
    if not dirs:
        return ""
    name = result.y.split("_", 1)[1][:-2]  # clat_p99_s → p99, clat_p99_9_s → p99_9, lat_p99_s → p99
    name = name.replace("_", ".")
    return (f"The larger of the read and write {name} of each run ({result.y}; here: "
            f"{' and '.join(d + 's' for d in dirs)})")


def _runs_above(cf, value: float) -> tuple[int, float, float]:
    """(how many kept runs lie above ``value``, the largest, its x) — a limit "above every measurement" is checked
    against the runs, not only the points' means and medians (set after round 28 was read: r28_here-vdawrite, Amdahl's
    limit 95.2 K "above every measurement" beside a 103.65 K run, MI)."""
    if cf is None or "runs_kept" not in cf.points:
        return 0, float("nan"), float("nan")
    best, at, n = float("nan"), float("nan"), 0
    for xv, runs in zip(cf.points["x"].to_numpy(float), cf.points["runs_kept"]):
        r = np.asarray(runs, float) if runs is not None else np.array([])
        r = r[np.isfinite(r)]
        n += int((r > value).sum())
        if r.size and not (r.max() <= best):
            best, at = float(r.max()), float(xv)
    return n, best, at


def _limit_words(result, ev: Evidence, value: float, lo: float, hi: float, subject: str, cf=None) -> str:
    """A fitted asymptote of a curve whose facts state no level: one below a measurement is none, and one above every
    measurement is the model's shape beyond the data — its value is not printed (round 8: a 1.6× "contention alone"
    limit read as headroom; it stays in params and summary())."""
    mt = measured_top(result, ev)  # each point by its mean and its runs' median, the larger (round 26 FA)
    top = mt.value
    if not np.isfinite(value):
        return f"{subject} has no finite limit"
    if value < top:  # a ceiling is an upper bound: one below a measurement is none (issue 28)
        at = f" at {result.x} = {_xv(result, ev.x[mt.index])}{top_note(mt, result.y_unit)}" if mt.by_median else ""
        return (f"{subject} gives an asymptote {_pct(1 - value / top)} below the largest measurement "
                f"({fmt_y(top, result.y_unit)}{at}): {below_top_words(result, ev)}")
    n_above, best, at_x = _runs_above(cf, value)
    if n_above and not ev.rising:  # one run beyond it: "no measurement reaches it" would be false (round 28 MI)
        return (f"{subject} has a limit above every point's mean and median, but {n_above} "
                f"run{'s' * (n_above > 1)} went beyond it (up to {fmt_y(best, result.y_unit)} at {result.x} = "
                f"{_xv(result, at_x)}): the runs scatter across it, so it is not stated")
    where = f"the data still rise at the largest {result.x}" if ev.rising else "no measurement reaches it"
    return f"{subject} has a limit above every measurement: {where}, so it is not stated"


def _latency_at_one(result, key) -> tuple[float, float]:
    """fio's mean latency (run mean) at one outstanding I/O and the rate measured there (NaN where absent): a run at one
    outstanding I/O without fio's latency in the table is not "no run" (round 11 LA: r11_lisa-pr74 randwrite qd)."""
    pts = _pts(result, key)
    one = pts[pts["outstanding"] == 1] if "outstanding" in pts else pts.iloc[:0]
    lat = one["lat_mean_s"].dropna() if "lat_mean_s" in one else one.iloc[:0]
    return (float(lat.mean()) if len(lat) else np.nan), (float(one["y"].mean()) if len(one) else np.nan)


def _r0_at_smallest(result, key, r0: float) -> str:
    """The model's latency per I/O below the knee against fio's at the smallest outstanding count, where no run had
    one I/O outstanding: along iodepth the fitted r0 is per unit of iodepth, each unit being numjobs I/Os in flight,
    so the model's latency per I/O is numjobs × r0. "" where the I/Os per unit of x differ between the points."""
    pts = _pts(result, key).sort_values(result.x)
    if "outstanding" not in pts or "lat_mean_s" not in pts or not np.isfinite(r0):
        return ""
    out = pts["outstanding"].to_numpy(float)
    per = out / pts[result.x].to_numpy(float)
    if not np.all(np.isfinite(per)) or np.ptp(per) > 1e-9 * per[0]:
        return ""
    jobs = float(per[0])
    i = int(np.argmin(out))
    measured = float(pts["lat_mean_s"].iloc[i])
    model = jobs * r0
    x = result.x
    how = (f"{_fx(jobs)} jobs × r0 = {fmt_y(r0, 's')} per unit of {x}" if jobs != 1 else "r0")
    text = f"The model's latency per I/O below the knee is {fmt_y(model, 's')} ({how})"
    if not np.isfinite(measured):
        return text + "; no run had one I/O outstanding, so no latency floor was measured: r0 is a fitted parameter."
    text += (f"; fio measured {fmt_y(measured, 's')} at {x} = {_xv(result, pts[x].iloc[i])} ({_fx(out[i])} I/Os "
             f"outstanding, the fewest of any run)")
    if abs(model / measured - 1) > 0.25:
        return text + ": r0 is a fitted parameter, not the device's latency floor."
    return text + "."


def _knee_between(ev: Evidence, knee) -> tuple[float, float] | None:
    """(a, b): the neighbouring measured x values the knee and its whole interval lie strictly between, else None."""
    if not knee or not all(np.isfinite(v) for v in knee[:3]):
        return None
    xs = np.unique(ev.x)
    lo, hi = xs[xs <= knee[1]], xs[xs >= knee[2]]
    if not lo.size or not hi.size:
        return None
    a, b = float(lo.max()), float(hi.min())
    inside = xs[(xs > a) & (xs < b)]
    return (a, b) if not inside.size and a < knee[0] < b else None


def _told_superlinear(model: str) -> Claim:
    """The model's part where the saturation claim already said the step faster than its load (round 29 OC)."""
    return Claim("superlinear", f"A step rose faster than its load (the saturation sentence above), which no queueing "
                                f"model does: no parameter of the {model} fit is interpreted (its values are in params "
                                f"and summary()).")


def _superlinear(result, key, ev: Evidence, model: str) -> Claim | None:
    """Steps where throughput rose faster than the load (beyond noise), with fio's latency at both ends."""
    steps = superlinear_steps(ev)
    if not steps or result.y_unit == "s":
        return None
    pts = _pts(result, key).sort_values(result.x)
    lat = pts["lat_mean_s"].to_numpy(float) if "lat_mean_s" in pts else np.full(len(pts), np.nan)
    x, parts = result.x, []
    for st in steps:
        text = (f"{_what(result)} rose ×{st['gain']:.3g} for ×{st['load']:.3g} {x} ({x} = {_xv(result, st['x_from'])} "
                f"→ {_xv(result, st['x_to'])})")
        i, j = st["i"], st["j"]
        if np.isfinite(lat[i]) and np.isfinite(lat[j]) and lat[j] < lat[i]:
            which = _shared_queue(result, key)
            text += (f": fio's mean {which[0] + ' ' if which else ''}latency fell from {fmt_y(lat[i], 's')} to "
                     f"{fmt_y(lat[j], 's')}")
        parts.append(text)
    said = "; ".join(parts)
    # the cause is not asserted: a per-I/O cost that more outstanding I/O hides (host-side submission and completion,
    # interrupt moderation, power states) does this as well as a change between runs, and one run per point cannot
    # tell them apart (issue 28: "not in the same state" said where a QD1 latency above QD8's is the host's cost)
    reps = pts["n_runs"].to_numpy(float) if "n_runs" in pts else np.ones(len(pts))
    drift = "the repeats at each point" if np.all(reps >= 2) else "one run per point"
    think = _recorded(result, key, "thinktime_s")
    if think > 0:  # fio paused after every I/O: one I/O at a time, its rate 1 ÷ (think time + latency)
        return Claim("superlinear", said[:1].upper() + said[1:] + f". Every job paused {fmt_y(think, 's')} after each I/O "
                                    f"(--thinktime): with one I/O at a time a run's rate is 1 ÷ (think time + its "
                                    f"latency), so it moved with the latency from run to run, not with {result.x}; no "
                                    f"parameter of the {model} fit is interpreted.")
    fixed = _fixed_outstanding(result, key, pts)
    if fixed is not None:  # devices added at one outstanding count: not more load, faster service (round 29 NC)
        n, t = fixed
        a, b = float(steps[0]["x_from"]), float(steps[0]["x_to"])
        t0, t1 = t.get(a, np.nan), t.get(b, np.nan)
        return Claim("superlinear", said[:1].upper() + said[1:] + f". Along {result.x} the outstanding I/O stayed "
                                    f"{_fx(n)} at every count, so the added devices did not add load: by Little's law "
                                    f"each request's time ({_fx(n)} ÷ IOPS) went from {fmt_y(t0, 's')} at {_xv(result, a)} to "
                                    f"{fmt_y(t1, 's')} at {_xv(result, b)} — the same requests served faster with more devices (each "
                                    f"spread over more of them), or a change between the runs; {drift} cannot tell "
                                    f"which, so no parameter of the {model} fit is interpreted.")
    machines = superlinear_machines(result, pts, said, model, drift)  # another machine at each count (round 30 PF)
    if machines is not None:
        return machines
    return Claim("superlinear", said[:1].upper() + said[1:] + ". No queueing model rises faster than its load (X ≤ N/R₀ at a "
                                "fixed latency floor): at the lower load each I/O took longer — a per-I/O cost that "
                                "more outstanding I/O hides (host-side submission and completion, interrupt moderation, "
                                f"power states) or a change between the runs; {drift} cannot tell which, so no parameter "
                                f"of the {model} fit is interpreted (its values are in params and summary()).")


def _recorded(result, key, column: str) -> float:
    """The value every run of the curve recorded for an option column (ingest's), or 0 where they differ or none did."""
    rows = runs_rows(result, _pts(result, key))
    if rows is None or column not in rows:
        return 0.0
    import pandas as pd

    v = pd.to_numeric(rows[column], errors="coerce")
    return float(v.iloc[0]) if len(v) and v.notna().all() and v.nunique() == 1 else 0.0


def _far_off(result, f) -> Claim | None:
    """A fit that misses ≥ 2 measurements by more than :data:`FAR_OFF` of their value says where and by how much."""
    order = np.argsort(f.x, kind="stable")
    fx, fy = f.x[order], f.y[order]
    with np.errstate(all="ignore"):
        rel = f.eval(fx) / fy - 1
    far = np.flatnonzero(np.isfinite(rel) & (np.abs(rel) > FAR_OFF) & (fy > 0))
    if far.size < 2:
        return None
    return Claim("far off", f"Caution: the {f.shape.name} fit misses {far.size} points by more than {FAR_OFF * 100:.0f} %: "
                            + ", ".join(f"{rel[i]:+.0%} at {result.x} = {_xv(result, fx[i])}" for i in far)
                            + " (fitted ÷ measured − 1).")


def _no_load(result, key, flight: dict, ev: Evidence | None = None) -> Claim:
    """iodepth of a synchronous engine (or of runs fio kept at depth 1): not a load."""
    x = result.x
    d1 = flight["depth1"]
    record = f"fio: {d1:.3g} % of I/O at depth 1 in every run" if np.isfinite(d1) else ""
    inline = np.isfinite(flight.get("inline", np.nan))
    if flight["engine"]:
        why = f"{flight['engine']} is synchronous" + (f" ({record})" if record else "")
    elif inline:  # buffered libaio: the I/O was done inside io_submit (submit_inline, round 23 ZA)
        from .submit_inline import inline_words

        why = inline_words(result, _pts(result, key)) or "each I/O completed inside its submission call"
    else:
        why = record.replace("fio: ", "fio ran ")
    lo, hi = flight["jobs"]
    jobs = f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"
    pts = _pts(result, key)
    value, spread, runs = _pooled(pts, list(range(len(pts))))
    level = (f" Over all {runs} runs: {fmt_y(value, result.y_unit)}"
             + (f" (sd {fmt_y(spread, result.y_unit)})" if np.isfinite(spread) else "") + ".")
    not_load = (f"the outstanding I/O is numjobs ({jobs}) at every point, so {x} is not a load and no queueing or "
                f"scaling model is fitted along it.")
    if ev is None or ev.flat or (ev.noise_known and _one_level(ev)):
        return Claim("no load", f"{x} had no effect: {why}; " + not_load + level)
    # the level changed along x although one I/O was in flight at every point: "no effect" would contradict the
    # measurements (QA s27 I2: the null engine made 4.47 M IOPS at iodepth 1 and 2.64 M at 256, all at depth 1)
    lo, hi = int(np.argmin(ev.y)), int(np.argmax(ev.y))
    u = result.y_unit
    said = (f"{x} is not a load here: {why}; the outstanding I/O is numjobs ({jobs}) at every point, and no queueing or "
            f"scaling model is fitted along {x}. ")
    span = (f"{fmt_y(ev.y[hi], u)} at {x} = {_xv(result, ev.x[hi])}, {fmt_y(ev.y[lo], u)} at "
            f"{_xv(result, ev.x[lo])} ({ev.y[lo] / ev.y[hi] - 1:+.0%})")
    if not ev.noise_known and np.corrcoef(np.log2(ev.x), ev.y)[0, 1] ** 2 < 0.5:  # no trend along x: runs (r7 CE)
        return Claim("no load", said + f"Its {runs} points are {runs} runs of one load: {fmt_y(value, u)}, sd "
                                       f"{fmt_y(spread, u)} ({spread / value:.0%}), {fmt_y(ev.y[lo], u)} to "
                                       f"{fmt_y(ev.y[hi], u)}.")
    if ev.noise_known:
        said += (f"Yet the measurements are not one level beyond their noise: {span} — not a queueing effect with one "
                 f"I/O in flight: something else changed with {x}.")
    else:
        said += (f"The measurements are not one level: {span}; with one run per point it is not known whether {x} "
                 f"changed the level or the runs scatter that much.")
    return Claim("no load", said + level)


def _one_level(ev: Evidence, alpha: float = 0.01) -> bool:
    """The points agree with one level within their standard errors: χ² = Σ((yᵢ − ȳ)/seᵢ)² (ȳ weighted by 1/seᵢ²)
    against χ²(n − 1), not rejected at ``alpha``. Comparing only the largest and the smallest of n noisy means would
    find a "difference" in pure noise (6 psync points of 2 runs each spread 12.3–17.9 K IOPS, χ² p ≈ 0.1)."""
    from scipy import stats

    se = np.asarray(ev.se, float)
    if ev.y.size < 2 or not np.all(np.isfinite(se) & (se > 0)):
        return False
    w = 1.0 / se**2
    mean = float(np.sum(w * ev.y) / np.sum(w))
    chi2 = float(np.sum(((ev.y - mean) / se) ** 2))
    return bool(stats.chi2.sf(chi2, ev.y.size - 1) >= alpha)


def _shared_queue(result, key) -> tuple[str, str] | None:
    """(this direction, the other) when y is one direction of a mixed job whose runs had I/O in the other."""
    direction = Y_COLUMNS.get(result.y, (None, None))[1]
    pts = _pts(result, key)
    if direction not in ("read", "write") or "shared_queue" not in pts or not bool(pts["shared_queue"].any()):
        return None
    return direction, "write" if direction == "read" else "read"


def _direction_latencies_at_one(result, key) -> dict:
    """fio's mean latency per direction (I/O-weighted over the runs) at one outstanding I/O; {} where not known."""
    from ..ingest.summary import usable_rows

    pts = _pts(result, key)
    one = pts[pts["outstanding"] == 1] if "outstanding" in pts else pts.iloc[:0]
    tbl = result.table
    if not len(one) or tbl is None or "lat_mean_s" not in tbl or "direction" not in tbl:
        return {}
    sources = {s for joined in one["sources"] for s in str(joined).split(";")}
    rows = usable_rows(tbl)
    rows = rows[rows["source_path"].astype(str).isin(sources)]
    out = {}
    for direction, g in rows.groupby("direction"):
        lat = g["lat_mean_s"].to_numpy(float)
        w = g["ios"].to_numpy(float) if "ios" in g else np.ones(len(g))
        ok = np.isfinite(lat) & np.isfinite(w) & (w > 0)
        if ok.any():
            out[str(direction)] = float(np.average(lat[ok], weights=w[ok]))
    return out


def _model_claims(result, key, f, d, ev: Evidence, struct, no_load: bool = False, cf=None, prior=(), level=False) -> list[Claim]:
    """What the chosen model adds to the facts. Where the facts state a level (``level``: fact_claims.states_level) it
    adds no knee, limit, ceiling or mechanism — only what the points show beside any model (steps that rose faster
    than the load, a load that stopped being one, devices added at a load that did not grow); elsewhere never a value
    above every measurement."""
    u, x, model = result.y_unit, result.x, result.chosen[key]
    out = []
    top = float(np.max(ev.y))
    # a step faster than its load already said in the saturation claim (near_saturation.py, round 29 OC): not twice
    told = any(c.kind == "saturation" and "Faster than its load:" in c.text for c in prior)
    if level:  # the facts say the level: what remains is what the points show beside any model (fio's pace is said
        # by the pacing facts; "its parameters are not read" is summary()'s, CAUSES rule 4)
        sup = _superlinear(result, key, ev, model) if x not in ("block_size_bytes",) and not ev.step else None
        sup = _told_superlinear(model) if sup is not None and told else sup
        stall = stall_claim(result, cf) if model in ("amdahl", "usl") and sup is None else None
        fan = fan_out_claim(result, cf, f.stats["r2"]) if model == "usl" and sup is None and stall is None else None
        return [c for c in (sup, stall, fan) if c is not None]
    if np.unique(ev.x).size < 3 and not ev.noise_known and two_point_queue(result, cf) is not None:
        return []  # the level from the first point is said with its latency (round 24 BB: two_point_queue.py)
    if np.unique(ev.x).size < 3:  # two loads: a ratio, not a shape (a line through 0 and one bend fit anything)
        i0, i1 = int(np.argmin(ev.x)), int(np.argmax(ev.x))
        return [Claim("model", f"With two {x} values no shape is claimed: ×{ev.x[i1] / ev.x[i0]:.3g} the {x} gave "
                               f"×{ev.y[i1] / ev.y[i0]:.3g} the {_what(result)}; whether and where it bends needs more "
                               f"points.")]
    if ev.step:
        return [Claim("model", f"No single-regime model describes a step: the {model} fit (R² = {_r2(f.stats['r2'])}) "
                               f"runs between the two {step_sides(result, ev)}, so its knee, limit and parameters are not claims about "
                               f"these data; fit each regime on its own (filter {x}) to describe it.")]
    paced = paced_model_claim(result, key, model)  # fio's pace explains points: no parameter read (blind4)
    if paced is not None:
        return [paced]
    if x not in ("block_size_bytes",):
        sup = _superlinear(result, key, ev, model)
        sup = _told_superlinear(model) if sup is not None and told else sup
        if sup is not None:
            return [sup]
    r2 = f.stats.get("r2", np.nan)
    if cf is not None and cf.trust is not None and not cf.trust.facts["interpreted"]:
        return [untrusted_claim(result, key, cf, prior)]  # (not on a series said to rise: quiet_on_rise, round 19 TD)
    if cf is not None and cf.cap is not None and cf.cap.facts["crossover_bytes"] \
            and cf.cap.facts["rms_log_smooth"] is not None \
            and cf.cap.facts["rms_log_roofline"] <= cf.cap.facts["rms_log_smooth"]:
        return []  # two measured caps the roofline holds better than the smooth form: its ceilings are not read
    if no_load:
        return [Claim("model", f"The {model} fit (R² = {_r2(r2)}) is not interpreted: {x} is not a load here.")]
    if not ev.noise_known and not (ev.rising or ev.falls or ev.flattens):
        return [Claim("model", f"No shape is claimed: the {model} fit (R² = {_r2(f.stats['r2'])}) is the best of "
                               f"the models fitted, but without repeats or a fit that describes the points there is "
                               f"no noise to test a knee, a limit or a peak against.")]
    if model in ("littles", "littles_soft", "mva"):
        knee = d.get("knee_n")
        cpu_bound = _cpu_bound_below(result, key, ev)
        cap = f.values["x_max"]
        kci = (f" (95 % CI {knee[1]:.3g}–{knee[2]:.3g})" if knee and np.isfinite(knee[1]) and np.isfinite(knee[2])
               else "")
        gap = _knee_between(ev, knee)
        if gap:
            # the interval is the parameters' noise; where the knee falls between two loads with nothing measured
            # in between, its place there is the hard-knee model's (QA s27 I9: rateqd "1.59 (95 % CI 1.59–1.59)")
            kci = (f" (between {x} = {_xv(result, gap[0])} and {_xv(result, gap[1])}, with nothing measured in "
                   f"between: its place there is the model's, not a measurement)")
        # the law's name only where fio's latency was measured: a bend fitted to rates alone is the model's shape, not
        # rate = outstanding ÷ latency (set after round 16 was read: r16_chvissues_qemu-virtio-blk-nvme_sysbench…,
        # VE: "Little's law fits the rise" of ×1.96 for ×8 threads, no latency in the files)
        lat = _pts(result, key)["lat_mean_s"] if "lat_mean_s" in result.points else None
        law = "Little's law fits the rise; " if lat is not None and np.isfinite(lat.to_numpy(float)).any() else ""
        law_rise = pace_law_words(result, key, law)  # a rise fio's pace made (round 22 XA: pace_slack.py)
        shared_cap = any(n.startswith("fitted jointly") and "x_max" in n for n in f.notes)
        mt = measured_top(result, ev, cf)  # each point by its mean and its runs' median, the larger (round 26 FA)
        if cap < mt.value / 1.02:
            # a cap below what was measured is no ceiling of these data, whatever else the curve does: its number,
            # knee and latency floor are not stated (issue 28: "a ceiling stated below a measurement")
            return [Claim("model", f"Little's law's fitted {'shared ' if shared_cap else ''}cap lies "
                                   f"{1 - cap / mt.value:.0%} below the largest measurement ({fmt_y(mt.value, u)} at "
                                   f"{x} = {_xv(result, ev.x[mt.index])}{top_note(mt, u)}): "
                                   f"{below_top_words(result, ev)}"
                                   + ("; the curves do not share one ceiling" if shared_cap else "")
                                   + ", so no cap, knee or latency floor is read from the fit.",
                          {"interpreted": False, "below_measured": True})]
        if ev.rising or cap > EXTRAPOLATION * mt.value:
            # a cap above every measurement of a curve that has not levelled is the model's bend, not a value of these
            # data: not printed, with or without an interval (round 8, as the USL's 1.6× "contention alone" limit)
            why = (f"the data still rise at the largest {x} ({fmt_y(mt.value, u)} at {x} = "
                   f"{_xv(result, ev.x[mt.index])}{top_note(mt, u)})" if ev.rising else
                   f"the fit's cap lies beyond the data ({cap / mt.value:.1f}× the largest measurement)")
            from .cpu_starved import cpu_starved, starved_model_words

            st = cpu_starved(result, cf) if ev.rising else None  # CPU-starved jobs: no "no ceiling" (round 28, MB)
            if st is not None:
                top_words = f"{fmt_y(mt.value, u)} at {x} = {_xv(result, ev.x[mt.index])}{top_note(mt, u)}"
                out.append(Claim("model", f"{law_rise or 'The fit follows the rise; '}"
                                          f"{starved_model_words(result, st, top_words)}.", {"interpreted": False}))
            else:
                out.append(Claim("model", f"{law_rise}{why[0].upper() if not law else why[0]}{why[1:]}: no ceiling "
                                          f"is reached within the data, so none is estimated from the fit.",
                                 {"interpreted": False}))
        elif len(cpu_bound):
            # a rise that starts at a CPU-bound point is a CPU limit being lifted: the fitted knee rests on it
            at = ", ".join(_xv(result, v) for v in cpu_bound[x])
            out.append(Claim("model", f"The fit's knee (about {knee[0]:.3g} {x}) is not read as where a queue filled: "
                                      f"the rise below it starts at a CPU-bound point ({x} = {at})."))
        else:
            out.append(Claim("model", f"Little's law fits up to about {knee[0]:.3g} {x}{kci}." if law else
                                      f"The fitted rise bends at about {knee[0]:.3g} {x}{kci}."))
        held = _pts(result, key)["outstanding"].dropna() if "outstanding" in result.points else None
        if x not in ("outstanding", "iodepth", "numjobs") and held is not None and len(held) \
                and held.nunique() == 1:
            # the same I/O in flight at every x: the proportional-then-capped form fits, but it is not the queue's law
            last = out[-1].text.replace("Throughput follows Little's law up to", f"Throughput rises in proportion to "
                                        f"{x} up to").replace("Little's law", f"Proportional scaling in {x}")
            out[-1] = Claim("model", last + f" The outstanding I/O was {held.iloc[0]:g} at every point: this is the "
                                            f"shape of Little's law, not the law of a queue that grew with {x}.")
        if ev.rising:  # a rising curve's r0 is a parameter its words would say is not read (round 18 QE)
            return out
        if u == "1/s" and x in ("outstanding", "iodepth") and (shared := _shared_queue(result, key)):
            # one direction of a mixed job: its rate at one outstanding I/O is set by every direction's latency
            lat = _direction_latencies_at_one(result, key)
            this, other = shared
            fio = (f" — fio measured {fmt_y(lat[this], 's')} per {this} and {fmt_y(lat[other], 's')} per {other} "
                   f"there" if this in lat and other in lat else "")
            out.append(Claim("model", f"The {this}s share the queue with {other}s: the model's time per {this} at one "
                                      f"outstanding I/O ({fmt_y(f.values['r0'], 's')}) counts the {other}s' share of "
                                      f"the queue{fio}; r0 is a fitted parameter, not the {this} latency floor."))
        elif u == "1/s" and x in ("outstanding", "iodepth") and "outstanding" in result.points \
                and not (_pts(result, key)["outstanding"] == 1).any():
            # no run had one I/O outstanding: nothing here is "the latency at one outstanding I/O"; along iodepth r0
            # is per unit of iodepth, and each unit is numjobs I/Os in flight (QA s25 H26)
            said = _r0_at_smallest(result, key, f.values["r0"])
            if said:
                out.append(Claim("model", said))
        elif u == "1/s" and x in ("outstanding", "iodepth"):
            (measured, rate), r0 = _latency_at_one(result, key), f.values["r0"]
            if np.isfinite(measured) and abs(r0 / measured - 1) > 0.25:
                # the model's r0 is a parameter; fio measured the latency at one outstanding I/O itself
                out.append(Claim("model", f"The model's latency at one outstanding I/O ({fmt_y(r0, 's')}) is not "
                                          f"the {fmt_y(measured, 's')} fio measured there: it is a fitted parameter, "
                                          f"not the device's latency floor."))
            elif np.isfinite(measured) or np.isfinite(rate):  # no latency in the table: Little's law with one I/O
                out.append(Claim("model", (f"fio measured {fmt_y(measured, 's')} per I/O at one outstanding I/O; the "
                                           f"model's r0 is {fmt_y(r0, 's')}." if np.isfinite(measured) else
                                           f"fio's latency is not in the files; at one outstanding I/O the measured "
                                           f"{fmt_y(rate, '1/s')} imply 1 ÷ IOPS = {fmt_y(1 / rate, 's')} per I/O "
                                           f"(Little's law); the model's r0 is {fmt_y(r0, 's')}, a fitted parameter.")))
    elif model in ("amdahl", "usl") and stall_claim(result, cf) is not None:  # the load stopped being one (blind4)
        out.append(stall_claim(result, cf))
    elif model == "usl" and fan_out_claim(result, cf, f.stats["r2"]) is not None:  # devices at a fixed load (round 5)
        out.append(fan_out_claim(result, cf, f.stats["r2"]))
    elif model == "usl" and not ev.rising:  # (still rising: σ, κ, N* and a limit not read are summary()'s, QE)
        peak, lim = d["peak_n"], d["amdahl_limit"]
        share = d["contention_share"][0]
        text = f"Contention σ = {f.values['sigma']:.3g} and coherency κ = {f.values['kappa']:.3g}: "
        if no_peak(d):
            floor = peak[1]
            text += ("no peak within the data (κ's 95 % interval includes 0"
                     + (f"; if there is one, N* > {floor:.3g}" if np.isfinite(floor) else "") + "); ")
        elif not float(np.min(ev.x)) <= peak[0] <= float(np.max(ev.x)):  # never "peaks at" outside the data (round 5)
            text += (f"the model's peak N* ≈ {peak[0]:.3g} lies {('beyond the largest', 'below the smallest')[bool(peak[0] < np.min(ev.x))]} "
                     f"{x} measured ({_fx(np.min(ev.x))}–{_fx(np.max(ev.x))}): an extrapolation; ")
        else:
            text += (f"the model places a peak at {x} ≈ {peak[0]:.3g}, but the data do not fall beyond it by more "
                     f"than their noise; ")
        if np.isfinite(share) and no_peak(d):
            # κ's interval includes 0: the data cannot tell a coherency loss from none, so no split is claimed
            # (QA s27 I13: "50% of the lost throughput is contention, 50% coherency" with κ indistinguishable from 0)
            text += "the loss cannot be split between contention and coherency (κ may be 0); "
        elif np.isfinite(share) and ev.noise_source != "repeats":  # one run a point: no split, no cause (round 5)
            text += "with one run a point the loss is not split between contention and coherency; "
        elif np.isfinite(share):
            text += (f"at the largest x, {share:.0%} of the lost throughput is contention, "
                     f"{1 - share:.0%} coherency; ")
        text += "with contention alone " + _limit_words(result, ev, lim[0], lim[1], lim[2], "the curve", cf) + "."
        out.append(Claim("model", text))
    elif model == "amdahl" and not ev.rising:
        lim = d["amdahl_limit"]
        out.append(Claim("model", _limit_words(result, ev, lim[0], lim[1], lim[2],
                                               f"Amdahl's σ = {f.values['sigma']:.3g} (a parameter of the fit "
                                               f"along {x}, not a property of the device)", cf) + "."))
    elif model == "linear":
        i0, i1 = int(np.argmin(ev.x)), int(np.argmax(ev.x))
        per_first, per_last = ev.y[i0] / ev.x[i0], ev.y[i1] / ev.x[i1]
        # no bend: the largest x keeps the smallest x's rate per unit, within their noise
        unbent = abs(per_last - per_first) <= 2.0 * float(np.hypot(ev.se[i0] / ev.x[i0], ev.se[i1] / ev.x[i1]))
        if struct:
            out.append(Claim("model", f"A straight line at {fmt_y(f.values['x1'], u)} per {x} is the best of the "
                                      f"models fitted, but it does not describe these data (see above)."))
        elif not ev.noise_known:
            # the per-unit-rate test needs a noise: without one, what the measurements say is their ratios
            steps = [(ev.x[k + 1] / ev.x[k], ev.y[k + 1] / ev.y[k], ev.x[k], ev.x[k + 1]) for k in range(ev.x.size - 1)
                     if ev.x[k] > 0 and ev.y[k] > 0]
            said = ", ".join((f"×{a:.3g} the {x} gave ×{b:.3g} the {_what(result)} ({_xv(result, lo)} → "
                              f"{_xv(result, hi)})") if k == 0 else
                             f"×{a:.3g} gave ×{b:.3g} ({_xv(result, lo)} → {_xv(result, hi)})"
                             for k, (a, b, lo, hi) in enumerate(steps))
            less = all(b < a for a, b, *_ in steps)
            more = all(b > a for a, b, *_ in steps)
            out.append(Claim("model", f"{said[0].upper()}{said[1:]}; {_what(result)} per {x} went from "
                                      f"{fmt_y(per_first, u)} at {_xv(result, ev.x[i0])} to {fmt_y(per_last, u)} at "
                                      f"{_xv(result, ev.x[i1])}"
                                      + (" (each step less than in proportion)" if less else
                                         " (each step more than in proportion)" if more else "")
                                      + f". With {ev.x.size} points of one run each their noise is not known: no "
                                        f"straight line, bend or ceiling is claimed."))
        elif unbent:
            out.append(Claim("model", f"Scaling is linear at {fmt_y(f.values['x1'], u)} per {x}: the data show no "
                                      f"bend, so they cannot tell where the ceiling is."))
        else:
            out.append(Claim("model", f"A straight line at {fmt_y(f.values['x1'], u)} per {x} is the best the points "
                                      f"support, but the rate per {x} falls from {fmt_y(per_first, u)} to "
                                      f"{fmt_y(per_last, u)}: the curve bends without flattening within the data, "
                                      f"so they cannot tell where the ceiling is."))
    elif model == "per_io_byte" and cf is not None and cf.outstanding is not None:
        # the rate at small blocks is what the outstanding I/O gives at its latency: the form's two terms are the
        # time of one I/O (fixed + per byte), which more outstanding I/O would overlap — not device ceilings
        im, bm = f.values["iops_max"], f.values["bw_max"]
        what, overlapping = served_words(result, cf)
        out.append(Claim("model", f"At this queue depth the per-I/O + per-byte form is the time of one I/O: "
                                  f"{fmt_y(1 / im, 's')} fixed plus the size ÷ {fmt_y(bm, 'B/s')}; {overlapping} would "
                                  f"overlap both, so neither is read as a ceiling of {what.split(' (')[0]}.",
                         {"iops_term": im, "bytes_term": bm, "interpreted": False}))
    elif model == "per_io_byte":
        out += per_io_byte_claims(result, key, f, d, ev, cf)
    return out


def _structure(result, key, struct) -> list[Claim]:
    if not struct:
        return []
    model, x = result.chosen[key], result.x
    test = f"{'runs test' if struct['how'] == 'runs' else 'lack of fit against the repeat noise,'} {fmt_p(struct['p'])}"
    pts = _pts(result, key)
    repeated = "n_runs" in pts and bool((pts["n_runs"] >= 2).all())
    if struct["regimes"] is not None and repeated:  # (one run a point: a level stretch may be one noisy step)
        return [Claim("structure", f"The {model} fit misses a step near {x} = {_xv(result, struct['regimes'])}: "
                                   f"the data level off there and rise again — two regimes? ({test}).")]
    if np.isfinite(struct.get("rel", np.nan)):  # named by its largest relative miss (round 25 EG)
        return [Claim("structure", f"The {model} fit misses the data's shape, most at {x} = "
                                   f"{_xv(result, struct['x_rel'])}, where the data lie {abs(struct['rel']):.0%} "
                                   f"{'above' if struct['rel'] > 0 else 'below'} it (its residuals are structured: "
                                   f"{test}).")]
    return [Claim("structure", f"The {model} fit misses the data's shape near {x} = {_xv(result, struct['x_step'])} "
                               f"(its residuals are structured: {test}).")]


#: a run fio timed at less than this (its ``runtime``, ramp excluded) is short enough to say so
SHORT_RUN_S = 0.5


def _short_runs(result, key) -> list[Claim]:
    """A caution naming the points whose runs fio timed under :data:`SHORT_RUN_S` (QA s27 I11: size-bound runs of
    16 MiB lasted 45 ms at iodepth 16, and the explanation read a ×5.12 step from them without a word on it)."""
    pts = _pts(result, key).sort_values(result.x)
    if "runtime_s" not in pts:
        return []
    rt = pts["runtime_s"].to_numpy(float)
    short = np.flatnonzero(np.isfinite(rt) & (rt < SHORT_RUN_S))
    if not short.size:
        return []
    x = result.x
    at = ", ".join(_xv(result, v) for v in pts[x].to_numpy(float)[short])
    i = short[int(np.argmin(rt[short]))]
    return [Claim("caution", f"Caution: fio ran the runs at {x} = {at} for less than {SHORT_RUN_S:g} s (the shortest "
                             f"{fmt_y(rt[i], 's')}, at {x} = {_xv(result, pts[x].iloc[i])}): runs that short are "
                             f"noisier and can be dominated by start-up (caches, queues filling) — lengthen them "
                             f"(--time_based --runtime) or repeat them.")]


def _attribution(result, key, ev: Evidence) -> list[Claim]:
    """The measured plateau (or maximum) against every modelled component's ceiling at that x."""
    topo, wl = result.setup(key)
    if topo is None or result.x not in X_AXES:
        return []
    f = result.fits[key][result.chosen[key]]
    r2 = f.stats.get("r2", np.nan)
    # a ceiling fit that describes little of the data: its fitted values are not the machine's — the topology's own are
    poor = np.isfinite(r2) and r2 < MIN_R2 and not ev.flat
    overrides = fitted_overrides(f) if result.chosen[key].startswith("ceiling") and not poor else {}
    if ev.plateau:
        at, m, what = ev.plateau["x_to"], ev.plateau["value"], "plateau"
        noise = ev.plateau["spread"] / np.sqrt(max(ev.plateau["runs"], 1)) if np.isfinite(ev.plateau["spread"]) else 0
    else:
        i = int(np.argmax(ev.y))
        at, m, what, noise = ev.x[i], ev.y[i], "maximum", ev.se[i]
    try:
        prof = ceiling_profile(topo, wl, x=result.x, values=[at], overrides=overrides, drives=result.drives,
                               y_unit=result.y_unit)
    except Exception:  # noqa: BLE001 — a topology the axis cannot evaluate: no attribution, not a failed fit
        return []
    u = result.y_unit
    row = prof.iloc[0]
    comps = {c: float(row[c]) for c in prof.columns if c not in ("x", "ceiling", "binding") and np.isfinite(row[c])}
    if not comps:
        return []
    consistent = [c for c, v in comps.items() if CONSISTENT * v <= m + 2 * noise and m - 2 * noise <= v]
    low_c = min(comps, key=comps.__getitem__)
    lowest = comps[low_c]
    where = f"at {result.x} = {_xv(result, at)}"
    from ..ceiling.components import labeler

    # a component's label: '(spec sheet)' only where the values behind it are from one (a recalled rating of a drive
    # discover only assumed says so, QA s25 H34); a name that is no registered component as it is
    label = labeler(topo, wl, overrides)
    out = []
    if consistent:
        out.append(Claim("attribution", f"Of the modelled ceilings {where}, " + ", ".join(
            f"{label(c)} [{c}] ({fmt_y(comps[c], u)}; the {what} is {m / comps[c]:.0%} of it)" for c in consistent)
            + (" is" if len(consistent) == 1 else " are") + f" consistent with the measured {what}."))
    elif m < 0.5 * lowest and _at_pace(result, key, at):
        # fio's own pacing holds the level: that is what binds, and the model has no part for it (QA s27 I18)
        out.append(Claim("attribution", f"The measured {what} ({fmt_y(m, u)}) is far below every modelled ceiling "
                                        f"{where} (the lowest, {label(low_c)} [{low_c}], is {fmt_y(lowest, u)}: "
                                        f"{_pct(m / lowest)} of it): what binds is the rate fio was told to keep "
                                        f"(above), which no component of the model is."))
    elif m < 0.5 * lowest:
        absent = [name for c, name in _UNMODELLED.items() if c in prof.columns and not np.isfinite(row[c])]
        unknown = ", ".join([*absent, "the I/O engine's and the file system's own cost",
                             "a virtual disk or anything between fio and the drive"])
        out.append(Claim("attribution", f"The measured {what} ({fmt_y(m, u)}) is far below every modelled ceiling "
                                        f"{where} (the lowest, {label(low_c)} [{low_c}], is {fmt_y(lowest, u)}: "
                                        f"{_pct(m / lowest)} of it): what binds is not modelled or not known here — "
                                        f"not modelled for this topology: {unknown}."))
    elif m < CONSISTENT * lowest:
        out.append(Claim("attribution", f"The measured {what} ({fmt_y(m, u)}) reaches {m / lowest:.0%} of the lowest "
                                        f"modelled ceiling {where} ({label(low_c)} [{low_c}], {fmt_y(lowest, u)}): "
                                        f"no modelled component explains it."))
    return out


def _ceiling_quality(result, key, f, ev: Evidence) -> list[Claim]:
    """A fitted ceiling model that does not describe the data says so: worse than a constant, or a "ceiling"
    below the measurements by more than their noise."""
    out = []
    r2 = f.stats.get("r2", np.nan)
    if np.isfinite(r2) and r2 < 0:
        out.append(Claim("quality", f"Caution: the ceiling model fits worse than a constant (R² = {r2:.2f}): its "
                                    f"fitted values and what it says binds do not describe these data."))
    fitted = f.eval(ev.x)
    med = point_medians(result, ev)[0]  # each point by its mean and its runs' median, the larger (round 26 FA)
    y = np.where(np.isfinite(med) & (med > ev.y), med, ev.y)
    over = (y - fitted) > 2 * ev.se
    if over.any():
        worst = int(np.argmax(np.where(over, y / fitted, -np.inf)))
        out.append(Claim("below", f"Caution: the fitted ceiling lies below the measurements by more than their noise "
                                  f"at {counted(int(over.sum()), 'point')} — up to {1 - fitted[worst] / y[worst]:.0%} "
                                  f"below "
                                  f"the {fmt_y(y[worst], result.y_unit)} measured at {result.x} = "
                                  f"{_xv(result, ev.x[worst])}"
                                  + (" (the median of its runs)" if y[worst] > ev.y[worst] else "")
                                  + ": not a ceiling of these data."))
    return out


#: parts every machine has whose ceiling is infinite when the topology does not model them, as a reader names them
_UNMODELLED = {"drive": "the drive (no spec for it)", "root_complex": "the root complex",
               "socket_dma": "the socket's memory/DMA bandwidth", "host_cpu": "the CPU (cycles per I/O unknown)"}


def _setters(result, key, component: str) -> str:
    """The parameters that set a component's ceiling, with their values (from the component registry)."""
    from ..ceiling.components import get_component

    try:
        names = get_component(component).parameters
    except (KeyError, LookupError, ValueError):
        return ""
    from ..ceiling.group_parameters import shared_parameters

    topo, wl = result.setup(key)
    # groups: only the values every group shares (a group's drive or switch values are its own)
    values = shared_parameters(topo, wl) if topo is not None else {}
    rf = getattr(wl, "read_fraction", 0.5)
    skip = "write" if rf >= 1.0 else "read" if rf <= 0.0 else None  # a pure read (write) never uses the other
    shown = [f"{n} = {values[n]:.4g}" if isinstance(values.get(n), float) else f"{n} = {values[n]}"
             for n in names if n in values and not n.startswith("workload.") and not (skip and skip in n)]
    return f" (set by {', '.join(shown)})" if shown else ""


def _falsified(result, key) -> list[Claim]:
    u = result.y_unit
    out = []
    for item in result.findings.get(key, []):
        fix = "; ".join(item["reconcile"]) or "no single parameter within ×4 of its value"
        more = item.get("points_above", 1) - 1
        out.append(Claim("falsified", f"FALSIFIED: at {result.x} = {_xv(result, item['x'])}"
                                      + (f" (and {counted(more, 'more point')})" if more > 0 else "")
                                      + f" the measurement {fmt_y(item['measured'], u)} is "
                                      f"{item['excess']:.1%} above the model's ceiling {fmt_y(item['ceiling'], u)} "
                                      f"({item['binding']} binds{_setters(result, key, item['binding'])}) — an "
                                      f"assumption of the model is wrong there, the "
                                      f"ceiling is not reproduced. Changes that would reconcile it: {fix}."))
    return out


def read_evidence(result, key, cf, ev):
    """The noise test's evidence as the claims read it, beside the data facts: a last doubling that adds < 10 % is
    not "still rising"; a rising curve has no plateau; a saturated one has one plateau in every sentence (the facts':
    onset to the largest load, with the spread of its runs). The figure draws the same (plots.fit)."""
    if cf.saturation is not None and cf.saturation.facts["state"] in ("onset", "from_first", "falls", "near") and ev.rising:
        ev = dataclasses.replace(ev, rising=None)
    elif cf.saturation is not None and cf.saturation.facts["state"] == "rising" and (ev.plateau or ev.falls):
        ev = dataclasses.replace(ev, plateau=None, falls=None)
    sat = cf.saturation.facts if cf.saturation is not None else {}
    if sat.get("state") in ("onset", "from_first") and ev.plateau is not None:
        pts = _pts(result, key).sort_values(result.x)
        value, spread, runs = _pooled(pts, list(range(sat["onset_index"], len(pts))))
        ev = dataclasses.replace(ev, plateau={"value": value, "spread": spread, "runs": runs, "x_from": sat["onset_x"],
                                              "x_to": sat["plateau_x_to"], "points": sat["plateau_points"]})
    return ev


def curve_claims(result, key) -> list[Claim]:
    from .cap_reach import below_top

    """Every claim of one curve's explanation, in the order it is written (see the module docstring)."""
    model = result.chosen[key]
    f = result.fits[key][model]
    d = derived_quantities(f)
    ev, struct = curve_evidence(result, key)
    own = f.stats.get("n_curve", f.stats["n"])  # a joint fit's n counts every curve's points
    joint = f" (fitted jointly with {f.stats['n'] - own} on the other curves)" if own != f.stats["n"] else ""
    flight = one_in_flight(_pts(result, key)) if result.x == "iodepth" else None
    cf = curve_facts(result, key)
    ev = read_evidence(result, key, cf, ev)
    sat = cf.saturation.facts if cf.saturation is not None else {}
    # what the data show, then the layer that served them (before any drive-level sentence), then the models
    claims = (lead_claims(result, cf, ev) if flight is None else []) or [_measured(result, ev, cf)]
    if (cf.cap or cf.size_fall or cf.one_stream) is not None and claims[0].kind in ("plateau", "unknown noise", "flat",
            "maximum", "rising" if cf.cap or cf.size_fall else "", "falls" if cf.size_fall else "") \
            and not (claims[0].kind in ("rising", "maximum") and below_top(cf)):  # said once (kept: r32 WB)
        claims = []  # along block size the caps (and falls, round 5; one stream, round 17) say these with numbers
    nl, k0 = _no_load(result, key, flight, ev).text if flight else "", claims[0].kind if claims else ""  # r12 MC
    claims = [] if (k0 == "unknown noise" and "runs of one load" in nl) or (nl.startswith(  # r7 CE
        f"{result.x} had no effect") and k0 in ("falls", "rises", "plateau", "step", "maximum")) else claims
    from .onset_runs import onset_runs_words  # the onset as its runs allow it (round 23 AC)

    onset = onset_runs_words(result, cf) if claims and claims[0].kind == "saturation" else ""
    claims = claims[:1] + [Claim("caution", onset)] + claims[1:] if onset else claims
    claims += size_claims(result, cf, key)
    claims += direction_claims(result, key, cf)
    claims += layer_claims(result, cf)
    claims += linear_scaling_claim(result, cf)  # along devices, linear is the yardstick (round 27 GC)
    paced = _paced(result, key)
    # a peak at fio's pace is said before the sentence that reads the peak (round 6)
    claims = paced + claims if paced and paced[0].facts.get("peak_at_pace") else claims + paced
    if flight is not None:
        claims.append(_no_load(result, key, flight, ev))
    # the model kept and its R² only where its parameters are read, not on a still-rising or noisy curve (round 18 QE:
    # a step it misses stays); else summary()'s (CAUSES 4, round 7 CH); beside a level no knee, limit or mechanism (r8)
    level = states_level(cf, ev, result.x)  # (a ceiling model of the user's topology keeps its line: no shape read)
    shape = model.startswith("ceiling") or sat.get("state") not in ("rising", "noisy")
    read = (cf.trust is None or cf.trust.facts["interpreted"]) and not level and np.unique(ev.x).size >= 3
    if model != "constant" and read and shape:
        claims.append(Claim("fit", fit_words(model, own, joint, f.stats["r2"], cf, ev)))
    if model != "constant" and result.y_unit != "s" and not level:  # (its misses stay: QA4 F5, a step the fit missed)
        far = _far_off(result, f)
        claims += [far] if far is not None else []
    if model == "constant":
        pass
    elif model.startswith("ceiling") and result.setup(key)[0] is not None:
        from ..ceiling.components import labeler
        from ..ceiling.system import COMPONENT_LABELS

        quality = _ceiling_quality(result, key, f, ev)
        r2 = f.stats.get("r2", np.nan)
        poor = np.isfinite(r2) and 0 <= r2 < MIN_R2 and not ev.flat  # flat data leave no variation to describe
        if np.isfinite(r2) and r2 < 0:  # worse than a constant: what it says binds and lifts is not written
            claims += quality
        elif poor:
            claims.append(Claim("model", f"The ceiling fit (R² = {_r2(r2)}) describes little of the variation between "
                                         f"the points (R² < {MIN_R2}): its fitted values, what it says binds and its "
                                         f"knee are not interpreted (they are in params and summary())."))
            claims += quality
        else:
            topo, wl = result.setup(key)
            named = labeler(topo, wl, fitted_overrides(f))
            claims.append(Claim("model", _ceiling_sentences(result, key, f, ceiling_profile,
                                                            {c: named(c) for c in COMPONENT_LABELS})))
            claims += quality
        knee = d.get("knee_n")
        if knee and np.isfinite(knee[0]) and np.isfinite(knee[1]) and np.isfinite(knee[2]) and not poor \
                and not (np.isfinite(r2) and r2 < 0):
            claims.append(Claim("model", f"Knee at {result.x} = {_fx(knee[0])} (95 % interval {_fx(knee[1])}–"
                                         f"{_fx(knee[2])}, from the fitted parameters' uncertainty)."))
    elif result.y_unit == "s":
        claims.append(Claim("model", "The scaling laws describe throughput, not latency: no shape is claimed from "
                                     "this fit (its numbers are in params and summary())."))
    elif cf.saturation is not None and cf.saturation.facts["state"] in ("from_first", "noisy"):
        pass  # a level from the first point, or runs spread past every step: no model's shape is read (round 5 AE)
    else:
        claims += _model_claims(result, key, f, d, ev, struct, no_load=flight is not None, cf=cf, prior=claims, level=level)
    if result.y_unit != "s" and read and model != "constant":  # a model not read has no shape to miss (round 7 CG)
        claims += _structure(result, key, struct)
    little = _little_check(result, key)
    if little:
        from .first_room import first_room_words  # the first point held per job (round 28 JB)

        claims.append(Claim("little", little + first_room_words(result, cf)))
        claims += job_span_claims(result, key)  # the level both ways where jobs ended early (round 31 TA)
    else:  # no latency: the time per I/O Little's law gives from the load (round 27 HF)
        claims += load_time_claim(result, cf)
    said, cpu = cpu_claims(result, cf), _cpu(result, key, ev)  # the CPU share holding every point: one story (r10 HE)
    claims = [c for c in claims if c.kind != "outstanding" or not any(k.facts.get("share_held") for k in cpu)]
    no_claim = "; the host's core count is not known here (give a topology): no CPU-saturation claim"  # not where said
    cpu = [dataclasses.replace(c, text=c.text.replace(no_claim, "")) if said else c for c in cpu]
    claims += with_cpu_work(result, cf, said + cpu)  # the options fio's CPU holds, named once (round 20, SH)
    claims += unpolled_claims(result, cf)  # hipri asked for, no polling in fio's counts (round 24 CD: poll_words.py)
    claims += _short_runs(result, key)
    from .run_length import cut_short_claims  # a run far shorter than the sweep's others (round 19, TC)

    claims += cut_short_claims(result, key)
    claims += _attribution(result, key, ev)
    claims += _falsified(result, key)
    claims += set_aside_claims(result, cf, claims)  # runs a level left out, named where no sentence did (r23 AA)
    # of the fit's notes only those on the fit as a whole (too few points, an exact fit), where its line is said: a
    # parameter's bound, hold or interval method is summary()'s (CAUSES rule 4; round 7 part 1 CH "r0 held at …")
    claims += [Claim("caution", f"Caution: {n}.") for n in f.notes if read and shape and any(k in n for k in WHOLE_FIT)]
    return in_tool_words(result, key, quiet_on_rise(cf, checked(result, key, one_kind(cf, claims))))  # (kept runs)
