"""Issue 28: an explanation starts from facts the data show, read as a storage engineer reads them, for any device.

One test per class the issue names, on real series of the explanation corpus's *development* split measured here
(tests/data/explain_corpus/here_*: fio 3.33 on this project's VM, cgroup throttles and loop devices, their gen.sh
and provenance beside them) and on seeded synthetic series (labelled so). The corpus's blind third is never read
here: it is scored once, at the end (tests/fitting/corpus_score.py).
"""

import hashlib
import pathlib

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import PAYS, curve_facts

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
from .test_models_after_facts_r8 import assert_no_model_level


def _dev(case: str) -> pathlib.Path:
    # the split rule of corpus_score.py: a blind case must never be fitted by a test
    assert int(hashlib.sha256(case.encode()).hexdigest(), 16) % 3 != 0, f"{case} is in the blind split"
    return CORPUS / case / "raw"


def _fit(case, **kw):
    return nm.fit(nm.read_results(_dev(case)), **kw)


def _claims(res, kind):
    return [c for c in res.claims() if c["kind"] == kind]


def _series(x, y, *, lat=None, reps=1, cv=0.0, seed=0, xname="iodepth", **cols):
    """SYNTHETIC (seeded): one row per run at each x, optional relative noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for i, (xv, yv) in enumerate(zip(x, y)):
        for r in range(reps):
            row = {"source_path": f"synthetic/{xname}{xv}_r{r}.json", xname: xv, "iops": yv * (1 + cv * rng.standard_normal()),
                   "direction": "read"}
            if lat is not None:
                row["lat_mean_s"] = lat[i]
            row.update({k: v[i] if isinstance(v, (list, np.ndarray)) else v for k, v in cols.items()})
            rows.append(row)
    return pd.DataFrame(rows)


# --- saturation: onset, from the first point, still rising, falls -----------------------------------------------------

def test_saturation_onset_is_the_first_load_no_later_doubling_pays_ten_percent_over():
    # SYNTHETIC: +3 % for twice the queue depth while latency doubles *is* saturation (issue 28), whatever a
    # significance test says; the onset is 16 (+60 % to it, then +3 %, +2 %, +1 %)
    x = [1, 2, 4, 8, 16, 32, 64, 128]
    y = [20e3, 40e3, 75e3, 125e3, 200e3, 206e3, 210e3, 212e3]
    lat = [n / v for n, v in zip(x, y)]  # Little's law: latency = outstanding ÷ rate
    res = nm.fit(_series(x, y, lat=lat), x="iodepth", y="iops")
    (sat,) = _claims(res, "saturation")
    f = sat["facts"]
    assert f["state"] == "onset" and f["onset_x"] == 16
    assert f["plateau_lo"] == pytest.approx(200e3) and f["plateau_hi"] == pytest.approx(212e3)
    assert "saturates from iodepth = 16" in sat["text"] or "saturated from iodepth = 16" in sat["text"]
    assert "still rises" not in res.explain() and "does not reach a ceiling" not in res.explain()


def test_a_level_rate_with_latency_growing_with_the_load_is_saturated_from_the_first_point():
    # measured here: a cgroup throttle of 4000 IOPS on a loop device, QD 1..64 (here_blkio_iops_iodepth)
    res = _fit("here_blkio_iops_iodepth", x="iodepth", y="iops")
    (sat,) = _claims(res, "saturation")
    assert sat["facts"]["state"] == "from_first", sat
    assert sat["text"].startswith("Measured IOPS is saturated from the first point")
    # a cgroup cap: "a limit reached at the first point", never "one serial path" without its proof (round 7 CE)
    assert "a limit reached at the first point" in sat["text"] and "one serial path" not in sat["text"]
    # no model's knee, contention or limit is read from a line that was level from its first point
    text = res.explain()
    for word in ("contention", "coherency", "knee", "Throughput follows", "serial fraction"):
        assert word not in text, (word, text)


def test_still_rising_only_while_the_last_doubling_pays():
    x = [1, 2, 4, 8, 16]
    y = [10e3, 19e3, 35e3, 60e3, 80e3]  # SYNTHETIC: the last doubling adds 33 %
    (sat,) = _claims(nm.fit(_series(x, y), x="iodepth", y="iops"), "saturation")
    assert sat["facts"]["state"] == "rising" and sat["facts"]["last_gain_per_doubling"] == pytest.approx(1 / 3)
    assert "still rises at the largest iodepth" in sat["text"] and "no ceiling is reached" in sat["text"]
    y2 = [10e3, 19e3, 35e3, 60e3, 65e3]  # +8 %: saturating, not rising
    (sat2,) = _claims(nm.fit(_series(x, y2), x="iodepth", y="iops"), "saturation")
    assert sat2["facts"]["state"] == "onset" and sat2["facts"]["last_gain_per_doubling"] < PAYS


def test_a_fall_needs_more_than_the_band_a_level_is_read_within_without_repeats():
    x = [1, 2, 4, 8, 16, 32]
    small = [10e3, 20e3, 38e3, 40e3, 39.5e3, 37.5e3]  # SYNTHETIC: -6 % at the end: within ±10 %, no "falls"
    big = [10e3, 20e3, 38e3, 40e3, 36e3, 30e3]        # -25 %: a fall
    s1 = _claims(nm.fit(_series(x, small), x="iodepth", y="iops"), "saturation")[0]
    s2 = _claims(nm.fit(_series(x, big), x="iodepth", y="iops"), "saturation")[0]
    assert s1["facts"]["state"] == "onset" and "falls" not in s1["text"]
    assert s2["facts"]["state"] == "falls" and s2["text"].startswith("Measured IOPS peaks at 40.00 K IOPS at iodepth = 8")
    assert s2["facts"]["falls"]["drop"] == pytest.approx(0.25)


def test_a_plateau_of_large_blocks_is_stated_in_bytes_per_second_too():
    # measured here: a 200 MB/s throttle, 128 KiB reads along iodepth, fitted in IOPS
    (sat,) = _claims(_fit("here_blkio_bps_iodepth_128k", x="iodepth", y="iops"), "saturation")
    # fio's own bandwidth, not IOPS × size (fio rounds its IOPS; they agree within 1 %)
    assert sat["facts"]["plateau_bytes_per_s"] == pytest.approx(sat["facts"]["plateau_iops"] * 131072, rel=0.01)
    assert " GB/s" in sat["text"] and "IOPS" in sat["text"]


# --- caps along block size --------------------------------------------------------------------------------------------

def test_a_provisioned_volume_is_a_roofline_of_two_measured_caps():
    # measured here: 4000 IOPS and 256 MiB/s cgroup throttles on a loop device, 4 KiB .. 1 MiB
    res = _fit("here_blkio_roofline_bs", x="block_size_bytes", y="iops")
    (cap,) = _claims(res, "cap")
    f = cap["facts"]
    tbl = nm.read_results(_dev("here_blkio_roofline_bs"))
    iops = tbl.groupby("block_size_bytes")["iops"].sum().sort_index()
    bw = tbl.groupby("block_size_bytes")["bw_bytes_per_s"].sum().sort_index()
    small = iops[iops.index <= 65536]
    assert f["iops_cap"] == pytest.approx(small.max())  # a cap is the largest of the flat stretch, never its mean
    lo, hi = f["bytes_flat"]
    flat = res.points.set_index("block_size_bytes")  # the sizes the flat byte stretch covers, from the fact itself
    assert lo >= 65536 and hi == 1048576 and f["bytes_range"][1] == pytest.approx(f["bytes_cap"])
    assert f["bytes_range"][1] / f["bytes_range"][0] <= 1.10
    assert f["crossover_bytes"] == pytest.approx(f["bytes_cap"] / f["iops_cap"])
    assert f["rms_log_roofline"] < f["rms_log_smooth"]  # the data choose the hard minimum
    # one depth (16) at every size: the IOPS level is that depth's rate, not shown to be a cap from these files alone
    # (round 13, QC; the cgroup's 4000 IOPS is in gen.sh, not in fio's output); the byte cap is measured
    depth = float(res.points["outstanding"].iloc[0])
    assert f["one_depth"] == depth and (res.points["outstanding"] == depth).all()
    assert "an IOPS cap of" not in cap["text"] and f"all at {depth:g} I/Os outstanding" in cap["text"]
    # the flat bandwidth at that one depth: the bytes in flight (depth × size) grew ×16 over 64 KiB–1 MiB and fio's
    # latency with them (Little's law), so since round 16 (WB) it is a byte cap, measured — the 256 MiB/s throttle
    fl = f["bytes_inflight"]
    assert f["bytes_depth"] == depth and fl["growth"] == pytest.approx(hi / lo) and fl["growth"] >= 4
    assert all(0.9 <= c <= 1.1 for c in fl["little"]) and fl["lat"][1] / fl["lat"][0] >= 0.9 * fl["growth"]
    assert f"the bytes in flight grew ×{fl['growth']:.3g}" in cap["text"] and "a byte cap of" in cap["text"]
    assert "roofline" in cap["text"] and f["bytes_cap"] <= 256 * 2**20 * 1.10  # the throttle, within the noise
    # the smooth form's doubled caps are not stated: no "IOPS ceiling of …" from it
    text = res.explain()
    assert "IOPS ceiling of" not in text and "bandwidth ceiling of" not in text
    # nothing stated as a cap lies below what was measured
    assert f["iops_cap"] >= iops.max() * 0.999 or f["iops_cap"] >= small.max()


def test_a_small_block_rate_set_by_the_outstanding_io_is_not_an_iops_ceiling():
    # a consumer NVMe's QD1 sequential reads along block size (HoThanh7/RPI_ECSE_4320, fio 3.39): at 4 KiB one I/O
    # in flight at fio's latency gives the rate; the per-I/O + per-byte form is one I/O's time, no device ceiling
    assert int(hashlib.sha256(b"hothanh7_consumer-nvme_seqread_qd1_bs").hexdigest(), 16) % 3 != 0
    runs = pd.read_csv(CORPUS / "hothanh7_consumer-nvme_seqread_qd1_bs" / "points.csv")
    res = nm.fit(runs, x="block_size_bytes", y="bytes_per_s")
    (o,) = _claims(res, "outstanding")
    f = o["facts"]
    assert f["outstanding"] == 1 and f["bound"] == pytest.approx(1 / f["lat"])
    assert abs(f["bound"] / f["measured"] - 1) <= 0.10
    assert "an IOPS ceiling of the device is not measured at this depth" in o["text"]
    text = res.explain()
    # round 8: bandwidth nearly level at the largest sizes is a level the cap fact states: no model sentence beside it
    assert "IOPS ceiling of 9" not in text and "crossing at" not in text
    assert_no_model_level(res)


def test_a_byte_cap_down_to_the_smallest_block_sets_the_small_block_rate_itself():
    # measured here: a 200 MB/s throttle along block size at iodepth 16 (4 KiB runs at the cap too)
    res = _fit("here_blkio_bps_bs", x="block_size_bytes", y="bytes_per_s")
    (cap,) = _claims(res, "cap")
    assert cap["facts"]["bytes_flat"] == [4096.0, 1048576.0] and cap["facts"]["measured"]
    assert not _claims(res, "outstanding")  # its latency is the cap's queue, not one I/O's time


# --- the read/write mix -----------------------------------------------------------------------------------------------

def test_a_read_share_sweep_is_described_against_the_harmonic_mix():
    # measured here: 4000 read / 1000 write IOPS throttles; the rate is min(R/r, W/(1-r)), above the harmonic mix
    res = _fit("here_blkio_rwmix", x="read_fraction", y="iops")
    (mix,) = _claims(res, "mix")
    f = mix["facts"]
    for r, h in zip(f["shares"], f["harmonic"]):
        assert h == pytest.approx(1 / (r / f["read"] + (1 - r) / f["write"]))
    assert not f["below_harmonic"] and min(f["deficits"]) < -0.10
    assert "above it" in mix["text"] and "within 10" not in mix["text"]


def test_mixes_well_below_the_harmonic_mix_are_interference():
    # SYNTHETIC: pure runs 100 K / 50 K; the 50/50 mix makes 40 K against a harmonic 66.7 K (-40 %)
    tbl = _series([0.0, 0.5, 1.0], [50e3, 40e3, 100e3], xname="read_fraction")
    (mix,) = _claims(nm.fit(tbl, x="read_fraction", y="iops"), "mix")
    assert mix["facts"]["below_harmonic"] and mix["facts"]["deficit"] == pytest.approx(0.4)
    assert "interfere" in mix["text"]


# --- CPU per I/O ------------------------------------------------------------------------------------------------------

def test_the_null_engine_is_cpu_bound_and_no_storage_layer_is_named():
    res = _fit("here_null_iodepth", x="iodepth", y="iops")
    text = res.explain()
    assert "null engine does no I/O" in text and "CPU-bound" in text
    assert not _claims(res, "layer"), text  # direct=0 on an engine that does no I/O is no page cache
    assert "did not limit the rate" not in text


def test_cpu_is_judged_per_io_never_per_byte():
    # SYNTHETIC along block size: one job at 99 % of a CPU at 16 KiB and 89 % at 128 KiB; per byte the 128 KiB run
    # looks "cheaper", per I/O it is not: it made fewer I/Os with less CPU — the busy 16 KiB job is not "not binding"
    bs = [4096, 16384, 65536, 131072]
    iops = [95e3, 92e3, 60e3, 62.7e3]
    tbl = _series(bs, iops, xname="block_size_bytes", numjobs=1, iodepth=32, cpu_usr=[0.3, 0.3, 0.28, 0.27],
                  cpu_sys=[0.69, 0.699, 0.6, 0.62], bw_bytes_per_s=[b * i for b, i in zip(bs, iops)],
                  ios=[i * 10 for i in iops])
    res = nm.fit(tbl, x="block_size_bytes", y="bytes_per_s")
    text = res.explain()
    assert "did not limit the rate" not in text, text
    cf = curve_facts(res, ())
    per_io = np.asarray(cf.cpu.facts["cpu_s_per_io"])
    assert per_io == pytest.approx(np.asarray([0.99, 0.999, 0.88, 0.89]) / np.asarray(iops))


def test_a_level_total_cpu_with_more_jobs_is_left_open_without_the_hosts_core_count():
    # SYNTHETIC numjobs sweep: 2 CPUs' worth of usr+sys from 3 to 24 jobs and a flat rate — what a 2-core host
    # saturated looks like, and what a drive limit at a fixed CPU cost per I/O looks like on a big host. Since round
    # 23 (ZD, busy_jobs.py) a first multi-job point with every job ≥ 90 % busy decides it (the next test); here the 3
    # jobs were 65 % busy each, so it stays open
    nj = [1, 3, 6, 12, 24]
    iops = [1.0e6, 1.9e6, 1.95e6, 1.96e6, 1.95e6]
    cpus = [0.99, 1.95, 1.97, 1.98, 1.97]
    # writes: 1-8 µs reads at one I/O per job would be a cache's (round 14 SC judges every job count), not a drive's
    tbl = _series(nj, iops, xname="numjobs", iodepth=1, cpu_usr=[c / 2 for c in cpus], cpu_sys=[c / 2 for c in cpus],
                  lat_mean_s=[n / i for n, i in zip(nj, iops)], direction="write")
    tbl["cpu_usr"] = tbl["cpu_usr"] / tbl["numjobs"]  # fio's CPU is per job
    tbl["cpu_sys"] = tbl["cpu_sys"] / tbl["numjobs"]
    res = nm.fit(tbl, x="numjobs", y="iops")
    cpu = [c for c in _claims(res, "cpu") if c["facts"].get("cpu_bound") is None]
    assert cpu and "give the host" in cpu[0]["text"], res.explain()
    assert not [c for c in _claims(res, "cpu") if c["facts"].get("cpu_bound") is True], res.explain()
    assert "more jobs lifted that limit" not in res.explain()  # +3 % for twice the jobs lifts nothing


def test_a_level_total_cpu_after_every_job_was_busy_is_cpu_bound():
    # SYNTHETIC: the same sweep from 2 jobs, each 97.5 % busy at 2 — a rate held elsewhere leaves its jobs idle part
    # of the time; 2 busy jobs whose 14 successors got no more CPU are CPU-bound at those CPUs (round 23, ZD)
    nj = [1, 2, 4, 8, 16]
    iops = [1.0e6, 1.9e6, 1.95e6, 1.96e6, 1.95e6]
    cpus = [0.99, 1.95, 1.97, 1.98, 1.97]
    tbl = _series(nj, iops, xname="numjobs", iodepth=1, cpu_usr=[c / 2 for c in cpus], cpu_sys=[c / 2 for c in cpus],
                  lat_mean_s=[n / i for n, i in zip(nj, iops)], direction="write")
    tbl["cpu_usr"] = tbl["cpu_usr"] / tbl["numjobs"]
    tbl["cpu_sys"] = tbl["cpu_sys"] / tbl["numjobs"]
    res = nm.fit(tbl, x="numjobs", y="iops")
    cpu = [c for c in _claims(res, "cpu") if c["facts"].get("cpu_bound") is True]
    assert cpu and "every job was busy at 2 and more jobs only shared those CPUs" in cpu[0]["text"], res.explain()
    assert "give the host" not in res.explain()


# --- the layer that served the I/O ------------------------------------------------------------------------------------

@pytest.mark.parametrize("case, layer", [("here_loop_iodepth", "loop"), ("here_tmpfs_pagecache_bs", "page_cache")])
def test_the_layer_is_named_before_any_drive_level_sentence(case, layer):
    kw = {"x": "iodepth", "y": "iops"} if "iodepth" in case else {"x": "block_size_bytes", "y": "bytes_per_s"}
    res = _fit(case, **kw)
    claims = res.claims()
    (first_layer,) = [i for i, c in enumerate(claims) if c["kind"] == "layer"]
    assert claims[first_layer]["facts"]["layer"] == layer
    assert all(c["kind"] not in ("model", "attribution", "falsified") for c in claims[:first_layer])


def test_a_rate_beyond_a_drives_link_names_a_layer_above_the_drives():
    # SYNTHETIC: 40 GB/s from one file — more than the x4 link of the newest catalogued drive generation carries
    tbl = _series([1, 2, 4, 8], [1e5, 2e5, 3e5, 3.1e5], xname="numjobs", iodepth=1, targets=1,
                  bw_bytes_per_s=[v * 131072 for v in (1e5, 2e5, 3e5, 3.1e5)], block_size_bytes=131072)
    res = nm.fit(tbl, x="numjobs", y="bytes_per_s")
    (layer,) = _claims(res, "layer")
    assert layer["facts"]["layer"] == "beyond_device" and layer["facts"]["per_target"] > layer["facts"]["limit"]


@pytest.mark.parametrize("hosts, path, devices, layer", [
    (4, "/vast/glock", None, "network_fs"),           # elbencho --hosts: one namespace written from 4 machines
    (1, "/vast/glock", None, None),                   # one host: nothing in the files tells what serves the path
    (4, "/dev/nvme0n1", None, None),                  # a block device node on every host: each host's own disk
    (4, "/mnt/scratch", "nvme0n1", None),             # a local disk recorded under the path
])
def test_a_path_written_from_several_hosts_at_once_is_a_network_file_system(hosts, path, devices, layer):
    # SYNTHETIC table in the form of the elbencho cases of the corpus (tool, hosts, path columns; no fio fields):
    # the layer comes from what the results say, for any tool
    tbl = _series([4, 8, 16, 32], [1e3, 2e3, 3e3, 3.1e3], xname="numjobs", iodepth=1, tool="elbencho", hosts=hosts,
                  path=path, block_size_bytes=1048576, lat_mean_s=[4 / 1e3, 8 / 2e3, 16 / 3e3, 32 / 3.1e3],
                  **({"devices": devices} if devices else {}))
    res = nm.fit(tbl, x="numjobs", y="iops")
    got = [c["facts"]["layer"] for c in _claims(res, "layer")]
    assert got == ([layer] if layer else []), res.explain()
    if layer:
        assert "several hosts" in _claims(res, "layer")[0]["text"] and path in _claims(res, "layer")[0]["text"]
    # whose record a sentence reads: elbencho's latency, never "fio's"
    assert "fio's" not in res.explain() and "elbencho's mean latency" in res.explain(), res.explain()


# --- models support the story ----------------------------------------------------------------------------------------

def test_a_model_that_misses_a_point_by_more_than_a_quarter_is_not_read():
    x = [1, 2, 4, 8, 16, 32]
    y = [5e3, 30e3, 40e3, 42e3, 43e3, 43.5e3]  # SYNTHETIC: a jump no queueing law makes from QD 1 to 2
    res = nm.fit(_series(x, y), x="iodepth", y="iops")
    t = curve_facts(res, ()).trust.facts
    text = res.explain()
    if t["r2"] < 0.9 or t["max_miss"] > 0.25:
        assert ("does not describe these points closely enough" in text
                or "No queueing model rises faster than its load" in text), text
        assert "95 % CI" not in text and "Knee at" not in text


def test_no_littles_law_cap_is_stated_below_a_measurement():
    x = [1, 2, 4, 8, 16, 32, 64]
    y = [40e3, 75e3, 130e3, 180e3, 200e3, 215e3, 199e3]  # SYNTHETIC: one high point above the level
    res = nm.fit(_series(x, y), x="iodepth", y="iops", model="littles")
    f = res.fit_of()
    text = res.explain()
    if f.values["x_max"] < max(y) / 1.02:
        assert f"{nm.fitting.explain.fmt_y(f.values['x_max'], '1/s')}" not in text, text


def test_a_superlinear_step_asserts_no_cause():
    x = [1, 2, 4, 8]
    y = [2e3, 20e3, 38e3, 60e3]  # SYNTHETIC: ×10 for ×2 the load
    text = nm.fit(_series(x, y, lat=[5e-4, 1e-4, 1.05e-4, 1.33e-4]), x="iodepth", y="iops").explain()
    assert "No queueing model rises faster than its load" in text
    assert "not in the same state" not in text and "cannot tell which" in text


# --- titles of several curves -----------------------------------------------------------------------------------------

def test_a_multi_curve_subtitle_names_every_engine():
    from nvmemodel.plots.fit import measurement_title

    rows = []
    for engine, top in (("io_uring", 3e5), ("libaio", 2.5e5), ("spdk", 5e5)):
        for qd, frac in ((1, 0.1), (4, 0.4), (16, 0.9), (64, 1.0)):
            rows.append({"source_path": f"synthetic/{engine}_qd{qd}.json", "iodepth": qd, "iops": top * frac,
                         "ioengine": engine, "pattern": "randread", "block_size_bytes": 4096.0,
                         "tool_version": "fio-3.33", "numjobs": 1, "direction": "read"})
    res = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops", by="ioengine")
    assert "io_uring" not in measurement_title(res)[1]  # the curves' own key is in the legend
    t = pd.DataFrame(rows)
    t["job_name"] = t["ioengine"]
    sub = measurement_title(nm.fit(t, x="iodepth", y="iops", by="job_name"))[1]
    assert "io_uring/libaio/spdk" in sub, sub  # every curve's engine, not the most common one for all three


def test_a_level_shared_by_every_curve_is_said_once():
    # SYNTHETIC: two engines saturating at the same 17 K IOPS (a provisioned cap would do this)
    rows = []
    for eng, k in (("libaio", 1.01), ("io_uring", 1.0)):
        for qd, v in ((1, 5e3), (2, 9e3), (4, 16e3), (8, 17e3), (16, 17.2e3), (32, 17.1e3)):
            rows.append({"source_path": f"synthetic/{eng}{qd}.json", "iodepth": qd, "iops": v * k, "ioengine": eng,
                         "lat_mean_s": qd / (v * k)})
    text = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops", by="ioengine").explain()
    assert text.count("levels at the same rate") == 1
    assert text.startswith("Every curve (ioengine=io_uring, ioengine=libaio) levels at the same rate")
    assert "what differs between them (ioengine) does not set that level" in text


def test_a_knee_where_the_submitting_job_ran_out_of_cpu_is_not_a_device_queue():
    # SYNTHETIC: one job along iodepth, 90-99 % of a CPU from QD 4 on (fio's usr+sys per job), IOPS level there
    x = [1, 2, 4, 8, 16, 32]
    y = [30e3, 55e3, 85e3, 92e3, 92.5e3, 92.3e3]
    cpu = [0.4, 0.65, 0.9, 0.97, 0.99, 0.99]
    t = pd.DataFrame({"source_path": [f"synthetic/qd{q}.json" for q in x], "iodepth": x, "iops": y, "numjobs": 1,
                      "cpu_usr": [c * 0.3 for c in cpu], "cpu_sys": [c * 0.7 for c in cpu],
                      "lat_mean_s": [q / v for q, v in zip(x, y)]})
    res = nm.fit(t, x="iodepth", y="iops")
    (cpu_fact,) = [c for c in _claims(res, "cpu") if c["facts"]]
    f = cpu_fact["facts"]
    assert f["cpu_bound"] is True and f["at_x"] == 4
    assert f["at_cpu_s_per_io"] == pytest.approx(0.9 / 85e3) and f["iops_per_cpu"] == pytest.approx(85e3 / 0.9)
    text = res.explain()
    assert "Throughput follows Little's law" not in text  # no device queue's knee
    # round 8: the CPU fact names the limit; beside the measured level the model states no knee at all
    assert "the level is CPU-bound (the submitting job, ≥ 90% busy), not a device queue" in text
    assert_no_model_level(res)


def test_the_fit_figure_draws_the_measured_caps_where_the_roofline_holds_better():
    # the explanation reads no fitted ceiling when two measured caps (a roofline) describe the points better: the
    # figure must not draw the smooth form's doubled ceilings either (issue 28: a misleading figure is a bug)
    import matplotlib.pyplot as plt

    res = _fit("here_blkio_roofline_bs", x="block_size_bytes", y="iops")
    fig = res.plot()
    labels = fig.axes[0].get_legend_handles_labels()[1]
    cap = curve_facts(res, ()).cap.facts
    assert any(lbl.startswith("IOPS cap ") and "(measured)" in lbl for lbl in labels), labels
    assert any(lbl.startswith("byte cap ") and "(measured)" in lbl for lbl in labels), labels
    assert not any(lbl.startswith(("IOPS ceiling", "bandwidth ceiling")) for lbl in labels), labels
    assert any(f"{cap['crossover_bytes'] / 1024:.3g} KiB" in lbl for lbl in labels), labels
    plt.close(fig)


# --- words: no range of one value, no "scatter" of a steady creep ------------------------------------------------------

def test_no_range_has_two_equal_ends():
    from tests.fitting.corpus_score import _DEGENERATE

    # here_loop_iodepth: one point after the onset (-11 %), was "(-11% … -11%)"; here_loop_rwmix: every run's
    # Little's-law ratio 1.00, was "1.00–1.00"
    for case, kw in (("here_loop_iodepth", {"x": "iodepth", "y": "iops"}),
                     ("here_loop_rwmix", {"x": "read_fraction", "y": "iops"})):
        res = _fit(case, **kw)
        for c in res.claims():
            assert not _DEGENERATE.search(c["text"]), c["text"]
    (sat,) = _claims(_fit("here_loop_iodepth", x="iodepth", y="iops"), "saturation")
    # the -11 % was QD64's mean with its split-off 58.9 K run; the point table gives QD64 no level (round 15 UA)
    assert "-11%" not in sat["text"] and "split into two groups" in sat["text"], sat["text"]


def test_a_steady_creep_after_the_onset_is_not_called_scatter():
    # SYNTHETIC: +4 %, +3 %, +12 % after the onset at 4 — each later point < 10 % per doubling over the onset
    x = [1, 2, 4, 8, 16, 32]
    y = [8e3, 15e3, 19e3, 19.76e3, 20.35e3, 22.8e3]
    res = nm.fit(_series(x, y, lat=[n / v for n, v in zip(x, y)]), x="iodepth", y="iops")
    (sat,) = _claims(res, "saturation")
    assert sat["facts"]["onset_x"] == 4 and "scatter" not in sat["text"], sat["text"]
    assert "still creeps up step by step (+3% … +12%)" in sat["text"] and "22.80 K IOPS at the last point" in sat["text"]


# --- the per-I/O + per-byte model along block size, read as far as the facts let it ----------------------------------

def _case(case):
    from tests.fitting import corpus_score as cs

    assert cs.split_of(case) == "dev"
    return cs.fit_case(CORPUS / case, cs.load_case(CORPUS / case))


def test_the_smooth_forms_ceiling_above_a_measured_level_is_not_stated_as_one():
    # upcloud virtio: bandwidth 0.413 → 0.420 GB/s from 64 to 128 KiB (+2 % for twice the block); the smooth form's
    # bandwidth term, 0.541 GB/s, overshoots it; its IOPS ceiling's interval reached 11.59 K below the 14.05 K measured
    # round 8: the cap fact states the level ("a byte limit at or above 0.42 GB/s"): no model term or ceiling beside it
    res = _case("vpscmp_upcloud-virtio_seqread_qd32_bs")
    assert "a byte limit at or above 0.42 GB/s" in res.explain() and "0.541" not in res.explain()
    assert_no_model_level(res)


def test_a_cpu_bound_smallest_block_is_its_cpus_rate_not_a_queue_depths():
    # DandinPower md RAID-0: one io_uring job at 98 % of a CPU at 4 KiB
    res = _case("dandinpower_mdraid0-2nvme_seqread_qd16_bs")
    # (blind4: the 1.58 M term is 1.6× the 990 K measured; round 8: beside the byte level no model term at all — the
    # CPU fact names the small-block limit)
    assert "at block_size_bytes = 4 KiB the job used 98.4 % of a CPU" in res.explain()
    assert "a deeper queue may raise it" not in res.explain()
    assert_no_model_level(res)


def test_no_bandwidth_ceiling_while_bandwidth_still_rises_at_the_largest_block():
    # SYNTHETIC: 4 outstanding I/Os, time per I/O 80 µs + size ÷ 0.35 GB/s, bandwidth +40 % in the last doubling
    b = np.array([512, 4096, 16384, 32768], float)
    iops = 4 / (80e-6 + b / 0.35e9)
    tbl = _series(list(b), list(iops), xname="block_size_bytes", iodepth=4, lat_mean_s=list(4 / iops),
                  bw_bytes_per_s=list(iops * b))
    res = nm.fit(tbl, x="block_size_bytes", y="bytes_per_s", model="per_io_byte")
    text = " ".join(c["text"] for c in res.claims() if c["kind"] == "model")
    assert "bandwidth still rises at the largest block (+46% from 16 KiB to 32 KiB)" in text, text
    assert "a bandwidth ceiling of" not in text and "50.00 K IOPS–50.00 K IOPS" not in text, text


def test_a_busy_job_at_the_last_point_of_a_rising_curve_holds_that_point_not_a_level():
    # fioplot md RAID-0 of 4 SATA SSDs: +25 % per doubling from QD 32 to 64 while the one job is at 100 % of a CPU
    claims = _case("fioplot_mdraid0-4ssd_4k-randread_qd").claims()
    (sat,) = [c for c in claims if c["kind"] == "saturation"]
    assert sat["facts"]["state"] == "rising" and "the ceiling the curve approaches is that job's CPU" in sat["text"]
    cpu = [c["text"] for c in claims if c["kind"] == "cpu" and c["facts"].get("cpu_bound")]
    assert cpu and "the level is" not in cpu[0] and "a larger iodepth cannot raise it much" in cpu[0], cpu


def test_a_level_cpu_total_below_what_the_same_host_used_elsewhere_is_spare_cpu():
    # oberstet: 16 NVMe namespaces (148 CPUs level from 1024 threads) and the same host's md RAID-0 (176 CPUs): "if
    # this host has about 148 CPUs" was offered though the host's jobs used 176 in the other curve
    claims = _case("oberstet_16nvme-p3608_4k-randread_psync_threads_sector4096").claims()
    texts = [c["text"] for c in claims if c["kind"] == "cpu"]
    assert not any("about 148 CPUs" in t for t in texts), texts
    assert any("fewer than the 176 CPUs the jobs of this result used at layout = md" in t and "to spare" in t
               for t in texts), texts


def test_a_read_share_sweep_at_different_loads_reads_no_interference():
    # SYNTHETIC, in the form of oberstet's 8 KiB file (/work/shared: 768 reading threads, 32 writing, 256 mixed):
    # the harmonic mix compares each direction at the mix's load, so no interference verdict is read
    tbl = _series([0.0, 0.7, 1.0], [1.17e6, 1.29e6, 3.51e6], xname="read_fraction", numjobs=[32, 256, 768], iodepth=1)
    (mix,) = _claims(nm.fit(tbl, x="read_fraction", y="iops"), "mix")
    assert mix["facts"]["below_harmonic"] is None and mix["facts"]["loads_differ"] == [32.0, 256.0, 768.0]
    assert "different loads (32, 256, 768 I/Os outstanding)" in mix["text"] and "interfere beyond" not in mix["text"]
    same = _series([0.0, 0.7, 1.0], [1.17e6, 1.29e6, 3.51e6], xname="read_fraction", numjobs=256, iodepth=1)
    (mix,) = _claims(nm.fit(same, x="read_fraction", y="iops"), "mix")
    assert mix["facts"]["below_harmonic"] is True and mix["facts"]["loads_differ"] is None


def test_bandwidth_lower_at_the_largest_block_than_at_a_peak_is_a_fall_and_the_peak_a_byte_cap():
    # vpscmp vultr virtio (dev): 0.21 GB/s at 64 KiB, 0.182 GB/s at 128 KiB (-13 %, one run a point): was "flattens at
    # 0.187 GB/s", no fall and no byte cap said
    claims = _case("vpscmp_vultr-virtio_seqread_qd32_bs").claims()
    (f,) = [c for c in claims if c["kind"] == "falls"]
    assert f["facts"]["x_max"] == 65536 and f["facts"]["drop"] == pytest.approx(0.133, abs=0.005)
    assert "a byte cap of 0.21 GB/s (0.195 GiB/s) or a little above, measured" in f["text"]
    assert not [c for c in claims if c["kind"] == "plateau"]
    # SYNTHETIC: -8 % at the largest block, inside the ±10 % band: no fall
    b = [4096, 16384, 65536, 131072]
    tbl = _series(b, [30e3, 12e3, 3.2e3, 1.47e3], xname="block_size_bytes", iodepth=32,
                  bw_bytes_per_s=[v * x for v, x in zip([30e3, 12e3, 3.2e3, 1.47e3], b)])
    res = nm.fit(tbl, x="block_size_bytes", y="bytes_per_s")
    assert curve_facts(res, ()).size_fall is None
