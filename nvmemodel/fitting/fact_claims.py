"""Facts → claims: the sentences an explanation says first, each built from one fact of
:mod:`~nvmemodel.fitting.facts` and carrying that fact's numbers (``Claim.facts``).

What a curve shows comes before what any model says: the layer that served the I/O, where throughput saturates
(or that it does from the first point, or still rises), the caps along block size, the read/write mix, and what
fio's CPU accounting says per I/O. The model sentences of :mod:`~nvmemodel.fitting.claims` follow only where the
model describes the data (:func:`~nvmemodel.fitting.facts.model_trust`).

This module leads (:func:`lead_claims`) and says the CPU claim; the other claims live with their topic, so parallel
work on one does not touch the others: :mod:`~nvmemodel.fitting.fact_words` (the word helpers they share),
:mod:`~nvmemodel.fitting.served_claims` (layer, cache, merges, splits, fan-out),
:mod:`~nvmemodel.fitting.saturation_claims`, :mod:`~nvmemodel.fitting.latency_words`,
:mod:`~nvmemodel.fitting.direction_words`, :mod:`~nvmemodel.fitting.cap_claims`,
:mod:`~nvmemodel.fitting.block_size_claims`, :mod:`~nvmemodel.fitting.mix_claims` and
:mod:`~nvmemodel.fitting.caution_claims`.
"""

from __future__ import annotations

from .busy_jobs import busy_jobs_words
from .clat_little import clat_little_claims
from .cost_drift import cost_drift, drift_words
from .cpu_limits import shared_words
from .peer_cpu import peer_engine, peer_level_words
from .fact_base import CPU_BOUND, CurveFacts
from .fact_words import _claim, _xv
from .fill_drain import fill_drain_claims
from .mix_claims import _mix_claim
from .saturation_claims import _saturation_claim
from .steps import SUBMITTERS
from .wording import cpus_words, fmt_y, span
from .in_thread_level import in_thread_level, in_thread_level_words

# The claims live in topic modules; the names other modules and the tests import from here are re-exported.

from .saturation_claims import UNKNOWN_HOLDER  # noqa: F401
from .caution_claims import below_top_words, fit_words, quiet_on_rise, stall_claim, stalled_words  # noqa: F401
from .caution_claims import set_aside_claims, states_level, untrusted_claim  # noqa: F401
from .served_claims import cache_claims, fan_out_claim, layer_claims, one_kind  # noqa: F401
from .block_size_claims import creep_words, size_claims, size_iops_text, size_step_text, step_sides  # noqa: F401
from .block_size_claims import stream_evidence  # noqa: F401
from .direction_words import direction_claims  # noqa: F401
from .fact_words import level_words, noise_phrase  # noqa: F401
from .cap_claims import served_words  # noqa: F401

__all__ = ["below_top_words", "noise_phrase", "cache_claims", "served_words", "cpu_claims", "direction_claims", "layer_claims", "lead_claims", "quiet_on_rise", "size_claims", "untrusted_claim"]


def lead_claims(result, cf: CurveFacts, ev) -> list:
    """The first claims of a curve from its facts (an empty list: the caller describes the data itself)."""
    if ev.step is not None:  # two levels: the step sentence of claims._measured says what the data show
        return []
    if cf.saturation is not None:
        c = _saturation_claim(result, cf, ev)
        # (round 21 WG: fill_drain.py; VG: clat_little.py)
        return ([c] + fill_drain_claims(result, cf) + clat_little_claims(result, cf)) if c is not None else []
    if cf.mix is not None:
        return [_mix_claim(result, cf)]
    return []


def cpu_claims(result, cf: CurveFacts) -> list:
    """A CPU-bound plateau or cap, from fio's CPU per I/O (never per byte)."""
    f = cf.cpu
    if f is not None and f.facts.get("spare"):
        sp, x = f.facts["spare"], result.x
        return [_claim("cpu", f"fio's CPU accounting: from {x} = {_xv(result, sp['from_x'])} on the jobs "
                              f"together used a level {cpus_words(sp['level_cpus'], '.3g')} however many were added — fewer than "
                              f"the {cpus_words(sp['seen_cpus'], '.3g')} the jobs of this result used at {sp['seen_at']}: the "
                              f"host had CPUs to spare, so the plateau is not the host's CPUs saturated.", f,
                       cpu_bound=False)]
    if f is None or f.facts["cpu_bound"] is False:
        return []
    s, x = f.facts, result.x
    if s["cpu_bound"] is None and (shared := shared_words(result, cf)):  # round 21 (VD): its cost rose, not held
        return [_claim("cpu", shared, f, cpu_bound=True)]  # (the verdict the words give, for the checks)
    if s["cpu_bound"] is None and (eng := peer_engine(result, cf)):  # one end of a net transfer (round 24 BC)
        return [_claim("cpu", peer_level_words(result, s, eng), f)]
    if s["cpu_bound"] is None and (own := in_thread_level(result, cf)) is not None:  # round 27 IB: the runs decide
        return [_claim("cpu", in_thread_level_words(result, own), f, cpu_bound=True)]
    if s["cpu_bound"] is None:  # the jobs' total CPU level while jobs were added: all busy only if that is every CPU
        return [_claim("cpu", f"fio's CPU accounting: from {x} = {_xv(result, s['level_from_x'])} on the jobs together "
                              f"used a level {cpus_words(s['level_cpus'], '.3g')} however many were added. A rate held by "
                              f"something else at a fixed CPU cost per I/O does that too: if this host has about "
                              f"{cpus_words(s['level_cpus'], '.0f')} for fio, they were all busy and the plateau is CPU-bound "
                              f"(give the host — --host or a topology — to decide).", f)]
    if s["how"] == "engine":
        # fio's CPU can read 0 (a run of a few ms: below its resolution) — then no cost is read from it
        cost = (f" — {fmt_y(s['at_cpu_s_per_io'], 's')} of CPU per I/O at {x} = {_xv(result, s['at_x'])}, "
                f"{fmt_y(s['iops_per_cpu'], '1/s')} per CPU" if s.get("iops_per_cpu") is not None else
                f" (fio's CPU figure at {x} = {_xv(result, s['at_x'])} is 0, below its resolution: no cost per I/O is "
                f"read from it)")
        return [_claim("cpu", f"fio's {s['engine']} engine does no I/O: its rate is what the CPU can submit and "
                              f"complete{cost}; its rate is CPU-bound, no device is involved.", f)]
    if s["how"] == "host":  # round 10 (JA): the summed CPU stopped growing at one cost — the level it gives
        h = s["host"]
        cpus = span(f"{h['lo']:.3g}", f"{h['hi']:.3g}")
        return [_claim("cpu", f"fio's CPU accounting: the jobs together used {cpus_words(cpus)} (usr+sys) at every point from "
                              f"{x} = {_xv(result, h['x_from'])} to {_xv(result, h['x_to'])} while jobs were added "
                              f"({h['share_last']:.0%} of one CPU per job at {_xv(result, h['x_to'])}), at one cost of "
                              f"{span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} of CPU per I/O at every "
                              f"point; {cpus_words(h['level'], '.3g')} ÷ {fmt_y(h['cost'], 's')} per I/O = "
                              f"{fmt_y(h['rate'], '1/s')}, the level ({span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))} "
                              f"measured there), and {cpus_words(h['level'], '.3g')} is {h['whole']} whole CPUs within 1 %: the "
                              f"CPUs the host gave the jobs (about {h['whole']}) held it.", f)]
    if s["how"] == "busy_jobs":  # round 23 (ZD): every job busy where the summed CPU stopped growing
        b = s["busy_jobs"]
        return [_claim("cpu", busy_jobs_words(result, b), f)]
    if s["how"] == "machine" and s.get("pin"):  # round 11 (KD): the files name the CPUs fio could use
        h, n = s["pin"], s["cores"]
        cpus = span(f"{h['lo']:.3g}", f"{h['hi']:.3g}")
        text = (f"fio's jobs were pinned to {n} CPU{'s' * (n != 1)} (cpus_allowed={h['spec']}): from {x} = "
                f"{_xv(result, s['at_x'])} on the jobs together used {cpus_words(cpus)} (usr+sys) however many were added, "
                f"at {span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} of CPU per I/O; {n} "
                f"CPU{'s' * (n != 1)} ÷ {fmt_y(h['cost'], 's')} per I/O = {fmt_y(n / h['cost'], '1/s')} "
                f"({span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))} measured there): the plateau is "
                f"the pinned CPU{'s' * (n != 1)} saturated.")
    elif s["how"] == "machine":
        text = (f"fio's CPU accounting: from {x} = {_xv(result, s['at_x'])} on the jobs together used a level "
                f"{cpus_words(s['cpus'], '.3g')} however many were added, {s['cpus'] / s['cores']:.0%} of the host's {s['cores']} "
                f"({fmt_y(s['at_cpu_s_per_io'], 's')} of CPU per I/O): they had all the CPU they could get — the "
                f"plateau is CPU-bound, not a device limit.")
    else:
        who = "the job" if s["cpus"] / s["job_cpu_share"] < 1.5 else "each job"
        jobs = f"the submitting job{'s' if who == 'each job' else ''}"
        rising = cf.saturation is not None and cf.saturation.facts["state"] == "rising"
        # a still-rising curve has no level: its last point is what the busy job could submit, and more of the load
        # axis cannot raise it much for that job — more jobs can
        held = (f"the rate there is CPU-bound ({jobs}, ≥ {CPU_BOUND:.0%} busy): each job's rate is what its CPU "
                f"sustains at that cost, and each added job brings its own CPU (round 22 YE)" if rising and x in SUBMITTERS
                else f"the rate there is CPU-bound ({jobs}, ≥ {CPU_BOUND:.0%} busy): a larger {x} cannot raise it much for "
                f"{'that job' if who == 'the job' else 'those jobs'} — more jobs can" if rising else
                f"the level is CPU-bound ({jobs}, ≥ {CPU_BOUND:.0%} busy), not a device queue")
        lo, hi, to = s["one_cost"] or (0, 0, 0)
        proof = (f" ({span(fmt_y(lo, 's'), fmt_y(hi, 's'))} at every point ≥ {CPU_BOUND:.0%} busy up to {x} = "
                 f"{_xv(result, to)}: one cost)" if s["one_cost"] else "")
        drift = cost_drift(cf, s)  # round 23 (ZE): "one cost" only within ±10 %; a steady rise carries a fall
        fall = ""
        if drift is not None:
            proof, fall = drift_words(result, drift)
        polled = (f" At {x} = {', '.join(_xv(result, v) for v in s['polled']['x'])} {s['polled']['why']} (no reading "
                  f"of fio's CPU there)." if s.get("polled") else "")
        # on a CPU-bound level the rate one CPU sustains is the range its busy points' costs give, never the onset's
        # one value below points it explains (set after round 20 was read: r20_nerdst_nvme-p7_4k-randread_qd,
        # "one CPU sustains 134.92 K IOPS" under a 139.28 K level and 145 K measured at 6.87 µs, RH)
        rate = (f"at those costs one CPU sustains {span(fmt_y(1 / hi, '1/s'), fmt_y(1 / lo, '1/s'))}"
                if s["one_cost"] and lo > 0 and hi > lo else f"at that cost one CPU sustains "
                f"{fmt_y(s['iops_per_cpu'], '1/s')}")
        text = (f"fio's CPU accounting at {x} = {_xv(result, s['at_x'])}: {who} used {s['job_cpu_share']:.0%} of a "
                f"CPU (usr+sys), {fmt_y(s['at_cpu_s_per_io'], 's')} of CPU per I/O{proof} — {rate} per job: "
                f"{held}.{fall}{polled}")
    return [_claim("cpu", text, f)]
