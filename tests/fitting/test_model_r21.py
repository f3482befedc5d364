"""Round 21's classes VF, VG (``_blind_rounds/round21_hand_read_part1.md``) and WC, WG (``part2.md``):

- VF: a per-I/O + per-byte IOPS ceiling below what was measured (the other ceiling not determined) was said in a
  bracket that did not hold it ("36 IOPS (between the 38 IOPS measured and 39 IOPS …)"); now the ceiling is said to
  lie below the measurement, and a size whose I/O took less time than a smaller one's is named (``size_steps``).
- VG: with one run a point, the series' own step back on its rise is said as the noise (``run_noise.reversal``); where
  the files give only fio's completion latency, Little's law is read on it (``clat_little``).
- WC: across a step of more than two doublings with no point between, no gain per doubling; the onset lies in (a, b]
  (``gaps``).
- WG: a point whose runs were a few queue-fulls of I/O is said to be a fill-and-drain (``fill_drain``).

Round 21 is spent; counters are other spent cases and seeded tables.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.fill_drain import FILL_DRAIN, queue_fulls
from nvmemodel.fitting.gaps import wide_gap
from nvmemodel.fitting.run_noise import reversal
from nvmemodel.fitting.size_steps import cheaper_step
from nvmemodel.fitting.wording import fmt_y
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

RMW0 = "r21_raid6rmw_md-raid6-10hdd_randwrite-8thr-rmw0_bs"
CEPH = "r21_cephvn_rbd-3hdd-osd-rep3_4k-randwrite_qd"
TV1 = "r21_tieredvol_dm-stripe-nvme-2sata_2m-write_1job_qd"
TV4 = "r21_tieredvol_dm-stripe-nvme-2sata_2m-write_4jobs_qd"


def _texts(fit, kind=None) -> list[str]:
    return [c["text"] for c in fit.claims() if kind is None or c["kind"] == kind]


def _all(fit) -> str:
    return " ".join(_texts(fit))


def _points(case):
    return pd.read_csv(CORPUS / case / "points.csv")


def _seeded(rows, x="iodepth", y="iops"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y=y)


# ------------------------------------------------------------------ VF: no bracket around a ceiling below a point
def test_vf_rmw0_ceiling_below_the_measured_is_said_so():
    p = _points(RMW0).sort_values("block_size_bytes")
    top = p["iops"].max()
    t = " ".join(_texts(fit_case_id(RMW0), "model"))
    assert "between the" not in t and "36 IOPS" not in t
    assert round(top) == 38 and "IOPS ceiling lies below what was measured (38 IOPS at 512 KiB)" in t
    # the time per I/O fell at the largest size: 1/IOPS at 256 and 512 KiB
    t256, t512 = 1 / p["iops"].iloc[-2], 1 / p["iops"].iloc[-1]
    assert (f"Each I/O took less time at 512 KiB than at 256 KiB (1 ÷ IOPS {fmt_y(t512, 's')} against "
            f"{fmt_y(t256, 's')}, {t512 / t256 - 1:+.0%})") in t
    assert fmt_y(t512, "s") == "26.2 ms" and fmt_y(t256, "s") == "34 ms"


def test_vf_cheaper_step_counter_a_per_byte_cost_never_gets_cheaper():
    s = np.array([4096, 8192, 16384, 65536, 262144, 1048576], float)
    iops = 1 / (50e-6 + s / 2e9)  # a + b·size, b > 0: time per I/O only grows
    assert cheaper_step(s, iops) is None
    iops2 = iops.copy()
    iops2[-1] = iops[-2] * 1.05  # 1/IOPS −4.8 %: inside the ±10 % band, not said
    assert cheaper_step(s, iops2) is None
    iops2[-1] = iops[-2] * 1.25  # −20 %: said
    c = cheaper_step(s, iops2)
    assert c is not None and c["x0"] == 262144 and c["x1"] == 1048576 and c["fall"] == pytest.approx(0.2)


def test_vf_counter_a_ceiling_above_every_point_keeps_its_words():
    s = [4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576]
    rows = [{"block_size_bytes": b, "iodepth": 32, "numjobs": 1, "bw_bytes_per_s": b / (20e-6 + b / 3e9),
             "iops": 1 / (20e-6 + b / 3e9)} for b in s]
    t = " ".join(_texts(_seeded(rows, x="block_size_bytes", y="bw_bytes_per_s"), "model"))
    assert "lies below what was measured" not in t and "took less time" not in t


# ------------------------------------------------------------------ VG: the series' own step back; Little on clat
def test_vg_ceph_reversal_and_little_on_completion_latency():
    p = _points(CEPH).sort_values("iodepth")
    fit = fit_case_id(CEPH)
    sat = " ".join(_texts(fit, "saturation"))
    y = p["iops"].to_numpy(float)
    assert f"the rise itself steps back {y[4] / y[3] - 1:+.0%} (iodepth = 8 → 16)" in sat
    (lit,) = _texts(fit, "little")
    r = p["iops"] * p["clat_mean_s"] / p["iodepth"]
    assert f"÷ outstanding I/O = {r.min():.2f}–{r.max():.2f} at every point" in lit
    cl = p["clat_mean_s"].to_numpy(float)
    assert f"grew ×{cl[-1] / cl[-2]:.3g}, 245 ms → 511 ms, for ×2 the outstanding I/O while IOPS changed " \
           f"{y[-1] / y[-2] - 1:+.0%}: the added load queued" in lit


def test_vg_reversal_counter_only_on_the_rise_and_beyond_the_band():
    x = np.array([1, 2, 4, 8, 16, 32], float)
    assert reversal(x, [10, 20, 40, 60, 70, 60]) is None  # the step down is after the highest point: a fall, not noise
    assert reversal(x, [10, 20, 19, 60, 70, 72]) is None  # −5 %: inside ±10 %
    r = reversal(x, [10, 20, 16, 60, 70, 72])
    assert r == {"x0": 2.0, "x1": 4.0, "fall": pytest.approx(0.2)}


def test_vg_counter_no_clat_little_where_a_total_latency_is_given_or_the_queue_was_not_full():
    assert _texts(fit_case_id(TV1), "little") == [] or all("completion latency (the files give no total" not in t
                                                        for t in _texts(fit_case_id(TV1), "little"))
    qd = [1, 2, 4, 8, 16, 32]
    iops = [100, 190, 300, 380, 400, 402]
    rows = [{"iodepth": q, "numjobs": 1, "iops": v, "clat_mean_s": 0.5 * q / v} for q, v in zip(qd, iops)]
    assert "Little's law on fio's completion latency" not in _all(_seeded(rows))  # bound 0.5: nothing read
    full = [{"iodepth": q, "numjobs": 1, "iops": v, "clat_mean_s": q / v} for q, v in zip(qd, iops)]
    assert "Little's law on fio's completion latency" in _all(_seeded(full))


# ------------------------------------------------------------------ WC: no per-doubling gain over a wide gap
def test_wc_tieredvol_one_job_gap_total_only():
    p = _points(TV1).sort_values("iodepth")
    b = p["bw_bytes_per_s"].to_numpy(float)
    sat = " ".join(_texts(fit_case_id(TV1), "saturation"))
    assert f"Up to it the load still paid: {b[1] / b[0] - 1:+.0%} for ×32 the iodepth, from 0.825 GB/s" in sat
    assert "with no point between: the level is reached somewhere in (1, 32], not measured closer" in sat
    assert not re.search(r"per doubling from 0\.825", sat)


def test_wc_gap_counter_steps_of_two_doublings_keep_their_rate():
    assert not wide_gap(1, 4) and not wide_gap(4, 16) and wide_gap(1, 8) and wide_gap(1, 32)
    qd = [1, 4, 16, 64, 256]
    iops = [100, 300, 600, 610, 605]
    rows = [{"iodepth": q, "numjobs": 1, "iops": v, "lat_mean_s": q / v} for q, v in zip(qd, iops)]
    sat = " ".join(_texts(_seeded(rows), "saturation"))
    assert "per doubling" in sat and "somewhere in" not in sat


# ------------------------------------------------------------------ WG: fill-and-drain runs
def test_wg_tieredvol_one_job_short_runs_said():
    p = _points(TV1).sort_values("iodepth")
    k = (p["ios"] / p["iodepth"]).to_numpy(float)
    assert list(k[-3:]) == [4, 2, 1] and (k[:-3] > FILL_DRAIN).all()
    (c,) = [t for t in _texts(fit_case_id(TV1), "caution") if "fill-and-drain" in t]
    assert c.startswith("At iodepth = 256, 512 and 1024 each run was only 4, 2 and 1 queue-fulls of I/O "
                        "(1024 I/Os per job)")


def test_wg_counter_long_runs_are_not_flagged():
    assert "fill-and-drain" not in _all(fit_case_id(TV4))  # time-based: thousands of queue-fulls a run
    p = _points(TV4)
    assert (queue_fulls(p) > FILL_DRAIN).all()
    rows = pd.DataFrame({"ios": [4096, 1000], "iodepth": [1024, 100], "numjobs": [4, 4], "level": ["group", "job"]})
    assert list(queue_fulls(rows)) == [1.0, 10.0]
