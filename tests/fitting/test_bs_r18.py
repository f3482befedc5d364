"""Round 18's block-size classes ZB, ZE and QD (``_blind_rounds/round18_hand_read_part1.md`` and ``_part2.md``), by
the session rule "a cause only with its proof" (issue 28).

- ZB: after a bandwidth peak along block size, the level of the sizes after it is read from their kept runs (IOPS
  falling in proportion to the size), with the rise to it and its onset; the peak is a fall only beyond that level's
  own noise (r18 stack2 libaio QD8 bs: 256 KiB–1 MiB runs 2.71–2.93 GB/s, told "no byte limit is read from them").
- ZE: on the IOPS side, levels of ≥ 3 sizes and the sizes where a request's time steps, beside the byte cap (r18
  stackhpcio ceph randread bs: 6.93–7.32 K IOPS at 1–4 KiB, ×2 time at 8 KiB; beegfs seqwrite bs: ×2.15 / ×2.08 IOPS
  for twice the size at 1 and 4 KiB).
- QD: a typed table with no depth whose IOPS × mean latency is ≈ 1 at every size is one I/O in flight (Little's law);
  a fit the explanation rejects is never named as the noise yardstick (r18 vitastor-i22 randread/randwrite bs).

Each rule has a counter-case (spent real or seeded synthetic) where it must not fire; the assertions recompute from
the case's table what the words claim. No blind round has tested these rules.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import FLAT, NOISE_BAND, ONE_IN_FLIGHT_TOL, curve_facts
from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _fit_df, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

STACK2 = "r18_here-stack2_loop-on-ext4-on-loop_libaio_randread_qd8_bs_repeats"
CEPH, BEEGFS = "r18_stackhpcio_k8s-ceph-volume_randread_qd8_bs", "r18_stackhpcio_k8s-beegfs_seqwrite_qd8_bs"
VITASTOR = ["r18_vitastor-i22_vitastor-vdisk_randread_bs", "r18_vitastor-i22_vitastor-vdisk_randwrite_bs"]


def _facts(fit):
    (key,) = fit.fits
    return curve_facts(fit, key)


def _table(case_id):
    return pd.read_csv(CORPUS / case_id / "points.csv")


def _runs_bw(case_id):
    """Each size's runs' bandwidth (one value per source file) from the case's points.csv."""
    t = _table(case_id)
    g = t.groupby(["block_size_bytes", "source_path"])["bw_bytes_per_s"].sum()
    return {b: g.loc[b].to_numpy(float) for b in sorted(t["block_size_bytes"].unique())}


# ------------------------------------------------------------------ ZB: the level after a peak, from its runs
def test_zb_r18_stack2_level_after_the_peak_from_its_runs():
    fit = _fit(STACK2)
    s = _facts(fit).size_fall.facts
    a = s["level_after"]
    runs = _runs_bw(STACK2)
    after = [b for b in runs if b > s["x_max"]]
    lo, hi = min(runs[b].min() for b in after), max(runs[b].max() for b in after)
    assert after == [262144, 1048576] and np.isclose(a["lo"], lo) and np.isclose(a["hi"], hi)
    assert hi / lo <= 1 + FLAT  # 2.71–2.93 GB/s: one level by its runs
    # the peak's every run above every run of that level: a fall beyond the level's own noise
    assert runs[s["x_max"]].min() > hi and a["beyond"]
    assert a["onset_x"] == 65536 and a["by_runs"]  # the first size whose median reaches the level's lowest run
    (text,) = [t for t in _texts(fit) if t.startswith("Measured bandwidth rises")]
    assert "no byte limit is read" not in text
    assert "from 256 KiB to 1 MiB while IOPS fall in proportion to the size" in text
    # below a peak beyond its noise the level is no limit (a limit under a measured 3.34 GB/s would be false)
    assert "a byte level of about 2.77 GB/s (2.58 GiB/s) over those sizes, first reached at 64 KiB" in text
    assert "limit" not in text and s["bytes_cap"] is None
    assert "lies above every run of that level" in text


def test_zb_counter_one_size_after_the_peak_keeps_its_words():
    # dev vpscmp virtio QD32: one size (128 KiB) after the 64 KiB peak — no level of the sizes after it to read
    fit = _fit("vpscmp_vultr-virtio_seqread_qd32_bs")
    s = _facts(fit).size_fall.facts
    assert s["level_after"] is None and s["bytes_cap"] == s["bytes_max"]
    assert any("the most bandwidth measured is the byte limit these data show" in t for t in _texts(fit))


def test_zb_counter_a_decline_after_the_peak_is_no_level():
    # seeded: a rise to 32 KiB (its runs ±15 %: scattered), then the bandwidth keeps falling ×0.8 a size (runs ±1 %):
    # no level after the peak
    bw = [0.5e9, 1.0e9, 2.0e9, 3.0e9, 2.4e9, 1.9e9, 1.5e9]
    rows = []
    for k, v in enumerate(bw):
        bs = 4096 * 2 ** k
        for r in range(3):
            w = v * (1 + (0.15 if k == 3 else 0.01) * (r - 1))
            rows.append({"block_size_bytes": bs, "bw_bytes_per_s": w, "iops": w / bs, "iodepth": 8, "numjobs": 1,
                         "lat_mean_s": 8 * bs / w, "run": r, "source_path": f"bs{bs}-r{r}.json", "ioengine": "libaio",
                         "direction": "read"})
    fit = _fit_df(pd.DataFrame(rows))
    f = _facts(fit).size_fall
    assert f is not None and f.facts["level_after"] is None
    assert not any("then is flat at" in t for t in _texts(fit))


# ------------------------------------------------------------------ ZE: IOPS levels and request-time steps
def _iops(case_id):
    t = _table(case_id).sort_values("block_size_bytes")
    return t["block_size_bytes"].to_numpy(float), t["iops"].to_numpy(float), t["bw_bytes_per_s"].to_numpy(float)


def test_ze_r18_ceph_iops_level_and_the_8k_step_beside_the_byte_cap():
    fit = _fit(CEPH)
    cf = _facts(fit)
    assert cf.cap is not None and cf.cap.facts["bytes_cap"]  # the byte cap stays
    s = cf.small_sizes.facts
    b, iops, bw = _iops(CEPH)
    first = s["levels"][0]
    idx = (b >= first["x_from"]) & (b <= first["x_to"])
    assert (first["x_from"], first["x_to"]) == (1024, 4096) and idx.sum() >= 3
    assert iops[idx].max() / iops[idx].min() <= 1 + FLAT
    step = next(st for st in s["steps"] if st["x_to"] == 8192)
    k = int(np.flatnonzero(b == 4096)[0])
    assert iops[k] / iops[k + 1] >= NOISE_BAND and bw[k + 1] < (1 + FLAT) * bw[k]  # ×2 time, no bytes gained
    assert bw[k + 2] >= NOISE_BAND * bw[k + 1] and not step["faster"]  # … and the next size gains again
    texts = _texts(fit)
    (said,) = [t for t in texts if t.startswith("Along the sizes")]
    assert "×2.01 from 4 KiB to 8 KiB (7.32 K IOPS → 3.65 K IOPS" in said
    assert "IOPS hold at 6.93 K IOPS–7.32 K IOPS from 1 KiB to 4 KiB" in said
    assert "The files do not show what sets these steps." in said
    assert any("a byte cap of 0.621 GB/s" in t for t in texts)


def test_ze_r18_beegfs_requests_that_took_longer_at_the_smaller_size():
    fit = _fit(BEEGFS)
    s = _facts(fit).small_sizes.facts
    b, iops, _ = _iops(BEEGFS)
    got = {(st["x_from"], st["x_to"]) for st in s["steps"]}
    want = {(b[k], b[k + 1]) for k in range(b.size - 1) if iops[k + 1] / iops[k] >= NOISE_BAND}
    assert got == want == {(512, 1024), (2048, 4096)} and all(st["faster"] for st in s["steps"])
    said = [t for t in _texts(fit) if t.startswith("Along the sizes")]
    assert said and "the larger request took less time" in said[0]


@pytest.mark.parametrize("case_id", [STACK2, *VITASTOR, "here_tmpfs_pagecache_bs"])
def test_ze_counter_smooth_iops_along_size_have_no_step_or_level(case_id):
    # IOPS fall by less than ×1.5 a size step and never rise: nothing beside what the byte/stream sentences say (dev
    # here_tmpfs_pagecache_bs: time ×1.89 and ×1.99 at 16 and 32 KiB with flat bytes, but the next size gains only
    # ×1.0 and ×1.19 — its rate follows the CPU it got, said by the CPU sentence)
    fit = _fit(case_id)
    assert _facts(fit).small_sizes is None
    assert not any(t.startswith("Along the sizes") for t in _texts(fit))


def test_ze_counter_per_io_plus_per_byte_series_has_no_step():
    # seeded: 32 outstanding, 100 µs + size ÷ 1 GB/s each — IOPS fall smoothly, no level of 3 sizes, no step
    rows = []
    for k in range(10):
        bs = 512 * 2 ** k
        v = 32 / (100e-6 + bs / 1e9)
        rows.append({"block_size_bytes": bs, "bw_bytes_per_s": v * bs, "iops": v, "iodepth": 8, "numjobs": 4,
                     "lat_mean_s": 32 / v, "run": 0, "source_path": f"bs{bs}.json", "ioengine": "libaio",
                     "direction": "read"})
    fit = _fit_df(pd.DataFrame(rows))
    f = _facts(fit).small_sizes
    assert f is None or not f.facts["steps"]


# ------------------------------------------------------------------ QD: one I/O in flight by Little's law
@pytest.mark.parametrize("case_id", VITASTOR)
def test_qd_r18_vitastor_one_io_in_flight_without_a_depth(case_id):
    t = _table(case_id)
    assert t["iodepth"].isna().all() and t["numjobs"].isna().all()  # the premise: the table gives no depth
    n = t["iops"] * t["lat_mean_s"]
    assert (abs(n - 1) <= ONE_IN_FLIGHT_TOL).all()
    fit = _fit(case_id)
    p = _facts(fit).points
    assert (p["out"] == 1).all() and np.allclose(np.sort(p["out_little"]), np.sort(n))
    texts = _texts(fit)
    said = [x for x in texts if x.startswith("One I/O in flight at every size")]
    assert said and f"is {n.min():.2f}–{n.max():.2f} at every size (Little's law)" in said[0]
    assert f"{1e6 / t['iops'].max():.0f} µs at 4 KiB" in said[0]
    joined = " ".join(texts)
    # the per_io_byte fit is not the yardstick: its scatter is not read (round 19 TD: on this still-rising series no
    # caution about reading it either — the rising sentence says no ceiling is reached)
    assert "still rises" in joined and "does not describe these points" not in joined
    assert "scatter about the fit" not in joined
    assert "beyond the ±10% a level is read within, one run a point" in joined


def test_qd_counter_a_depth_of_four_by_little_is_not_one_in_flight():
    # seeded typed table, no depth: IOPS × latency = 4 at every size — not one I/O in flight, no depth inferred
    rows = [{"block_size_bytes": 4096 * 2 ** k, "iops": 4 / (200e-6 + 4096 * 2 ** k / 1e9),
             "lat_mean_s": 200e-6 + 4096 * 2 ** k / 1e9, "run": k} for k in range(6)]
    df = pd.DataFrame(rows)
    df["bw_bytes_per_s"] = df["iops"] * df["block_size_bytes"]
    fit = _fit_df(df)
    p = _facts(fit).points
    assert p["out"].isna().all() and p["out_little"].isna().all()
    assert not any("One I/O in flight" in t for t in _texts(fit))


def test_qd_counter_a_given_depth_is_not_replaced():
    # stack2 bs gives iodepth 8: the table's depth stands, nothing inferred
    p = _facts(_fit(STACK2)).points
    assert (p["out"] == 8).all() and p["out_little"].isna().all()


def test_qd_counter_a_describing_fit_keeps_its_scatter_words():
    # dev cases whose noise fit describes the points keep "beyond the scatter about the fit" (unchanged wording)
    from nvmemodel.fitting.evidence import Evidence
    from nvmemodel.fitting.fact_claims import noise_phrase

    ev = Evidence(x=np.arange(3.0), y=np.ones(3), se=np.ones(3), noise_source="residuals", rising=None, falls=None,
                  plateau=None, maximum={})
    assert noise_phrase(ev, 0.5) == "the scatter about the fit"
    bad = Evidence(**{**ev.__dict__, "noise_fit_describes": False})
    assert noise_phrase(bad, 0.5).startswith("the ±10%") and noise_phrase(bad, 0.05).startswith("an assumed noise")


def test_ze_counter_a_step_the_two_levels_sentence_says_is_not_said_twice():
    # blind vpscmp gcloud f1-micro PD QD32: IOPS ×3.5 from 8 to 16 KiB is the "jumps ×7.09" two-levels sentence's
    fit = _fit("vpscmp_gcloud-f1micro-pd_seqread_qd32_bs")
    f = _facts(fit).small_sizes
    assert f is not None and [(s["x_from"], s["x_to"]) for s in f.facts["steps"]] == [(8192, 16384)]
    texts = _texts(fit)
    assert any("jumps ×7.09" in t for t in texts) and not any(t.startswith("Along the sizes") for t in texts)


def test_ze_a_level_at_one_io_outstanding_is_its_latency():
    # blind hothanh7 consumer NVMe QD1: 10.07–10.91 K IOPS at 16–64 KiB is 1 ÷ fio's mean latency (Little's law):
    # said as that, not as a rate the files cannot explain
    fit = _fit("hothanh7_consumer-nvme_randread_qd1_bs")
    (v,) = _facts(fit).small_sizes.facts["levels"]
    p = _facts(fit).points
    idx = (p["x"] >= v["x_from"]) & (p["x"] <= v["x_to"])
    assert v["out"] == 1 and np.allclose(v["lat"], (p["lat"][idx].min(), p["lat"][idx].max()))
    (said,) = [t for t in _texts(fit) if t.startswith("Along the sizes")]
    assert "at 1 I/O outstanding each is 1 ÷ fio's mean latency there" in said and "do not show" not in said


def test_zb_a_peak_whose_runs_reach_into_the_level_is_no_fall_beyond_its_noise():
    # seeded: 64 KiB runs 3.0/3.3/3.7 GB/s (scattered past ±10 %), 256 KiB 2.9/3.0/3.1, 1 MiB 2.85/2.9/2.95 — every
    # 1 MiB run below every 64 KiB run (the fall test passes), but 64 KiB's lowest run lies inside the level's runs
    runs = {4096: (0.50, 0.52, 0.54), 16384: (1.3, 1.35, 1.4), 65536: (3.0, 3.3, 3.7), 262144: (2.9, 3.0, 3.1),
            1048576: (2.85, 2.9, 2.95)}
    rows = [{"block_size_bytes": bs, "bw_bytes_per_s": v * 1e9, "iops": v * 1e9 / bs, "iodepth": 8, "numjobs": 1,
             "lat_mean_s": 8 * bs / (v * 1e9), "run": r, "source_path": f"bs{bs}-r{r}.json", "ioengine": "libaio",
             "direction": "read"} for bs, vs in runs.items() for r, v in enumerate(vs)]
    fit = _fit_df(pd.DataFrame(rows))
    s = _facts(fit).size_fall.facts
    a = s["level_after"]
    assert a is not None and not a["beyond"] and s["bytes_cap"] == s["bytes_max"]
    (said,) = [t for t in _texts(fit) if t.startswith("Measured bandwidth rises")]
    assert "reaches into that level: no fall beyond its noise" in said and "slower" not in said
    assert "a byte limit of about 3.3 GB/s" in said
    assert [c["kind"] for c in fit.claims() if c["text"] == said] == ["level"]


def test_zb_counter_a_tight_peak_stays_the_byte_cap():
    # round 10 JD's counter (tests/fitting/test_size_caps_r10.py): a peak with no scatter shown (one run a point) is the most
    # bandwidth measured, the byte cap; no level after it is read even where the larger sizes are level
    from tests.fitting.test_size_caps_r10 import _sizes as _sized

    fit = _fit_df(_sized([1.0e9, 1.9e9, 2.5e9, 2.2e9, 2.1e9, 2.1e9], [0.5] * 6))
    s = _facts(fit).size_fall.facts
    assert s["level_after"] is None and s["bytes_cap"] == s["bytes_max"]
    assert not any("then is flat at" in t for t in _texts(fit))
