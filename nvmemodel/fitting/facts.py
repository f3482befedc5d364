"""What a measured curve shows, read the way a storage engineer reads it — before any model or sentence.

Each fact is computed once per curve from the measurements alone (fio's rates, latencies, CPU accounting,
options and disk statistics), holds its numbers in SI and the evidence that decided it, and says nothing a
model assumed. :mod:`~nvmemodel.fitting.claims` turns facts into claims and :mod:`~nvmemodel.fitting.words`
into sentences; a model's parameters are read only where :func:`model_trust` lets them.

============  ============================================================================================
fact          how it is decided (every rule is the same for any device)
============  ============================================================================================
saturation    along a load axis (iodepth, numjobs, outstanding, drives, targets …): the gain of each
              doubling of load, ``(y_j / y_i) ** (1 / log2(x_j / x_i)) − 1``. The onset is the first load
              from which no later point gains :data:`PAYS` (10 %) or more per doubling over it (measured from
              there, so one noisy step neither makes nor breaks it) while fio's mean latency grows with the
              load (Little's law: the added I/O queues). Saturated *from the first point* when that is the
              smallest load measured: a limit reached there (a cap or a serial server; the files do not say
              which). "Rising" when the last doubling still pays (and no plateau while the last two do); "near"
              when it pays less than :data:`NEAR` and the latency grew more than the throughput did, or a quarter
              of the doubling before it or less. A level leaves out runs :data:`DISTURBED` below the rest.
              "Falls" when the last point is below the plateau's maximum by more than the repeat noise (with
              repeats) or than the largest step-to-step change inside the plateau (without), and by more than the
              largest spread of one point's runs anywhere on the curve (:func:`curve_noise`); "rising" only above
              every earlier point beyond that noise; runs that overlap while the mean gains PAYS (never the median alone): no
              onset, level or fall ("overlap", round 9). Runs wider than every step bound a level from the first
              point (round 10) or from a later one x_k (round 11, the noise of the points from x_k on) only where that stretch
              shows the added load queued (:func:`_level_in_noise`). Still rising where each of the last ≥ 3
              doublings pays at a flat latency, whatever the last pair's runs (:func:`_paying_trend`, round 11).
cap           along block size: the IOPS flat (largest ÷ smallest ≤ 1 + :data:`FLAT`) over ≥ 3 sizes from the smallest
              (an IOPS cap, *measured*), the bandwidth flat so over ≥ 2 sizes up to the largest (a byte cap);
              the roofline ``min(I, B / b)`` beside the smooth ``1 / (1/I + b/B)``, the data choosing the one
              with the smaller RMS log error.
outstanding   along block size without a measured IOPS cap: the small-block rate is what the outstanding I/O
              allows at the latency fio measured (``iodepth × numjobs ÷ mean latency``), not a device ceiling.
mix           along read share: the harmonic mix of the pure runs, ``1/X = r/R + (1 − r)/W``; mixes more than
              :data:`MIX_BELOW` below it show read/write interference.
cpu           fio's usr+sys CPU per I/O (CPU-seconds ÷ I/O, never per byte), the IOPS one CPU sustains at that
              cost; CPU-bound where each submitting job is at ≥ :data:`CPU_BOUND` of one CPU at the onset (or
              the IOPS cap), or where the jobs' total CPU stays level while more jobs are added (all the CPUs
              they could get). A job at ≥ 90 % that made no more I/O per job than one below 90 % was waiting by
              spinning (``rate_iops``), not bound; so were busy jobs whose CPU per I/O grew with the load, and
              jobs the runs say poll (``hipri``, ``sqthread_poll``, SPDK): ``spins`` (round 7, CB).
layer         the layer that most likely served the I/O, from what the files say: fio's disk statistics
              (``loop*``, ``dm-*``, ``md*``, ``nbd*``, ``rbd*``, virtio ``vd*``), buffered I/O (``direct=0``),
              or a rate per target beyond what the link of one x4 device of the newest PCIe generation carries.
trust         a model's parameters mean something about the data only when it describes them: R² ≥
              :data:`TRUST_R2` and no point missed by more than :data:`TRUST_MISS`.
============  ============================================================================================

This module computes them all for one curve (:func:`curve_facts`); each lives with its topic, so parallel work on one
fact does not touch the others: :mod:`~nvmemodel.fitting.fact_base` (the records and the shared thresholds),
:mod:`~nvmemodel.fitting.point_runs` (a point's kept runs), :mod:`~nvmemodel.fitting.plateau_level`,
:mod:`~nvmemodel.fitting.saturation_facts`, :mod:`~nvmemodel.fitting.latency_growth`,
:mod:`~nvmemodel.fitting.stream_facts`, :mod:`~nvmemodel.fitting.cap_facts`, :mod:`~nvmemodel.fitting.size_facts`,
:mod:`~nvmemodel.fitting.mix_facts`, :mod:`~nvmemodel.fitting.cpu_facts` and :mod:`~nvmemodel.fitting.layer_facts`.
"""

from __future__ import annotations

import numpy as np

from .cap_facts import _cap
from .cpu_facts import _cpu_of
from .evidence import TRUST_MISS, TRUST_R2  # the test a model must pass to be read; re-exported
from .evidence import fit_misses as _fit_misses
from .fact_base import CurveFacts, Fact
from .layer_facts import _cache_served, _layer, _merged, _split
from .mix_facts import _mix
from .point_runs import _points
from .saturation_facts import _saturation
from .size_facts import _size_fall, small_sizes
from .stream_facts import one_stream

# The facts live in topic modules; the names other modules and the tests import from here are re-exported.

from .devices import LAYERS  # noqa: F401  (LAYERS: fio's disk-statistics names → layers)
from .fact_base import CPU_BOUND, FLAT, LEVEL_STEP, MIX_BELOW, NO_GAIN, PAYS, _gain, last_gain  # noqa: F401
from .latency_growth import LAT_STEP, LITTLE_TOL, SUBMISSION_SHARE, TAIL_GROWTH  # noqa: F401
from .stream_facts import NOISE_BAND, ONE_STREAM_TOL  # noqa: F401
from .point_runs import ONE_IN_FLIGHT_TOL, SPLIT_RATIO, _run_values, point_levels, possible_percentiles  # noqa: F401
from .point_runs import stalled_runs  # noqa: F401
from ..ingest.percentiles import PERCENTILE_SLACK  # noqa: F401
from .layer_facts import READ_FLOOR_S, total_latency  # noqa: F401
from .plateau_level import _level_after  # noqa: F401
from .cpu_facts import cost_rise, pinned_cpus, point_cpu_runs, point_run_cpus, run_cpus  # noqa: F401

__all__ = ["CurveFacts", "Fact", "curve_facts", "last_gain", "model_trust"]


def model_trust(result, key) -> Fact | None:
    """Whether the chosen model describes the points well enough for its parameters to be read."""
    model = result.chosen[key]
    r2, worst, ok = _fit_misses(result.fits[key][model])
    return Fact("model", {"name": model, "r2": r2, "max_miss": worst, "interpreted": ok},
                f"R² ≥ {TRUST_R2} and no point missed by more than {TRUST_MISS:.0%}")


#: facts of each result's curves (id(result) → {key: CurveFacts}), dropped with the result
_FACTS: dict = {}


def curve_facts(result, key) -> CurveFacts:
    """Every fact of one curve (computed once per result and curve)."""
    from .claim import curve_evidence, result_cache

    cache = result_cache(_FACTS, result)
    if key in cache:
        return cache[key]

    p = _points(result, key)
    try:
        ev = curve_evidence(result, key)[0]
    except Exception:  # a curve the evidence cannot test (one point): the facts stand on the steps alone
        ev = None
    if ev is not None and len(ev.x) != len(p):
        ev = None
    sat = _saturation(result, p, ev, key)
    if sat is not None:
        sat.facts["key"] = tuple(key)  # (the curve's rows in the table, for the per-direction words)
    layer = _layer(result, p)
    fast = _cache_served(result, p, layer)
    p_sizes = p
    if fast is not None and not fast.facts["every_point"]:  # a cache hit in some runs is left out of the comparisons
        served = np.isin(p["x"].to_numpy(float), [c[0] for c in fast.facts["points"]])
        p.loc[served, "cpus"] = np.nan
        p_sizes = p[~served].reset_index(drop=True)
    cap, outstanding = _cap(result, key, p_sizes)
    mix = _mix(result, p)
    cpu = _cpu_of(result, key, p, sat, cap)
    out = CurveFacts(points=p, saturation=sat, cap=cap, outstanding=outstanding, mix=mix, cpu=cpu,
                     layer=layer, trust=model_trust(result, key) if result.chosen.get(key) else None,
                     size_fall=_size_fall(result, p_sizes, cap) if cap is None or not cap.facts["bytes_cap"] else None,
                     cache=fast, one_stream=one_stream(result, key, p_sizes),
                     small_sizes=small_sizes(result, key, p_sizes, cap), merged=_merged(result, p, sat),
                     split=_split(result, p))
    cache[key] = out
    return out
