"""What keeps a model or a level from being read: a fit that does not describe the points, stalled runs, a level the
data do not state, a rise left quiet, a level below the top of the curve.
"""

from __future__ import annotations

import numpy as np

from .fact_base import PAYS, CurveFacts, last_gain
from .fact_words import _claim, _xv
from .run_noise import last_step_within
from .wording import _fx, _r2, fmt_y, span


STALL_HOLDER = (" (what held the I/O in flight is not in these numbers: an engine's or a per-job limit are the usual "
                "ones)")


def fit_words(model: str, n: int, joint: str, r2: float, cf: CurveFacts, ev=None) -> str:
    """The sentence naming the model kept and its R², said only where the model's parameters are read (the trust fact:
    R² ≥ TRUST_R2; curve_claims): elsewhere the model and its R² are summary()'s (round 7 part 1 CH; rounds 3 and 4
    class T had set "explains p % of the variance", round 7 read before it went)."""
    return f"{model} fits {n} point{'s' if n != 1 else ''}{joint} with R² = {_r2(r2)}."


def states_level(cf: CurveFacts | None, ev=None, axis: str = "") -> bool:
    """The data facts state a level: the saturation fact's onset, from the first point, near or falls; a measured cap or
    fall along block size; or the evidence's flat line, plateau or fall (along block size the flat line only: IOPS fall
    there as blocks grow whatever binds). The model sentences then state no knee, limit,
    asymptote, ceiling or mechanism (σ, κ, a serial fraction): those stay in summary() and params (one fact, one story;
    set after round 8 was read: r8_ingimarsson_nvme_512b-randread_sqpoll_qd's knee 4.01 "only adds queueing latency"
    beside +41 % measured past it, r8_satishg_24sata-bx500-hba_4k-randwrite_qd4_numjobs's USL σ, κ and a 1.6× "contention
    alone" limit, r8_ezfio62_firecuda530's Amdahl limit with a CI above the measured saturated level)."""
    s = cf.saturation.facts if cf is not None and cf.saturation is not None else {}
    state = s.get("state")
    if state in ("onset", "from_first", "falls", "overlap") or (state == "rising" and s.get("collapsed_from") is not None):
        return True  # (overlap: the runs cannot tell a rise from a level — no model reads a knee or limit into it)
    if cf is not None and (cf.cap or cf.size_fall or cf.one_stream) is not None:  # (one stream: round 17 YA/YB)
        return True
    if ev is None or state == "rising":
        return False
    return bool(ev.flat) or (axis != "block_size_bytes" and bool(ev.plateau or ev.falls))


def stall_claim(result, cf: CurveFacts | None):
    """The load that stopped being one: from x = a the I/O in flight (IOPS × fio's mean latency) stayed level while
    the outstanding I/O asked for grew ≥ ×4 — said instead of a serial-fraction or contention limit (blind4 class Z),
    which describes a load that kept adding work."""
    st = cf.saturation.facts.get("in_flight_stall") if cf is not None and cf.saturation is not None else None
    if not st:
        return None
    x = result.x
    rng = span(f"{st['lo']:.3g}", f"{st['hi']:.3g}")
    rng = f" ({rng})" if rng != f"{st['in_flight']:.3g}" else ""
    return _claim("model", f"From {x} = {_xv(result, st['x_from'])} to {_xv(result, st['x_to'])} the I/O in flight "
                           f"(measured IOPS × fio's mean latency, Little's law) stayed at about {st['in_flight']:.3g}"
                           f"{rng} while the outstanding I/O asked for grew ×{st['asked_to'] / st['asked_from']:.3g} "
                           f"to {_fx(st['asked_to'])}: more {x} did not put more I/O in flight, so {x} stopped being "
                           f"a load there — the level is not read as a serial fraction's or contention's limit"
                           f"{STALL_HOLDER}.", cf.saturation, interpreted=False, holder_unknown=STALL_HOLDER)


def stalled_words(result, cf: CurveFacts | None, pooled: bool = False) -> str:
    """The runs the host stalled (facts.stalled_runs) counted, and the level of the others; "" where none. Said once,
    with the level that no load changed (round 12 MD/NC). "Rare long waits …, not a slower typical I/O" only where
    the stalled runs' median and p90 stayed within :data:`~nvmemodel.fitting.point_runs.STALL_TYPICAL` of the fastest
    run's; else the figures alone. The other runs pooled only where the series is one level (``pooled``: the flat
    sentence); on a sweep each stalled point's kept runs instead — a mean over different x is no quantity of the curve
    (both set after the review of round 23's fixes: r12 kyber QD16, p90 ×31.6 called "rare"; here_loop_iodepth's
    "the other 20 runs: 71.76 K" over iodepth 1–64)."""
    from .point_runs import STALL_TYPICAL, stalled_runs

    st = stalled_runs(result, cf.points) if cf is not None else None
    if st is None:
        return ""
    u, n = result.y_unit, len(st["left"])
    at = ", ".join(f"{fmt_y(v, u)} at {_xv(result, a)}" for a, v in st["left"])

    def x(lo, hi):
        return span(format(lo, '.3g'), format(hi, '.3g'))

    from .stall_kinds import kinds_words, mixed

    head = (f" {n} of {st['runs']} runs {'was' if n == 1 else 'were'} stalled"
            f"{'' if mixed(st) else f' ({at})'}: fio's own figures show it — their "
            f"mean latency is ×{x(st['mean_lo'], st['mean_hi'])} their point's fastest run's, far more than their "
            f"median grew, and their CPU at most half its")
    if mixed(st):  # each kind of stalled run on its own (round 24: r6 ureap, r14 nrreq)
        why = (f"; they differ in kind, each read against its point's fastest run — {kinds_words(result, st, _xv)} "
               f"(the files do not show what held them: a loaded host or a throttle)")
    elif st["typical_held"]:
        why = (f": rare long waits off the CPU, not a slower typical I/O (median and p90 within ×{STALL_TYPICAL:.3g} "
               f"of that run's; the files do not show what held them: a loaded host or a throttle)")
    else:
        p90 = (f", p90 ×{x(st['p90_lo'], st['p90_hi'])}" if np.isfinite([st['p90_lo'], st['p90_hi']]).all() else "")
        why = (f"; their median latency ×{x(st['p50_lo'], st['p50_hi'])}{p90} that run's: waits off the CPU, not only rare "
               f"ones (the files do not show what held them)")
    if pooled:
        rest = f"; the other {st['kept']} runs: {fmt_y(st['value'], u)} ({span(fmt_y(st['lo'], u), fmt_y(st['hi'], u))})"
    else:
        rest = "; the runs kept at " + ", at ".join(
            f"{_xv(result, a)}: {span(fmt_y(lo, u), fmt_y(hi, u))}" for a, (lo, hi) in st["kept_at"].items())
    return head + why + rest + "."


def set_aside_claims(result, cf: CurveFacts | None, claims) -> list:
    """The stalled runs named wherever a level, spread, onset or Little range left them out and no sentence yet
    said so: nothing is set aside without a word (set after round 23 was read: r23_here-cpusplit loop numjobs, AA —
    a run at numjobs = 1 left out unsaid before "the runs of one numjobs differ by up to ×2.32")."""
    from .claim import Claim

    import re

    if any(re.search(r"runs? (?:was|were) stalled", c.text) for c in claims):  # (not "set aside as stalled")
        return []
    words = stalled_words(result, cf).strip()
    return [Claim("caution", words)] if words else []


def untrusted_claim(result, key, cf: CurveFacts, prior=()):
    """The model is kept but does not describe the points: say so, and read none of its parameters."""
    t = cf.trust.facts
    model = t["name"]
    # (a miss beyond 50 % at two points is listed point by point in the caution before this sentence)
    miss = (f"; it misses a point by {t['max_miss']:.0%}" if np.isfinite(t["max_miss"]) and 0.25 < t["max_miss"]
            and not any("misses" in c.text and "more than 50 %" in c.text for c in prior) else "")
    return _claim("model", f"The {model} fit (R² = {_r2(t['r2'])}{miss}) does not describe these points closely "
                           f"enough (R² ≥ 0.9 and no point missed by more than 25 %) for its knee, limit or "
                           f"parameters to be read as facts about them (they are in params and summary()).", cf.trust,
                  untrusted=True)


def quiet_on_rise(cf: CurveFacts, claims: list) -> list:
    """``claims`` without the untrusted model's caution (:func:`untrusted_claim`) where the explanation says the series
    still rises — the saturation fact's state "rising", or a "still rises" claim that survived the last checks: no
    model is read on a rising series, so no caution about reading one either (set after round 19 was read: TD, what
    round 18's rule left; r20_tutsunom_sdb-hdd-deadline_4k-randread_qd1_numjobs_repeats, "The amdahl fit (R² = 0.8523)
    does not describe these points closely enough …" after "still rises")."""
    rising = cf.saturation.facts["state"] == "rising" if cf.saturation is not None else \
        any(c.kind == "rising" for c in claims)
    return [c for c in claims if not (c.kind == "model" and c.facts.get("untrusted"))] if rising else claims


def below_top_words(result, ev) -> str:
    """What a model's limit below the largest measurement is: where the last doubling of load still paid
    :data:`PAYS` the data are still rising and the model bent before they did; else a level the points scatter
    about. Neither is a ceiling of the data."""
    g = last_gain(ev.x, ev.y) if result.x != "block_size_bytes" else np.nan
    cf = _facts_of(result, ev)
    state = cf.saturation.facts["state"] if cf is not None and cf.saturation is not None else None
    n = len(ev.y)
    # the last step's verdict is the one the saturation sentence reads (run_noise.last_step_within, round 20 SB);
    # the evidence's own test only where the points table gives none
    within = last_step_within(cf.points) if cf is not None else None
    if within is None:
        within = getattr(ev, "noise_source", None) == "repeats" and n >= 2 and \
            ev.y[-1] - ev.y[-2] <= ev.beyond_noise(n - 1, n - 2)
    if np.isfinite(g) and g >= PAYS and state in (None, "rising") and within:
        # the last gain is inside the repeats' noise: no "still rise" (one story with the saturation sentence)
        return (f"the last step ({g:+.0%} per doubling of {result.x}) is within the repeats' noise, and the model "
                f"bends below the largest measurement — not a ceiling of these data")
    if np.isfinite(g) and g >= PAYS and state in (None, "rising"):  # (a saturated curve's last step is its scatter)
        return (f"the data still rise at the largest {result.x} ({g:+.0%} per doubling in the last step), so the "
                f"model bends before they do — not a ceiling of these data")
    if state == "near":  # near saturation over the last span of about a doubling: the model bends with the data
        # (set after round 28 was read: JF, "the model bends before they do" of a fit within 2 % of the top points)
        return (f"the data approach saturation at the largest {result.x} (the saturation sentence) and the model bends "
                f"with them there — not a ceiling of these data")
    return "a level the points scatter about, not a ceiling of these data"


def _facts_of(result, ev) -> CurveFacts | None:
    """The facts of the curve whose points ``ev`` holds (None: no such curve)."""
    from .facts import curve_facts

    for key in result.chosen:
        cf = curve_facts(result, key)
        xs, ys = cf.points["x"].to_numpy(float), cf.points["y"].to_numpy(float)
        if xs.size == np.size(ev.x) and np.allclose(xs, np.sort(ev.x)) and np.allclose(np.sort(ys), np.sort(ev.y)):
            return cf
    return None


def _state_of(result, ev) -> str | None:
    """The saturation fact's state of the curve whose points ``ev`` holds (None: no such fact)."""
    cf = _facts_of(result, ev)
    return cf.saturation.facts["state"] if cf is not None and cf.saturation is not None else None
