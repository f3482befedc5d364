"""Round 18's CPU classes (``_blind_rounds/round18_hand_read_part1.md`` ZC, ``_part2.md`` QB), by the session rule "a
cause only with its proof" (issue 28):

- ZC: a CPU verdict in bands, not a 90 % cliff on one median run. At the maximum a job whose runs' median is at
  :data:`~nvmemodel.fitting.cpu_claims.NEAR_CPU` of one CPU or more, or any of whose kept runs reached
  :data:`~nvmemodel.fitting.facts.CPU_BOUND`, is "near its CPU limit, which may co-limit the rate", with the runs'
  range and 1 CPU ÷ its CPU per I/O against the rate measured — also beneath a layer whose work fio does not count
  (then the rate is said to be the job thread's own, and that layer's work named). Never "what held the rate its CPU
  figures do not show" there.
- QB: io_uring ``sqthread_poll`` in every run: a kernel thread fio does not count submitted the I/O
  (``hostcal.costs.unseen_work``): one sentence, no CPU per I/O, no kernel share, no verdict. ``hipri`` alone at every
  point: the disclaimer replaces the cost-growth reading instead of following it.

Round 18 is spent: its cases are fitted here. Counter-cases: spent r18 stack2 iodepth (a job at 31 %), spent r8
ingimarsson liburing (sqthread_poll at one depth only), seeded synthetic tables."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting import corpus_score as cs
from tests.fitting.unsaid import with_unsaid_cost

pytestmark = pytest.mark.filterwarnings("ignore:'str' is not supported as a fill value")

RWMIX = "r18_here-rwmixdio_loop-dio-on_libaio_randrw_qd8_readshare_repeats"
SQPOLL_CASES = ["r18_msf2fsbench_zn540-zns-4klbaf_4k-seqwrite_iouring-sqpoll_qd16_zones-numjobs",
                "r18_msf2fsbench_zn540-zns-512lbaf_4k-seqwrite_iouring-sqpoll_1zone_qd",
                "r18_msf2fsbench_zn540-zns-512lbaf_4k-seqwrite_iouring-sqpoll_qd1_zones-numjobs"]
DO_NOT_SHOW = "what held the rate its CPU figures do not show"


def _cpu_texts(fit) -> list[str]:
    # (round 19 TE, cpu_band: a cost line not worth a sentence is left out and put back here
    # (tests/fitting/unsaid.py) where these tests check its figures and notes; tests/fitting/test_cost_band_r19.py tests the band)
    return [c["text"] for c in with_unsaid_cost(fit) if c["kind"] == "cpu"]


def _runs_at(case_id: str, col: str, value: float) -> pd.DataFrame:
    """Each run (source file) at ``col`` = value: usr+sys (one job) and IOPS summed over its rows, from points.csv."""
    t = pd.read_csv(cs.CORPUS / case_id / "points.csv", low_memory=False)
    t = t[np.isclose(t[col].astype(float), value)]
    g = t.groupby("source_path")
    return pd.DataFrame({"cpu": g["cpu_usr"].first() + g["cpu_sys"].first(), "iops": g["iops"].sum()})


# ------------------------------------------------------------------------------------------------------ ZC: bands
def test_rwmixdio_job_near_one_cpu_with_its_runs():
    """r18 rwmixdio, loop0 (dio) over tmpfs, one libaio job. Round 18 read "below 90 %: what held the rate its CPU
    figures do not show" at the maximum as misleading (ZC). Since round 23 AD "the maximum" is the point with the
    highest kept-runs median (level_stat.top_index): pure reads, 198.68 K (90 % reads: 198.49 K, its mean 205.86 K
    carried by one 234.49 K run); there the job made 88 % of the rate one CPU gives its thread at its cost — near its
    limit, said as the job thread's own rate beneath the loop device (off_thread, the one rule of round 14 SD/RE)."""
    text = " ".join(_cpu_texts(cs.fit_case_id(RWMIX, "blind18")))
    assert DO_NOT_SHOW not in text and "at the maximum (read_fraction = 1)" in text, text
    assert "at or near its CPU limit" in text and "the work of the loop device's worker is not in it" in text, text
    runs = _runs_at(RWMIX, "read_fraction", 1.0)
    cost = float(np.median(runs["cpu"] / runs["iops"]))
    m = re.search(r"of the ([\d.]+) K IOPS one CPU gives the job thread at its measured cost \(([\d.]+) µs of the job "
                  r"thread's CPU per I/O", text)
    assert m, text
    assert float(m[2]) * 1e-6 == pytest.approx(cost, rel=0.01) and float(m[1]) * 1e3 == pytest.approx(1 / cost,
                                                                                                       rel=0.01)
    assert not re.search(r"one CPU sustains [\d.]", text)  # never the whole path's rate beneath a loop device


def test_a_job_far_from_its_cpu_keeps_the_open_verdict():
    """Counter (spent r18 stack2 libaio iodepth): 31 % of one CPU at the maximum, no run near 90 % — no 'near'."""
    case = "r18_here-stack2_loop-on-ext4-on-loop_libaio_randread_iodepth_repeats"
    runs = _runs_at(case, "iodepth", 8)
    assert runs["cpu"].max() < 0.7
    text = " ".join(_cpu_texts(cs.fit_case_id(case, "blind18")))
    assert "near its CPU limit" not in text and DO_NOT_SHOW in text


def _runs_table(top_runs, seed=18):
    """SEEDED SYNTHETIC: one libaio job on /dev/nvme0n1 along iodepth 1-32, 3 runs a point, saturating at QD4 near
    200 K IOPS; the runs' usr+sys at the deepest point are ``top_runs`` (elsewhere 40-50 % of a CPU)."""
    rng = np.random.default_rng(seed)
    rows = []
    for q in (1, 2, 4, 8, 16, 32):
        level = min(60e3 * q, 200e3)
        for r in range(3):
            iops = level * (1 + rng.uniform(-0.02, 0.02))
            cpu = top_runs[r] if q == 32 else 0.4 + 0.05 * r
            rows.append({"source_path": f"synthetic/qd{q}-r{r}.json", "iodepth": q, "numjobs": 1, "run": r,
                         "ioengine": "libaio", "direct": 1, "rw": "randread", "direction": "read",
                         "block_size_bytes": 4096, "iops": iops, "bw_bytes_per_s": iops * 4096, "cpu_usr": cpu * 0.3,
                         "cpu_sys": cpu * 0.7, "lat_mean_s": q / iops, "devices": "nvme0n1"})
    t = pd.DataFrame(rows)
    t.loc[t["iodepth"] == 32, "iops"] = 205e3 + 1e3 * np.arange(3)  # the maximum at the deepest point
    t["bw_bytes_per_s"] = t["iops"] * 4096
    t["lat_mean_s"] = t["iodepth"] / t["iops"]
    return t


def _texts_of(t) -> str:
    return " ".join(_cpu_texts(nm.fit(t, x="iodepth", y="iops")))


def test_one_run_at_a_cpu_is_near_though_the_median_is_not():
    """SEEDED: the deepest point's runs at 0.55, 0.60, 0.93 of a CPU (median 0.60, below both 70 % and 90 %): one
    run reached a CPU — near, with the runs' range, never 'do not show'."""
    text = _texts_of(_runs_table([0.55, 0.60, 0.93]))
    assert "near its CPU limit, which may co-limit the rate" in text and DO_NOT_SHOW not in text, text
    assert "its 3 runs: 55%–93% of one CPU per job" in text, text
    assert re.search(r"one CPU sustains [\d.]+ K IOPS", text)  # a drive fio's disk statistics name: the path's rate


def test_runs_all_well_below_a_cpu_are_not_near():
    """SEEDED counter: the same series with its deepest runs at 0.50-0.60 of a CPU: no 'near'."""
    text = _texts_of(_runs_table([0.50, 0.55, 0.60]))
    assert "near its CPU limit" not in text, text


# ------------------------------------------------------------------------------------------- QB: sqthread_poll
@pytest.mark.parametrize("case_id", SQPOLL_CASES)
def test_sqpoll_runs_get_one_sentence_and_no_cpu_figure(case_id):
    """r18 msf2fsbench ZN540, fio 3.32 io_uring hipri + sqthread_poll in every run: round 18 read 'CPU per I/O grew
    ×7.16 … 0.0067 % → 0.25 % of it in the kernel (sys)' (#1, #3) as mild-misleading (QB). Now one sentence naming the
    kernel SQ-poll thread fio does not count, no CPU per I/O, no kernel share, no verdict."""
    t = pd.read_csv(cs.CORPUS / case_id / "points.csv", low_memory=False)
    assert (t["sqthread_poll"] > 0).all()
    texts = _cpu_texts(cs.fit_case_id(case_id, "blind18"))
    assert len(texts) == 1, texts
    text = texts[0]
    assert "kernel SQ-poll thread" in text and "fio counts only the job's own thread" in text
    for wrong in ("µs", "in the kernel (sys)", "grew", "CPU-bound", "near its CPU limit", "one CPU sustains",
                  DO_NOT_SHOW):
        assert wrong not in text, (wrong, text)


def test_sqpoll_at_one_point_only_keeps_the_other_points_reading():
    """Counter (spent r8 ingimarsson liburing engine): sqthread_poll at QD128 only — the busy job at one cost below it
    stays CPU-bound and QD128 alone is set aside (round 8, EA)."""
    case = "r8_ingimarsson_nvme_512b-randread_liburing-engine_qd"
    t = pd.read_csv(cs.CORPUS / case / "points.csv", low_memory=False)
    assert (t["sqthread_poll"] > 0).any() and not (t["sqthread_poll"] > 0).all()
    text = " ".join(_cpu_texts(cs.fit_case_id(case)))
    assert "the level is CPU-bound" in text and "kernel SQ-poll thread" not in text
    assert "(no reading of fio's CPU there)" in text


def test_unseen_work_names_sqpoll_only_where_every_run_set_it():
    from nvmemodel.hostcal.costs import SQPOLL, unseen_work

    rows = pd.DataFrame({"ioengine": ["io_uring"] * 3, "sqthread_poll": [1, 1, 1]})
    assert unseen_work(rows) == SQPOLL
    assert unseen_work(rows.assign(sqthread_poll=[1, 0, 1])) == ""
    assert unseen_work(rows.drop(columns="sqthread_poll")) == ""
    # not known (NA: ingest's io_uring job whose flag fio did not echo) is not set
    assert unseen_work(rows.assign(sqthread_poll=pd.array([pd.NA] * 3, dtype="Int64"))) == ""


def test_io_uring_without_sqpoll_keeps_its_cpu_reading():
    """Counter (spent r2_here_loop_iouring_libaio_iodepth, read from fio's JSON): the io_uring curve's flag is not
    echoed (NA) — no SQ-poll sentence; its CPU per I/O stays."""
    fit = cs.fit_case_id("r2_here_loop_iouring_libaio_iodepth", "blind2")
    assert fit.table.loc[fit.table["ioengine"] == "io_uring", "sqthread_poll"].isna().all()
    text = " ".join(_cpu_texts(fit))
    assert "kernel SQ-poll thread" not in text and "fio's CPU per I/O at the saturation onset" in text, text


# ------------------------------------------------------------------------------------------------- QB: hipri alone
def _spinning_jobs(hipri):
    """SEEDED SYNTHETIC: io_uring jobs each 100 % busy along numjobs 1-8 while the rate stays at 300 K IOPS: CPU per
    I/O ×8 (3.3 → 26.7 µs) — no cost, whatever the option says."""
    x = [1, 2, 4, 8]
    t = pd.DataFrame({"source_path": [f"synthetic/nj{n}.json" for n in x], "numjobs": x, "iodepth": 32,
                      "ioengine": "io_uring", "iops": [300e3, 302e3, 301e3, 300e3], "cpu_usr": 0.6, "cpu_sys": 0.4,
                      "lat_mean_s": [32 * n / 300e3 for n in x]})
    t["hipri"] = hipri
    return _cpu_texts(nm.fit(t, x="numjobs", y="iops"))


def test_hipri_at_every_point_replaces_the_cost_growth_reading():
    texts = _spinning_jobs(1)
    text = " ".join(texts)
    assert len(texts) == 1 and "polled for their completions (hipri)" in text and "no CPU limit" in text, texts
    assert "grew" not in text and "µs" not in text, text  # the disclaimer replaces the growth, not follows it
    assert "100% of one CPU per job" in text  # fio's CPU itself is kept


def test_cost_growth_without_polling_is_still_said():
    """Counter: the same numbers with hipri = 0 — the measured growth is the reading (round 10, JC)."""
    text = " ".join(_spinning_jobs(0))
    assert re.search(r"CPU per I/O grew ×[\d.]+, from 3\.3\d* µs to 26\.\d+ µs", text), text
    assert "no polling option is set (hipri)" in text
