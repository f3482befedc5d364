"""Round 28's caps along block size (``_blind_rounds/round28_hand_read_part2.md`` KA; ``_part3.md`` LC, LD, LE's
hetznervol part), by the session rule "a wrong sentence is worse than no sentence" (issue 28).

- KA: a byte level reaches back over the sizes just below its flat stretch that lie within 2 % under its own band
  (size_edge); a range of sizes is never called "below the level" when a size in it lies inside the level.
- LC: workers with one I/O each, far from busy, whose bytes/s stay flat while the bytes in flight grow ≥ ×4: a byte
  limit, measured without a latency column (queue_caps.one_io_workers); async engines keep ×16.
- LD: a roofline missing a point by more than 25 % names the misses and states no crossover.
- LE (hetznervol): a flat IOPS stretch at one depth with no latency gives each I/O's time depth ÷ IOPS.

Round 28 is spent; each rule has a counter-case (spent real or seeded synthetic) where it must not fire.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _fit_df, _sizes, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

CBT_READ = "r28_cbtjake_ceph-rbd-3way-8osd-1node-16vols_randread-peak-over-qd_bs"
CBT_WRITE = "r28_cbtjake_ceph-rbd-3way-8osd-1node-16vols_randwrite-peak-over-qd_bs"
HETZNER = "r28_hetznervol_hcloud-volume-cx11_python-buffered-randread-32threads_bs"
HELIOS = "r25_iscsiwifi_helios4-local-sg-hdd-vs-ssd_seqwrite_bs_by-disk"
GP3_4K = "r27_miztiik_aws-ebs-gp3-4000iops-1000mibs_randwrite_qd16x16_bs"
GP3_16K = "r27_miztiik_aws-ebs-gp3-16000iops-1000mibs_randwrite_qd16x16_bs"
PSYNC_QD1 = "r11_myconfzns_femu-zns-mu11_seqread_psync-qd1_bs"


def _points(case):
    return pd.read_csv(CORPUS / case / "points.csv").sort_values("block_size_bytes")


def _cap_facts(fit):
    from nvmemodel.fitting.facts import curve_facts

    return curve_facts(fit, next(iter(fit.chosen))).cap.facts


# ------------------------------------------------------------------ KA: the byte level's edge
def test_ka_r28_cbtjake_byte_level_starts_at_128k_with_384k_read_in_it():
    fit = _fit(CBT_READ)
    cap = _texts(fit, "cap")[0]
    p = _points(CBT_READ)
    gbs = dict(zip(p["block_size_bytes"], p["bw_bytes_per_s"] / 1e9))
    # 128 KiB (11.35 GB/s) and 384 KiB (11.29 GB/s) lie 0.8 % and 1.3 % under the 512 KiB–4 MiB band's bottom (4 MiB)
    assert 1 - gbs[393216] / gbs[4194304] == pytest.approx(0.013, abs=0.001)
    assert "it is level at 11.3 GB/s (10.5 GiB/s)–12.6 GB/s (11.7 GiB/s) from 128 KiB to 4 MiB" in cap, cap
    assert "384 KiB at 11.3 GB/s (10.5 GiB/s) 1.3% under it" in cap and "128 KiB at 11.4 GB/s (10.6 GiB/s) 0.8% under" in cap
    assert "reaches its level between 64 KiB and 128 KiB" in cap
    assert "below the level at the" not in cap and "a byte cap of 12.6 GB/s" in cap
    f = _cap_facts(fit)
    assert f["bytes_flat"] == (131072.0, 4194304.0) and f["bytes_points"] == 8
    assert [x for x, _ in f["bytes_edge"]] == [131072.0, 393216.0]


def test_ka_counter_r25_helios4_ssd_64k_below_the_band_stays_named():
    # 64 KiB at −9.4 % from the top is 4.5 % under the 128 KiB–2 MiB band's bottom: below it, named (round 25 EF)
    texts = [t for t in _texts(_fit(HELIOS), "cap") if "0.381 GB/s" in t]  # the SSD's curve
    assert texts and "from 128 KiB to 2 MiB" in texts[0]
    assert "below the level at 64 KiB: 0.345 GB/s (0.321 GiB/s), 9.4% below its top" in texts[0]
    assert "under it" not in texts[0]


def test_ka_counter_r28_cbtjake_randwrite_two_sizes_stay_nearly_level():
    cap = _texts(_fit(CBT_WRITE), "cap")[0]
    assert "bandwidth is nearly level at the two largest sizes (4.53 GB/s (4.22 GiB/s) at 512 KiB" in cap
    assert "under it" not in cap


def test_ka_counter_r27_gp3_4000_no_edge_read():
    assert not (_cap_facts(_fit(GP3_4K)).get("bytes_edge") or [])


def test_ka_level_edge_unit():
    from nvmemodel.fitting.size_edge import level_edge

    # the band 10.0–10.9 from index 5; 9.85 (1.5 % under) and 10.3 (inside) are read in; 9.70 (3 % under) is not
    bw = np.array([1.0, 5.0, 9.70, 10.3, 9.85, 10.5, 10.9, 10.0])
    assert level_edge(bw, 5) == (5, [4])
    # a size above the band's top before it is a peak, not the level's edge
    assert level_edge(np.array([1.0, 11.5, 10.5, 10.9, 10.0]), 2) == (3, [])
    # never into a flat IOPS stretch before it (floor)
    assert level_edge(bw, 5, floor=4) == (4, [4])


def test_ka_range_with_a_size_inside_the_level_is_not_called_below():
    # QD32, Little holding; the flat stretch 64 KiB–512 KiB (1.00–1.05 GB/s); 16 KiB at 1.02 GB/s lies inside it
    # between sizes below it (32 KiB at 0.85, 15 % under): the sizes below are named one by one, never as a range
    gb = 1e9
    fit = _fit_df(_sizes([0.1 * gb, 0.2 * gb, 1.02 * gb, 0.85 * gb, 1.0 * gb, 1.05 * gb, 1.03 * gb, 1.04 * gb], sd=0.002))
    cap = [t for t in _texts(fit, "cap") if "bandwidth is" in t]
    assert cap and "from 64 KiB to 512 KiB" in cap[0], cap
    assert "below the level at the" not in cap[0]
    assert "below the level at 4 KiB:" in cap[0] and "8 KiB:" in cap[0] and "32 KiB:" in cap[0]
    assert "16 KiB:" not in cap[0]


# ------------------------------------------------------------------ LC: one-I/O workers, bytes in flight ×4
def _workers(bw, *, jobs=32, iodepth=1, engine="psync", lat=np.nan, sd=0.002, seed=3):
    df = _sizes(bw, runs=1, depth=iodepth, sd=sd, seed=seed)
    df["numjobs"], df["ioengine"] = jobs, engine
    df["lat_mean_s"] = lat if np.isscalar(lat) else lat
    return df


WORKER_BW = [0.05e9, 0.09e9, 0.16e9, 0.20e9, 0.20e9, 0.202e9, 0.201e9]  # flat from 32 KiB to 256 KiB (×8)


def test_lc_r28_hetznervol_32_threads_bytes_in_flight_x4_is_a_byte_limit():
    fit = _fit(HETZNER)
    cap = _texts(fit, "cap")[0]
    p = _points(HETZNER)
    iops, bw = p["iops"].to_numpy(float), p["bw_bytes_per_s"].to_numpy(float)
    assert "32 workers with one I/O each, 7.11–27.4 I/Os a second a worker" in cap, cap
    assert f"for {bw[-1] / bw[-3] - 1:+.1%} in bytes/s" in cap  # +3.7 % over 256 KiB → 1 MiB
    from nvmemodel.fitting.wording import fmt_y

    assert f"{fmt_y(32 / iops[-3], 's')} → {fmt_y(32 / iops[-1], 's')}" in cap  # 36.5 ms → 141 ms
    assert "the bytes in flight grew ×4 (8 MiB → 32 MiB)" in cap
    assert "a byte limit of 0.238 GB/s (0.222 GiB/s) or a little above, measured" in cap
    assert "the byte rate at that depth, not shown to be a cap" not in cap
    # the flat IOPS stretch keeps its depth words (a per-I/O level at one depth, no latency: not shown)
    assert "4 KiB to 32 KiB (within 10% of one another), all at 32 I/Os outstanding" in cap
    assert cap.count("not shown to be a cap") == 1


def test_lc_synthetic_workers_fire():
    cap = [t for t in _texts(_fit_df(_workers(WORKER_BW)), "cap") if "bandwidth" in t]
    assert cap and "32 workers with one I/O each" in cap[0] and "a byte limit of" in cap[0], cap


def test_lc_counter_one_worker_is_one_stream():
    cap = " ".join(_texts(_fit_df(_workers(WORKER_BW, jobs=1)), "cap"))
    assert "workers with one I/O each" not in cap and "byte limit of" not in cap, cap
    assert "all at 1 I/O outstanding: the byte rate at that depth, not shown to be a cap" in cap


def test_lc_counter_busy_workers_are_the_cpu():
    df = _workers(WORKER_BW)
    df["cpu_usr"], df["cpu_sys"] = 0.6, 0.39  # each worker 99 % of a CPU (fio's usr+sys, in CPUs)
    cap = " ".join(_texts(_fit_df(df), "cap"))
    assert "workers with one I/O each" not in cap and "byte limit of" not in cap, cap
    assert "the job's CPU holds the rate" in cap


def test_lc_counter_fast_workers_keep_the_x16_rule():
    # ×10 the rates: 1.9 K I/Os a second a worker at 32 KiB — not "in flight nearly all of the time"; ×8 < ×16
    cap = " ".join(_texts(_fit_df(_workers([10 * v for v in WORKER_BW])), "cap"))
    assert "workers with one I/O each" not in cap and "byte limit of" not in cap and "byte cap of" not in cap, cap
    assert "all at 32 I/Os outstanding: the byte rate at that depth, not shown to be a cap" in cap


def test_lc_counter_async_depth_keeps_the_x16_rule():
    cap = " ".join(_texts(_fit_df(_workers(WORKER_BW, jobs=1, iodepth=32, engine="libaio")), "cap"))
    assert "workers with one I/O each" not in cap and "byte cap of" not in cap, cap
    assert "all at 32 I/Os outstanding: the byte rate at that depth, not shown to be a cap" in cap


def test_lc_counter_little_below_09_with_a_latency_column():
    # a latency column saying ~5 of the 32 I/Os were in flight: the latency rule speaks, and it does not hold
    df = _workers(WORKER_BW)
    df["lat_mean_s"] = 5 * df["block_size_bytes"] / df["bw_bytes_per_s"]
    cap = " ".join(_texts(_fit_df(df), "cap"))
    assert "workers with one I/O each" not in cap and "byte limit of" not in cap and "byte cap of" not in cap, cap
    assert "all at 32 I/Os outstanding: the byte rate at that depth, not shown to be a cap" in cap


def test_lc_counter_iops_stretch_keeps_its_depth_words():
    # hetznervol's IOPS half: flat IOPS at one depth with no latency stays "not shown to be a cap"
    cap = _texts(_fit(HETZNER), "cap")[0].split("; bandwidth")[0]
    assert "not shown to be a cap" in cap and "limit of" not in cap


def test_lc_runs_rows_finds_a_source_path_holding_a_semicolon():
    from nvmemodel.fitting.claim import runs_rows

    fit = _fit(HETZNER)
    rows = runs_rows(fit, fit.points)
    assert rows is not None and len(rows) == 9 and (rows["iodepth"] == 1).all()


# ------------------------------------------------------------------ LD: roofline misses
def test_ld_r28_hetznervol_roofline_misses_named_no_crossover():
    cap = _texts(_fit(HETZNER), "cap")[0]
    assert "cross at about" not in cap
    assert ("The roofline min(IOPS level, byte cap ÷ block size) misses 64 KiB (2.63 K IOPS against its 3.64 K IOPS, "
            "-27.6%), 128 KiB (1.33 K IOPS against its 1.82 K IOPS, -27.1%), by more than 25%") in cap, cap
    assert "no crossover is read from it (RMS log error 0.151; the smooth per-I/O + per-byte form 0.222)" in cap


def test_ld_counter_r27_gp3_16000_roofline_within_25_keeps_its_crossover():
    cap = _texts(_fit(GP3_16K), "cap")[0]
    assert "The two caps cross at about 64 KiB (byte cap ÷ IOPS cap)" in cap and "misses" not in cap
    assert _cap_facts(_fit(GP3_16K))["roof_misses"] == []


def test_ld_r11_psync_qd1_roofline_misses_named():
    cap = _texts(_fit(PSYNC_QD1), "cap")[0]
    assert "cross at about" not in cap and "misses 64 KiB (5.84 K IOPS against its 9.94 K IOPS, -41.3%)" in cap


def test_ld_roof_misses_unit():
    from nvmemodel.fitting.queue_caps import roof_misses

    b = np.array([4096.0, 8192.0, 16384.0])
    assert roof_misses(b, [100.0, 74.0, 76.0], [100.0, 100.0, 100.0]) == [(8192.0, 74.0, 100.0)]


# ------------------------------------------------------------------ LE (hetznervol): depth ÷ IOPS without latency
def test_le_r28_hetznervol_time_per_read_from_little():
    cap = _texts(_fit(HETZNER), "cap")[0]
    p = _points(HETZNER)
    t = 32 / p["iops"].to_numpy(float)[:4]
    from nvmemodel.fitting.wording import fmt_y

    assert (f"each I/O's time 32 ÷ IOPS = {fmt_y(t.min(), 's')}–{fmt_y(t.max(), 's')} by Little's law (assumed: "
            f"the files give no latency)") in cap, cap


def test_le_counter_a_latency_column_gives_no_assumed_time():
    df = _sizes([10_000.0 * 4096 * 2 ** k for k in range(6)], depth=4, sd=0.005)
    cap = [t for t in _texts(_fit_df(df, y="iops"), "cap") if "IOPS are flat" in t]
    assert cap and "the rate at that depth" in cap[0] and "Little's law (assumed" not in cap[0], cap
