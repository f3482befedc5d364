"""Round 31's per-job, busy-share, level-shape and mix classes (TA, TB, TC, TD), each with the spent case that showed
it and cases where the rule must not fire. The assertions recompute from the table what the words claim.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.busy_window import HELD, held_depth
from nvmemodel.fitting.claim import runs_rows
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.job_spans import UNEVEN, job_spans
from nvmemodel.fitting.level_shape import peaked

from .corpus_score import CORPUS, fit_case_id, load_case, load_table

pytestmark = pytest.mark.filterwarnings("ignore")

XFSNJ = "r31_here-xfsfalloc_loop-xfs-900mimg_psync-direct_seqwrite4k-newfile_numjobs_repeats"
VDAMIX = "r31_here-vdarwmix_vda-ext4-512mfile_libaio-direct_randrw4k-qd16_rwmixread_repeats"
TMPFSBS = "r31_here-tmpfsbs_tmpfs-256mfile_psync-buffered_seqread_bs_repeats"
OTMIX = "r30_orangetangy_crucial-p3plus-500g-win-windowsaio_4k-randrw-qd8_readshare_repeats"
LDMIX = "r30_lucasding_pm981-256g-nvme1n1p1_4k-randrw-iouring-qd32_readshare"
OTRBS = "r30_orangetangy_crucial-p3plus-500g-win-windowsaio_randread-qd8_bs_repeats"


def _texts(r, kind):
    return [c["text"] for c in r.claims() if c["kind"] == kind]


def _xfs_table():
    d = CORPUS / XFSNJ
    if not (d / "case.json").exists():
        pytest.skip(f"{XFSNJ} not in the corpus")
    return load_table(d, load_case(d))


def _fit(t):
    return nm.fit(t, x="numjobs", y="iops")


# ---------------------------------------------------------------------------------------------------------- TA
def test_ta_little_per_job_and_in_flight_over_the_span():
    r = fit_case_id(XFSNJ)
    t = _xfs_table()
    little = " ".join(_texts(r, "little"))
    # per job: Σ ios × mean latency ÷ its own runtime — every job 0.993–0.998
    per_job = t["ios"] * t["lat_mean_s"] / t["runtime_s"]
    assert round(per_job.min(), 2) == 0.99 and round(per_job.max(), 2) == 1.00
    assert "per job (each over its own runtime) = 0.99–1.00" in little
    assert "fio kept the I/O asked for outstanding)" not in little
    # over the run's span: Σ(ios × lat) ÷ the longest job's runtime
    g = t.assign(xr=t["ios"] * t["lat_mean_s"]).groupby("source_path")
    flight = (g["xr"].sum() / g["runtime_s"].max())
    nj = g["numjobs"].first()
    f8 = flight[nj == 8]
    assert f"{f8.min():.2f}–{f8.max():.2f} of 8 at numjobs = 8" in little
    assert "5.69–7.61 of 8 at numjobs = 8" in little and "3.43–3.60 of 4 at numjobs = 4" in little
    assert "1.19–3.00 s at numjobs = 8" in little


def test_ta_level_both_ways_and_cpu_over_the_span():
    r = fit_case_id(XFSNJ)
    t = _xfs_table()
    g = t.groupby("source_path")
    wall = g["ios"].sum() / g["runtime_s"].max()
    nj = g["numjobs"].first()
    med = wall.groupby(nj).median()
    text = " ".join(_texts(r, "little"))
    assert "Σ I/Os ÷ the run's span 52.34 K IOPS" in text and "Σ of the jobs' rates 63.54 K IOPS" in text
    assert abs(med[8] - 52_337) < 5 and abs(med[4] - 41_968) < 5
    assert f"{med[8] / med[4] - 1:+.0%} (4 → 8)" in text
    assert "+25% (4 → 8)" in text and "+55% (2 → 4)" in text
    cpu = ((t["cpu_usr"] + t["cpu_sys"]) * t["runtime_s"]).groupby(t["source_path"]).sum() / g["runtime_s"].max()
    assert round(float(cpu[nj == 8].median()), 2) == 1.16 and "give 1.16 CPUs" in text
    # the share of the added load that waited is not read from Little per job any more
    sat = " ".join(_texts(r, "saturation"))
    assert "of it waited, by Little's law" not in sat


@pytest.mark.parametrize("how", ["equal", "startup", "group"])
def test_ta_not_for_equal_spans_startup_spread_or_group_rows(how):
    t = _xfs_table().copy()
    if how == "equal":  # every job ran the whole 3 s: sum of rates = wall rate
        t["runtime_s"] = 3.0
        t["ios"] = (t["iops"] * 3.0).round()
    elif how == "startup":  # 1–2 % start-up staggering, below UNEVEN
        t["runtime_s"] = 3.0 * (1 - 0.02 * t["job_index"] / t["numjobs"])
        t["ios"] = (t["iops"] * t["runtime_s"]).round()
        assert (1 - t.groupby("source_path")["runtime_s"].min() / t.groupby("source_path")["runtime_s"].max()
                ).max() < UNEVEN
    else:  # group_reporting: one row a run, fio's own aggregate
        agg = t.groupby("source_path", as_index=False).agg(
            {**{c: "first" for c in t.columns if c not in ("iops", "ios", "runtime_s", "source_path")},
             "iops": "sum", "ios": "sum", "runtime_s": "max"})
        t = agg.assign(job_index=0)
    r = _fit(t)
    key = next(iter(r.fits))
    assert job_spans(r, key) is None
    little = " ".join(_texts(r, "little"))
    assert "per job (each over its own runtime)" not in little and "run's span" not in little


def test_ta_not_for_one_job_runs():
    r = fit_case_id(VDAMIX)
    assert job_spans(r, next(iter(r.fits))) is None


# ---------------------------------------------------------------------------------------------------------- TB
def test_tb_busy_counter_under_reads_where_little_holds():
    r = fit_case_id(VDAMIX)
    layer = " ".join(_texts(r, "layer"))
    assert "idle in those runs" not in layer
    t = load_table(CORPUS / VDAMIX, load_case(CORPUS / VDAMIX))
    # Little per run from the table: Σ IOPS × mean latency ÷ 16
    lit = (t["iops"] * t["lat_mean_s"]).groupby(t["source_path"]).sum() / 16
    assert lit.min() >= HELD and f"Little's law gives {lit.min():.2f} a run at 16 outstanding" in layer
    assert "at read_fraction = 0, 0.25, 1 its busy share is lower (58–78 %)" in layer
    assert round(t.loc[t["read_fraction"].isin([0, 0.25, 1]), "disk_util_pct"].max()) == 78
    assert "busy counter under-reads" in layer


def test_tb_not_where_the_depth_was_not_held_or_sync_or_buffered():
    t = load_table(CORPUS / VDAMIX, load_case(CORPUS / VDAMIX))
    assert held_depth(t, "read_fraction")  # the case itself
    assert held_depth(t.assign(lat_mean_s=t["lat_mean_s"] * 0.85), "read_fraction") == {}  # Little 0.85
    assert held_depth(t.assign(direct=False), "read_fraction") == {}  # buffered
    r = fit_case_id(XFSNJ)  # psync numjobs = 1: loop0's idle is real
    assert held_depth(runs_rows(r, curve_facts(r, next(iter(r.fits))).points), "numjobs") == {}
    lo = t.assign(lat_mean_s=t["lat_mean_s"] * 0.85)
    layer = " ".join(c["text"] for c in nm.fit(lo, x="read_fraction", y="iops").claims() if c["kind"] == "layer")
    assert "under-reads" not in layer


# ---------------------------------------------------------------------------------------------------------- TC
def test_tc_level_says_its_shape():
    r = fit_case_id(TMPFSBS)
    cap = " ".join(_texts(r, "cap"))
    assert "is flat at" not in cap and "it is level at" in cap
    assert "rising 4% to its peak at 256 KiB, then 7% lower at 1 MiB, each beyond the runs" in cap
    t = load_table(CORPUS / TMPFSBS, load_case(CORPUS / TMPFSBS))
    bw = t.groupby("block_size_bytes")["bw_bytes_per_s"]
    assert bw.min()[262144] > bw.max()[65536] and bw.min()[262144] > bw.max()[1048576]
    assert round(1 - bw.median()[1048576] / bw.median()[262144], 2) == 0.07


def test_tc_not_inside_the_scatter_or_small_or_one_way():
    x = np.array([64, 128, 256, 512], float)
    runs = np.full(4, 3)
    # steps inside the runs' scatter (as r30 otrbs): the peak's runs reach the ends'
    assert peaked(x, np.array([1.0, 1.04, 1.06, 1.0]), np.array([0.95, 0.98, 1.0, 0.96]),
                  np.array([1.05, 1.08, 1.1, 1.04]), runs) is None
    # a level within ±1 % (as r30 ldseq)
    assert peaked(x, np.array([1.0, 1.01, 1.012, 1.005]), np.array([0.999, 1.009, 1.011, 1.004]),
                  np.array([1.001, 1.011, 1.013, 1.006]), runs) is None
    # a one-way creep: no peak inside
    assert peaked(x, np.array([1.0, 1.03, 1.06, 1.09]), np.array([0.999, 1.029, 1.059, 1.089]),
                  np.array([1.001, 1.031, 1.061, 1.091]), runs) is None
    # no repeats
    assert peaked(x, np.array([1.0, 1.05, 1.09, 1.0]), np.array([1.0, 1.05, 1.09, 1.0]),
                  np.array([1.0, 1.05, 1.09, 1.0]), np.ones(4)) is None
    r = fit_case_id(OTRBS)
    assert not any("to its peak at" in c["text"] for c in r.claims())


# ---------------------------------------------------------------------------------------------------------- TD
def test_td_mix_sentence_counts_the_sides():
    r = fit_case_id(VDAMIX)
    mix = " ".join(_texts(r, "mix"))
    assert "all 3 mixes' medians lie above the harmonic mix and 6 of their 9 runs above even the line" in mix
    assert "reach it" not in mix
    s = curve_facts(r, next(iter(r.fits))).mix.facts["above_in_noise"]["sides"]
    assert s == {"mixes": 3, "above": 3, "below": 0, "runs": 9, "runs_above_hi": 6, "runs_below_lo": 1}


@pytest.mark.parametrize("case", [OTMIX, LDMIX])
def test_td_not_for_mixes_on_both_sides_or_means_only(case):
    r = fit_case_id(case)
    assert not any("above even the line" in c["text"] for c in r.claims())
