"""Round 11's block-size classes (``_blind_rounds/round11_hand_read_part1.md`` KA, KE; ``_part2.md`` LC), each by the
session rule "a cause only with its proof" (issue 28):

- KA: along block size a level needs its adjacent means not to rise ≥ 10 % per doubling (r11 fio2210 loop QD4:
  "flattens at 2 GB/s" over 64 KiB–1 MiB while 256 KiB → 1 MiB gained +50 % by means).
- KE: a trim moves no data: no bandwidth, byte cap or "no bandwidth ceiling" words, and IOPS ×15 apart are no level
  (r11 randtrim along size: "IOPS stay at 5.89 K–91.56 K … bandwidth grows … to 54.4 GB/s").
- LC: a flat IOPS stretch at one I/O outstanding is 1 ÷ latency, not a cap, even where the latency holds over a wide
  span of sizes (r11 FEMU ZNS psync QD1: "an IOPS cap of 10.56 K IOPS … measured at 1 I/O outstanding").

Round 11 is spent; the counter-cases are seeded synthetics where a rule must not fire.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")


def _texts(fit, kind=None) -> list[str]:
    return [c["text"] for c in fit.claims() if kind is None or c["kind"] == kind]


def _fit(case_id):
    d = cs.CORPUS / case_id
    if not (d / "case.json").exists():
        pytest.skip(f"{case_id} not in the corpus")
    return cs.fit_case(d, cs.load_case(d))


def _sizes(bw, *, runs=3, depth=32, direction="read", sd=0.01, seed=11) -> pd.DataFrame:
    """One job along block size (4 KiB doubling): bandwidth ``bw`` (B/s), ``runs`` repeats each."""
    rng = np.random.default_rng(seed)
    rows = []
    for k, b in enumerate(bw):
        bs = 4096 * 2 ** k
        for r in range(runs):
            v = b * (1 + sd * rng.standard_normal())
            rows.append({"block_size_bytes": bs, "bw_bytes_per_s": v, "iops": v / bs, "iodepth": depth, "numjobs": 1,
                         "lat_mean_s": depth * bs / v, "run": r, "source_path": f"bs{bs}-r{r}.json",
                         "ioengine": "libaio", "direction": direction})
    return pd.DataFrame(rows)


def _fit_df(df, y="bw_bytes_per_s"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(df, x="block_size_bytes", y=y)


# ------------------------------------------------------------------ KA: no level where the means still climb
def test_ka_r11_fio2210_no_level_while_the_means_climb():
    fit = _fit("r11_here-fio2210_loop_libaio_randread_qd4_bs_repeats")
    text = " ".join(_texts(fit))
    assert "flattens" not in text
    said = [t for t in _texts(fit, "maximum") if "still rise" in t]
    assert said, _texts(fit)
    pts = fit.points.sort_values("block_size_bytes")
    y = pts["y"].to_numpy(float)
    per = (y[-1] / y[-2]) ** 0.5 - 1  # 256 KiB → 1 MiB: two doublings
    assert f"{per:+.0%}" in said[0]


def test_ka_counter_a_level_that_holds_is_still_said():
    gb = 1e9
    fit = _fit_df(_sizes([0.25 * gb, 0.5 * gb, gb, 2.0 * gb, 2.02 * gb, 2.01 * gb, 2.03 * gb]))
    from nvmemodel.fitting.claim import curve_evidence
    from nvmemodel.fitting.facts import curve_facts

    ev = curve_evidence(fit, next(iter(fit.chosen)))[0]
    assert ev.plateau is not None and ev.plateau["points"] >= 3 and "creeps" not in ev.maximum
    # one depth (32) at every size; the seeded latency is Little's law (depth × size ÷ rate), so over the flat
    # 32 KiB–256 KiB the bytes in flight grew ×8 with the latency: since round 16 (WB) a byte cap, measured
    fl = curve_facts(fit, next(iter(fit.chosen))).cap.facts["bytes_inflight"]
    assert fl["growth"] >= 4 and all(0.95 <= c <= 1.05 for c in fl["little"])
    cap = [t for t in _texts(fit, "cap") if f"the bytes in flight grew ×{fl['growth']:.3g}" in t]
    assert cap and "a byte cap of 2.03 GB/s" in cap[0] and "the byte rate at that depth" not in cap[0], _texts(fit)


# ------------------------------------------------------------------ KE: a trim carries no data
def test_ke_r11_randtrim_bs_no_bandwidth_and_no_level():
    fit = _fit("r11_here-trim_loop_psync_randtrim_bs_repeats")
    texts = _texts(fit)
    joined = " ".join(texts)
    assert "B/s" not in joined and "bandwidth ceiling" not in joined and "byte cap" not in joined
    size = [t for t in _texts(fit, "block size")]
    assert size and "stay at" not in size[0] and "A trim moves no data" in size[0]
    assert joined.count("moves no data") == 1


def test_ke_counter_reads_keep_their_bandwidth_and_trims_lose_it():
    iops = 50e3
    bw = [iops * 4096 * 2 ** k for k in range(5)]
    reads = _texts(_fit_df(_sizes(bw), y="iops"), "block size")
    assert reads and "stay at" in reads[0] and "bandwidth grows" in reads[0]
    trims = _texts(_fit_df(_sizes(bw, direction="trim"), y="iops"), "block size")
    assert trims and "stay at" in trims[0] and "bandwidth grows" not in trims[0] and "B/s" not in trims[0]
    assert "moves no data" in trims[0]


# ------------------------------------------------------------------ LC: one I/O at a time is no cap
def test_lc_r11_zns_psync_qd1_rate_is_one_over_latency():
    fit = _fit("r11_myconfzns_femu-zns-mu11_seqread_psync-qd1_bs")
    cap = _texts(fit, "cap")
    assert cap and "IOPS cap of" not in cap[0] and "1 I/O outstanding ÷ fio's mean latency" in cap[0]
    assert "not shown to be a cap" in cap[0] and "bytes do not add to" in cap[0]


def test_lc_counter_a_full_queue_flat_iops_stays_a_cap():
    iops = 200e3
    bw = [iops * 4096 * 2 ** k for k in range(4)] + [iops * 4096 * 8 * 1.05] * 3
    cap = _texts(_fit_df(_sizes(bw)), "cap")
    # the QD1 rule (outstanding ÷ latency) does not fire at a full queue; since round 13 (QC) a level at one depth
    # is that depth's rate, not shown to be a cap (tests/fitting/test_claims_r13.py) — and since round 27 (HA) at ≥ 16
    # outstanding with Little holding and the latency flat over ≥ ×4 the size, a per-I/O limit, measured
    assert cap and "÷ fio's mean latency" not in cap[0] and "I/Os outstanding: an IOPS limit of" in cap[0] \
        and "per-I/O turn" in cap[0], cap
