"""Numbers the data contradict and causes read from unknown quantities (round 13, classes PD, QC, PC, PE; round 12's
NE on notebook 06's VM series): each rule on the spent case that set it and on a counter-case where it must not fire."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import READ_FLOOR_S, curve_facts
from tests.fitting import corpus_score as cs

CEPH = "r13_cephpr27392_bluestore-ramdisk-{}_randwrite_qd16_bs"


def _fit(case_id, split=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.fit_case_id(case_id, split)


def _claim(res, kind):
    said = [c for c in res.claims() if c["kind"] == kind]
    assert len(said) == 1, [c["text"] for c in res.claims()]
    return said[0]


def _iops_term(res):
    key = next(iter(res.fits))
    f = res.fits[key]["per_io_byte"]
    pts = res.points.sort_values(res.x)
    iops = pts["iops"].to_numpy(float) if "iops" in pts else (pts["y"] / pts[res.x]).to_numpy(float)
    return f.values["iops_max"], f.ci_low["iops_max"], float(np.max(iops))


def test_a_ceiling_whose_interval_lies_above_every_point_is_an_extrapolation_r13_pd():
    res = _fit(CEPH.format("iouring"), "blind13")
    im, lo, top = _iops_term(res)
    assert lo > top  # the whole interval above the 30.7 K measured
    text = _claim(res, "model")["text"]
    assert "an IOPS ceiling of" not in text and "not reached, an extrapolation of the fit" in text


def test_a_ceiling_the_measurements_reach_into_keeps_its_value_r13_pd_counter():
    # counter-case: libaio's interval reaches below the 25.5 K measured, so the measured value bounds it
    res = _fit(CEPH.format("libaio"), "blind13")
    im, lo, top = _iops_term(res)
    assert lo <= top < im
    assert "an IOPS ceiling of" in _claim(res, "model")["text"]


@pytest.mark.parametrize("engine", ["iouring", "libaio"])
def test_no_in_flight_cause_from_a_typed_latency_r13_pc(engine):
    res = _fit(CEPH.format(engine), "blind13")
    assert (res.table["format"] == "transcribed").all()
    pts = res.points.sort_values(res.x)
    share = float(pts["iops"].iloc[0] * pts["lat"].iloc[0] / pts["outstanding"].iloc[0]) if "lat" in pts else None
    text = res.explain()
    assert "what submits the I/O held it" not in text and "were in flight by Little's law" not in text, (share, text)


def test_fio_total_latency_still_gives_the_in_flight_share_r13_pc_counter(tmp_path):
    # counter-case (seeded from the spent libaio case): the same table as fio's own JSON with fio's total latency —
    # 25.5 K × 374 µs ÷ 16 = 60 % in flight is then a measurement, and the sentence stays
    src = cs.CORPUS / CEPH.format("libaio")
    rows = pd.read_csv(src / "points.csv", low_memory=False)
    rows["format"] = "fio-json"
    rows.to_csv(tmp_path / "points.csv", index=False)
    (tmp_path / "case.json").write_text((src / "case.json").read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cs.fit_case(tmp_path, cs.load_case(tmp_path))
    share = 25.5e3 * 0.374e-3 / 16
    text = res.explain()
    assert "what submits the I/O held it" in text and f"only {share:.0%} were in flight" in text, text


def test_flat_iops_at_one_depth_is_that_depths_rate_r13_qc():
    res = _fit("r13_krien-znsspdk_zns-spdk_seqread_qd4_bs", "blind13")
    cap = _claim(res, "cap")
    depth = float(res.points["outstanding"].iloc[0])
    assert depth > 1 and (res.points["outstanding"] == depth).all()
    assert cap["facts"]["one_depth"] == depth
    assert "not shown to be a cap" in cap["text"] and "an IOPS cap of" not in cap["text"]
    assert f"all at {depth:g} I/Os outstanding" in cap["text"]
    # the byte level at the same one depth: the bytes in flight (4 × the size) grew ×4 over 8–32 KiB while the byte
    # rate stayed 2.24–2.32 GB/s and Little's law held — a byte cap, measured (set after round 16 was read, WB; the
    # case's reading: "from 8 KiB the bandwidth stays at 2.24-2.32 GB/s … a bandwidth cap")
    p = pd.read_csv(cs.CORPUS / "r13_krien-znsspdk_zns-spdk_seqread_qd4_bs" / "points.csv")
    big = p[p["block_size_bytes"] >= 8192]
    bw = big["block_size_bytes"] * big["iops"]
    m = re.search(r"bandwidth is flat at ([\d.]+) GB/s \([\d.]+ GiB/s\)–([\d.]+) GB/s \([\d.]+ GiB/s\) from 8 KiB to "
                  r"32 KiB, all at 4 I/Os outstanding: the bytes in flight grew ×4 \(32 KiB → 128 KiB\)", cap["text"])
    assert m, cap["text"]
    assert float(m[1]) == pytest.approx(bw.min() / 1e9, abs=0.005) and float(m[2]) == pytest.approx(bw.max() / 1e9,
                                                                                                    abs=0.005)
    assert f"a byte cap of {bw.max() / 1e9:.3g} GB/s" in cap["text"] and cap["facts"]["bytes_depth"] == depth


def test_flat_iops_with_the_depth_changing_is_still_a_cap_r13_qc_counter():
    # counter-case (seeded synthetic): a roofline whose IOPS stay at 20 K from 4 to 64 KiB while the queue asked for
    # doubles with the size — more load did not raise the rate, so the level is a cap the data show
    sizes = [4096, 8192, 16384, 32768, 65536, 131072, 262144]
    rng = np.random.default_rng(13)
    iops = np.minimum(20e3, 1.6e9 / np.array(sizes)) * rng.uniform(0.99, 1.01, len(sizes))
    depth = np.array([4, 8, 16, 32, 64, 64, 64])
    t = pd.DataFrame({"block_size_bytes": sizes, "iodepth": depth, "numjobs": 1, "iops": iops,
                      "bw_bytes_per_s": iops * sizes, "lat_mean_s": depth / iops, "direction": "read",
                      "pattern": "randread", "ioengine": "libaio", "direct": True, "run": range(len(sizes)),
                      "source_path": [f"s{i}.json" for i in range(len(sizes))]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(t, x="block_size_bytes", y="iops")
    cf = curve_facts(res, next(iter(res.fits)))
    assert cf.cap is not None and cf.cap.facts["iops_cap"] and cf.cap.facts["one_depth"] is None
    assert "an IOPS cap of" in _claim(res, "cap")["text"]


def test_filecreate_gets_no_page_cache_sentence_r13_pe():
    res = _fit("r13_here-meta_tmpfs_filecreate_numjobs_repeats", "blind13")
    assert set(res.table["ioengine"].dropna()) == {"filecreate"}
    assert "page cache" not in res.explain()


def test_buffered_data_io_on_tmpfs_keeps_the_page_cache_r13_pe_counter():
    res = _fit("r9_here-mmap_tmpfs_randread_bs_repeats", "blind9")
    assert "page cache" in res.explain()


def test_notebook06_vm_read_at_qd1_is_no_cache_ne():
    # notebook 06's libaio series in a VM (vda): at QD1 the completion median is 2–62 µs, but each read spent 58–77 µs
    # in fio's submission first (a virtio disk under libaio does the request inside io_submit); fio's total mean is
    # 113–117 µs (= 1 ÷ 8.6 K IOPS): no faster than a drive, so no cache sentence (the stored outputs before
    # 2f699ea said one, from the completion median alone)
    t = nm.read_results(cs.CORPUS.parents[1] / "data" / "fit" / "local" / "qd")
    qd1 = t[(t["direction"] == "read") & (t["iodepth"] == 1)]
    assert (qd1["lat_mean_s"] > 20 * READ_FLOOR_S).all()
    assert (qd1["clat_p50_s"].median() + qd1["slat_mean_s"].mean()) > READ_FLOOR_S
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(t, x="iodepth", y="iops")
    assert "Faster than any drive" not in res.explain()


def test_one_depth_level_of_a_busy_job_asks_for_more_jobs_r10():
    # the same rule where the job was ≥ 90 % busy on its one CPU (spent r10 980pro, QD128): one story with the CPU
    # claim ("CPU-bound"), so more jobs, not a deeper queue, would tell; znsspdk's polling job (100 %, spinning) is no
    # such case and keeps "a deeper queue" (test above)
    res = _fit("r10_icpe24sched_980pro_randread_iouring-1core_qd128_bs", "blind10")
    cap = _claim(res, "cap")
    assert cap["facts"]["one_depth"] == 128
    assert "more jobs, not a deeper queue, would tell" in cap["text"]
    assert "CPU-bound" in res.explain()
    text = _claim(_fit("r13_krien-znsspdk_zns-spdk_seqread_qd4_bs", "blind13"), "cap")["text"]
    assert "(a deeper queue would tell)" in text
